/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe: internal interfaces shared by the module's compilation units.
 */
#ifndef _PERFPROBE_INTERNAL_H
#define _PERFPROBE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/types.h>
#include <asm/unistd.h>
#include <uapi/linux/perfprobe.h>

#include "stats.h"

#define PERFPROBE_MODULE_VERSION	"1.1"

struct netlink_ext_ack;
struct pid;

/* ---- main.c: facts measured once at load time ---- */
struct pp_info {
	u64 ktime_cost_ps;
	u64 cycles_cost_ps;
	u64 cycles_khz;
	u32 cycles_calib;		/* enum perfprobe_cycles_calib */
	u32 caps;			/* enum perfprobe_caps */
	const char *pgfault_reason;	/* NULL if the kretprobe works */
	const char *copy_reason;	/* NULL if >= 1 copy symbol works */
};

extern struct pp_info pp_info;

/* ---- trace.c: the single system-wide trace ---- */

/* Per-thread "in a syscall" state, see Documentation/kmod.rst. */
#define PP_SLOTS		2048
#define PP_SLOT_PROBES		16

struct pp_slot {
	atomic_t tid;		/* global tid owning the slot, 0 = free */
	u32 nr;			/* syscall number in flight */
	u64 enter_ns;
	u64 ucopy_calls;	/* user-copy routine calls in this syscall */
	u64 ucopy_bytes;
};

struct pp_sys_stat {
	struct pp_stat st;
	u64 ucopy_calls;
	u64 ucopy_bytes;
};

/* One per possible CPU; written only by that CPU with preemption off. */
struct pp_trace_cpu {
	struct pp_stat pf_minor;
	struct pp_stat pf_major;
	u64 pf_retry;
	u64 pf_error;
	u64 pf_tp;
	u64 ucopy_calls;
	u64 ucopy_bytes;
	u64 dropped;
	struct pp_sys_stat sys[NR_syscalls];
};

struct pp_trace_data {
	struct pp_slot slots[PP_SLOTS];
	struct pp_trace_cpu *cpu[];	/* nr_cpu_ids entries */
};

struct pp_trace {
	struct mutex lock;		/* serialises everything below */
	/* Read locklessly by the probe handlers: */
	struct pid *pid;		/* traced thread group, NULL if idle */
	struct pp_trace_data *data;	/* freed only with no probe armed */
	/* Only under lock: */
	bool active;
	u32 tgid;			/* as the starter named it */
	u32 features;
	u32 owner_portid;
	u64 start_ns;
	u64 stop_ns;
	u64 pf_missed;
	unsigned long gen;		/* bumped when data is replaced */
};

extern struct pp_trace pp_trace;

struct pp_trace_summary {
	bool active;
	u32 tgid;
	u32 features;
	u64 duration_ns;
	u64 dropped;
	u64 pf_retry;
	u64 pf_error;
	u64 pf_missed;
	u64 pf_tp;
	u64 ucopy_calls;
	u64 ucopy_bytes;
	struct pp_stat pf_minor;
	struct pp_stat pf_major;
};

int pp_trace_start(u32 tgid, u32 features, u32 portid,
		   struct netlink_ext_ack *extack);
int pp_trace_stop(u32 portid, struct netlink_ext_ack *extack);
void pp_trace_owner_gone(u32 portid);
void pp_trace_shutdown(void);
/* Callers hold pp_trace.lock and have checked pp_trace.data. */
void pp_trace_summary_locked(struct pp_trace_summary *s);
void pp_trace_syscall_locked(unsigned int nr, struct pp_sys_stat *out);

/*
 * Return the trace data if current belongs to the traced thread group.
 * Only for probe handlers: they run with preemption disabled and are
 * unregistered (and synchronised) before the data is freed.
 */
static __always_inline struct pp_trace_data *pp_trace_current(void)
{
	/* pairs with smp_store_release() in pp_trace_start() */
	struct pid *pid = smp_load_acquire(&pp_trace.pid);

	if (likely(!pid) || task_tgid(current) != pid)
		return NULL;
	return READ_ONCE(pp_trace.data);
}

static __always_inline struct pp_trace_cpu *pp_this_cpu(struct pp_trace_data *d)
{
	return d->cpu[smp_processor_id()];
}

struct pp_slot *pp_slot_find(struct pp_trace_data *d, int tid);

/* ---- syscall.c: raw_syscalls tracepoints ---- */
int pp_syscall_detect(void);
int pp_syscall_register(void);
void pp_syscall_unregister(void);

/* ---- pgfault.c: handle_mm_fault kretprobe, page_fault_user ---- */
int pp_pgfault_detect(void);
int pp_pgfault_register(u32 features);
void pp_pgfault_unregister(u32 features, u64 *missed);

/* ---- copyprobe.c: kprobes on the out-of-line user-copy routines ---- */
int pp_copyprobe_detect(void);
int pp_copyprobe_register(void);
void pp_copyprobe_unregister(void);
unsigned int pp_copyprobe_nr_syms(void);
const char *pp_copyprobe_sym(unsigned int i);	/* NULL if not probeable */

/* ---- timer.c ---- */
int pp_timer_run(u64 period_ns, u32 count, struct pp_stat *out,
		 struct netlink_ext_ack *extack);

/* ---- usercopy.c ---- */
struct pp_copy_req {
	u32 dir;
	u64 addr;
	u64 buflen;
	u64 size;
	u64 offset;
	u32 iterations;
	/* results */
	u32 done;
	u64 total_ns;
	u64 checksum;
};

int pp_copy_run(struct pp_copy_req *req, struct netlink_ext_ack *extack);
/* Bytes of kernel buffer held by running COPY requests (for debugfs). */
u64 pp_copy_inflight(void);

/* ---- genl.c / debugfs.c ---- */
int pp_genl_init(void);
void pp_genl_exit(void);
void pp_debugfs_init(void);
void pp_debugfs_exit(void);

#endif /* _PERFPROBE_INTERNAL_H */
