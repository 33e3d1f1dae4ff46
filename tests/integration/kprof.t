#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel view's sampled profile on this host (kernel-view.rst, "The
# profile"), by invariants that hold whatever the samples fall on: every
# result of a traced run has one, its kernel and user samples add up to
# the samples and its stacks' counts too, its kernel time is a share of
# the untraced time of one operation and so never above it, and
# lat_syscall-null's kernel time is the system call's own (its entry, the
# call, its exit).  export --folded gives the same stacks.  Skipped, with
# the reason, where sampling or the kernel view is not available.
. "$(dirname "$0")/tap.sh"
NTESTS=17
plan $NTESTS

KPROF=${PP_KPROF:-$(dirname "$PERFPROBE")/tests/pp-kprof}
pp() { "$PERFPROBE" --no-save "$@"; }

# Usage errors come first, sampling or not.
bad 2 "export --csv --folded: one format at a time" export --csv --folded "$T_TMP/none.json"

"$PERFPROBE" --json kernel-view status >"$T_TMP/kvs.json" 2>/dev/null
check "kernel-view status says whether the profile can be taken, and how or why not" jq -e \
	'.profile | (.available == true and (.event == "cycles" or .event == "cpu-clock") and .hz > 0)
		or (.available == false and (.why | length) > 0)' "$T_TMP/kvs.json"
# Sampling the kernel is refused to a user without CAP_PERFMON where
# perf_event_paranoid is 2 or more: status says so in one line.
if [ "$(id -u)" -eq 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] &&
	command -v setpriv >/dev/null; then
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFPROBE" kernel-view status) \
		>"$T_TMP/nobody" 2>&1
	check "without CAP_PERFMON: one line says the profile is not allowed, and why" \
		grep -Eq '^  profile: not allowed: .*perf_event_paranoid is [0-9]+' "$T_TMP/nobody"
else
	skip "not root, or perf_event_paranoid below 2: sampling is allowed to everyone"
fi
[ "$(jq -r .profile.available "$T_TMP/kvs.json")" = true ] ||
	skip_rest "no profile here: $(jq -r .profile.why "$T_TMP/kvs.json")"
[ "$(jq -r .backend "$T_TMP/kvs.json")" != null ] ||
	skip_rest "no kernel view backend here (perfprobe.ko, BPF)"

# The default mode at 1 kHz, more rounds where fewer samples (a loaded
# machine).  The checks below are shares of the kernel's samples, so the
# pass is asked for 100 (the default 10 end it after one chunk).
pp --json --profile-samples 100 run lat_syscall >"$T_TMP/sc.json" 2>"$T_TMP/sc.err"
ok $? "run lat_syscall exits 0$(grep -v '^perfprobe: \[' "$T_TMP/sc.err" | head -3 | sed 's/^/ /')"
# A loop the machine's other work left almost no CPU time may have no
# sample even after the pass's extra rounds: a profile all the same.
check "every result with a kernel view has a profile" jq -e \
	'[.results[] | select(.kernel)] | length > 0 and all(.kernel.profile.samples >= 0)' "$T_TMP/sc.json"
check "kernel + user samples add up to the samples, for every result" jq -e \
	'[.results[].kernel.profile | select(.)] |
	 all(.kernel_samples + .user_samples == .samples)' "$T_TMP/sc.json"
check "the stacks' counts add up to the samples, every frame index is a frame" jq -e \
	'[.results[].kernel.profile | select(.)] | all(. as $p |
		[.stacks[] | split(" ") | map(tonumber)] |
		(map(.[0]) | add // 0) == $p.samples and
		all(.[2:] | all(. < ($p.frames | length))) and all(.[1] <= length - 2))' "$T_TMP/sc.json"
check "kernel ns/op from the profile is at most the untraced time of one operation" jq -e \
	'[.results[] | select(.kernel.profile.samples > 0) | .kernel.profile] |
	 all(.kernel_ns_per_op <= .op_ns and .kernel_ns_per_op >= 0 and .kernel_ns_err >= 0)' "$T_TMP/sc.json"
check "the untraced time of one operation is the result's (the empty loop added)" jq -e \
	'[.results[] | select(.kernel.profile) | {v: (.value * 1000), o: .kernel.profile.op_ns}] |
	 all(.o >= .v and .o < .v * 1.5 + 10)' "$T_TMP/sc.json"
check "the top functions' self time is within the kernel's" jq -e \
	'[.results[].kernel.profile | select(.)] | all(. as $p |
	 ([.top_self[].samples] | add // 0) <= $p.kernel_samples and
	 all(.top_total[]; .samples <= $p.kernel_samples))' "$T_TMP/sc.json"
