// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison engine: Hodges-Lehmann and its interval against values
 * computed independently, the verdicts on seeded synthetic samples, the
 * pooling of runs and the comparability facts.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/compare.h"
#include "report/profdiff.h"
#include "stats.h"
#include "results.h"

#define NEAR(a, b)	assert_true(fabs((a) - (b)) < 1e-9)

/* xorshift64*: a fixed seed gives the same samples everywhere */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* n samples around mean with a coefficient of variation of cv_pct */
static void fill(double *v, size_t n, double mean, double cv_pct)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mean * (1.0 + cv_pct / 100.0 * gauss());
}

/*
 * The expected values come from brute force in python3: every one of the
 * C(m+n, m) orderings enumerated for the exact distribution of U, and all
 * pairwise differences sorted:
 *
 *	def exact_cdf(m, n):
 *	    counts = {}
 *	    for pos in itertools.combinations(range(m + n), m):
 *	        u = sum(p - i for i, p in enumerate(pos))
 *	        counts[u] = counts.get(u, 0) + 1
 *	    ... cumulated / C(m+n, m)
 *	d = sorted(b - a for a in x for b in y)
 *	w = largest count with cdf[w-1] <= 0.025; k = max(w, 1)
 *	est, lo, hi = median(d), d[k-1], d[mn-k]; conf = 1 - 2 cdf[k-1]
 */
static void test_hl_exact_known(void **state)
{
	const double x1[] = { 10, 12, 15, 11, 13 }, y1[] = { 14, 16, 13.5, 18, 15.5, 17 };
	const double x2[] = { 1, 2, 3 }, y2[] = { 4, 5, 6 };
	const double x3[] = { 1.0, 2.5, 4.0, 3.0, 7.0, 6.0, 5.5 };
	const double y3[] = { 2.0, 3.5, 8.0, 9.5, 4.5, 6.5, 10.0, 12.0 };
	struct pp_shift s;

	(void)state;
	assert_int_equal(pp_hodges_lehmann(x1, 5, y1, 6, 0.95, &s), 0);
	assert_true(s.exact);
	NEAR(s.est, 3.5);
	NEAR(s.lo, 0.5);
	NEAR(s.hi, 6.0);
	NEAR(s.achieved, 1.0 - 2.0 * 7.0 / 462.0);	/* 0.969697 */

	/* too few for 95%: the whole range, and the lower confidence said */
	assert_int_equal(pp_hodges_lehmann(x2, 3, y2, 3, 0.95, &s), 0);
	NEAR(s.est, 3.0);
	NEAR(s.lo, 1.0);
	NEAR(s.hi, 5.0);
	NEAR(s.achieved, 0.9);

	assert_int_equal(pp_hodges_lehmann(x3, 7, y3, 8, 0.95, &s), 0);
	NEAR(s.est, 2.75);
	NEAR(s.lo, -1.0);
	NEAR(s.hi, 6.5);
	assert_true(fabs(s.achieved - 0.9599067599067599) < 1e-9);
	/* the sides swapped: the shift and the interval mirrored */
	assert_int_equal(pp_hodges_lehmann(y3, 8, x3, 7, 0.95, &s), 0);
	NEAR(s.est, -2.75);
	NEAR(s.lo, -6.5);
	NEAR(s.hi, 1.0);
}

/* 60 + 60: the normal approximation (python3 as above, d[1426], d[2173]) */
static void test_hl_normal_known(void **state)
{
	double x[60], y[60], same[60];
	struct pp_shift s;
	int i;

	(void)state;
	for (i = 0; i < 60; i++) {
		x[i] = i;
		y[i] = i + 10.5;
		same[i] = 7;
	}
	assert_int_equal(pp_hodges_lehmann(x, 60, y, 60, 0.95, &s), 0);
	assert_false(s.exact);
	NEAR(s.est, 10.5);
	NEAR(s.lo, 3.5);
	NEAR(s.hi, 17.5);
	assert_true(s.achieved >= 0.95 && s.achieved < 0.96);
	/* all tied: no spread at all, and no division by zero */
	assert_int_equal(pp_hodges_lehmann(same, 60, same, 60, 0.95, &s), 0);
	NEAR(s.est, 0);
	NEAR(s.lo, 0);
	NEAR(s.hi, 0);
	assert_int_equal(pp_hodges_lehmann(same, 0, same, 60, 0.95, &s), -EINVAL);
}

static void test_verdict_rules(void **state)
{
	(void)state;
	assert_int_equal(pp_cmp_verdict(0, -5, 5, PP_LOWER_IS_BETTER, 5), PP_VERDICT_SAME);
	assert_int_equal(pp_cmp_verdict(4, 3, 5, PP_LOWER_IS_BETTER, 5), PP_VERDICT_SAME);
	assert_int_equal(pp_cmp_verdict(4, 3, 5.1, PP_LOWER_IS_BETTER, 5), PP_VERDICT_NOISY);
	assert_int_equal(pp_cmp_verdict(6, 0.1, 12, PP_LOWER_IS_BETTER, 5),
			 PP_VERDICT_REGRESSION);
	assert_int_equal(pp_cmp_verdict(6, -0.1, 12, PP_LOWER_IS_BETTER, 5),
			 PP_VERDICT_NOISY);
	assert_int_equal(pp_cmp_verdict(6, 0.1, 12, PP_HIGHER_IS_BETTER, 5),
			 PP_VERDICT_IMPROVEMENT);
	assert_int_equal(pp_cmp_verdict(-6, -12, -0.1, PP_HIGHER_IS_BETTER, 5),
			 PP_VERDICT_REGRESSION);
	assert_int_equal(pp_cmp_verdict(-6, -12, -0.1, PP_LOWER_IS_BETTER, 5),
			 PP_VERDICT_IMPROVEMENT);
	/* significant but the estimate within the threshold: cannot tell */
	assert_int_equal(pp_cmp_verdict(4, 1, 7, PP_LOWER_IS_BETTER, 5), PP_VERDICT_NOISY);
	assert_string_equal(pp_verdict_name(PP_VERDICT_REGRESSION), "regression");
	assert_string_equal(pp_verdict_name(PP_VERDICT_NOISY), "noisy");
}

