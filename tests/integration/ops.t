#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Integration test of the "ops" group (lat_ops, lat_proccall, lat_sem)
# under --quick.  TAP.  PERFPROBE names the binary (default ./perfprobe).
# Needs jq.

. "$(dirname "$0")/tap.sh"
plan 9
out=$T_TMP/out.json

"$PERFPROBE" --quick --no-save --json run lat_ops lat_proccall lat_sem >"$out" 2>/dev/null
rc=$?
# 4: ran, but something was skipped (no SysV IPC): checked below.
[ $rc -eq 0 ] || [ $rc -eq 4 ]
ok $? "perfprobe run lat_ops lat_proccall lat_sem exits 0 (or 4: skipped)"

jq -e '.format == "perfprobe-results" and (.failed | length == 0)' "$out" >/dev/null 2>&1
ok $? "output is one valid JSON result document, nothing failed"

keys=()
for ty in int int64; do
	for op in bit add mul div mod; do keys+=("lat_ops-$ty-$op"); done
done
for ty in float double; do
	for op in add mul div; do keys+=("lat_ops-$ty-$op"); done
done
keys+=("lat_proc-proccall")
want=$(printf '%s\n' "${keys[@]}" | jq -R . | jq -s .)
jq -e --argjson k "$want" '[.results[].key] as $have | all($k[]; . as $x | $have | index($x))' \
	"$out" >/dev/null
ok $? "all ${#keys[@]} keys (lat_ops-*, lat_proc-proccall) are there"

if jq -e '.results[] | select(.key == "lat_sem")' "$out" >/dev/null; then
	jq -e '.results[] | select(.key == "lat_sem") | .unit == "us"' "$out" >/dev/null
	ok $? "lat_sem is there, in us"
else
	reason=$(jq -r '.skipped[] | select(.name == "lat_sem") | .reason' "$out" 2>/dev/null)
	skip "lat_sem skipped: ${reason:-unknown}"
fi

samples=$(jq -r '.meta.options.samples' "$out")
jq -e --argjson n "$samples" 'all(.results[]; (.samples | length) >= $n and $n >= 5)' \
	"$out" >/dev/null
ok $? "every result has >= $samples samples"

jq -e 'all(.results[]; .value > 0)' "$out" >/dev/null
ok $? "every value is positive"

val() {
	jq -r --arg k "$1" '.results[] | select(.key == $k) | .stats.min' "$out"
}

# Division is a long-latency operation everywhere; addition a short one.
for ty in int int64 double; do
	d=$(val "lat_ops-$ty-div")
	a=$(val "lat_ops-$ty-add")
	awk -v d="$d" -v a="$a" 'BEGIN { exit !(d > a) }' || { bad=$ty; break; }
done
[ -z "$bad" ]
ok $? "division is slower than addition (int, int64, double)${bad:+: not $bad}"

# An add chain cannot beat one cycle: at most 6 GHz, so >= 0.16 ns.
a=$(val lat_ops-int-add)
awk -v a="$a" 'BEGIN { exit !(a >= 0.16 && a < 50) }'
ok $? "int add ($a ns) is a plausible dependent-chain latency"

p=$(val lat_proc-proccall)
awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 1) }'
ok $? "a procedure call ($p us) takes under a microsecond"

done_testing
