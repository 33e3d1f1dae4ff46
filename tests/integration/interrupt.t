#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A run stopped by SIGINT, SIGTERM or SIGHUP keeps what it measured: the
# partial run is saved and printed with "interrupted": true, the exit code
# is 128 + the signal, and no benchmark process is left behind.
. "$(dirname "$0")/tap.sh"
plan 18

# interrupt SIG NUM: run until the first benchmark's line says it ended,
# the second starting, then signal it
interrupt() {
	local sig=$1 num=$2 out=$T_TMP/$1 pid rc i
	"$PERFPROBE" --kernel-view=off --no-save --json -o "$out.json" run lat_syscall lat_sig lat_pipe lat_ctx \
		>"$out.stdout" 2>"$out.err" &
	pid=$!
	for i in $(seq 1 1500); do
		grep -q '\[1/4\] lat_syscall: ' "$out.err" && break
		sleep 0.02
	done
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	ok $([ $rc -eq $((128 + num)) ]; echo $?) "SIG$sig: exit $((128 + num)) (got $rc)"
	check "SIG$sig: said on stderr" grep -q "interrupted by SIG$sig during lat_sig" "$out.err"
	check "SIG$sig: the saved run is partial, marked, with lat_syscall's results" jq -e \
		'.interrupted == true and ([.results[] | select(.key | startswith("lat_syscall"))] | length) == 6 and
		 ([.results[] | select(.key | startswith("lat_ctx"))] | length) == 0 and (.failed | length) == 0' "$out.json"
	check "SIG$sig: --json printed the same partial document" jq -e '.interrupted == true' "$out.stdout"
	ok $(! pgrep -f -- "$out.json" >/dev/null; echo $?) "SIG$sig: no process of the run left"
}
interrupt INT 2
interrupt TERM 15
interrupt HUP 1

# storage's files are long (a GiB a buffer size here): SIGTERM while one
# is written ends the run at the next call, not after the benchmark,
# and its directory goes.  Killed if still running after 30 s.
mkdir -p "$T_TMP/st"
PERFPROBE_STORAGE_DIR=$T_TMP/st PERFPROBE_STORAGE_SIZE=4g "$PERFPROBE" -v --kernel-view=off \
	--no-save --json run storage >"$T_TMP/st.json" 2>"$T_TMP/st.err" &
pid=$!
for i in $(seq 1 1500); do
	grep -q 'storage: .* per buffer size' "$T_TMP/st.err" && break
	sleep 0.02
done
sleep 0.5
kill -TERM "$pid"
wait_or_kill "$pid" 30
rc=$?
ok $([ $rc -eq 143 ]; echo $?) "storage, SIGTERM while writing a file: exit 143 within 30 s (got $rc)"
check "storage: the run is marked interrupted, nothing failed" jq -e \
	'.interrupted == true and (.failed | length) == 0' "$T_TMP/st.json"
ok $([ -z "$(ls -A "$T_TMP/st")" ]; echo $?) "storage: its directory in PERFPROBE_STORAGE_DIR is gone"

done_testing
