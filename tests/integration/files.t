#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Result files read robustly (each bad field named, exit 3; linear in the
# number of results) and written honestly (-o checked before the run, a
# full disk reported as such).
. "$(dirname "$0")/tap.sh"
plan 11

R=$T_TMP/r.json
"$PERFPROBE" --kernel-view=off --quick --no-save -o "$R" run lat_syscall >/dev/null 2>&1
check "a real run to alter" jq -e '.results | length >= 6' "$R"

# bad NAME JQ-EDIT EXPECTED-TEXT: summary refuses it with exit 3, naming it
bad() {
	jq "$2" "$R" >"$T_TMP/$1.json"
	"$PERFPROBE" summary "$T_TMP/$1.json" >/dev/null 2>"$T_TMP/e"
	rc=$?
	ok $([ $rc -eq 3 ] && grep -q "$1.json: .*$3" "$T_TMP/e" && [ "$(wc -l <"$T_TMP/e")" -eq 1 ]; echo $?) \
		"$1: exit 3 (got $rc), one line naming '$3': $(cat "$T_TMP/e")"
}
bad direction '.results[0].direction = "sideways"' 'field direction'
bad negative '.results[0].samples[1] = -1' 'field samples\[1\]'
bad value '.results[0].value = "fast"' 'field value'
bad count '.results[0].stats.n = 99' 'field stats.n'
bad duplicate '.results[1].key = .results[0].key' 'duplicated'

# A directory is a set of runs (summary, compare); one without any says so
# (a file that is a directory: tests/unit/test_results.c).
mkdir "$T_TMP/none"
"$PERFPROBE" summary "$T_TMP/none" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 3 ] && grep -q 'no result files' "$T_TMP/e"; echo $?) "a directory without runs: exit 3, said"

# 80,000 results: read at all (the time is a measurement, not a check:
# Documentation/results.rst; it took 10-15 s when reading was quadratic).
# Without the kernel view: with a sampled profile each (about 4.7 KB), the
# file would pass the 256 MiB a result file may be, which is refused.
jq '.results as $r | .results = [range(80000) | . as $i | $r[0] | del(.kernel) | .key = "lat_syscall-x\($i)"]' \
	"$R" >"$T_TMP/big.json"
t0=$(date +%s%N)
"$PERFPROBE" summary "$T_TMP/big.json" >/dev/null 2>&1
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
diag "80,000 results read in $ms ms"
ok $rc "80,000 results read (exit $rc)"

# -o into a missing directory: refused before any benchmark runs
"$PERFPROBE" --kernel-view=off --quick --no-save -o "$T_TMP/no/such/dir/r.json" run lat_syscall >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 1 ] && grep -q 'cannot write in' "$T_TMP/e" && ! grep -q 'lat_syscall-null' "$T_TMP/e"; echo $?) \
	"-o into a missing directory fails before the run: $(head -1 "$T_TMP/e")"

# A full disk: "No space left on device", and no file left behind
mkdir "$T_TMP/small"
if mount -t tmpfs -o size=4k tmpfs "$T_TMP/small" 2>/dev/null; then
	"$PERFPROBE" --kernel-view=off --quick --no-save -o "$T_TMP/small/r.json" run lat_syscall >/dev/null 2>"$T_TMP/e"
	rc=$?
	ok $([ $rc -eq 1 ] && grep -q 'No space left on device' "$T_TMP/e"; echo $?) \
		"a full disk: exit 1 (got $rc), 'No space left on device'"
	ok $([ -z "$(ls -A "$T_TMP/small")" ]; echo $?) "... and nothing half written left there"
	umount "$T_TMP/small"
else
	skip "cannot mount a small tmpfs here (not root?): full-disk write"
	skip "cannot mount a small tmpfs here (not root?): nothing left behind"
fi

done_testing
