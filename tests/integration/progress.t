#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Progress on long work (cli.rst, "Progress"): one line a benchmark when
# it ends; on a terminal (a pseudo-terminal from script(1)) one status
# line redrawn in place under them, with the benchmark, the time elapsed,
# its results so far and, after the first benchmark, the time left;
# removed at the end.  Each result, placement and resampling note only
# with -v.  Plain lines when stderr is not a terminal; nothing with
# --quiet on a clean run (errors still).
. "$(dirname "$0")/tap.sh"
plan 12

command -v script >/dev/null || skip_rest "no script(1) (util-linux)"
TERM=xterm script -qec "$PERFPROBE --kernel-view=off --quick --no-save -o $T_TMP/tty.json run lat_syscall lat_sig" \
	/dev/null >"$T_TMP/tty" 2>&1
rc=$?
# 4 when a lat_sig key was skipped as too noisy (a loaded machine): the
# exit code is the one the run's own document gives
want=$(run_rc "$T_TMP/tty.json")
ok $([ "$rc" = "$want" ]; echo $?) \
	"run under a pseudo-terminal: the exit its document gives, 0 or 4 with the skips (got $rc, want ${want:-?})"
check "the status line: redrawn in place (CR, erase line), benchmark i of N, elapsed" \
	grep -aqE $'\r\033\\[Kperfprobe: \\[1/2\\] lat_syscall  [0-9]+:[0-9]{2} elapsed; [0-9]+ results' "$T_TMP/tty"
check "from the second benchmark on: the time left" \
	grep -aqE $'perfprobe: \\[2/2\\] lat_sig  [0-9]+:[0-9]{2} elapsed, ~[0-9]+:[0-9]{2} left' "$T_TMP/tty"
check "the benchmark's line above it, whole" \
	grep -aqE $'^perfprobe: \\[1/2\\] lat_syscall: 6 results(, [0-9]+ noisy)?, [0-9.]+ [mu]?s$' \
	<(tr '\r' '\n' <"$T_TMP/tty" | sed $'s/^\033\\[K//')
tty=$(<"$T_TMP/tty")
after=${tty##*elapsed}
ok $([[ $after == *$'\r\033[K'*'Processor, Processes'* ]]; echo $?) \
	"removed before the summary: the last status is erased, the table follows"

# Not a terminal: the invariant, one line a benchmark besides the two
# header lines (the kernel view, the run's plan) and the skips.
set -- lat_syscall lat_sig lat_pipe bw_pipe
"$PERFPROBE" --kernel-view=off --quick --no-save -o "$T_TMP/plain.json" run "$@" 2>"$T_TMP/plain" >/dev/null
ok $(! grep -q $'\033' "$T_TMP/plain" && ! grep -q $'\r' "$T_TMP/plain" &&
	grep -q '^perfprobe: \[1/4\] lat_syscall: 6 results' "$T_TMP/plain"; echo $?) \
	"stderr not a terminal: plain lines, no escapes"
n=$(grep -vc 'skipped: ' "$T_TMP/plain")
ok $([ "$n" -le $(( $# + 2 )) ]; echo $?) \
	"$# benchmarks: at most $(( $# + 2 )) lines on stderr besides the skips (got $n)"
bad=""
for b in "$@"; do
	c=$(grep -c "^perfprobe: \[[1-4]/4\] $b: " "$T_TMP/plain")
	jq -e --arg b "$b" '.results | any(.key | startswith($b))' "$T_TMP/plain.json" >/dev/null &&
		[ "$c" -ne 1 ] && bad="$bad $b($c)"
done
ok $([ -z "$bad" ]; echo $?) "one line for each benchmark that measured something${bad:+ (not:$bad)}"
ok $(! grep -qE 'placement|measuring again|n=[0-9]+, cv|spread' "$T_TMP/plain"; echo $?) \
	"no result, placement or resampling line without -v"

"$PERFPROBE" --kernel-view=off -v --quick --no-save run lat_pipe 2>"$T_TMP/v" >/dev/null
ok $(grep -qE '^perfprobe: \[1/1\] lat_pipe +[0-9.]+ us +\(n=5, cv' "$T_TMP/v" &&
	grep -q '^perfprobe: \[1/1\] lat_pipe: placement' "$T_TMP/v" &&
	grep -q '^perfprobe: \[1/1\] lat_pipe: 1 result' "$T_TMP/v"; echo $?) \
	"-v: each result, its placement, then the benchmark's line"

TERM=xterm script -qec "$PERFPROBE --kernel-view=off --quiet --quick --no-save run lat_syscall" /dev/null >"$T_TMP/q" 2>&1
ok $(! grep -aq '\[1/1\]' "$T_TMP/q" && ! grep -aq 'elapsed' "$T_TMP/q" &&
	grep -aq '^Processor, Processes' "$T_TMP/q"; echo $?) "--quiet: no progress, the results still printed"
"$PERFPROBE" --kernel-view=off --quiet --quick -o "$T_TMP/quiet.json" --results-dir "$T_TMP/res" run lat_syscall lat_pipe \
	2>"$T_TMP/qe" >/dev/null
rc=$?
ok $([ "$rc" -eq "$(run_rc "$T_TMP/quiet.json")" ] && [ ! -s "$T_TMP/qe" ]; echo $?) \
	"--quiet, the run saved: nothing on stderr (exit $rc, $(wc -l <"$T_TMP/qe") lines)"
