#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The perfprobe command: the Processor/Processes run, its JSON, the
# summary of result files, exit codes and every bad input.
. "$(dirname "$0")/tap.sh"
plan 38

J=$T_TMP/syscall.json
in_netns "$PERFPROBE" --kernel-view=off --quick --json --no-save syscall >"$J" 2>"$T_TMP/err"
rc=$?
want=$(run_rc "$J")
ok $([ "$rc" = "$want" ]; echo $?) \
	"syscall --quick --json: the exit its document gives, 0 or 4 with the skips (got $rc, want ${want:-?})"
check "stdout is exactly one JSON document" jq -e . "$J"
check "format and schema version" jq -e '.format == "perfprobe-results" and .schema_version == 1' "$J"
keys="lat_syscall-null lat_syscall-read lat_syscall-write lat_syscall-stat lat_syscall-fstat
lat_syscall-open lat_select-tcp lat_sig-install lat_sig-catch lat_sig-prot lat_proc-fork
lat_proc-exec lat_proc-shell lat_proc-fork-lean lat_proc-exec-lean lat_proc-shell-lean"
missing=""
for k in $keys; do
	jq -e --arg k "$k" '.results[] | select(.key == $k) |
		(.samples | length) >= 5 and .value > 0 and .unit == "us" and
		.stats.n == (.samples | length) and .direction == "lower"' "$J" >/dev/null ||
		noisy_skip "$J" "$k" || missing="$missing $k"
done
ok $([ -z "$missing" ]; echo $?) \
	"every Processor key present, >= 5 samples, positive, or skipped as too noisy${missing:+ (bad:$missing)}"
# Each operation does the one before's work and more, but each is a
# measurement of its own: the order is asserted as far as their noise
# lets it be (tap.sh's not_below: the rule of pp_below_beyond_noise()).
order() { # MORE LESS: MORE's work includes LESS's
	if noisy_skip "$J" "$1" || noisy_skip "$J" "$2"; then
		skip "$1 or $2 skipped as too noisy: nothing to order"
	else
		check "$1 not below $2 beyond the noise ($(noise "$J" "$1" "$2"))" not_below "$J" "$1" "$2"
	fi
}
order lat_syscall-stat lat_syscall-null
order lat_syscall-open lat_syscall-stat
order lat_proc-exec lat_proc-fork
order lat_proc-shell lat_proc-exec
order lat_proc-fork lat_proc-fork-lean
# lmbench's figures from a process of lmbench's size, the lean ones from a
# smaller one, both smaller than perfprobe
maps() { # INFO-NAME: its mappings, less than perfprobe's
	jq -e --arg n "$1" '.info[] | select(.name == $n) | .text |
	(capture("(?<l>[0-9]+) mappings, [0-9]+ kB resident \\(perfprobe itself: (?<p>[0-9]+)\\)") |
	 (.l | tonumber) < (.p | tonumber))' "$J"
}
check "lat_proc measured from perfprobe-proc, a smaller process than perfprobe" maps lat_proc-process
check "lat_proc's lean figures from perfprobe-lean, static" maps lat_proc-lean-process
check "perfprobe-lean has fewer mappings than perfprobe-proc" jq -e '[.info[] |
	select(.name == "lat_proc-process" or .name == "lat_proc-lean-process") |
	{(.name): (.text | capture("(?<n>[0-9]+) mappings").n | tonumber)}] | add |
	.["lat_proc-lean-process"] < .["lat_proc-process"]' "$J"
# without a helper, its figures say so and the rest of the run goes on
mkdir -p "$T_TMP/nolean" && for f in perfprobe perfprobe-hello perfprobe-proc perfprobe-hello-dyn; do
	cp "$(dirname "$PERFPROBE")/$f" "$T_TMP/nolean/"; done
"$T_TMP/nolean/perfprobe" --quick --no-save --json run lat_proc lat_sig >"$T_TMP/nolean.json" 2>/dev/null
check "no perfprobe-lean: its figures skipped with the reason, the rest ran" jq -e '
	([.skipped[] | select(.name == "lat_proc-fork-lean") | .reason |
	  test("perfprobe-lean or perfprobe-hello not found")] | any) and
	([.results[] | select(.key == "lat_proc-fork")] | length) == 1 and
	([.results[] | select(.key | startswith("lat_sig"))] | length) > 0' "$T_TMP/nolean.json"
check "metadata is complete" jq -e '.meta | (.perfprobe_version | length) > 0 and
	(.hostname | length) > 0 and (.kernel_release | length) > 0 and (.arch | length) > 0 and
	.online_cpus >= 1 and .memory_bytes > 0 and (.clock.resolution_ns >= 0) and
	(.clock.read_cost_ns > 0) and (.mhz.method | length) > 0 and (.mhz.note | length) > 0 and
	(.compiler | length) > 0 and (.command_line | test("syscall"))' "$J"
