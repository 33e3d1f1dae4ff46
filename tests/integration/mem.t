#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Integration test of the "mem" group (lat_mem_rd) under --quick.  TAP.
# PERFPROBE names the binary (default ./perfprobe).  Needs jq.
#
# Noise: this runs on shared, loaded machines.  Another task's time slice
# only ever adds time to a sample, and a --quick sample is 2 ms: on 2 busy
# vCPUs the samples of one size alternated 1.2 / 3.5 ns (CVs of 50-120%
# under a parallel build).  Every relation between two points of the curve
# (two measurements) is therefore asserted only as far as their noise lets
# it be: not below beyond twice the larger CV, at least 10% (tap.sh's
# JQ_BELOW_NOISE, the rule of pp_below_beyond_noise()); a doctored copy of
# the run shows each such check still fails on a broken curve.  What one
# measurement must satisfy by construction (the cache levels are the
# documented cut of this run's own curve) is asserted exactly.  Nothing is
# measured again: a second chance is luck, not an invariant.

. "$(dirname "$0")/tap.sh"
plan 17
out=$T_TMP/out.json

"$PERFPROBE" --kernel-view=off --quick --no-save --json run lat_mem_rd >"$out" 2>/dev/null
rc=$?
ok $([ "$rc" = "$(run_rc "$out")" ]; echo $?) \
	"perfprobe run lat_mem_rd exits as its document says (exit $rc; 4 if a point was skipped)"

jq -e '.format == "perfprobe-results"' "$out" >/dev/null 2>&1
ok $? "output is one valid JSON result document"

keys='["lat_mem_rd-l1", "lat_mem_rd-l2", "lat_mem_rd-main",
       "lat_mem_rd-detected-l1-bytes", "lat_mem_rd-stride128-sz512",
       "lat_mem_rd-stride128-sz31k", "lat_mem_rd-stride128-sz1000k",
       "lat_mem_rd-stride16-sz1000k", "lat_mem_rd-stride1024-sz1000k",
       "lat_mem_rd-random-stride128-sz4k"]'
jq -e --argjson k "$keys" '[.results[].key] as $have | all($k[]; . as $x | $have | index($x))' \
	"$out" >/dev/null
ok $? "the headline, curve, random and detected-size keys are there"

samples=$(jq -r '.meta.options.samples' "$out")
jq -e --argjson n "$samples" 'all(.results[]; (.samples | length) >= $n and $n >= 5)' \
	"$out" >/dev/null
ok $? "every result has >= $samples samples"

jq -e 'all(.results[]; .value > 0 and all(.samples[]; . > 0))' "$out" >/dev/null
ok $? "every value and sample is positive"

# curve(MODE): that curve of the run, its results sorted by size, each
# with .b, its size in bytes (the key says it in lmbench's MB column x 1000,
# "k", or in bytes: within 3% of the size; the grid's steps are 33% and
# more, so within 10% is that size)
JQ_CURVE='def curve($m): [.results[] | select(.key | test("^lat_mem_rd-" + $m + "-sz[0-9]+k?$")) |
	. + {b: (.key | capture("-sz(?<n>[0-9]+)(?<k>k?)$") |
		(.n | tonumber) * (if .k == "k" then 1048.576 else 1 end))}] | sort_by(.b);'

# MODE N FILE: >= N sizes, the largest not below the smallest beyond the noise
ends_ok() {
	jq -e --arg m "$1" --argjson n "$2" "$JQ_BELOW_NOISE$JQ_CURVE"'curve($m) as $c |
		($c | length) >= $n and ($c[-1] | below_noise($c[0]) | not)' "${3:-$out}" >/dev/null
}
ends_ok stride128 10
ok $? "stride 128: >= 10 sizes, the largest not below the smallest beyond the noise"

# FILE: the stride-128 sizes that read below the size before beyond the
# noise (a chain that skipped most of the array falls to the L1 latency)
falls() {
	jq -r "$JQ_BELOW_NOISE$JQ_CURVE"'curve("stride128") as $c |
		range(1; $c | length) as $i | $c[$i] | select(below_noise($c[$i - 1])) | .key' "$1"
}
fell=$(falls "$out" | tr '\n' ' ')
[ -z "$fell" ]
ok $? "stride 128: no size below the size before it beyond the noise${fell:+: $fell}"

# A broken chain that stays in the first lines of the array: the largest
# size reads like the smallest (both CVs zeroed, as a quiet machine's
# would be: a CV past 50% would let anything pass).  The check must name it.
doctored=$T_TMP/doctored.json
jq "$JQ_CURVE"'curve("stride128") as $c |
	(.results[] | select(.key == $c[-2].key) | .stats.cv_pct) = 0 |
	(.results[] | select(.key == $c[-1].key) | .stats) |= (.median = $c[0].stats.median | .cv_pct = 0)' \
	"$out" >"$doctored"