# lat_syscall-null is getppid() in a loop: whatever the kernel did, it
# did on the system call's path, entered from user space by the syscall
# entry (x86: entry_SYSCALL_64*, do_syscall_64; arm64: el0t_64_sync,
# el0_svc), or returning from it; an interrupt taken meanwhile unwinds to
# that entry too.  Its top functions: most of each one's samples on that
# path (a top function of a few samples may be an interrupt's).
ENTRY='^(entry_SYSCALL_64.*|do_syscall_64|el0t_64_sync.*|el0_svc.*|\[syscall exit, interrupts off\])$'
check "lat_syscall-null: 3/4 of its kernel samples in the system call's path" jq -e --arg e "$ENTRY" \
	'.results[] | select(.key == "lat_syscall-null") | .kernel.profile | . as $p |
	 [.stacks[] | split(" ") | map(tonumber) | select(length > .[1] + 2) |
	  {n: .[0], root: $p.frames[.[.[1] + 2]]}] |
	 ([.[] | select(.root | test($e)) | .n] | add // 0) >= 0.75 * $p.kernel_samples' "$T_TMP/sc.json"
check "lat_syscall-null: its top kernel functions are the system call's own (entry, call, exit)" \
	jq -e --arg e "$ENTRY" \
	'.results[] | select(.key == "lat_syscall-null") | .kernel.profile | . as $p |
	 [.stacks[] | split(" ") | map(tonumber) | select(length > .[1] + 2) |
	  {n: .[0], root: $p.frames[.[.[1] + 2]], leaf: $p.frames[.[-1]]}] as $s |
	 [.top_self[] | select(.samples >= 0.15 * $p.kernel_samples) | .name] |
	 length > 0 and all(. as $f |
		([$s[] | select(.leaf == $f and (.root | test($e))) | .n] | add // 0) * 2 >
		([$s[] | select(.leaf == $f) | .n] | add))' "$T_TMP/sc.json"
jq -r '.results[] | select(.key == "lat_syscall-null") | .kernel.profile |
	"# lat_syscall-null: \(.kernel_samples) of \(.samples) samples in the kernel, \(.kernel_ns_per_op | round) of \(.op_ns | round) ns/op", (.top_self[] | "#   \(.samples) \(.path)")' "$T_TMP/sc.json"

pp -v --profile-samples 100 run lat_syscall >"$T_TMP/sc.txt" 2>/dev/null
check "text: each result's profile line, its kernel functions and their paths (-v)" \
	grep -Eq '^ +profile: [0-9]+% kernel, [0-9.]+ [nu]s/op \+-[0-9.]+ [nu]s \([0-9]+ samples, (cpu-clock|cycles); sampling' "$T_TMP/sc.txt"
check "text: the kernel functions by self time, each with its path with -v" \
	grep -Eq '^ +[0-9.]+ [nu]s/op in [^ ]+( <- [^ ]+)*$' "$T_TMP/sc.txt"

# The same stacks, collapsed: LABEL@DATE;KEY;frames COUNT, kernel frames _[k].
"$PERFPROBE" export --folded "$T_TMP/sc.json" >"$T_TMP/sc.folded" 2>"$T_TMP/e"
ok $? "export --folded exits 0$(head -1 "$T_TMP/e" | sed 's/^/ /')"
check "export --folded: every line is LABEL@DATE;KEY;frames COUNT" awk \
	'!/^[^;]+@[0-9T:Z-]+;lat_syscall-[a-z]+;.+ [1-9][0-9]*$/ { bad = 1 } END { exit bad || !NR }' "$T_TMP/sc.folded"
jq -r '.results[] | select(.kernel.profile.samples > 0) | "\(.key) \(.kernel.profile.samples) \(.kernel.profile.kernel_samples)"' \
	"$T_TMP/sc.json" | sort >"$T_TMP/want"
awk '{ n = $NF; split($0, f, ";"); k = f[2]; all[k] += n; if ($0 ~ /_\[k\] [0-9]+$/) kern[k] += n }
	END { for (k in all) print k, all[k], kern[k] + 0 }' "$T_TMP/sc.folded" | sort >"$T_TMP/got"
check "export --folded: per key, the samples and the kernel's (leaf _[k]) as in the JSON" \
	diff "$T_TMP/want" "$T_TMP/got"

# What sampling costs at the default rate, side by side (not a check:
# timing on a shared machine is not the suite's to judge).
"$KPROF" cost 2>/dev/null | tr '\n' ' ' | sed 's/^/# sampling cost: /; s/$/\n/'
done_testing
