#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Style and static checks of the perfprobe kernel module:
#   1. checkpatch.pl --strict --no-tree on every kmod/ source file and the
#      uapi header (checkpatch is extracted from Debian's linux-source
#      tarball into $CHECKPATCH_DIR when it is not there yet);
#   2. W=1 builds against Debian's other kernels, fetched and unpacked by
#      scripts/get-kernel.sh (never installed): the compat header must
#      cover them; the arm64 one cross-built (a board's module: an aarch64
#      module with its kernel's vermagic);
#   3. a build against the default kernel with W=1 (extra compiler
#      warnings) and C=2 (sparse on every file), whose output must be
#      empty, leaving kmod/perfprobe.ko.
# Exits non-zero if any step fails or prints a warning.  A kernel that
# cannot be fetched here is said so, and the rest goes on.
#
# Environment: KDIR (kernel build tree, default: kmod/Makefile's choice),
# KMOD_STYLE_KERNELS (default "6.12-amd64 6.12-rt-amd64 6.1-arm64", as
# scripts/get-kernel.sh names them), CHECKPATCH_DIR (default
# /tmp/checkpatch), LINUX_SOURCE_TARBALL (default: newest
# /usr/src/linux-source-*.tar.xz).

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CHECKPATCH_DIR=${CHECKPATCH_DIR:-/tmp/checkpatch}
KMOD="$ROOT/kmod"
fail=0

log() { printf '==> %s\n' "$*"; }
die() { printf 'kmod-style: %s\n' "$*" >&2; exit 2; }

get_checkpatch() {
	[ -x "$CHECKPATCH_DIR/checkpatch.pl" ] &&
		[ -f "$CHECKPATCH_DIR/spelling.txt" ] &&
		[ -f "$CHECKPATCH_DIR/const_structs.checkpatch" ] && return 0
	tarball=${LINUX_SOURCE_TARBALL:-$(ls /usr/src/linux-source-*.tar.* \
		2>/dev/null | sort -V | tail -n 1)}
	[ -n "$tarball" ] && [ -f "$tarball" ] ||
		die "no checkpatch in $CHECKPATCH_DIR and no linux-source tarball" \
			"(apt-get install linux-source)"
	top=$(tar -tf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1)
	[ -n "$top" ] || die "cannot read $tarball"
	log "extracting checkpatch from $tarball"
	tmp=$(mktemp -d) || die "mktemp failed"
	tar -xf "$tarball" -C "$tmp" "$top/scripts/checkpatch.pl" \
		"$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" || die "extraction failed"
	mkdir -p "$CHECKPATCH_DIR" || die "cannot create $CHECKPATCH_DIR"
	cp "$tmp/$top/scripts/checkpatch.pl" "$tmp/$top/scripts/spelling.txt" \
		"$tmp/$top/scripts/const_structs.checkpatch" "$CHECKPATCH_DIR/"
	chmod +x "$CHECKPATCH_DIR/checkpatch.pl"
	rm -rf "$tmp"
}

# kbuild output lines that are not diagnostics (make -s hides most)
filter_build() {
	grep -v -E -e '^(make(\[[0-9]+\])?: |make -C )' \
		-e '^  (CC|LD|AR|MODPOST|CHECK|BTF|CLEAN|MKDIR)[[:space:]]' \
		-e '^Skipping BTF generation' -e '^perfprobe: building for ' || true
}

build() {
	log "make $*"
	make -s -C "$KMOD" clean >/dev/null 2>&1
	out=$(make -s -C "$KMOD" ${KDIR:+KDIR="$KDIR"} "$@" 2>&1)
	rc=$?
	diag=$(printf '%s\n' "$out" | filter_build)
	if [ $rc -ne 0 ] || [ -n "$diag" ]; then
		printf '%s\n' "$diag"
		log "make $* FAILED (rc=$rc)"
		fail=1
	fi
}

get_checkpatch
files=$(ls "$KMOD"/*.c "$KMOD"/*.h 2>/dev/null | grep -v '\.mod\.c$')
files="$files $ROOT/include/uapi/linux/perfprobe.h"
log "checkpatch --strict"
for f in $files; do
	out=$(cd "$ROOT" && perl "$CHECKPATCH_DIR/checkpatch.pl" --strict \
		--no-tree --no-summary --terse --show-types -f "$f" 2>&1)
	if [ $? -ne 0 ] || [ -n "$out" ]; then
		printf '%s\n' "$out"
		fail=1
	fi
done

# W=1 on Debian's other kernels.
for k in ${KMOD_STYLE_KERNELS:-6.12-amd64 6.12-rt-amd64 6.1-arm64}; do
	if ! got=$("$ROOT/scripts/get-kernel.sh" --print "$k" 2>&1); then
		log "$k: cannot be fetched here, not checked: $(printf '%s\n' "$got" | tail -n 1)"
		continue
	fi
	tree=$(printf '%s\n' "$got" | sed -n 's/^KDIR=//p')
	KDIR_SAVE=${KDIR:-}
	KDIR=$tree
	case $k in
	*-arm64)
		# cross: Debian's arm64 headers with this host's kbuild helpers
		if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
			log "$k: no aarch64-linux-gnu-gcc (scripts/install-deps.sh --arm64), not checked"
		else
			build W=1 ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
			rel=$(basename "$tree" | sed 's/^linux-headers-//')
			if ! file "$KMOD/perfprobe.ko" | grep -q 'ARM aarch64' ||
				! modinfo -F vermagic "$KMOD/perfprobe.ko" | grep -q "^$rel .*aarch64"; then
				log "$k: perfprobe.ko is not an aarch64 module for $rel"
				fail=1
			fi
		fi
		;;
	*) build W=1 ;;
	esac
	KDIR=$KDIR_SAVE
done
# Last, one build with both W=1 compiler warnings and sparse (C=2 checks
# every file, whether rebuilt or not) against the default kernel: it
# leaves kmod/perfprobe.ko.
build W=1 C=2
[ -f "$KMOD/perfprobe.ko" ] || { log "no kmod/perfprobe.ko after the build"; fail=1; }

if [ $fail -ne 0 ]; then
	log "kmod-style: FAILED"
	exit 1
fi
log "kmod-style: clean"
exit 0
