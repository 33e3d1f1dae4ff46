#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian/Ubuntu packages perfprobe needs, only those missing.
#
#   scripts/install-deps.sh          tools and their tests
#   scripts/install-deps.sh --all    also the kernel module and QEMU tests,
#                                    and the arm64 cross build (--arm64)
#   scripts/install-deps.sh --arm64  the arm64 cross build only: the cross
#                                    compiler, Debian's :arm64 libraries
#                                    (multiarch), qemu-user with binfmt_misc,
#                                    qemu-system-aarch64 for the arm64 guest
#
# Needs root (or sudo) only when something is missing.
set -eu

TOOLS="build-essential pkg-config libjansson-dev libcmocka-dev libtirpc-dev
libnl-3-dev libnl-genl-3-dev libelf-dev libssl-dev libkcapi-dev libbpf-dev
clang llvm bpftool
jq perl iproute2 util-linux procps
chromium tidy fonts-dejavu-core python3
python3-docutils man-db groff-base zsh
debhelper dh-dkms dkms lintian fakeroot dpkg-dev git"
KMOD="linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static
cpio kmod sparse linux-source-6.1 xz-utils python3 python3-yaml dwarves"

# The arm64 cross build (Documentation/arm.rst): the libraries perfprobe
# links, as Debian's multiarch :arm64 packages.
ARM64="crossbuild-essential-arm64 qemu-user-static binfmt-support qemu-system-arm
libjansson-dev:arm64 libnl-3-dev:arm64 libnl-genl-3-dev:arm64 libelf-dev:arm64
libssl-dev:arm64 libkcapi-dev:arm64 libtirpc-dev:arm64 libbpf-dev:arm64"

want="$TOOLS"
arm64=0
case "${1:-}" in
--all) want="$TOOLS $KMOD $ARM64"; arm64=1 ;;
--kmod) want="$KMOD" ;;
--arm64) want="$ARM64"; arm64=1 ;;
"") ;;
-h|--help) sed -n '3,13p' "$0"; exit 0 ;;
*) echo "install-deps.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "install-deps.sh: not a Debian-based system: install by hand: $want" >&2
	exit 1
fi

# :arm64 packages need the architecture known to dpkg (and a fresh list)
if [ "$arm64" = 1 ] && [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] &&
	! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "install-deps.sh: adding the arm64 architecture (multiarch)"
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

if [ -z "$missing" ]; then
	echo "install-deps.sh: all packages present"
	exit 0
fi

echo "install-deps.sh: installing:$missing"
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
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
