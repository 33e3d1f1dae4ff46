#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfprobe compare: verdicts on real and on shifted runs, exit codes for
# CI, every output format read back by another parser, bad input.  What
# two real runs of one kernel give is the machine's luck: of those, only
# what compare must make of them is asserted (each verdict by its rules,
# the exit code by the verdicts); every regression asserted is made by
# altering a run's samples with jq, by a factor known to be beyond them.
. "$(dirname "$0")/tap.sh"
plan 81

A=$T_TMP/a.json
B=$T_TMP/b.json
"$PERFPROBE" --kernel-view=off --cpu 1 --quick --no-save -o "$A" run lat_syscall >/dev/null 2>&1
"$PERFPROBE" --kernel-view=off --cpu 1 --quick --no-save -o "$B" run lat_syscall >/dev/null 2>&1
check "two real runs written" jq -e '.results | length >= 6' "$A" "$B"

# A run against itself: one measurement on both sides, nothing for the
# noise to move: every key the same samples, 0 [0..0], "same".
"$PERFPROBE" compare --json "$A" "$A" >"$T_TMP/self.json"
ok $? "a run compared with itself exits 0"
check "... and every key is same, identical samples, change and intervals 0" jq -e '.comparisons[0].results |
	length >= 6 and all(.verdict == "same" and .identical and .change_pct == 0 and
		.lo_pct == 0 and .hi_pct == 0 and .eq_lo_pct == 0 and .eq_hi_pct == 0)' "$T_TMP/self.json"

# Two runs of the same kernel: whatever the machine made of them (it is
# shared: a real slowdown may happen; it is reported, not hidden), each
# key's verdict is the one its change and interval give, and the exit
# code the one the verdicts give.
"$PERFPROBE" compare --json "$A" "$B" >"$T_TMP/ab.json"
rc=$?
check "two runs of this kernel: every key's verdict follows from its change and interval" \
	verdicts_follow "$T_TMP/ab.json"
rc_follows "$T_TMP/ab.json" "$rc"
check "... and no key of two runs is identical" jq -e '.comparisons[0].results | all(.identical != true)' "$T_TMP/ab.json"
ok $? "... and the exit code from the verdicts: 5 with a regression, else 0 (got $rc)"
jq '.comparisons[0].results |= map(.fails = false) | .comparisons[0].results[0] |=
	(.change_pct = 20 | .lo_pct = 12 | .hi_pct = 30 | .direction = "lower" | .verdict = "same")' \
	"$T_TMP/ab.json" >"$T_TMP/ab-wrong.json"
! verdicts_follow "$T_TMP/ab-wrong.json" && ! rc_follows "$T_TMP/ab-wrong.json" 5
ok $? "... checks that fail on a verdict doctored to contradict its interval, on a wrong exit code"
diag "two runs: $(jq -r '[.comparisons[0].results[] | "\(.key) \(.change_pct | . * 10 | round / 10)% \(.verdict)"] | join(", ")' "$T_TMP/ab.json")"

# Shifted runs, from a base of A's keys with a known small spread (CV
# about 1.5%: a real quick run on a busy machine can have one key at 20%,
# whose interval then rightly says "noisy"): 50% slower and 40% faster.
S=$T_TMP/s.json
jq '.results |= map(.value as $v | .samples = [$v, $v * 1.01, $v * 0.99, $v * 1.02, $v * 0.98] |
	.stats.n = 5)' "$A" >"$S"
shift_run() {
	jq --argjson f "$1" '.results |= map(.samples |= map(. * $f) | .value *= $f |
		.stats.median *= $f | .stats.min *= $f | .stats.max *= $f | .stats.mean *= $f)' "$S" >"$2"
}
shift_run 1.50 "$T_TMP/slow.json"
shift_run 0.60 "$T_TMP/fast.json"
"$PERFPROBE" compare "$S" "$T_TMP/slow.json" >"$T_TMP/slow.txt"
ok $([ $? -eq 5 ]; echo $?) "50% slower: exit 5 (regression)"
check "... every lat_syscall key is a regression" test "$(grep -c ' regression' "$T_TMP/slow.txt")" -ge 6
"$PERFPROBE" compare "$S" "$T_TMP/fast.json" >/dev/null
ok $? "40% faster: exit 0"
check "... verdict improvement" sh -c "'$PERFPROBE' compare --json '$S' '$T_TMP/fast.json' |
	jq -e '.comparisons[0].results | all(.verdict == \"improvement\")'"
