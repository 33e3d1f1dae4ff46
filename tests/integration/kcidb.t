#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare --format kcidb read by KernelCI's own validator, kcidb-io
# (Documentation/compare.rst, "KCIDB"): a document of every kind of
# verdict (regression, improvement, same, noisy, unreliable, not
# comparable, missing on a side, derived, the whole side failed), at the
# schema version written by default (kcidb-io's latest) and at 4.3,
# each accepted by kcidb_io.schema's validate(), and the default's
# version exactly the latest kcidb-io knows.  kcidb-io is found where
# python3 imports it from, or in the checkout KCIDB_IO names; without
# it the validation is skipped, saying why (jsonschema is Debian's
# python3-jsonschema).  Never run: only read, the code is not ours to ship.
. "$(dirname "$0")/tap.sh"

# The kinds of verdict, each a pair of runs made from one real quick run.
A=$T_TMP/a.json
"$PERFPROBE" --kernel-view=off --quick --no-save -o "$A" run lat_syscall >/dev/null 2>&1
S=$T_TMP/s.json
jq '.results |= map(.value as $v | .samples = [$v, $v * 1.01, $v * 0.99, $v * 1.02, $v * 0.98] |
	.stats.n = 5)' "$A" >"$S"
shift_run() {	# factor out [in]
	jq --argjson f "$1" '.results |= map(.samples |= map(. * $f) | .value *= $f |
		.stats.median *= $f | .stats.min *= $f | .stats.max *= $f | .stats.mean *= $f)' \
		"${3:-$S}" >"$2"
}
shift_run 1.50 "$T_TMP/regression.json"
shift_run 0.60 "$T_TMP/improvement.json"
cp "$S" "$T_TMP/same.json"
jq '.results |= map(.samples = [.value * 0.5, .value, .value * 1.5, .value * 0.7, .value * 1.3])' \
	"$S" >"$T_TMP/noisy.json"
jq '.info = [{"name": "lat_syscall-null-samples",
	"text": "the first 5 spread 30.0%: 15 taken, the quietest 5 consecutive kept; CPU taken meanwhile by make (pid 7, 40% of a CPU)"}]' \
	"$T_TMP/regression.json" >"$T_TMP/unreliable.json"
jq '.results = [] | .failed = [{"name": "lat_syscall", "reason": "it broke"}]' "$S" >"$T_TMP/error.json"
jq '.results |= map(select(.key != "lat_syscall-open")) |
	.skipped = [{"name": "lat_syscall-open", "reason": "not here"}]' "$S" >"$T_TMP/skipped.json"
jq '.results |= map(if .key == "lat_syscall-null" then .kind = "derived" else . end)' \
	"$T_TMP/regression.json" >"$T_TMP/derived.json"
KINDS="regression improvement same noisy unreliable error skipped derived"
VERSIONS="5.3 4.3"
plan $(( $(echo $KINDS | wc -w) * 2 + 5 ))

docs=
for k in $KINDS; do
	for v in $VERSIONS; do
		out=$T_TMP/$k-$v.kcidb
		"$PERFPROBE" compare --no-history --format kcidb --kcidb-version "$v" "$S" \
			"$T_TMP/$k.json" >"$out" 2>/dev/null
		rc=$?
		ok $([ $rc -le 6 ] && [ $rc -ne 1 ] && [ $rc -ne 2 ] && jq -e --arg v "$v" \
			'"\(.version.major).\(.version.minor)" == $v and (.tests | length) >= 1' \
			"$out" >/dev/null; echo $?) "$k, KCIDB $v: a document of that version (exit $rc)"
		docs="$docs $out"
	done
done
"$PERFPROBE" compare --format kcidb --kcidb-version 4.4 "$S" "$S" >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && grep -q "'4.4' is not 5.3 or 4.3" "$T_TMP/e"; echo $?) \
	"--kcidb-version 4.4: exit 2, the versions said"
check "the kinds' statuses: FAIL, PASS, ERROR and SKIP all written" sh -c "
	cat $(echo $docs) | jq -r '.tests[].status' | sort -u | tr '\n' ' ' | grep -qx 'ERROR FAIL PASS SKIP '"

# kcidb-io: importable as it is, or from the checkout KCIDB_IO names.
# The first Python that imports it: python3, else Debian's (where
# python3-jsonschema is), when python3 is another.
PY_PATH=${KCIDB_IO:+$KCIDB_IO${PYTHONPATH:+:$PYTHONPATH}}
for KPY in python3 /usr/bin/python3; do
	why=$(PYTHONPATH=${PY_PATH:-${PYTHONPATH:-}} $KPY -c 'import kcidb_io' 2>&1 | tail -n1)
	[ -n "$why" ] || break
done
python3() { command "$KPY" "$@"; }
if [ -n "$why" ]; then
	skip_rest "kcidb-io is not importable (${why}; KCIDB_IO=/path/to/kcidb-io names a checkout)"
else
	PYTHONPATH=${PY_PATH:-${PYTHONPATH:-}} python3 - $docs >"$T_TMP/v.out" 2>&1 <<'EOF'
import json, sys
import kcidb_io
from kcidb_io import schema
bad = 0
for path in sys.argv[1:]:
    doc = json.load(open(path))
    try:
        schema.LATEST.validate(doc)
    except Exception as e:      # jsonschema's ValidationError, and any other
        bad += 1
        print("%s: %s" % (path, str(e).splitlines()[0]))
print("latest %d.%d; %d of %d documents rejected" % (schema.LATEST.major, schema.LATEST.minor,
                                                      bad, len(sys.argv) - 1))
sys.exit(1 if bad else 0)
EOF
	ok $? "kcidb-io's validator accepts every document: $(tail -n1 "$T_TMP/v.out")"
	sed '$d' "$T_TMP/v.out" | head -n 10 | sed 's/^/# /'
	latest=$(PYTHONPATH=${PY_PATH:-${PYTHONPATH:-}} python3 -c \
		'from kcidb_io import schema; print("%d.%d" % (schema.LATEST.major, schema.LATEST.minor))')
	ok $([ "$latest" = "$(jq -r '"\(.version.major).\(.version.minor)"' "$T_TMP/same-5.3.kcidb")" ]
		echo $?) "the default version is kcidb-io's latest ($latest)"
	# the check can fail: 4.3 with a test's "number" (what perfprobe once wrote)
	jq '.tests[0].number = {"value": 1.0, "unit": "us"}' "$T_TMP/same-4.3.kcidb" >"$T_TMP/old.kcidb"
	PYTHONPATH=${PY_PATH:-${PYTHONPATH:-}} python3 -c '
import json, sys
from kcidb_io import schema
try:
    schema.LATEST.validate(json.load(open(sys.argv[1])))
except Exception as e:
    print(str(e).splitlines()[0])
    sys.exit(0)
sys.exit(1)' "$T_TMP/old.kcidb" >"$T_TMP/old.out" 2>&1
	ok $? "... and rejects 4.3 with a test's number: $(head -c 120 "$T_TMP/old.out")"
fi
