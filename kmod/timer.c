// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: hrtimer expiry lateness.
 *
 * A hard-irq CLOCK_MONOTONIC hrtimer is armed `count` times, each time
 * `period` after the previous expiry was handled; the callback records
 * (now - programmed expiry).  The caller sleeps on a completion (killable)
 * meanwhile; count * period is capped at PERFPROBE_TIMER_MAX_TOTAL_NS.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/netlink.h>
#include <linux/slab.h>

#include "perfprobe.h"

struct pp_timer_run {
	struct hrtimer timer;
	struct completion done;
	ktime_t period;
	u32 left;
	struct pp_stat stat;
};

static enum hrtimer_restart pp_timer_fn(struct hrtimer *t)
{
	struct pp_timer_run *run = container_of(t, struct pp_timer_run, timer);
	ktime_t now = ktime_get();
	s64 late = ktime_to_ns(ktime_sub(now, hrtimer_get_expires(t)));

	pp_stat_add(&run->stat, late > 0 ? late : 0);
	if (--run->left == 0) {
		complete(&run->done);
		return HRTIMER_NORESTART;
	}
	hrtimer_set_expires(t, ktime_add(now, run->period));
	return HRTIMER_RESTART;
}

int pp_timer_run(u64 period_ns, u32 count, struct pp_stat *out,
		 struct netlink_ext_ack *extack)
{
	struct pp_timer_run *run;
	unsigned long timeout;
	long left;
	int err = 0;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		NL_SET_ERR_MSG(extack, "out of memory");
		return -ENOMEM;
	}
	init_completion(&run->done);
	run->period = ns_to_ktime(period_ns);
	run->left = count;
	/* generous watchdog: the whole run plus one second */
	timeout = nsecs_to_jiffies(period_ns * count) + HZ;

	hrtimer_init(&run->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	run->timer.function = pp_timer_fn;
	hrtimer_start(&run->timer, ktime_add(ktime_get(), run->period),
		      HRTIMER_MODE_ABS_HARD);

	left = wait_for_completion_killable_timeout(&run->done, timeout);
	/*
	 * Always cancel: even after complete() the hrtimer core still
	 * touches the timer until the callback has returned, and on a
	 * signal or the watchdog the timer may still be queued.
	 */
	hrtimer_cancel(&run->timer);
	if (left < 0) {
		NL_SET_ERR_MSG(extack, "interrupted by a fatal signal");
		err = -EINTR;
	} else if (!left && !completion_done(&run->done)) {
		NL_SET_ERR_MSG(extack, "timer did not complete in time");
		err = -ETIMEDOUT;
	}
	if (!err)
		*out = run->stat;
	kfree(run);
	return err;
}
