/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing runs: is the difference between a base and a new set of runs
 * real, and are the runs comparable at all?  Pure functions, no output;
 * the statistics and the rules are Documentation/compare.rst.
 */
#ifndef PP_COMPARE_H
#define PP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define PP_CMP_THRESHOLD_PCT	5.0	/* what counts as a real change */
#define PP_CMP_CONF		0.95	/* of the confidence interval */
/*
 * "same" is an equivalence test at the 5% level: two one-sided tests,
 * each at 5%, which is the 90% interval lying within the threshold
 * (Documentation/compare.rst, "The verdicts").
 */
#define PP_CMP_EQ_CONF		0.90
#define PP_CMP_MHZ_TOL_PCT	5.0	/* clocks closer than this agree */
/*
 * The run-to-run variation assumed when no side has two runs to measure
 * it from (a standard deviation, in %; Documentation/compare.rst has the
 * measurements behind it).
 */
#define PP_CMP_RUN_NOISE_PCT	4.0
#define PP_CMP_WHY_MAX		256	/* a reason, one line */

enum pp_verdict {
	PP_VERDICT_SAME,
	PP_VERDICT_REGRESSION,
	PP_VERDICT_IMPROVEMENT,
	PP_VERDICT_NOISY,	/* the interval is too wide to tell */
};

const char *pp_verdict_name(enum pp_verdict v);

/*
 * The Hodges-Lehmann estimate of the shift of y against x (the median of
 * all y[j] - x[i]) and its distribution-free confidence interval from the
 * Mann-Whitney distribution: exact when both samples have fewer than 50
 * values and no ties, the normal approximation with the tie correction
 * otherwise.  conf is the confidence asked for; achieved is what the
 * interval has (at least conf, unless the samples are too small for it:
 * then the interval is the whole range of differences).
 */
struct pp_shift {
	double est;
	double lo, hi;
	double achieved;
	bool exact;
};

int pp_hodges_lehmann(const double *x, size_t m, const double *y, size_t n,
		      double conf, struct pp_shift *out);

/* The comparison of one key. */
struct pp_cmp_stat {
	size_t nbase, nnew;		/* pooled samples */
	double base_median, new_median;
	double median_pct;		/* new_median / base_median, in % */
	double change_pct;		/* the estimated ratio new/base, in % */
	double lo_pct, hi_pct;		/* its confidence interval, in % */
	double eq_lo_pct, eq_hi_pct;	/* the PP_CMP_EQ_CONF one "same" uses */
	double conf;			/* the interval's achieved confidence */
	bool exact;
	enum pp_verdict verdict;
	/* pp_cmp_runs(): the run-to-run variation taken into the interval */
	size_t base_runs, new_runs;
	size_t base_nmed, new_nmed;	/* the run or round medians it came from */
	double run_noise_pct;		/* its standard deviation, in % */
	bool run_noise_measured;	/* from a side's 2+ runs, not assumed */
	size_t history_runs;		/* earlier runs of the labels it used */
	/*
	 * Both sides hold the same samples (a run compared with itself):
	 * one measurement, no second one for the noise to move, so the
	 * change and its intervals are 0 and the verdict "same"
	 */
	bool identical;
};

/*
 * Compare the pooled samples of one key: -EINVAL on an empty side, -EDOM
 * on a sample that is not finite and positive (the change is a ratio),
 * -ENOMEM.  The ratio is estimated on the logarithms of the samples.
 */
int pp_cmp_samples(const double *base, size_t nbase, const double *new,
		   size_t nnew, enum pp_dir dir, double threshold_pct,
		   struct pp_cmp_stat *out);

/*
 * The comparison of one pooled key, runs as clusters: the samples'
 * interval (pp_cmp_samples()) widened by the run-to-run variation, which
 * samples of one run cannot show.  That variation is the spread of the
 * run medians (logs) of the sides with two or more runs, pooled, with a
 * Student t quantile for its degrees of freedom; where no side has two
 * runs it is run_noise_pct, assumed (0: trust the samples alone).
 * Sides with the same samples are identical (above): 0 [0..0], same.
 */
struct pp_cmp_pool;
int pp_cmp_runs(const struct pp_cmp_pool *p, double threshold_pct,
		double run_noise_pct, struct pp_cmp_stat *out);

/* The two-sided 95% Student t quantile for df degrees of freedom. */
double pp_t95(double df);
/* The two-sided 90% one (one-sided 95%), for the equivalence interval. */
double pp_t90(double df);

/* The verdict for an estimate and its interval, all in % change. */
enum pp_verdict pp_cmp_verdict(double change_pct, double lo_pct, double hi_pct,
			       enum pp_dir dir, double threshold_pct);

/* For sorting: regressions first, the worst first; then noisy, the rest. */
int pp_cmp_order(const struct pp_cmp_stat *a, enum pp_dir adir,
		 const struct pp_cmp_stat *b, enum pp_dir bdir);

