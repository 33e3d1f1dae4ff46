#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guide's CPU suites (group cpu): run through stand-ins that print a
# real suite's output (tests/fixtures/suites/), so that the test is
# deterministic and needs no suite built; the figures read as the output
# says; a suite not found or given wrong skipped with the reason (exit
# 4); a stand-in that fails or prints garbage fails (exit 1); import of
# the same output files, bad ones refused with one line and nothing
# written; report --guide with the suites' tables.
. "$(dirname "$0")/tap.sh"
plan 14

if ! command -v jq >/dev/null; then
	for _ in $(seq 14); do skip "needs jq"; done
	done_testing
	exit
fi
FIX=$(cd "$(dirname "$0")/../fixtures/suites" && pwd)
B=$T_TMP/bin
mkdir -p "$B"
standin() {	# standin NAME FIXTURE: a program that prints the fixture
	printf '#!/bin/sh\ncat "%s"\n' "$2" >"$B/$1"
	chmod +x "$B/$1"
}
for s in dhrystone whetstone linpack coremark_pro; do
	standin "$s" "$FIX/$s.txt"
done
[ -f "$FIX/nbench.txt" ] && standin nbench "$FIX/nbench.txt"
J=$T_TMP/run.json
"$PERFPROBE" --json --no-save run dhrystone whetstone linpack nbench coremark_pro \
	--dhrystone "$B/dhrystone" --whetstone "$B/whetstone" --linpack "$B/linpack" \
	--nbench "$B/nbench" --coremark-pro "$B/coremark_pro" >"$J" 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 4 ]; echo $?) "run of five suites through stand-ins (rc $rc)"
val() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$J"; }
ok $([ "$(val dhrystone-per_second)" = 46913468 ] &&
	awk -v d="$(val dhrystone-dmips)" 'BEGIN { exit !(d > 26700.8 && d < 26700.9) }'; echo $?) \
	"Dhrystone: Dhrystones per second as printed, DMIPS = that / 1757"
mhz=$(jq -r '.meta.mhz.measured_mhz // .meta.mhz.mhz' "$J")
ok $(if awk -v m="$mhz" 'BEGIN { exit !(m > 0) }'; then
	awk -v m="$mhz" -v c="$(val dhrystone-mhz)" -v r="$(val dhrystone-dmips_mhz)" \
		-v d="$(val dhrystone-dmips)" 'BEGIN { exit !(c == m && r > 0.999 * d / m && r < 1.001 * d / m) }'
     else jq -e '.skipped[] | select(.name == "dhrystone-dmips_mhz")' "$J" >/dev/null; fi; echo $?) \
	"DMIPS/MHz over the clock the run measured ($mhz MHz), reported beside it"
ok $([ "$(val whetstone-mwips)" = 4029.15 ] && [ "$(val linpack-kflops)" = 4331306.505 ] &&
	[ "$(val nbench-numeric_sort)" = 1046.1 ] && [ "$(val nbench-index-fp)" = 106.411 ]; echo $?) \
	"Whetstone's MWIPS, Linpack's last KFLOPS, NBench's tests and indexes as printed"
ok $([ "$(val coremark_pro-score)" = 2713.36 ] && [ "$(val coremark_pro-score-mt)" = 3074.96 ] &&
	[ "$(jq '[.results[] | select(.key | test("^coremark_pro-.*-mt$"))] | length' "$J")" = 10 ]
	echo $?) "CoreMark-Pro: the mark and nine workloads, SingleCore and MultiCore"

# not found: one skip line naming what was looked for and how to give it
PATH=/usr/bin:/bin "$PERFPROBE" --no-save run linpack >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 4 ] && grep -q 'linpack: skipped: Linpack not found: no linpack or linpackc in PATH; give its program with --linpack PATH or \$PERFPROBE_LINPACK' "$T_TMP/e"; echo $?) \
	"a suite not found is skipped with what was looked for and how to give it (rc $rc)"
PERFPROBE_COREMARK_PRO=$T_TMP/nothing "$PERFPROBE" --no-save run coremark_pro >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 4 ] && grep -q 'skipped: CoreMark-Pro .*/nothing (--coremark-pro, \$PERFPROBE_COREMARK_PRO): not a built source tree' "$T_TMP/e"; echo $?) \
	"a path given that is nothing is skipped with the reason (rc $rc)"
env -u DISPLAY -u WAYLAND_DISPLAY "$PERFPROBE" --no-save run glmark2 >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 4 ] && grep -q 'glmark2: skipped: glmark2 needs a display: DISPLAY and WAYLAND_DISPLAY are not set' "$T_TMP/e"; echo $?) \
	"glmark2 without a display: skipped with the reason (rc $rc)"

# a stand-in that prints another suite's output, or is cut short: failed
standin bad "$FIX/whetstone.txt"
"$PERFPROBE" --no-save run dhrystone --dhrystone "$B/bad" >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 1 ] && grep -q "dhrystone: failed: dhrystone: .*bad's output: no \"Dhrystone\" in it" "$T_TMP/e"; echo $?) \
	"output that is not the suite's fails the benchmark with why (rc $rc)"
printf '#!/bin/sh\necho oops\nexit 3\n' >"$B/exit3"
chmod +x "$B/exit3"
"$PERFPROBE" --no-save run linpack --linpack "$B/exit3" >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 1 ] && grep -q 'exited with status 3: oops' "$T_TMP/e"; echo $?) \
	"a suite that exits non-zero without its figures fails with its status and last line (rc $rc)"

# import: the same files, the same figures; a bad file writes nothing
I=$T_TMP/imp
"$PERFPROBE" --label board import coremark_pro "$FIX/coremark_pro.txt" -o "$I" >"$T_TMP/o" 2>/dev/null
rc=$?
f=$(cat "$T_TMP/o")
ok $([ $rc -eq 0 ] && [ -f "$f" ] && [ "$(jq -r '.meta.label' "$f")" = board ] &&
	[ "$(jq '[.results[]] | length' "$f")" = 30 ] &&
	[ "$(jq -r '.results[] | select(.key == "coremark_pro-score") | .value' "$f")" = 2713.36 ]; echo $?) \
	"import coremark_pro: the run's 30 figures from the saved output (rc $rc)"
head -c 400 "$FIX/linpack.txt" >"$T_TMP/cut.txt"
bad 3 "import of a cut-short file" import linpack "$FIX/linpack.txt" "$T_TMP/cut.txt" -o "$T_TMP/none"
ok $([ ! -e "$T_TMP/none" ] || [ -z "$(ls -A "$T_TMP/none")" ]; echo $?) "nothing written when one file is bad"

# the guide: the suites' tables with the seed's rows
"$PERFPROBE" report --guide -f md "$J" -o "$T_TMP/g.md" 2>/dev/null
ok $(grep -q '^| dhrystone_per_second (DhrystoneP) | 46913468.00 |$' "$T_TMP/g.md" &&
	grep -q '^| whetstone (MIPS) | 4029.15 |$' "$T_TMP/g.md" &&
	grep -q '^| coremark-pro () | 2713.36 |$' "$T_TMP/g.md" &&
	grep -q '^Table: CoreMarkPro for All Cores' "$T_TMP/g.md"; echo $?) \
	"report --guide: Dhrystone, Whetstone, CoreMark-Pro tables under the seed's rows"
done_testing