"$PERFPROBE" compare --ignore 'lat_syscall-[a-z]*' "$S" "$T_TMP/slow.json" >/dev/null 2>&1
ok $([ $? -eq 6 ]; echo $?) "--ignore of every key: nothing compared, exit 6 (never a pass)"
"$PERFPROBE" compare --fail-on 'lat_syscall-null' "$S" "$T_TMP/fast.json" >/dev/null
ok $? "--fail-on lat_syscall-null, faster: exit 0"
"$PERFPROBE" compare --fail-on 'lat_sig-*' "$S" "$T_TMP/slow.json" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 6 ] && grep -q "fail-on 'lat_sig-\*' names no key" "$T_TMP/e"; echo $?) \
	"--fail-on 'lat_sig-*', a glob that names no key: exit 6, said"
"$PERFPROBE" compare --fail-on 'lat_syscall-null' "$S" "$T_TMP/slow.json" >/dev/null
ok $([ $? -eq 5 ]; echo $?) "--fail-on lat_syscall-null: exit 5"
# The kernel view's deltas (compare.rst, "The kernel view"): the same
# kernel view on every key of S, then on the slowed side lat_syscall-null
# with three times the kernel time, one more syscall and switches that
# move within what is incidental (0.001 to 0.005 an operation).
kv='{source: "bpf", scope: "perfprobe and its children", kernel_ns_per_op: 100,
	kernel_ns_err: 1, syscalls_per_op: 1, faults_per_op: 0, switches_per_op: 0.001,
	offcpu_ns_per_op: 10, top_syscalls: [{name: "getppid", count_per_op: 1, ns_per_op: 100}]}'
jq ".results |= map(.kernel = $kv)" "$S" >"$T_TMP/sk.json"
jq ".results |= map(.kernel = $kv)" "$T_TMP/slow.json" >"$T_TMP/slowk.json"
jq '(.results[] | select(.key == "lat_syscall-null") | .kernel) |=
	(.kernel_ns_per_op = 300 | .syscalls_per_op = 2 | .switches_per_op = 0.005 |
	 .offcpu_ns_per_op = 50)' "$T_TMP/slowk.json" >"$T_TMP/slowk2.json"
"$PERFPROBE" compare "$T_TMP/sk.json" "$T_TMP/slowk.json" >"$T_TMP/k.txt"
ok $([ "$(grep -c ' regression.*; kernel view unchanged$' "$T_TMP/k.txt")" -ge 6 ] &&
	! grep -Eq '[+-]0(\.0+)?( [mun]?s)?(,|$)' "$T_TMP/k.txt"; echo $?) \
	"regressions with the same kernel view: 'kernel view unchanged', no +0 delta"
"$PERFPROBE" compare "$T_TMP/sk.json" "$T_TMP/slowk2.json" >"$T_TMP/k2.txt"
check "the kernel view changed: only what moved beyond its noise, plain numbers" grep -Eq \
	'^lat_syscall-null .* regression( \(noise assumed\))? \(fails\); kernel/op \+200 ns, syscalls/op \+1$' "$T_TMP/k2.txt"
"$PERFPROBE" compare --json "$T_TMP/sk.json" "$T_TMP/slowk2.json" >"$T_TMP/k2.json"
check "JSON: every figure of the delta, the incidental ones too" jq -e '.comparisons[0].results[] |
	select(.key == "lat_syscall-null") | .kernel_delta | .kernel_ns_per_op == 200 and
	.syscalls_per_op == 1 and (.switches_per_op - 0.004 | fabs) < 1e-12 and
	.offcpu_ns_per_op == 40 and .faults_per_op == 0' "$T_TMP/k2.json"
"$PERFPROBE" compare --json "$T_TMP/sk.json" "$T_TMP/sk.json" >"$T_TMP/kself.json"
check "JSON: kernel_delta on every row where both sides have a view, same and noisy ones too" \
	jq -e '.comparisons[0].results | length >= 6 and
		all(.verdict != "regression" and .kernel_delta.kernel_ns_per_op == 0)' "$T_TMP/kself.json"

"$PERFPROBE" compare --sort "$S" "$T_TMP/slow.json" "$T_TMP/fast.json" >"$T_TMP/two.txt"
ok $([ $? -eq 5 ]; echo $?) "two new sides, one regressed: exit 5"
check "... both compared" test "$(grep -c '^new:' "$T_TMP/two.txt")" -eq 2

# One key of a real run slowed, its spread as measured: every sample of
# lat_syscall-null times f = 2 x its own max/min, so every slowed sample is
# at least twice every original one.  The change is then f - 1 (>= 100%)
# and its interval's low end, even widened by the assumed run-to-run
# variation (4%: about 11% either way, one run a side), is above +50%:
# a regression whatever the samples' spread.  The other keys, unchanged,
# have a change of exactly 0.  (No CPU hog: what one does to a run on a
# shared machine is luck.)
jq '(.results[] | select(.key == "lat_syscall-null")) |=
	((2 * (.samples | max) / (.samples | min)) as $f |
	 .samples |= map(. * $f) | .value *= $f |
	 .stats |= (.median *= $f | .min *= $f | .max *= $f | .mean *= $f | .stddev *= $f))' \
	"$A" >"$T_TMP/slowed.json"
