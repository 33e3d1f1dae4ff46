#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel A against kernel B: for each, build perfprobe.ko against its build
# tree, boot it in QEMU (scripts/vmtest.sh: KVM where a real boot works,
# else TCG on QEMU's -icount, one vCPU), run a benchmark set N times there
# with the kernel view, bring the results back, and compare them with
# perfprobe compare (its CI exit code: 0 no regression, 5 regression, 6
# not comparable under --strict).
#
# usage: scripts/kernel-ab.sh [options] A B
#   A, B             a Debian kernel for scripts/get-kernel.sh (6.12-amd64,
#                    6.1.0-57-amd64, ...), "installed" for the newest one
#                    in /boot with its /lib/modules/<release>/build, or
#                    IMAGE:KDIR (a bzImage and its build tree, e.g. a kernel
#                    tree built from two git refs)
#   --set LIST       comma-separated benchmarks (default lat_syscall,lat_pipe)
#   --runs N         runs on each kernel (default 3)
#   --kernel-view M  auto|kmod|bpf|off inside the guest (default kmod)
#   --profile-samples N
#                    each result's sampled kernel profile in the guest
#                    gathers N samples (default 200; perfprobe's own
#                    default, 10, is too few to tell one kernel function's
#                    change from the sampling error)
#   --out DIR        where the runs and the comparison go (default ./kernel-ab)
#   --format F       compare's output: text|json|junit|ktap|lava|kcidb
#   --icount OPTS    under TCG, QEMU's -icount OPTS (default shift=0,sleep=off):
#                    virtual time counted in instructions, deterministic
#   --no-icount      under TCG, the wall clock (timings of the host's speed)
#   --debug          each Debian kernel's vmlinux with debug info too (about
#                    850 MB to fetch a kernel), shared with its guest: the
#                    profiles name inlined functions and source lines
#   --a-append ARGS, --b-append ARGS
#                    kernel command line arguments for one side only (an
#                    A/B of a boot option on one kernel)
#   --                the rest is passed to perfprobe compare
#
# Documentation/ci.rst.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SET=lat_syscall,lat_pipe
RUNS=3
KVIEW=kmod
PROF=200
OUT=kernel-ab
FORMAT=text
ICOUNT=shift=0,sleep=off
APPEND_A=
APPEND_B=
DEBUG=
SIDES=()
EXTRA=()

die() { echo "kernel-ab: $*" >&2; exit 2; }
say() { echo "kernel-ab: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--set) SET=${2:?--set needs a list}; shift 2 ;;
	--runs) RUNS=${2:?--runs needs a number}; shift 2 ;;
	--kernel-view) KVIEW=${2:?--kernel-view needs a mode}; shift 2 ;;
	--profile-samples) PROF=${2:?--profile-samples needs a number}; shift 2 ;;
	--out) OUT=${2:?--out needs a directory}; shift 2 ;;
	--format) FORMAT=${2:?--format needs a format}; shift 2 ;;
	--icount) ICOUNT=${2:?--icount needs QEMU -icount options}; shift 2 ;;
	--no-icount) ICOUNT=; shift ;;
	--debug) DEBUG=--debug; shift ;;
	--a-append) APPEND_A=${2?--a-append needs arguments}; shift 2 ;;
	--b-append) APPEND_B=${2?--b-append needs arguments}; shift 2 ;;
	--) shift; EXTRA=("$@"); break ;;
	-h|--help) sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1' (try --help)" ;;
	*) SIDES+=("$1"); shift ;;
	esac
done
[ ${#SIDES[@]} -eq 2 ] || die "give two kernels, A and B (try --help)"
case $RUNS in ''|*[!0-9]*|0) die "--runs: '$RUNS' is not a positive number" ;; esac
case $PROF in ''|*[!0-9]*|0) die "--profile-samples: '$PROF' is not a positive number" ;; esac
case $SET in *[!a-z0-9_,-]*|'') die "--set: '$SET' is not a comma-separated list of benchmarks" ;; esac
case $KVIEW in auto|kmod|bpf|off) ;; *) die "--kernel-view: '$KVIEW': say auto, kmod, bpf or off" ;; esac
case $ICOUNT in *[!a-z0-9=,]*) die "--icount: '$ICOUNT' is not a list of QEMU -icount options" ;; esac

PERFPROBE=${PERFPROBE:-$ROOT/build/perfprobe}
[ -x "$PERFPROBE" ] || make -s -C "$ROOT" tools >/dev/null || die "cannot build perfprobe"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

# vmtest.sh options for one side
side_args() {
	case $1 in
	installed) ;;
	*:*) echo "--kernel ${1%%:*} --kdir ${1#*:}" ;;
	*) echo "--release $1 $DEBUG" ;;
	esac
}

