#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# STREAM (group "stream") under --quick: keys, samples, stream.c's
# best-rate keys, placement, and that the result check runs: the debug
# knob PERFPROBE_STREAM_CORRUPT=1 doubles one element of a[] after the
# timed passes and the run must then fail loudly.
. "$(dirname "$0")/tap.sh"
plan 12

KEYS="stream-copy stream-scale stream-add stream-triad
      stream-copy-mt stream-scale-mt stream-add-mt stream-triad-mt"
v() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$2"; }

J=$T_TMP/stream.json
"$PERFPROBE" -v --quick --json --no-save run stream >"$J" 2>"$T_TMP/err"
rc=$?
ok $(( rc == 0 ? 0 : 1 )) "perfprobe --quick run stream exits 0 (got $rc)"

check "output is one valid JSON result document" jq -e '.format == "perfprobe-results"' "$J"

ncpu=$(getconf _NPROCESSORS_ONLN)
missing=""
for k in $KEYS; do
	case $k in *-mt) [ "$ncpu" -lt 2 ] && continue ;; esac
	for kk in "$k" "$k-best"; do
		jq -e --arg k "$kk" 'any(.results[]; .key == $k and .unit == "MB/s" and
			.direction == "higher")' "$J" >/dev/null || missing="$missing $kk"
	done
done
ok $([ -z "$missing" ]; echo $?) "the 16 keys, in MB/s, higher is better (missing:${missing:- none})"

samples=$(jq -r '.meta.options.samples' "$J")
check "every result has >= $samples (>= 5) samples" \
	jq -e --argjson n "$samples" 'all(.results[]; (.samples | length) >= $n and $n >= 5)' "$J"

check "every value and sample is positive" \
	jq -e 'all(.results[]; .value > 0 and all(.samples[]; . > 0))' "$J"

# stream.c's headline is the best rate: -best is the maximum of the passes,
# the plain key the harness's median of the same passes.
check "KEY-best is the maximum of the passes, KEY their median, same samples" \
	jq -e '[.results[] | {key, value, samples}] as $r |
		all($r[] | select(.key | endswith("-best")); . as $b |
		    ($r[] | select(.key == ($b.key | rtrimstr("-best")))) as $m |
		    $b.value == ($b.samples | max) and $m.samples == $b.samples and
		    $m.value <= $b.value)' "$J"

# Sanity: all four kernels stream the same arrays; their rates are within
# a factor of 4 of each other (a kernel that skipped work or a byte count
# off by a factor would not be), four measurements compared as far as
# their noise lets them be: neither side of a pair, times 4, below the
# other beyond the noise (tap.sh's rule).
c=$(v stream-copy "$J")
check "scale, add, triad and copy ($c MB/s): none 4x below another beyond the noise" \
	jq -e "$JQ_BELOW_NOISE"'[.results[] | select(.key | test("^stream-[a-z]+$"))] as $k |
		[$k[] | select(.key == "stream-copy")][0] as $c | $c != null and ($k | length) == 4 and
		all($k[]; . as $x | (.stats.median *= 4 | below_noise($c) | not) and
			  ($c | .stats.median *= 4 | below_noise($x) | not))' "$J"

grep -q 'stream: 3 arrays of .* MB (.*last-level cache' "$T_TMP/err"
ok $? "the progress line gives the array size and the cache it was sized from"

# Placement: --cpu 0 puts the single-thread run on CPU 0.
P=$T_TMP/pin.json
PERFPROBE_STREAM_SIZE=4m "$PERFPROBE" --kernel-view=off --quick --json --no-save --cpu 0 run stream \
	>"$P" 2>/dev/null
check "--cpu 0: the single-thread results ran on CPU 0" \
	jq -e '[.results[] | select(.key | test("^stream-[a-z]+(-best)?$"))] |
		length == 8 and all(.cpu.first == 0 and .cpu.last == 0)' "$P"

# The result check: one wrong element must fail the run, loudly.
C=$T_TMP/corrupt.json
PERFPROBE_STREAM_CORRUPT=1 PERFPROBE_STREAM_SIZE=4m "$PERFPROBE" --kernel-view=off --quick --json --no-save \
	run stream >"$C" 2>"$T_TMP/cerr"
rc=$?
ok $(( rc == 1 ? 0 : 1 )) "PERFPROBE_STREAM_CORRUPT=1: exit 1 (got $rc)"
check "... the failure names the result check and it is recorded, with no results" \
	jq -e '(.failed | any(.name == "stream" and (.reason | test("result check failed")))) and
		(.results | length) == 0' "$C"
grep -q 'result check failed' "$T_TMP/cerr"
ok $? "... and is said on stderr"

done_testing
