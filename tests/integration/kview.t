#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The BPF backend of the kernel view on this host (tests/integration/
# pp-kview.c drives it), with tp_btf and again with raw tracepoints:
# exact syscall counts for the traced process and none of an untraced
# one, its forked child followed, one fault per new page, the switches of
# a ping-pong on one CPU, probes that are not available say why, and
# nothing left loaded after SIGINT.  Skipped, with the reason, where BPF
# is not permitted or was built out.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/../lib/bpf.sh"
KVIEW=${PP_KVIEW:-$(dirname "$PERFPROBE")/tests/pp-kview}
NTESTS=33
plan $NTESTS


[ -x "$KVIEW" ] || skip_rest "no $KVIEW (make check-build)"
"$KVIEW" status >"$T_TMP/st" 2>"$T_TMP/st.err"
rc=$?
if [ $rc -eq 4 ]; then
	skip_rest "$(cat "$T_TMP/st.err")"
fi
sed 's/^/# /' "$T_TMP/st"

get() { sed -n "s/^$1=//p" "$T_TMP/out"; }

# Every probe: how it attaches, or why it is not available; never a figure.
bad=$(grep -Ev '^(syscalls|faults|fault-time|sched|copy)=(tp_btf|raw_tp|fentry|not available on this kernel: .+)$|^copy_routines=' "$T_TMP/st")
ok $([ $rc -eq 0 ] && [ -z "$bad" ] && [ "$(wc -l <"$T_TMP/st")" -eq 6 ]; echo $?) \
	"status: each probe attached or says why not${bad:+ (got: $bad)}"

for mode in "" --raw-tp; do
	m=${mode:-tp_btf}
	# shellcheck disable=SC2086
	"$KVIEW" $mode getppid 20000 >"$T_TMP/out" 2>"$T_TMP/e"
	ok $? "$m getppid: runs$(sed 's/^/ /' "$T_TMP/e")"
	n=$(get sys.getppid)
	ok $([ "$n" = 20000 ]; echo $?) "$m getppid: exactly 20000 for the traced process (got $n)"
	u=$(get untraced_calls)
	ok $([ "${u:-0}" -gt 0 ]; echo $?) "$m getppid: an untraced process ran meanwhile ($u calls, not counted)"
	ok $([ "$(get sys_timed.getppid)" = 20000 ]; echo $?) "$m getppid: every call timed enter..exit"
	ns=$(get sys_ns.getppid)
	loop=$(get loop_ns)
	ok $([ "${ns:-0}" -gt 0 ] && [ "$ns" -le "${loop:-0}" ]; echo $?) \
		"$m getppid: kernel ns ($ns) <= the loop's wall time ($loop)"

	# shellcheck disable=SC2086
	"$KVIEW" $mode fork 3000 >"$T_TMP/out" 2>"$T_TMP/e"
	ok $? "$m fork: runs$(sed 's/^/ /' "$T_TMP/e")"
	n=$(get sys.getppid)
	ok $([ "$n" = 3000 ] && [ "$(get forks)" -ge 1 ]; echo $?) \
		"$m fork: the child's 3000 getppid counted (got $n, forks $(get forks))"

	# shellcheck disable=SC2086
	"$KVIEW" $mode faults 512 >"$T_TMP/out" 2>"$T_TMP/e"
	ok $? "$m faults: runs$(sed 's/^/ /' "$T_TMP/e")"
	f=$(get faults)
	ok $([ "${f:-0}" -ge 512 ] && [ "$f" -le $((512 + 512 / 10 + 8)) ]; echo $?) \
		"$m faults: 512 new pages touched, 512..571 faults (got $f)"

	# One CPU: each of the 1000 round trips hands the CPU over twice;
	# the child's last switch is its exit, after it left the traced set.
	# shellcheck disable=SC2086
	"$KVIEW" $mode pingpong 1000 >"$T_TMP/out" 2>"$T_TMP/e"
	ok $? "$m pingpong: runs$(sed 's/^/ /' "$T_TMP/e")"
	s=$(get switches)
	ok $([ "${s:-0}" -ge 1999 ] && [ "$(get offcpu_ns)" -gt 0 ]; echo $?) \
		"$m pingpong: >= 1999 switches and some off-CPU time (got $s, $(get offcpu_ns) ns)"
	ok $([ "$(get sys.read)" = 2000 ] && [ "$(get sys.write)" = 2000 ]; echo $?) \
		"$m pingpong: 2000 reads and writes of both processes"
done

# SIGINT while tracing, with a traced child still alive afterwards: none
# of the programs it loaded may stay behind.  The kernel frees them after
# an RCU grace period, so wait for that (a leak never goes away).
if ! [ -x "$BPFTOOL" ]; then
	for i in 1 2 3 4 5; do skip "SIGINT: no bpftool to list programs"; done
else
	: >"$T_TMP/hold"	# there before the job opens it, for the grep below
	"$KVIEW" hold >"$T_TMP/hold" 2>"$T_TMP/e" &
	pid=$!
	# Its handlers are in place when it prints the child: a SIGINT
	# before that is ignored (a background job's), so wait for it, as
	# long as an ASan build on a loaded machine needs to load and attach.
	for i in $(seq 1200); do
		grep -q '^child=' "$T_TMP/hold" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	child=$(sed -n 's/^child=//p' "$T_TMP/hold")
	ok $([ -n "$child" ]; echo $?) "SIGINT: tracing, with a child ($child$(head -c 200 "$T_TMP/e"))"
	bpf_pid_prog_ids "$pid" >"$T_TMP/ours"
	ok $([ -s "$T_TMP/ours" ]; echo $?) "SIGINT: our programs are listed while tracing ($(wc -l <"$T_TMP/ours"))"
	[ -n "$child" ] && kill -INT "$pid"
	# never a hang: what has not died of SIGINT in 60 s is killed (and fails)
	wait_or_kill "$pid" 60
	rc=$?
	ok $([ $rc -eq 130 ]; echo $?) "SIGINT: the tracer died of it (exit $rc)"
	ok $(kill -0 "$child" 2>/dev/null; echo $?) "SIGINT: the traced child outlives it"
	bpf_wait_gone "$T_TMP/ours"
	ok $? "SIGINT: none of its programs left behind ($bpf_left)"
	[ -n "$child" ] && kill "$child" 2>/dev/null
fi

# perfprobe kernel-view status: the backend it would use, each probe how or why not
"$PERFPROBE" --json kernel-view status >"$T_TMP/kvs.json"
ok $? "kernel-view status --json exits 0"
check "... BPF usable here, and the backend is the module if usable, else bpf" jq -e \
	'.bpf.usable == true and .backend == (if .kmod.usable then "kmod" else "bpf" end) and
	 (.kmod.usable or (.kmod.why | length) > 0)' "$T_TMP/kvs.json"
check "... every BPF probe says how it attaches or why not (never silent)" jq -e \
	'(.bpf.probes | to_entries | length == 5 and
	  all(.value | (.available and (.how | length) > 0) or (.available | not) and (.why | length) > 0)) and
	 .bpf.probes.syscalls.available' "$T_TMP/kvs.json"
done_testing