falls "$doctored" | grep -qx -- "$(jq -r "$JQ_CURVE"'curve("stride128")[-1].key' "$out")"
ok $? "stride 128: the check names a largest size doctored to read like the smallest"

# The invariant lat_mem_rd enforces (Documentation/bench/lat_mem_rd.rst):
# no reported point is below its curve's first, L1-resident point by more
# than twice the larger CV (at least 10%).  Read from what was reported, so
# this holds on any machine however loaded; a doctored curve shows the
# check can fail.
below_l1() { # FILE: "mode size" of each point that breaks it
	jq -r "$JQ_BELOW_NOISE"'[.results[] | select(.key | test("^lat_mem_rd-.*stride[0-9]+-sz"))] |
		group_by(.key | sub("-sz[0-9]+k?$"; "")) | .[] |
		map(. + {bytes: (.key | capture("-sz(?<n>[0-9]+)(?<k>k?)$") |
			(.n | tonumber) * (if .k == "k" then 1048.576 else 1 end))}) |
		sort_by(.bytes) | .[0] as $l1 | .[1:][] |
		select(below_noise($l1)) |
		.key' "$1"
}
bad=$(below_l1 "$out")
[ -z "$bad" ]
ok $? "no reported point is below its curve's L1 point beyond the noise${bad:+: $bad}"

# Both CVs zeroed: a real L1 point disturbed past a CV of 50% makes the
# tolerance 100%, under which nothing can be below it.  (With the L1 point's
# CV zeroed, other points of a loaded run may be named too.)
jq '(.results[] | select(.key == "lat_mem_rd-stride128-sz512") | .stats.median) as $l1 |
    (.results[] | select(.key == "lat_mem_rd-stride128-sz512") | .stats.cv_pct) = 0 |
    (.results[] | select(.key == "lat_mem_rd-stride128-sz1000k") | .stats) |=
	(.median = $l1 / 10 | .cv_pct = 0)' "$out" >"$doctored"
below_l1 "$doctored" | grep -qx lat_mem_rd-stride128-sz1000k
ok $? "the check names a point doctored to read below L1"

ends_ok random-stride128 3
ok $? "random: >= 3 sizes, the largest not below the smallest beyond the noise"

check "main memory not below L1 beyond the noise ($(noise "$out" lat_mem_rd-main lat_mem_rd-l1))" \
	not_below "$out" lat_mem_rd-main lat_mem_rd-l1

# Each level's plateau is not below the one before beyond the noise.
levels() { # FILE
	jq -c '[.results[] | select(.key | test("^lat_mem_rd-l[0-9]$")) |
		"\(.key) \(.value * 100 | round / 100) (CV \(.stats.cv_pct | round)%)"]' "$1"
}
jq -e "$JQ_BELOW_NOISE"'[.results[] | select(.key | test("^lat_mem_rd-l[0-9]$"))] | sort_by(.key) |
	. as $l | length >= 1 and ([range(1; length) as $i | $l[$i] | below_noise($l[$i - 1])] | any | not)' \
	"$out" >/dev/null
ok $? "cache level latencies do not fall with the level beyond the noise ($(levels "$out"))"

# The cache levels are the documented cut of this run's own curve
# (lat_mem_rd.rst, "Cache levels"): each size's minimum, a running median
# of three, a plateau while within 30% of its floor.  Level 1 is the first
# plateau: its size the plateau's last, its samples, sample by sample, the
# median over the plateau's sizes (to the 10 digits the JSON keeps).  An
# invariant of the one measurement.
cut_ok() { # FILE
	jq -e "$JQ_CURVE"'curve("stride128") as $c | ($c | length) as $n |
		[range($n) as $p | if $p == 0 or $p == $n - 1 then $c[$p].stats.min
		 else [$c[$p - 1].stats.min, $c[$p].stats.min, $c[$p + 1].stats.min] | sort | .[1]
		 end] as $t |
		def end_of($j; $f): if $j + 1 < $n and $t[$j + 1] <= $f * 1.30
			then end_of($j + 1; [$f, $t[$j + 1]] | min) else $j end;
		end_of(0; $t[0]) as $e | $c[:$e + 1] as $pl |
		def med: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		(.results[] | select(.key == "lat_mem_rd-detected-l1-bytes") | .value) as $d |
		(.results[] | select(.key == "lat_mem_rd-l1") | .samples) as $l1 |
		(($d - $pl[-1].b) | fabs) < $d * 0.1 and
		($l1 | length) > 0 and ([range($l1 | length) as $i | [$pl[] | .samples[$i]] | med] as $m |
		 all(range($l1 | length); (($l1[.] - $m[.]) | fabs) <= 1e-8 * $m[.]))' "$1" >/dev/null
}
cut_ok "$out"
ok $? "L1: the first plateau of this run's curve, $(jq -r '.results[] | select(.key == "lat_mem_rd-detected-l1-bytes") | .value' "$out") bytes; its latency the plateau's per-sample median"
# ... and the check fails on a curve whose level was doctored
jq '(.results[] | select(.key == "lat_mem_rd-detected-l1-bytes") | .value) *= 4' "$out" >"$doctored"
! cut_ok "$doctored"
ok $? "the cut check fails on a detected L1 doctored to 4x"

