// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: life cycle of the (single, system-wide) trace.
 *
 * TRACE_START allocates fresh result buffers, publishes them, then arms
 * the probes.  TRACE_STOP (or the owner's socket closing, or rmmod)
 * disarms every probe and waits until no handler can still be running
 * before the trace is reported as stopped.  Result buffers are freed only
 * when a new trace replaces them or the module is unloaded, both with no
 * probe armed.  All of this is serialised by pp_trace.lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "perfprobe.h"

struct pp_trace pp_trace = {
	.lock = __MUTEX_INITIALIZER(pp_trace.lock),
};

struct pp_slot *pp_slot_find(struct pp_trace_data *d, int tid)
{
	u32 h = hash_32(tid, ilog2(PP_SLOTS));
	unsigned int i;

	for (i = 0; i < PP_SLOT_PROBES; i++) {
		struct pp_slot *s = &d->slots[(h + i) & (PP_SLOTS - 1)];

		if (atomic_read(&s->tid) == tid)
			return s;
	}
	return NULL;
}

static void pp_trace_data_free(struct pp_trace_data *d)
{
	unsigned int cpu;

	if (!d)
		return;
	for_each_possible_cpu(cpu)
		kvfree(d->cpu[cpu]);
	kvfree(d);
}

static struct pp_trace_data *pp_trace_data_alloc(void)
{
	struct pp_trace_data *d;
	unsigned int cpu;

	d = kvzalloc(struct_size(d, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!d)
		return NULL;
	for_each_possible_cpu(cpu) {
		d->cpu[cpu] = kvzalloc_node(sizeof(*d->cpu[cpu]), GFP_KERNEL,
					    cpu_to_node(cpu));
		if (!d->cpu[cpu])
			goto free_data;
	}
	return d;

free_data:
	pp_trace_data_free(d);
	return NULL;
}

static void pp_trace_disarm(u32 features)
{
	if (features & PERFPROBE_CAP_COPY_KPROBES)
		pp_copyprobe_unregister();
	pp_pgfault_unregister(features, &pp_trace.pf_missed);
	if (features & PERFPROBE_CAP_SYSCALL_TRACE)
		pp_syscall_unregister();
	/*
	 * unregister_kprobe()/unregister_kretprobe() already waited for
	 * running handlers; this waits for tracepoint probes (SRCU and
	 * sched-RCU readers) so that nothing can touch pp_trace.data or run
	 * module text once we return.
	 */
	tracepoint_synchronize_unregister();
}

static int pp_trace_arm(u32 features, struct netlink_ext_ack *extack)
{
	int err;

	if (features & PERFPROBE_CAP_SYSCALL_TRACE) {
		err = pp_syscall_register();
		if (err) {
			NL_SET_ERR_MSG(extack, "cannot register raw_syscalls probes");
			return err;
		}
	}
	err = pp_pgfault_register(features);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot register page-fault probes");
		goto unregister_syscall;
	}
	if (features & PERFPROBE_CAP_COPY_KPROBES) {
		err = pp_copyprobe_register();
		if (err) {
			NL_SET_ERR_MSG(extack, "cannot register user-copy kprobes");
			goto unregister_pgfault;
		}
	}
	return 0;

unregister_pgfault:
	pp_pgfault_unregister(features, &pp_trace.pf_missed);
unregister_syscall:
	if (features & PERFPROBE_CAP_SYSCALL_TRACE)
		pp_syscall_unregister();
	tracepoint_synchronize_unregister();
	return err;
}

/* A reference to thread group tgid's pid, or NULL when there is none. */
static struct pid *pp_trace_get_pid(u32 tgid)
{
	struct pid *pid;

	rcu_read_lock();
	pid = find_vpid(tgid);
	if (pid && pid_task(pid, PIDTYPE_TGID))
		get_pid(pid);
	else
		pid = NULL;
	rcu_read_unlock();
	return pid;
}

/* The new trace's data and settings, then its pid, which enables the handlers. */
static void pp_trace_publish(struct pp_trace_data *d, struct pid *pid, u32 tgid,
			     u32 features, u32 portid)
{
	lockdep_assert_held(&pp_trace.lock);
	/* No probe is armed: nobody can look at the old data any more. */
	pp_trace_data_free(pp_trace.data);
	WRITE_ONCE(pp_trace.data, d);
	pp_trace.gen++;
	pp_trace.tgid = tgid;
	pp_trace.features = features;
	WRITE_ONCE(pp_trace.owner_portid, portid);
	pp_trace.pf_missed = 0;
	pp_trace.start_ns = ktime_get_ns();
	pp_trace.stop_ns = 0;
	/*
	 * Publish data before the pid that enables the handlers; pairs with
	 * smp_load_acquire() in pp_trace_current().
	 */
	smp_store_release(&pp_trace.pid, pid);
}

int pp_trace_start(u32 tgid, u32 features, u32 portid,
		   struct netlink_ext_ack *extack)
{
	struct pp_trace_data *d;
	struct pid *pid;
	int err;

	mutex_lock(&pp_trace.lock);
	if (pp_trace.active) {
		NL_SET_ERR_MSG(extack, "a trace is already active");
		err = -EBUSY;
		goto unlock;
	}

	pid = pp_trace_get_pid(tgid);
	if (!pid) {
		NL_SET_ERR_MSG(extack, "no thread group with that tgid");
		err = -ESRCH;
		goto unlock;
	}

	d = pp_trace_data_alloc();
	if (!d) {
		NL_SET_ERR_MSG(extack, "cannot allocate trace buffers");
		err = -ENOMEM;
		goto put_pid;
	}

	pp_trace_publish(d, pid, tgid, features, portid);
	err = pp_trace_arm(features, extack);
	if (err)
		goto unpublish_pid;

	WRITE_ONCE(pp_trace.active, true);
	mutex_unlock(&pp_trace.lock);
	pr_debug("trace started: tgid %u features %#x portid %u\n",
		 tgid, features, portid);
	return 0;

unpublish_pid:
	WRITE_ONCE(pp_trace.pid, NULL);
	pp_trace.stop_ns = ktime_get_ns();
put_pid:
	put_pid(pid);
unlock:
	mutex_unlock(&pp_trace.lock);
	return err;
}

static void pp_trace_stop_locked(void)
{
	struct pid *pid = pp_trace.pid;

	lockdep_assert_held(&pp_trace.lock);
	/* Handlers that still run until disarmed see "not traced". */
	WRITE_ONCE(pp_trace.pid, NULL);
	pp_trace_disarm(pp_trace.features);
	put_pid(pid);
	pp_trace.stop_ns = ktime_get_ns();
	WRITE_ONCE(pp_trace.active, false);
	pr_debug("trace stopped\n");
}

int pp_trace_stop(u32 portid, struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&pp_trace.lock);
	if (!pp_trace.active) {
		NL_SET_ERR_MSG(extack, "no trace is active");
		err = -ENOENT;
	} else if (pp_trace.owner_portid != portid) {
		NL_SET_ERR_MSG(extack, "the trace belongs to another socket");
		err = -EBUSY;
	} else {
		pp_trace_stop_locked();
	}
	mutex_unlock(&pp_trace.lock);
	return err;
}

