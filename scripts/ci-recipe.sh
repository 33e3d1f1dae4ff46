#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Measure a CI recipe's cost and power on this machine (compare.rst, "The
# CI recipe"): trials of the same kernel against itself, and trials of a
# known kernel slowdown, each compared as CI would compare two kernels.
#
# usage: scripts/ci-recipe.sh [--same N] [--slow N] [--runs R] [--max-runs M]
#                             [--rounds K] [--repeat S] [--cpu C]
#                             [--noise PCT]
#                             [--cost NAME=N]... [--out DIR]
#                             [BENCHMARK...]
#   --same N        trials with nothing changed (default 5)
#   --slow N        trials with the slowdown (default 10)
#   --runs R        runs a side, interleaved base/new (default 2)
#   --max-runs M    then another base/new pair, up to M runs a side, while
#                   a gating key is "noisy" (its interval neither within
#                   the threshold nor beyond it); default R: none added
#   --rounds K      run --rounds K (default 3)
#   --repeat S      samples a result in each round, as perfprobe -r
#                   (default perfprobe's, 11)
#   --cpu C         pinning, as perfprobe --cpu (default 1)
#   --noise PCT     the runs' noise threshold, as perfprobe --noise
#                   (default perfprobe's, 5)
#   --cost NAME=N   the slowdown: pp-seccomp --cost (default getppid=100
#                   and openat=500: lat_syscall-null and -open, each about
#                   10% slower on a 2-vCPU x86-64 VM)
#   --out DIR       keep the runs and compare's JSON there (default: a
#                   temporary directory, removed)
#   BENCHMARK...    the selection (default lat_syscall lat_pipe lat_unix)
#
# Both sides of every trial run under tests/tools/pp-seccomp (so both take
# the seccomp entry path); the slow trials' new side runs the named calls
# through a longer filter.  Per trial one line: its kind, compare's exit,
# the gating keys, how many were "same", the regressions and the keys they
# name, the trial's minutes.  The last lines: what the acceptance asks
# (same: 0 regressions and >= 80% same in each trial; slow: exit 5 and
# exactly the slowed keys, every trial) and whether it held.
#
# PERFPROBE (default build/perfprobe) and PP_SECCOMP (default
# build/tests/pp-seccomp: make check-build) name the programs.
# Exit: 0 when the acceptance held, 1 when it did not, 2 on bad usage.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PERFPROBE=${PERFPROBE:-$ROOT/build/perfprobe}
PP_SECCOMP=${PP_SECCOMP:-$ROOT/build/tests/pp-seccomp}
SAME=5
SLOW=10
RUNS=2
MAXRUNS=
ROUNDS=3
CPU=1
NOISE=
REPEAT=
OUT=
COSTS=()
SLOWED='["lat_syscall-null","lat_syscall-open"]'

usage() { echo "ci-recipe: $*" >&2; sed -n '6,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
num() { [[ $2 =~ ^[0-9]+$ ]] || usage "$1: not a number: $2"; }
while [ $# -gt 0 ]; do
	case $1 in
	--same) num "$1" "${2:-}"; SAME=$2; shift 2 ;;
	--slow) num "$1" "${2:-}"; SLOW=$2; shift 2 ;;
	--runs) num "$1" "${2:-}"; RUNS=$2; shift 2 ;;
	--max-runs) num "$1" "${2:-}"; MAXRUNS=$2; shift 2 ;;
	--rounds) num "$1" "${2:-}"; ROUNDS=$2; shift 2 ;;
	--repeat) num "$1" "${2:-}"; REPEAT=$2; shift 2 ;;
	--cpu) num "$1" "${2:-}"; CPU=$2; shift 2 ;;
	--noise) num "$1" "${2:-}"; NOISE=$2; shift 2 ;;
	--cost) [ -n "${2:-}" ] || usage "--cost: NAME=N"; COSTS+=(--cost "$2"); shift 2 ;;
	--out) [ -n "${2:-}" ] || usage "--out: DIR"; OUT=$2; shift 2 ;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