measure() { # LABEL SIDE APPEND
	local label=$1 side=$2 dir=$OUT/$1 work rc rel
	rm -rf "$dir" "$OUT/$label"-* "$OUT/work-$label" "$OUT/accel-$label" "$OUT/clock-$label"
	mkdir -p "$dir" "$OUT/work-$label"
	say "$label: $side: $RUNS runs of $SET in QEMU${3:+, with $3}"
	# shellcheck disable=SC2046
	# the same command line for both but what --a/b-append adds (compare
	# warns about any other difference; perfprobe_side= it ignores: it
	# names the side, as BOOT_IMAGE= names the kernel).  Under TCG:
	# -icount on one vCPU (Documentation/emulation.rst says why).
	TMPDIR=$OUT/work-$label PERFPROBE_VMTEST_ONLY=ab PERFPROBE_VMTEST_SEED=1 \
		PERFPROBE_VMTEST_APPEND="pp_ab_set=$SET pp_ab_runs=$RUNS pp_ab_kview=$KVIEW pp_ab_prof=$PROF perfprobe_side=$label${3:+ $3}" \
		PERFPROBE_VMTEST_ICOUNT=$ICOUNT \
		PERFPROBE_VMTEST_TIMEOUT=$((420 + RUNS * 120)) \
		"$ROOT/scripts/vmtest.sh" --keep $(side_args "$side") >"$OUT/$label.tap" 2>"$OUT/$label.err"
	rc=$?
	grep -h '^# vmtest: \(x86_64\|arm64\) kernel\|^# vmtest: KVM' "$OUT/$label.tap" >&2
	work=$(ls -d "$OUT/work-$label"/perfprobe-vmtest.* 2>/dev/null | head -n1)
	if [ $rc -ne 0 ] || [ -z "$work" ]; then
		say "$label: the guest run failed (exit $rc): $OUT/$label.tap, $OUT/$label.err"
		grep '^not ok\|Bail out' "$OUT/$label.tap" | head -n 5 >&2
		return 1
	fi
	for i in $(seq 1 "$RUNS"); do
		tr -d '\r' <"$work/results.log" | sed -n "s/^PPAB $i //p" >"$dir/run-$i.json"
		[ -s "$dir/run-$i.json" ] || { say "$label: run $i brought back nothing"; return 1; }
	done
	if grep -q 'accel tcg' "$OUT/$label.tap"; then
		echo tcg >"$OUT/accel-$label"
		grep -q 'accel tcg.* -icount ' "$OUT/$label.tap" && echo icount >"$OUT/clock-$label"
	fi
	# the side by its kernel in every output, compare naming it by its
	# directory; DIR/A stays, a link, for scripts
	rel=$(sed -n 's/^ *"kernel_release": "\([^"]*\)",*$/\1/p' "$dir/run-1.json" | head -n1)
	SIDE_DIR[$label]=$OUT/$label-${rel:-unknown}
	if ! mv "$dir" "${SIDE_DIR[$label]}" || ! ln -s "$label-${rel:-unknown}" "$dir"; then
		say "$label: cannot name $dir by its kernel"
		return 1
	fi
	say "$label: kernel ${rel:-unknown}: ${SIDE_DIR[$label]}"
	return 0
}

declare -A SIDE_DIR
measure A "${SIDES[0]}" "$APPEND_A" || exit 1
measure B "${SIDES[1]}" "$APPEND_B" || exit 1

if [ -f "$OUT/clock-A" ] && [ -f "$OUT/clock-B" ]; then
	cat >&2 <<EOF
kernel-ab: ***********************************************************************
kernel-ab: *  These guests ran under TCG on QEMU -icount: their clocks counted     *
kernel-ab: *  instructions.  A change is a change in the work the kernel does, not *
kernel-ab: *  in time: cache misses, memory and device latency and contention are  *
kernel-ab: *  invisible here (Documentation/emulation.rst).                        *
kernel-ab: ***********************************************************************
EOF
elif [ -f "$OUT/accel-A" ] || [ -f "$OUT/accel-B" ]; then
	cat >&2 <<EOF
kernel-ab: ***********************************************************************
kernel-ab: *  These guests ran under TCG (emulation) on the wall clock: their      *
kernel-ab: *  timings only test the workflow, NOT the kernels, and compare's       *
kernel-ab: *  verdicts gate nothing.  Use -icount (the default) or KVM.            *
kernel-ab: ***********************************************************************
EOF
fi

fmt=()
[ "$FORMAT" = text ] || fmt=(--format "$FORMAT")
"$PERFPROBE" compare "${fmt[@]}" "${EXTRA[@]}" "${SIDE_DIR[A]}" "${SIDE_DIR[B]}" |
	tee "$OUT/compare.$FORMAT"
rc=${PIPESTATUS[0]}
say "runs in ${SIDE_DIR[A]} and ${SIDE_DIR[B]}, the comparison in $OUT/compare.$FORMAT (perfprobe compare exit $rc)"
exit "$rc"
