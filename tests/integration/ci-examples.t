#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The CI examples of Documentation/ci.rst parse as YAML and hold what they
# are for; scripts/kernel-ab.sh refuses bad arguments in one line; the
# lava-test-case lines perfprobe compare prints are LAVA's format.
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
D=$ROOT/Documentation/ci
plan 10

y() { # FILE PYTHON-EXPRESSION-ON-doc
	python3 -c 'import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

check "GitLab job: a kernel-ab script step and a JUnit report" y "$D/gitlab-ci.yml" \
	'any("kernel-ab.sh" in s and "--format junit" in s for s in doc["kernel-ab"]["script"]) and doc["kernel-ab"]["artifacts"]["reports"]["junit"] == "kernel-ab/compare.junit"'
# PyYAML reads "on" as true (YAML 1.1)
check "GitHub workflow: on pull requests, a step running kernel-ab.sh" y "$D/github-workflow.yml" \
	'"pull_request" in doc.get(True, doc.get("on", {})) and any("kernel-ab.sh" in s.get("run", "") for s in doc["jobs"]["kernel-ab"]["steps"])'
check "LAVA test definition: its format and run steps that report with lava-test-case" y "$D/lava-perfprobe.yaml" \
	'doc["metadata"]["format"] == "Lava-Test Test Definition 1.0" and any("--format lava" in s for s in doc["run"]["steps"])'
check "LAVA test definition for the images: each step one string, every result and verdict recorded" \
	y "$D/lava-perfprobe-image.yaml" \
	'doc["metadata"]["format"] == "Lava-Test Test Definition 1.0" and all(isinstance(s, str) for s in doc["run"]["steps"]) and any("export --lava" in s for s in doc["run"]["steps"]) and any("--format lava" in s for s in doc["run"]["steps"]) and any("PERFPROBE-ARTIFACT-BEGIN" in s for s in doc["run"]["steps"])'
check "ci.rst includes every example" sh -c "for f in '$D'/*.yml '$D'/*.yaml; do grep -q \"^\.\. include:: ci/\$(basename \$f)\$\" '$ROOT/Documentation/ci.rst' || exit 1; done"

"$ROOT/scripts/kernel-ab.sh" --help >/dev/null
ok $? "kernel-ab.sh --help"
"$ROOT/scripts/kernel-ab.sh" 6.12-amd64 >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ]; echo $?) "kernel-ab.sh with one kernel: exit 2, one line"
"$ROOT/scripts/kernel-ab.sh" --runs 0 A B >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && grep -q "runs: '0'" "$T_TMP/e"; echo $?) "kernel-ab.sh --runs 0: exit 2, naming it"

# The lines the LAVA example pipes to sh
R=$T_TMP/r
"$PERFPROBE" --quick --no-save --kernel-view=off -o "$R.a.json" run lat_syscall >/dev/null 2>&1
"$PERFPROBE" --quick --no-save --kernel-view=off -o "$R.b.json" run lat_syscall >/dev/null 2>&1
"$PERFPROBE" compare --format lava "$R.a.json" "$R.b.json" >"$T_TMP/lava" 2>/dev/null
check "compare --format lava prints a line per key" [ "$(grep -c '^lava-test-case ' "$T_TMP/lava")" -ge 6 ]
# A warning (two runs' facts differ: this VM's reported MHz moves by
# more than 5% between back-to-back runs) is a "# warning: ..." line,
# a comment to the shell the lines are piped to.
bad=$(grep -v -E -e '^lava-test-case [A-Za-z0-9_.+-]+ --result (pass|fail|skip|unknown)( --measurement [-+0-9.eE]+ --units [^ ]+)?$' \
	-e '^# warning: [^`$;|&]*$' "$T_TMP/lava")
ok $([ -z "$bad" ]; echo $?) "every line is lava-test-case NAME --result R [--measurement V --units U] or a # warning comment${bad:+: $bad}"
done_testing
