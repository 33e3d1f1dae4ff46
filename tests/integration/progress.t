#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Progress on long work: on a terminal (a pseudo-terminal from script(1))
# one status line redrawn in place under the result lines, with the
# benchmark, the time elapsed and, after the first benchmark, the time
# left; removed at the end.  Plain lines when stderr is not a terminal;
# none with --quiet (errors still).
. "$(dirname "$0")/tap.sh"
plan 7

command -v script >/dev/null || skip_rest "no script(1) (util-linux)"
TERM=xterm script -qec "$PERFPROBE --quick --no-save -o $T_TMP/tty.json run lat_syscall lat_sig" \
	/dev/null >"$T_TMP/tty" 2>&1
rc=$?
# 4 when a lat_sig key was skipped as too noisy (a loaded machine): the
# exit code is the one the run's own document gives
want=$(run_rc "$T_TMP/tty.json")
ok $([ "$rc" = "$want" ]; echo $?) \
	"run under a pseudo-terminal: the exit its document gives, 0 or 4 with the skips (got $rc, want ${want:-?})"
check "the status line: redrawn in place (CR, erase line), benchmark i of N, elapsed" \
	grep -aqE $'\r\033\\[Kperfprobe: \\[1/2\\] lat_syscall  [0-9]+:[0-9]{2} elapsed' "$T_TMP/tty"
check "from the second benchmark on: the time left" \
	grep -aqE $'perfprobe: \\[2/2\\] lat_sig  [0-9]+:[0-9]{2} elapsed, ~[0-9]+:[0-9]{2} left' "$T_TMP/tty"
check "the result lines above it, each whole" \
	grep -aqE $'^perfprobe: \\[1/2\\] lat_syscall-null +[0-9.]+ us' <(tr '\r' '\n' <"$T_TMP/tty" | sed $'s/^\033\\[K//')
check "removed before the summary: the last status is erased, the table follows" sh -c \
	"tr '\r' '\n' <'$T_TMP/tty' | grep -a -A3 'lat_sig-catch' | tail -n +2 | grep -aqv 'elapsed'"
"$PERFPROBE" --quick --no-save run lat_syscall 2>"$T_TMP/plain" >/dev/null
ok $(! grep -q $'\033' "$T_TMP/plain" && ! grep -q $'\r' "$T_TMP/plain" &&
	grep -q '^perfprobe: \[1/1\] lat_syscall-null' "$T_TMP/plain"; echo $?) \
	"stderr not a terminal: plain lines, no escapes"
TERM=xterm script -qec "$PERFPROBE --quiet --quick --no-save run lat_syscall" /dev/null >"$T_TMP/q" 2>&1
ok $(! grep -aq '\[1/1\]' "$T_TMP/q" && ! grep -aq 'elapsed' "$T_TMP/q" &&
	grep -aq 'lat_syscall-null' "$T_TMP/q"; echo $?) "--quiet: no progress, the results still printed"
