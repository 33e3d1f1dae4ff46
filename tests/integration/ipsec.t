#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ipsec benchmark under --quick: every algorithm reported (Mbit/s,
# packets/s and the CPU loads, both modes, TCP and UDP, its driver named)
# or skipped with the kernel's reason, a kernel without ESP skipping the
# benchmark with its reason; and nothing left behind, after a normal exit
# and after SIGINT: no namespace of perfprobe's, no veth, no xfrm state or
# policy.  PERFPROBE_IPSEC_PAUSE=FILE holds a run with everything set up
# while FILE exists, for the test to look at before it lets the run go on
# or interrupts it: a handshake, not a race.
. "$(dirname "$0")/tap.sh"
plan 18

ALGS="aes128 aes192 aes256 aes128_sha256 aes192_sha256 aes256_sha256 aes128_gcm aes256_gcm 3des"
COMBOS="tunnel-tcp tunnel-udp transport-tcp transport-udp"

if ! command -v jq >/dev/null || ! command -v ip >/dev/null || ! command -v nsenter >/dev/null ||
	! unshare -n true 2>/dev/null; then
	for _ in $(seq 18); do skip "needs jq, ip, nsenter and network namespaces (root)"; done
	done_testing
	exit
fi

# --- a whole run ---
J=$T_TMP/ipsec.json
"$PERFPROBE" -v --quick --json --no-save run ipsec >"$J" 2>"$T_TMP/err"
rc=$?
want=$(run_rc "$J")
ok $([ "$rc" = "$want" ]; echo $?) \
	"run ipsec --quick: the exit its document gives, 0 or 4 with the skips (rc $rc, want ${want:-?})"
check "nothing failed" jq -e '.failed | length == 0' "$J"
noesp=$(jq -r '.skipped[] | select(.name == "ipsec") | .reason' "$J")

# good ALG: every combination's five keys with their units, or the
# algorithm (or the benchmark) skipped with a reason
good() {
	local a=$1 c
	jq -e --arg a "ipsec-$a" '.skipped | any(.name == $a or .name == "ipsec")' "$J" \
		>/dev/null && return 0
	for c in $COMBOS; do
		jq -e --arg k "ipsec-$a-$c" '
			def r($s; $u): .results | any(.key == ($k + $s) and .unit == $u and
				(.samples | length) >= 5);
			r(""; "Mbit/s") and r("-pps"; "packets/s") and r("-cpu"; "%") and
			r("-cpu_send"; "%") and r("-cpu_recv"; "%")' "$J" >/dev/null || return 1
	done
	jq -e --arg a "ipsec-$a-driver" '.info | any(.name == $a and (.text | length) > 0)' \
		"$J" >/dev/null
}
bad=""
for a in $ALGS; do good "$a" || bad="$bad $a"; done
ok $([ -z "$bad" ]; echo $?) \
	"each algorithm: 4 combinations x Mbit/s, packets/s, 3 CPU loads and its driver, or skipped with the reason${bad:+ (bad:$bad)}"
if [ -n "$noesp" ]; then
	# no ESP in this kernel: said once, for the benchmark, in the kernel's words
	ok $([[ $noesp == *"ESP"*": "?* ]]; echo $?) "no ESP here, the benchmark skipped: $noesp"
	for _ in 1 2 3; do skip "no ESP in this kernel"; done
else
	n=$(jq '[.results[] | select(.key | test("^ipsec-[a-z0-9_]+-(tunnel|transport)-(tcp|udp)$"))] | length' "$J")
	ok $([ "$n" -gt 0 ]; echo $?) "ESP here: $n throughputs measured"
	# data went through ESP: the receiving SA decrypted packets in every interval
	check "throughput and packets/s positive, sample by sample" jq -e '
		[.results[] | select(.key | test("^ipsec-.*-(tcp|udp)(-pps)?$")) | .samples[] | . > 0] | all' "$J"
	check "CPU load of all CPUs within 0..100%" jq -e '
		[.results[] | select(.key | test("^ipsec-.*-cpu$")) | .samples[] | . >= 0 and . <= 100] | all' "$J"
	# a process's CPU clock over the interval's: one thread, at most a CPU
	# (and the two clocks' reads a little apart)
	check "each end's CPU load within 0..105% of a CPU" jq -e '
		[.results[] | select(.key | test("^ipsec-.*-cpu_(send|recv)$")) | .samples[] | . >= 0 and . <= 105] | all' "$J"
fi
check "the namespaces were said (-v)" grep -q 'ipsec: namespaces net:\[[0-9]*\] (receiver' "$T_TMP/err"

