/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The difference between the sampled profiles of two sides of one key:
 * the kernel time's change, split into the kernel functions whose self
 * time changed most, each with its interval and its call path.
 * Pure functions, no output.  Documentation/compare.rst.
 */
#ifndef PP_PROFDIFF_H
#define PP_PROFDIFF_H

#include "report/compare.h"

#define PP_PDIFF_FNS		5

struct pp_pdiff_fn {
	const char *name;		/* a frame name of one of the profiles */
	double base_ns, new_ns;		/* self CPU time an operation, each side */
	double delta, lo, hi;		/* new - base and its 95% interval */
	bool beyond;			/* the interval excludes 0 */
	char path[PP_PROF_PATH_MAX];	/* where it took longer: most common */
};

struct pp_pdiff {
	uint64_t base_samples, new_samples;	/* pooled over the runs */
	double base_ops, new_ops;		/* the operations they sampled */
	double base_sample_ns, new_sample_ns;	/* CPU time a sample: the runs' median */
	double base_op_ns, new_op_ns;		/* untraced, the runs' median */
	double op_delta;			/* new - base: the change to explain */
	double kernel_base, kernel_new;		/* kernel CPU ns/op */
	double kernel_delta, kernel_lo, kernel_hi;
	struct pp_pdiff_fn fn[PP_PDIFF_FNS];	/* largest change first */
	size_t nfn;
	size_t nbeyond;				/* of them beyond their error */
	double explained_pct;			/* of op_delta, by fn[]'s */
};

/*
 * The difference of the profiles of p's sides, their runs' pooled (the
 * samples and the operations sampled summed, the untraced time their
 * median), in CPU time per operation: 0, -ENOENT when a side has none,
 * -ENOMEM.  out's names point into the runs' profiles.
 */
int pp_pdiff(const struct pp_cmp_pool *p, struct pp_pdiff *out);

/*
 * Whether d's kernel code changed though the key's time may not have: a
 * function's change beyond its sampling error and at least threshold_pct
 * of one operation's untraced time (6.12-rt against 6.12: lat_pipe within
 * 2.3%, and migrate_disable 1.35 us/op of 11.4 that 6.12 never runs).
 */
bool pp_pdiff_code_changed(const struct pp_pdiff *d, double threshold_pct);

/*
 * base and new samples of something (a function, a call path) as d's
 * sides stand for them: each side's CPU time per operation, the change
 * and its 95% interval into f (its name and path untouched).
 */
void pp_pdiff_change(const struct pp_pdiff *d, uint64_t base, uint64_t new,
		     struct pp_pdiff_fn *f);

/*
 * Kernel call stacks merged into one tree, a node a distinct path from
 * the kernel's entry, with the samples whose stacks pass through it on
 * each side: a node's samples are at least the sum of its children's,
 * the rest are its own (it was the leaf).  Node 0 is the root, every
 * kernel sample with a stack; a node comes after its parent.
 */
#define PP_PDIFF_NONE	UINT32_MAX

struct pp_pdiff_node {
	const char *name;		/* into a profile; NULL for the root */
	uint32_t parent, child, next;	/* first child, next sibling; or NONE */
	uint64_t base, new;		/* samples through it */
};

struct pp_pdiff_tree {
	struct pp_pdiff_node *v;
	size_t n, cap;
};

/* p's kernel stacks into t (new: on the new side): 0 or -ENOMEM. */
int pp_pdiff_tree_add(struct pp_pdiff_tree *t, const struct pp_prof *p, bool new);

/*
 * Both sides of pool p into t (empty), every run's profile summed into
 * its side, the pooling pp_pdiff() takes its functions from: 0 or
 * -ENOMEM.  Its names point into the runs' profiles.
 */
int pp_pdiff_tree(const struct pp_cmp_pool *p, struct pp_pdiff_tree *t);
void pp_pdiff_tree_free(struct pp_pdiff_tree *t);

/* A node's own samples: where it was the leaf. */
void pp_pdiff_self(const struct pp_pdiff_tree *t, uint32_t i, uint64_t *base, uint64_t *new);

#endif /* PP_PROFDIFF_H */
