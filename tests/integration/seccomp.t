#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pp-seccomp, the known kernel slowdown of compare.rst's CI recipe: the
# command runs under the filters asked for (the kernel counts them in
# /proc/PID/status), its exit status comes back, and bad input is one
# line and exit 2.  What is asserted is what the kernel reports, never a
# timing.
. "$(dirname "$0")/tap.sh"
S=$(dirname "$PERFPROBE")/tests/pp-seccomp
[ -x "$S" ] || { plan 1; skip "no $S (make check-build builds it)"; done_testing; exit 0; }
plan 8

status() { sed -n "s/^$1:[[:space:]]*//p" "$T_TMP/status"; }

"$S" cat /proc/self/status >"$T_TMP/status"
ok $? "pp-seccomp cat: exit 0"
check "... the command runs in seccomp filter mode (Seccomp: 2), one filter" \
	test "$(status Seccomp) $(status Seccomp_filters)" = "2 1"
"$S" --stack 3 --cost getppid=3800 -- cat /proc/self/status >"$T_TMP/status"
check "--stack 3 --cost getppid=3800: three filters, the largest cost allowed" \
	test "$(status Seccomp) $(status Seccomp_filters)" = "2 3"
check "no_new_privs is set, as an unprivileged filter needs" test "$(status NoNewPrivs)" = 1

"$S" --cost read=10 --cost getppid=20 sh -c 'read x </dev/null; exit 7'
ok $([ $? = 7 ]; echo $?) "the command's exit status comes back (7), the calls it makes allowed"

for bad in "--cost nosuchcall=1 true" "--cost getppid=0 true" "--cost getppid=3801 true" \
	"--cost getppid true" "--stack 9 true" "--frob true" "" \
	"--cost getppid=3800 --cost read=3800 true"; do
	# shellcheck disable=SC2086
	"$S" $bad >"$T_TMP/out" 2>"$T_TMP/err"
	echo "$? $(grep -c '^pp-seccomp: ' "$T_TMP/err") $(wc -c <"$T_TMP/out")"
done >"$T_TMP/bad"
check "bad input: exit 2, one 'pp-seccomp: ...' line, nothing run (8 cases)" \
	test "$(sort -u "$T_TMP/bad")" = "2 1 0"
"$S" /nonexistent/cmd 2>"$T_TMP/err"
ok $([ $? = 1 ] && grep -q '^pp-seccomp: /nonexistent/cmd: No such file' "$T_TMP/err"; echo $?) \
	"a command that cannot run: exit 1, saying why"
"$S" --cost getppid=100 "$PERFPROBE" --version >/dev/null
ok $? "perfprobe runs under it"
done_testing
