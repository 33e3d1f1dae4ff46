/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace: what the kernel did for a set of traced processes during one
 * traced pass, whichever backend watched it (perfprobe.ko through
 * ppnl, or BPF through kbpf).  Counts and nanosecond sums, never rates:
 * the kernel-view layer divides by the operations the pass made.
 * A figure is only meaningful if its probe is in `have`; a probe that
 * was not armed leaves zeros that must not be printed as zeros.
 * Documentation/kernel-view.rst.
 */
#ifndef PP_KTRACE_H
#define PP_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ppnl_trace;

/* The probe groups; a pass arms any subset of them. */
enum pp_kt_probe {
	PP_KT_SYSCALLS,		/* per-syscall count, sys_enter..sys_exit ns */
	PP_KT_FAULTS,		/* user page faults */
	PP_KT_FAULT_NS,		/* fault handling time (handle_mm_fault) */
	PP_KT_SCHED,		/* context switches, off-CPU time */
	PP_KT_COPY,		/* bytes copied to/from user, copy ns */
	PP_KT_NPROBES
};

#define PP_KT_BIT(p)		(1u << (p))
#define PP_KT_ALL		(PP_KT_BIT(PP_KT_NPROBES) - 1)

struct pp_ktrace_sys {
	uint32_t nr;
	uint64_t count;		/* entries */
	uint64_t timed;		/* entry..exit pairs in ns */
	uint64_t ns;
	/* bpf only: the windows an inner probe pair also timed (kv_sys) */
	uint64_t paired, inner_ns, x_ns, x_sq;
	uint64_t min_ns, max_ns;	/* shortest, longest (0: not known) */
	uint64_t copy_bytes;	/* user copies inside it (PP_KT_COPY) */
	uint64_t copy_ns;
};

struct pp_ktrace {
	char source[16];	/* "kmod", "bpf" */
	uint32_t have;		/* PP_KT_BIT()s of the probes armed */
	uint64_t duration_ns;
	uint64_t faults;
	uint64_t fault_timed, fault_ns;
	uint64_t switches, offcpu_ns;
	uint64_t copy_calls, copy_bytes;	/* outermost copy routines */
	bool copy_split;		/* to + from = bytes (kmod: no) */
	uint64_t copy_to_bytes, copy_from_bytes;
	uint64_t copy_timed, copy_ns;	/* kmod does not time copies */
	uint64_t forks;		/* processes that joined the traced set */
	uint64_t dropped;	/* events lost (maps/buffers full) */
	struct pp_ktrace_sys *sys;	/* ascending nr, count > 0 */
	size_t nsys, cap;
};

/* "syscalls", "faults", ... as in `kernel-view status`. */
const char *pp_kt_probe_name(enum pp_kt_probe p);

/* Append one syscall (callers add them in ascending nr): 0 or -ENOMEM. */
int pp_ktrace_add_sys(struct pp_ktrace *t, const struct pp_ktrace_sys *s);
const struct pp_ktrace_sys *pp_ktrace_find(const struct pp_ktrace *t, int nr);
void pp_ktrace_free(struct pp_ktrace *t);

/* perfprobe.ko's TRACE_GET in this model: 0 or -ENOMEM. */
int pp_ktrace_from_ppnl(const struct ppnl_trace *in, struct pp_ktrace *out);

#endif /* PP_KTRACE_H */
