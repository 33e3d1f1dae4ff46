// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: kernel-side helpers for an LMBench-style benchmark suite.
 *
 * Usage: insmod perfprobe.ko, then talk to the generic netlink family
 * "perfprobe" (include/uapi/linux/perfprobe.h) as a user with
 * CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN); human-readable state is in
 * /sys/kernel/debug/perfprobe/.  See Documentation/kmod.rst.
 *
 * This file holds module init/exit and the load-time measurements
 * reported by PERFPROBE_CMD_GET_INFO.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <asm/timex.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "perfprobe.h"

struct pp_info pp_info;

#define PP_COST_LOOPS		10000
#define PP_CALIB_MS		10

static void pp_measure_costs(void)
{
	u64 t0, t1, c0, c1;
	unsigned int i;

	t0 = ktime_get_ns();
	for (i = 0; i < PP_COST_LOOPS; i++)
		ktime_get_ns();
	t1 = ktime_get_ns();
	pp_info.ktime_cost_ps = div_u64((t1 - t0) * 1000, PP_COST_LOOPS);

	t0 = ktime_get_ns();
	for (i = 0; i < PP_COST_LOOPS; i++)
		get_cycles();
	t1 = ktime_get_ns();
	pp_info.cycles_cost_ps = div_u64((t1 - t0) * 1000, PP_COST_LOOPS);

	c0 = get_cycles();
	t0 = ktime_get_ns();
	if (!c0 && !get_cycles()) {
		pp_info.cycles_calib = PERFPROBE_CYCLES_CALIB_NONE;
		return;
	}
	pp_info.caps |= PERFPROBE_CAP_CYCLE_COUNTER;
#ifdef CONFIG_X86
	if (boot_cpu_has(X86_FEATURE_TSC) && tsc_khz) {
		pp_info.cycles_khz = tsc_khz;
		pp_info.cycles_calib = PERFPROBE_CYCLES_CALIB_TSC_KHZ;
		return;
	}
#endif
	msleep(PP_CALIB_MS);
	c1 = get_cycles();
	t1 = ktime_get_ns();
	if (t1 > t0 && c1 > c0) {
		/* cycles per ms = cycles * 10^6 / ns */
		pp_info.cycles_khz = mul_u64_u64_div_u64(c1 - c0, NSEC_PER_MSEC,
							 t1 - t0);
		pp_info.cycles_calib = PERFPROBE_CYCLES_CALIB_MEASURED;
	}
}

static void pp_detect(void)
{
	if (!pp_syscall_detect())
		pp_info.caps |= PERFPROBE_CAP_SYSCALL_TRACE;
	pp_pgfault_detect();
	pp_copyprobe_detect();
}

static int __init perfprobe_init(void)
{
	int err;

	pp_measure_costs();
	pp_detect();
	pp_debugfs_init();
	err = pp_genl_init();
	if (err)
		goto remove_debugfs;
	pr_debug("loaded, caps %#x\n", pp_info.caps);
	return 0;

remove_debugfs:
	pp_debugfs_exit();
	return err;
}

static void __exit perfprobe_exit(void)
{
	/* No new requests, and running ones have finished. */
	pp_genl_exit();
	/* No debugfs reader can look at the trace data any more. */
	pp_debugfs_exit();
	/* Disarm every probe, wait for handlers, free the buffers. */
	pp_trace_shutdown();
}

module_init(perfprobe_init);
module_exit(perfprobe_exit);

MODULE_DESCRIPTION("perfprobe: timer, user-copy and syscall/page-fault latency probes");
MODULE_AUTHOR("perfprobe developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(PERFPROBE_MODULE_VERSION);