# The L1 size of sysfs (else what the C library reads from CPUID) against
# the curve: the sizes up to half of it are L1 hits.  A hit is told from
# a miss by this run's own curve: a size's fastest sample (lmbench's
# figure, the one least touched by load) is nearer the first point's than
# that of the first size at 4x L1 or more (below their geometric mean; not
# the detected L2 plateau, whose cut load can move into L1).  Medians are not used:
# a load on the other hyperthread moved whole sizes' medians to 2-3x the
# first while their fastest samples stayed within 20% of it.  (The
# detected size is the cut of the curve, checked above; where load has
# moved whole sizes it may be grid steps low, which says nothing wrong
# about the cut.)
l1=0
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$d/level" ] || continue
	[ "$(cat "$d/level")" = 1 ] || continue
	[ "$(cat "$d/type")" = Instruction ] && continue
	s=$(cat "$d/size")
	case $s in
	*K) l1=$((${s%K} * 1024)) ;;
	*M) l1=$((${s%M} * 1048576)) ;;
	*) l1=$s ;;
	esac
done
src=sysfs
if [ "$l1" = 0 ]; then
	l1=$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null || echo 0)
	[ -z "$l1" ] && l1=0
	src="getconf (no sysfs cache information)"
fi
# the line between an L1 hit and a miss: sqrt(the first size's fastest x
# the fastest of the first size at 4x L1 or more, certainly not in L1)
JQ_L1_LINE='def l1_line($l1): curve("stride128") as $c | $c[0] as $f |
	[$c[] | select(.b >= 4 * $l1)][0] as $m |
	if $m == null then null else (($f.samples | min) * ($m.samples | min) | sqrt) end;'
in_l1() { # L1 FILE: the stride-128 sizes up to L1/2 that read as L2 or beyond
	jq -r --argjson l1 "$1" "$JQ_CURVE$JQ_L1_LINE"'l1_line($l1) as $line |
		curve("stride128")[1:][] | select(.b <= $l1 / 2 * 1.1) |
		select($line == null or (.samples | min) >= $line) |
		"\(.key | sub("lat_mem_rd-stride128-"; ""))=\(.samples | min)"' "$2"
}
if [ "$l1" -gt 0 ]; then
	bad=$(in_l1 "$l1" "$out" | tr '\n' ' ')
	n=$(jq --argjson l1 "$l1" "$JQ_CURVE"'[curve("stride128")[] | select(.b <= $l1 / 2 * 1.1)] | length' "$out")
	line=$(jq -r --argjson l1 "$l1" "$JQ_CURVE$JQ_L1_LINE"'l1_line($l1) // "none: no size at 4x L1"' "$out")
	[ -z "$bad" ] && [ "$n" -ge 3 ]
	ok $? "the $n sizes up to half the L1 of $l1 bytes ($src) read as L1 hits: fastest samples below $line ns${bad:+ (not:$bad)}"
	# ... and it fails on a curve whose last size in L1/2 reads as one at 4x L1
	jq --argjson l1 "$l1" "$JQ_CURVE"'[curve("stride128")[] | select(.b <= $l1 / 2 * 1.1)][-1].key as $k |
		[curve("stride128")[] | select(.b >= 4 * $l1)][0].samples as $m |
		(.results[] | select(.key == $k) | .samples) = $m' "$out" >"$doctored"
	[ -n "$(in_l1 "$l1" "$doctored")" ]
	ok $? "the L1-hit check fails on a size in L1 doctored to read as one at 4x L1"
else
	skip "no L1 size in sysfs or getconf"
	skip "no L1 size in sysfs or getconf"
fi
diag "detected L1 $(jq '.results[] | select(.key == "lat_mem_rd-detected-l1-bytes").value' "$out") bytes, $src $l1"

done_testing
