#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report --guide: the vendor performance guide's document of a default run
# and a run of "stream crypto ipsec net storage" (--quick), against the
# guide's own structure (tests/fixtures/guide/seed-structure.txt, compared
# by guide-check.py): its sections in its order, each a heading or left
# out with a note; each of its tables that perfprobe makes, under its
# column and row names, laid out wherever the runs have its figures; the
# machines on top, a command beside each table, a column per board and
# kernel; the HTML and the Markdown the same document; IPsec from a real
# run's fixture; bad input.
. "$(dirname "$0")/tap.sh"
plan 18

if ! command -v jq >/dev/null || ! command -v python3 >/dev/null; then
	for _ in $(seq 18); do skip "needs jq and python3"; done
	done_testing
	exit
fi
HERE=$(dirname "$0")
SEED=$HERE/../fixtures/guide/seed-structure.txt
check_guide() { python3 "$HERE/guide-check.py" "$@"; }

D=$T_TMP/default.json
G=$T_TMP/groups.json
S=$T_TMP/store
mkdir -p "$S"
in_netns "$PERFPROBE" --quick --json --no-save run >"$D" 2>"$T_TMP/d.err"
rc=$?
want=$(run_rc "$D")
ok $([ "$rc" = "$want" ]; echo $?) "a default run: the exit its document gives (rc $rc, want ${want:-?})"
# the net tests at 100 ms each: the guide lays figures out, it does not judge
# them; the kernel view of these groups is their own tests' (net.t, crypto.t,
# storage.t, stream.t), the default run's above covers the LMBench set's
PERFPROBE_NET_DURATION_MS=100 in_netns "$PERFPROBE" --kernel-view=off --quick --json --no-save --tmpdir "$S" \
	run stream crypto ipsec net storage \
	>"$G" 2>"$T_TMP/g.err"
rc=$?
want=$(run_rc "$G")
ok $([ "$rc" = "$want" ]; echo $?) \
	"run stream crypto ipsec net storage: the exit its document gives (rc $rc, want ${want:-?})"

M=$T_TMP/guide.md
H=$T_TMP/guide.html
"$PERFPROBE" report --guide --format md "$D" "$G" -o "$M" 2>"$T_TMP/m.err"
rc=$?
"$PERFPROBE" report --guide "$D" "$G" -o "$H" 2>>"$T_TMP/m.err"
rc2=$?
ok $([ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -s "$M" ] && [ -s "$H" ] && [ ! -s "$T_TMP/m.err" ]; echo $?) \
	"report --guide writes the Markdown and the HTML, silently (rc $rc, $rc2)"
if command -v tidy >/dev/null; then
	tidy -e -q "$H" >"$T_TMP/tidy" 2>&1
	ok $? "the HTML is clean to tidy -e$(head -1 "$T_TMP/tidy" | sed 's/^/: /')"
else
	skip "no tidy"
fi

out=$(check_guide sections "$SEED" "$M")
ok $? "the guide's sections in its order, each a heading or left out with a note${out:+: $(echo "$out" | head -3 | tr '\n' ';')}"
out=$(check_guide tables "$SEED" "$M")
ok $? "its tables under its column and row names, or their sections left out${out:+: $(echo "$out" | head -3 | tr '\n' ';')}"

# Everything measured here is laid out: each guide table whose figures
# the runs have (the key pattern) appears, with its rows
bad=""
while IFS='=' read -r table keys; do
	jq -e --arg r "$keys" '.results | any(.key | test($r))' "$D" "$G" 2>/dev/null |
		grep -q true || continue
	check_guide present "$SEED" "$M" "$table" >/dev/null || bad="$bad [$table]"
done <<'EOF'
LM Bench Metrics=^lat_syscall-null$
Stream=^stream-copy-best$
CPSW TCP Bidirectional Throughput=^net-tcp_bidir-64k$
CPSW UDP Egress Throughput=^rfc2544-ndr-[0-9]+$
AM62XX-SK/Buffer size (bytes)=^storage-write-4k$
OpenSSL Performance/Algorithm|Buffer Size (in bytes)=^crypto-evp-.*-16384$
OpenSSL Performance/Algorithm|CPU Load=^crypto-evp-.*-cpu_load$
IPSec Software Performance/Algorithm=^ipsec-.*-tunnel-tcp$
EOF
ok $([ -z "$bad" ]; echo $?) "each guide table with figures in the runs is laid out${bad:+ (missing:$bad)}"

# doctored: a row, a column, the order of two parts; the check must see each
sed '/^| bw_pipe (MB\/s) |/d' "$M" >"$T_TMP/d1.md"
sed 's/: THROUGHPUT (Mbits\/sec)/: THRUPUT (Mbits\/sec)/' "$M" >"$T_TMP/d2.md"
awk '/^## [0-9]+\. MMC\/SD Driver/ { skip = 1 } /^## [0-9]+\. CRYPTO Driver/ { skip = 0 }
	!skip' "$M" >"$T_TMP/d3.md"
n=0
! check_guide tables "$SEED" "$T_TMP/d1.md" >/dev/null && n=$((n + 1))
if grep -q 'THROUGHPUT (Mbits/sec)' "$M"; then
	! check_guide tables "$SEED" "$T_TMP/d2.md" >/dev/null && n=$((n + 1))
else
	n=$((n + 1))	# no Ethernet figures here: nothing to doctor
