#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The option table (tools/perfprobe/options.c) and what comes from it:
# ls's own --label, repeated options without a cap, one meaning per
# letter, the completion from the generated data, and the generated
# parts of the docs and completion current (make check-options).
. "$(dirname "$0")/tap.sh"
plan 14

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
D=$T_TMP/results
pp() { "$PERFPROBE" --kernel-view=off --results-dir "$D" "$@"; }
for l in 6.1 6.12 kA; do
	pp --quick --label "$l" run lat_syscall >/dev/null 2>&1
done

check "ls --label '6.*': the runs labelled 6.1 and 6.12 only" sh -c \
	"'$PERFPROBE' --results-dir '$D' --json ls --label '6.*' | jq -e '[.runs[].label] == [\"6.1\", \"6.12\"]'"
check "ls --label GLOB --kernel GLOB: both filter" sh -c \
	"'$PERFPROBE' --results-dir '$D' --json ls --kernel '*' --label 'k*' | jq -e '[.runs[].label] == [\"kA\"]'"
bad 2 "--label before ls (it names a run)" --results-dir "$D" --label 6.1 ls
bad 2 "ls --label without a glob" --results-dir "$D" ls --label

args=()
for i in $(seq 1 20); do args+=(-I "k$i"); done
pp compare "${args[@]}" 6.1 6.12 >"$T_TMP/c20" 2>"$T_TMP/e20"
rc=$?
ok $({ [ $rc -eq 0 ] || [ $rc -eq 5 ]; } && [ ! -s "$T_TMP/e20" ]; echo $?) \
	"compare with a 20th -I: compared (exit $rc$(head -c 80 "$T_TMP/e20" | sed 's/^/: /'))"
pp compare -I 'lat_syscall-*' 6.1 6.12 >"$T_TMP/cI"
check "... and -I leaves its keys out" sh -c "! grep -q 'lat_syscall-null' '$T_TMP/cI'"
bad 2 "compare --threshold abc" --results-dir "$D" compare -t abc 6.1 6.12
bad 2 "compare --run-noise 100" --results-dir "$D" compare --run-noise 100 6.1 6.12
bad 2 "netserver -q (-q is --quick; the server's is --quiet)" netserver -q

"$PERFPROBE" help >"$T_TMP/help"
check "help: every exit code, 5, 6 and 130 too" sh -c \
	"grep -q '5 a regression' '$T_TMP/help' && grep -q '6 not comparable' '$T_TMP/help' && grep -q '130' '$T_TMP/help'"

# the bash completion of the tree, on this perfprobe
comp() { # the completions of the words "$@" (the last one being completed)
	PATH="$(dirname "$PERFPROBE"):$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_perfprobe perfprobe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$ROOT/scripts/completion/perfprobe.bash" "$@" | tr '\n' ' '
}
ok $([ "$(comp perfprobe kernel-view '')" = "status " ]; echo $?) \
	"completion: 'perfprobe kernel-view <TAB>' gives status ($(comp perfprobe kernel-view ''))"
ok $([ "$(comp perfprobe report -f '')" = "html md svg " ] &&
	[ "$(comp perfprobe --cpu 0 kmod '')" = "check status " ]; echo $?) \
	"completion: a command's option values (report -f) and first argument (kmod)"
ok $(comp perfprobe ls --l | grep -q -- --label; echo $?) "completion: ls's own --label"

(cd "$ROOT" && scripts/gen-options.sh --check "$PERFPROBE") >"$T_TMP/go" 2>&1
ok $? "the completion and docs are current with the option table (make check-options)$(grep -m1 'not current' "$T_TMP/go" | sed 's/^/: /')"

done_testing