/* The netlink socket @portid was released. */
void pp_trace_owner_gone(u32 portid)
{
	/* Called for every generic netlink socket: avoid the mutex. */
	if (!READ_ONCE(pp_trace.active) ||
	    READ_ONCE(pp_trace.owner_portid) != portid)
		return;
	mutex_lock(&pp_trace.lock);
	if (pp_trace.active && pp_trace.owner_portid == portid)
		pp_trace_stop_locked();
	mutex_unlock(&pp_trace.lock);
}

/* Module unload: nobody can send requests any more. */
void pp_trace_shutdown(void)
{
	mutex_lock(&pp_trace.lock);
	if (pp_trace.active)
		pp_trace_stop_locked();
	pp_trace_data_free(pp_trace.data);
	WRITE_ONCE(pp_trace.data, NULL);
	mutex_unlock(&pp_trace.lock);
}

void pp_trace_summary_locked(struct pp_trace_summary *s)
{
	struct pp_trace_data *d = pp_trace.data;
	unsigned int cpu;

	lockdep_assert_held(&pp_trace.lock);
	memset(s, 0, sizeof(*s));
	s->active = pp_trace.active;
	s->tgid = pp_trace.tgid;
	s->features = pp_trace.features;
	s->duration_ns = (pp_trace.active ? ktime_get_ns() : pp_trace.stop_ns) -
			 pp_trace.start_ns;
	s->pf_missed = pp_trace.pf_missed;
	for_each_possible_cpu(cpu) {
		const struct pp_trace_cpu *c = d->cpu[cpu];

		s->dropped += READ_ONCE(c->dropped);
		s->pf_retry += READ_ONCE(c->pf_retry);
		s->pf_error += READ_ONCE(c->pf_error);
		s->pf_tp += READ_ONCE(c->pf_tp);
		s->ucopy_calls += READ_ONCE(c->ucopy_calls);
		s->ucopy_bytes += READ_ONCE(c->ucopy_bytes);
		pp_stat_merge(&s->pf_minor, &c->pf_minor);
		pp_stat_merge(&s->pf_major, &c->pf_major);
	}
}

void pp_trace_syscall_locked(unsigned int nr, struct pp_sys_stat *out)
{
	struct pp_trace_data *d = pp_trace.data;
	unsigned int cpu;

	lockdep_assert_held(&pp_trace.lock);
	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct pp_sys_stat *c = &d->cpu[cpu]->sys[nr];

		pp_stat_merge(&out->st, &c->st);
		out->ucopy_calls += READ_ONCE(c->ucopy_calls);
		out->ucopy_bytes += READ_ONCE(c->ucopy_bytes);
	}
}
