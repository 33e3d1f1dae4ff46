#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The perfprobe.ko commands (kmod, copy, timer, trace) and the kernel view
# of lat_syscall.  Without the module (the usual host case) every command
# prints one line saying how to load it and exits 4; with it loaded (a
# test VM) the commands run.  kmod check, bad arguments: both cases.
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KO=$ROOT/kmod/perfprobe.ko
plan 36

"$PERFPROBE" kmod status >"$T_TMP/st" 2>"$T_TMP/st.err"
status_rc=$?
loaded=0
[ "$status_rc" -eq 0 ] && loaded=1
echo "# perfprobe.ko $([ $loaded = 1 ] && echo loaded || echo "not loaded (kmod status: $status_rc)")"

# not loaded: exit 4, nothing on stdout, exactly the one line on stderr
notloaded() { # DESCRIPTION ARGS...
	d=$1
	shift
	if [ $loaded = 1 ]; then
		skip "$d: perfprobe.ko is loaded"
		return
	fi
	"$PERFPROBE" "$@" >"$T_TMP/out" 2>"$T_TMP/e"
	rc=$?
	lines=$(wc -l <"$T_TMP/e")
	ok $([ "$rc" -eq 4 ] && [ "$lines" -eq 1 ] && [ ! -s "$T_TMP/out" ] &&
		grep -qx 'perfprobe: kernel module not loaded: load it with: insmod kmod/perfprobe.ko (build it with: make kmod)' \
		"$T_TMP/e"; echo $?) "$d without the module: exit 4, one line (got $rc, $lines lines)"
}
notloaded "kmod status" kmod status
# --json: the one line on stderr, and a document saying so on stdout
if [ $loaded = 1 ]; then
	skip "kmod status --json without the module: perfprobe.ko is loaded"
else
	"$PERFPROBE" --json kmod status >"$T_TMP/out" 2>"$T_TMP/e"
	rc=$?
	ok $([ "$rc" -eq 4 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] &&
		jq -e '.format == "perfprobe-kmod-status" and .loaded == false and
			(.why | test("insmod"))' "$T_TMP/out" >/dev/null; echo $?) \
		"kmod status --json without the module: exit 4, one line, a document with loaded false (got $rc)"
fi
notloaded "copy --quick" --quick copy
notloaded "copy --dir all --sizes 4k" copy --dir all --sizes 4k
notloaded "timer" timer
notloaded "timer --period 50000 --count 10" timer --period 50000 --count 10
notloaded "trace --kernel-view=kmod -- /bin/true" --kernel-view=kmod trace -- /bin/true
notloaded "trace --kernel-view=kmod -H -- /bin/true" --kernel-view=kmod trace -H -- /bin/true

# lat_syscall without the module: --kernel-view=kmod refused in one line,
# auto falls back to BPF or says so in one note pointing to kernel-view
# status; with it: the kernel view from the module
J=$T_TMP/sc.json
"$PERFPROBE" --quick --no-save --json run lat_syscall >"$J" 2>"$T_TMP/sc.err"
rc=$?
ok $([ "$rc" -eq 0 ]; echo $?) "run lat_syscall exits 0 (got $rc)"
if [ $loaded = 0 ]; then
	"$PERFPROBE" --quick --no-save --kernel-view=kmod run lat_syscall >"$T_TMP/o" 2>"$T_TMP/e"
	rc=$?
	ok $([ "$rc" -eq 1 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ] && [ ! -s "$T_TMP/o" ] &&
		grep -q '^perfprobe: --kernel-view=kmod: perfprobe.ko not usable: kernel module not loaded: load it with: insmod kmod/perfprobe.ko' "$T_TMP/e"
		echo $?) "--kernel-view=kmod without the module: exit 1, one line saying how to load it (got $rc)"
	check "auto without the module: no result from kmod" \
		jq -e '[.results[] | .kernel.source == "kmod"] | any | not' "$J"
	check "auto without the module: six results" jq -e '.results | length == 6' "$J"
	if grep -q '^perfprobe: kernel view from bpf' "$T_TMP/sc.err"; then
		check "auto without the module: BPF instead, on every result" \
			jq -e '[.results[] | .kernel.source == "bpf"] | all' "$J"
	else
		check "auto with no backend: one note pointing to kernel-view status" \
			sh -c "[ \$(grep -c 'note: no kernel view: .*(perfprobe kernel-view status says why' '$T_TMP/sc.err') -eq 1 ]"
	fi
else
	check "kernel view of every lat_syscall key" jq -e '[.results[] | .kernel.source == "kmod" and
		.kernel.kernel_ns_per_op > 0 and (.kernel.probe_ns_per_op | type) == "number" and
		.kernel.syscalls_per_op >= 1] | all' "$J"
	check "null call: one syscall per op" jq -e '.results[] | select(.key == "lat_syscall-null") |
		.kernel.syscalls_per_op == 1' "$J"
	check "open: two syscalls per op (openat + close)" jq -e '.results[] |
		select(.key == "lat_syscall-open") | .kernel.syscalls_per_op == 2' "$J"
	"$PERFPROBE" --quick --no-save syscall >"$T_TMP/table" 2>/dev/null
	check "text output has the Kernel view block" grep -q '^Kernel view (kmod, ' "$T_TMP/table"
