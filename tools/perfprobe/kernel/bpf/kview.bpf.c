// SPDX-License-Identifier: GPL-2.0
/*
 * kview.bpf.c: the kernel view of the traced processes, BPF side.
 *
 * The traced set is a hash of tgids: userspace puts the measuring
 * process in, sched_process_fork adds its new children (follow_forks),
 * the exit of a whole thread group takes it out again.  Everything else
 * on the machine only costs a hash lookup.
 *
 * Each tracepoint has a tp_btf and a raw_tp program with one body: the
 * loader keeps the best one the running kernel accepts.  fentry/fexit
 * programs are optional: loaded and attached only where the kernel has
 * the function and allows fentry.  Which programs are attached at a
 * time is the loader's choice (one pass may time syscalls with nothing
 * else armed inside them).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "kview_maps.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool follow_forks = true;

/*
 * Set by user space once every program of a trace is attached, cleared
 * before the first is detached: the system calls that arm and disarm the
 * trace are not counted, nor timed (destroying a link can take
 * milliseconds).
 */
volatile __u32 armed;

/* The in-flight timestamps of one task (thread). */
struct kv_task {
	__u64 sys_ts;		/* sys_enter time, 0 = none open */
	__u64 copy_ts;		/* outermost copy routine's entry */
	__u64 fault_ts;		/* handle_mm_fault entry */
	__u64 off_ts;		/* switched out at */
	__u64 copy_n;		/* kprobe: the outermost copy's length */
	__u64 in_ts;		/* the inner sys_enter's time, 0 = none */
	__u64 in_ns;		/* the inner window, once closed */
	__u64 in_body;		/* the inner programs' own bodies */
	__u32 sys_nr;
	__u32 copy_depth;	/* copy routines nest (page -> iter) */
	__u32 copy_user;	/* kprobe: its iterator is user memory */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KV_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KV_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct kv_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KV_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, struct kv_sys);
} sys SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kv_totals);
} totals SEC(".maps");

static __always_inline struct kv_totals *tot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&totals, &zero);
}

static __always_inline bool traced_tgid(__u32 tgid)
{
	return bpf_map_lookup_elem(&tgids, &tgid) != NULL;
}

static __always_inline bool traced(void)
{
	return armed && traced_tgid(bpf_get_current_pid_tgid() >> 32);
}

static __always_inline void drop(void)
{
	struct kv_totals *t = tot();

	if (t)
		t->dropped++;
}

/* The task's state, created on first use; NULL (and counted) if full. */
static __always_inline struct kv_task *task_get(__u32 pid)
{
	static const struct kv_task zero;
	struct kv_task *st = bpf_map_lookup_elem(&tasks, &pid);

	if (st)
		return st;
	bpf_map_update_elem(&tasks, &pid, &zero, BPF_NOEXIST);
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (!st)
		drop();
	return st;
}

static __always_inline __u32 cur_pid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/*
 * --- system calls: counted at entry, timed entry..exit ---
 *
 * The window is sys_enter's last clock read to sys_exit's first, and
 * part of the probes' own cost falls inside it: the return from the
 * sys_enter program and the call of the sys_exit one.  To measure that
 * share, an inner pair of programs runs inside the window (attached
 * after the outer sys_enter program and before the outer sys_exit one)
 * and times its own window and bodies.  The outer window less the inner
 * one and the inner bodies is two calls and two returns; the inner
 * window holds one of each.  Documentation/kernel-view.rst.
 */

static __always_inline int on_sys_enter(__u64 *ctx)
{
	__u32 nr = (__u32)ctx[1];
	struct kv_task *st;
	struct kv_sys *s;

	if (!traced())
		return 0;
	s = bpf_map_lookup_elem(&sys, &nr);
	if (!s) {
		struct kv_totals *t = tot();

		if (t)
			t->sys_other++;
		return 0;
	}
	s->count++;
	st = task_get(cur_pid());
	if (st) {
		st->sys_nr = nr;
		st->in_ts = 0;
		st->sys_ts = bpf_ktime_get_ns();
	}
	return 0;
}

