/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbpf: the BPF backend of the kernel view (libbpf, CO-RE; the programs
 * are bpf/kview.bpf.c).  It traces a process and the children it forks
 * from then on, and fills the backend-neutral struct pp_ktrace.
 *
 * kbpf_open() loads what the running kernel accepts, best first, and
 * tries each probe once, so kbpf_probe_why() can say which probes are
 * missing and why before anything is measured.  A trace arms only the
 * probes asked for: one pass can time syscalls with nothing else inside
 * the window.  Everything is gone when the process exits (by exit or a
 * signal): the links and programs live only as this process's file
 * descriptors, which forked children close at once.
 * Documentation/kernel-view.rst.
 */
#ifndef PP_KBPF_H
#define PP_KBPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ktrace.h"

#define KBPF_WHY_MAX		192

struct kbpf;

enum kbpf_flags {
	KBPF_NO_TP_BTF	= 1u << 0,	/* raw tracepoints only (tests) */
	KBPF_NO_FENTRY	= 1u << 1,	/* kprobes instead of fentry/fexit */
};

/* Is the backend compiled in?  If not, why not (for status lines). */
bool kbpf_built(const char **why);

/*
 * Load and check the programs.  0, or a negative errno with why filled
 * ("not available: ..."): BPF not permitted, no BTF, built without it.
 */
int kbpf_open(struct kbpf **out, unsigned int flags, char *why, size_t size);
void kbpf_close(struct kbpf *kb);

/* The probes that attached (PP_KT_BIT()s). */
uint32_t kbpf_probes(const struct kbpf *kb);
/*
 * How a probe is attached ("tp_btf", "raw_tp", "fentry"), or NULL with
 * *why saying why it is not available on this kernel.
 */
const char *kbpf_probe_how(const struct kbpf *kb, enum pp_kt_probe p,
			   const char **why);
/* The copy routines the copy probe watches, comma-separated. */
const char *kbpf_copy_routines(const struct kbpf *kb);

/*
 * Start tracing tgid (and the processes it forks from now on) with the
 * probes asked for; results of the previous trace are cleared.  Probes
 * that are not available are left out (kbpf_trace_read() says which
 * were armed).  0 or a negative errno (-EBUSY if a trace is running).
 */
int kbpf_trace_start(struct kbpf *kb, pid_t tgid, uint32_t probes);
/*
 * The same for n processes at once: a benchmark's partners, forked
 * during its set-up, are already running when its trace starts.
 */
int kbpf_trace_start_set(struct kbpf *kb, const pid_t *tgids, size_t n,
			 uint32_t probes);
/* Detach every probe; the results stay readable. */
int kbpf_trace_stop(struct kbpf *kb);
/* The last trace's results, source "bpf": 0 or a negative errno. */
int kbpf_trace_read(struct kbpf *kb, struct pp_ktrace *t);

#endif /* PP_KBPF_H */
