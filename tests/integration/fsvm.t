#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# File & VM system benchmarks (lat_fs, lat_mmap, lat_pagefault) under
# --quick: every key, enough samples, positive values, units, a few
# relations that must hold, and the lmbench summary table they fill.
# TAP output; PERFPROBE is the binary (default ./perfprobe).
set -u

. "$(dirname "$0")/tap.sh"

sizes="0 1 4 10"
keys="lat_mmap-1m lat_mmap-8m lat_pagefault"
for s in $sizes; do
	keys="$keys lat_fs-create-${s}k lat_fs-delete-${s}k lat_fs-${s}k"
done

plan 15

"$PERFPROBE" --kernel-view=off --quick --no-save --json -o "$T_TMP/run.json" run lat_fs lat_mmap lat_pagefault \
	>"$T_TMP/out.json" 2>"$T_TMP/err"
rc=$?
want=$(run_rc "$T_TMP/out.json")
check "the exit its document gives, 0 or 4 with the skips (rc $rc, want ${want:-?})" \
	test "$rc" = "$want"
is_json() { jq -e '.results | length > 0' "$1" >/dev/null 2>&1; }
check "stdout is one JSON document with results" is_json "$T_TMP/out.json"

val() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$T_TMP/out.json"; }

# lat_pagefault takes the remap out of its samples: where that swamps
# them in every attempt, it is skipped as too noisy, never a number
missing=""
for k in $keys; do
	[ -n "$(val "$k")" ] || noisy_skip "$T_TMP/out.json" "$k" || missing="$missing $k"
done
check "every key present, or skipped as too noisy${missing:+ (missing:$missing)}" test -z "$missing"
pf_skipped=0
noisy_skip "$T_TMP/out.json" lat_pagefault && pf_skipped=1

few=$(jq -r '[.results[] | select(.key | test("^lat_(fs|mmap|pagefault)")) |
	select((.samples | length) < 5) | .key] | join(" ")' "$T_TMP/out.json")
check "every result has >= 5 samples${few:+ ($few)}" test -z "$few"

bad=$(jq -r '[.results[] | select(.key | test("^lat_(fs|mmap|pagefault)")) |
	select(.value <= 0 or ([.samples[] | select(. < 0)] | length > 0)) | .key] | join(" ")' \
	"$T_TMP/out.json")
check "values positive, no negative sample${bad:+ ($bad)}" test -z "$bad"

units=$(jq -r '[.results[] | select(.key | test("^lat_(fs|mmap|pagefault)")) |
	select((.key | test("^lat_fs-[0-9]+k$")) as $r | (.key | test("faults-per-page$")) as $f |
	       ($r and .unit != "files/s") or ($f and .unit != "faults") or
	       ((($r or $f) | not) and .unit != "us")) | .key] |
	join(" ")' "$T_TMP/out.json")
check "units: files/s for lat_fs-<S>k, faults for the faults per page, us for the rest${units:+ ($units)}" test -z "$units"

dirs=$(jq -r '[.results[] | select(.key | test("^lat_fs-[0-9]+k$")) |
	select(.direction != "higher") | .key] | join(" ")' "$T_TMP/out.json")
check "files/s results are higher-is-better${dirs:+ ($dirs)}" test -z "$dirs"

# lat_fs-<S>k is the create rate: 10^6 / (us per create), median for median.
rate_ok=1
for s in $sizes; do
	awk -v r="$(val "lat_fs-${s}k")" -v t="$(val "lat_fs-create-${s}k")" \
		'BEGIN { d = r * t / 1e6; exit !(d > 0.99 && d < 1.01) }' || rate_ok=0
done
check "lat_fs-<S>k = 10^6 / lat_fs-create-<S>k" test "$rate_ok" -eq 1

# A page fault costs less than the whole map + touch + unmap of 1 MB: two
# measurements, compared as far as their noise lets them be (tap.sh).
if [ $pf_skipped = 1 ]; then
	skip "lat_pagefault skipped as too noisy: nothing to compare"
else
	check "lat_mmap-1m not below lat_pagefault beyond the noise ($(noise "$T_TMP/out.json" lat_mmap-1m lat_pagefault))" \
		not_below "$T_TMP/out.json" lat_mmap-1m lat_pagefault
fi

# Beside the figure per page: the faults a pass takes per page (a fact:
# at most one a page, and at least one a pass) and the figure per fault.
fpp=$(val lat_pagefault-faults-per-page)
check "faults per page in (0, 1], a fact (got ${fpp:-none})" jq -e '.results[] |
	select(.key == "lat_pagefault-faults-per-page") | .value > 0 and .value <= 1 and
	.kind == "fact"' "$T_TMP/out.json"
check "lat_pagefault-fault = lat_pagefault / faults per page, derived" jq -e '
	(.results | map({(.key): .}) | add) as $r | $r["lat_pagefault-fault"].kind == "derived" and
	($r["lat_pagefault"].value / $r["lat_pagefault-faults-per-page"].value /
	 $r["lat_pagefault-fault"].value - 1 | fabs) < 0.01' "$T_TMP/out.json"
# a file given measures that file, whole pages of it; one that is not
# a regular file of 1 MB fails the benchmark, named
head -c 3000000 /dev/urandom >"$T_TMP/pf"
PERFPROBE_PAGEFAULT_FILE=$T_TMP/pf "$PERFPROBE" --quick --no-save --json run lat_pagefault \
	>"$T_TMP/pf.json" 2>/dev/null
check "PERFPROBE_PAGEFAULT_FILE: that file, its 732 whole pages, said in the info" jq -e '
	(.info[] | select(.name == "lat_pagefault-file") | .text | test("732 pages")) and
	([.results[] | select(.key == "lat_pagefault")] | length) == 1' "$T_TMP/pf.json"
PERFPROBE_PAGEFAULT_FILE=$T_TMP "$PERFPROBE" --quick --no-save --json run lat_pagefault \
	>"$T_TMP/pfbad.json" 2>/dev/null
check "... a directory: the benchmark fails, naming it" jq -e --arg d "$T_TMP" '
	.failed[] | select(.name == "lat_pagefault") | .reason | contains($d)' "$T_TMP/pfbad.json"
check "... and the other keys of lat_pagefault are declared facts and derived figures" sh -c \
	"'$PERFPROBE' list --json | jq -e '.benchmarks[] | select(.name == \"lat_pagefault\") | .keys |
	map({(.pattern): (.kind // \"measured\")}) | add |
	.[\"lat_pagefault-faults-per-page\"] == \"fact\" and .[\"lat_pagefault-fault\"] == \"derived\"'"

"$PERFPROBE" summary "$T_TMP/run.json" >"$T_TMP/summary" 2>&1
# The row under the table's dashes; after Host and OS (23 columns) come
# the cells: 0K/10K Create and Delete, Mmap Latency, Page Fault (Prot Fault
# is lat_sig's and empty here).
row=$(awk -v t="File & VM system latencies" \
	'index($0, t) == 1 { f = 1 } f && /^--------- ---/ { getline; print; exit }' "$T_TMP/summary")
cells=$(echo "${row:23}" | awk '{ print NF }')
check "summary fills File Create/Delete, Mmap Latency, Page Fault (${cells:-0} of $((6 - pf_skipped)))" \
	test "${cells:-0}" -eq $((6 - pf_skipped))

done_testing
