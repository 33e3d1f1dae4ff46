#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfprobe import lmbench: a raw results file of lmbench3 built from its
# published source and run on this kind of machine, and three lmbench
# summaries as published (tests/fixtures/lmbench/seed-*.txt: one whose
# table lines a mail archive joined, one that lost its column spacing,
# one that kept it).  Each figure lands in the right key and unit with its
# source line; every line and non-empty cell is imported or listed, none
# guessed; summary, compare and report read the imported runs.
. "$(dirname "$0")/tap.sh"
NTESTS=24
plan $NTESTS

FX=$(cd "$(dirname "$0")/../fixtures/lmbench" && pwd)
RAW=$FX/raw-lmbench3.txt
pp() { "$PERFPROBE" --no-save "$@"; }
# key FILE KEY: its value
key() { jq -r --arg k "$2" '.results[] | select(.key == $k) | .value' "$1"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && (a - b) ^ 2 <= (b * 1e-6) ^ 2) }'; }

# --- usage and bad files ---
pp import >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ]; echo $?) "import without a kind: exit 2, one line"
pp import lmbench >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && grep -q 'give one or more' "$T_TMP/e"; echo $?) "import lmbench without files: exit 2"
printf 'hello\nworld\n' >"$T_TMP/not.txt"
pp import lmbench "$T_TMP/not.txt" -o "$T_TMP/o0" >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 3 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] && grep -q "not.txt:1: not an lmbench" "$T_TMP/e" &&
	[ -z "$(ls "$T_TMP/o0" 2>/dev/null)" ]; echo $?) "not lmbench: exit 3 naming file and line, nothing written (rc $rc)"
pp import lmbench "$T_TMP/missing.txt" -o "$T_TMP/o0" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 3 ] && grep -q 'missing.txt' "$T_TMP/e"; echo $?) "a missing file: exit 3 naming it"

# --- a raw results file ---
pp -v import lmbench "$RAW" -o "$T_TMP/raw" >"$T_TMP/raw.list" 2>"$T_TMP/raw.err"
ok $? "import of lmbench3's raw results exits 0"
J=$(head -1 "$T_TMP/raw.list")
ok $([ "$(wc -l <"$T_TMP/raw.list")" -eq 1 ] && [ -s "$J" ]; echo $?) "one run, one document ($J)"
bad=""
while IFS='|' read -r k label; do
	want=$(grep -m1 "^$label" "$RAW" | sed 's/.*: *\([0-9.]*\).*/\1/')
	near "$(key "$J" "$k")" "$want" || bad="$bad $k"
done <<'EOF'
lat_syscall-null|Simple syscall:
lat_syscall-open|Simple open/close:
lat_select-tcp|Select on 100 tcp fd's:
lat_sig-catch|Signal handler overhead:
lat_pipe|Pipe latency:
lat_proc-shell|Process fork+/bin/sh -c:
lat_ops-double-div|double div:
EOF
ok $([ -z "$bad" ]; echo $?) "the figure lines: each into its key, the same number${bad:+ (bad:$bad)}"
check "units: us, ns, MB/s" jq -e '
	(.results[] | select(.key == "lat_syscall-null") | .unit == "us") and
	(.results[] | select(.key == "lat_ops-double-div") | .unit == "ns") and
	([.results[] | select(.key | startswith("bw_mem-")) | .unit == "MB/s"] | all)' "$J"
# blocks: the 8 MB mapping; 0k files a second -> us a file; 8 MiB of
# bw_mem ("8.39" MB of 10^6); the stride-128 curve's 16 KB point
mm=$(awk '/^"mappings/ { f = 1; next } f && /^8\./ { print $2; exit }' "$RAW")
fs=$(awk '/^"File system latency/ { f = 1; next } f && /^0k/ { print $3; exit }' "$RAW")
fr=$(awk '/^Memory read bandwidth/ { f = 1; next } f && /^8\.39/ { print $2; exit }' "$RAW")
check "blocks: lat_mmap-8m, lat_fs-0k and -create-0k (10^6 / rate), bw_mem-frd-8mb" sh -c "
	awk -v a='$(key "$J" lat_mmap-8m)' -v b='$mm' 'BEGIN { exit !(a == b) }' &&
	awk -v a='$(key "$J" lat_fs-0k)' -v b='$fs' 'BEGIN { exit !(a == b) }' &&
	awk -v a='$(key "$J" lat_fs-create-0k)' -v b='$fs' 'BEGIN { exit !((a - 1e6 / b) ^ 2 < 1e-12) }' &&
	awk -v a='$(key "$J" bw_mem-frd-8mb)' -v b='$fr' 'BEGIN { exit !(a == b) }'"
