#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# LAVA without LAVA running (Documentation/lava.rst; make check-lava runs
# the real dispatcher): export --lava gives each result of a run as the
# lava-test-case line with its measurement; import lava takes the runs
# back from a job's output directory laid out as lava-run leaves it (its
# log with the result records and the run's JSON the device printed),
# with every sample, and from a LAVA server's results export with the
# job's definition beside it (single-valued, labelled by the job's
# kernel and device); compare reads both.  scripts/lava-jobs.py's matrix
# interleaves an A/B.  Bad input: one line and the documented exit.
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
plan 18

R=$T_TMP/r.json
"$PERFPROBE" --kernel-view=off --quick --no-save --label "6.1+qemu-x86_64" -o "$R" run lat_syscall >/dev/null 2>&1
check "a real run written" jq -e '.results | length >= 6' "$R"

# export --lava: a line a result, the median its measurement
"$PERFPROBE" export --lava "$R" >"$T_TMP/cases"
ok $? "export --lava exits 0"
check "... one lava-test-case a result, its key, value and unit" python3 -c "
import json, re, sys
run = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) == len(run['results']) + len(run.get('skipped', [])) + len(run.get('failed', [])), lines
for r, l in zip(run['results'], lines):
    m = re.fullmatch(r'lava-test-case (\S+) --result pass --measurement (\S+) --units (\S+)', l)
    assert m and m[1] == r['key'] and m[3] == r['unit'], l
    assert abs(float(m[2]) - r['value']) <= 1e-9 * r['value'], (m[2], r['value'])
" "$R" "$T_TMP/cases"
bad 2 "export --lava of two runs" export --lava "$R" "$R"

# A job's output directory as lava-run leaves it: the job, the log (the
# dispatcher's records: LAVA's own cases, the test cases, the compare
# set, what the device printed with the artifact, a kernel message in it)
J=$T_TMP/job
mkdir -p "$J"
"$ROOT/scripts/lava-jobs.py" --images "6.1,x86_64,file:///images" --out "$T_TMP/jobs" >/dev/null
cp "$T_TMP/jobs/001-6.1-qemu-x86_64-r1.yaml" "$J/job.yaml"
python3 - "$R" "$J" <<'EOF'
import base64, json, sys
run = json.load(open(sys.argv[1]))
def rec(lvl, msg):
    # as lava-run writes them: YAML's flow style, a measurement's text tagged "! "
    return json.dumps({"dt": "2026-01-01T00:00:00.000000", "lvl": lvl, "msg": msg}).replace(
        '"measurement": "', '"measurement": ! "') + "\n"
out = [rec("info", "start: 1 tmpfs-deploy"), rec("results", {"case": "validate", "definition": "lava", "result": "pass"}),
       rec("target", "[    7.3] Run /init as init process")]
for r in run["results"]:
    out.append(rec("results", {"case": r["key"], "definition": "0_perfprobe", "result": "pass",
                               "measurement": "%.10g" % r["value"], "units": r["unit"]}))
for r in run["results"]:
    out.append(rec("results", {"case": r["key"], "definition": "0_perfprobe", "result": "pass",
                               "set": "compare", "measurement": r["value"] * 1.01, "units": r["unit"]}))
b64 = base64.encodebytes(open(sys.argv[1], "rb").read()).decode().splitlines()
out.append(rec("target", "PERFPROBE-ARTIFACT-BEGIN pp-run.json"))
out.append(rec("target", "+ base64 /tmp/pp-run.json"))
for i, l in enumerate(b64):
    out.append(rec("target", l))
    if i == 3:
        out.append(rec("target", "[   12.1] random: crng init done"))
out.append(rec("target", "PERFPROBE-ARTIFACT-END"))
out.append(rec("results", {"case": "0_perfprobe", "definition": "lava", "result": "pass"}))
open(sys.argv[2] + "/stderr", "w").writelines(out)
open(sys.argv[2] + "/stdout", "w").close()
open(sys.argv[2] + "/result.yaml", "w").write("- {definition: lava, case: job, result: pass}\n")
EOF
"$PERFPROBE" import lava "$J" -o "$T_TMP/imp" >"$T_TMP/out" 2>"$T_TMP/e"
ok $([ $? -eq 0 ] && [ "$(wc -l <"$T_TMP/out")" -eq 1 ]; echo $?) \
	"import lava of a job's output directory: one run ($(head -n1 "$T_TMP/e"))"
I=$(head -n1 "$T_TMP/out")
check "... the device's run with every sample, its label and kernel" jq -e --slurpfile r "$R" '
	.meta.label == "6.1+qemu-x86_64" and .meta.kernel_release == $r[0].meta.kernel_release and
	[.results[] | .samples] == [$r[0].results[] | .samples]' "$I"
