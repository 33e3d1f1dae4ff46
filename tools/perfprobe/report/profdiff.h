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

#endif /* PP_PROFDIFF_H */
