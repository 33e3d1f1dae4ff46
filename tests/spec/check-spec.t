#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-spec.py catches a mismatch: it passes on the tree, then on
# copies of the spec, the uapi header and kmod/ altered one way each it
# must fail with exactly one line naming that mismatch.
#
# scripts/genl-gen.py --check catches a stale or hand-edited
# kmod/genl-gen.[ch] (the generated policies and op table) with one line;
# and what it generates follows the spec: regenerated from an altered
# spec, the output has the change, and --check passes again.
. "$(dirname "$0")/../integration/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$ROOT/scripts/check-spec.py"
GEN="$ROOT/scripts/genl-gen.py"
SPEC=Documentation/netlink/specs/perfprobe.yaml
HDR=include/uapi/linux/perfprobe.h

plan 19

fresh() {
	rm -rf "$T_TMP/c" && mkdir -p "$T_TMP/c/kmod" &&
		cp "$ROOT/$SPEC" "$T_TMP/c/spec.yaml" && cp "$ROOT/$HDR" "$T_TMP/c/perfprobe.h" &&
		cp "$ROOT"/kmod/*.c "$ROOT"/kmod/*.h "$T_TMP/c/kmod/"
}
run_check() {
	"$CHECK" --spec "$T_TMP/c/spec.yaml" --header "$T_TMP/c/perfprobe.h" \
		--kmod "$T_TMP/c/kmod" >"$T_TMP/out" 2>"$T_TMP/err"
}
# mismatch DESCRIPTION EXPECTED-LINE-REGEX FILE PERL-EXPRESSION
mismatch() {
	fresh
	perl -0pi -e "$4" "$T_TMP/c/$3"
	if cmp -s "$T_TMP/c/$3" "$( [ "$3" = spec.yaml ] && echo "$ROOT/$SPEC" ||
		{ [ "$3" = perfprobe.h ] && echo "$ROOT/$HDR"; } || echo "$ROOT/$3")"; then
		ok 1 "$1: (the alteration did not apply)"
		return
	fi
	run_check
	rc=$?
	n=$(grep -c '^check-spec: ' "$T_TMP/out")
	ok $([ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -qE "$2" "$T_TMP/out"; echo $?) \
		"$1: exit 1 with one line (got $rc, $n lines)"
	[ "$rc" -eq 1 ] && [ "$n" -eq 1 ] || sed 's/^/# /' "$T_TMP/out"
}

fresh
run_check
ok $? "the tree matches its spec"

mismatch "a const changed in the spec" \
	'const hist-buckets: PERFPROBE_HIST_BUCKETS is 64, the spec says 32' \
	spec.yaml 's/(name: hist-buckets\n\s+value:) 64/$1 32/'
mismatch "an attribute added to the header only" \
	'enum perfprobe_attrs entry 36 is PERFPROBE_A_NEW = 36, the spec says nothing' \
	perfprobe.h 's/(\tPERFPROBE_A_SYSCALL,[^\n]*\n)/$1\tPERFPROBE_A_NEW,\t\t\/\* u32 \*\/\n/'
mismatch "an attribute's type comment in the header" \
	'PERFPROBE_A_COPY_SIZE: comment says type u32, the spec says u64' \
	perfprobe.h 's/(PERFPROBE_A_COPY_SIZE,\s+\/\*) u64/$1 u32/'
mismatch "an attribute put with the wrong type" \
	'PERFPROBE_A_TRACE_TGID put with nla_put_u8 \(u8\), the spec says u32' \
	kmod/genl.c 's/nla_put_u32\(msg, PERFPROBE_A_TRACE_TGID/nla_put_u8(msg, PERFPROBE_A_TRACE_TGID/'
mismatch "the reserved clocksource sent again" \
	'PERFPROBE_A_CLOCKSOURCE is put, but the spec has it unused' \
	kmod/genl.c 's/(\t    nla_put_string\(msg, PERFPROBE_A_MODULE_VERSION,)/\t    nla_put_string(msg, PERFPROBE_A_CLOCKSOURCE, "tsc") ||\n$1/'
mismatch "the family's version not the spec's" \
	'genl_family \.version is 2, expected PERFPROBE_GENL_VERSION' \
	kmod/genl.c 's/(\.version\t= )PERFPROBE_GENL_VERSION/${1}2/'
mismatch "a command renumbered in the header" \
	'enum perfprobe_cmd entry 6 is PERFPROBE_CMD_TRACE_GET = 7, the spec says PERFPROBE_CMD_TRACE_GET = 6' \
	perfprobe.h 's/\tPERFPROBE_CMD_TRACE_GET,/\tPERFPROBE_CMD_TRACE_GET = 7,/'

gen_check() {
	"$GEN" --check --spec "$T_TMP/c/spec.yaml" --out "$T_TMP/c/kmod" \
		>"$T_TMP/out" 2>"$T_TMP/err"
}
# stale DESCRIPTION FILE PERL-EXPRESSION: --check fails with one line
# naming the stale file(s)
stale() {
	fresh
	perl -0pi -e "$3" "$T_TMP/c/$2"
	gen_check
	rc=$?
	n=$(wc -l <"$T_TMP/out")
	ok $([ "$rc" -eq 1 ] && [ "$n" -eq 1 ] &&
		grep -qE '^genl-gen: .*kmod/genl-gen\.[ch].* stale or edited: .*run make genl-gen$' \
			"$T_TMP/out"; echo $?) \
		"$1: --check exits 1 with one line (got $rc, $n lines)"
	[ "$rc" -eq 1 ] && [ "$n" -eq 1 ] || sed 's/^/# /' "$T_TMP/out" "$T_TMP/err"
}
# regen DESCRIPTION GENERATED-FILE REGEX-THAT-MUST-MATCH-IT: after the
# alteration of the spec that stale() made, regenerate into the copy;
# the output must show the change and --check must pass on it
regen() {
	"$GEN" --spec "$T_TMP/c/spec.yaml" --out "$T_TMP/c/kmod" &&
		perl -0ne "exit(/$3/ ? 0 : 1)" "$T_TMP/c/kmod/$2" && gen_check
	ok $? "$1"
}

fresh
gen_check
ok $? "kmod/genl-gen.[ch] are what the spec generates"

stale "GENL_ADMIN_PERM deleted by hand in genl-gen.c" kmod/genl-gen.c \
	's/(PERFPROBE_CMD_TIMER,\n)\t\t\.flags\t\t= GENL_ADMIN_PERM,\n/$1/'
stale "a policy bound edited by hand in genl-gen.c" kmod/genl-gen.c \
	's/NLA_POLICY_MIN\(NLA_U32, 1\)/NLA_POLICY_MIN(NLA_U32, 2)/'
stale "a prototype edited by hand in genl-gen.h" kmod/genl-gen.h \
	's/int perfprobe_nl_copy_doit/long perfprobe_nl_copy_doit/'

stale "admin-perm dropped from the spec, not regenerated" spec.yaml \
	's/(name: timer\n(?:.*\n)*?      flags: )\[ admin-perm \]/$1\[\]/'
regen "regenerated: the timer op has no GENL_ADMIN_PERM, the others do" genl-gen.c \
	'PERFPROBE_CMD_TIMER,\n\t\t\.doit(?s:.*)PERFPROBE_CMD_COPY,\n\t\t\.flags\t\t= GENL_ADMIN_PERM'
stale "a range changed in the spec, not regenerated" spec.yaml \
	's/(name: trace-tgid\n\s+type: u32\n\s+checks:\n\s+min:) 1/$1 2/'
regen "regenerated: the policy has the spec's new bound" genl-gen.c \
	'\[PERFPROBE_A_TRACE_TGID\] = NLA_POLICY_MIN\(NLA_U32, 2\)'
stale "a dump dropped from the spec, not regenerated" spec.yaml \
	's/\n      dump:\n        reply:\n(          .*\n)+//'
regen "regenerated: no .dumpit and no dumpit prototype" genl-gen.h \
	'\A(?!(?s:.*)perfprobe_nl_trace_get_dumpit)'

fresh
perl -0pi -e 's/(            - timer-count\n)(        reply:)/$1            - stats\n$2/' \
	"$T_TMP/c/spec.yaml"
gen_check
rc=$?
ok $([ "$rc" -eq 2 ] && grep -q 'type nest is not supported in a request' "$T_TMP/err"
	echo $?) "a request the generator cannot express is an error (got $rc)"
done_testing