grep -q '1 with their samples' "$T_TMP/e" && grep -q ' 2 not' "$T_TMP/e"
ok $? "... said: the run has its samples; the shell's trace and the kernel message in the artifact not imported"
"$PERFPROBE" compare --no-history --json "$R" "$I" >"$T_TMP/c.json"
ok $? "compare reads it: exit 0"
check "... every key compared, change 0" jq -e '.comparisons[0].results | length >= 6 and
	all(.change_pct == 0)' "$T_TMP/c.json"

# A LAVA server's results export (/results/JOB/yaml) with the job's
# definition: no artifact, so one sample a result, named by the metadata
S=$T_TMP/server
mkdir -p "$S"
cp "$J/job.yaml" "$S/job.yaml"
python3 - "$R" "$S/results.yaml" <<'EOF'
import json, sys, yaml
run = json.load(open(sys.argv[1]))
cases = [{"job": "4242", "level": "1.1", "logged": "2026-01-01 00:00:00+00:00", "measurement": "None",
          "metadata": {"case": "job", "definition": "lava", "result": "pass"}, "name": "job",
          "result": "pass", "suite": "lava", "unit": "", "url": "/results/testcase/1"}]
for i, r in enumerate(run["results"]):
    cases.append({"job": "4242", "level": "3.1", "logged": "2026-01-01 00:00:00+00:00",
                  "measurement": "%.10f" % r["value"], "name": r["key"], "result": "pass",
                  "metadata": {"case": r["key"], "definition": "0_perfprobe", "result": "pass",
                               "measurement": "%.10f" % r["value"], "units": r["unit"]},
                  "suite": "0_perfprobe", "unit": r["unit"], "url": "/results/testcase/%d" % (i + 2)})
    cases.append({"job": "4242", "measurement": "None", "name": r["key"], "result": "pass",
                  "metadata": {"case": r["key"], "definition": "0_perfprobe", "set": "compare"},
                  "suite": "0_perfprobe", "unit": "", "url": "/results/testcase/x"})
open(sys.argv[2], "w").write(yaml.safe_dump(cases))
EOF
"$PERFPROBE" import lava "$S/results.yaml" "$S/job.yaml" -o "$T_TMP/imp2" >"$T_TMP/out" 2>"$T_TMP/e"
ok $([ $? -eq 0 ] && [ "$(wc -l <"$T_TMP/out")" -eq 1 ]; echo $?) \
	"import lava of a server's results export and the job: one run ($(head -n1 "$T_TMP/e"))"
I2=$(head -n1 "$T_TMP/out")
check "... single-valued, the measurements, labelled by the job's kernel and device" \
	jq -e --slurpfile r "$R" '.meta.label == "6.1+qemu-x86_64" and .meta.hostname == "qemu-x86_64" and
	(.results | length) == ($r[0].results | length) and
	all(.results[]; (.samples | length) == 1) and
	([.results[] | .value] as $v | [$r[0].results[] | .value] as $w |
	 [range($v | length)] | all(($v[.] - $w[.]) | fabs <= 1e-9 * $w[.]))' "$I2"
"$PERFPROBE" compare --no-history --json "$R" "$I2" >"$T_TMP/c2.json" 2>/dev/null
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 5 ]; echo $?) "compare reads the single-valued run (exit $rc)"
check "... every key there" jq -e --slurpfile r "$R" \
	'(.comparisons[0].results | length) == ($r[0].results | length)' "$T_TMP/c2.json"

# bad input
bad 3 "import lava of a missing directory" import lava "$T_TMP/nothing" -o "$T_TMP/x"
echo "hello" >"$T_TMP/hello.txt"
bad 3 "import lava of a file that is no LAVA output" import lava "$T_TMP/hello.txt" -o "$T_TMP/x"
bad 2 "import lava with nothing to read" import lava

# the generator: kernels x devices x rounds, an A/B interleaved
"$ROOT/scripts/lava-jobs.py" --images "6.1,x86_64,file:///a" --images "6.12,x86_64,file:///b" \
	--images "6.1,arm64,file:///c" --rounds 3 --out "$T_TMP/m" >/dev/null
check "lava-jobs.py: 2 x86 kernels x 3 rounds + 1 arm64 x 3, the A/B flipped each round" sh -c "
	[ \"\$(cat '$T_TMP/m/jobs.txt' | tr '\n' ' ')\" = '001-6.1-qemu-x86_64-r1.yaml 002-6.12-qemu-x86_64-r1.yaml 003-6.1-qemu-arm64-r1.yaml 004-6.1-qemu-arm64-r2.yaml 005-6.12-qemu-x86_64-r2.yaml 006-6.1-qemu-x86_64-r2.yaml 007-6.1-qemu-x86_64-r3.yaml 008-6.12-qemu-x86_64-r3.yaml 009-6.1-qemu-arm64-r3.yaml ' ]"
"$ROOT/scripts/lava-jobs.py" --images "6.1,sparc,file:///a" --out "$T_TMP/m2" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] && grep -q "'sparc' is not one of" "$T_TMP/e"; echo $?) \
	"lava-jobs.py: an unknown architecture: exit 2, one line"