static enum pp_verdict verdict(const double *b, size_t nb, const double *n, size_t nn,
			       enum pp_dir dir, double threshold, struct pp_cmp_stat *st)
{
	assert_int_equal(pp_cmp_samples(b, nb, n, nn, dir, threshold, st), 0);
	assert_true(st->lo_pct <= st->change_pct && st->change_pct <= st->hi_pct);
	/* the equivalence test's 90% interval lies within the 95% one */
	assert_true(st->lo_pct <= st->eq_lo_pct && st->eq_lo_pct <= st->change_pct);
	assert_true(st->change_pct <= st->eq_hi_pct && st->eq_hi_pct <= st->hi_pct);
	return st->verdict;
}

/* Three runs of 11 samples a side, as the default mode pools them. */
#define N	33

static void test_identical_same(void **state)
{
	double b[N], n[N];
	struct pp_cmp_stat st;
	int t, same = 0;

	(void)state;
	for (t = 0; t < 100; t++) {
		fill(b, N, 1.0, 2);
		fill(n, N, 1.0, 2);
		same += verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st) == PP_VERDICT_SAME;
	}
	assert_true(same >= 95);
	/* bitwise the same samples: 0% exactly */
	assert_int_equal(verdict(b, N, b, N, PP_LOWER_IS_BETTER, 5, &st), PP_VERDICT_SAME);
	NEAR(st.change_pct, 0);
	NEAR(st.median_pct, 0);
}

static void test_clear_shift(void **state)
{
	double b[N], n[N];
	struct pp_cmp_stat st;
	int t;

	(void)state;
	fill(b, N, 100.0, 1);
	fill(n, N, 120.0, 1);
	assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st),
			 PP_VERDICT_REGRESSION);
	assert_true(st.lo_pct > 15 && st.hi_pct < 25);
	assert_true(st.conf >= 0.95);
	assert_int_equal(verdict(b, N, n, N, PP_HIGHER_IS_BETTER, 5, &st),
			 PP_VERDICT_IMPROVEMENT);
	assert_int_equal(verdict(n, N, b, N, PP_HIGHER_IS_BETTER, 5, &st),
			 PP_VERDICT_REGRESSION);
	assert_true(st.change_pct < -15);

	/* compare.rst's figure: a 10% shift with CV 2% is always found */
	for (t = 0; t < 100; t++) {
		fill(b, N, 50.0, 2);
		fill(n, N, 55.0, 2);
		assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st),
				 PP_VERDICT_REGRESSION);
	}
}

static void test_wide_noisy_small_same(void **state)
{
	double b[N], n[N];
	struct pp_cmp_stat st;

	(void)state;
	/* CV 30%, 5 samples a side: a 10% shift cannot be told */
	fill(b, 5, 10.0, 30);
	fill(n, 5, 11.0, 30);
	assert_int_equal(verdict(b, 5, n, 5, PP_LOWER_IS_BETTER, 5, &st), PP_VERDICT_NOISY);
	assert_true(st.hi_pct - st.lo_pct > 20);
	/* a real 2% shift, tight samples: below the threshold of 5 */
	fill(b, N, 10.0, 0.5);
	fill(n, N, 10.2, 0.5);
	assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st), PP_VERDICT_SAME);
	assert_true(st.lo_pct > 0 && st.hi_pct < 5);
	/* ...and a regression at a threshold of 1 */
	assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 1, &st),
			 PP_VERDICT_REGRESSION);
}

static void test_ci_contains_true_shift(void **state)
{
	const double x[] = { 3.1, 2.9, 3.0, 3.3, 2.8, 3.05, 3.2 };
	double y[7], b[N], n[N];
	struct pp_cmp_stat st;
	int i, t, covered = 0;

	(void)state;
	/* new is exactly base x 1.2: every log difference pairs once at 0.182 */
	for (i = 0; i < 7; i++)
		y[i] = x[i] * 1.2;
	verdict(x, 7, y, 7, PP_LOWER_IS_BETTER, 5, &st);
	assert_true(st.exact);
	assert_true(fabs(st.change_pct - 20.0) < 1e-9);
	assert_true(st.lo_pct < 20 && st.hi_pct > 20);
	NEAR(st.median_pct, 20.0);

	/* coverage: the true +7% is inside the 95% interval nearly always */
	for (t = 0; t < 200; t++) {
		fill(b, N, 1.0, 3);
		fill(n, N, 1.07, 3);
		verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st);
		covered += st.lo_pct <= 7.0 && 7.0 <= st.hi_pct;
	}
	assert_true(covered >= 180);
}

static void test_outliers_do_not_flip(void **state)
{
	double b[N], n[N];
	struct pp_cmp_stat st;
	enum pp_verdict v;
	int t;

	(void)state;
	for (t = 0; t < 20; t++) {
		fill(b, N, 1.0, 1);
		fill(n, N, 1.0, 1);
		assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st),
				 PP_VERDICT_SAME);
		/* an interrupt storm hits 3 samples of one side by 10x */
		n[3] *= 10;
		n[17] *= 10;
		n[30] *= 10;
		assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st),
				 PP_VERDICT_SAME);
		fill(n, N, 1.2, 1);
		v = verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st);
		b[0] *= 10;
		b[9] *= 10;
		assert_int_equal(v, PP_VERDICT_REGRESSION);
		assert_int_equal(verdict(b, N, n, N, PP_LOWER_IS_BETTER, 5, &st), v);
	}
}

