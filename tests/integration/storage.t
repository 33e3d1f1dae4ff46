#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Storage (group "storage") under --quick with a small file: keys, samples,
# CPU load in range, the vendor-guide table, O_DIRECT, a block device
# (a loop device over a file, when one can be set up), and that the
# temporary files are gone after a run and after ^C.
. "$(dirname "$0")/tap.sh"
plan 16

SIZES="4k 256k 1m 4m"
export PERFPROBE_STORAGE_SIZE=4m
D=$T_TMP/dir
mkdir -p "$D"

J=$T_TMP/storage.json
"$PERFPROBE" --quick --json --no-save --tmpdir "$D" run storage >"$J" 2>"$T_TMP/err"
rc=$?
if grep -q 'skipped: .*in memory (tmpfs)' "$T_TMP/err"; then
	for _ in $(seq 16); do skip "the temporary directory is tmpfs"; done
	done_testing
	exit
fi
ok $(( rc == 0 ? 0 : 1 )) "perfprobe --quick run storage exits 0 (got $rc)"
check "output is one valid JSON result document" jq -e '.format == "perfprobe-results"' "$J"

missing=""
for s in $SIZES; do
	for op in write read; do
		jq -e --arg k "storage-$op-$s" 'any(.results[]; .key == $k and .unit == "MB/s" and
			.direction == "higher")' "$J" >/dev/null || missing="$missing storage-$op-$s"
		jq -e --arg k "storage-$op-$s-cpu" 'any(.results[]; .key == $k and .unit == "%" and
			.direction == "lower")' "$J" >/dev/null || missing="$missing storage-$op-$s-cpu"
	done
done
ok $([ -z "$missing" ]; echo $?) "the 16 keys with their units (missing:${missing:- none})"

samples=$(jq -r '.meta.options.samples' "$J")
check "every result has >= $samples (>= 5) samples" \
	jq -e --argjson n "$samples" 'all(.results[]; (.samples | length) >= $n and $n >= 5)' "$J"
check "every value and sample is positive" \
	jq -e 'all(.results[]; .value > 0 and all(.samples[]; . > 0))' "$J"
# One thread does the transfer: its CPU time cannot exceed the wall time
# (10% slack for the two clocks being read at slightly different moments).
# The figure is each result's median: with --quick and 4 MiB a file is
# read in about a millisecond, and on a VM one such sample has read
# above 110% (once, in a make check of three jobs on two vCPUs).
check "CPU load is at most 110% (one thread)" \
	jq -e 'all(.results[] | select(.key | endswith("-cpu")); .value <= 110)' "$J"
left=$(find "$D" -mindepth 1 | wc -l)
ok $(( left == 0 ? 0 : 1 )) "no file left in the temporary directory ($left)"

T=$T_TMP/text
"$PERFPROBE" --kernel-view=off --quick --no-save --tmpdir "$D" run storage >"$T" 2>/dev/null
# the guide's heads name the filesystem ("Write EXT4 Throughput"), the run's info
fs=$(jq -r '.info[] | select(.name == "storage-fs") | .text' "$J" | tr a-z A-Z)
grep -q '^Table: Storage: sequential file write' "$T" && grep -q '^256k ' "$T" &&
	grep -q "Write ${fs:+$fs }Throughput (Mbytes/sec)" "$T"
ok $? "the text output has the MMC/SD-style table, its heads naming the filesystem (${fs:-none})"

# The I/O buffer's pages (an O_DIRECT request's segments): its size, and
# how much of it is in transparent huge pages (whole 2 MiB pages, none
# where THP is off).
buf=$(jq -r '.info[] | select(.name == "storage-buffer") | .text' "$J")
huge=$(sed -n 's/^4096 kB, \([0-9]*\) kB of it in transparent huge pages$/\1/p' <<<"$buf")
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case "$thp" in *"[never]"*|"") want="0" ;; *) want="0, 2048 or 4096" ;; esac
ok $([ -n "$huge" ] && (( huge % 2048 == 0 && huge <= 4096 )) &&
	{ [ "$want" != 0 ] || [ "$huge" = 0 ]; }; echo $?) \
	"info storage-buffer: 4096 kB, $want kB of it in huge pages (\"$buf\"; THP: ${thp:-none})"

O=$T_TMP/direct.json
PERFPROBE_STORAGE_DIRECT=1 "$PERFPROBE" --kernel-view=off --quick --json --no-save --tmpdir "$D" run storage \
	>"$O" 2>/dev/null
if jq -e '.skipped | any(.name == "storage")' "$O" >/dev/null 2>&1; then
	skip "O_DIRECT not supported in $D"
else
	check "PERFPROBE_STORAGE_DIRECT=1: the read and write keys are there" \
		jq -e '[.results[] | select(.key | test("^storage-(read|write)-[0-9]+[km]$"))] |
			length == 8' "$O"
fi

# A block device that is not one: skipped with the reason, exit 4.
N=$T_TMP/nodev.json
PERFPROBE_STORAGE_DEV=$T_TMP "$PERFPROBE" --kernel-view=off --quick --json --no-save --tmpdir "$D" run storage \
	>"$N" 2>/dev/null
rc=$?
ok $(( rc == 4 ? 0 : 1 )) "PERFPROBE_STORAGE_DEV=<a directory>: exit 4 (got $rc)"
check "... skipped with the reason" \
	jq -e '.skipped | any(.name == "storage-dev" and (.reason | test("not a block device")))' "$N"

# hdparm -T / -t --direct on a loop device over a file of our own.
img=$T_TMP/img
loop=""
if [ "$(id -u)" = 0 ] && truncate -s 16M "$img" && loop=$(losetup -f --show "$img" 2>/dev/null); then
	B=$T_TMP/dev.json
	PERFPROBE_STORAGE_DEV=$loop "$PERFPROBE" --kernel-view=off --quick --json --no-save --tmpdir "$D" \
		run storage >"$B" 2>/dev/null
	losetup -d "$loop"
	check "PERFPROBE_STORAGE_DEV=$loop: storage-dev-cached and -direct, >= 5 samples" \
		jq -e '[.results[] | select(.key | test("^storage-dev-(cached|direct)$")) |
			select((.samples | length) >= 5 and .value > 0)] | length == 2' "$B"
else
	skip "no loop device (not root, or losetup refused)"
fi

# ^C in the middle of a transfer: the temporary directory goes with it.
I=$T_TMP/int
mkdir -p "$I"
PERFPROBE_STORAGE_SIZE=1g "$PERFPROBE" --kernel-view=off --no-save --tmpdir "$I" run storage \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -n "$(find "$I" -name '*.dat' 2>/dev/null)" ] && break
	sleep 0.1
done
had=$(find "$I" -name '*.dat' | wc -l)
kill -INT "$pid"
wait "$pid"
rc=$?
ok $(( had > 0 ? 0 : 1 )) "a data file existed while the run was going ($had)"
ok $(( rc == 130 ? 0 : 1 )) "SIGINT ends the run by the signal (status $rc)"
left=$(find "$I" -mindepth 1 | wc -l)
ok $(( left == 0 ? 0 : 1 )) "nothing left in the temporary directory after SIGINT ($left)"

done_testing