/*
 * One key's samples pooled over the runs of each side, in the order keys
 * first appear (base runs first).  A key missing from a side has no
 * samples there.  conflict: the runs disagree on the key's unit or
 * direction, and its samples cannot be compared.  kind: measured, or
 * what any run records it as when not.  k is, per side, the
 * median over the runs that have a kernel view of each of its fields
 * (source "" and NaN fields when none has).
 */
struct pp_cmp_pool {
	char key[PP_KEY_MAX];
	char unit[PP_UNIT_MAX];
	enum pp_dir dir;
	enum pp_kind kind;
	double spread_pct;	/* the largest a run's result declares (keys.h), or 0 */
	bool conflict;
	double *base, *new;
	size_t nbase, nnew;
	size_t base_runs, new_runs;	/* how many runs have the key */
	/*
	 * The medians whose spread is the run-to-run variation: each run's,
	 * or each round's of a run made in rounds (run --rounds)
	 */
	double *base_rmed, *new_rmed;
	size_t base_nmed, new_nmed;
	/*
	 * Earlier runs of a side's label on its host (pp_cmp_history()): the
	 * sum of squares of their medians' logs about each side's mean, its
	 * degrees of freedom, and how many runs gave it
	 */
	double hist_ss;
	size_t hist_df, hist_runs;
	struct pp_kside base_k, new_k;
	/* each side's kernel views that carry a profile, one a run (profdiff.h) */
	const struct pp_kside **base_prof, **new_prof;
	size_t nbase_prof, nnew_prof;
	/*
	 * Why a side's figure cannot be trusted to gate, or "": the harness
	 * flagged a run's result (another process took the CPU while it was
	 * sampled, or its spread stayed above the run's noise threshold).
	 */
	char unreliable[PP_CMP_WHY_MAX];
};

/*
 * The run-to-run spread of p's key in hist[], earlier runs of one side's
 * kernel on its host (a label's saved history), added to p's: each run's
 * median, or each round's.  Where the sides' own runs cannot measure the
 * spread, their history does; where they can, it adds to it.
 */
void pp_cmp_history(struct pp_cmp_pool *p, const struct pp_run *hist, size_t nhist);

int pp_cmp_pool(const struct pp_run *base, size_t nbase,
		const struct pp_run *new, size_t nnew,
		struct pp_cmp_pool **out, size_t *nout);
/* Frees the samples and the array. */
void pp_cmp_pool_free(struct pp_cmp_pool *pool, size_t n);

/*
 * May the key's verdict gate (set compare's exit code, fail a CI test)?
 * Only a measured figure's: a derived figure or a fact is judged and
 * shown apart, never gating.
 */
bool pp_cmp_gates(const struct pp_cmp_pool *p);

/*
 * A fact that differs between the sides, or within one side, named as
 * its field in the results' meta ("hostname", "options.pin_cpu",
 * "mitigations.spectre_v2"); a side's value is its runs' distinct values
 * joined by " | ".  Facts a side did not record are not compared; within
 * recorded mitigations, "" is a vulnerability that side's kernel does not
 * list.
 */
#define PP_CMP_FACT_MAX		64
#define PP_CMP_VALUE_MAX	2048

/*
 * What a warning is: a fact that differs (--strict: exit 6); the clocks
 * differ, one side's counting instructions (QEMU -icount) and the other's
 * time: the figures are not compared at all; or an emulator timed a side
 * on the wall clock, the host's speed rather than the kernel's (fact
 * "emulation"; the verdicts stand but gate nothing unless the command is
 * told to).
 */
enum pp_cmp_warn_kind {
	PP_CMP_WARN_DIFFERS,
	PP_CMP_WARN_CLOCK,
	PP_CMP_WARN_EMULATED,
};

struct pp_cmp_warn {
	char fact[PP_CMP_FACT_MAX];
	char base[PP_CMP_VALUE_MAX];
	char new[PP_CMP_VALUE_MAX];
	enum pp_cmp_warn_kind kind;
};

const char *pp_cmp_warn_kind_name(enum pp_cmp_warn_kind k);

/*
 * The clock the runs' times are in (meta.emulation.clock): virtual when
 * every run of both sides counted instructions, mixed when some did and
 * some were timed (the figures are not comparable), wall otherwise (runs
 * that did not record it count as wall).
 */
enum pp_cmp_clock {
	PP_CMP_CLOCK_WALL,
	PP_CMP_CLOCK_VIRTUAL,
	PP_CMP_CLOCK_MIXED,
};

enum pp_cmp_clock pp_cmp_clock(const struct pp_run *base, size_t nbase,
			       const struct pp_run *new, size_t nnew);

int pp_cmp_warnings(const struct pp_run *base, size_t nbase,
		    const struct pp_run *new, size_t nnew, double mhz_tol_pct,
		    struct pp_cmp_warn **out, size_t *nout);

/* The kernel command line without what names the kernel booted. */
void pp_cmdline_normalise(const char *cmdline, char *buf, size_t size);

#endif /* PP_COMPARE_H */