static void test_bad_samples(void **state)
{
	const double good[] = { 1, 2, 3 }, zero[] = { 1, 0, 3 }, neg[] = { 1, -2, 3 };
	const double inf[] = { 1, INFINITY, 3 };
	struct pp_cmp_stat st;

	(void)state;
	assert_int_equal(pp_cmp_samples(good, 3, zero, 3, PP_LOWER_IS_BETTER, 5, &st), -EDOM);
	assert_int_equal(pp_cmp_samples(neg, 3, good, 3, PP_LOWER_IS_BETTER, 5, &st), -EDOM);
	assert_int_equal(pp_cmp_samples(good, 3, inf, 3, PP_LOWER_IS_BETTER, 5, &st), -EDOM);
	assert_int_equal(pp_cmp_samples(good, 0, good, 3, PP_LOWER_IS_BETTER, 5, &st),
			 -EINVAL);
}

static void test_order(void **state)
{
	struct pp_cmp_stat a = { .verdict = PP_VERDICT_REGRESSION, .change_pct = 10 };
	struct pp_cmp_stat b = { .verdict = PP_VERDICT_REGRESSION, .change_pct = -30 };
	struct pp_cmp_stat c = { .verdict = PP_VERDICT_SAME, .change_pct = 1 };
	struct pp_cmp_stat d = { .verdict = PP_VERDICT_NOISY, .change_pct = 1 };

	(void)state;
	/* b is worse: -30% of a higher-is-better key */
	assert_true(pp_cmp_order(&b, PP_HIGHER_IS_BETTER, &a, PP_LOWER_IS_BETTER) < 0);
	assert_true(pp_cmp_order(&a, PP_LOWER_IS_BETTER, &b, PP_HIGHER_IS_BETTER) > 0);
	assert_true(pp_cmp_order(&a, PP_LOWER_IS_BETTER, &d, PP_LOWER_IS_BETTER) < 0);
	assert_true(pp_cmp_order(&d, PP_LOWER_IS_BETTER, &c, PP_LOWER_IS_BETTER) < 0);
	assert_int_equal(pp_cmp_order(&c, PP_LOWER_IS_BETTER, &c, PP_LOWER_IS_BETTER), 0);
}

static void test_t95(void **state)
{
	(void)state;
	NEAR(pp_t95(1), 12.706);
	NEAR(pp_t95(10), 2.228);
	/* t(0.975, 25) = 2.0595: interpolated in 1/df between 20 and 30 */
	assert_true(fabs(pp_t95(25) - 2.0595) < 0.003);
	assert_true(fabs(pp_t95(1e9) - 1.960) < 0.001);
	assert_true(pp_t95(0) == pp_t95(1));
}

#define RUNS	3
#define PER	11

/*
 * One side of RUNS runs of PER samples: each run's level is mean moved
 * by run_sd_pct (the run-to-run variation), its samples spread by cv.
 */
static void fill_side(double *v, double *rmed, double mean, double run_sd_pct,
		      double cv_pct, size_t runs)
{
	size_t r;

	for (r = 0; r < runs; r++) {
		double level = mean * (1.0 + run_sd_pct / 100.0 * gauss());

		fill(v + r * PER, PER, level, cv_pct);
		rmed[r] = pp_median(v + r * PER, PER);
	}
}

static enum pp_verdict runs_verdict(double mb, double mn, double run_sd, double cv,
				    size_t runs, double assumed, struct pp_cmp_stat *st)
{
	static double b[RUNS * PER], n[RUNS * PER], bm[RUNS], nm[RUNS];
	struct pp_cmp_pool p = {
		.dir = PP_LOWER_IS_BETTER, .base = b, .new = n,
		.nbase = runs * PER, .nnew = runs * PER, .base_runs = runs, .new_runs = runs,
		.base_nmed = runs, .new_nmed = runs,
		.base_rmed = bm, .new_rmed = nm,
	};

	fill_side(b, bm, mb, run_sd, cv, runs);
	fill_side(n, nm, mn, run_sd, cv, runs);
	assert_int_equal(pp_cmp_runs(&p, 5, assumed, st), 0);
	assert_true(st->lo_pct <= st->change_pct && st->change_pct <= st->hi_pct);
	/* the equivalence test's 90% interval lies within the 95% one */
	assert_true(st->lo_pct <= st->eq_lo_pct && st->eq_lo_pct <= st->change_pct);
	assert_true(st->change_pct <= st->eq_hi_pct && st->eq_hi_pct <= st->hi_pct);
	return st->verdict;
}

/*
 * Runs as clusters.  Same kernel, runs that drift by 4% from one to the
 * next (as measured on the development host): almost never a regression.
 */
static void test_runs_as_clusters(void **state)
{
	struct pp_cmp_stat st;
	int t, reg = 0, same = 0, found = 0;

	(void)state;
	for (t = 0; t < 100; t++) {
		reg += runs_verdict(1.0, 1.0, 4, 2, RUNS, 4, &st) == PP_VERDICT_REGRESSION;
		assert_true(st.run_noise_measured);
		assert_int_equal(st.base_runs, RUNS);
	}
	assert_true(reg <= 5);
	/* no drift between runs: identical is "same" as before */
	for (t = 0; t < 100; t++)
		same += runs_verdict(1.0, 1.0, 0, 2, RUNS, 4, &st) == PP_VERDICT_SAME;
	assert_true(same >= 95);
	/* a 10% shift with CV 2% and no drift: always found */
	for (t = 0; t < 100; t++)
		found += runs_verdict(50.0, 55.0, 0, 2, RUNS, 4, &st) == PP_VERDICT_REGRESSION;
	assert_int_equal(found, 100);
}

