#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Local communication: lat_pipe, lat_unix, lat_udp, lat_rpc, lat_tcp,
# lat_connect, bw_pipe, bw_unix, bw_tcp under --quick.  The network ones
# run in their own network namespace with only the loopback up.
. "$(dirname "$0")/tap.sh"
plan 17

# valid KEY-LIST UNIT DIRECTION FILE: the keys missing or not valid
valid() {
	bad=""
	for k in $1; do
		jq -e --arg k "$k" --arg u "$2" --arg d "$3" '.results[] | select(.key == $k) |
			(.samples | length) >= 5 and .value > 0 and .unit == $u and
			.direction == $d and ([.samples[] | . > 0] | all) and
			.cpu.first >= 0 and .cpu.last >= 0' "$4" >/dev/null || bad="$bad $k"
	done
	echo "$bad"
}
v() { jq -r --arg k "$1" '.results[] | select(.key == $k) | .value' "$2"; }
between() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a >= lo && a <= hi) }'; }

# --- between processes, no network ---
J=$T_TMP/local.json
"$PERFPROBE" --kernel-view=off -v --quick --json --no-save run lat_pipe lat_unix bw_pipe bw_unix \
	>"$J" 2>"$T_TMP/err"
rc=$?
ok $(( rc == 0 ? 0 : 1 )) "lat_pipe lat_unix bw_pipe bw_unix --quick exit 0 (got $rc)"
bad=$(valid "lat_pipe lat_unix" us lower "$J")
ok $([ -z "$bad" ]; echo $?) "latency keys: >= 5 positive samples, us, lower${bad:+ (bad:$bad)}"
bad=$(valid "bw_pipe bw_unix" MB/s higher "$J")
ok $([ -z "$bad" ]; echo $?) "bandwidth keys: >= 5 positive samples, MB/s, higher${bad:+ (bad:$bad)}"
check "pipe, AF_UNIX bandwidths plausible, 10..10^6 MB/s ($(v bw_pipe "$J"), $(v bw_unix "$J"))" \
	eval 'between "$(v bw_pipe "$J")" 10 1e6 && between "$(v bw_unix "$J")" 10 1e6'
check "where the helper ran is reported" grep -q \
	'lat_pipe: placement (scheduler.s choice): perfprobe CPU [0-9]*->[0-9]*, helper CPU [0-9]' \
	"$T_TMP/err"

# --cpu: perfprobe and its helper on that CPU
P=$T_TMP/pin.json
"$PERFPROBE" --kernel-view=off -v --quick --json --no-save --cpu 0 run lat_pipe >"$P" 2>"$T_TMP/pin.err"
check "--cpu 0: lat_pipe ran on CPU 0" \
	jq -e '.results[0].cpu.first == 0 and .results[0].cpu.last == 0' "$P"
check "--cpu 0: the helper ran on CPU 0 too" grep -q \
	'lat_pipe: placement (pinned to CPU 0): perfprobe CPU 0->0, helper CPU 0->0' "$T_TMP/pin.err"

# --- the network ones, in a namespace of their own ---
NET="lat_udp lat_rpc lat_tcp lat_connect bw_tcp"
N=$T_TMP/net.json
if unshare -n true 2>/dev/null; then
	unshare -n sh -c 'ip link set lo up && exec "$0" --kernel-view=off --quick --json --no-save --cpu 0 run $1' \
		"$PERFPROBE" "$NET" >"$N" 2>"$T_TMP/net.err"
	rc=$?
	ok $(( rc == 0 ? 0 : 1 )) "network benchmarks on a private loopback exit 0 (got $rc)"
	bad=$(valid "lat_udp lat_rpc-udp lat_rpc-tcp lat_tcp lat_connect" us lower "$N")
	ok $([ -z "$bad" ]; echo $?) "network latency keys valid${bad:+ (bad:$bad)}"
	bad=$(valid "bw_tcp bw_tcp-64kb" MB/s higher "$N")
	ok $([ -z "$bad" ]; echo $?) "TCP bandwidth keys valid${bad:+ (bad:$bad)}"
	# An RPC round trip is a round trip of its transport and more: two
	# measurements, compared as far as their noise lets them be (tap.sh's
	# not_below; the medians of a --quick run under a parallel build once
	# put RPC/TCP at 0.49 of TCP).
	check "RPC/UDP not below UDP beyond the noise ($(noise "$N" lat_rpc-udp lat_udp))" \
		not_below "$N" lat_rpc-udp lat_udp
	check "RPC/TCP not below TCP beyond the noise ($(noise "$N" lat_rpc-tcp lat_tcp))" \
		not_below "$N" lat_rpc-tcp lat_tcp
	check "TCP bandwidth is plausible (10 .. 10^6 MB/s: $(v bw_tcp "$N"))" \
		between "$(v bw_tcp "$N")" 10 1e6
	unshare -n "$PERFPROBE" --kernel-view=off --quick --json --no-save run lat_tcp >"$T_TMP/nolo.json" 2>/dev/null
	rc=$?
	ok $([ $rc -eq 4 ] && jq -e '.skipped[0].name == "lat_tcp" and
		(.skipped[0].reason | test("lo")) and (.results | length) == 0' \
		"$T_TMP/nolo.json" >/dev/null; echo $?) \
		"no loopback: lat_tcp skipped with the reason, exit 4 (got $rc)"
else
	for i in $(seq 7); do
		skip "unshare -n not permitted here"
	done
fi

# text mode: the lmbench tables
"$PERFPROBE" --kernel-view=off --quick --no-save run lat_pipe lat_unix bw_pipe >"$T_TMP/table" 2>/dev/null
check "latency table" grep -q \
	'^\*Local\* Communication latencies in microseconds - smaller is better$' "$T_TMP/table"
check "bandwidth table" grep -q \
	'^\*Local\* Communication bandwidths in MB/s - bigger is better$' "$T_TMP/table"

# perfprobe killed: its helpers die with it (zombies are dead: not counted,
# whoever inherits them may reap them late)
alive() { ps -o stat= -s "$1" 2>/dev/null | grep -vc '^Z'; }
(setsid sh -c 'echo $$ >"$1"; exec "$0" --kernel-view=off --no-save run lat_ctx' "$PERFPROBE" "$T_TMP/sid" \
	>/dev/null 2>&1 &)
n=0
for _ in $(seq 600); do	# until its ring is up (30 s at most)
	sid=$(cat "$T_TMP/sid" 2>/dev/null)
	[ -n "$sid" ] && n=$(alive "$sid")
	[ "$n" -ge 3 ] && break
	sleep 0.05
done
[ -n "$sid" ] && kill -KILL "$sid"
# they die when the kernel next runs them: waited for, not for a fixed time
for _ in $(seq 200); do
	left=$(alive "$sid")
	[ "$left" -eq 0 ] && break
	sleep 0.05
done
ok $([ "$n" -ge 3 ] && [ "$left" -eq 0 ]; echo $?) \
	"perfprobe killed: no helper left alive (had $n processes, $left left)"

done_testing
