#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch one of Debian's kernels for the VM tests, without installing it:
# the unsigned image, its headers (flavour and common) and the kbuild
# helpers, from the package archive, unpacked into one directory:
#
#   $CACHE/<release>/boot/vmlinuz-<release>
#   $CACHE/<release>/lib/modules/<release>/        the kernel's modules
#   $CACHE/<release>/usr/src/linux-headers-<release>/   the build tree
#
# usage: scripts/get-kernel.sh [--print] [--debug] RELEASE
#        scripts/get-kernel.sh --busybox ARCH
#   RELEASE   e.g. 6.12.111+deb12-amd64, 6.12.111+deb12-rt-amd64,
#             6.1.0-57-arm64 (an arm64 kernel: its headers with this host's
#             kbuild helpers, for make kmod ARCH=arm64), or "6.12-amd64" /
#             "6.12-rt-amd64" / "6.1-arm64" for the newest of that series
#             and flavour
#   --print   only print KERNEL=, KDIR=, MODDIR= (and BTF=, the kernel's
#             BTF cut out of its image, where it has one) for the release
#             (after fetching it if needed); scripts/vmtest.sh --release
#             uses it
#   --debug   also the kernel's vmlinux with debug info, out of Debian's
#             linux-image-RELEASE-dbg (about 850 MB to fetch, 630 MB
#             kept): $CACHE/<release>/debug/vmlinux-<release>; --print
#             then prints DEBUGDIR= (the profile's inlined functions and
#             source lines in a guest, Documentation/kernel-view.rst)
#   --busybox ARCH  Debian's static busybox for another architecture
#             (busybox-static:ARCH), unpacked into $CACHE/busybox-ARCH:
#             prints its path; the initramfs of an arm64 guest needs it
#
# CACHE is $PERFPROBE_KERNEL_CACHE, default /var/cache/perfprobe/kernels.
# Nothing is installed: the host's /boot, /lib/modules and dpkg database
# stay as they are.  Documentation/vmtest.rst.
set -euo pipefail

CACHE=${PERFPROBE_KERNEL_CACHE:-/var/cache/perfprobe/kernels}
PRINT=0
say() { echo "get-kernel: $*" >&2; }

# One at a time fetches and unpacks (vmtests run in parallel in make check).
mkdir -p "$CACHE" && exec 8>>"$CACHE/.lock" && flock 8 ||
	{ say "cannot lock $CACHE/.lock"; exit 1; }

if [ "${1:-}" = --busybox ]; then
	arch=${2:?usage: $0 --busybox ARCH (e.g. arm64)}
	bb=$CACHE/busybox-$arch/bin/busybox
	if [ ! -x "$bb" ]; then
		mkdir -p "$CACHE/debs"
		(cd "$CACHE/debs" && apt-get download "busybox-static:$arch" >/dev/null \
			2>"$CACHE/debs/apt.err") || {
			say "apt-get download busybox-static:$arch failed: $(tail -n1 "$CACHE/debs/apt.err")"
			say "(is $arch a dpkg architecture here? scripts/install-deps.sh --arm64)"
			exit 1
		}
		deb=$(ls -1 "$CACHE/debs/busybox-static_"*"_$arch.deb" | sort -V | tail -n1)
		rm -rf "$CACHE/busybox-$arch.tmp"
		dpkg-deb -x "$deb" "$CACHE/busybox-$arch.tmp"
		rm -rf "$CACHE/busybox-$arch"
		mv "$CACHE/busybox-$arch.tmp" "$CACHE/busybox-$arch"
	fi
	echo "$bb"
	exit 0
fi
DEBUG=0
while :; do
	case ${1:-} in
	--print) PRINT=1; shift ;;
	--debug) DEBUG=1; shift ;;
	*) break ;;
	esac
done
REL=${1:?usage: $0 [--print] RELEASE (e.g. 6.12.111+deb12-amd64 or 6.12-amd64)}

