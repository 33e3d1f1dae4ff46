#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Saved runs by label: --label, ls, "latest" and labels as arguments of
# summary and compare; summary rows that tell kernels apart.
. "$(dirname "$0")/tap.sh"
plan 16

D=$T_TMP/results
pp() { "$PERFPROBE" --kernel-view=off --results-dir "$D" "$@"; }
pp --quick --cpu 1 --label kA run lat_syscall >/dev/null 2>&1
pp --quick --cpu 1 --label kB run lat_syscall >/dev/null 2>&1
pp --quick --cpu 1 run lat_syscall >/dev/null 2>&1
rel=$(uname -r)

pp --json ls >"$T_TMP/ls.json"
ok $? "ls exits 0"
check "ls --json: the three runs, oldest first, labels kA, kB and the release" jq -e --arg r "$rel" \
	'[.runs[].label] == ["kA", "kB", $r] and all(.runs[]; .kernel == $r and .mode == "quick" and .pin_cpu == 1 and .results == 6)' "$T_TMP/ls.json"
check "ls: every file listed exists" sh -c "jq -r '.runs[].file' '$T_TMP/ls.json' | xargs ls >/dev/null"
check "ls --label kB: that run only" sh -c "'$PERFPROBE' --results-dir '$D' --json ls --label kB | jq -e '[.runs[].label] == [\"kB\"]'"
check "ls --kernel GLOB: all three" sh -c "'$PERFPROBE' --results-dir '$D' --json ls --kernel '*' | jq -e '.runs | length == 3'"
check "ls --kernel of another: none, said" sh -c "'$PERFPROBE' --results-dir '$D' ls --kernel 'nosuch*' | grep -q 'no saved runs that match'"

pp compare kA kB >"$T_TMP/c.txt"
rc=$?
# two real runs: whatever they compare as, the exit code is the verdicts'
pp --json compare kA kB >"$T_TMP/c.json"
verdicts_follow "$T_TMP/c.json" && rc_follows "$T_TMP/c.json" "$rc"
ok $? "compare kA kB: by label, the exit code its verdicts give (exit $rc)"
check "... the sides named by their labels" grep -q '^base: kA (1 run' "$T_TMP/c.txt"
pp summary kA kB latest >"$T_TMP/s.txt"
ok $? "summary kA kB latest: by label and latest"
check "... rows kA, kB and the release" sh -c "grep -qE '^\\S+ +kA ' '$T_TMP/s.txt' && grep -qE '^\\S+ +kB ' '$T_TMP/s.txt' &&
	grep -qE '^\\S+ +(Linux )?${rel:0:8}' '$T_TMP/s.txt'"
check "... all pinned to CPU 1: no placement note" sh -c "! grep -q 'placement\|pinned' '$T_TMP/s.txt'"

pp summary nosuchlabel 2>"$T_TMP/e" >/dev/null
ok $([ $? -eq 3 ] && grep -q 'nosuchlabel' "$T_TMP/e"; echo $?) "an unknown label: exit 3, named"
pp --label 'bad/label' --quick run lat_syscall 2>/dev/null >/dev/null
ok $([ $? -eq 2 ]; echo $?) "--label with a '/': exit 2"

# Two releases alike in their first 13 characters stay apart.
jq '.meta.kernel_release = "6.8.0-rc3-00123-gabcdef12" | del(.meta.label)' "$(jq -r '.runs[0].file' "$T_TMP/ls.json")" >"$T_TMP/r1.json"
jq '.meta.kernel_release = "6.8.0-rc3-00124-g99999999" | del(.meta.label)' "$(jq -r '.runs[0].file' "$T_TMP/ls.json")" >"$T_TMP/r2.json"
"$PERFPROBE" summary "$T_TMP/r1.json" "$T_TMP/r2.json" >"$T_TMP/s2.txt"
check "releases alike for 13 characters: rows differ ($(grep -o '~[^ ]*' "$T_TMP/s2.txt" | tr '\n' ' '))" \
	sh -c "grep -q '~23-gabcdef12' '$T_TMP/s2.txt' && grep -q '~24-g99999999' '$T_TMP/s2.txt'"

# A run stopped by a signal is partial: ls, latest and summary say so.
f=$(jq -r '.runs[2].file' "$T_TMP/ls.json")
jq '.interrupted = true' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
pp ls >"$T_TMP/ls3.txt"
pp --json ls >"$T_TMP/ls3.json"
check "ls: the interrupted run marked, in text and JSON" sh -c "
	grep -F '$f' '$T_TMP/ls3.txt' | grep -q '(interrupted: partial)' &&
	jq -e '[.runs[].interrupted] == [false, false, true]' '$T_TMP/ls3.json' >/dev/null"
pp summary latest >"$T_TMP/s3.txt" 2>"$T_TMP/e3"
check "latest names the interrupted run; summary notes it" sh -c "
	grep -qF 'latest: $f was interrupted: its results are partial' '$T_TMP/e3' &&
	grep -q 'interrupted: stopped by a signal, its results are partial' '$T_TMP/s3.txt'"

done_testing
