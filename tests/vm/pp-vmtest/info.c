// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: GET_INFO and TIMER.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

int cmd_info(int argc, char **argv)
{
	bool expect_idle = argc > 1 && !strcmp(argv[1], "--expect-idle");
	struct ppnl_reply r;
	struct info in;
	struct ppnl p;
	int e = pp_open(&p);

	if (e) {
		if (!tap_quiet())
			tap_ok(false, "GET_INFO: resolve family '%s': %s",
			    PERFPROBE_GENL_NAME, strerror(-e));
		return e == -ENOENT ? 2 : 1;
	}
	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	tap_ok(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
	    "GET_INFO answers with ABI version %u (expected %u)", in.abi,
	    PERFPROBE_GENL_VERSION);
	if (r.err == 0) {
		tap_diag("module %s, clock res %" PRIu64
		     " ns, ktime cost %" PRIu64 " ps, cycles %" PRIu64
		     " kHz (calib %u, cost %" PRIu64 " ps)",
		     in.modver, in.clock_res, in.ktime_cost,
		     in.cycles_khz, in.cycles_calib, in.cycles_cost);
		tap_diag("caps 0x%x:%s%s%s%s%s, syscall_max %u", in.caps,
		     in.caps & PERFPROBE_CAP_SYSCALL_TRACE ? " syscall-trace" : "",
		     in.caps & PERFPROBE_CAP_PGFAULT_KRETPROBE ? " pgfault-kretprobe" : "",
		     in.caps & PERFPROBE_CAP_PGFAULT_TP ? " pgfault-tp" : "",
		     in.caps & PERFPROBE_CAP_COPY_KPROBES ? " copy-kprobes" : "",
		     in.caps & PERFPROBE_CAP_CYCLE_COUNTER ? " cycle-counter" : "",
		     in.syscall_max);
		tap_diag("copy symbols (%d): %s%s%s", in.ncopy, in.copy_syms,
		     in.copy_reason[0] ? "; copy reason: " : "", in.copy_reason);
		if (in.pgfault_reason[0])
			tap_diag("pgfault reason: %s", in.pgfault_reason);
		if (expect_idle)
			tap_ok(!in.trace_active,
			    "no trace left active (TRACE_ACTIVE=%d, tgid %u)",
			    in.trace_active, in.trace_tgid);
	}
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}

/* ---------------------------------------------------------- test: timer */

int cmd_timer(int argc, char **argv)
{
	struct timer_res t;
	struct ppnl_reply r;
	struct ppnl p;
	const char *why;

	if (open_or_fail(&p))
		return 1;
	pp_timer(&p, 100000, 50, &t, &r);
	report("TIMER 100us x 50", &r);
	why = r.err ? errname(r.err) : t.count != 50 ? "wrong count" :
	      t.period != 100000 ? "wrong period" : stats_bad(&t.st);
	if (!why && t.st.count != 50)
		why = "stats count != 50";
	tap_ok(!why, "TIMER 100 us x 50 measures 50 expiries with consistent stats%s%s",
	    why ? ": " : "", why ? why : "");
	if (r.err == 0)
		tap_diag("timer lateness: min %" PRIu64 " mean %" PRIu64 " max %"
		     PRIu64 " ns, %d buckets", t.st.min, t.st.mean, t.st.max,
		     t.st.nbuckets);
	/* period * count exactly at PERFPROBE_TIMER_MAX_TOTAL_NS is allowed */
	pp_timer(&p, PERFPROBE_TIMER_MAX_TOTAL_NS / 10, 10, &t, &r);
	report("TIMER at the total limit", &r);
	tap_ok(r.err == 0 && t.count == 10,
	    "TIMER period * count == PERFPROBE_TIMER_MAX_TOTAL_NS (%llu ms) is accepted: %s",
	    PERFPROBE_TIMER_MAX_TOTAL_NS / 1000000, errname(r.err));
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
