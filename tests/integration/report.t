#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perfprobe report and export on two real --quick runs: the page is valid
# HTML (tidy), self-contained (no script, nothing fetched), and as a
# person sees it in a browser (headless Chromium): a screenshot that is
# not blank, every chart there with a size, and no sideways scrolling on
# a phone-wide window.  --format svg writes well-formed SVG files; export
# --csv gives every result once with the figures of the JSON.  Sampled
# profiles made up for it (flame-runs.py) give the differential flame
# graphs known figures: what flame-check.py asserts of them.
. "$(dirname "$0")/tap.sh"
NTESTS=34
plan $NTESTS

pp() { "$PERFPROBE" --kernel-view=off --no-save "$@"; }

# usage errors: one line, exit 2
pp report "$T_TMP/none.json" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] && grep -q -- '-o report.html' "$T_TMP/e"; echo $?) \
	"report without -o: exit 2, one line saying -o"
pp report --format png x -o y >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && grep -q "'png': say html or svg" "$T_TMP/e"; echo $?) "report --format png: exit 2"
pp export "$T_TMP/none.json" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && grep -q 'say the format: --csv' "$T_TMP/e"; echo $?) "export without --csv: exit 2"
echo '{"format": "nothing"}' >"$T_TMP/bad.json"
pp report "$T_TMP/bad.json" -o "$T_TMP/x.html" >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 3 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] && grep -q bad.json "$T_TMP/e" &&
	[ ! -e "$T_TMP/x.html" ]; echo $?) "not a results file: exit 3 naming it, nothing written (rc $rc)"

# two real runs: the summary tables, the curve, bars of every group
for l in base new; do
	pp --quick --label "$l" -o "$T_TMP/$l.json" run proc ctx ipc fsvm bw mem stream \
		>/dev/null 2>"$T_TMP/$l.err" || { rc=$?; [ $rc -eq 4 ] || echo "# run $l: exit $rc"; }
done
pp report "$T_TMP/base.json" "$T_TMP/new.json" -o "$T_TMP/r.html" 2>"$T_TMP/e"
ok $? "report of two runs exits 0$(sed 's/^/ /' "$T_TMP/e")"
R=$T_TMP/r.html
tidy -e -q "$R" >"$T_TMP/tidy" 2>&1
rc=$?
ok $([ $rc -lt 2 ] && ! grep -q 'Error:' "$T_TMP/tidy"; echo $?) \
	"tidy -e: no errors (exit $rc, $(grep -c Warning "$T_TMP/tidy") warnings)"
ok $(! grep -qiE '<script|<link|<img|<iframe|@import|url\(' "$R" &&
	[ "$(grep -o 'https\?://[^"]*' "$R" | sort -u)" = "http://www.w3.org/2000/svg" ]; echo $?) \
	"self-contained: no script, no link, nothing fetched (only the SVG namespace)"
for id in table-0 table-4 table-5; do grep -q "id=\"$id\"" "$R" || miss="$miss $id"; done
ok $([ -z "${miss:-}" ]; echo $?) "the summary tables are there${miss:+ (missing:$miss)}"
check "both runs are rows, the comparison has verdicts" sh -c \
	"grep -c '<td class=\"l\">base</td>' '$R' | grep -qv '^0\$' &&
	 grep -q 'new against base' '$R' && grep -q 'regression\\|no change\\|too noisy' '$R'"
check "the verdict comes first: before the runs, its counts, regressions or none said" python3 -c "
import sys
p = open(sys.argv[1]).read()
v, r = p.find('<section id=\"verdict\">'), p.find('<section id=\"runs\">')
assert 0 < v < r, (v, r)
top = p[v:r]
assert 'new against base' in top and 'class=\"counts\"' in top, top
assert 'Regressions, worst first' in top or 'No regression beyond 5%' in top, top
" "$R"

# emulated runs (tests/fixtures/emulation: TCG on -icount; a copy said to
# be timed): said at the top, before the runs; no emulated MHz as a clock
FX=$(cd "$(dirname "$0")/../fixtures/emulation" && pwd)
jq '.meta.emulation.clock = "wall" | .meta.label = "wall"' "$FX/icount-B-1.json" >"$T_TMP/wall.json"
pp report "$FX/icount-A-1.json" "$T_TMP/wall.json" -o "$T_TMP/e.html" 2>"$T_TMP/e"
ok $? "report of an -icount run and a wall-clock emulated one exits 0$(sed 's/^/ /' "$T_TMP/e")"
check "... emulation and the virtual clock at the top, their MHz not shown, not compared" python3 -c "
import sys
p = open(sys.argv[1]).read()
e, r = p.find('id=\"emulation\"'), p.find('id=\"runs\"')
assert 0 < e < r, (e, r)
top = p[e:r]
assert 'Virtual clock</b>: ' + sys.argv[2] + ' ran on' in top, top
assert 'Emulated</b>: wall ran under' in top, top
runs = p[r:p.find('</table>', r)]
assert '<td>virtual</td>' in runs and '<td>emulated</td>' in runs and '>969' not in runs, runs
assert 'Not compared: one counted instructions' in p
" "$T_TMP/e.html" "$(jq -r .meta.label "$FX/icount-A-1.json")"

# sampled profiles, made up to known figures (flame-runs.py): a
# differential flame graph for each key compare calls changed whose both
# sides have profiles, and the profile of each run folded under it
F=$T_TMP/flame
"$(dirname "$0")/flame-runs.py" "$FX/icount-A-1.json" "$F"
pp report "$F/base" "$F/new" -o "$F/r.html" 2>"$T_TMP/e"
ok $? "report of two sides of two runs with sampled profiles exits 0$(sed 's/^/ /' "$T_TMP/e")"
pp report --format svg "$F/base" "$F/new" -o "$F/svg" 2>"$T_TMP/e"
ok $? "... and with --format svg$(sed 's/^/ /' "$T_TMP/e")"
FC=$(dirname "$0")/flame-check.py
check "a differential flame graph for the two keys changed with profiles on both sides and the one whose code moved, none for a key with one side's, an unchanged one or one whose new code is below 5%" \
	"$FC" "$F/svg" graphs
check "... every frame on one frame of the row below, a frame's children no wider than it" \
	"$FC" "$F/svg" nesting
check "... red where a path grew, blue where it shrank, grey where it did not, redder the more" \
	"$FC" "$F/svg" colours
check "... a frame's tooltip has both sides' time, the change and its interval" \
	"$FC" "$F/svg" tips
check "each run's profile (its graph, its top functions) folded under the graph, closed" sh -c \
	"'$FC' '$F/svg' runs && [ \$(grep -c '<details class=\"profiles\"><summary>The profile of each run: 2 base, 2 new' '$F/r.html') -eq 3 ] &&
	 [ \$(grep -c '<caption>Top kernel functions by own time' '$F/r.html') -eq 12 ]"

# in a browser: a script of the test's own, added to a copy, measures
# every chart where the page lays it out
command -v chromium >/dev/null || skip_rest "no chromium (scripts/install-deps.sh)"
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --disable-dev-shm-usage --user-data-dir="$T_TMP/chrome" "$@" \
		2>>"$T_TMP/chrome.log"
}
python3 -c 'import sys; p, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.stdout.write(p.replace("</body>", "<script>" + js + "</script></body>"))' \
	"$R" "$(dirname "$0")/report-measure.js" >"$T_TMP/m.html"
