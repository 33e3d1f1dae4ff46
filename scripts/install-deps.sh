#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian/Ubuntu packages perfprobe needs, only those missing.
#
#   scripts/install-deps.sh          tools and their tests
#   scripts/install-deps.sh --all    also the kernel module and QEMU tests,
#                                    the arm64 cross build (--arm64) and
#                                    LAVA's dispatcher with the device-type
#                                    templates of lava-server, unpacked into
#                                    /var/cache/perfprobe/lava (make check-lava)
#   scripts/install-deps.sh --arm64  the arm64 cross build only: the cross
#                                    compiler, Debian's :arm64 libraries
#                                    (multiarch), qemu-user with binfmt_misc,
#                                    qemu-system-aarch64 for the arm64 guest
#
# Needs root (or sudo) only when something is missing.  While another
# apt or dpkg (unattended-upgrades, say) holds the package system's locks
# it waits, up to $PERFPROBE_APT_LOCK_WAIT seconds (default 600).
set -eu

TOOLS="build-essential pkg-config libjansson-dev libcmocka-dev libtirpc-dev
libnl-3-dev libnl-genl-3-dev libelf-dev libdw-dev libssl-dev libkcapi-dev libbpf-dev
clang llvm bpftool
jq perl iproute2 util-linux procps
chromium tidy fonts-dejavu-core python3 python3-jsonschema
python3-docutils man-db groff-base zsh
debhelper dh-dkms dkms lintian fakeroot dpkg-dev git"
KMOD="linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static
cpio kmod sparse linux-source-6.1 xz-utils zstd python3 python3-yaml dwarves"

# LAVA's dispatcher, which runs make check-lava's jobs (lava-run; cpio,
# in KMOD, puts its test overlay into the initramfs): Documentation/lava.rst.
LAVA="lava-dispatcher python3-jinja2 python3-yaml"
# lava-server's device-type templates: the package is downloaded and
# only they are unpacked (the server is not needed to run a job).
LAVA_CACHE=${PERFPROBE_LAVA_CACHE:-/var/cache/perfprobe/lava}
LAVA_TEMPLATES=$LAVA_CACHE/usr/share/lava-server/device-types

# The arm64 cross build (Documentation/arm.rst): the libraries perfprobe
# links, as Debian's multiarch :arm64 packages.
ARM64="crossbuild-essential-arm64 qemu-user-static binfmt-support qemu-system-arm
libjansson-dev:arm64 libnl-3-dev:arm64 libnl-genl-3-dev:arm64 libelf-dev:arm64 libdw-dev:arm64
libssl-dev:arm64 libkcapi-dev:arm64 libtirpc-dev:arm64 libbpf-dev:arm64 libbz2-dev:arm64"

want="$TOOLS"
arm64=0
lava=0
case "${1:-}" in
--all) want="$TOOLS $KMOD $ARM64 $LAVA"; arm64=1; lava=1 ;;
--kmod) want="$KMOD" ;;
--arm64) want="$ARM64"; arm64=1 ;;
"") ;;
-h|--help) sed -n '3,19p' "$0"; exit 0 ;;
*) echo "install-deps.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "install-deps.sh: not a Debian-based system: install by hand: $want" >&2
	exit 1
fi

# The locks apt and dpkg take; another process holding one makes apt-get
# fail at once (exit 100) unless we wait.
APT_LOCKS="/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock
/var/lib/apt/lists/lock /var/cache/apt/archives/lock"
lock_wait=${PERFPROBE_APT_LOCK_WAIT:-600}
case "$lock_wait" in
''|*[!0-9]*)
	echo "install-deps.sh: PERFPROBE_APT_LOCK_WAIT=$lock_wait: not a number of seconds" >&2
	exit 2 ;;
esac
waited=0

# "PID NAME FILE" of a lock another process holds, from /proc/locks
# (world-readable: no root needed to ask), or nothing.
lock_holder() {
	for f in $APT_LOCKS; do
		[ -e "$f" ] || continue
		# shellcheck disable=SC2046
		set -- $(stat -L -c '%d %i' "$f")
		id=$(printf '%02x:%02x:%s' $((($1 >> 8) & 0xfff)) \
			$((($1 & 0xff) | (($1 >> 12) & 0xfff00))) "$2")
		pid=$(awk -v id="$id" '$2 != "->" && $6 == id && $5 > 0 { print $5; exit }' \
			/proc/locks 2>/dev/null)
		if [ -n "$pid" ]; then
			echo "$pid $(cat "/proc/$pid/comm" 2>/dev/null || echo '?') $f"
			return
		fi
	done
}

