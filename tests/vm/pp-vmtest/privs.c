// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: who may drive the module.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

/*
 * Requests with invalid attributes: a caller without CAP_NET_ADMIN must
 * get -EPERM from the core before any attribute is looked at (with
 * CAP_NET_ADMIN they would be -ERANGE/-EINVAL).
 */
static void privs_invalid(struct ppnl *p, const char *who)
{
	static const struct {
		const char *name;
		int cmd;
		struct aspec attrs[4];
	} cases[] = {
		{ "TIMER with period 1 ns (out of range)", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END } },
		{ "COPY with an unknown attribute", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_MAX + 1, 4, 0), END } },
		{ "COPY with a u64 attribute of 4 bytes", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_SIZE, 4, 1), END } },
		{ "TRACE_START with tgid 0 and unknown features", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0), A(PERFPROBE_A_TRACE_FEATURES, 4, 1U << 31), END } },
	};
	char name[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "%s: %s is refused before parsing", who, cases[i].name);
		expect_case(p, name, cases[i].cmd, 0, cases[i].attrs, -EPERM, true);
	}
}

/*
 * --expect-eperm: no capability; --perfmon: CAP_PERFMON only;
 * --net-admin: CAP_NET_ADMIN only; --allowed: CAP_NET_ADMIN + CAP_PERFMON.
 * Only --allowed may use the module (Documentation/kmod.rst).
 */
int cmd_privs(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "--expect-eperm";
	bool allowed = !strcmp(mode, "--allowed");
	bool net_admin = allowed || !strcmp(mode, "--net-admin");
	bool perfmon = allowed || !strcmp(mode, "--perfmon");
	uint8_t *buf = map_guarded(PAGE);
	struct copy_req q = { PERFPROBE_COPY_TO_USER, (uintptr_t)buf, 256, 256, -1, -1 };
	struct copy_res c;
	struct timer_res tr;
	struct info in;
	struct trace t;
	struct ppnl_reply r;
	struct ppnl p;
	uid_t uid = getuid();

	tap_diag("running as uid %u gid %u, CAP_SYS_ADMIN %d, CAP_NET_ADMIN %d, CAP_PERFMON %d", uid,
	     getgid(), have_cap(CAP_SYS_ADMIN), have_cap(CAP_NET_ADMIN), have_cap(CAP_PERFMON));
	if (open_or_fail(&p))
		return 1;
	memset(buf, CANARY, 256);
	if (!allowed) {
		const char *who = !net_admin && !perfmon ? "unprivileged user" :
				  perfmon ? "user with only CAP_PERFMON" :
				  "user with only CAP_NET_ADMIN";
		size_t bad;

		tap_ok(uid != 0 && !have_cap(CAP_SYS_ADMIN) && have_cap(CAP_NET_ADMIN) == net_admin &&
		    have_cap(CAP_PERFMON) == perfmon && !privileged(),
		    "%s: capability set is as intended", who);
#define EXPECT_EPERM(what) do { \
		report(what, &r); \
		tap_ok(r.err == -EPERM && (!net_admin || has_ext(&r)), \
		    "%s: %s is refused: %s%s (expected -EPERM%s)", who, what, errname(r.err), \
		    has_ext(&r) ? " with extack" : "", net_admin ? " with extack" : ""); \
	} while (0)
		pp_get_info(&p, &in, &r);
		EXPECT_EPERM("GET_INFO");
		pp_timer(&p, 100000, 10, &tr, &r);
		EXPECT_EPERM("TIMER");
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY to_user");
		tap_ok(bytes_are(buf, 256, CANARY, &bad), "%s: refused COPY to_user wrote nothing", who);
		q.dir = PERFPROBE_COPY_FROM_USER;
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY from_user");
		q.dir = PERFPROBE_COPY_CLEAR_USER;
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY clear_user");
		tap_ok(bytes_are(buf, 256, CANARY, &bad), "%s: refused COPY clear_user wrote nothing", who);
		pp_trace_start(&p, getpid(), -1, NULL, &r);
		EXPECT_EPERM("TRACE_START (own process)");
		pp_trace_start(&p, 1, -1, NULL, &r);
		EXPECT_EPERM("TRACE_START (init)");
		pp_trace_stop(&p, &r);
		EXPECT_EPERM("TRACE_STOP");
		pp_trace_get(&p, false, &t, &r);
		EXPECT_EPERM("TRACE_GET");
		pp_trace_get(&p, true, &t, &r);
		EXPECT_EPERM("TRACE_GET dump");
#undef EXPECT_EPERM
		if (!net_admin)
			privs_invalid(&p, who);
	} else {
		const char *who = "user with CAP_NET_ADMIN and CAP_PERFMON";
		uint32_t en;

		tap_ok(uid != 0 && privileged() && !have_cap(CAP_SYS_ADMIN),
		    "%s: capability set is as intended", who);
		pp_get_info(&p, &in, &r);
		report("GET_INFO", &r);
		tap_ok(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION, "%s: GET_INFO works", who);
		pp_copy(&p, &q, &c, &r);
		report("COPY", &r);
		tap_ok(r.err == 0 && buf[255] == PERFPROBE_COPY_PATTERN(255), "%s: COPY to_user works", who);
		pp_trace_start(&p, getpid(), -1, &en, &r);
		report("TRACE_START", &r);
		tap_ok(r.err == 0, "%s: TRACE_START on the own process works", who);
		for (int i = 0; i < 10; i++)
			syscall(SYS_getppid);
		pp_trace_stop(&p, &r);
		report("TRACE_STOP", &r);
		tap_ok(r.err == 0, "%s: TRACE_STOP works", who);
		pp_trace_get(&p, true, &t, &r);
		report("TRACE_GET", &r);
		tap_ok(r.err == 0, "%s: TRACE_GET works", who);
	}
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