chrome --window-size=390,800 --virtual-time-budget=3000 --dump-dom "file://$T_TMP/m.html" \
	>"$T_TMP/dom.html"
sed -n '/id="pp-measure"/,/<\/pre>/p' "$T_TMP/dom.html" | sed 's/<[^>]*>//g' >"$T_TMP/measure"
sed 's/^/# /' "$T_TMP/measure" | head -20
bad=""
for id in memlat-0 memlat-1 bw-mem stream bw-ipc lat-proc lat-ctx lat-ipc lat-fsvm changes-1; do
	awk -v id="$id" '$1 == "chart" && $2 == id && $3 > 100 && $4 > 50 && $5 > 0 { f = 1 }
		END { exit !f }' "$T_TMP/measure" || bad="$bad $id"
done
ok $([ -z "$bad" ] && [ -s "$T_TMP/measure" ]; echo $?) \
	"every chart laid out with a size and its bars or lines${bad:+ (bad:$bad)}"
ok $(awk '$1 == "scroll" { f = $2 <= $3 + 1 } END { exit !f }' "$T_TMP/measure"; echo $?) \
	"on a narrow window (390 asked; headless Chromium gives 500 at least) nothing scrolls sideways ($(grep scroll "$T_TMP/measure"))"
# at 1280 pixels the main tables need no sideways scroll (those folded
# in "every key" may scroll in their own box)
chrome --window-size=1280,800 --virtual-time-budget=3000 --dump-dom "file://$T_TMP/m.html" |
	sed -n '/id="pp-measure"/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$T_TMP/measure-1280"
wide=$(awk '$1 == "box" && $5 == 1 && $3 > $4 + 1 { printf " %s (%d > %d)", $2, $3, $4 }' \
	"$T_TMP/measure-1280")
ok $([ -z "$wide" ] && grep -q '^box ' "$T_TMP/measure-1280"; echo $?) \
	"at 1280 pixels no main table scrolls sideways in its box${wide:+:$wide}"
# the flame graphs where the browser lays them out: each with a size,
# every label within its frame
python3 -c 'import sys; p, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.stdout.write(p.replace("</body>", "<script>" + js + "</script></body>"))' \
	"$F/r.html" "$(dirname "$0")/report-measure.js" >"$T_TMP/fm.html"
chrome --window-size=1280,800 --virtual-time-budget=3000 --dump-dom "file://$T_TMP/fm.html" |
	sed -n '/id="pp-measure"/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$T_TMP/measure-flame"