# (--strict: a key the harness flagged on a loaded machine gates too.)
"$PERFPROBE" compare --strict --json "$A" "$T_TMP/slowed.json" >"$T_TMP/slowed.cmp"
rc=$?
ok $([ $rc -eq 5 ]; echo $?) "one key of a real run slowed 2x beyond its spread: exit 5 (got $rc)"
check "... lat_syscall-null a regression that fails ($(jq -r '.comparisons[0].results[] | select(.key == "lat_syscall-null") | "\(.change_pct | round)% [\(.lo_pct | round)..\(.hi_pct | round)]"' "$T_TMP/slowed.cmp"))" \
	jq -e '.comparisons[0].results[] | select(.key == "lat_syscall-null") | .verdict == "regression" and .fails' "$T_TMP/slowed.cmp"
check "... the other keys a change of 0, none a regression" jq -e '[.comparisons[0].results[] |
	select(.key != "lat_syscall-null")] | length >= 5 and
	all(.change_pct == 0 and .verdict != "regression" and (.fails | not))' "$T_TMP/slowed.cmp"

# Not comparable: another host.
jq '.meta.hostname = "elsewhere"' "$A" >"$T_TMP/other.json"
"$PERFPROBE" compare "$A" "$T_TMP/other.json" >"$T_TMP/other.txt"
ok $? "another host: a warning, still exit 0"
check "... the warning names the fact" grep -q "^warning: hostname differs: base '.*', new 'elsewhere'" "$T_TMP/other.txt"
"$PERFPROBE" compare --strict "$A" "$T_TMP/other.json" >/dev/null
ok $([ $? -eq 6 ]; echo $?) "--strict: exit 6 (not comparable)"

# Fail closed.  An empty new side, a failed benchmark, an interrupted
# run: warned in every format, never a pass where data is missing.
jq '.results = [] | .failed = [{"name": "lat_syscall", "reason": "it broke"}]' "$S" >"$T_TMP/failed.json"
"$PERFPROBE" compare "$S" "$T_TMP/failed.json" >"$T_TMP/f.txt" 2>"$T_TMP/e"
ok $([ $? -eq 6 ] && grep -q "not comparable: no key" "$T_TMP/e"; echo $?) \
	"a new side with no result: exit 6 and said, even without --strict"
check "... each key a warning naming the failure" sh -c \
	"[ \$(grep -c '^warning: lat_syscall-[a-z]*: not compared, new: lat_syscall failed: it broke' '$T_TMP/f.txt') -ge 6 ]"
"$PERFPROBE" compare --format junit "$S" "$T_TMP/failed.json" >"$T_TMP/fj.xml" 2>/dev/null
check "... JUnit: an error per key and the suite's own, none passing" python3 -c "
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find('testsuite')
cases = s.findall('testcase')
errs = [c for c in cases if c.find('error') is not None]
assert len(cases) >= 7 and len(errs) == len(cases) == int(s.get('errors')), (len(cases), len(errs))
assert any('it broke' in c.find('error').get('message') for c in errs)
" "$T_TMP/fj.xml"
"$PERFPROBE" compare --format ktap "$S" "$T_TMP/failed.json" 2>/dev/null >"$T_TMP/fk.tap"
check "... KTAP: every result 'not ok' with its reason" python3 -c "
import sys
res = [l for l in open(sys.argv[1]).read().splitlines()[2:] if not l.startswith('#')]
assert len(res) >= 7 and all(l.startswith('not ok ') and ' # ' in l for l in res), res
" "$T_TMP/fk.tap"
"$PERFPROBE" compare --format kcidb "$S" "$T_TMP/failed.json" 2>/dev/null >"$T_TMP/fc.json"
check "... KCIDB: every test ERROR with the reason; LAVA: every case fail" sh -c "
	jq -e '[.tests[] | select(.status == \"ERROR\" and (.misc.reason | test(\"it broke\")))] | length >= 6' '$T_TMP/fc.json' >/dev/null &&
	'$PERFPROBE' compare --format lava '$S' '$T_TMP/failed.json' 2>/dev/null | grep -c -- '--result fail' | grep -qx '[6-9]'"
# one benchmark missing from a run stopped by a signal
jq '.interrupted = true | .results |= map(select(.key != "lat_syscall-open"))' "$S" >"$T_TMP/intr.json"
"$PERFPROBE" compare "$S" "$T_TMP/intr.json" >"$T_TMP/i.txt" 2>&1
ok $? "an interrupted new side, the rest the same: exit 0 without --strict"
check "... warned: the run interrupted, the key it lacks and why" sh -c \
	"grep -q 'was interrupted: its results are partial' '$T_TMP/i.txt' &&
	 grep -q 'lat_syscall-open: not compared, new: the run was interrupted before it' '$T_TMP/i.txt'"