# Wait until no other process holds an apt or dpkg lock, saying once what
# for; give up after $lock_wait seconds in all.
wait_apt_locks() {
	said=
	while h=$(lock_holder) && [ -n "$h" ]; do
		# shellcheck disable=SC2086
		set -- $h
		if [ "$waited" -ge "$lock_wait" ]; then
			echo "install-deps.sh: gave up after ${lock_wait} s: $3 is still held by process $1 ($2); run it again when that has finished (PERFPROBE_APT_LOCK_WAIT=SECONDS waits longer)" >&2
			exit 1
		fi
		if [ "$said" != "$1" ]; then
			echo "install-deps.sh: waiting for $3, held by process $1 ($2), up to $((lock_wait - waited)) s"
			said=$1
		fi
		sleep 1
		waited=$((waited + 1))
	done
}

# apt-get once the locks are free; apt's own DPkg::Lock::Timeout covers
# dpkg's locks should another process take them in between.  A run that
# failed while a lock is held (it lost that race) is tried again, its
# time counted as waiting.
apt_get() {
	while :; do
		wait_apt_locks
		rc=0
		t=$(date +%s)
		$SUDO apt-get -o DPkg::Lock::Timeout=$((lock_wait - waited)) "$@" || rc=$?
		[ "$rc" -ne 0 ] && [ -n "$(lock_holder)" ] || return "$rc"
		waited=$((waited + $(date +%s) - t))
	done
}

# :arm64 packages need the architecture known to dpkg (and a fresh list)
if [ "$arm64" = 1 ] && [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] &&
	! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "install-deps.sh: adding the arm64 architecture (multiarch)"
	wait_apt_locks
	if [ "$(id -u)" -ne 0 ]; then sudo dpkg --add-architecture arm64; else dpkg --add-architecture arm64; fi
fi

native=$(dpkg --print-architecture)
missing=""
for p in $want; do
	case "$p" in
	linux-headers-amd64|linux-image-amd64)
		[ "$(dpkg --print-architecture)" = amd64 ] || continue ;;
	esac
	# with multiarch a name may be installed for several architectures:
	# unqualified wants the native one (or "all"), "name:arm64" arm64's
	dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$p" 2>/dev/null |
		grep -Eq "^installed ($native|all|${p##*:})\$" || missing="$missing $p"
done

templates_missing() {
	[ "$lava" = 1 ] && [ ! -f "$LAVA_TEMPLATES/qemu.jinja2" ] &&
		[ ! -f /usr/share/lava-server/device-types/qemu.jinja2 ]
}

if [ -z "$missing" ] && ! templates_missing; then
	echo "install-deps.sh: all packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps.sh: need root to install:$missing (run as root or install sudo)" >&2
		exit 1
	fi
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "install-deps.sh: installing:$missing"
	apt_get update -qq
	# shellcheck disable=SC2086
	apt_get install -y -qq --no-install-recommends $missing
fi

# lava-server's device-type templates, unpacked from its package into
# $LAVA_CACHE (nothing of the server installed); once.
if templates_missing; then
	echo "install-deps.sh: unpacking lava-server's device-type templates into $LAVA_CACHE"
	dl=$(mktemp -d "${TMPDIR:-/tmp}/install-deps.XXXXXX")
	chmod 0755 "$dl"
	(cd "$dl" && apt_get -o APT::Sandbox::User=root -qq download lava-server) &&
		$SUDO mkdir -p "$LAVA_CACHE" &&
		$SUDO dpkg-deb --fsys-tarfile "$dl"/lava-server_*.deb |
		$SUDO tar -x -C "$LAVA_CACHE" ./usr/share/lava-server/device-types ||
		{ rm -rf "$dl"; echo "install-deps.sh: could not unpack lava-server's templates" >&2; exit 1; }
	rm -rf "$dl"
	[ -f "$LAVA_TEMPLATES/qemu.jinja2" ] ||
		{ echo "install-deps.sh: lava-server's package has no qemu.jinja2" >&2; exit 1; }
fi
