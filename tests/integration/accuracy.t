#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Documentation/accuracy.rst's table against the runs it was made from,
# without measuring: scripts/accuracy.py --from every fixture of
# tests/fixtures/accuracy/ --check the page passes, every row of the
# table has a 95% interval on its ratio, and --check fails, naming the
# row, on copies of the page with one figure altered or one row gone.
# TAP.  Needs python3 (the standard library; Debian's, when there, as it
# starts faster than a version manager's shim).  About a second.

. "$(dirname "$0")/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
acc=$top/scripts/accuracy.py
rst=$top/Documentation/accuracy.rst
py=$(command -v /usr/bin/python3 || command -v python3) ||
	{ plan 1; skip_rest "no python3"; }
plan 6

from=()
for f in "$top"/tests/fixtures/accuracy/*.json; do
	[ -f "$f" ] && from+=(--from "$f")
done
[ ${#from[@]} -gt 0 ]
ok $? "tests/fixtures/accuracy/ has the runs the table was made from ($((${#from[@]} / 2)))"

"$py" "$acc" "${from[@]}" --check "$rst" 2>"$T_TMP/e"
ok $? "accuracy.py --from the fixtures --check accuracy.rst: every row is what the runs give$(
	[ -s "$T_TMP/e" ] && printf ' (%s)' "$(head -c 300 "$T_TMP/e")")"

# The page's table rows (the check above says they include the fixtures'):
# figure, perfprobe, reference, ratio, interval, rounds, verdict, two
# spaces or more between columns.  Every one with a ratio has an interval.
rows=$(grep -E '^[a-z0-9_-]+( \([^)]*\))?  +[0-9.e+-]+  +[0-9.e+-]+  +' "$rst")
n=$(printf '%s\n' "$rows" | grep -c .)
bad=$(printf '%s\n' "$rows" | awk -F '  +' '$4 ~ /^[0-9]/ && $5 !~ /^[0-9.]+-[0-9.]+$/ { print $1 }')
[ "$n" -gt 0 ] && [ -z "$bad" ]
ok $? "every one of the page's $n rows with a ratio has its 95% interval${bad:+ (not: $bad)}"

# Altered: the first row's ratio one hundredth up.  Short: a row gone.
first=$(printf '%s\n' "$rows" | head -1)
key=$(printf '%s\n' "$first" | awk -F '  +' '{ print $1 }')
ratio=$(printf '%s\n' "$first" | awk -F '  +' '{ print $4 }')
new=$(awk -v r="$ratio" 'BEGIN { printf "%.2f", r + 0.01 }')
awk -v k="$key" -v r="$ratio" -v n="$new" 'index($0, k "  ") == 1 && !done {
	sub("  " r "  ", "  " n "  "); done = 1 } { print }' "$rst" >"$T_TMP/altered.rst"
last=$(printf '%s\n' "$rows" | tail -1)
lkey=$(printf '%s\n' "$last" | awk -F '  +' '{ print $1 }')
grep -vxF "$last" "$rst" >"$T_TMP/short.rst"
! cmp -s "$rst" "$T_TMP/altered.rst" && ! cmp -s "$rst" "$T_TMP/short.rst"
ok $? "two copies of the page: $key's ratio $new, not $ratio; $lkey's row gone"

# One run of the table for both copies (the bootstrap is the slow part).
"$py" "$acc" "${from[@]}" --check "$T_TMP/altered.rst" --check "$T_TMP/short.rst" 2>"$T_TMP/e"
rc=$?
[ "$rc" = 1 ]
ok $? "--check fails on them (exit $rc)"
[ "$(grep -c 'no row for' "$T_TMP/e")" = 2 ] &&
	grep -qF "altered.rst: no row for $key " "$T_TMP/e" &&
	grep -qF "short.rst: no row for $lkey " "$T_TMP/e"
rc=$?
ok $rc "and names the altered row and the missing one, nothing else$(
	[ $rc != 0 ] && printf ' (%s)' "$(tr '\n' ' ' <"$T_TMP/e" | head -c 400)")"

done_testing
