#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Bandwidth benchmarks of files and memory (bw_file_rd, bw_mmap_rd,
# bw_mem) under --quick: every key, enough samples, MB/s and
# higher-is-better, plausible values, relations that must hold, and the
# lmbench summary columns they fill.  TAP output; PERFPROBE is the binary
# (default ./perfprobe).
#
# The relations compare two measurements each, so they are asserted only
# as far as the noise of the two lets them be (tap.sh's not_below: the
# rule of pp_below_beyond_noise()); a doctored pair shows they can fail.
set -u

. "$(dirname "$0")/tap.sh"
is_json() { jq -e '.results | length > 0' "$1" >/dev/null 2>&1; }
val() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$T_TMP/out.json"; }
# FASTER SLOWER: FASTER's bandwidth is not below SLOWER's beyond the noise
faster() { check "$3 ($(noise "$T_TMP/out.json" "$1" "$2"))" not_below "$T_TMP/out.json" "$1" "$2"; }
mine='^bw_(file_rd|mmap_rd|mem)-'

keys=""
for s in 1 8; do
	keys="$keys bw_file_rd-io-${s}mb bw_file_rd-o2c-${s}mb"
	keys="$keys bw_mmap_rd-mo-${s}mb bw_mmap_rd-o2c-${s}mb"
done
for op in rd wr rdwr cp frd fwr fcp bzero bcopy; do
	keys="$keys bw_mem-$op-1mb bw_mem-$op-16mb"
done

plan 11

"$PERFPROBE" --kernel-view=off --quick --no-save --json -o "$T_TMP/run.json" run bw_file_rd bw_mmap_rd bw_mem \
	>"$T_TMP/out.json" 2>"$T_TMP/err"
rc=$?
check "run exits 0 (rc $rc)" test "$rc" -eq 0
check "stdout is one JSON document with results" is_json "$T_TMP/out.json"

missing=""
for k in $keys; do
	[ -n "$(val "$k")" ] || missing="$missing $k"
done
check "every key present${missing:+ (missing:$missing)}" test -z "$missing"

few=$(jq -r --arg m "$mine" '[.results[] | select(.key | test($m)) |
	select((.samples | length) < 5) | .key] | join(" ")' "$T_TMP/out.json")
check "every result has >= 5 samples${few:+ ($few)}" test -z "$few"

bad=$(jq -r --arg m "$mine" '[.results[] | select(.key | test($m)) |
	select(.unit != "MB/s" or .direction != "higher") | .key] | join(" ")' "$T_TMP/out.json")
check "MB/s, higher is better${bad:+ ($bad)}" test -z "$bad"

# 10 MB/s .. 10 TB/s: anything outside is a unit or timing bug.
bad=$(jq -r --arg m "$mine" '[.results[] | select(.key | test($m)) |
	select([.samples[] | select(. < 10 or . > 1e7)] | length > 0) | .key] | join(" ")' \
	"$T_TMP/out.json")
check "every sample between 10 MB/s and 10 TB/s${bad:+ ($bad)}" test -z "$bad"

# o2c maps (and faults in) the file on every pass, mo only reads it.
faster bw_mmap_rd-mo-1mb bw_mmap_rd-o2c-1mb "mmap read: mo not below o2c beyond the noise"

# rd loads every 4th word of what frd loads word by word.
faster bw_mem-rd-1mb bw_mem-frd-1mb "bw_mem: rd not below frd beyond the noise"

# Reading a cached file copies it into the buffer, then sums it, which
# costs more than summing it in place once mapped.
faster bw_mmap_rd-mo-1mb bw_file_rd-io-1mb "1 MB file: mapped (mo) not below read (io) beyond the noise"

# and the check fails on a pair doctored to be beyond the noise the wrong way
jq '(.results[] | select(.key == "bw_mmap_rd-mo-1mb") | .stats) |= (.median = 100 | .cv_pct = 1) |
    (.results[] | select(.key == "bw_mmap_rd-o2c-1mb") | .stats) |= (.median = 200 | .cv_pct = 1)' \
	"$T_TMP/out.json" >"$T_TMP/doctored.json"
! not_below "$T_TMP/doctored.json" bw_mmap_rd-mo-1mb bw_mmap_rd-o2c-1mb &&
	not_below "$T_TMP/doctored.json" bw_mmap_rd-o2c-1mb bw_mmap_rd-mo-1mb &&
	! not_below "$T_TMP/doctored.json" bw_mmap_rd-mo-1mb no-such-key
ok $? "not_below fails on a pair doctored to be inverted beyond the noise, and on a missing key"

"$PERFPROBE" summary "$T_TMP/run.json" >"$T_TMP/summary" 2>&1
# The row under the table's dashes; after Host and OS (23 columns) come
# the cells: File reread, Mmap reread, Bcopy libc and hand, Mem read and
# write (Pipe, AF UNIX and TCP are other benchmarks' and empty here).
row=$(awk -v t="Communication bandwidths in MB/s" \
	'index($0, t) { f = 1 } f && /^--------- ---/ { getline; print; exit }' "$T_TMP/summary")
cells=$(echo "${row:23}" | awk '{ print NF }')
check "summary fills File/Mmap reread, Bcopy libc/hand, Mem read/write (${cells:-0} of 6)" \
	test "${cells:-0}" -eq 6

done_testing
