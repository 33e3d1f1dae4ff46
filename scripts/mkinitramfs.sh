#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh - build the tiny initramfs used by scripts/vmtest.sh.
#
# The image holds: a static busybox, /init (tests/vm/init.sh), the guest test
# script in /tests/vm with the TAP writer it sources in /tests/lib (as in the
# source tree), the perfprobe module plus the modules it depends on, the test client
# (static, or dynamic together with the shared libraries ldd lists and the
# dynamic loader), and /etc/passwd + /etc/group with an unprivileged user.
#
# usage: mkinitramfs.sh --out FILE.cpio.gz --module perfprobe.ko \
#            --client pp-vmtest [--moddir /lib/modules/VER | --kdir TREE] \
#            [--testdir tests/vm] [--busybox /bin/busybox] [--add PROG]...
#            [--extra-module NAME]... [--console-module NAME]... [-v]
#
# --add installs another program in /bin, with its shared libraries;
# --extra-module a module of the kernel (and what it depends on) for the
# guest to load in /lib/modules/extra-order; --console-module one /init
# loads first, before it looks for the results console
# (/lib/modules/console-order: virtio_console where it is a module).
set -euo pipefail

out='' module='' client='' moddir='' kdir='' verbose=0
extra=()
extra_mods=()
console_mods=()
here=$(cd "$(dirname "$0")" && pwd)
testdir=$here/../tests/vm
busybox=

die() { echo "mkinitramfs: $*" >&2; exit 1; }
log() { [ "$verbose" = 1 ] && echo "mkinitramfs: $*" >&2 || true; }

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	--client) client=$2; shift 2 ;;
	--moddir) moddir=$2; shift 2 ;;
	--kdir) kdir=$2; shift 2 ;;
	--testdir) testdir=$2; shift 2 ;;
	--busybox) busybox=$2; shift 2 ;;
	--add) extra+=("$2"); shift 2 ;;
	--extra-module) extra_mods+=("$2"); shift 2 ;;
	--console-module) console_mods+=("$2"); shift 2 ;;
	-v) verbose=1; shift ;;
	*) die "unknown argument: $1" ;;
	esac
done
[ -n "$out" ] || die "--out is required"
[ -f "$module" ] || die "module not found: '$module'"
[ -x "$client" ] || die "test client not found: '$client'"
[ -f "$testdir/init.sh" ] || die "no $testdir/init.sh"
tapsh=$testdir/../lib/tap.sh
[ -f "$tapsh" ] || die "no $tapsh (the TAP writer of the guest tests)"
command -v cpio >/dev/null || die "cpio not installed (Debian package: cpio)"

if [ -z "$busybox" ]; then
	for b in /bin/busybox /usr/bin/busybox; do
		if [ -x "$b" ] && file -L "$b" 2>/dev/null | grep -q 'statically linked'; then
			busybox=$b; break
		fi
	done
	# 'file' may be missing: fall back to any busybox, checked with ldd below
	[ -n "$busybox" ] || busybox=$(command -v busybox || true)
fi
[ -x "$busybox" ] || die "busybox not found (Debian package: busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked; install busybox-static"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/pp-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

chmod 0755 "$root"	# mktemp -d makes it 0700: the guest's / must be searchable
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,home/ppuser,lib/modules,tests/vm,tests/lib,run}
chmod 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
# The applet links are made at boot (busybox --install -s), but the
# interpreter for /init must exist before that.
ln -s busybox "$root/bin/sh"

install -m 0755 "$testdir/init.sh" "$root/init"
for f in "$testdir"/*.sh; do
	[ "$(basename "$f")" = init.sh ] && continue
	install -m 0755 "$f" "$root/tests/vm/"
done
# the TAP writer the guest tests source, where it is in the source tree
install -m 0644 "$tapsh" "$root/tests/lib/tap.sh"
install -m 0755 "$client" "$root/bin/pp-vmtest"
install -m 0644 "$module" "$root/lib/modules/perfprobe.ko"

# Copy kernel module NAME (uncompressed) into the image; 1 if not found.
copy_module() { # name
	local path='' d
	for d in "$moddir" "$kdir"; do
		[ -n "$d" ] && [ -d "$d" ] || continue
		path=$(find "$d" \( -name "$1.ko" -o -name "$1.ko.*" \) 2>/dev/null | head -n1)
		[ -n "$path" ] && break
	done
	[ -n "$path" ] || return 1
	case $path in
	*.ko.xz) xz -dc "$path" >"$root/lib/modules/$1.ko" ;;
	*.ko.zst) zstd -qdc "$path" >"$root/lib/modules/$1.ko" ;;
	*.ko.gz) gzip -dc "$path" >"$root/lib/modules/$1.ko" ;;
	*) cp "$path" "$root/lib/modules/$1.ko" ;;
	esac
	log "module $1 <- $path"
}

# Modules a module depends on, dependencies first, listed in ORDER.
add_deps() { # ko order-file
	local ko=$1 order=$2 dep
	local deps
	deps=$(modinfo -F depends "$ko" 2>/dev/null | tr ',' ' ')
	for dep in $deps; do
		grep -qx "$dep" "$root/lib/modules/load-order" "$root/lib/modules/extra-order" \
			"$root/lib/modules/console-order" 2>/dev/null && continue
		copy_module "$dep" ||
			die "dependency $dep of $(basename "$ko") not found in ${moddir:-?} ${kdir:-}"
		add_deps "$root/lib/modules/$dep.ko" "$order"
		echo "$dep" >>"$order"
	done
}
: >"$root/lib/modules/load-order"
: >"$root/lib/modules/extra-order"
: >"$root/lib/modules/console-order"

# Kernel modules NAME... and what they depend on, into the list ORDER;
# one built in, or missing, is not an error.
add_listed() { # order name...
	local order=$1 m
	shift
	for m in "$@"; do
		grep -qx "$m" "$order" && continue
		copy_module "$m" || { log "module $m: not found (built in?)"; continue; }
		add_deps "$root/lib/modules/$m.ko" "$order"
		echo "$m" >>"$order"
	done
}
# What the results console needs, loaded by /init before anything else.
add_listed "$root/lib/modules/console-order" ${console_mods[@]+"${console_mods[@]}"}
# Modules perfprobe.ko depends on (normally none: genetlink is built in).
add_deps "$module" "$root/lib/modules/load-order"
# Kernel modules other tests need.
add_listed "$root/lib/modules/extra-order" ${extra_mods[@]+"${extra_mods[@]}"}

# Shared libraries of the dynamically linked programs.
copy_libs() { # program
	ldd "$1" >/dev/null 2>&1 || return 0
	log "$1 is dynamic: copying its libraries"
	ldd "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
		log "  $lib"
	done
}
copy_libs "$client"
for prog in ${extra[@]+"${extra[@]}"}; do
	[ -x "$prog" ] || die "program to add not found: '$prog'"
	install -m 0755 "$prog" "$root/bin/$(basename "$prog")"
	copy_libs "$prog"
done

cat >"$root/etc/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
ppuser:x:1000:1000:perfprobe unprivileged test user:/home/ppuser:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PW
cat >"$root/etc/group" <<'GR'
root:x:0:
ppuser:x:1000:
nogroup:x:65534:
GR
chown 1000:1000 "$root/home/ppuser" 2>/dev/null || true

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
