#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Context switching: lat_ctx under --quick, pinned (the figures of an
# unpinned run on two CPUs are mostly cross-CPU wake-ups) and not.
. "$(dirname "$0")/tap.sh"
plan 9

SUMMARY="lat_ctx-2-0k lat_ctx-2-16k lat_ctx-2-64k lat_ctx-8-16k lat_ctx-8-64k
lat_ctx-16-16k lat_ctx-16-64k"
SEED="lat_ctx-2-128k lat_ctx-4-128k lat_ctx-2-256k lat_ctx-4-256k"

# good KEY FILE: a valid result, or skipped because the overhead swamped it
good() {
	jq -e --arg k "$1" '(.results[] | select(.key == $k) |
		(.samples | length) >= 5 and .value > 0 and .unit == "us" and
		.direction == "lower" and .cpu.first >= 0) //
		(.skipped[] | select(.name == $k) | .reason | test("too noisy"))' "$2" >/dev/null
}
v() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$2"; }
ge() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a >= b * f) }'; }

J=$T_TMP/ctx.json
"$PERFPROBE" --quick --json --no-save --cpu 0 run lat_ctx >"$J" 2>"$T_TMP/err"
rc=$?
ok $(( rc == 0 || rc == 4 ? 0 : 1 )) "lat_ctx --quick --cpu 0 exits 0 or 4 (got $rc)"
check "stdout is one JSON document, nothing failed" jq -e '.failed == []' "$J"
bad=""
for k in $SUMMARY; do
	jq -e --arg k "$k" '.results[] | select(.key == $k) | (.samples | length) >= 5 and
		.value > 0 and .unit == "us" and .direction == "lower"' "$J" >/dev/null ||
		bad="$bad $k"
done
ok $([ -z "$bad" ]; echo $?) "every summary key: >= 5 samples, positive, us${bad:+ (bad:$bad)}"
bad=""
for k in $SEED; do
	good "$k" "$J" || bad="$bad $k"
done
ok $([ -z "$bad" ]; echo $?) "128k and 256k keys valid (or skipped as too noisy)${bad:+ (bad:$bad)}"
check "--cpu 0: every lat_ctx result ran on CPU 0" \
	jq -e '[.results[] | .cpu.first == 0 and .cpu.last == 0] | all' "$J"
check "--cpu 0: all 16 processes of the 16p ring on CPU 0" grep -q \
	'lat_ctx-16-64k: placement (pinned to CPU 0): 16 processes, at the end CPU 0 x16; 0 moved' \
	"$T_TMP/err"
check "the overhead subtracted is reported" grep -q \
	'lat_ctx: 64k: overhead (pipe + sum, one process) [0-9.]* us' "$T_TMP/err"
# 16 working sets of 64K do not fit where two empty ones did: refills cost
check "16p/64K not faster than 2p/0K ($(v lat_ctx-16-64k "$J") vs $(v lat_ctx-2-0k "$J"), 20% slack)" \
	ge "$(v lat_ctx-16-64k "$J")" "$(v lat_ctx-2-0k "$J")" 0.8

"$PERFPROBE" --quick --no-save run lat_ctx >"$T_TMP/table" 2>/dev/null
check "text mode: the context switching table" \
	grep -q '^Context switching - times in microseconds - smaller is better$' "$T_TMP/table"

done_testing