# "6.12-amd64": the newest 6.12.N+debNN of that flavour in the archive
if [[ $REL =~ ^[0-9]+\.[0-9]+-(amd64|rt-amd64|arm64)$ ]]; then
	series=${REL%%-*}
	flavour=${REL#*-}
	# 6.12.N+debNN-FLAVOUR, or 6.1.0-N-FLAVOUR (6.1's ABI numbering)
	REL=$(apt-cache search --names-only "^linux-image-${series//./\\.}\\.[0-9]+(\\+deb[0-9]+|-[0-9]+)-${flavour}-unsigned\$" 2>/dev/null |
		sed -n "s/^linux-image-\\([^ ]*\\)-unsigned .*/\\1/p" | sort -V | tail -n1)
	[ -n "$REL" ] || { say "no linux-image-$series.*-$flavour-unsigned in the package archive (apt-get update?)"; exit 1; }
fi

ROOT=$CACHE/$REL
# An arm64 kernel's packages (image, headers, -dbg) are :arm64 ones.
qual=
case $REL in *-arm64) [ "$(dpkg --print-architecture)" = arm64 ] || qual=:arm64 ;; esac
if [ ! -f "$ROOT/.complete" ]; then
	upstream=${REL%-amd64}
	upstream=${upstream%-arm64}
	common=linux-headers-${upstream%-rt}-common
	case $REL in *-rt-*) common=linux-headers-${upstream%-rt}-common-rt ;; esac
	# 6.12.N+debNN has linux-kbuild-6.12.N+debNN; 6.1.0-N has linux-kbuild-6.1
	kbuild=linux-kbuild-${upstream%-rt}
	apt-cache show "$kbuild" >/dev/null 2>&1 || kbuild=linux-kbuild-$(echo "$upstream" | cut -d. -f1-2)
	# (the kbuild helpers, fixdep and modpost, run here: $kbuild is the
	# host's architecture's, without qual)
	pkgs="linux-image-$REL-unsigned$qual linux-headers-$REL$qual $common $kbuild"
	say "fetching $pkgs"
	mkdir -p "$CACHE/debs" "$ROOT.tmp"
	(cd "$CACHE/debs" && apt-get download $pkgs >/dev/null 2>"$CACHE/debs/apt.err") || {
		say "apt-get download failed: $(tail -n1 "$CACHE/debs/apt.err")"
		exit 1
	}
	for p in $pkgs; do
		deb=$(ls -1 "$CACHE/debs/${p%:*}_"*.deb | sort -V | tail -n1)
		dpkg-deb -x "$deb" "$ROOT.tmp"
	done
	# The flavour's Makefile includes the common tree by absolute path
	grep -l '/usr/src/' "$ROOT.tmp/usr/src/linux-headers-$REL/Makefile" >/dev/null &&
		sed -i "s|/usr/src/|$ROOT/usr/src/|g" "$ROOT.tmp/usr/src/linux-headers-$REL/Makefile"
	rm -rf "$ROOT"
	mv "$ROOT.tmp" "$ROOT"
	touch "$ROOT/.complete"
	say "unpacked in $ROOT"
fi

# The kernel's BTF, out of its image: vmlinux.h for BPF programs built
# for this kernel on another (scripts/image-btf.py); a "none" older than
# the script is asked again
if [ -f "$ROOT/vmlinux.btf.none" ] && [ "$(dirname "$0")/image-btf.py" -nt "$ROOT/vmlinux.btf.none" ]; then
	rm -f "$ROOT/vmlinux.btf.none"
fi
if [ ! -f "$ROOT/vmlinux.btf" ] && [ ! -f "$ROOT/vmlinux.btf.none" ]; then
	"$(dirname "$0")/image-btf.py" "$ROOT/boot/vmlinuz-$REL" "$ROOT/vmlinux.btf" 2>"$ROOT/vmlinux.btf.none" &&
		rm -f "$ROOT/vmlinux.btf.none"
fi

# The debug vmlinux alone, out of the -dbg package (its modules' debug
# files, most of its 5 GB, are left in the package, which is deleted).
if [ "$DEBUG" = 1 ] && [ ! -f "$ROOT/debug/vmlinux-$REL" ]; then
	say "fetching linux-image-$REL-dbg$qual (its vmlinux with debug info)"
	mkdir -p "$CACHE/debs" "$ROOT/debug"
	(cd "$CACHE/debs" && apt-get download "linux-image-$REL-dbg$qual" >/dev/null \
		2>"$CACHE/debs/apt.err") || {
		say "apt-get download linux-image-$REL-dbg$qual failed: $(tail -n1 "$CACHE/debs/apt.err")"
		exit 1
	}
	deb=$(ls -1 "$CACHE/debs/linux-image-$REL-dbg_"*.deb | sort -V | tail -n1)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --occurrence=1 "./usr/lib/debug/boot/vmlinux-$REL" >"$ROOT/debug/vmlinux-$REL.tmp" &&
		[ -s "$ROOT/debug/vmlinux-$REL.tmp" ] || {
		rm -f "$ROOT/debug/vmlinux-$REL.tmp" "$deb"
		say "$deb has no ./usr/lib/debug/boot/vmlinux-$REL"
		exit 1
	}
	mv "$ROOT/debug/vmlinux-$REL.tmp" "$ROOT/debug/vmlinux-$REL"
	rm -f "$deb"
fi

if [ "$PRINT" = 1 ]; then
	[ "$DEBUG" = 1 ] && echo "DEBUGDIR=$ROOT/debug"
	[ -f "$ROOT/vmlinux.btf" ] && echo "BTF=$ROOT/vmlinux.btf"
	echo "KERNEL=$ROOT/boot/vmlinuz-$REL"
	echo "KDIR=$ROOT/usr/src/linux-headers-$REL"
	echo "MODDIR=$ROOT/lib/modules/$REL"
	echo "RELEASE=$REL"
fi
