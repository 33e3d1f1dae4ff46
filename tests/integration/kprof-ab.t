#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A host A/B with a cause made on purpose (kernel-view.rst, "A worked
# example: which kernel code?"): the new side runs under stacked seccomp
# filters that allow every call and run more instructions for the calls
# lat_syscall makes (tests/tools/pp-seccomp.c, --stack and --cost), a
# slower system call and nothing else.  compare must name the seccomp
# path (__seccomp_filter, the filters' JIT code under it) among the top
# three kernel functions gained, for every key it calls a regression,
# and for lat_syscall-null whatever its verdict (the untraced times of a
# loaded machine may hide a regression; its profile cannot hide the
# filters: their code runs on the new side alone).  A cost of about
# 1.6 us more CPU time a call on the development host, over a getppid()
# of 1.0-1.4 us, which a loaded machine's few samples still tell from
# the noise around them (another perfprobe's BPF probes on the same
# system call tracepoints cost 200-400 ns a call while they are armed,
# on either side).  Skipped, with the reason, where sampling, the kernel
# view or seccomp filters are not available.
. "$(dirname "$0")/tap.sh"
NTESTS=7
plan $NTESTS

SECCOMP=${PP_SECCOMP:-$(dirname "$PERFPROBE")/tests/pp-seccomp}
# lat_syscall's calls: null, read, write, stat and fstat (glibc's fstat()
# is newfstatat too), open (openat, close)
FILTERS=8
COST=560
SLOW=(--stack "$FILTERS")
for c in getppid read write newfstatat fstat openat close; do
	SLOW+=(--cost "$c=$COST")
done
R=$T_TMP/res
pp() { "$PERFPROBE" --results-dir "$R" "$@"; }

"$PERFPROBE" --json kernel-view status >"$T_TMP/kvs.json" 2>/dev/null
[ "$(jq -r .profile.available "$T_TMP/kvs.json")" = true ] ||
	skip_rest "no profile here: $(jq -r .profile.why "$T_TMP/kvs.json")"
[ "$(jq -r .backend "$T_TMP/kvs.json")" != null ] ||
	skip_rest "no kernel view backend here (perfprobe.ko, BPF)"
"$SECCOMP" "${SLOW[@]}" true 2>"$T_TMP/e" ||
	skip_rest "seccomp filters refused here: $(head -1 "$T_TMP/e")"

pp --profile-samples 200 --label base run lat_syscall >/dev/null 2>"$T_TMP/b.err"
ok $? "base: run lat_syscall exits 0$(grep -v '^perfprobe: \[' "$T_TMP/b.err" | tail -1 | sed 's/^/ /')"
"$SECCOMP" "${SLOW[@]}" -- "$PERFPROBE" --results-dir "$R" --profile-samples 200 --label seccomp run lat_syscall \
	>/dev/null 2>"$T_TMP/n.err"
ok $? "new: the same under $FILTERS seccomp filters, $COST instructions a call, exits 0$(grep -v '^perfprobe: \[' "$T_TMP/n.err" | tail -1 | sed 's/^/ /')"

pp --json compare --no-history base seccomp >"$T_TMP/cmp.json" 2>/dev/null
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 5 ]; echo $?) "compare exits 0 or 5 (got $rc)"
check "every lat_syscall key has a profile_delta: both sides have profiles" jq -e \
	'[.comparisons[0].results[] | select(.key | startswith("lat_syscall-"))] |
	 length == 6 and all(.profile_delta.functions | type == "array")' "$T_TMP/cmp.json"

# The seccomp path: __seccomp_filter, the filters' JIT code (kallsyms does
# not list classic BPF, and the kernel cannot unwind out of it: its path
# is often itself alone), or a function reached through them.
JQ_TOP3='def seccomp: (.name | test("seccomp|^\\[JIT code kallsyms does not list\\]$")) or
		(.path | test("__seccomp_filter|__secure_computing"));
	def top3: [.profile_delta.functions[] | select(.delta_ns_per_op > 0)] |
		sort_by(-.delta_ns_per_op) | .[:3];'
check "lat_syscall-null: the seccomp path among the top three functions gained" jq -e "$JQ_TOP3"'
	.comparisons[0].results[] | select(.key == "lat_syscall-null") | top3 | any(seccomp)' \
	"$T_TMP/cmp.json"
check "every key compare calls a regression: the seccomp path among its top three gained" \
	jq -e "$JQ_TOP3"'[.comparisons[0].results[] | select(.verdict == "regression")] |
	 all(top3 | any(seccomp))' "$T_TMP/cmp.json"
jq -r '.comparisons[0].results[] | select(.profile_delta) |
	"# \(.key): \(.verdict), \(.change_pct | round)%, kernel \(.profile_delta.kernel_delta_ns_per_op | round) ns/op of \(.profile_delta.op_delta_ns | round) (\(.profile_delta.base_samples), \(.profile_delta.new_samples) samples)",
	(.profile_delta.functions[] | "#   \(.delta_ns_per_op | round) ns/op in \(.path)")' "$T_TMP/cmp.json"

pp compare --no-history base seccomp >"$T_TMP/cmp.txt" 2>/dev/null
sed -n '/^lat_syscall-null /,/^lat_syscall-read /p' "$T_TMP/cmp.txt" | sed '$d; s/^/# /' | cut -c1-200
if jq -e '.comparisons[0].results[] | select(.key == "lat_syscall-null") | .verdict == "regression"' \
	"$T_TMP/cmp.json" >/dev/null; then
	# a frame: a symbol, or a bracketed name ("[JIT code kallsyms does
	# not list]", "[syscall exit, interrupts off]")
	F='([^ []+|\[[^]]*\])'
	check "text: lat_syscall-null's kernel profile lines, a function with its path" \
		grep -Eq "^      \\+[0-9.]+ [nu]s/op \\[[^]]*\\] in $F( <- $F)+\$" "$T_TMP/cmp.txt"
else
	skip "lat_syscall-null not a regression this time (the machine's noise): no text lines to check"
fi
done_testing