/*
 * "same" is the equivalence test at 5%: two one-sided tests, the 90%
 * interval within the threshold.  Its size: a true change of exactly the
 * threshold is called "same" in about 5% of trials at most.  Its power
 * is above the 95% interval's, which was a 2.5% test on each side.
 */
static void test_equivalence(void **state)
{
	struct pp_cmp_stat st;
	int t, same = 0, same95 = 0, margin = 0;

	(void)state;
	NEAR(pp_t90(1), 6.314);
	NEAR(pp_t90(10), 1.812);
	assert_true(fabs(pp_t90(1e9) - 1.645) < 0.001);
	assert_true(pp_t90(0) == pp_t90(1));
	for (t = 0; t < 200; t++) {
		/* the same kernel, 3 runs a side drifting by 3% */
		if (runs_verdict(1.0, 1.0, 3, 2, RUNS, 4, &st) == PP_VERDICT_SAME)
			same++;
		same95 += st.lo_pct >= -5 && st.hi_pct <= 5;
		/* new 5% slower: at the margin */
		margin += runs_verdict(1.0, 1.05, 3, 2, RUNS, 4, &st) == PP_VERDICT_SAME;
	}
	print_message("# equivalence: same %d of 200 (95%% interval alone: %d); "
		      "a 5%% change called same %d of 200\n", same, same95, margin);
	assert_true(same >= same95);
	assert_true(margin <= 20);
}

/* One run a side: the run-to-run variation is assumed, not measured. */
static void test_one_run_assumed(void **state)
{
	struct pp_cmp_stat st;
	int t, reg = 0;

	(void)state;
	for (t = 0; t < 100; t++) {
		/* the same kernel, two runs 4% apart at random */
		reg += runs_verdict(1.0, 1.0, 4, 2, 1, 4, &st) == PP_VERDICT_REGRESSION;
		assert_false(st.run_noise_measured);
		NEAR(st.run_noise_pct, 4.0);
	}
	assert_true(reg <= 5);
	/* a 30% shift stands out of any of that */
	assert_int_equal(runs_verdict(10.0, 13.0, 0, 2, 1, 4, &st), PP_VERDICT_REGRESSION);
	/* --run-noise 0: the samples alone, as pp_cmp_samples() */
	runs_verdict(10.0, 10.0, 0, 2, 1, 0, &st);
	assert_true(st.hi_pct - st.lo_pct < 5);
}

static void add(struct pp_run *run, const char *key, const char *unit,
		enum pp_dir dir, double v0, double v1)
{
	const double v[] = { v0, v1 };

	assert_non_null(pp_run_add(run, key, unit, dir, v, 2));
}

static void test_pool(void **state)
{
	struct pp_run base[2], new[1];
	struct pp_cmp_pool *p;
	struct pp_result *r;
	size_t n;

	(void)state;
	pp_run_init(&base[0]);
	pp_run_init(&base[1]);
	pp_run_init(&new[0]);
	add(&base[0], "lat_pipe", "us", PP_LOWER_IS_BETTER, 1, 2);
	add(&base[0], "bw_pipe", "MB/s", PP_HIGHER_IS_BETTER, 10, 11);
	r = pp_run_find_mut(&base[0], "lat_pipe");
	strcpy(r->k.source, "kmod");
	r->k.kernel_ns_per_op = 100;
	add(&base[1], "bw_pipe", "MB/s", PP_HIGHER_IS_BETTER, 12, 13);
	add(&base[1], "lat_pipe", "us", PP_LOWER_IS_BETTER, 3, 4);
	r = pp_run_find_mut(&base[1], "lat_pipe");
	strcpy(r->k.source, "kmod");
	r->k.kernel_ns_per_op = 300;
	add(&new[0], "lat_unix", "us", PP_LOWER_IS_BETTER, 5, 6);
	add(&new[0], "bw_pipe", "GB/s", PP_HIGHER_IS_BETTER, 1, 2);
	add(&new[0], "lat_pipe", "us", PP_LOWER_IS_BETTER, 7, 8);

	assert_int_equal(pp_cmp_pool(base, 2, new, 1, &p, &n), 0);
	assert_int_equal(n, 3);
	/* in the order the keys first appear, base runs first */
	assert_string_equal(p[0].key, "lat_pipe");
	assert_string_equal(p[1].key, "bw_pipe");
	assert_string_equal(p[2].key, "lat_unix");

	assert_int_equal(p[0].nbase, 4);
	assert_int_equal(p[0].base_runs, 2);
	assert_true(p[0].base[0] == 1 && p[0].base[1] == 2 && p[0].base[2] == 3 &&
		    p[0].base[3] == 4);
	assert_int_equal(p[0].nnew, 2);
	assert_true(p[0].new[0] == 7 && p[0].new[1] == 8);
	assert_false(p[0].conflict);
	assert_string_equal(p[0].base_k.source, "kmod");
	NEAR(p[0].base_k.kernel_ns_per_op, 200);
	assert_true(isnan(p[0].base_k.faults_per_op));
	assert_string_equal(p[0].new_k.source, "");
	assert_true(isnan(p[0].new_k.kernel_ns_per_op));

	assert_true(p[1].conflict);		/* MB/s against GB/s */
	assert_int_equal(p[1].dir, PP_HIGHER_IS_BETTER);

	assert_int_equal(p[2].nbase, 0);
	assert_null(p[2].base);
	assert_int_equal(p[2].new_runs, 1);
	pp_cmp_pool_free(p, n);

	/* nothing on either side */
	pp_run_free(&new[0]);
	pp_run_init(&new[0]);
	assert_int_equal(pp_cmp_pool(new, 1, new, 1, &p, &n), 0);
	assert_int_equal(n, 0);
	assert_null(p);
	pp_run_free(&base[0]);
	pp_run_free(&base[1]);
}

