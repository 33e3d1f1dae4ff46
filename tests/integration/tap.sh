# SPDX-License-Identifier: GPL-2.0
# Tiny TAP helpers for the integration tests (sourced, not run).
PERFPROBE=${PERFPROBE:-./perfprobe}
T_N=0
T_FAIL=0
T_TMP=$(mktemp -d /tmp/pp-test.XXXXXX)
trap 'rm -rf "$T_TMP"' EXIT

plan() { echo "1..$1"; }
ok() {	# ok CONDITION-EXIT-CODE DESCRIPTION
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAIL=$((T_FAIL + 1))
	fi
}
skip() { T_N=$((T_N + 1)); echo "ok $T_N # SKIP $1"; }
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	"$@" >/dev/null 2>&1
	ok $? "$d"
}
done_testing() { [ "$T_FAIL" -eq 0 ]; }

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