grep '^labels flame' "$T_TMP/measure-flame" | sed 's/^/# /'
ok $(awk '$1 == "chart" && $2 ~ /^(flame|prof)-/ && $3 > 100 && $4 > 50 { c++ }
	$1 == "labels" { n += $3; over += $4 } END { exit !(c == 15 && n > 0 && over == 0) }' \
	"$T_TMP/measure-flame"; echo $?) \
	"the 15 flame graphs laid out with a size, no label drawn beyond its frame"
rm -f "$T_TMP/shot-flame.png"
chrome --window-size=1280,2400 --screenshot="$T_TMP/shot-flame.png" "file://$F/r.html" >/dev/null
"$(dirname "$0")/png-blank.py" "$T_TMP/shot-flame.png" 1280
ok $? "screenshot of the flame graphs' page at 1280 pixels wide: not blank"
# screenshots, at desktop and phone width: not blank
for w in 1000 390; do
	rm -f "$T_TMP/shot-$w.png"
	chrome --window-size=$w,2400 --screenshot="$T_TMP/shot-$w.png" "file://$R" >/dev/null
	"$(dirname "$0")/png-blank.py" "$T_TMP/shot-$w.png" "$w"
	ok $? "screenshot at $w pixels wide: a PNG of that width, not blank"
done

# --format svg: a file a chart, each well-formed XML with its size
pp report --format svg "$T_TMP/base.json" "$T_TMP/new.json" -o "$T_TMP/svg" 2>"$T_TMP/e"
ok $? "report --format svg exits 0"
n=$(ls "$T_TMP/svg"/*.svg 2>/dev/null | wc -l)
python3 -c 'import sys, xml.etree.ElementTree as ET
for f in sys.argv[1:]:
    r = ET.parse(f).getroot()
    assert r.tag == "{http://www.w3.org/2000/svg}svg", f
    assert float(r.get("width")) > 0 and float(r.get("height")) > 0, f' "$T_TMP"/svg/*.svg
ok $([ $? -eq 0 ] && [ "$n" -ge 10 ]; echo $?) "each of the $n SVG files parses, with a width and height"
# a bar's figure at its end is its value, also where the tooltip gives
# an interval after it (those ends once overwrote the value's buffer)
check "each bar's figure is the value in its tooltip, bars with an interval among them" \
	python3 -c 'import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
bars = ranged = 0
for f in sys.argv[1:]:
    for parent in ET.parse(f).iter():
        kids = list(parent)
        for i, e in enumerate(kids):
            if e.tag != ns + "rect" or e.get("class") != "bar":
                continue
            title = e.find(ns + "title").text
            val = title.rsplit(": ", 1)[1].split(" ")[0]
            txt = next(k for k in kids[i + 1:] if k.tag == ns + "text")
            assert txt.text == val, (f, title, txt.text)
            bars += 1
            ranged += "(" in title
print("#", bars, "bars,", ranged, "with an interval")
assert bars > 0 and ranged > 0' "$T_TMP"/svg/*.svg

# export --csv: every result once, the JSON's figures
pp export --csv "$T_TMP/base.json" "$T_TMP/new.json" -o "$T_TMP/all.csv" 2>"$T_TMP/e"
ok $? "export --csv -o FILE exits 0"
want=$(( $(jq '.results | length' "$T_TMP/base.json") + $(jq '.results | length' "$T_TMP/new.json") + 1 ))
ok $([ "$(wc -l <"$T_TMP/all.csv")" -eq "$want" ] &&
	head -1 "$T_TMP/all.csv" | grep -q '^label,release,date,host,key,unit,value,median,min,max,mean,cv_pct,n,noisy' ; echo $?) \
	"the CSV: a header and one row a result ($want lines)"
v=$(jq -r '.results[] | select(.key == "lat_syscall-null") | .value' "$T_TMP/base.json")
c=$(awk -F, '$1 == "base" && $5 == "lat_syscall-null" { print $7 }' "$T_TMP/all.csv")
check "lat_syscall-null: the CSV's value is the JSON's ($c vs $v)" \
	awk -v a="$c" -v b="$v" 'BEGIN { exit !(a != "" && (a - b) ^ 2 <= (b * 1e-9) ^ 2) }'
pp export --csv "$T_TMP/base.json" >"$T_TMP/one.csv"
check "export to stdout: the same rows as -o for that run" sh -c \
	"grep -c '^base,' '$T_TMP/all.csv' | grep -qx \"\$(( \$(wc -l <'$T_TMP/one.csv') - 1 ))\""

# export --lava: one lava-test-case line a result (lava.t has the rest)
pp export --lava "$T_TMP/base.json" >"$T_TMP/cases" 2>"$T_TMP/e"
ok $([ $? -eq 0 ] && [ "$(grep -c '^lava-test-case [a-z0-9_.-]* --result \(pass --measurement [0-9.e+-]* --units [A-Za-z/%]*\|skip\|fail\)$' "$T_TMP/cases")" -eq \
	"$(jq '(.results | length) + (.skipped // [] | length) + (.failed // [] | length)' "$T_TMP/base.json")" ]; echo $?) \
	"export --lava: a lava-test-case line a result, skip and failure"