"$PERFPROBE" compare --strict "$S" "$T_TMP/intr.json" >/dev/null 2>&1
ok $([ $? -eq 6 ]; echo $?) "... --strict: exit 6"
"$PERFPROBE" compare --fail-on 'lat_syscall-open' "$S" "$T_TMP/intr.json" >/dev/null 2>&1
ok $([ $? -eq 6 ]; echo $?) "... --fail-on naming the key it lacks: exit 6"

# Contention is not a regression: the harness named another process that
# took the CPU while a key was sampled; its regression does not gate
# unless --strict asks.
jq '.info = [{"name": "lat_syscall-null-samples",
	"text": "the first 5 spread 30.0%: 15 taken, the quietest 5 consecutive kept; CPU taken meanwhile by make (pid 7, 40% of a CPU)"}]' \
	"$T_TMP/slow.json" >"$T_TMP/hog.json"
"$PERFPROBE" compare --fail-on 'lat_syscall-null' --json "$S" "$T_TMP/hog.json" >"$T_TMP/h.json"
ok $? "a regression measured while another process took the CPU: exit 0"
check "... unreliable, the process named, listed among the warnings" jq -e '.comparisons[0] |
	(.results[] | select(.key == "lat_syscall-null") | .verdict == "regression" and (.fails | not) and
	 (.unreliable | test("CPU taken meanwhile by make"))) and
	any(.warnings[]; .kind == "unreliable" and .subject == "lat_syscall-null")' "$T_TMP/h.json"
"$PERFPROBE" compare --strict --fail-on 'lat_syscall-null' "$S" "$T_TMP/hog.json" >/dev/null
ok $([ $? -eq 5 ]; echo $?) "... --strict: it gates, exit 5"
# With several runs a side the key is unreliable where most of them are:
# the spread between runs widens the interval already.
mkdir -p "$T_TMP/one3" "$T_TMP/two3"
cp "$T_TMP/slow.json" "$T_TMP/one3/a.json"; cp "$T_TMP/slow.json" "$T_TMP/one3/b.json"
cp "$T_TMP/hog.json" "$T_TMP/one3/c.json"
cp "$T_TMP/hog.json" "$T_TMP/two3/a.json"; cp "$T_TMP/hog.json" "$T_TMP/two3/b.json"
cp "$T_TMP/slow.json" "$T_TMP/two3/c.json"
"$PERFPROBE" compare --json "$S" "$T_TMP/one3" >"$T_TMP/one3.json" 2>/dev/null
"$PERFPROBE" compare --json "$S" "$T_TMP/two3" >"$T_TMP/two3.json" 2>/dev/null
check "... one new run of three disturbed: reliable; two of three: unreliable, counted" sh -c \
	"jq -e '.comparisons[0].results[] | select(.key == \"lat_syscall-null\") | .new_runs == 3 and (has(\"unreliable\") | not)' '$T_TMP/one3.json' &&
	 jq -e '.comparisons[0].results[] | select(.key == \"lat_syscall-null\") | .unreliable | test(\"^new: CPU taken meanwhile by make .*[(]2 of 3 runs[)]\$\")' '$T_TMP/two3.json'"

# run --rounds: one run carries its own run-level spread.  Each key has
# a median per round and every round's samples; compare takes the
# rounds' medians as it takes runs', so the noise is measured, not
# assumed, with one run a side.
R=$T_TMP/rounds.json
"$PERFPROBE" --cpu 1 --quick --no-save --rounds 2 -o "$R" run lat_syscall >/dev/null 2>&1
# (a key a round skipped as too noisy has the other round's samples only)
check "--rounds 2: a key of both rounds has 2 rounds' medians over 2 x $(jq .meta.options.samples "$R") samples" jq -e '
	.meta.options.rounds == 2 and any(.results[]; .rounds) and
	all(.results[]; if .rounds then (.rounds | length) == 2 and (.samples | length) == 2 * $n
			else (.samples | length) == $n end)' \
	--argjson n "$(jq .meta.options.samples "$R")" "$R"
"$PERFPROBE" compare --json "$R" "$R" >"$T_TMP/rr.json"
check "... compared with itself: the run noise measured from 2 + 2 round medians" jq -e '
	[.comparisons[0].results[] | select(.base_medians == 2)] | length > 0 and
	all(.new_medians == 2 and .run_noise_measured and .change_pct == 0)' "$T_TMP/rr.json"

