# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# tap.sh - the one TAP writer of the shell tests, sourced (not run) by every
# tests/integration/*.t (through tests/integration/tap.sh) and by
# tests/vm/guest-tests.sh inside the test VM, so it is POSIX sh that busybox
# ash runs too.  In the manner of the kernel's kselftest: "ok N - what" /
# "not ok N - what", "ok N # SKIP reason" (a skip is not a failure),
# diagnostics as "# ...", the plan first (plan N) or at the end
# (done_testing without a plan), and a "# Totals:" line at the end.
#
# TAP_UNNUMBERED=1 (set before sourcing) prints "ok - what" without numbers,
# no version line and no plan: for output that is merged with other
# programs' TAP lines and numbered by its reader (scripts/vmtest.sh).
#
#   plan N                 the number of tests, printed first
#   ok RC DESCRIPTION      pass when RC (an exit status) is 0
#   pass DESCRIPTION       fail DESCRIPTION
#   skip REASON            a test that could not run here
#   skip_rest REASON       skip every test left of the plan, and exit 0
#                          (a prerequisite is missing: say which)
#   check DESCRIPTION CMD...  run CMD; pass when it exits 0; its output is
#                          shown as diagnostics only when it fails
#   diag TEXT...           a "# " line
#   tap_count_fail         count a failure another program reported with
#                          its own "not ok" line (it then fails the script)
#   done_testing           plan (if none was given), totals; returns 0 only
#                          when nothing failed and the plan was kept
#
# T_TMP is a temporary directory of the script's own, removed at exit.

T_N=0
T_PASS=0
T_FAIL=0
T_SKIP=0
T_EXT_FAIL=0
T_PLAN=
T_NUM=1
[ "${TAP_UNNUMBERED:-0}" = 1 ] && T_NUM=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/pp-test.XXXXXX") || exit 1
trap 'rm -rf "$T_TMP"' EXIT

[ "$T_NUM" = 1 ] && echo "TAP version 13"

# One result line: RESULT ("ok" or "not ok") and the rest of the line.
tap_line() {
	T_N=$((T_N + 1))
	if [ "$T_NUM" = 1 ]; then
		echo "$1 $T_N$2"
	else
		echo "$1$2"
	fi
}

plan() {
	T_PLAN=$1
	[ "$T_NUM" = 1 ] && echo "1..$1"
	return 0
}

diag() { echo "# $*"; }

pass() {
	T_PASS=$((T_PASS + 1))
	tap_line ok " - $*"
}

fail() {
	T_FAIL=$((T_FAIL + 1))
	tap_line "not ok" " - $*"
}

skip() {
	T_SKIP=$((T_SKIP + 1))
	tap_line ok " # SKIP $*"
}

skip_rest() {
	echo "# $*"
	while [ "$T_N" -lt "${T_PLAN:-0}" ]; do skip "$*"; done
	exit 0
}

ok() {	# ok EXIT-STATUS DESCRIPTION
	case $1 in
	'' | *[!0-9]*)
		# a caller of another TAP style ("ok DESCRIPTION"): say so loudly
		fail "$*"
		diag "ok: '$1' is not an exit status (usage: ok RC DESCRIPTION)"
		return 1
		;;
	esac
	if [ "$1" -eq 0 ]; then
		shift
		pass "$*"
	else
		shift
		fail "$*"
	fi
}

check() { # check DESCRIPTION COMMAND...
	t_what=$1
	shift
	if "$@" >"$T_TMP/.check-out" 2>&1; then
		pass "$t_what"
	else
		fail "$t_what"
		# its output as diagnostics, lines that already are ones as they are
		sed '/^#/!s/^/# /' "$T_TMP/.check-out"
	fi
}

tap_count_fail() { T_EXT_FAIL=$((T_EXT_FAIL + 1)); }

done_testing() {
	t_bad=$((T_FAIL + T_EXT_FAIL))
	if [ -z "$T_PLAN" ]; then
		[ "$T_NUM" = 1 ] && echo "1..$T_N"
	elif [ "$T_N" -ne "$T_PLAN" ]; then
		diag "Planned tests != run tests ($T_PLAN != $T_N)"
		t_bad=$((t_bad + 1))
	fi
	diag "Totals: pass:$T_PASS fail:$T_FAIL skip:$T_SKIP"
	[ "$T_EXT_FAIL" -eq 0 ] || diag "and $T_EXT_FAIL failure(s) reported by other programs"
	[ "$t_bad" -eq 0 ]
}
