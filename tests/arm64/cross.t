#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfprobe for arm64 boards: cross-built with Debian's multiarch :arm64
# libraries, dynamic and STATIC=1 (one binary to copy onto a board), and
# the static one's --quick LMBench set run under qemu-user as a smoke
# test.  Skipped, with the reason, without the cross toolchain
# (scripts/install-deps.sh --arm64).  Documentation/arm.rst.
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NTESTS=8
plan $NTESTS

command -v aarch64-linux-gnu-gcc >/dev/null ||
	skip_rest "no aarch64-linux-gnu-gcc (scripts/install-deps.sh --arm64)"
PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config --exists jansson libnl-genl-3.0 libelf libcrypto libkcapi ||
	skip_rest "no :arm64 libraries (scripts/install-deps.sh --arm64)"
QEMU=$(command -v qemu-aarch64-static || command -v qemu-aarch64) ||
	skip_rest "no qemu-aarch64 (Debian package qemu-user-static)"

O=$T_TMP/arm64
make -s -C "$ROOT" O="$O-static" CROSS_COMPILE=aarch64-linux-gnu- STATIC=1 tools >"$T_TMP/b1" 2>&1
ok $? "make CROSS_COMPILE=aarch64-linux-gnu- STATIC=1 tools$(grep -E 'error|warning' "$T_TMP/b1" | head -n 3 | sed 's/^/ /')"
check "the binary is a static aarch64 executable, helpers too" sh -c \
	"for f in perfprobe perfprobe-lean perfprobe-hello; do file '$O-static'/\$f | grep -q 'ARM aarch64.*statically linked' || exit 1; done"
check "the BPF kernel view is built out, saying why (no arm64 BTF on an x86 host)" \
	grep -q 'BPF kernel view built without the-BTF-of-a-aarch64-kernel' "$T_TMP/b1"

make -s -C "$ROOT" O="$O" CROSS_COMPILE=aarch64-linux-gnu- tools >"$T_TMP/b2" 2>&1
ok $? "make CROSS_COMPILE=aarch64-linux-gnu- tools (dynamic, multiarch libraries)"
"$QEMU" -L / "$O/perfprobe" --version >"$T_TMP/v" 2>&1
check "the dynamic binary runs under qemu-user: --version" grep -q '^perfprobe ' "$T_TMP/v"

# The lean helper is exec'd by perfprobe: without binfmt_misc knowing arm64
# (binfmt-support registers qemu-user's), that exec fails.
binfmt=0
if [ -f /proc/sys/fs/binfmt_misc/qemu-aarch64 ] &&
	grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64; then
	binfmt=1
	"$O-static/perfprobe" --quick --no-save --json run >"$T_TMP/r.json" 2>"$T_TMP/r.err"
else
	echo "# no binfmt_misc entry for arm64 here: lat_proc cannot exec its helpers (skipped, saying so, or failed)"
	"$QEMU" "$O-static/perfprobe" --quick --no-save --json run >"$T_TMP/r.json" 2>"$T_TMP/r.err"
fi
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 4 ] || { [ $binfmt = 0 ] && [ $rc -eq 1 ]; }; echo $?) \
	"the static binary's --quick LMBench set under qemu-user: exit $rc"
# Besides lat_rpc, only a key the harness refused may be left out
# (harness.rst, "Impossible values": too noisy, or an invariant that
# stayed broken, as lat_mem_rd's curve under qemu-user on a loaded host).
if ! jq -e --argjson binfmt $binfmt \
	'(.results | length) >= 150 and
	 ([.skipped[] | select(.name != "lat_rpc" and
			       (.reason | test("too noisy|impossible, not reported") | not) and
			       (($binfmt == 0 and (.name | startswith("lat_proc-")) and
				 (.reason | test("does not start"))) | not)) | .name] == []) and
	 ([.skipped[] | select(.name == "lat_rpc") | .reason] | .[0] | test("libtirpc")) and
	 ([.failed[].name] - (if $binfmt == 1 then [] else ["lat_proc"] end)) == []' \
	"$T_TMP/r.json" >/dev/null; then
	jq -r '"\(.results | length) results",
	       (.skipped[] | "skipped \(.name): \(.reason)"),
	       (.failed[] | "failed \(.name): \(.reason)")' "$T_TMP/r.json" 2>&1 |
		sed 's/^/# /'
	false
fi
ok $? "...its results: 150 or more, lat_rpc skipped saying why (STATIC=1: no libtirpc), nothing else left out but as refused by the harness (and, without binfmt_misc, lat_proc's helpers that cannot start)"
check "...and the kernel view says BPF is not available: built without" sh -c \
	"'$QEMU' '$O-static/perfprobe' kernel-view status 2>&1 | grep -q 'BPF: not usable: not available: built without'"

# The module for an arm64 board (an aarch64 module for Debian's 6.1
# arm64, W=1 clean) is make kmod-style's (scripts/kmod-style.sh).
done_testing