# A label's saved history measures the run-to-run variation of a side of
# one run: the other runs of its label, host, release, mode and pinning.
H=$T_TMP/hist
for i in 1 2 3; do
	"$PERFPROBE" --results-dir "$H" --cpu 1 --quick --label kh run lat_syscall >/dev/null 2>&1
done
one=$(find "$H" -name '*.json' | sort | head -n 1)
"$PERFPROBE" --results-dir "$H" compare --json "$one" "$one" >"$T_TMP/hist.json"
check "a run of a label with 2 more saved: its noise measured from them, counted once" jq -e '
	.comparisons[0].results | any(.history_runs == 2) and
	all(if .history_runs == 2 then .run_noise_measured else .history_runs == 0 end)' \
	"$T_TMP/hist.json"
"$PERFPROBE" --results-dir "$H" compare --no-history --json "$one" "$one" >"$T_TMP/nohist.json"
check "... --no-history: assumed again" jq -e '
	.comparisons[0].results | all(.history_runs == 0 and (.run_noise_measured | not))' \
	"$T_TMP/nohist.json"

# A directory side pools its runs.
mkdir -p "$T_TMP/dir/x" && cp "$A" "$T_TMP/dir/x/1.json" && cp "$B" "$T_TMP/dir/2.json"
check "a directory side pools its runs (10 samples a key)" sh -c "'$PERFPROBE' compare --json '$T_TMP/dir' '$A' |
	jq -e '.comparisons[0].base.runs == 2 and (.comparisons[0].results | all(.base_samples == 10))'"

# CI formats, each read back by another parser.
"$PERFPROBE" compare --format junit "$S" "$T_TMP/slow.json" >"$T_TMP/j.xml"
check "JUnit: well-formed XML (xmllint)" xmllint --noout "$T_TMP/j.xml"
check "JUnit: a testcase per key, a failure per regression (python xml.etree)" python3 -c "
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find('testsuite')
cases = s.findall('testcase')
fails = [c for c in cases if c.find('failure') is not None]
assert len(cases) >= 6 and len(fails) == len(cases) == int(s.get('failures')), (len(cases), len(fails))
" "$T_TMP/j.xml"
"$PERFPROBE" compare --format ktap "$S" "$T_TMP/fast.json" >"$T_TMP/k.tap"
check "KTAP: version, plan and one result per key, all ok" python3 -c "
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == 'KTAP version 1', lines[0]
n = int(re.fullmatch(r'1\.\.(\d+)', lines[1]).group(1))
res = [l for l in lines[2:] if not l.startswith('#')]
assert len(res) == n >= 6
for i, l in enumerate(res, 1):
    assert re.fullmatch(r'ok %d lat_syscall-\w+' % i, l), l
" "$T_TMP/k.tap"
"$PERFPROBE" compare --format lava "$S" "$T_TMP/slow.json" >"$T_TMP/l.txt"
check "LAVA: lava-test-case lines with result, measurement and units" python3 -c "
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= 6
for l in lines:
    assert re.fullmatch(r'lava-test-case lat_syscall-\w+ --result fail --measurement [0-9.e+-]+ --units us', l), l
" "$T_TMP/l.txt"

"$PERFPROBE" compare --format kcidb "$S" "$T_TMP/slow.json" >"$T_TMP/kcidb.json"
check "KCIDB: schema v5.3 facts hold (python json), a FAIL test per regression" python3 -c "
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d['version'] == {'major': 5, 'minor': 3}, d['version']
origin = re.compile(r'^[a-z0-9_]+$')
def has_id(o, req):
    for k in req:
        assert k in o, (k, o)
    assert origin.match(o['origin']), o['origin']
    assert o['id'].startswith(o['origin'] + ':'), o['id']
for c in d['checkouts']:
    has_id(c, ['id', 'origin'])
builds = {b['id'] for b in d['builds']}
for b in d['builds']:
    has_id(b, ['id', 'origin', 'checkout_id'])
    assert b['checkout_id'] in {c['id'] for c in d['checkouts']}
allowed = {'id', 'build_id', 'origin', 'path', 'environment', 'status', 'waived', 'start_time',
           'duration', 'output_files', 'log_url', 'log_excerpt', 'comment', 'misc', 'number'}
assert len(d['tests']) >= 6
for t in d['tests']:
    has_id(t, ['id', 'origin', 'build_id'])
    assert set(t) <= allowed, set(t) - allowed
    assert t['build_id'] in builds
    assert t['status'] in ('FAIL', 'ERROR', 'MISS', 'PASS', 'DONE', 'SKIP')
    assert re.match(r'^perfprobe\.proc\.lat_syscall-\w+$', t['path']), t['path']
    assert set(t['number']) <= {'value', 'unit', 'prefix'} and isinstance(t['number']['value'], float)
    assert t['status'] == 'FAIL' and t['misc']['verdict'] == 'regression'