fi
! check_guide sections "$SEED" "$T_TMP/d3.md" >/dev/null && n=$((n + 1))
ok $([ $n -eq 3 ]; echo $?) "a guide without a row, with a column renamed, without a part fails the check ($n of 3)"

# the machines on top, a command beside each table, HTML = Markdown
host=$(jq -r '.meta.hostname' "$D")
cpu=$(jq -r '.meta.cpu_model' "$D")
first=$(grep -n -m1 '^## 1\. ' "$M" | cut -d: -f1)
facts=$(grep -n -m1 '^## Read This First' "$M" | cut -d: -f1)
ok $([ -n "$facts" ] && [ -n "$first" ] && [ "$facts" -lt "$first" ] &&
	grep -qF "| $host | $cpu, " "$M"; echo $?) "Read This First, with the machine ($host: $cpu), before the first part"
tables=$(grep -c '^Table: ' "$M")
cmds=$(grep -c '^Execute the benchmark with the following:' "$M")
ok $([ "$tables" -eq $((cmds + 1)) ]; echo $?) \
	"a command beside each table ($cmds commands, $tables tables with the machines')"
htables=$(grep -o '<table' "$H" | wc -l)
heads_md=$(grep -E '^##+ [0-9]' "$M" | sed -E 's/^#+ //')
heads_html=$(grep -oE '<h[23]>[0-9][^<]*' "$H" | sed -E 's/^<h[23]>//')
ok $([ "$htables" -eq "$tables" ] && [ "$heads_md" = "$heads_html" ]; echo $?) \
	"the HTML is the same document: $htables tables, the same numbered headings"

# a column per board and kernel: the two runs of this machine are one;
# a run labelled otherwise is a column of its own
n=$(grep -m1 '^| Benchmarks |' "$M" | grep -o ': perf' | wc -l)
O=$T_TMP/other.json
jq '.meta.label = "other"' "$D" >"$O"
"$PERFPROBE" report --guide -f md "$D" "$G" "$O" -o "$T_TMP/two.md" 2>/dev/null
n2=$(grep -m1 '^| Benchmarks |' "$T_TMP/two.md" | grep -o ': perf' | wc -l)
ok $([ "$n" -eq 1 ] && [ "$n2" -eq 2 ] &&
	grep -qF "| $host (other): perf |" "$T_TMP/two.md"; echo $?) \
	"one column for the default run and the groups' run; a second for another label ($n, $n2)"

# a part without figures is left out with a note; so is a section
"$PERFPROBE" report --guide -f md "$D" -o "$T_TMP/lm.md" 2>/dev/null
ok $(grep -q '^> Stream: left out, no run has its figures; "perfprobe run stream" measures them\.$' \
	"$T_TMP/lm.md" && grep -q '^> Graphics SGX/RGX Driver: left out, no run has its figures\.$' \
	"$T_TMP/lm.md" && ! grep -q '^## .*Ethernet' "$T_TMP/lm.md" &&
	check_guide sections "$SEED" "$T_TMP/lm.md" >/dev/null; echo $?) \
	"the default run alone: Stream and Graphics left out with notes, no Ethernet part, the order kept"

# IPsec from a real run (this machine's kernel has no ESP): Debian's 6.1
# under QEMU/TCG, its tunnel-mode TCP figures (tests/fixtures/guide/)
"$PERFPROBE" report --guide -f md "$HERE/../fixtures/guide/ipsec-6.1-tcg.json" -o "$T_TMP/ip.md" \
	2>/dev/null
out=$(check_guide present "$SEED" "$T_TMP/ip.md" "IPSec Software Performance/Algorithm")
ok $? "IPsec: the guide's table under its rows (3des, aes128, aes192) and columns${out:+: $out}"

# The CPU suites from their real output (tests/fixtures/suites/), imported
# as one board's runs: each of the seed's tables under its rows, in order
C=$T_TMP/cpu
mkdir -p "$C"
for s in dhrystone whetstone linpack nbench coremark_pro; do
	[ -f "$HERE/../fixtures/suites/$s.txt" ] || continue
	"$PERFPROBE" --label board import "$s" "$HERE/../fixtures/suites/$s.txt" -o "$C" \
		>/dev/null 2>&1
done
"$PERFPROBE" report --guide -f md "$C"/*.json -o "$T_TMP/cpu.md" 2>/dev/null
bad=""
for t in "Dhrystone Benchmark" "Whetstone Benchmark" "Linpack Benchmark" "NBench Benchmarks" \
	CoreMarkPro "CoreMarkPro for Two Cores"; do
	[ "$t" = "NBench Benchmarks" ] && [ ! -f "$HERE/../fixtures/suites/nbench.txt" ] && continue
	check_guide present "$SEED" "$T_TMP/cpu.md" "$t" >/dev/null || bad="$bad [$t]"
done
ok $([ -z "$bad" ]; echo $?) "the CPU suites' tables under the seed's rows${bad:+ (wrong:$bad)}"
out=$(check_guide sections "$SEED" "$T_TMP/cpu.md")
ok $? "with the CPU suites, the guide's sections still in its order${out:+: $(echo "$out" | head -3 | tr '\n' ';')}"

bad 2 "report --guide --format svg" report --guide --format svg "$D" -o "$T_TMP/x"
bad 2 "report --format md without --guide" report --format md "$D" -o "$T_TMP/x"
done_testing