/*
 * Only measured keys gate: a key that any run records as derived (or a
 * fact) is pooled with that kind, and pp_cmp_gates() refuses it.
 */
static void test_pool_kind(void **state)
{
	struct pp_run base, new;
	struct pp_cmp_pool *p;
	size_t n;

	(void)state;
	pp_run_init(&base);
	pp_run_init(&new);
	add(&base, "lat_pipe", "us", PP_LOWER_IS_BETTER, 1, 2);
	add(&base, "lat_mem_rd-detected-l1-bytes", "bytes", PP_HIGHER_IS_BETTER, 49152, 49152);
	add(&base, "x-count", "runs", PP_HIGHER_IS_BETTER, 3, 3);
	add(&new, "lat_pipe", "us", PP_LOWER_IS_BETTER, 4, 8);
	add(&new, "lat_mem_rd-detected-l1-bytes", "bytes", PP_HIGHER_IS_BETTER, 12288, 12288);
	add(&new, "x-count", "runs", PP_HIGHER_IS_BETTER, 1, 1);
	/* derived on the new side only (a file from before kinds were kept) */
	pp_run_find_mut(&new, "lat_mem_rd-detected-l1-bytes")->kind = PP_KIND_DERIVED;
	pp_run_find_mut(&base, "x-count")->kind = PP_KIND_FACT;
	assert_int_equal(pp_cmp_pool(&base, 1, &new, 1, &p, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].kind, PP_KIND_MEASURED);
	assert_true(pp_cmp_gates(&p[0]));
	assert_int_equal(p[1].kind, PP_KIND_DERIVED);
	assert_false(pp_cmp_gates(&p[1]));
	assert_int_equal(p[2].kind, PP_KIND_FACT);
	assert_false(pp_cmp_gates(&p[2]));
	pp_cmp_pool_free(p, n);
	pp_run_free(&base);
	pp_run_free(&new);
}

static void meta(struct pp_run *run, const char *host, double mhz)
{
	struct pp_meta *m = &run->meta;

	pp_run_init(run);
	strcpy(m->hostname, host);
	strcpy(m->cpu_model, "Xeon");
	m->online_cpus = 4;
	strcpy(m->version, "0.1");
	strcpy(m->mode, "default");
	m->pin_cpu = 1;
	m->mhz.mhz = mhz;
	m->mhz.trusted = mhz > 0;
	strcpy(m->governor, "performance");
	strcpy(m->kcmdline, "BOOT_IMAGE=/boot/vmlinuz-6.1.0-57 root=/dev/sda1 ro quiet");
	strcpy(m->thp_enabled, "always");
	strcpy(m->mitig[0].name, "meltdown");
	strcpy(m->mitig[0].text, "Not affected");
	strcpy(m->mitig[1].name, "spectre_v2");
	strcpy(m->mitig[1].text, "Mitigation: Retpolines");
	m->nmitig = 2;
}

static const struct pp_cmp_warn *find_warn(const struct pp_cmp_warn *w, size_t n,
					   const char *fact)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(w[i].fact, fact))
			return &w[i];
	return NULL;
}

/*
 * A benchmark's facts (struct pp_bench's facts: storage's buffer) warn as
 * info.NAME when the sides differ; the same value, a side without it, or
 * an info that is no benchmark's fact (a path) does not.
 */
static void test_warn_bench_facts(void **state)
{
	static const char *const huge = "4096 kB, 4096 kB of it in transparent huge pages";
	static const char *const small = "4096 kB, 0 kB of it in transparent huge pages";
	struct pp_run base[1], new[2];
	const struct pp_cmp_warn *x;
	struct pp_cmp_warn *w;
	size_t n;

	(void)state;
	meta(&base[0], "box", 3000);
	meta(&new[0], "box", 3000);
	meta(&new[1], "box", 3000);
	pp_run_info(&base[0], "storage-buffer", huge);
	pp_run_info(&new[0], "storage-buffer", huge);
	pp_run_info(&base[0], "lat_pagefault-file", "/tmp/a/pf, 2048 pages");
	pp_run_info(&new[0], "lat_pagefault-file", "/tmp/b/pf, 2048 pages");
	assert_int_equal(pp_cmp_warnings(base, 1, new, 2, 5, &w, &n), 0);
	assert_int_equal(n, 0);

	pp_run_info(&new[1], "storage-buffer", small);
	assert_int_equal(pp_cmp_warnings(base, 1, new, 2, 5, &w, &n), 0);
	assert_int_equal(n, 1);
	x = find_warn(w, n, "info.storage-buffer");
	assert_non_null(x);
	assert_string_equal(x->base, huge);
	assert_true(strstr(x->new, huge) && strstr(x->new, " | ") && strstr(x->new, small));
	free(w);
	pp_run_free(&base[0]);
	pp_run_free(&new[0]);
	pp_run_free(&new[1]);
}