" "$T_TMP/kcidb.json"

# Emulation (compare.rst, "Emulated runs"), on saved runs of a TCG guest
# on -icount (tests/fixtures/emulation/README): the same kernel booted
# twice, two runs a side.
FX=$(cd "$(dirname "$0")/../fixtures/emulation" && pwd)
mkdir -p "$T_TMP/ia" "$T_TMP/ib"
cp "$FX"/icount-A-*.json "$T_TMP/ia/" && cp "$FX"/icount-B-*.json "$T_TMP/ib/"
check "the saved runs say: emulated by TCG, on a virtual clock" jq -e -s 'all(.[].meta.emulation;
	.emulated == true and .accelerator == "tcg" and .clock == "virtual (instructions)")' "$FX"/icount-*.json
"$PERFPROBE" compare --threshold 1 "$T_TMP/ia" "$T_TMP/ib" >"$T_TMP/icount.txt"
ok $? "the same kernel twice on virtual time: exit 0"
check "... the text calls a change an instruction-count change" \
	grep -q '^clock: virtual (instructions) on both sides.*instruction-count change' "$T_TMP/icount.txt"
"$PERFPROBE" compare --json --threshold 1 "$T_TMP/ia" "$T_TMP/ib" >"$T_TMP/icount.json"
check "... every key 'same' within 1%, the verdicts gate, nothing warned" jq -e '.comparisons[0] |
	.clock == "virtual (instructions)" and .gates and (.warnings | length) == 0 and
	(.results | length) == 7 and all(.results[]; .verdict == "same" and .lo_pct >= -1 and .hi_pct <= 1)' \
	"$T_TMP/icount.json"
