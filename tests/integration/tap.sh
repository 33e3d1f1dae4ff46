# SPDX-License-Identifier: GPL-2.0
# What the integration tests share (sourced, not run): the TAP writer
# (tests/lib/tap.sh), the binary under test and perfprobe's own checks.
. "$(dirname "$0")/../lib/tap.sh"
PERFPROBE=${PERFPROBE:-./perfprobe}

# Run perfprobe in a network namespace of its own with only 'lo' up, so
# tests never touch real interfaces; plainly where unshare is refused.
in_netns() {
	if unshare -n true 2>/dev/null; then
		unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
	else
		"$@"
	fi
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
