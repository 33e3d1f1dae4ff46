/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kview_maps.h: the map layout shared by kview.bpf.c (the BPF side of the
 * kernel view) and kernel/kbpf.c (its libbpf loader).  Every counter
 * is per CPU; userspace sums the CPUs when it reads.
 */
#ifndef PP_KVIEW_MAPS_H
#define PP_KVIEW_MAPS_H

/* Syscall numbers at or above this are counted in kv_totals.sys_other. */
#define KV_MAX_SYSCALLS		1024
/*
 * The hash maps are preallocated: their size is paid at every load (a
 * per-CPU free list of every element), so they hold what can be alive.
 * Traced processes (the measuring one and its descendants, alive; as
 * many as kview.c's KV_MAX_PROCS starts a trace with).
 */
#define KV_MAX_TGIDS		4096
/* Tasks with an open sys_enter, copy, fault or off-CPU timestamp (alive). */
#define KV_MAX_TASKS		4096

/* One syscall number: index of the kv_sys per-CPU array. */
struct kv_sys {
	__u64 count;		/* sys_enter seen */
	__u64 timed;		/* sys_enter..sys_exit pairs timed */
	__u64 ns;		/* their total time */
	/*
	 * With a second, inner pair of programs attached (the outer pair
	 * runs around it): the pairs timed both ways, the inner windows'
	 * time, and per pair x = outer - inner - the inner programs' own
	 * bodies (two calls and two returns of a program) summed, squared.
	 */
	__u64 paired;
	__u64 inner_ns;
	__u64 x_ns;
	__u64 x_sq;
	__u64 min_ns;		/* the shortest (0: none yet) and the */
	__u64 max_ns;		/* longest of them, on this CPU */
	__u64 copy_bytes;	/* user copies made inside it */
	__u64 copy_ns;
};

/* The rest: index 0 of the kv_totals per-CPU array. */
struct kv_totals {
	__u64 faults;		/* exceptions:page_fault_user */
	__u64 fault_timed;	/* handle_mm_fault entry..exit pairs */
	__u64 fault_ns;
	__u64 switches;		/* a traced task switched out */
	__u64 offcpu_ns;	/* switched out .. switched back in */
	__u64 copy_to_bytes;	/* outermost copy routines only */
	__u64 copy_from_bytes;
	__u64 copy_calls;
	__u64 copy_ns;
	__u64 forks;		/* processes added by sched_process_fork */
	__u64 sys_other;	/* syscall numbers >= KV_MAX_SYSCALLS */
	__u64 dropped;		/* a map was full: an event went uncounted */
};

#endif /* PP_KVIEW_MAPS_H */
