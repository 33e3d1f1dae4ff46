/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kprof: a sampled profile of the benchmark's processes during one pass
 * (perf_event_open(2): cycles where a PMU counts them, else the
 * cpu-clock timer; per task and CPU, inherited by the children they
 * start; kernel and user call chains), into a struct pp_prof.
 * Documentation/kernel-view.rst, "The profile".
 */
#ifndef PP_KPROF_H
#define PP_KPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "prof.h"

/*
 * Samples a second of CPU time.  A timer's sample costs what its
 * interrupt costs: 40 us of CPU time on the development host, whose
 * timer interrupts exit to the hypervisor (perf record's the same), so
 * 4000 a second cost a fifth of it; 1000 cost 3-5%.
 */
#define PP_KPROF_HZ		1000
#define PP_KPROF_WHY_MAX	256

struct pp_kdwarf;
struct pp_ksyms;
struct pp_usyms;

/* How this process can sample: which event, or why it cannot. */
struct pp_kprof_how {
	bool ok;
	char event[16];			/* "cycles", "cpu-clock" */
	uint32_t type;			/* PERF_TYPE_* */
	uint64_t config;
	bool timer;			/* a timer's interrupt takes the samples */
	char note[PP_KPROF_WHY_MAX];	/* ok: what was refused, if anything */
	char why[PP_KPROF_WHY_MAX];	/* !ok: why not, one line */
};

/* Try it on this process with kernel call chains: fills how, 0 or -errno. */
int pp_kprof_probe(struct pp_kprof_how *how);

/* One pass's sampling. */
struct pp_kprof;

/* What a pass samples: whom, how often, for how long between drains. */
struct pp_kprof_req {
	const pid_t *pids;		/* every thread of each, and what they start */
	size_t npids;
	unsigned int hz;		/* samples a second of CPU time, about */
	uint64_t period;		/* of the event: ns (cpu-clock), cycles */
	double expect_ns;		/* of sampling between drains; 0: not known */
};

/*
 * Sample as req says on every CPU.  Armed when it returns 0; else a
 * negative errno, with one line in why.
 */
int pp_kprof_start(struct pp_kprof **out, const struct pp_kprof_how *how,
		   const struct pp_kprof_req *req, char *why, size_t len);

/*
 * Take what the buffers hold, between the timed chunks: sampling is
 * paused meanwhile, so the reading is not in the profile.  0 or a
 * negative errno.
 */
int pp_kprof_drain(struct pp_kprof *kp);

/* The samples drained so far. */
uint64_t pp_kprof_samples(const struct pp_kprof *kp);

/* Disarm and drain: 0 or a negative errno. */
int pp_kprof_stop(struct pp_kprof *kp);

/*
 * What was sampled, symbolised (ks for the kernel, its BPF programs
 * listed again where a sample fell in one; us for user space; kd, where
 * not NULL, the kernel's debug info: the functions inlined at each kernel
 * address as frames of their own, and the leaves' source lines), into a
 * new profile (pp_prof_destroy() it): 0 or -ENOMEM.
 */
int pp_kprof_profile(struct pp_kprof *kp, struct pp_ksyms *ks, struct pp_usyms *us,
		     struct pp_kdwarf *kd, struct pp_prof **out);

/* Close everything (NULL: nothing). */
void pp_kprof_close(struct pp_kprof *kp);

#endif /* PP_KPROF_H */