static void test_warnings(void **state)
{
	struct pp_run base[2], new[1];
	struct pp_cmp_warn *w;
	const struct pp_cmp_warn *x;
	size_t n;

	(void)state;
	meta(&base[0], "box", 3000);
	meta(&base[1], "box", 3050);
	meta(&new[0], "box", 3100);
	/* another kernel booted, nothing else changed: no warning at all */
	strcpy(new[0].meta.kcmdline, "BOOT_IMAGE=/boot/vmlinuz-6.8.0 root=/dev/sda1 ro  quiet");
	new[0].meta.thp_defrag[0] = '\0';
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 0);
	assert_null(w);

	/* now several facts differ */
	strcpy(new[0].meta.hostname, "other");
	new[0].meta.pin_cpu = -1;
	new[0].meta.mhz.mhz = 2000;
	strcpy(new[0].meta.governor, "powersave");
	strcpy(new[0].meta.kcmdline, "root=/dev/sda1 ro quiet mitigations=off");
	strcpy(new[0].meta.thp_enabled, "never");
	strcpy(base[1].meta.mode, "quick");		/* mixed within base */
	strcpy(new[0].meta.mitig[1].name, "srbds");	/* new lists srbds, */
	strcpy(new[0].meta.mitig[1].text, "Not affected");	/* not spectre_v2 */
	base[0].meta.governor[0] = '\0';		/* one base run did not record it */
	new[0].meta.online_cpus = 0;			/* not recorded on new: not compared */
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);

	x = find_warn(w, n, "hostname");
	assert_non_null(x);
	assert_string_equal(x->base, "box");
	assert_string_equal(x->new, "other");
	x = find_warn(w, n, "options.pin_cpu");
	assert_non_null(x);
	assert_string_equal(x->base, "1");
	assert_string_equal(x->new, "not pinned");
	x = find_warn(w, n, "mhz");
	assert_non_null(x);
	assert_string_equal(x->base, "3025");
	assert_string_equal(x->new, "2000");
	x = find_warn(w, n, "options.mode");
	assert_non_null(x);
	assert_string_equal(x->base, "default | quick");
	assert_string_equal(x->new, "default");
	x = find_warn(w, n, "cpufreq_governor");
	assert_non_null(x);
	assert_string_equal(x->base, "performance");
	x = find_warn(w, n, "kernel_cmdline");
	assert_non_null(x);
	assert_string_equal(x->base, "root=/dev/sda1 ro quiet");
	assert_string_equal(x->new, "root=/dev/sda1 ro quiet mitigations=off");
	assert_non_null(find_warn(w, n, "thp.enabled"));
	x = find_warn(w, n, "mitigations.spectre_v2");
	assert_non_null(x);
	assert_string_equal(x->new, "");
	x = find_warn(w, n, "mitigations.srbds");
	assert_non_null(x);
	assert_string_equal(x->base, "");
	assert_string_equal(x->new, "Not affected");
	assert_null(find_warn(w, n, "mitigations.meltdown"));
	assert_null(find_warn(w, n, "online_cpus"));
	assert_null(find_warn(w, n, "cpu_model"));
	assert_null(find_warn(w, n, "thp.defrag"));
	assert_int_equal(n, 9);
	free(w);

	/* clocks within the tolerance agree */
	meta(&new[0], "box", 3100);
	base[1].meta.mhz.mhz = 2990;
	strcpy(base[1].meta.mode, "default");
	strcpy(base[0].meta.governor, "performance");
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 1, &w, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(w[0].fact, "mhz");
	free(w);
}

static void emul(struct pp_run *run, int emulated, bool virtual_clock)
{
	run->meta.emul = (struct pp_emul){ .recorded = true, .emulated = emulated,
					   .virtual_clock = virtual_clock };
	strcpy(run->meta.emul.accel, emulated == 1 ? "tcg" : "kvm");
}

/*
 * Emulation: instructions are never compared with time; an emulator on
 * the wall clock is said; virtual clocks on both sides are not a warning.
 */
static void test_emulation_warnings(void **state)
{
	struct pp_run base[2], new[1];
	struct pp_cmp_warn *w;
	const struct pp_cmp_warn *x;
	size_t n;

	(void)state;
	meta(&base[0], "ppvm", 0);
	meta(&base[1], "ppvm", 0);
	meta(&new[0], "ppvm", 0);
	/* not recorded anywhere (older files): wall, nothing said */
	assert_int_equal(pp_cmp_clock(base, 2, new, 1), PP_CMP_CLOCK_WALL);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 0);

	/* -icount on every run: instruction counts, comparable, no warning */
	emul(&base[0], 1, true);
	emul(&base[1], 1, true);
	emul(&new[0], 1, true);
	assert_int_equal(pp_cmp_clock(base, 2, new, 1), PP_CMP_CLOCK_VIRTUAL);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 0);

	/* one run timed: not comparable, said first */
	emul(&new[0], 1, false);
	assert_int_equal(pp_cmp_clock(base, 2, new, 1), PP_CMP_CLOCK_MIXED);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_true(n >= 1);
	assert_string_equal(w[0].fact, "emulation.clock");
	assert_int_equal(w[0].kind, PP_CMP_WARN_CLOCK);
	assert_string_equal(w[0].base, "virtual (instructions)");
	assert_string_equal(w[0].new, "wall");
	x = find_warn(w, n, "emulation");
	assert_non_null(x);
	assert_int_equal(x->kind, PP_CMP_WARN_EMULATED);
	free(w);

	/* mixed within one side is mixed too */
	emul(&new[0], 1, true);
	emul(&base[1], 1, false);
	assert_int_equal(pp_cmp_clock(base, 2, new, 1), PP_CMP_CLOCK_MIXED);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	x = find_warn(w, n, "emulation.clock");
	assert_non_null(x);
	assert_string_equal(x->base, "virtual (instructions) | wall");
	free(w);

	/* TCG on the wall clock on both sides: the same clock, but said */
	emul(&base[0], 1, false);
	emul(&new[0], 1, false);
	assert_int_equal(pp_cmp_clock(base, 2, new, 1), PP_CMP_CLOCK_WALL);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(w[0].fact, "emulation");
	assert_int_equal(w[0].kind, PP_CMP_WARN_EMULATED);
	assert_string_equal(w[0].base, "tcg (wall clock)");
	assert_string_equal(w[0].new, "tcg (wall clock)");
	free(w);

	/* KVM on one side, TCG on the other: the accelerator differs as well */
	emul(&base[0], 0, false);
	emul(&base[1], 0, false);
	assert_int_equal(pp_cmp_warnings(base, 2, new, 1, 5, &w, &n), 0);
	x = find_warn(w, n, "emulation.accelerator");
	assert_non_null(x);
	assert_int_equal(x->kind, PP_CMP_WARN_DIFFERS);
	assert_string_equal(x->base, "kvm");
	assert_string_equal(x->new, "tcg");
	x = find_warn(w, n, "emulation");
	assert_non_null(x);
	assert_string_equal(x->base, "not emulated");
	free(w);

	/* the side kernel-ab.sh names is not a difference in the command line */
	meta(&base[0], "ppvm", 0);
	meta(&new[0], "ppvm", 0);
	strcat(base[0].meta.kcmdline, " perfprobe_side=A");
	strcat(new[0].meta.kcmdline, " perfprobe_side=B");
	assert_int_equal(pp_cmp_warnings(base, 1, new, 1, 5, &w, &n), 0);
	assert_int_equal(n, 0);
}

