// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: page-fault latency of one thread group.
 *
 * A kretprobe on handle_mm_fault(): the entry handler filters on the
 * traced thread group and stores ktime_get_ns() in the instance data; the
 * return handler classifies the vm_fault_t result (error, retry/completed,
 * VM_FAULT_MAJOR, else minor) and records the latency on the local CPU.
 * handle_mm_fault() is also reached from get_user_pages() (e.g. ptrace,
 * process_vm_readv, O_DIRECT), which is counted as well.
 *
 * Where it exists (x86), the exceptions:page_fault_user tracepoint is
 * counted too: it fires for every user-mode #PF, before handle_mm_fault.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm_types.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "perfprobe.h"

struct pp_fault_data {
	u64 start_ns;
};

static struct tracepoint *pp_tp_pf_user;
static struct kretprobe pp_fault_krp;

static void pp_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "page_fault_user"))
		pp_tp_pf_user = tp;
}

static int pp_fault_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct pp_fault_data *fd = (struct pp_fault_data *)ri->data;

	if (!pp_trace_current())
		return 1;	/* not traced: no return probe */
	fd->start_ns = ktime_get_ns();
	return 0;
}

static int pp_fault_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct pp_fault_data *fd = (struct pp_fault_data *)ri->data;
	vm_fault_t ret = (__force vm_fault_t)regs_return_value(regs);
	u64 ns = ktime_get_ns() - fd->start_ns;
	struct pp_trace_data *d;
	struct pp_trace_cpu *c;

	/* The trace may have stopped while this fault was in flight. */
	d = pp_trace_current();
	if (!d)
		return 0;
	c = pp_this_cpu(d);	/* rethook handlers run with preemption off */
	if (ret & VM_FAULT_ERROR)
		c->pf_error++;
	else if (ret & (VM_FAULT_RETRY | VM_FAULT_COMPLETED))
		c->pf_retry++;
	else if (ret & VM_FAULT_MAJOR)
		pp_stat_add(&c->pf_major, ns);
	else
		pp_stat_add(&c->pf_minor, ns);
	return 0;
}

static void pp_pf_user(void *ignore, unsigned long address,
		       struct pt_regs *regs, unsigned long error_code)
{
	struct pp_trace_data *d = pp_trace_current();

	if (!d)
		return;
	preempt_disable_notrace();
	pp_this_cpu(d)->pf_tp++;
	preempt_enable_notrace();
}

static void pp_fault_krp_init(void)
{
	/* A kretprobe must be reinitialised before it is registered again. */
	memset(&pp_fault_krp, 0, sizeof(pp_fault_krp));
	pp_fault_krp.kp.symbol_name = "handle_mm_fault";
	pp_fault_krp.entry_handler = pp_fault_entry;
	pp_fault_krp.handler = pp_fault_return;
	pp_fault_krp.data_size = sizeof(struct pp_fault_data);
	/* Faults sleep (major faults do I/O): allow many in flight. */
	pp_fault_krp.maxactive = max_t(int, 64, 8 * num_possible_cpus());
}

int pp_pgfault_detect(void)
{
	int err;

	for_each_kernel_tracepoint(pp_find_tp, NULL);
	if (pp_tp_pf_user)
		pp_info.caps |= PERFPROBE_CAP_PGFAULT_TP;

	/* Register disabled and unregister: proves the symbol is probeable. */
	pp_fault_krp_init();
	pp_fault_krp.kp.flags = KPROBE_FLAG_DISABLED;
	err = register_kretprobe(&pp_fault_krp);
	if (err) {
		pp_info.pgfault_reason = err == -ENOENT ?
			"handle_mm_fault not found" :
			"handle_mm_fault cannot be kretprobed";
		pr_debug("kretprobe on handle_mm_fault: %d\n", err);
		return err;
	}
	unregister_kretprobe(&pp_fault_krp);
	pp_info.caps |= PERFPROBE_CAP_PGFAULT_KRETPROBE;
	return 0;
}

int pp_pgfault_register(u32 features)
{
	int err;

	if (features & PERFPROBE_CAP_PGFAULT_KRETPROBE) {
		pp_fault_krp_init();
		err = register_kretprobe(&pp_fault_krp);
		if (err)
			return err;
	}
	if (features & PERFPROBE_CAP_PGFAULT_TP) {
		err = tracepoint_probe_register(pp_tp_pf_user,
						(void *)pp_pf_user, NULL);
		if (err)
			goto unregister_krp;
	}
	return 0;

unregister_krp:
	if (features & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		unregister_kretprobe(&pp_fault_krp);
	return err;
}

/*
 * unregister_kretprobe() stops the rethook and waits for an RCU grace
 * period; return trampolines run their handlers with preemption disabled
 * and skip stopped rethooks, so after it returns no handler of ours runs,
 * even for faults still in flight.  The caller synchronises tracepoints.
 */
void pp_pgfault_unregister(u32 features, u64 *missed)
{
	if (features & PERFPROBE_CAP_PGFAULT_TP)
		tracepoint_probe_unregister(pp_tp_pf_user, (void *)pp_pf_user,
					    NULL);
	if (features & PERFPROBE_CAP_PGFAULT_KRETPROBE) {
		unregister_kretprobe(&pp_fault_krp);
		*missed = pp_fault_krp.nmissed;
	}
}
