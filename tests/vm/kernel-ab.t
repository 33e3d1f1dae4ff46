#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kernel-ab.sh end to end: Debian 6.1 (installed) against 6.12
# (fetched), 2 quick runs each of lat_syscall and lat_pipe with the
# module's kernel view, compared.  This checks the workflow (both kernels
# booted, every run brought back, compare ran with its CI exit code and
# JUnit output) and what the runs say of their clock: under TCG the
# default is QEMU's -icount on one vCPU, and every run says its clock
# counted instructions (Documentation/emulation.rst); under KVM, that it
# was not emulated.  Which of the two ran is the script's own report.
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PERFPROBE=${PERFPROBE:-$ROOT/build/perfprobe}
B=${PERFPROBE_AB_NEW:-6.12-amd64}
plan 10

O=$T_TMP/ab
"$ROOT/scripts/kernel-ab.sh" --runs 2 --profile-samples 10 --out "$O" --format junit installed "$B" \
	>"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
sed 's/^/# /' "$T_TMP/err" | grep -v '^# kernel-ab: \*' | tail -n 6
ok $([ $rc -eq 0 ] || [ $rc -eq 5 ]; echo $?) "kernel-ab.sh ends with compare's exit code, 0 or 5 (got $rc)"
n=$(ls "$O"/A/run-*.json "$O"/B/run-*.json 2>/dev/null | wc -l)
ok $([ "$n" -eq 4 ]; echo $?) "two runs brought back from each kernel ($n files)"
check "side A ran on 6.1 and side B on $B, both with the module's kernel view" sh -c \
	"jq -e '.meta.kernel_release | startswith(\"6.1.\")' '$O/A/run-1.json' >/dev/null &&
	 jq -e '.meta.kernel_release | startswith(\"6.12.\")' '$O/B/run-2.json' >/dev/null &&
	 jq -e '[.results[] | select(.key == \"lat_syscall-null\") | .kernel.source] == [\"kmod\"]' '$O/B/run-1.json' >/dev/null"
check "the module counts the same on both kernels: 1 and 2 syscalls per op (null, open)" sh -c \
	"for f in '$O'/A/run-1.json '$O'/B/run-1.json; do
		jq -e '[.results[] | select(.key == \"lat_syscall-null\" or .key == \"lat_syscall-open\") | .kernel.syscalls_per_op] == [1, 2]' \"\$f\" >/dev/null || exit 1
	 done"
check "JUnit output written and parsed" python3 -c "import xml.etree.ElementTree as E, sys; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.iter('testcase') else 1)" "$O/compare.junit"
if grep -q 'accel tcg' "$O/A.tap"; then
	check "TCG: both guests on -icount with one vCPU" sh -c \
		"grep -q 'accel tcg,thread=single -icount shift=0,sleep=off, 1 CPUs' '$O/A.tap' &&
		 grep -q 'accel tcg,thread=single -icount shift=0,sleep=off, 1 CPUs' '$O/B.tap'"
	check "... every run says: emulated by TCG, its clock counted instructions, as stated" \
		jq -e -s 'length == 4 and all(.[].meta.emulation; .emulated and .accelerator == "tcg" and
		.clock == "virtual (instructions)" and (.stated_by | test("perfprobe_clock=icount")))' \
		"$O"/A/run-*.json "$O"/B/run-*.json
	check "... said loudly: a change is one in the work done, not in time" \
		grep -q 'These guests ran under TCG on QEMU -icount' "$T_TMP/err"
else
	check "KVM: both guests said so" sh -c "grep -q 'accel kvm' '$O/A.tap' && grep -q 'accel kvm' '$O/B.tap'"
	check "... every run says: not emulated, the wall clock" \
		jq -e -s 'length == 4 and all(.[].meta.emulation; .emulated == false and .clock == "wall")' \
		"$O"/A/run-*.json "$O"/B/run-*.json
	check "... no emulation warning" sh -c "! grep -q 'TCG' '$T_TMP/err'"
fi
A_DIR=$(find "$O" -maxdepth 1 -type d -name 'A-6.1.*')
B_DIR=$(find "$O" -maxdepth 1 -type d -name 'B-6.12.*')
check "the sides named by their kernels: labels, directories, the JUnit suite" sh -c \
	"jq -e '.meta.label | startswith(\"A-6.1.\")' '$A_DIR/run-1.json' >/dev/null &&
	 jq -e '.meta.label | startswith(\"B-6.12.\")' '$B_DIR/run-2.json' >/dev/null &&
	 grep -q 'testsuite name=\"perfprobe compare $A_DIR $B_DIR\"' '$O/compare.junit'"
"$PERFPROBE" compare "$A_DIR" "$B_DIR" >"$T_TMP/text" 2>&1
grep '^warning' "$T_TMP/text" | sed 's/^/# /'
check "the same kernel command line on both: no warning about it" \
	sh -c "grep -q '^base: ' '$T_TMP/text' && ! grep -q '^warning: kernel_cmdline' '$T_TMP/text'"
done_testing