done
[ "$RUNS" -ge 1 ] && [ "$ROUNDS" -ge 1 ] || usage "--runs and --rounds: at least 1"
MAXRUNS=${MAXRUNS:-$RUNS}
[ "$MAXRUNS" -ge "$RUNS" ] || usage "--max-runs $MAXRUNS: below --runs $RUNS"
BENCH=("$@")
[ ${#BENCH[@]} -gt 0 ] || BENCH=(lat_syscall lat_pipe lat_unix)
if [ ${#COSTS[@]} -eq 0 ]; then
	# Calls no other benchmark of the selection makes in its loop: not
	# read or write (lat_pipe and lat_unix make them: a cost on read
	# slowed lat_pipe by 1-3% too), not fstat (glibc's fstat() is the
	# newfstatat call, which stat() makes too).
	COSTS=(--cost getppid=100 --cost openat=500)
else
	# the keys the named calls slow: lat_syscall's own
	SLOWED=$(printf '%s\n' "${COSTS[@]}" | sed -n 's/^\([a-z0-9_]*\)=.*/\1/p' |
		sed 's/^getppid$/null/; s/^openat$/open/' | jq -R '"lat_syscall-" + .' | jq -sc .)
fi
for p in "$PERFPROBE" "$PP_SECCOMP"; do
	[ -x "$p" ] || { echo "ci-recipe: no $p (make check-build)" >&2; exit 2; }
done
if [ -z "$OUT" ]; then
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/ci-recipe.XXXXXX") || exit 1
	trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT" || exit 1

run() { # DIR N [pp-seccomp options]: one run of the selection into DIR/N.json
	local dir=$1 n=$2
	shift 2
	mkdir -p "$dir"
	"$PP_SECCOMP" "$@" -- "$PERFPROBE" --cpu "$CPU" ${NOISE:+--noise "$NOISE"} \
		${REPEAT:+-r "$REPEAT"} --no-save --kernel-view=off \
		-o "$dir/$n.json" run --rounds "$ROUNDS" "${BENCH[@]}" >/dev/null 2>"$dir/$n.err"
}

held=0
printf '%-5s %3s %4s %4s %4s %6s %5s  %s\n' trial exit runs keys same regr min "regressed keys"
trial() { # KIND I
	local kind=$1 i=$2 d=$OUT/$1-$2 r t0 rc line
	local -a cost=()
	[ "$kind" = slow ] && cost=("${COSTS[@]}")
	t0=$(date +%s)
	for r in $(seq 1 "$RUNS"); do	# interleaved: base, new, base, new
		run "$d/base" "$r"
		run "$d/new" "$r" ${cost[@]+"${cost[@]}"}
	done
	while :; do
		"$PERFPROBE" compare --json "$d/base" "$d/new" >"$d/compare.json" 2>"$d/compare.err"
		rc=$?
		[ "$r" -lt "$MAXRUNS" ] || break
		[ "$(jq '[.comparisons[0].results[] | select(.gates and .verdict == "noisy")] |
			length' "$d/compare.json" 2>/dev/null)" != 0 ] || break
		r=$((r + 1))
		run "$d/base" "$r"
		run "$d/new" "$r" ${cost[@]+"${cost[@]}"}
	done
	line=$(jq -r --argjson slowed "$SLOWED" --arg kind "$kind" --argjson rc $rc '
		[.comparisons[0].results[] | select(.gates)] as $g |
		[$g[] | select(.verdict == "same")] as $same |
		[$g[] | select(.fails) | .key] as $reg |
		[$g | length, ($same | length), ($reg | length), ($reg | join(","))] as $f |
		(if $kind == "same" then
			($f[2] == 0 and $f[1] * 100 >= $f[0] * 80)
		 else
			($rc == 5 and ($reg | sort) == ($slowed | sort))
		 end) as $ok |
		"\($f[0]) \($f[1]) \($f[2]) \($ok) \($f[3])"' "$d/compare.json") ||
		line="0 0 0 false (compare exit $rc: $(head -n1 "$d/compare.err"))"
	set -- $line
	printf '%-5s %3s %4s %4s %4s %6s %5s  %s%s\n' "$kind$i" "$rc" "$r" "$1" "$2" "$3" \
		"$(( ($(date +%s) - t0 + 30) / 60 ))" "${5:-}" "$([ "$4" = true ] || echo '  <- fails the acceptance')"
	[ "$4" = true ] || held=1
}
t_all=$(date +%s)
for i in $(seq 1 "$SAME"); do trial same "$i"; done
for i in $(seq 1 "$SLOW"); do trial slow "$i"; done
echo "recipe: ${BENCH[*]}, $RUNS runs a side interleaved$([ "$MAXRUNS" = "$RUNS" ] || echo ", up to $MAXRUNS while a key is noisy"), --rounds $ROUNDS${REPEAT:+, -r $REPEAT}, --cpu $CPU${NOISE:+, --noise $NOISE}; slowdown: pp-seccomp ${COSTS[*]} ($(jq -r 'join(", ")' <<<"$SLOWED"))"
echo "$SAME same + $SLOW slow trials in $(( ($(date +%s) - t_all + 30) / 60 )) min: acceptance $([ $held = 0 ] && echo held || echo 'did not hold')"
exit $held
