#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Integration test of the "ops" group (lat_ops, lat_proccall, lat_sem)
# under --quick.  TAP.  PERFPROBE names the binary (default ./perfprobe).
# Needs jq.

. "$(dirname "$0")/tap.sh"
plan 9
out=$T_TMP/out.json

"$PERFPROBE" --kernel-view=off --quick --no-save --json run lat_ops lat_proccall lat_sem >"$out" 2>/dev/null
rc=$?
# 4: ran, but something was skipped (no SysV IPC): checked below.
want=$(run_rc "$out")
[ "$rc" = "$want" ]
ok $? "perfprobe run lat_ops lat_proccall lat_sem: the exit its document gives, 0 or 4 with the skips (got $rc, want ${want:-?})"

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
# lat_ops takes a helper operation out of its samples: where that swamps
# them in every attempt, the key is skipped as too noisy, never a number
missing=""
for k in "${keys[@]}"; do
	jq -e --arg k "$k" '.results | any(.key == $k)' "$out" >/dev/null ||
		noisy_skip "$out" "$k" || missing="$missing $k"
done
[ -z "$missing" ]
ok $? "all ${#keys[@]} keys (lat_ops-*, lat_proc-proccall) are there, or skipped as too noisy${missing:+ (missing:$missing)}"

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

# Division is a long-latency operation everywhere; addition a short one:
# two measurements, compared as far as their noise lets them be (tap.sh).
bad="" tys=""
for ty in int int64 double; do
	noisy_skip "$out" "lat_ops-$ty-div" || noisy_skip "$out" "lat_ops-$ty-add" && continue
	tys="$tys $ty"
	not_below "$out" "lat_ops-$ty-div" "lat_ops-$ty-add" ||
		bad="$bad $(noise "$out" "lat_ops-$ty-div" "lat_ops-$ty-add");"
done
if [ -z "$tys" ]; then
	skip "division or addition skipped as too noisy for every type"
else
	[ -z "$bad" ]
	ok $? "division not below addition beyond the noise ($tys )${bad:+:$bad}"
fi

# An add chain cannot beat one cycle: at most 6 GHz, so >= 0.16 ns.
if noisy_skip "$out" lat_ops-int-add; then
	skip "int add skipped as too noisy"
else
	a=$(val lat_ops-int-add)
	awk -v a="$a" 'BEGIN { exit !(a >= 0.16 && a < 50) }'
	ok $? "int add ($a ns) is a plausible dependent-chain latency"
fi

p=$(val lat_proc-proccall)
awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 1) }'
ok $? "a procedure call ($p us) takes under a microsecond"

done_testing