/*
 * A profile of n samples: getppid as the leaf of g of them, the seccomp
 * filter of f, the rest in user space; kept by run and given to r.
 */
static void prof(struct pp_run *run, const char *key, double op_ns, uint64_t g, uint64_t f,
		 uint64_t n)
{
	struct pp_result *r = pp_run_find_mut(run, key);
	struct pp_prof *p = calloc(1, sizeof(*p));
	uint32_t s[4];

	assert_non_null(r);
	assert_non_null(p);
	strcpy(p->event, "cpu-clock");
	p->period = 250000;
	p->sample_ns = 100;
	assert_int_equal(pp_prof_frame(p, "main", &s[0]), 0);
	assert_int_equal(pp_prof_frame(p, "do_syscall_64", &s[1]), 0);
	assert_int_equal(pp_prof_frame(p, "__x64_sys_getppid", &s[2]), 0);
	assert_int_equal(pp_prof_add(p, s, 1, 2, g), 0);
	if (f) {
		assert_int_equal(pp_prof_frame(p, "syscall_trace_enter", &s[2]), 0);
		assert_int_equal(pp_prof_frame(p, "__seccomp_filter", &s[3]), 0);
		assert_int_equal(pp_prof_add(p, s, 1, 3, f), 0);
	}
	if (n > g + f)
		assert_int_equal(pp_prof_add(p, s, 1, 0, n - g - f), 0);
	p->samples = n;
	p->kernel = g + f;
	p->user = n - g - f;
	assert_int_equal(pp_run_keep_prof(run, p), 0);
	strcpy(r->k.source, "bpf");
	r->k.prof = p;
	r->k.prof_op_ns = op_ns;
	/* as many operations as the samples' CPU time makes at op_ns */
	r->k.prof_ops = (double)n * p->sample_ns / op_ns;
}

/*
 * The kernel time's change by function, in CPU time per operation: the
 * filter's appears on the new side alone and takes what the key gained;
 * getppid's own share shrinks as much as the operation grows, its time
 * the same.  Two runs on the new side are pooled: their samples and
 * operations summed.
 */
static void test_profile_diff(void **state)
{
	struct pp_run base[1], new[2];
	struct pp_cmp_pool *p;
	struct pp_pdiff d;
	size_t n, i;

	(void)state;
	pp_run_init(&base[0]);
	pp_run_init(&new[0]);
	pp_run_init(&new[1]);
	add(&base[0], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1, 1.1);
	add(&new[0], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1.5, 1.6);
	add(&new[1], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1.5, 1.6);
	add(&base[0], "lat_pipe", "us", PP_LOWER_IS_BETTER, 1, 2);
	add(&new[0], "lat_pipe", "us", PP_LOWER_IS_BETTER, 1, 2);
	prof(&base[0], "lat_syscall-null", 1000, 400, 0, 500);
	prof(&new[0], "lat_syscall-null", 1500, 160, 100, 300);
	prof(&new[1], "lat_syscall-null", 1500, 160, 100, 300);
	prof(&base[0], "lat_pipe", 1000, 10, 0, 10);

	assert_int_equal(pp_cmp_pool(base, 1, new, 2, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].nbase_prof, 1);
	assert_int_equal(p[0].nnew_prof, 2);
	assert_int_equal(pp_pdiff(&p[0], &d), 0);
	assert_int_equal(d.base_samples, 500);
	assert_int_equal(d.new_samples, 600);
	NEAR(d.op_delta, 500);
	NEAR(d.kernel_base, 800);
	NEAR(d.kernel_new, 1300);
	NEAR(d.kernel_delta, 500);
	assert_true(d.kernel_lo > 0 && d.kernel_lo < 500 && d.kernel_hi > 500);
	/* the filter: 200 of 600 samples of 1500 ns, none before */
	assert_int_equal(d.nfn, 2);
	assert_string_equal(d.fn[0].name, "__seccomp_filter");
	NEAR(d.fn[0].delta, 500);
	assert_true(d.fn[0].beyond && d.fn[0].lo > 0);
	assert_string_equal(d.fn[0].path,
			    "__seccomp_filter <- syscall_trace_enter <- do_syscall_64");
	/* getppid: 400 of 500 x 1000 before, 320 of 600 x 1500 after */
	for (i = 0; i < d.nfn && strcmp(d.fn[i].name, "__x64_sys_getppid"); i++)
		;
	assert_true(i < d.nfn);
	assert_true(fabs(d.fn[i].delta) < 1e-9 && !d.fn[i].beyond);
	NEAR(d.explained_pct, 100);
	assert_int_equal(d.nbeyond, 1);
	/* one side without a profile: nothing to tell */
	assert_int_equal(pp_pdiff(&p[1], &d), -ENOENT);
	pp_cmp_pool_free(p, n);

	/*
	 * A busy machine took the CPU from the new side's untraced samples:
	 * its wall time per operation doubled, the CPU time its samples
	 * stand for did not.  The functions' changes stay; what they
	 * explain of the (noisy) change shrinks.
	 */
	pp_run_find_mut(&new[0], "lat_syscall-null")->k.prof_op_ns = 3000;
	pp_run_find_mut(&new[1], "lat_syscall-null")->k.prof_op_ns = 3000;
	assert_int_equal(pp_cmp_pool(base, 1, new, 2, &p, &n), 0);
	assert_int_equal(pp_pdiff(&p[0], &d), 0);
	NEAR(d.op_delta, 2000);
	NEAR(d.kernel_delta, 500);
	assert_string_equal(d.fn[0].name, "__seccomp_filter");
	NEAR(d.fn[0].delta, 500);
	NEAR(d.explained_pct, 25);
	pp_cmp_pool_free(p, n);
	pp_run_free(&base[0]);
	pp_run_free(&new[0]);
	pp_run_free(&new[1]);
}

