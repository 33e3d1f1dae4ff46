#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-lava: perfprobe run by LAVA's own dispatcher (lava-run) on
# QEMU devices, x86-64 and arm64, Debian's 6.1 (Documentation/lava.rst).
#
# For each architecture: the images the guest tests build
# (scripts/vmtest.sh --images: the kernel, an initramfs with perfprobe),
# a job for them (scripts/lava-jobs.py), the device's configuration
# rendered from LAVA's own qemu device-type template with the job's
# context (scripts/lava-device.py), and lava-run running the job as a
# worker runs it.  Then: the job passed; every result of the run the job
# printed is a lava-test-case with its measurement and unit; compare's
# verdicts are the test set "compare"; perfprobe import lava makes a
# run with its samples of the job's output, labelled by kernel and
# device; and compare reads it against a run of the same images booted
# outside LAVA.  Nothing of LAVA is stood in for: a step that cannot
# run here (no lava-run, no templates, no QEMU, no kernel) is skipped,
# saying why.  The guests run under TCG: a --quick lat_syscall only.
#
# Environment: PERFPROBE_LAVA_ARCHES (default "x86_64 arm64"),
# PERFPROBE_LAVA_TEMPLATES (LAVA's device-types directory; default the
# lava-server package's, installed or unpacked by scripts/install-deps.sh
# --all), PERFPROBE_LAVA_KEEP=1 keeps the work directory.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib/tap.sh"
PERFPROBE=${PERFPROBE:-$ROOT/build/perfprobe}
ARCHES=${PERFPROBE_LAVA_ARCHES:-x86_64 arm64}
PER_ARCH=10
plan $(( $(echo $ARCHES | wc -w) * PER_ARCH ))
T0=$(date +%s)

W=$(mktemp -d "${TMPDIR:-/tmp}/perfprobe-lava.XXXXXX")
finish() {
	if [ "${PERFPROBE_LAVA_KEEP:-0}" = 1 ]; then
		echo "# work directory kept: $W"
	else
		rm -rf "$W"
	fi
}
trap finish EXIT

# --- what LAVA needs here; without it every test is skipped, saying why
why=
command -v lava-run >/dev/null || why="no lava-run (Debian package lava-dispatcher; scripts/install-deps.sh --all)"
TEMPLATES=${PERFPROBE_LAVA_TEMPLATES:-}
if [ -z "$TEMPLATES" ]; then
	for d in /etc/lava-server/dispatcher-config/device-types /usr/share/lava-server/device-types \
		/var/cache/perfprobe/lava/usr/share/lava-server/device-types; do
		[ -f "$d/qemu.jinja2" ] && { TEMPLATES=$d; break; }
	done
fi
[ -n "$why" ] || [ -f "$TEMPLATES/qemu.jinja2" ] ||
	why="no LAVA device-type templates (lava-server's qemu.jinja2; scripts/install-deps.sh --all unpacks them)"
# lava-run's own Python (Debian's, with lava-dispatcher's dependencies),
# for the scripts that render the device and write the job too
PY=python3
[ -n "$why" ] || PY=$(sed -n '1s/^#! *\([^ ]*\).*/\1/p' "$(command -v lava-run)")
[ -n "$why" ] || "$PY" -c 'import jinja2, yaml' 2>/dev/null ||
	why="$PY cannot import jinja2 or yaml (python3-jinja2, python3-yaml: lava-dispatcher's dependencies)"
command -v cpio >/dev/null || why="no cpio (LAVA appends its test overlay to the initramfs with it)"
[ -n "$why" ] || [ -x "$PERFPROBE" ] || why="no $PERFPROBE (make tools)"
[ -z "$why" ] || skip_rest "LAVA cannot run here: $why"

# a time: in the TAP, and on stderr, which prove shows
say_time() { echo "# $*"; echo "lava.t: $*" >&2; }
id_base=$(( ($$ % 90000) + 10000 ))
n=0

