#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A benchmark is its file and its registry line (Documentation/adding.rst):
# perfprobe-planted is the same build with one more, tests/plant/'s
# plant_memset, which names its keys' places only in its declarations (a
# summary table of its own, the report's bandwidth bars) and reports a
# derived figure and a fact beside its measured one.  list, run,
# summary, compare, report and the bash completion must find it; the
# plain build must not; compare must not let the derived figure or the
# fact gate.  What is asserted is where things are, never a timing.
. "$(dirname "$0")/tap.sh"
P=$(dirname "$PERFPROBE")/tests/perfprobe-planted
[ -x "$P" ] || { plan 1; skip "no $P (make check-build builds it)"; done_testing; exit 0; }
plan 13

# list: the planted line, its keys and their kinds; not in the plain build
"$P" list >"$T_TMP/list"
ok $(grep -q '^plant_memset  *bw  *memset() of 4 KB' "$T_TMP/list" &&
	! "$PERFPROBE" list | grep -q plant_memset; echo $?) "list: the planted benchmark, only in its build"
"$P" --json list | jq -e '.benchmarks[] | select(.name == "plant_memset") | .keys |
	map(.kind) == ["measured", "derived", "fact"]' >/dev/null
ok $? "list --json: its three keys, measured, derived and fact"

# run: its results, each with its declared kind
A=$T_TMP/a.json
"$P" --quick --no-save --kernel-view=off -o "$A" run plant_memset >"$T_TMP/run" 2>"$T_TMP/run.err"
ok $? "run plant_memset exits 0"
check "... its keys: the figure (no kind: measured), the derived one, the fact" jq -e '
	[.results[] | [.key, .unit, (.kind // "measured")]] == [
	 ["plant_memset-4kb", "MB/s", "measured"],
	 ["plant_memset-4kb-ns_per_kb", "ns", "derived"],
	 ["plant_memset-bytes", "bytes", "fact"]]' "$A"
check "... run prints the table its declarations name" \
	grep -q '^Planted benchmark (a test build.s) in MB/s' "$T_TMP/run"

# summary: the table, its header from the declaration; the plain build has none
"$P" summary "$A" >"$T_TMP/sum"
check "summary: the planted table, its declared header, a figure in the row" sh -c "
	grep -A3 '^Planted benchmark' '$T_TMP/sum' | grep -q '^Host  *OS memset\$' &&
	grep -A5 '^Planted benchmark' '$T_TMP/sum' | tail -1 | grep -qE ' [0-9.]+[KM]?\$'"
ok $(! "$PERFPROBE" summary "$A" 2>/dev/null | grep -q 'Planted'; echo $?) \
	"... the plain build's summary has no such table"

# compare: the measured figure 4x worse gates (exit 5); the derived one
# and the fact, changed alike, never do.  From a base of the run's keys
# with a known small spread: a quick run's own may be anything.
S=$T_TMP/s.json
jq '.results |= map(.value as $v | .samples = [$v, $v * 1.01, $v * 0.99, $v * 1.02, $v * 0.98] |
	.stats.n = 5)' "$A" >"$S"
worse() {	# worse REGEX OUT: the keys REGEX selects 4x worse, into OUT
	jq --arg k "$1" '(.results[] | select(.key | test($k))) |=
		((if .direction == "higher" then 0.25 else 4 end) as $f |
		 .samples |= map(. * $f) | .value *= $f)' "$S" >"$2"
}
worse '^plant_memset-4kb$' "$T_TMP/m.json"
"$P" compare --json "$S" "$T_TMP/m.json" >"$T_TMP/m.cmp"
ok $([ $? -eq 5 ]; echo $?) "compare: the measured figure 4x worse: exit 5"
worse '^plant_memset-(4kb-ns_per_kb|bytes)$' "$T_TMP/d.json"
"$P" compare --json "$S" "$T_TMP/d.json" >"$T_TMP/d.cmp"
ok $? "compare: the derived figure and the fact 4x worse: exit 0"
check "... both regressions by their numbers, neither gating" jq -e '
	[.comparisons[0].results[] | select(.gates == false) | [.key, .kind, .verdict]] ==
	[["plant_memset-4kb-ns_per_kb", "derived", "regression"],
	 ["plant_memset-bytes", "fact", "regression"]]' "$T_TMP/d.cmp"

# report: the table, the bar, the comparison
"$P" report "$S" "$T_TMP/m.json" -o "$T_TMP/r.html" 2>"$T_TMP/r.err"
ok $? "report exits 0"
check "... the planted table, its key's bar in the bandwidth chart, the key compared" sh -c "
	grep -q '<caption>Planted benchmark' '$T_TMP/r.html' &&
	sed -n '/id=\"bw-ipc\"/,/<\/svg>/p' '$T_TMP/r.html' | grep -q 'plant_memset-4kb' &&
	grep -q '<td class=\"l\">plant_memset-4kb</td>' '$T_TMP/r.html'"

# bash completion: benchmark names come from the binary's own list
comp() { # the completions of the words "$@" (the last one being completed)
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_perfprobe "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ \
		"$(dirname "$0")/../../scripts/completion/perfprobe.bash" "$@"
}
ok $([ "$(comp "$P" run plant_)" = plant_memset ] && [ -z "$(comp "$PERFPROBE" run plant_)" ]
	echo $?) "completion: 'run plant_' gives plant_memset, in the planted build only"

done_testing