static __always_inline int on_sys_enter_in(__u64 *ctx)
{
	__u64 t0 = bpf_ktime_get_ns();
	__u32 pid = cur_pid();
	struct kv_task *st;

	if (!traced())
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (!st || !st->sys_ts)
		return 0;
	st->in_ts = bpf_ktime_get_ns();
	st->in_body = st->in_ts - t0;
	return 0;
}

static __always_inline int on_sys_exit_in(__u64 *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 pid = cur_pid();
	struct kv_task *st;

	if (!armed)
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (!st || !st->in_ts)
		return 0;
	st->in_ns = now - st->in_ts;
	st->in_body += bpf_ktime_get_ns() - now;
	return 0;
}

static __always_inline int on_sys_exit(__u64 *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 pid = cur_pid();
	struct kv_task *st;
	struct kv_sys *s;

	/* only traced tasks have a state: no tgid lookup needed here */
	if (!armed)
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (!st || !st->sys_ts)
		return 0;	/* entered before the trace began */
	s = bpf_map_lookup_elem(&sys, &st->sys_nr);
	if (s) {
		__u64 d = now - st->sys_ts;

		s->timed++;
		s->ns += d;
		if (d > s->max_ns)
			s->max_ns = d;
		if (!s->min_ns || d < s->min_ns)
			s->min_ns = d;
		/* both windows of this call closed, the inner inside */
		if (st->in_ts && st->in_ns + st->in_body <= d) {
			__u64 x = d - st->in_ns - st->in_body;

			s->paired++;
			s->inner_ns += st->in_ns;
			s->x_ns += x;
			s->x_sq += x * x;
		}
	}
	st->sys_ts = 0;
	st->in_ts = 0;
	return 0;
}

/* --- page faults --- */

static __always_inline int on_page_fault_user(__u64 *ctx)
{
	struct kv_totals *t;

	if (!traced())
		return 0;
	t = tot();
	if (t)
		t->faults++;
	return 0;
}

/* --- the scheduler: switches, off-CPU time, the traced set --- */

static __always_inline int on_sched_switch(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	__u64 now = bpf_ktime_get_ns();
	struct kv_totals *t = tot();
	struct kv_task *st;
	__u32 pid;

	if (!t || !armed)
		return 0;
	if (traced_tgid(BPF_CORE_READ(prev, tgid))) {
		t->switches++;
		st = task_get(BPF_CORE_READ(prev, pid));
		if (st)
			st->off_ts = now;
	}
	if (traced_tgid(BPF_CORE_READ(next, tgid))) {
		pid = BPF_CORE_READ(next, pid);
		st = bpf_map_lookup_elem(&tasks, &pid);
		if (st && st->off_ts) {
			t->offcpu_ns += now - st->off_ts;
			st->off_ts = 0;
		}
	}
	return 0;
}

static __always_inline int on_sched_process_fork(__u64 *ctx)
{
	struct task_struct *child = (struct task_struct *)ctx[1];
	__u32 tgid = BPF_CORE_READ(child, tgid);
	struct kv_totals *t;
	__u8 one = 1;

	/* Runs in the parent; a new thread's tgid is its parent's. */
	if (!follow_forks || !traced() || traced_tgid(tgid))
		return 0;
	if (bpf_map_update_elem(&tgids, &tgid, &one, BPF_ANY)) {
		drop();
		return 0;
	}
	t = tot();
	if (t)
		t->forks++;
	return 0;
}

static __always_inline int on_sched_process_exit(__u64 *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = (__u32)id, tgid = id >> 32;

	bpf_map_delete_elem(&tasks, &pid);
	/* The last thread of the group: its tgid may be reused. */
	if (!BPF_CORE_READ(task, signal, live.counter))
		bpf_map_delete_elem(&tgids, &tgid);
	return 0;
}