check "lat_mem_rd: the stride-128 curve on lmbench's grid, named as perfprobe names it" jq -e '
	([.results[] | select(.key | test("^lat_mem_rd-stride128-sz"))] | length) >= 20 and
	([.results[] | .key] | index("lat_mem_rd-stride128-sz512") != null) and
	([.results[] | .key] | index("lat_mem_rd-stride128-sz16k") != null)' "$J"
check "the context-switch blocks: lat_ctx-2-0k and lat_ctx-16-64k" jq -e '
	[.results[] | .key] | (index("lat_ctx-2-0k") != null) and (index("lat_ctx-16-64k") != null)' "$J"
# every figure single-valued, marked with its file and the line it is on
n=$(jq -r '.results[] | .imported_from' "$J" | sed 's/.*://' | while read -r l; do
	sed -n "${l}p" "$RAW" | grep -q '[0-9]' || echo bad; done | wc -l)
check "each result: one sample, imported_from names a line with a number on it" sh -c "
	[ $n -eq 0 ] && jq -e '[.results[] | (.samples | length) == 1 and (.imported_from | test(\":[0-9]+\$\"))] | all' '$J' >/dev/null"
check "meta: the host, release and clock of the header; mode imported" jq -e '
	.meta.hostname != "" and .meta.mhz.mhz == 3000 and .meta.options.mode == "imported"' "$J"
# nothing guessed: every line with a figure is imported or listed by -v
lines=$(awk '/[0-9]/ && !/^\[/ && !/^"/ { print NR }' "$RAW" | sort)
seen=$( { jq -r '.results[] | .imported_from' "$J" | sed 's/.*://'
	sed -n 's/^  [^ ]*:\([0-9]*\): .*/\1/p' "$T_TMP/raw.err"; } | sort -u)
missed=$(comm -23 <(echo "$lines") <(echo "$seen") | head -5 | tr '\n' ' ')
ok $([ -z "$missed" ]; echo $?) "every line with a figure: imported or listed with -v${missed:+ (not: lines $missed)}"

# --- the seed summaries ---
# counts: the tool's (imported + twice alike + listed) against an awk of
# the rows; 002's table lines are joined: its 5 rows x 46 cells by hand
acct() { sed -n 's/.* \([0-9]*\) figures imported (\([0-9]*\) more given twice alike), \([0-9]*\) lines.*/\1 \2 \3/p' "$1" |
	awk '{ print $1 + $2 + $3 }'; }
