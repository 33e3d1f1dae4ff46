#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "perfprobe netserver" under hostile clients (issue 26), on a loopback of
# its own (a private network namespace, else the host's on a random
# port), with pp-hostile.c as the attacker from 127.0.0.2:
#  - 8 connections of each kind that used to hold a test's place for
#    120 s (slow request line, stalled TCP_RR and TCP_CRR, a trickle
#    after an ERR), opened again as soon as the server closes them: a real
#    "run netperf" beside them completes, each connection is closed by
#    the server within its deadline (plus 5 s for a loaded machine), with
#    the ERR its attack earns, one address never gets more than its share
#    of places, and the log names the address and stays short;
#  - datagrams forged from 127.0.0.77, and the client's of the wrong
#    size, get no echo and are not counted; a data connection from
#    127.0.0.9 gets no byte;
#  - a data connection reset under a TCP_RR write: the client gets ERR;
#  - --max-duration and --secret-file.
# Every check is an invariant of the server's deadlines and filters: none
# depends on how fast the machine is.
if [ -z "${PP_NETNS:-}" ] && unshare -n true 2>/dev/null; then
	PP_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec "$0"' "$0"
fi
. "$(dirname "$0")/tap.sh"
plan 27

HOSTILE=${PP_HOSTILE:-$(dirname "$PERFPROBE")/tests/pp-hostile}
HOLD_S=22	# longer than the longest deadline below and its margin
[ -x "$HOSTILE" ] || skip_rest "no $HOSTILE (make check-build)"

