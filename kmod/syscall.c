// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: per-syscall latency of one thread group, from the
 * raw_syscalls:sys_enter / raw_syscalls:sys_exit tracepoints.
 *
 * A thread can be preempted and migrate between sys_enter and sys_exit,
 * so the enter timestamp cannot live in per-CPU data.  It is kept in a
 * small open-addressed table (struct pp_slot) keyed by the global tid:
 * sys_enter claims a slot with cmpxchg, sys_exit reads and frees it.  A
 * slot is only ever written by the thread that owns it, so no further
 * locking is needed.  Results go to the CPU running sys_exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/hash.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "perfprobe.h"

static struct tracepoint *pp_tp_sys_enter;
static struct tracepoint *pp_tp_sys_exit;

static void pp_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		pp_tp_sys_enter = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		pp_tp_sys_exit = tp;
}

static void pp_count_dropped(struct pp_trace_data *d)
{
	preempt_disable_notrace();
	pp_this_cpu(d)->dropped++;
	preempt_enable_notrace();
}

static struct pp_slot *pp_slot_claim(struct pp_trace_data *d, int tid)
{
	u32 h = hash_32(tid, ilog2(PP_SLOTS));
	struct pp_slot *s;
	unsigned int i;

	s = pp_slot_find(d, tid);	/* stale slot of this tid: reuse */
	if (s)
		return s;
	for (i = 0; i < PP_SLOT_PROBES; i++) {
		s = &d->slots[(h + i) & (PP_SLOTS - 1)];
		if (atomic_cmpxchg(&s->tid, 0, tid) == 0)
			return s;
	}
	return NULL;
}

static void pp_sys_enter(void *ignore, struct pt_regs *regs, long id)
{
	struct pp_trace_data *d = pp_trace_current();
	struct pp_slot *s;

	if (!d)
		return;
	/* exit and exit_group never reach sys_exit: do not hold a slot. */
	if (id == __NR_exit || id == __NR_exit_group)
		return;
	if (id < 0 || id >= NR_syscalls || in_compat_syscall()) {
		pp_count_dropped(d);
		return;
	}
	s = pp_slot_claim(d, current->pid);
	if (!s) {
		pp_count_dropped(d);
		return;
	}
	s->nr = id;
	s->ucopy_calls = 0;
	s->ucopy_bytes = 0;
	s->enter_ns = ktime_get_ns();
}

static void pp_sys_exit(void *ignore, struct pt_regs *regs, long ret)
{
	struct pp_trace_data *d = pp_trace_current();
	struct pp_trace_cpu *c;
	struct pp_sys_stat *ss;
	struct pp_slot *s;
	u64 now;

	if (!d)
		return;
	now = ktime_get_ns();
	s = pp_slot_find(d, current->pid);
	if (!s) {
		/* in flight when the trace started, or not timed at entry */
		if (!in_compat_syscall())
			pp_count_dropped(d);
		return;
	}
	preempt_disable_notrace();
	c = pp_this_cpu(d);
	ss = &c->sys[s->nr];
	pp_stat_add(&ss->st, now - s->enter_ns);
	ss->ucopy_calls += s->ucopy_calls;
	ss->ucopy_bytes += s->ucopy_bytes;
	preempt_enable_notrace();
	atomic_set_release(&s->tid, 0);
}

int pp_syscall_detect(void)
{
	for_each_kernel_tracepoint(pp_find_tp, NULL);
	return pp_tp_sys_enter && pp_tp_sys_exit ? 0 : -ENOENT;
}

int pp_syscall_register(void)
{
	int err;

	err = tracepoint_probe_register(pp_tp_sys_enter, (void *)pp_sys_enter,
					NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(pp_tp_sys_exit, (void *)pp_sys_exit,
					NULL);
	if (err)
		goto unregister_enter;
	return 0;

unregister_enter:
	tracepoint_probe_unregister(pp_tp_sys_enter, (void *)pp_sys_enter, NULL);
	return err;
}

/* The caller runs tracepoint_synchronize_unregister() afterwards. */
void pp_syscall_unregister(void)
{
	tracepoint_probe_unregister(pp_tp_sys_exit, (void *)pp_sys_exit, NULL);
	tracepoint_probe_unregister(pp_tp_sys_enter, (void *)pp_sys_enter, NULL);
}