for arch in $ARCHES; do
	n=$((n + 1))
	case $arch in
	x86_64) qemu=qemu-system-x86_64 vmarch=() ;;
	arm64) qemu=qemu-system-aarch64 vmarch=(--arch arm64) ;;
	*) echo "Bail out! PERFPROBE_LAVA_ARCHES: '$arch' is not x86_64 or arm64"; exit 1 ;;
	esac
	dev=qemu-$arch
	if ! command -v $qemu >/dev/null; then
		for i in $(seq $PER_ARCH); do skip "$arch: no $qemu (scripts/install-deps.sh --all)"; done
		continue
	fi
	t_arch=$(date +%s)
	img=$W/img-$arch
	PERFPROBE_VMTEST_OPTIONAL=1 "$ROOT/scripts/vmtest.sh" "${vmarch[@]}" --images "$img" \
		>"$W/images-$arch.out" 2>&1
	if [ ! -f "$img/images.env" ]; then
		if grep -q '^1\.\.0 # SKIP' "$W/images-$arch.out"; then
			r=$(sed -n 's/^1\.\.0 # SKIP //p' "$W/images-$arch.out")
			for i in $(seq $PER_ARCH); do skip "$arch: no images: $r"; done
			continue
		fi
		ok 1 "$arch: the images built (scripts/vmtest.sh --images)"
		tail -n 20 "$W/images-$arch.out" | sed 's/^/# /'
		for i in $(seq $((PER_ARCH - 1))); do skip "$arch: no images"; done
		continue
	fi
	. "$img/images.env"
	ok 0 "$arch: the images built: kernel $KREL, initramfs $(du -k "$img/initramfs.cpio.gz" | cut -f1) KiB ($(($(date +%s) - t_arch)) s)"

	"$PY" "$ROOT/scripts/lava-jobs.py" --images "6.1,$arch,file://$img" --out "$W/jobs-$arch" >/dev/null
	job=$(ls "$W/jobs-$arch"/*.yaml 2>/dev/null | head -n1)
	run=$W/job-$arch
	mkdir -p "$run" && cp "$job" "$run/job.yaml"
	"$PY" "$ROOT/scripts/lava-device.py" --templates "$TEMPLATES" \
		--dict "$ROOT/tests/lava/devices/qemu-perfprobe.jinja2" --job "$run/job.yaml" \
		--out "$run/device.yaml"
	ok $? "$arch: a job, and the device rendered from LAVA's $(basename "$TEMPLATES")/qemu.jinja2 with its context"

	# as lava-worker starts it: the output directory holds job.yaml,
	# device.yaml, the log (lava-run's records, on stderr here) and result.yaml
	t_job=$(date +%s)
	timeout -k 10 1500 lava-run --job-id $((id_base + n)) --output-dir "$run" \
		--device "$run/device.yaml" "$run/job.yaml" >"$run/stdout" 2>"$run/stderr"
	rc=$?
	jt=$(($(date +%s) - t_job))
	ok $([ $rc -eq 0 ] && grep -q 'result: pass' "$run/result.yaml" 2>/dev/null; echo $?) \
		"$arch: lava-run ran the job and it passed (exit $rc, ${jt} s)"
	if [ $rc -ne 0 ]; then
		grep -E '"lvl": "(error|exception)"' "$run/stderr" | tail -n 5 | cut -c1-300 | sed 's/^/# /'
		grep '"lvl": "target"' "$run/stderr" | tail -n 15 | cut -c1-200 | sed 's/^/#   target: /'
	fi
	# the times of LAVA's steps, from its own log
	say_time "$arch: the job $jt s; $(python3 - "$run/stderr" <<'EOF'
import json, sys, re
steps = {}
for l in open(sys.argv[1]):
    try:
        r = json.loads(l.replace(': ! "', ': "'))
    except ValueError:
        continue
    m = r.get("msg")
    if r.get("lvl") == "results" and isinstance(m, dict) and m.get("definition") == "lava" \
            and m.get("case") in ("execute-qemu", "auto-login-action",
                                  "login-action", "0_perfprobe", "job"):
        steps[m["case"]] = m.get("duration", "")
print("LAVA's steps: " + ", ".join("%s %s s" % (k, v) for k, v in steps.items() if v))
EOF
	)"

	# every result of the run as a lava-test-case with its measurement
	python3 - "$run/stderr" "$W/check-$arch.json" <<'EOF' >"$W/cases-$arch.out" 2>&1
import base64, json, re, sys
cases, art, on = [], [], False
for l in open(sys.argv[1]):
    try:    # YAML's flow style: JSON but for the tag "! " on a measurement
        r = json.loads(l.replace(': ! "', ': "'))
    except ValueError:
        continue
    m = r.get("msg")
    if r.get("lvl") == "results" and isinstance(m, dict) and m.get("definition") != "lava":
        cases.append(m)
    elif r.get("lvl") == "target" and isinstance(m, str):
        if m.startswith("PERFPROBE-ARTIFACT-BEGIN"):
            on, art = True, []
        elif m.startswith("PERFPROBE-ARTIFACT-END"):
            on = False
        elif on and re.fullmatch(r"[A-Za-z0-9+/=]+", m.strip()):
            art.append(m.strip())   # not the shell's trace (set -x) of the lines
run = json.loads(base64.b64decode("".join(art)))
keys = {x["key"]: x for x in run["results"]}
meas = {c["case"]: c for c in cases if "set" not in c and "measurement" in c}
verd = {c["case"]: c for c in cases if c.get("set") == "compare"}
bad = [k for k, x in keys.items() if k not in meas or meas[k].get("units") != x["unit"]
       or abs(float(meas[k]["measurement"]) - x["value"]) > 1e-6 * abs(x["value"])]
json.dump({"keys": len(keys), "measured": len(meas), "verdicts": len(verd), "bad": bad,
           "missing_verdicts": [k for k in keys if k not in verd],
           "label": run["meta"]["label"]}, open(sys.argv[2], "w"))
print("%d results, %d measured cases, %d verdicts, mismatched: %s" % (len(keys), len(meas), len(verd), bad))
EOF
	ok $(jq -e '.keys >= 1 and (.bad | length) == 0 and .measured >= .keys' "$W/check-$arch.json" \
		>/dev/null 2>&1; echo $?) "$arch: every result a lava-test-case with its measurement and unit: $(tail -n1 "$W/cases-$arch.out")"
	ok $(jq -e '.verdicts >= .keys and (.missing_verdicts | length) == 0' "$W/check-$arch.json" \
		>/dev/null 2>&1; echo $?) "$arch: compare's verdicts, one a key, in the test set compare"

	# the job's output back as perfprobe runs
	imp=$W/import-$arch
	"$PERFPROBE" import lava "$run" -o "$imp" >"$W/import-$arch.out" 2>"$W/import-$arch.err"
	rc=$?
	f=$(head -n1 "$W/import-$arch.out")
	ok $([ $rc -eq 0 ] && [ "$(wc -l <"$W/import-$arch.out")" -eq 1 ] && [ -f "$f" ]; echo $?) \
		"$arch: import lava of the job's output directory: one run (exit $rc) $(head -c 200 "$W/import-$arch.err")"
	ok $(jq -e --arg l "6.1+$dev" '.meta.label == $l and (.results | length) >= 1 and
		all(.results[]; (.samples | length) > 1)' "$f" >/dev/null 2>&1; echo $?) \
		"$arch: ... labelled by kernel and device (6.1+$dev), every result with its samples"

	# the same images outside LAVA: QEMU started here, perfprobe run by /init
	t_out=$(date +%s)
	case $arch in
	x86_64) qargs=(-machine pc -cpu qemu64) con=ttyS0 ;;
	arm64) qargs=(-machine virt -cpu cortex-a57) con=ttyAMA0 ;;
	esac
	timeout -k 5 900 $qemu "${qargs[@]}" -smp 1 -m 512 -nodefaults -no-user-config \
		-display none -monitor none -no-reboot -serial "file:$W/outside-$arch.log" \
		-kernel "$img/vmlinuz" -initrd "$img/initramfs.cpio.gz" \
		-append "console=$con,115200 rdinit=/init pp_run=lat_syscall panic=-1 perfprobe_accel=tcg perfprobe_clock=wall" \
		</dev/null >"$W/outside-$arch.qemu" 2>&1
	tr -d '\r' <"$W/outside-$arch.log" |
		sed -n '/^PERFPROBE-ARTIFACT-BEGIN/,/^PERFPROBE-ARTIFACT-END/p' | sed '1d;$d' |
		base64 -d >"$W/outside-$arch.json" 2>/dev/null
	ok $(jq -e '(.results | length) >= 1' "$W/outside-$arch.json" >/dev/null 2>&1; echo $?) \
		"$arch: the same images outside LAVA: a run ($(($(date +%s) - t_out)) s)"
	"$PERFPROBE" compare --no-history --json "$W/outside-$arch.json" "$f" >"$W/cmp-$arch.json" 2>"$W/cmp-$arch.err"
	rc=$?
	ok $([ $rc -eq 0 ] || [ $rc -eq 5 ]
		jq -e '.comparisons[0].results as $r | ($r | length) >= 1 and
			all($r[]; .verdict != "not-comparable")' "$W/cmp-$arch.json" >/dev/null 2>&1; echo $?) \
		"$arch: compare reads the LAVA run against it: every key compared (exit $rc: $(jq -r '[.comparisons[0].results[] | "\(.key) \(.verdict)"] | join(", ")' "$W/cmp-$arch.json" 2>/dev/null))"
	ok $(jq -e '.comparisons[0].results | length' "$W/cmp-$arch.json" >/dev/null 2>&1 &&
		[ "$(jq '.comparisons[0].results | length' "$W/cmp-$arch.json")" -eq "$(jq '.results | length' "$f")" ]
		echo $?) "$arch: ... as many keys as the job's run has"
	say_time "$arch: $(($(date +%s) - t_arch)) s in all (images, job, import, outside)"
done
say_time "$(($(date +%s) - T0)) s"