NS_PIDS=
cleanup() {
	for p in $NS_PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# start_server LOG ARGS...: a netserver on 127.0.0.1; its port in PORT
start_server() {
	log=$1
	shift
	for try in 1 2 3 4 5; do
		if [ -n "${PP_NETNS:-}" ]; then
			PORT=$((12866 + try))
		else
			PORT=$((20000 + (RANDOM % 20000)))
		fi
		"$PERFPROBE" netserver --bind 127.0.0.1 --port $PORT "$@" 2>"$log" &
		pid=$!
		for i in $(seq 300); do
			grep -q "listening on 127.0.0.1:$PORT" "$log" && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		if grep -q "listening on 127.0.0.1:$PORT" "$log"; then
			NS_PIDS="$NS_PIDS $pid"
			return 0
		fi
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
	done
	return 1
}

# kv FILE KEY: KEY's value in a line of key=value words
kv() { sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" | head -1; }
# code FILE CODE: how many ERRs of CODE a hold run got
code() { kv "$1" codes | tr ',' '\n' | sed -n "s/^$2://p" | head -1; }

LOG=$T_TMP/ns.log
start_server "$LOG" || skip_rest "no netserver would start: $(head -2 "$LOG")"
pass "netserver listens on 127.0.0.1:$PORT${PP_NETNS:+ (a namespace of its own)}"
NS=${NS_PIDS##* }

# --- 8 hostile connections of each kind, and a real client beside them ---
t0=$(date +%s)
for k in slowline rrstall crrstall hello; do
	"$HOSTILE" 127.0.0.1 $PORT hold $k 8 127.0.0.2 $HOLD_S >"$T_TMP/$k.out" 2>&1 &
	eval "H_$k=\$!"
done
sleep 1
J=$T_TMP/np.json
PERFPROBE_NETSERVER=127.0.0.1:$PORT PERFPROBE_NET_DURATION_MS=100 \
	"$PERFPROBE" --quick --json --no-save --kernel-view off run netperf >"$J" 2>"$T_TMP/np.err"
rc=$?
want=$(run_rc "$J")
ok $([ "$rc" = "$want" ] && [ "$rc" != 1 ] && jq -e '(.failed | length) == 0 and
	([.results[] | select(.key | startswith("net-"))] | length) > 0' "$J" >/dev/null; echo $?) \
	"run netperf beside 32 hostile connections completes (rc $rc, want ${want:-?}, $(($(date +%s) - t0)) s in)"
[ "$rc" = 0 ] || [ "$rc" = 4 ] || grep -E 'failed|error' "$T_TMP/np.err" | head -5 | sed 's/^/# /'
for k in slowline rrstall crrstall hello; do eval "wait \$H_$k"; done
elapsed=$(($(date +%s) - t0))
for k in slowline rrstall crrstall hello; do sed "s/^/# /" "$T_TMP/$k.out"; done

# each kind: the longest a connection stayed, against its deadline + 5 s
held() {	# held FILE BOUND_MS WHAT
	m=$(kv "$1" max_held_ms)
	c=$(kv "$1" closed)
	ok $([ -n "$m" ] && [ "$m" -le "$2" ] && [ "${c:-0}" -ge 1 ]; echo $?) \
		"$3: every connection closed by the server within $2 ms (longest ${m:-?} ms, ${c:-?} closed)"
}
held "$T_TMP/slowline.out" 10000 "slowline (request 1 byte / 2 s; deadline 5 s)"
held "$T_TMP/rrstall.out" 15010 "rrstall (TCP_RR request 1 byte / 4 s; deadline 10 ms + 10 s)"
held "$T_TMP/crrstall.out" 15010 "crrstall (TCP_CRR data 1 byte / s; deadline 10 ms + 10 s)"
held "$T_TMP/hello.out" 5500 "hello (1 byte / 150 ms after ERR; linger 0.5 s)"
# 16 valid requests at once from 127.0.0.2, which may have 4 places
b=$(($(code "$T_TMP/rrstall.out" busy) + $(code "$T_TMP/crrstall.out" busy)))
ok $([ "$b" -ge 12 ]; echo $?) "one address gets 4 places of 8: the rest of its tests get ERR busy ($b)"
ok $(kill -0 "$NS" 2>/dev/null; echo $?) "the netserver is still running"
check "no sanitizer report from the netserver or the client" eval \
	"! grep -E 'ERROR: AddressSanitizer|runtime error|LeakSanitizer' '$LOG' '$T_TMP/np.err'"
check "the log names the hostile client's address" grep -q 'from 127\.0\.0\.2:[0-9]' "$LOG"
check "no log line lost the address ('from :')" eval "! grep -q 'from :' '$LOG'"
# at most 1 problem line and 20 test lines in 10 s, 3 lines to start
lines=$(wc -l <"$LOG")
max=$((3 + 21 * (elapsed / 10 + 2)))
conns=0
for k in slowline rrstall crrstall hello; do conns=$((conns + $(kv "$T_TMP/$k.out" conns))); done
ok $([ "$lines" -le "$max" ]; echo $?) "the log is rate-limited: $lines lines for $conns hostile connections in $elapsed s (at most $max)"

# --- each kind alone, from an address of its own: the ERR it earns ---
# (above, which of them got a place or an ERR busy was a race)
i=3
for k in slowline rrstall crrstall hello; do
	"$HOSTILE" 127.0.0.1 $PORT hold $k 2 127.0.0.$i 13 >"$T_TMP/$k.1" 2>&1 &
	eval "H_$k=\$!"
	i=$((i + 1))
done
for k in slowline rrstall crrstall hello; do eval "wait \$H_$k"; sed "s/^/# /" "$T_TMP/$k.1"; done
earned() {	# earned KIND CODE BOUND_MS WHAT
	f=$T_TMP/$1.1
	m=$(kv "$f" max_held_ms)
	n=$(code "$f" "$2")
	ok $([ "${n:-0}" -ge 1 ] && [ -n "$m" ] && [ "$m" -le "$3" ]; echo $?) \
		"$1 alone: $4 (${n:-0} ERR $2, longest ${m:-?} ms)"
}
earned slowline timeout 10000 "ERR timeout when the request line is not in by 5 s"
earned rrstall test 15010 "ERR test when the request is not in by the test's deadline"
earned crrstall test 15010 "ERR test at the deadline, the trickle cut after 2 s each time"
earned hello protocol 5500 "ERR protocol, then the trickle read 0.5 s at most"

# --- data only to and from the client that asked ---
"$HOSTILE" 127.0.0.1 $PORT forge-udp 127.0.0.77 >"$T_TMP/udp.out" 2>&1
cat "$T_TMP/udp.out" | sed 's/^/# /'
f=$T_TMP/udp.out
ok $([ "$(kv $f forged_echoes)" = 0 ]; echo $?) \
	"UDP_RR: datagrams forged from 127.0.0.77 (1, 1400, 8000 bytes) get no echo"
ok $([ "$(kv $f wrong_size_echoes)" = 0 ]; echo $?) "UDP_RR: the client's datagram of the wrong size gets none"
ok $([ "$(kv $f client_echoes)" = 1 ] && [ "$(kv $f result_pkts)" = 1 ]; echo $?) \
	"UDP_RR: the client's one datagram is echoed, and the only one counted (pkts=$(kv $f result_pkts))"
"$HOSTILE" 127.0.0.1 $PORT foreign-tcp 127.0.0.9 >"$T_TMP/tcp.out" 2>&1
sed 's/^/# /' "$T_TMP/tcp.out"
f=$T_TMP/tcp.out
ok $([ "$(kv $f foreign_bytes)" = 0 ] && [ "$(kv $f client_bytes)" -gt 0 ] 2>/dev/null &&
	grep -q 'answer=PPNET 1 RESULT' $f; echo $?) \
	"TCP_MAERTS: 127.0.0.9 on the data port first gets no byte; the client gets its data and result"

# --- a reset data connection: an ERR, never a test killed by SIGPIPE ---
n=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$HOSTILE" 127.0.0.1 $PORT sigpipe >"$T_TMP/pipe.out" 2>&1
	grep -q '^answer=PPNET 1 ERR test ' "$T_TMP/pipe.out" && n=$((n + 1))
done
sed 's/^/# /' "$T_TMP/pipe.out"
ok $([ $n = 10 ]; echo $?) "TCP_RR, 'xx' and a close without reading: ERR test with the reason, $n of 10"

# --- --max-duration, --secret-file ---
# ask LINE...: the server's first line for these lines (bash /dev/tcp)
ask() {
	timeout 10 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'$PORT' || exit 1
		for l in "$@"; do printf "%s\n" "$l" >&3; done
		IFS= read -r -t 8 line <&3; printf "%s\n" "$line"' sh "$@"
}
REQ='PPNET 1 TEST type=TCP_RR family=ipv4 size=1 duration_ms=2000 intervals=1 rate_pps=0 id=1 rcvbuf=0'
printf 'correct horse battery staple\n' >"$T_TMP/secret"
printf 'incorrect horse\n' >"$T_TMP/wrong"
chmod 600 "$T_TMP/secret" "$T_TMP/wrong"
LOG2=$T_TMP/ns2.log
if start_server "$LOG2" --max-duration 1000 --secret-file "$T_TMP/secret"; then
	r=$(ask 'PPNET 1 AUTH')
	ok $([[ $r =~ ^PPNET\ 1\ CHALLENGE\ [0-9a-f]{32}$ ]]; echo $?) "--secret-file: AUTH gets a CHALLENGE ($r)"
	r=$(ask "$REQ")
	ok $([[ $r == "PPNET 1 ERR auth "* ]]; echo $?) "--secret-file: a TEST without the secret gets ERR auth ($r)"
	run() {	# run SECRET_FILE [MS]: netperf's tcp_rr against it; its exit
		PERFPROBE_NETSERVER=127.0.0.1:$PORT PERFPROBE_NETSERVER_SECRET_FILE=$1 \
			PERFPROBE_NET_TESTS=tcp_rr PERFPROBE_NET_DURATION_MS=${2:-100} \
			"$PERFPROBE" --quick --json --no-save --kernel-view off run netperf \
			>"$T_TMP/s.json" 2>"$T_TMP/s.err"
	}
	run "$T_TMP/secret"
	rc=$?
	ok $([ $rc = 4 ] && jq -e '[.results[] | select(.key == "net-tcp_rr-1")] | length == 1' \
		"$T_TMP/s.json" >/dev/null; echo $?) "--secret-file: a client with the secret runs (rc $rc)"
	run "$T_TMP/wrong"
	rc=$?
	ok $([ $rc = 1 ] && grep -q 'ERR auth wrong shared secret' "$T_TMP/s.err"; echo $?) \
		"--secret-file: a client with another secret is refused, and told why (rc $rc)"
	run "$T_TMP/secret" 2000
	rc=$?
	ok $([ $rc = 1 ] && grep -q "ERR range duration_ms 2000 over this netserver's --max-duration 1000" \
		"$T_TMP/s.err"; echo $?) "--max-duration 1000: a test of 2000 ms is refused, and told why (rc $rc)"
	r=$(timeout 10 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'$PORT'; printf "PPNET 1 AUTH\n" >&3
		read -r -t 8 c <&3; printf "PPNET 1 PROOF %064d\n" 0 >&3; printf "%s\n" "$1" >&3
		IFS= read -r -t 8 line <&3; printf "%s\n" "$line"' sh "$REQ")
	ok $([[ $r == "PPNET 1 ERR auth wrong shared secret" ]]; echo $?) "--secret-file: a wrong PROOF gets ERR auth ($r)"
else
	for i in 1 2 3 4 5 6; do skip "no second netserver: $(head -1 "$LOG2")"; done
fi
done_testing