# 1% more instructions in one key of B (every sample of both its runs)
for f in "$T_TMP"/ib/*.json; do
	jq '(.results[] | select(.key == "lat_syscall-read")) |= (.samples |= map(. * 1.01) |
		.value *= 1.01 | .stats.median *= 1.01)' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
"$PERFPROBE" compare --json --threshold 0.8 "$T_TMP/ia" "$T_TMP/ib" >"$T_TMP/icount1.json"
rc=$?
ok $([ $rc -eq 5 ]; echo $?) "one key 1% more instructions, --threshold 0.8: exit 5 (got $rc)"
check "... that key a regression that fails, +1.0%, the others same" jq -e '.comparisons[0].results |
	all(if .key == "lat_syscall-read" then .verdict == "regression" and .fails and
		(.change_pct * 10 | round) == 10 else .verdict == "same" end)' "$T_TMP/icount1.json"

# Instructions against time: the same runs, one side said to be timed.
mkdir -p "$T_TMP/wa" "$T_TMP/wb"
for f in "$FX"/icount-*.json; do
	case $f in *-A-*) d=wa ;; *) d=wb ;; esac
	jq '.meta.emulation.clock = "wall" | .meta.emulation.stated_by = "perfprobe_accel=tcg (kernel command line)"' \
		"$f" >"$T_TMP/$d/$(basename "$f")"
done
"$PERFPROBE" compare "$T_TMP/ia" "$T_TMP/wb" >"$T_TMP/mixed.txt" 2>/dev/null
ok $([ $? -eq 6 ]; echo $?) "virtual against wall clock: nothing comparable, exit 6 even without --strict"
check "... the warning says the clocks differ and nothing is compared" grep -q \
	"^warning: emulation.clock differs: base 'virtual (instructions)', new 'wall': .*no figure is compared" "$T_TMP/mixed.txt"
"$PERFPROBE" compare --json "$T_TMP/ia" "$T_TMP/wb" >"$T_TMP/mixed.json" 2>/dev/null
check "... every key not-comparable, no change given, the warning's kind 'clock'" jq -e '.comparisons[0] |
	.clock == "mixed" and .warnings[0].kind == "clock" and
	(.results | length) == 7 and all(.results[]; .verdict == "not-comparable" and .change_pct == null)' \
	"$T_TMP/mixed.json"
"$PERFPROBE" compare --strict "$T_TMP/wb" "$T_TMP/ia" >/dev/null 2>&1
ok $([ $? -eq 6 ]; echo $?) "... --strict: exit 6 (not comparable)"

# An emulator on the wall clock: B 50% slower is reported, and fails nothing.
for f in "$T_TMP"/wb/*.json; do
	jq '.results |= map(.samples |= map(. * 1.5) | .value *= 1.5 | .stats.median *= 1.5)' \
		"$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
"$PERFPROBE" compare "$T_TMP/wa" "$T_TMP/wb" >"$T_TMP/wall.txt"
ok $? "TCG on the wall clock, 50% slower: exit 0"
check "... it says so: an emulator's times, the verdicts gate nothing" grep -q \
	"^warning: emulation: base 'tcg (wall clock)', new 'tcg (wall clock)': .*gate nothing" "$T_TMP/wall.txt"
"$PERFPROBE" compare --json "$T_TMP/wa" "$T_TMP/wb" >"$T_TMP/wall.json"
check "... JSON: the warning, gates false, every key a regression that does not fail" jq -e '.comparisons[0] |
	(.gates | not) and .warnings[0].kind == "emulated" and
	all(.results[]; .verdict == "regression" and (.fails | not))' "$T_TMP/wall.json"
"$PERFPROBE" compare --format junit "$T_TMP/wa" "$T_TMP/wb" >"$T_TMP/wall.xml" 2>"$T_TMP/wall.err"
check "... JUnit: no failure, the warning as a property, the sides by name, and on stderr" python3 -c "
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find('testsuite')
assert s.get('failures') == '0' and not s.findall('.//failure')
p = [x.get('value') for x in s.find('properties').findall('property') if x.get('name') == 'warning']
assert len(p) == 1 and 'gate nothing' in p[0], p
assert s.get('name').endswith(' ' + sys.argv[2] + ' ' + sys.argv[3]), s.get('name')
assert 'warning: emulation:' in open(sys.argv[4]).read()
" "$T_TMP/wall.xml" "$T_TMP/wa" "$T_TMP/wb" "$T_TMP/wall.err"
"$PERFPROBE" compare --format ktap "$T_TMP/wa" "$T_TMP/wb" 2>/dev/null >"$T_TMP/wall.ktap"
check "... KTAP: every key ok, the warning a diagnostic line" sh -c "grep -q '^# warning: emulation: ' '$T_TMP/wall.ktap' &&
	! grep -q '^not ok' '$T_TMP/wall.ktap' && test \$(grep -c '^ok ' '$T_TMP/wall.ktap') -eq 7"
"$PERFPROBE" compare --format kcidb "$T_TMP/wa" "$T_TMP/wb" 2>/dev/null >"$T_TMP/wall.kcidb"
check "... KCIDB: every test PASS, the warning in the build's misc" jq -e '(.builds[0].misc.warnings |
	length == 1 and (.[0] | test("gate nothing"))) and all(.tests[]; .status == "PASS")' "$T_TMP/wall.kcidb"
"$PERFPROBE" compare --gate-emulated "$T_TMP/wa" "$T_TMP/wb" >"$T_TMP/gate.txt"
ok $([ $? -eq 5 ]; echo $?) "... --gate-emulated: exit 5, the verdicts gate"
"$PERFPROBE" compare --gate-emulated --strict "$T_TMP/wa" "$T_TMP/wa" >/dev/null
ok $? "... --gate-emulated --strict, no other difference: exit 0"

# Only measured figures gate.  A derived figure (a cache size the curve
# suggests) four times smaller is a regression by its numbers, but it is
# shown apart and sets no exit, in every format; the same key recorded
# without its kind (as measured) does set exit 5.
jq '.results += [{key: "lat_mem_rd-detected-l1-bytes", unit: "bytes", direction: "higher",
	kind: "derived", value: 49152, samples: [49152, 49152, 49152, 49152, 49152]}]' "$S" >"$T_TMP/d0.json"
jq '(.results[] | select(.key == "lat_mem_rd-detected-l1-bytes")) |= (.samples |= map(. / 4) |
	.value /= 4)' "$T_TMP/d0.json" >"$T_TMP/d1.json"
"$PERFPROBE" compare --json "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.json"
ok $? "a derived key 4x worse: exit 0"
check "... its verdict is a regression, of kind derived, not gating, not failing" jq -e '
	[.comparisons[0].results[] | select(.key == "lat_mem_rd-detected-l1-bytes")] |
	length == 1 and all(.verdict == "regression" and .kind == "derived" and
			    .gates == false and .fails == false) and
	(.[0] | .change_pct < -70)' "$T_TMP/d.json"
"$PERFPROBE" compare "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.txt"
check "... text: listed last, under its own heading, marked" sh -c "
	tail -n +\$(grep -n '^-- not gating' '$T_TMP/d.txt' | cut -d: -f1) '$T_TMP/d.txt' |
	grep -q '^lat_mem_rd-detected-l1-bytes .* regression .*(derived, not gating)\$' &&
	grep -q '^0 regressions' '$T_TMP/d.txt'"
"$PERFPROBE" compare --format junit "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.xml" &&
"$PERFPROBE" compare --format ktap "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.tap" &&
"$PERFPROBE" compare --format lava "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.lava" &&
"$PERFPROBE" compare --format kcidb "$T_TMP/d0.json" "$T_TMP/d1.json" >"$T_TMP/d.kcidb"
ok $? "... JUnit, KTAP, LAVA and KCIDB: exit 0"
check "... in each of them not a failure, and said to be derived" python3 -c "
import json, sys, xml.etree.ElementTree as ET
key = 'lat_mem_rd-detected-l1-bytes'
t = [c for c in ET.parse(sys.argv[1]).getroot().iter('testcase') if c.get('name') == key]
assert len(t) == 1 and t[0].find('failure') is None, 'junit'
assert '(derived, not gating)' in t[0].find('system-out').text
assert ET.parse(sys.argv[1]).getroot().find('testsuite').get('failures') == '0'
ktap = [l for l in open(sys.argv[2]) if l.split()[2:3] == [key] or l.startswith('not ok')]
assert len(ktap) == 1 and ktap[0].startswith('ok '), ktap
lava = [l for l in open(sys.argv[3]) if l.split()[1] == key]
assert len(lava) == 1 and '--result pass' in lava[0], lava
k = [x for x in json.load(open(sys.argv[4]))['tests'] if x['path'].endswith(key)]
assert len(k) == 1 and k[0]['status'] == 'PASS' and k[0]['misc']['kind'] == 'derived'
assert k[0]['misc']['gating'] is False and k[0]['misc']['verdict'] == 'regression'
" "$T_TMP/d.xml" "$T_TMP/d.tap" "$T_TMP/d.lava" "$T_TMP/d.kcidb"
jq '(.results[] | select(.key == "lat_mem_rd-detected-l1-bytes")) |= del(.kind)' \
	"$T_TMP/d0.json" >"$T_TMP/m0.json"
jq '(.results[] | select(.key == "lat_mem_rd-detected-l1-bytes")) |= del(.kind)' \
	"$T_TMP/d1.json" >"$T_TMP/m1.json"
"$PERFPROBE" compare "$T_TMP/m0.json" "$T_TMP/m1.json" >/dev/null
ok $([ $? -eq 5 ]; echo $?) "... the same change recorded as measured: exit 5"

# A figure noisy by nature (its declared spread_pct): marked, the change
# said to be within the spread or not; its verdict is still its own.
spread() { # FACTOR OUT: S's lat_syscall-null with a declared spread of 40%, shifted
	jq --argjson f "$1" '.results |= map(select(.key == "lat_syscall-null") |
		.spread_pct = 40 | .samples |= map(. * $f) | .value *= $f)' "$S" >"$2"
}
spread 1 "$T_TMP/sp0.json"
spread 1.2 "$T_TMP/sp1.json"
spread 1.6 "$T_TMP/sp2.json"
"$PERFPROBE" compare "$T_TMP/sp0.json" "$T_TMP/sp1.json" >"$T_TMP/sp1.txt" 2>&1
check "a declared spread of 40%: a 20% change marked within it" \
	grep -q 'lat_syscall-null.*regression.*(spread by nature 40%: the change is within it)' "$T_TMP/sp1.txt"
"$PERFPROBE" compare --json "$T_TMP/sp0.json" "$T_TMP/sp2.json" >"$T_TMP/sp2.json.out" 2>/dev/null
check "... a 60% change marked, not within it" jq -e '.comparisons[0].results[] |
	select(.key == "lat_syscall-null") | .declared_spread_pct == 40 and
	.within_declared_spread == false and .verdict == "regression"' "$T_TMP/sp2.json.out"
jq '.results[0].spread_pct = "wide"' "$T_TMP/sp0.json" >"$T_TMP/sp-bad.json"
"$PERFPROBE" compare "$T_TMP/sp-bad.json" "$T_TMP/sp1.json" 2>"$T_TMP/e" >/dev/null
ok $([ $? -eq 3 ] && grep -q 'spread_pct' "$T_TMP/e"; echo $?) "a spread_pct that is not a number: exit 3, named"

# Bad input: one line, the right exit code.
"$PERFPROBE" compare "$A" 2>"$T_TMP/e" >/dev/null
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ]; echo $?) "one side only: exit 2, one line"
"$PERFPROBE" compare "$A" "$T_TMP/missing.json" 2>"$T_TMP/e" >/dev/null
ok $([ $? -eq 3 ] && grep -q 'missing.json' "$T_TMP/e"; echo $?) "a missing file: exit 3, named"
mkdir "$T_TMP/empty"
"$PERFPROBE" compare "$A" "$T_TMP/empty" 2>"$T_TMP/e" >/dev/null
ok $([ $? -eq 3 ] && grep -q 'no result files' "$T_TMP/e"; echo $?) "an empty directory: exit 3"
"$PERFPROBE" compare --threshold 0 "$A" "$B" 2>/dev/null >/dev/null
ok $([ $? -eq 2 ]; echo $?) "--threshold 0: exit 2"

done_testing