# --- nothing left behind ---
# refs INODE: every /proc/PID/ns/net and /proc/PID/fd/N that is net:[INODE]
refs() {
	find /proc/[0-9]*/ns/net /proc/[0-9]*/fd -maxdepth 1 -lname "net:\[$1\]" 2>/dev/null
}
# ours INODE: a namespace of that inode that still has perfprobe's veth
# (an inode number the kernel gave another namespace since is not ours)
ours() {
	local r
	for r in $(refs "$1"); do
		nsenter --net="$r" ip -o link show 2>/dev/null | grep -q ppipsec && echo "$r"
	done
}
# root_clean: perfprobe's addresses in no xfrm state or policy of ours,
# no ppipsec link, no named namespace that is one of INODES
root_clean() {
	local i
	! ip xfrm state | grep -q '198\.18\.0\.' && ! ip xfrm policy | grep -q '198\.18\.0\.' &&
	! ip -o link show | grep -q ppipsec || return 1
	for i in $inodes; do
		for f in /run/netns/*; do
			[ -e "$f" ] && [ "$(stat -L -c %i "$f" 2>/dev/null)" = "$i" ] && return 1
		done
	done
	return 0
}

# held HOW: start a run of one algorithm paused with everything set up;
# check what exists; let it go (HOW: rm) or interrupt it (HOW: INT)
held() {
	local how=$1 hold=$T_TMP/hold i f n
	: >"$hold"
	PERFPROBE_IPSEC_PAUSE=$hold PERFPROBE_IPSEC_ALGS=aes128 "$PERFPROBE" --kernel-view=off -v --quick --json \
		--no-save run ipsec >"$T_TMP/h.json" 2>"$T_TMP/h.err" &
	pid=$!
	for i in $(seq 600); do
		grep -q 'paused while' "$T_TMP/h.err" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	inodes=$(sed -n 's/.*namespaces net:\[\([0-9]*\)\].* net:\[\([0-9]*\)\].*/\1 \2/p' "$T_TMP/h.err")
	set -- $inodes
	# held by perfprobe alone (its descriptors), veth and policies in them
	f=""
	for i in $inodes; do
		n=$(refs "$i" | grep -cv "^/proc/$pid/")
		[ "$n" -eq 0 ] && [ "$(refs "$i" | grep -c "^/proc/$pid/fd/")" -eq 1 ] || f="$f $i"
	done
	ok $([ $# -eq 2 ] && [ -z "$f" ]; echo $?) \
		"$how: paused with 2 namespaces held by perfprobe's descriptors alone (${inodes:-none}${f:+; not:$f})"
	r=$(refs "$1" | head -1)
	pol=$(nsenter --net="$r" ip xfrm policy 2>/dev/null | grep -c '^src 198\.18\.0\.')
	veth=$(nsenter --net="$r" ip -o link show 2>/dev/null | grep -c ppipseca)
	ok $([ "$pol" -eq 2 ] && [ "$veth" -eq 1 ] && root_clean; echo $?) \
		"$how: inside, the veth and 2 xfrm policies ($veth, $pol); none of it in our namespace"
	if [ "$how" = INT ]; then
		kill -INT "$pid"
	else
		rm -f "$hold"
	fi
	wait "$pid"
	rc=$?
}

held rm
want=$(run_rc "$T_TMP/h.json")
ok $([ "$rc" = "$want" ]; echo $?) "let go, the run ends as its document says (rc $rc, want ${want:-?})"
left=$(for i in $inodes; do ours "$i"; done)
ok $([ -z "$left" ] && root_clean; echo $?) \
	"after a normal exit: no namespace with perfprobe's veth, nothing in ours${left:+ (left: $left)}"

held INT
ok $([ "$rc" -eq 130 ] && jq -e '.interrupted' "$T_TMP/h.json" >/dev/null; echo $?) \
	"SIGINT: exit 130, the run's document says interrupted (rc $rc)"
left=$(for i in $inodes; do ours "$i"; done)
ok $([ -z "$left" ] && root_clean; echo $?) \
	"after SIGINT: no namespace with perfprobe's veth, nothing in ours${left:+ (left: $left)}"

# --- without the right to make namespaces: skipped with the reason ---
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFPROBE" --kernel-view=off --quick --json --no-save \
		run ipsec >"$T_TMP/np.json" 2>/dev/null
	rc=$?
	ok $([ $rc -eq 4 ] && jq -e '.skipped[] | select(.name == "ipsec") | .reason |
		test("CAP_SYS_ADMIN")' "$T_TMP/np.json" >/dev/null; echo $?) \
		"unprivileged: skipped, the reason names CAP_SYS_ADMIN (rc $rc)"
else
	skip "no setpriv"
fi
PERFPROBE_IPSEC_ALGS=nosuch "$PERFPROBE" --kernel-view=off --quick --json --no-save run ipsec >"$T_TMP/ns.json" 2>/dev/null
rc=$?
ok $([ $rc -eq 4 ] && jq -e '.skipped[] | select(.name == "ipsec") | .reason |
	test("names none")' "$T_TMP/ns.json" >/dev/null; echo $?) \
	"PERFPROBE_IPSEC_ALGS naming nothing known: skipped with the reason (rc $rc)"
done_testing
