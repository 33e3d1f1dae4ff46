/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampled profile of one result's traced pass: where the benchmark's
 * processes were when each sample was taken, as call stacks with their
 * counts.  The kernel view takes it (tools/perfprobe/kernel/kprof.c);
 * the results write and read it; compare and export read it.  What a
 * profile says is a share of samples: times per operation come from
 * the share and the untraced time of one operation.
 * Documentation/kernel-view.rst, "The profile".
 */
#ifndef PP_PROF_H
#define PP_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The functions a result lists by self and by inclusive time. */
#define PP_PROF_TOP		5
/* A path is shown up to this many frames, the function included. */
#define PP_PROF_PATH_FRAMES	6
#define PP_PROF_PATH_MAX	512
/* Two-sided 95% normal quantile: the intervals of sample shares. */
#define PP_PROF_Z95		1.959964

/*
 * The frame of a sample the kernel took with interrupts off and a
 * timer-driven clock could only deliver at the first user instruction
 * after the system call (Documentation/kernel-view.rst).
 */
#define PP_PROF_SYSRET		"[syscall exit, interrupts off]"

/*
 * One distinct call stack: frames pool[off .. off + nuser + nkernel),
 * root first: the user frames from the outermost caller to where the
 * sample fell or entered the kernel, then the kernel frames from the
 * entry to the leaf.
 */
struct pp_prof_stack {
	uint64_t count;
	uint32_t off;
	uint16_t nuser, nkernel;
};

/*
 * Samples whose leaf was in function frame, by the source line they fell
 * on: a profile has these where the kernel's debug info was at hand
 * (tools/perfprobe/kernel/kdwarf.c).
 */
struct pp_prof_line {
	uint32_t frame;
	char *src;			/* "kernel/seccomp.c:412" */
	uint64_t count;
};

struct pp_prof {
	char event[16];			/* "cpu-clock", "cycles" */
	uint64_t period;		/* ns of CPU time, or cycles, a sample */
	double sample_ns;		/* the CPU time a sample stands for */
	uint64_t samples;		/* taken of the traced processes */
	uint64_t kernel;		/* of them, in the kernel */
	uint64_t user;			/* and in user space */
	uint64_t lost;			/* lost by a full buffer (not counted) */
	char **frames;			/* symbol names, each once */
	size_t nframes;
	struct pp_prof_stack *stacks;	/* counts add up to samples */
	size_t nstacks;
	uint32_t *pool;
	size_t npool;
	struct pp_prof_line *lines;	/* by the builder's order */
	size_t nlines, lines_cap;
	char *debuginfo;		/* the vmlinux lines and inlined frames came from */
	/* the builder's (pp_prof_add()) name and stack hashes */
	uint32_t *fhash, *shash;
	size_t fhash_cap, shash_cap, frames_cap, stacks_cap, pool_cap;
};

/* A kernel function of a profile: samples with it as leaf, with it anywhere. */
struct pp_prof_fn {
	uint32_t frame;
	uint64_t self, total;
};

void pp_prof_init(struct pp_prof *p);
void pp_prof_free(struct pp_prof *p);
/* Free p and the struct itself (NULL: nothing). */
void pp_prof_destroy(struct pp_prof *p);

/* The index of the frame named name, added if new: 0 on success or -ENOMEM. */
int pp_prof_frame(struct pp_prof *p, const char *name, uint32_t *idx);

/*
 * count samples of one stack (frames as pp_prof_stack says, indices of
 * pp_prof_frame()), merged with an equal stack.  Does not touch the
 * samples, kernel and user totals.  0, -EINVAL or -ENOMEM.
 */
int pp_prof_add(struct pp_prof *p, const uint32_t *frames, unsigned int nuser,
		unsigned int nkernel, uint64_t count);

/*
 * count samples of leaf function frame on source line src, merged with
 * an equal line: 0, -EINVAL (no such frame) or -ENOMEM.
 */
int pp_prof_line(struct pp_prof *p, uint32_t frame, const char *src, uint64_t count);

/* The line of frame with the most samples (the first such), or NULL. */
const struct pp_prof_line *pp_prof_hot_line(const struct pp_prof *p, uint32_t frame);

/* Name the debug info the profile's lines came from: 0 or -ENOMEM. */
int pp_prof_set_debuginfo(struct pp_prof *p, const char *path);

/* The kernel's share of the samples, and its binomial standard error. */
double pp_prof_kernel_share(const struct pp_prof *p, double *se);

/*
 * Every kernel function of p with its self and inclusive sample counts
 * (a recursive function counted once a stack), in *out (free() it), by
 * self time, most first.  0 or -ENOMEM.
 */
int pp_prof_functions(const struct pp_prof *p, struct pp_prof_fn **out, size_t *n);

/* By inclusive time, most first (qsort() on what pp_prof_functions() gave). */
void pp_prof_sort_total(struct pp_prof_fn *f, size_t n);

/*
 * The most common kernel call path to frame fn: "fn <- caller <- ...",
 * up to PP_PROF_PATH_FRAMES frames; self: only where fn is the leaf.
 * Paths that reach a caller of fn first: fn alone is where the kernel's
 * unwinder stopped (JIT code), unless nothing reaches further.
 */
void pp_prof_path(const struct pp_prof *p, uint32_t fn, bool self, char *buf, size_t size);

/* The frame named name, or -1. */
long pp_prof_find(const struct pp_prof *p, const char *name);

/*
 * The CPU time per operation of count samples of sample_ns each, over
 * ops operations, and its standard error (Poisson, of count + 1 so that
 * no samples is not exact).
 */
double pp_prof_cpu_ns(double count, double sample_ns, double ops, double *se);

/*
 * A share's time per operation and its standard error: count of total
 * samples, of an operation of op_ns.  The error is binomial, for the
 * share (count + 1) / (total + 2), so that all or none of a few samples
 * does not read as exact.
 */
double pp_prof_ns(uint64_t count, uint64_t total, double op_ns, double *se);

#endif /* PP_PROF_H */
