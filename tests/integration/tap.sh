# SPDX-License-Identifier: GPL-2.0
# What the integration tests share (sourced, not run): the TAP writer
# (tests/lib/tap.sh), the binary under test and perfprobe's own checks.
. "$(dirname "$0")/../lib/tap.sh"
PERFPROBE=${PERFPROBE:-./perfprobe}

# jq 1.6 (Debian 12) exits 0 for -e on an empty file, so a check of a run
# that wrote nothing would pass.  Here -e with an empty FILE, the last
# argument, exits 4 (jq's "no valid result") and says so.
jq() {
	local a e=0 f=${!#}

	for a in "$@"; do
		case $a in
		--exit-status) e=1 ;;
		--*) ;;
		-*e*) [[ $a =~ ^-[a-zA-Z]+$ ]] && e=1 ;;
		esac
	done
	if [ $e = 1 ] && [ $# -gt 1 ] && [ -f "$f" ] && [ ! -s "$f" ]; then
		echo "jq: $f: empty, no document" >&2
		return 4
	fi
	command jq "$@"
}

# Run perfprobe in a network namespace of its own with only 'lo' up, so
# tests never touch real interfaces; plainly where unshare is refused.
in_netns() {
	if unshare -n true 2>/dev/null; then
		unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
	else
		"$@"
	fi
}

# wait_or_kill PID SECS: wait for the background job PID; what has not
# ended in SECS is killed (and fails its test, 137).  Its exit status;
# the watchdog's sleep never holds prove's pipe open.
wait_or_kill() {
	local rc watchdog

	( sleep "$2"; kill -KILL "$1" 2>/dev/null ) >/dev/null 2>&1 &
	watchdog=$!
	wait "$1"
	rc=$?
	kill "$watchdog" 2>/dev/null
	return $rc
}

# Bad input: perfprobe exits WANT-RC with exactly one "perfprobe: ..." line
# on stderr.
bad() {	# bad WANT-RC DESCRIPTION ARGS...
	want=$1
	d=$2
	shift 2
	"$PERFPROBE" "$@" >"$T_TMP/out" 2>"$T_TMP/e"
	rc=$?
	lines=$(wc -l <"$T_TMP/e")
	ok $([ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -q '^perfprobe: ' "$T_TMP/e"; echo $?) \
		"$d: exit $want and one error line (got $rc, $lines lines)"
}

# jq: is result A's median below result B's beyond their noise?  The rule
# of pp_below_beyond_noise() (tools/lib/stats.c): by more than twice the
# larger CV, at least 10%.  Prepend to a jq program: "$JQ_BELOW_NOISE ...".
JQ_BELOW_NOISE='def below_noise($b): .stats.median < $b.stats.median *
	(1 - ([10, 2 * ([.stats.cv_pct, $b.stats.cv_pct] | max)] | max) / 100);'

# Two results of one run FILE, A and B, both reported, and A's median not
# below B's beyond their noise (the rule above): "A is not less than B" for
# two separate measurements, asserted only as far as their own noise lets
# it be.  not_below FILE A B; noise FILE A B says the figures.
not_below() {
	jq -e --arg a "$2" --arg b "$3" "$JQ_BELOW_NOISE"'
		[.results[] | select(.key == $a)][0] as $x |
		[.results[] | select(.key == $b)][0] as $y |
		$x != null and $y != null and ($x | below_noise($y) | not)' "$1" >/dev/null
}
noise() {
	jq -r --arg a "$2" --arg b "$3" '.results as $r | [$a, $b] |
		map(. as $k | [$r[] | select(.key == $k)][0] // {key: $k} |
		if .stats then "\(.key) \(.stats.median | . * 1000 | round / 1000) \(.unit) (CV \(.stats.cv_pct |
		round)%)" else "\(.key) not reported" end) | join(" vs ")' "$1"
}

# KEY of run FILE skipped because the overhead taken out of it swamped it
# in every attempt (harness.rst, "Impossible values": lat_sig, lat_ctx,
# lat_pagefault, lat_ops): reported as a skip, never as a number, which a
# loaded machine may make of any of their keys.  noisy_skip FILE KEY
noisy_skip() {
	jq -e --arg k "$2" '.skipped | any(.name == $k and (.reason | test("too noisy")))' \
		"$1" >/dev/null 2>&1
}

# The exit code a run's document says it must have exited with (README,
# "Exit codes"): 1 when a benchmark failed, else 4 when one was skipped,
# else 0.  run_rc FILE
run_rc() {
	jq -r 'if (.failed | length) > 0 then 1 elif (.skipped | length) > 0 then 4 else 0 end' \
		"$1" 2>/dev/null
}

# perfprobe compare --json FILE: every verdict is the one compare.rst's
# rules give for its change and interval under the threshold T ("worse":
# up for lower-is-better keys).  Two real runs can compare any way; what
# compare makes of them cannot.
JQ_VERDICT='def verdict($t):
	(if .direction == "higher" then {w: -.change_pct, lo: -.hi_pct, hi: -.lo_pct}
	 else {w: .change_pct, lo: .lo_pct, hi: .hi_pct} end) as $x |
	if .lo_pct >= -$t and .hi_pct <= $t then "same"
	elif $x.lo > 0 and $x.w > $t then "regression"
	elif $x.hi < 0 and $x.w < -$t then "improvement"
	else "noisy" end;'
verdicts_follow() {
	jq -e "$JQ_VERDICT"'[.comparisons[] | .threshold_pct as $t | .results[] | select(.change_pct != null) |
		.verdict == verdict($t) and .lo_pct <= .change_pct and .change_pct <= .hi_pct] |
		length > 0 and all' "$1" >/dev/null
}
# ... and compare exited RC: 6 when it found nothing that could pass (not
# comparable), else 5 exactly when a key fails (a regression that gates).
# rc_follows FILE RC
rc_follows() {
	[ "$2" -eq "$(jq 'if any(.comparisons[]; .not_comparable) then 6 elif any(.comparisons[].results[]; .fails) then 5 else 0 end' "$1" 2>/dev/null || echo -1)" ]
}