/* ppkv_{btf,raw}_<fn>, on tracepoint tp, run on_<fn>() */
#define KV_TP_AS(tp, fn)						\
SEC("tp_btf/" #tp)							\
int ppkv_btf_##fn(__u64 *ctx)						\
{									\
	return on_##fn(ctx);						\
}									\
SEC("raw_tp/" #tp)							\
int ppkv_raw_##fn(__u64 *ctx)						\
{									\
	return on_##fn(ctx);						\
}
#define KV_TP(name)	KV_TP_AS(name, name)

KV_TP(sys_enter)
KV_TP(sys_exit)
KV_TP_AS(sys_enter, sys_enter_in)
KV_TP_AS(sys_exit, sys_exit_in)
KV_TP(page_fault_user)
KV_TP(sched_switch)
KV_TP(sched_process_fork)
KV_TP(sched_process_exit)

/* --- fault latency: handle_mm_fault, where fentry is allowed --- */

static __always_inline int fault_in(void)
{
	struct kv_task *st;

	if (!traced())
		return 0;
	st = task_get(cur_pid());
	if (st)
		st->fault_ts = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int fault_out(void)
{
	__u32 pid = cur_pid();
	struct kv_totals *t;
	struct kv_task *st;

	if (!traced())
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	t = tot();
	if (!st || !st->fault_ts || !t)
		return 0;
	t->fault_timed++;
	t->fault_ns += bpf_ktime_get_ns() - st->fault_ts;
	st->fault_ts = 0;
	return 0;
}

SEC("fentry/handle_mm_fault")
int BPF_PROG(ppkv_fault_in)
{
	return fault_in();
}

SEC("fexit/handle_mm_fault")
int BPF_PROG(ppkv_fault_out)
{
	return fault_out();
}

/* Where fentry is refused (a kernel without ftrace on it), kprobes. */
SEC("kprobe/handle_mm_fault")
int BPF_KPROBE(ppkv_kp_handle_mm_fault)
{
	return fault_in();
}

SEC("kretprobe/handle_mm_fault")
int BPF_KRETPROBE(ppkv_kr_handle_mm_fault)
{
	return fault_out();
}

/* --- user copies: fentry/fexit, or kprobes where fentry is refused --- */

static __always_inline int copy_in_args(__u64 n, __u32 user)
{
	struct kv_task *st;

	if (!traced())
		return 0;
	st = task_get(cur_pid());
	if (st && st->copy_depth++ == 0) {
		st->copy_ts = bpf_ktime_get_ns();
		st->copy_n = n;
		st->copy_user = user;
	}
	return 0;
}

static __always_inline int copy_in(void)
{
	return copy_in_args(0, false);
}

/* Only the outermost routine counts: copy_page_to_iter calls _copy_to_iter. */
static __always_inline int copy_out(__u64 bytes, bool to_user)
{
	__u32 pid = cur_pid();
	struct kv_totals *t;
	struct kv_task *st;
	struct kv_sys *s;
	__u64 ns;

	if (!traced())
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (!st || !st->copy_depth)
		return 0;	/* entered before the trace began */
	if (--st->copy_depth)
		return 0;
	ns = bpf_ktime_get_ns() - st->copy_ts;
	t = tot();
	if (!t)
		return 0;
	if (to_user)
		t->copy_to_bytes += bytes;
	else
		t->copy_from_bytes += bytes;
	t->copy_calls++;
	t->copy_ns += ns;
	if (st->sys_ts) {
		s = bpf_map_lookup_elem(&sys, &st->sys_nr);
		if (s) {
			s->copy_bytes += bytes;
			s->copy_ns += ns;
		}
	}
	return 0;
}

/* An iov_iter copy moves user memory only if the iterator is user-backed. */
static __always_inline bool iter_user(struct iov_iter *i)
{
	int type;

	if (!bpf_core_field_exists(i->iter_type))
		return true;
	type = BPF_CORE_READ(i, iter_type);
	if (bpf_core_enum_value_exists(enum iter_type, ITER_UBUF) &&
	    type == bpf_core_enum_value(enum iter_type, ITER_UBUF))
		return true;
	return type == bpf_core_enum_value(enum iter_type, ITER_IOVEC);
}

SEC("fentry/_copy_to_user")
int BPF_PROG(ppkv_cp_to_user_in)
{
	return copy_in();
}

SEC("fexit/_copy_to_user")
int BPF_PROG(ppkv_cp_to_user, void *to, const void *from, unsigned long n,
	     unsigned long left)
{
	return copy_out(n - left, true);
}

SEC("fentry/_copy_from_user")
int BPF_PROG(ppkv_cp_from_user_in)
{
	return copy_in();
}

SEC("fexit/_copy_from_user")
int BPF_PROG(ppkv_cp_from_user, void *to, const void *from, unsigned long n,
	     unsigned long left)
{
	return copy_out(n - left, false);
}

SEC("fentry/copy_page_to_iter")
int BPF_PROG(ppkv_cp_pg_to_iter_in)
{
	return copy_in();
}

SEC("fexit/copy_page_to_iter")
int BPF_PROG(ppkv_cp_pg_to_iter, struct page *page, size_t offset,
	     size_t bytes, struct iov_iter *i, size_t done)
{
	return copy_out(iter_user(i) ? done : 0, true);
}

SEC("fentry/copy_page_from_iter")
int BPF_PROG(ppkv_cp_pg_from_iter_in)
{
	return copy_in();
}

SEC("fexit/copy_page_from_iter")
int BPF_PROG(ppkv_cp_pg_from_iter, struct page *page, size_t offset,
	     size_t bytes, struct iov_iter *i, size_t done)
{
	return copy_out(iter_user(i) ? done : 0, false);
}

SEC("fentry/_copy_to_iter")
int BPF_PROG(ppkv_cp_to_iter_in)
{
	return copy_in();
}

SEC("fexit/_copy_to_iter")
int BPF_PROG(ppkv_cp_to_iter, const void *addr, size_t bytes,
	     struct iov_iter *i, size_t done)
{
	return copy_out(iter_user(i) ? done : 0, true);
}

SEC("fentry/_copy_from_iter")
int BPF_PROG(ppkv_cp_from_iter_in)
{
	return copy_in();
}

SEC("fexit/_copy_from_iter")
int BPF_PROG(ppkv_cp_from_iter, void *addr, size_t bytes,
	     struct iov_iter *i, size_t done)
{
	return copy_out(iter_user(i) ? done : 0, false);
}

/*
 * The kprobe pairs: a kretprobe sees only the return value, so the entry
 * keeps the length (and whether the iterator is user memory) of the
 * outermost copy.  left: ret is what was not copied (copy_{to,from}_user);
 * else ret is what was copied.
 */
static __always_inline int copy_out_k(__u64 ret, bool left, bool to_user)
{
	__u32 pid = cur_pid();
	struct kv_task *st;
	__u64 bytes = 0;

	if (!traced())
		return 0;
	st = bpf_map_lookup_elem(&tasks, &pid);
	if (st && st->copy_depth == 1)
		bytes = left ? st->copy_n - ret : (st->copy_user ? ret : 0);
	return copy_out(bytes, to_user);
}

/* _copy_{to,from}_user(to, from, n): returns what was left */
#define KV_KP_USER(fn, to_user)						\
SEC("kprobe/" #fn)							\
int BPF_KPROBE(ppkv_kp_##fn, void *to, const void *from, unsigned long n)	\
{									\
	return copy_in_args(n, true);					\
}									\
SEC("kretprobe/" #fn)							\
int BPF_KRETPROBE(ppkv_kr_##fn, unsigned long left)			\
{									\
	return copy_out_k(left, true, to_user);				\
}

/* the iov_iter copies (..., bytes, iter): return what was copied */
#define KV_KP_ITER(fn, to_user, ...)					\
SEC("kprobe/" #fn)							\
int BPF_KPROBE(ppkv_kp_##fn, __VA_ARGS__, size_t bytes, struct iov_iter *i)	\
{									\
	return copy_in_args(bytes, iter_user(i));			\
}									\
SEC("kretprobe/" #fn)							\
int BPF_KRETPROBE(ppkv_kr_##fn, size_t done)				\
{									\
	return copy_out_k(done, false, to_user);			\
}

KV_KP_USER(_copy_to_user, true)
KV_KP_USER(_copy_from_user, false)
KV_KP_ITER(copy_page_to_iter, true, struct page *page, size_t offset)
KV_KP_ITER(copy_page_from_iter, false, struct page *page, size_t offset)
KV_KP_ITER(_copy_to_iter, true, const void *addr)
KV_KP_ITER(_copy_from_iter, false, void *addr)