pp -v import lmbench "$FX/seed-002-summary-joined.txt" -o "$T_TMP/s2" >"$T_TMP/s2.list" 2>"$T_TMP/s2.err"
ok $([ $? -eq 0 ] && [ "$(wc -l <"$T_TMP/s2.list")" -eq 5 ]; echo $?) "seed 002 (joined lines): 5 runs"
ok $([ "$(acct "$T_TMP/s2.err")" -eq 230 ]; echo $?) "seed 002: all 230 cells accounted for ($(acct "$T_TMP/s2.err"))"
s=$(grep -l '"label": "2.5.43"' "$T_TMP"/s2/*.json)
check "seed 002: 2.5.43's stat 4.38 us, TCP conn 94.1, Mem write 139.7 MB/s, Main mem 180.6 ns" sh -c "
	[ '$(key "$s" lat_syscall-stat)' = 4.38 ] && [ '$(key "$s" lat_connect)' = 94.1 ] &&
	[ '$(key "$s" bw_mem-fwr-largest)' = 139.7 ] && [ '$(key "$s" lat_mem_rd-main)' = 180.6 ]"
cells() { # FILE HOSTS...: non-empty cells of the rows that start with a host (after host and OS)
	f=$1; shift
	for h in "$@"; do grep -E "^ ?$h " "$f"; done | awk '{ for (i = 4; i <= NF; i++) if ($i != "-") n++ } END { print n }'
}
pp -v import lmbench "$FX/seed-003-summary-collapsed.txt" -o "$T_TMP/s3" >"$T_TMP/s3.list" 2>"$T_TMP/s3.err"
want=$(cells "$FX/seed-003-summary-collapsed.txt" ARM610.ol ARM610.ne ARM710a.o ARM710a.n SA-110.ol SA-110.ne)
ok $([ "$(wc -l <"$T_TMP/s3.list")" -eq 6 ] && [ "$(acct "$T_TMP/s3.err")" -eq "$want" ]; echo $?) \
	"seed 003 (spacing lost): 6 runs, all $want cells accounted for ($(acct "$T_TMP/s3.err"))"
s=$(grep -l '"label": "SA-110.ne"' "$T_TMP"/s3/*.json)
check "seed 003: full rows imported (SA-110.ne fork 17.K = 17000 us); short rows listed, not placed" sh -c "
	[ '$(key "$s" lat_proc-fork)' = 17000 ] && [ -z '$(key "$s" lat_pipe)' ] &&
	grep -q 'SA-110.ne: \"1525.\": 4 of the \*Local\* Communication latencies table' '$T_TMP/s3.err'"
pp -v import lmbench "$FX/seed-004-summary-spaced.txt" -o "$T_TMP/s4" >"$T_TMP/s4.list" 2>"$T_TMP/s4.err"
want=$(cells "$FX/seed-004-summary-spaced.txt" LKG000000 LKG0FB07F familiar)
ok $([ "$(wc -l <"$T_TMP/s4.list")" -eq 3 ] && [ "$(acct "$T_TMP/s4.err")" -eq "$want" ]; echo $?) \
	"seed 004 (spacing kept): 3 runs, all $want cells accounted for ($(acct "$T_TMP/s4.err"))"
s=$(grep -l '"label": "LKG0FB07F"' "$T_TMP"/s4/*.json)
check "seed 004: a short row's cells placed by the dashes above them (TCP 855.0, no UDP)" sh -c "
	[ '$(key "$s" lat_tcp)' = 855 ] && [ '$(key "$s" lat_unix)' = 967 ] && [ -z '$(key "$s" lat_udp)' ]"

# --- beside new runs ---
pp summary "$T_TMP"/s4/*.json >"$T_TMP/sum" 2>&1
check "summary of the imported runs: their rows, null I/O shown" sh -c "
	grep -Eq 'LKG000000 .* 266 1.23 +3.1 17.5' '$T_TMP/sum'"
a=$(ls "$T_TMP"/s2/*.json | head -1) b=$(ls "$T_TMP"/s2/*.json | sed -n 3p)
pp compare "$a" "$b" >"$T_TMP/cmp" 2>&1
rc=$?
pp compare --json "$a" "$b" >"$T_TMP/cmp.json" 2>/dev/null
# fixed figures: 2.5.42 regressed (lat_syscall-stat +531%, fork +152%, ...)
[ $rc -eq 5 ] && grep -q 'single-valued keys (imported results, no samples): [1-9]' "$T_TMP/cmp" &&
	verdicts_follow "$T_TMP/cmp.json" && rc_follows "$T_TMP/cmp.json" 5
ok $? "compare of two imports: their keys said single-valued, each verdict by its interval, exit 5 for 2.5.42's regressions (got $rc)"
# "our 2002 numbers against today's kernel": a new run beside an import
pp --quick --label today -o "$T_TMP/today.json" run lat_syscall >/dev/null 2>&1
pp report "$a" "$T_TMP/today.json" -o "$T_TMP/r.html" 2>"$T_TMP/e"
rc=$?
tidy -e -q "$T_TMP/r.html" >"$T_TMP/tidy" 2>&1
check "report of an import beside a new run: exit $rc, both rows, a verdict table, tidy: no errors" sh -c "
	[ $rc -eq 0 ] && grep -q '>today<' '$T_TMP/r.html' && grep -q '>2.4.19<' '$T_TMP/r.html' &&
	grep -q 'today against 2.4.19' '$T_TMP/r.html' && ! grep -q 'Error:' '$T_TMP/tidy'"