fi

# with the module: the commands themselves
if [ $loaded = 1 ]; then
	check "kmod status says loaded" grep -q '^perfprobe.ko: loaded' "$T_TMP/st"
	"$PERFPROBE" --json kmod status >"$T_TMP/st.json" 2>/dev/null
	check "kmod status --json" jq -e '.loaded and .abi_version == 1 and (.clocksource | length) > 0' "$T_TMP/st.json"
	"$PERFPROBE" --json timer --count 100 >"$T_TMP/t.json" 2>/dev/null
	check "timer --json: 100 expiries and a histogram" jq -e '.count == 100 and .lateness.count == 100 and
		(.lateness.histogram | map(.count) | add) == 100' "$T_TMP/t.json"
	"$PERFPROBE" --quick --json copy --sizes 4k,65537 --align 0,7 >"$T_TMP/c.json" 2>/dev/null
	check "copy --json: kcopy-in/out and memcpy keys" jq -e '[.results[].key] |
		(index("kcopy-in-4k-a0") != null) and (index("kcopy-out-65537-a7") != null) and
		(index("memcpy-4k-a7") != null)' "$T_TMP/c.json"
	"$PERFPROBE" --json trace -- /bin/true >"$T_TMP/tr.json" 2>/dev/null
	check "trace --json -- /bin/true: exit 0 and execve seen" jq -e '.exit_status == 0 and
		([.syscalls[].name] | index("execve") != null or index("exit_group") == null)' "$T_TMP/tr.json"
	"$PERFPROBE" trace -- /bin/false >"$T_TMP/tr.txt" 2>&1
	ok $?  "trace -- /bin/false: perfprobe exits 0"
	check "trace passes the command's status through" grep -q 'exited with status 1' "$T_TMP/tr.txt"
	"$PERFPROBE" trace -- /nonexistent/cmd >/dev/null 2>"$T_TMP/e"
	ok $([ $? -eq 1 ] && grep -q "cannot run '/nonexistent/cmd'" "$T_TMP/e"; echo $?) \
		"trace of a missing command: exit 1 and says why"
else
	for d in "kmod status says loaded" "kmod status --json" "timer --json" "copy --json" \
		"trace --json" "trace -- /bin/false exit code" "trace status pass-through" \
		"trace of a missing command"; do
		skip "$d: perfprobe.ko not loaded"
	done
fi

# kmod check: the vermagic of the built module against this kernel
if [ -f "$KO" ]; then
	"$PERFPROBE" kmod check "$KO" >"$T_TMP/ck" 2>&1
	rc=$?
	built=$(grep '^  built for:' "$T_TMP/ck" | awk '{ print $3 }')
	want=1
	[ "$built" = "$(uname -r)" ] && want=0
	ok $([ "$rc" -eq "$want" ]; echo $?) "kmod check perfprobe.ko: exit $want for $built on $(uname -r) (got $rc)"
	check "kmod check prints the vermagic" grep -q '^  vermagic: *[0-9]' "$T_TMP/ck"
	if [ "$want" = 1 ]; then
		check "kmod check says it does not match" grep -q 'does not match' "$T_TMP/ck"
	else
		check "kmod check says it matches" grep -q 'matches' "$T_TMP/ck"
	fi
	"$PERFPROBE" --json kmod check "$KO" >"$T_TMP/ck.json" 2>/dev/null
	check "kmod check --json" jq -e --arg r "$(uname -r)" '.built_for as $b | .name == "perfprobe" and
		(.vermagic | startswith($b)) and .running == $r and .matches == ($b == $r)' \
		"$T_TMP/ck.json"
else
	for d in exit vermagic verdict json; do skip "kmod check $d: no kmod/perfprobe.ko (make kmod)"; done
fi

echo "not an ELF" >"$T_TMP/text.ko"
bad 3 "kmod check of a text file" kmod check "$T_TMP/text.ko"
check "the error names the file" grep -q "$T_TMP/text.ko" "$T_TMP/e"
bad 3 "kmod check of a missing file" kmod check "$T_TMP/missing.ko"
obj=$(dirname "$PERFPROBE")/tools/lib/util.o
if [ -f "$obj" ]; then
	bad 3 "kmod check of an object that is not a module" kmod check "$obj"
else
	skip "no $obj"
fi
bad 2 "kmod without a subcommand" kmod
bad 2 "kmod check without a file" kmod check
bad 2 "copy --dir sideways" copy --dir sideways
bad 2 "copy --sizes 65m" copy --sizes 65m
bad 2 "timer --period 10" timer --period 10
bad 2 "timer --period x --count over 1 s" timer --period 1000000 --count 1001
bad 2 "trace without a command" trace -H

done_testing