/* The node of t at the path of names (root first), or NONE. */
static uint32_t tree_at(const struct pp_pdiff_tree *t, const char *const *path, size_t n)
{
	uint32_t at = 0, c;
	size_t i;

	for (i = 0; i < n; i++) {
		for (c = t->v[at].child; c != PP_PDIFF_NONE && strcmp(t->v[c].name, path[i]);
		     c = t->v[c].next)
			;
		if (c == PP_PDIFF_NONE)
			return PP_PDIFF_NONE;
		at = c;
	}
	return at;
}

/*
 * The sides' kernel stacks as one call tree, the runs of a side summed
 * (the report draws it): a path's samples on each side, a node's at
 * least its children's, and the functions compare names are the leaves'
 * own samples.
 */
static void test_profile_tree(void **state)
{
	static const char *const seccomp[] = { "do_syscall_64", "syscall_trace_enter",
					       "__seccomp_filter" };
	static const char *const getppid[] = { "do_syscall_64", "__x64_sys_getppid" };
	struct pp_run base[1], new[2];
	struct pp_pdiff_tree t;
	struct pp_cmp_pool *p;
	uint64_t b, nw, cb, cn;
	uint32_t i, c;
	size_t n;

	(void)state;
	pp_run_init(&base[0]);
	pp_run_init(&new[0]);
	pp_run_init(&new[1]);
	add(&base[0], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1, 1.1);
	add(&new[0], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1.5, 1.6);
	add(&new[1], "lat_syscall-null", "us", PP_LOWER_IS_BETTER, 1.5, 1.6);
	prof(&base[0], "lat_syscall-null", 1000, 400, 0, 500);
	prof(&new[0], "lat_syscall-null", 1500, 160, 100, 300);
	prof(&new[1], "lat_syscall-null", 1500, 150, 0, 300);
	assert_int_equal(pp_cmp_pool(base, 1, new, 2, &p, &n), 0);
	assert_int_equal(pp_pdiff_tree(&p[0], &t), 0);

	/* the root: every kernel sample; user samples are in no node */
	assert_int_equal(t.v[0].base, 400);
	assert_int_equal(t.v[0].new, 410);
	i = tree_at(&t, getppid, 2);
	assert_int_not_equal(i, PP_PDIFF_NONE);
	assert_int_equal(t.v[i].base, 400);
	assert_int_equal(t.v[i].new, 310);
	i = tree_at(&t, seccomp, 3);
	assert_int_not_equal(i, PP_PDIFF_NONE);
	assert_int_equal(t.v[i].base, 0);
	assert_int_equal(t.v[i].new, 100);
	assert_int_equal(t.v[t.v[i].parent].new, 100);
	/* one node a path: do_syscall_64 once, under the root */
	i = tree_at(&t, seccomp, 1);
	assert_int_equal(t.v[0].child, i);
	assert_int_equal(t.v[i].next, PP_PDIFF_NONE);
	pp_pdiff_self(&t, i, &b, &nw);
	assert_int_equal(b, 0);
	assert_int_equal(nw, 0);
	/* a parent before its children; their samples within its */
	for (i = 0; i < t.n; i++) {
		cb = cn = 0;
		for (c = t.v[i].child; c != PP_PDIFF_NONE; c = t.v[c].next) {
			assert_true(c > i);
			assert_int_equal(t.v[c].parent, i);
			cb += t.v[c].base;
			cn += t.v[c].new;
		}
		assert_true(cb <= t.v[i].base && cn <= t.v[i].new);
	}
	pp_pdiff_tree_free(&t);
	pp_cmp_pool_free(p, n);
	pp_run_free(&base[0]);
	pp_run_free(&new[0]);
	pp_run_free(&new[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hl_exact_known),
		cmocka_unit_test(test_hl_normal_known),
		cmocka_unit_test(test_verdict_rules),
		cmocka_unit_test(test_identical_same),
		cmocka_unit_test(test_clear_shift),
		cmocka_unit_test(test_wide_noisy_small_same),
		cmocka_unit_test(test_ci_contains_true_shift),
		cmocka_unit_test(test_outliers_do_not_flip),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_t95),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_runs_as_clusters),
		cmocka_unit_test(test_pool_kind),
		cmocka_unit_test(test_one_run_assumed),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_profile_diff),
		cmocka_unit_test(test_profile_tree),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_warn_bench_facts),
		cmocka_unit_test(test_emulation_warnings),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