check "progress went to stderr" grep -q '^perfprobe: \[[0-9]*/[0-9]*\] lat_syscall: 6 results' "$T_TMP/err"

# text mode: the lmbench table
in_netns "$PERFPROBE" --kernel-view=off --quick --no-save -o "$T_TMP/o.json" syscall >"$T_TMP/table" 2>/dev/null
check "table title" grep -q '^Processor, Processes - times in microseconds - smaller is better$' "$T_TMP/table"
check "table columns" grep -q 'null null      open slct sig  sig  fork exec sh' "$T_TMP/table"
check "-o wrote a valid result file: 13 keys, reported or skipped as too noisy" jq -e \
	'.results + [.skipped[] | select(.reason | test("too noisy"))] | length >= 13' "$T_TMP/o.json"
check "no temporary file left beside -o" test -z "$(ls "$T_TMP" | grep '\.tmp\.')"

# summary: one row per run
"$PERFPROBE" summary "$J" "$T_TMP/o.json" >"$T_TMP/sum" 2>&1
ok $? "summary of two runs exits 0"
rows=$(awk '/^Processor, Processes/ { t = 1; next } t && /^$/ { exit } t' "$T_TMP/sum" |
	grep -c "^$(hostname | cut -c1-9)")
ok $([ "$rows" -eq 2 ]; echo $?) "summary has one row per run (got $rows)"

# pinning, and where it ran is recorded
"$PERFPROBE" --kernel-view=off --quick --no-save --json --cpu 0 run lat_syscall >"$T_TMP/pin.json" 2>/dev/null
check "--cpu 0: every result ran on CPU 0" jq -e '[.results[] | .cpu.first == 0 and .cpu.last == 0] | all' "$T_TMP/pin.json"
check "--cpu 0 recorded in the options" jq -e '.meta.options.pin_cpu == 0' "$T_TMP/pin.json"

# saving under the results directory
"$PERFPROBE" --kernel-view=off --quick --results-dir "$T_TMP/res" run lat_syscall >/dev/null 2>&1
check "run saved under <dir>/<host>/<date>/" test -n "$(find "$T_TMP/res/$(hostname)" -name '*.json' 2>/dev/null)"

# a default results directory that cannot be written: said, not fatal;
# one asked for with --results-dir: fatal
touch "$T_TMP/notadir"
env -u PERFPROBE_RESULTS_DIR -u XDG_DATA_HOME HOME="$T_TMP/notadir" \
	"$PERFPROBE" --kernel-view=off --quick run lat_syscall >/dev/null 2>"$T_TMP/e"
rc=$?
ok $([ $rc -eq 0 ] && grep -q 'cannot save results' "$T_TMP/e"; echo $?) \
	"unwritable default results directory: a warning, exit 0 (got $rc)"
"$PERFPROBE" --kernel-view=off --quick --results-dir "$T_TMP/notadir/x" run lat_syscall >/dev/null 2>&1
rc=$?
ok $([ $rc -eq 1 ]; echo $?) "unwritable --results-dir: exit 1 (got $rc)"

# bad input: one line on stderr, the documented exit code
bad 2 "unknown command" frobnicate
bad 2 "unknown option" --frobnicate syscall
bad 2 "bad --repeat" --repeat zero syscall
bad 2 "bad --cpu" --cpu 4096 syscall
bad 2 "bad --profile-samples" --profile-samples 0 run lat_syscall
bad 2 "unknown benchmark" run lat_nothing
echo "not json" >"$T_TMP/bad.json"
bad 3 "summary of a non-JSON file" summary "$T_TMP/bad.json"
head -c 200 "$J" >"$T_TMP/trunc.json"
bad 3 "summary of a truncated file" summary "$T_TMP/trunc.json"
jq '.schema_version = 99' "$J" >"$T_TMP/newer.json"
bad 3 "summary of a newer schema" summary "$T_TMP/newer.json"
bad 3 "summary of a missing file" summary "$T_TMP/does-not-exist.json"
check "error names the file" grep -q 'does-not-exist.json' "$T_TMP/e"

# SIGINT in the middle of a run: temporary files are removed
mkdir "$T_TMP/scratch"
"$PERFPROBE" --kernel-view=off --no-save --tmpdir "$T_TMP/scratch" run lat_sig lat_syscall >/dev/null 2>&1 &
pid=$!
seen=1
for _ in $(seq 600); do	# until lat_sig has made its file (30 s at most)
	[ -n "$(ls "$T_TMP/scratch")" ] && { seen=0; break; }
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
ok $([ $seen -eq 0 ] && [ -z "$(ls "$T_TMP/scratch")" ] && [ $rc -ne 0 ]; echo $?) \
	"SIGINT: run stops and leaves no temporary files (seen $seen, rc $rc)"

done_testing
