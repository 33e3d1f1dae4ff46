// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing runs: the statistics of one key, the pooling of runs, and the
 * facts that make runs incomparable.  Documentation/compare.rst.
 *
 * Why Hodges-Lehmann with the Mann-Whitney interval, not a bootstrap of
 * the ratio of medians: it is exact and deterministic (no generator, no
 * seed, the same answer on every machine), it has a known coverage for
 * the small samples a run has (11 per key by default, where a bootstrap
 * of the median is coarse and under-covers), and it keeps its robustness
 * to the outliers preemption and interrupts add.  It assumes the samples
 * are independent and that new differs from base by a shift; taken on the
 * logarithms of the samples, that shift is a ratio, which is how kernels
 * change costs (a "+14%" applies to every sample, not "+14 ns").
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "print.h"
#include "report/compare.h"
#include "stats.h"
#include "util.h"

/* Both samples below this size and no ties: the exact distribution. */
#define EXACT_MAX	50

const char *pp_verdict_name(enum pp_verdict v)
{
	static const char *const names[] = {
		[PP_VERDICT_SAME] = "same",
		[PP_VERDICT_REGRESSION] = "regression",
		[PP_VERDICT_IMPROVEMENT] = "improvement",
		[PP_VERDICT_NOISY] = "noisy",
	};

	return (unsigned int)v < ARRAY_SIZE(names) ? names[v] : "?";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* P(Z <= z) of the standard normal. */
static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* z with P(Z > z) = p, 0 < p < 0.5: bisection, exact to the double. */
static double norm_upper(double p)
{
	double lo = 0, hi = 40;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (1.0 - norm_cdf(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The null distribution of the Mann-Whitney count U for samples of m and
 * n values: how many of the C(m+n, m) orderings give U = u is the
 * coefficient of q^u in the Gaussian binomial
 *	[m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
 * built one factor at a time.  Returns P(U <= u) for u = 0..mn.
 */
static double *mw_cdf(size_t m, size_t n)
{
	size_t len = m * n + m + 1, deg = 0, i, k;
	double *c = calloc(len, sizeof(*c)), total = 0;

	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		for (k = deg + n + i; k >= n + i; k--)
			c[k] -= c[k - n - i];
		for (k = i; k <= deg + n; k++)
			c[k] += c[k - i];
		for (k = deg + n + 1; k <= deg + n + i; k++)
			c[k] = 0;	/* exactly divisible: the rest is 0 */
		deg += n;
	}
	for (k = 0; k <= deg; k++)
		total += c[k];
	for (k = 0; k <= deg; k++)
		c[k] = (k ? c[k - 1] : 0) + c[k] / total;
	return c;
}

/* The sum over groups of tied values of t^3 - t; v is sorted. */
static double tie_sum(const double *v, size_t n)
{
	double sum = 0;
	size_t i = 0, j;

	while (i < n) {
		for (j = i + 1; j < n && v[j] == v[i]; j++)
			;
		sum += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
		i = j;
	}
	return sum;
}

/*
 * The rank k (1-based) of the interval's lower end among the sorted
 * differences, and in out the interval's confidence: [D(k), D(mn+1-k)]
 * holds the shift with probability 1 - 2 P(U <= k-1).  k is the largest
 * rank with P(U <= k-1) <= alpha/2, and 1 when even that is too much.
 * Returns k, or -ENOMEM.
 */
static long ci_rank(const double *x, size_t m, const double *y, size_t n, double conf,
		    struct pp_shift *out)
{
	double half = (1.0 - conf) / 2, mn = (double)m * (double)n;
	double *all = malloc((m + n) * sizeof(*all)), ties, mu, sd, *cdf;
	size_t w, k;

	if (!all)
		return -ENOMEM;
	memcpy(all, x, m * sizeof(*x));
	memcpy(all + m, y, n * sizeof(*y));
	qsort(all, m + n, sizeof(*all), cmp_double);
	ties = tie_sum(all, m + n);
	free(all);

	out->exact = m < EXACT_MAX && n < EXACT_MAX && ties == 0;
	if (out->exact) {
		cdf = mw_cdf(m < n ? m : n, m < n ? n : m);
		if (!cdf)
			return -ENOMEM;
		for (w = 0; w < m * n && cdf[w] <= half * (1 + 1e-12); w++)
			;
		k = w ? w : 1;
		out->achieved = 1.0 - 2.0 * cdf[k - 1];
		free(cdf);
		return (long)k;
	}
	/* N(mn/2, sd) with the tie correction, and a continuity correction */
	mu = mn / 2;
	sd = sqrt(mn / 12.0 * ((double)(m + n) + 1.0 -
			       ties / ((double)(m + n) * (double)(m + n - 1))));
	if (!(sd > 0)) {	/* every value the same: every difference 0 */
		out->achieved = 1.0;
		return 1;
	}
	w = (size_t)fmax(0.0, floor(mu - 0.5 - norm_upper(half) * sd) + 1.0);
	k = w ? w : 1;
	if (k > (m * n + 1) / 2)
		k = (m * n + 1) / 2;
	out->achieved = 1.0 - 2.0 * norm_cdf(((double)k - 1.0 + 0.5 - mu) / sd);
	return (long)k;
}

/*
 * pp_hodges_lehmann() at nconf confidences at once: the m*n differences
 * are made and sorted once, then each interval is two of them.
 */
static int hl_intervals(const double *x, size_t m, const double *y, size_t n,
			const double *conf, struct pp_shift *out, size_t nconf)
{
	size_t i, j, mn, k;
	double *d;
	long rank = 0;

	for (i = 0; i < nconf; i++)
		if (!(conf[i] > 0 && conf[i] < 1))
			return -EINVAL;
	if (!m || !n)
		return -EINVAL;
	if (m > SIZE_MAX / sizeof(*d) / n)
		return -ENOMEM;
	mn = m * n;
	d = malloc(mn * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			d[i * n + j] = y[j] - x[i];
	qsort(d, mn, sizeof(*d), cmp_double);
	for (i = 0; i < nconf && rank >= 0; i++) {
		rank = ci_rank(x, m, y, n, conf[i], &out[i]);
		if (rank > 0) {
			k = (size_t)rank;
			out[i].est = mn & 1 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
			out[i].lo = d[k - 1];
			out[i].hi = d[mn - k];
		}
	}
	free(d);
	return rank < 0 ? (int)rank : 0;
}

int pp_hodges_lehmann(const double *x, size_t m, const double *y, size_t n,
		      double conf, struct pp_shift *out)
{
	return hl_intervals(x, m, y, n, &conf, out, 1);
}

/*
 * The rules, with the change and its interval in %, "worse" being up for
 * lower-is-better keys and down for higher-is-better ones:
 *	same		the whole interval within [-threshold, +threshold]
 *	regression	the whole interval on the worse side of 0, and the
 *			estimate beyond the threshold on that side
 *	improvement	the same on the better side
 *	noisy		anything else: the interval reaches past the
 *			threshold and either holds 0 or holds the threshold
 *			while the estimate is within it
 */
enum pp_verdict pp_cmp_verdict(double change_pct, double lo_pct, double hi_pct,
			       enum pp_dir dir, double threshold_pct)
{
	double worse = change_pct, wlo = lo_pct, whi = hi_pct;

	if (dir == PP_HIGHER_IS_BETTER) {
		worse = -change_pct;
		wlo = -hi_pct;
		whi = -lo_pct;
	}
	if (lo_pct >= -threshold_pct && hi_pct <= threshold_pct)
		return PP_VERDICT_SAME;
	if (wlo > 0 && worse > threshold_pct)
		return PP_VERDICT_REGRESSION;
	if (whi < 0 && worse < -threshold_pct)
		return PP_VERDICT_IMPROVEMENT;
	return PP_VERDICT_NOISY;
}

static double *logs(const double *v, size_t n)
{
	double *l;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] <= 0)
			return NULL;
	l = malloc(n * sizeof(*l));
	for (i = 0; l && i < n; i++)
		l[i] = log(v[i]);
	return l;
}

/*
 * The verdict of the intervals in out: pp_cmp_verdict() on the 95% one,
 * and "same" wherever the 90% one shows equivalence (the two one-sided
 * tests; the 95% interval within the threshold implies it).
 */
static void cmp_decide(struct pp_cmp_stat *out, enum pp_dir dir, double threshold_pct)
{
	out->verdict = pp_cmp_verdict(out->change_pct, out->lo_pct, out->hi_pct,
				      dir, threshold_pct);
	if (out->eq_lo_pct >= -threshold_pct && out->eq_hi_pct <= threshold_pct)
		out->verdict = PP_VERDICT_SAME;
}

/* Seven parameters: two samples and their sizes (as pp_hodges_lehmann()), the rule, the result. */
int pp_cmp_samples(const double *base, size_t nbase, const double *new,
		   size_t nnew, enum pp_dir dir, double threshold_pct,
		   struct pp_cmp_stat *out)
{
	static const double conf[] = { PP_CMP_CONF, PP_CMP_EQ_CONF };
	struct pp_shift sh[2], s, eq;
	double *lb, *ln;
	int err = -EDOM;

	if (!nbase || !nnew)
		return -EINVAL;
	lb = logs(base, nbase);
	ln = logs(new, nnew);
	if (lb && ln)
		err = hl_intervals(lb, nbase, ln, nnew, conf, sh, 2);
	free(lb);
	free(ln);
	if (err)
		return err;
	s = sh[0];
	eq = sh[1];
	memset(out, 0, sizeof(*out));
	out->nbase = nbase;
	out->nnew = nnew;
	out->base_median = pp_median(base, nbase);
	out->new_median = pp_median(new, nnew);
	if (isnan(out->base_median) || isnan(out->new_median))
		return -ENOMEM;
	out->median_pct = (out->new_median / out->base_median - 1.0) * 100.0;
	out->change_pct = expm1(s.est) * 100.0;
	out->lo_pct = expm1(s.lo) * 100.0;
	out->hi_pct = expm1(s.hi) * 100.0;
	out->eq_lo_pct = expm1(eq.lo) * 100.0;
	out->eq_hi_pct = expm1(eq.hi) * 100.0;
	out->conf = s.achieved;
	out->exact = s.exact;
	cmp_decide(out, dir, threshold_pct);
	return 0;
}

/*
 * Student t quantiles, two-sided 95% (t(0.975, df)) and 90% (t(0.95, df)),
 * interpolated in 1/df; towards the normal quantiles at infinity.
 */
static const struct {
	double df, t95, t90;
} t_tab[] = {
	{ 1, 12.706, 6.314 }, { 2, 4.303, 2.920 }, { 3, 3.182, 2.353 }, { 4, 2.776, 2.132 },
	{ 5, 2.571, 2.015 }, { 6, 2.447, 1.943 }, { 7, 2.365, 1.895 }, { 8, 2.306, 1.860 },
	{ 9, 2.262, 1.833 }, { 10, 2.228, 1.812 }, { 12, 2.179, 1.782 }, { 15, 2.131, 1.753 },
	{ 20, 2.086, 1.725 }, { 30, 2.042, 1.697 }, { 60, 2.000, 1.671 }, { 120, 1.980, 1.658 },
};

static double t_quantile(double df, bool ninety)
{
	size_t i, last = ARRAY_SIZE(t_tab) - 1;
#define T_AT(k) (ninety ? t_tab[k].t90 : t_tab[k].t95)

	if (!(df >= 1))
		return T_AT(0);
	for (i = 1; i <= last; i++) {
		if (df <= t_tab[i].df) {
			double a = 1 / t_tab[i - 1].df, b = 1 / t_tab[i].df, x = 1 / df;

			return T_AT(i - 1) + (T_AT(i) - T_AT(i - 1)) * (a - x) / (a - b);
		}
	}
	/* the normal quantile at infinity */
	return (ninety ? 1.645 : 1.960) + (T_AT(last) - (ninety ? 1.645 : 1.960)) * t_tab[last].df / df;
#undef T_AT
}

double pp_t95(double df)
{
	return t_quantile(df, false);
}

double pp_t90(double df)
{
	return t_quantile(df, true);
}

/* Sum of squares about the mean of the logs of v (n finite, positive). */
static double log_ss(const double *v, size_t n, size_t *used)
{
	double mean = 0, ss = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (isfinite(v[i]) && v[i] > 0) {
			mean += log(v[i]);
			k++;
		}
	}
	*used = k;
	if (k < 2)
		return 0;
	mean /= (double)k;
	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0)
			ss += (log(v[i]) - mean) * (log(v[i]) - mean);
	return ss;
}

/*
 * Widen an interval (in %, around change_pct) by the run-level half
 * width half (in logs): the wider of the two where the runs' variation
 * was measured (run medians carry the samples' noise too), added in
 * quadrature where it was assumed (independent sources).
 */
static void widen(double change_pct, double *lo_pct, double *hi_pct, double half,
		  bool measured)
{
	double est = log1p(change_pct / 100.0);
	double lo = log1p(*lo_pct / 100.0), hi = log1p(*hi_pct / 100.0);

	if (measured) {
		lo = fmin(lo, est - half);
		hi = fmax(hi, est + half);
	} else {
		lo = est - hypot(est - lo, half);
		hi = est + hypot(hi - est, half);
	}
	*lo_pct = expm1(lo) * 100.0;
	*hi_pct = expm1(hi) * 100.0;
}

/* Whether the two sides' samples are the same numbers, in any order. */
static bool same_samples(const double *x, size_t m, const double *y, size_t n)
{
	double *a;
	bool eq;

	if (m != n || !m)
		return false;
	a = malloc(2 * m * sizeof(*a));
	if (!a)
		return false;
	memcpy(a, x, m * sizeof(*a));
	memcpy(a + m, y, m * sizeof(*a));
	qsort(a, m, sizeof(*a), cmp_double);
	qsort(a + m, m, sizeof(*a), cmp_double);
	eq = !memcmp(a, a + m, m * sizeof(*a));
	free(a);
	return eq;
}

int pp_cmp_runs(const struct pp_cmp_pool *p, double threshold_pct,
		double run_noise_pct, struct pp_cmp_stat *out)
{
	size_t kb, kn;
	double ssb = log_ss(p->base_rmed, p->base_nmed, &kb);
	double ssn = log_ss(p->new_rmed, p->new_nmed, &kn);
	double df = (kb > 1 ? (double)kb - 1 : 0) + (kn > 1 ? (double)kn - 1 : 0) +
		    (double)p->hist_df;
	double sd, se, q, q_eq;
	int err;

	err = pp_cmp_samples(p->base, p->nbase, p->new, p->nnew, p->dir, threshold_pct, out);
	if (err)
		return err;
	out->base_runs = p->base_runs;
	out->new_runs = p->new_runs;
	out->base_nmed = p->base_nmed;
	out->new_nmed = p->new_nmed;
	out->history_runs = p->hist_df ? p->hist_runs : 0;
	if (df > 0) {
		sd = sqrt((ssb + ssn + p->hist_ss) / df);
		q = pp_t95(df);
		q_eq = pp_t90(df);
		out->run_noise_measured = true;
	} else {
		sd = log1p(run_noise_pct / 100.0);
		q = 1.960;
		q_eq = 1.645;
		out->run_noise_measured = false;
	}
	out->run_noise_pct = expm1(sd) * 100.0;
	if (same_samples(p->base, p->nbase, p->new, p->nnew)) {
		out->identical = true;
		out->change_pct = out->lo_pct = out->hi_pct = 0;
		out->eq_lo_pct = out->eq_hi_pct = 0;
		out->verdict = PP_VERDICT_SAME;
		return 0;
	}
	if (!(sd > 0) || !p->base_nmed || !p->new_nmed)
		return 0;
	/* in logs: the samples' intervals, widened by the runs' */
	se = sd * sqrt(1.0 / (double)p->base_nmed + 1.0 / (double)p->new_nmed);
	widen(out->change_pct, &out->lo_pct, &out->hi_pct, q * se, out->run_noise_measured);
	widen(out->change_pct, &out->eq_lo_pct, &out->eq_hi_pct, q_eq * se,
	      out->run_noise_measured);
	cmp_decide(out, p->dir, threshold_pct);
	return 0;
}

void pp_cmp_history(struct pp_cmp_pool *p, const struct pp_run *hist, size_t nhist)
{
	double *med;
	size_t i, n = 0, k, used;

	for (i = 0; i < nhist; i++) {
		const struct pp_result *r = pp_run_find(&hist[i], p->key);

		if (r && r->nsamples && !strcmp(r->unit, p->unit) && r->dir == p->dir)
			n += r->nrounds > 1 ? r->nrounds : 1;
	}
	med = n > 1 ? malloc(n * sizeof(*med)) : NULL;
	if (!med)
		return;
	for (i = 0, n = 0, k = 0; i < nhist; i++) {
		const struct pp_result *r = pp_run_find(&hist[i], p->key);

		if (!r || !r->nsamples || strcmp(r->unit, p->unit) || r->dir != p->dir)
			continue;
		if (r->nrounds > 1) {
			memcpy(med + n, r->rounds, r->nrounds * sizeof(*med));
			n += r->nrounds;
		} else {
			med[n++] = pp_median(r->samples, r->nsamples);
		}
		k++;
	}
	p->hist_ss += log_ss(med, n, &used);
	if (used > 1) {
		p->hist_df += used - 1;
		p->hist_runs += k;
	}
	free(med);
}

int pp_cmp_order(const struct pp_cmp_stat *a, enum pp_dir adir,
		 const struct pp_cmp_stat *b, enum pp_dir bdir)
{
	static const int rank[] = {
		[PP_VERDICT_REGRESSION] = 0,
		[PP_VERDICT_NOISY] = 1,
		[PP_VERDICT_IMPROVEMENT] = 2,
		[PP_VERDICT_SAME] = 3,
	};
	double wa = adir == PP_HIGHER_IS_BETTER ? -a->change_pct : a->change_pct;
	double wb = bdir == PP_HIGHER_IS_BETTER ? -b->change_pct : b->change_pct;

	if (a->verdict != b->verdict)
		return rank[a->verdict] - rank[b->verdict];
	/* the worst first among regressions, the largest first otherwise */
	if (a->verdict != PP_VERDICT_REGRESSION) {
		wa = fabs(wa);
		wb = fabs(wb);
	}
	return (wa < wb) - (wa > wb);
}

/* --- pooling runs --- */

struct entry {
	const struct pp_result *r;
	const struct pp_run *run;
	size_t seq;		/* order of appearance, base runs first */
	bool new;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->r->key, y->r->key);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* One field of the kernel views of a side: the median over its runs. */
static double kside_median(const struct entry *e, size_t n, bool new,
			   size_t off, double *tmp)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		double v;

		if (e[i].new != new || !e[i].r->k.source[0])
			continue;
		memcpy(&v, (const char *)&e[i].r->k + off, sizeof(v));
		if (isfinite(v))
			tmp[k++] = v;
	}
	return k ? pp_median(tmp, k) : NAN;
}

static void kside_pool(struct pp_kside *k, const struct entry *e, size_t n,
		       bool new, double *tmp)
{
	static const size_t fields[] = {
		offsetof(struct pp_kside, kernel_ns_per_op),
		offsetof(struct pp_kside, kernel_ns_err),
		offsetof(struct pp_kside, window_probe_ns_per_op),
		offsetof(struct pp_kside, entry_exit_ns_per_op),
		offsetof(struct pp_kside, probe_ns_per_op),
		offsetof(struct pp_kside, syscalls_per_op),
		offsetof(struct pp_kside, faults_per_op),
		offsetof(struct pp_kside, fault_ns_per_op),
		offsetof(struct pp_kside, switches_per_op),
		offsetof(struct pp_kside, offcpu_ns_per_op),
		offsetof(struct pp_kside, copy_bytes_per_op),
		offsetof(struct pp_kside, copy_ns_per_op),
		offsetof(struct pp_kside, probe2_ns_per_op),
	};
	size_t i;

	pp_kside_clear(k);
	for (i = 0; i < n; i++) {
		if (e[i].new == new && e[i].r->k.source[0]) {
			pp_strlcpy(k->source, e[i].r->k.source, sizeof(k->source));
			break;
		}
	}
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		double v = kside_median(e, n, new, fields[i], tmp);

		memcpy((char *)k + fields[i], &v, sizeof(v));
	}
}

/*
 * What the harness said of one run's result: another process took the
 * CPU while it was sampled, or its spread stayed above the run's noise
 * threshold after resampling (flagged, and its samples agree).  Its
 * reason in why; false when it said nothing.
 */
static bool run_unreliable(const struct entry *e, char *why, size_t size)
{
	char name[PP_KEY_MAX + sizeof(PP_NOTE_SAMPLES)];
	char pct[PP_NUM_LEN];
	const char *note, *hogs;

	snprintf(name, sizeof(name), "%s" PP_NOTE_SAMPLES, e->r->key);
	note = pp_run_find_info(e->run, name);
	hogs = note ? strstr(note, PP_NOTE_HOGS) : NULL;
	if (hogs) {
		snprintf(why, size, "CPU taken meanwhile by %s", hogs + strlen(PP_NOTE_HOGS));
		return true;
	}
	if (e->r->noisy && e->r->st.cv_pct > e->run->meta.noise_pct) {
		pp_fmt_num(pct, sizeof(pct), e->run->meta.noise_pct);
		snprintf(why, size, "spread %.1f%% above the run's %s%% after resampling",
			 e->r->st.cv_pct, pct);
		return true;
	}
	return false;
}

/*
 * A key is unreliable where most of a side's runs are (one run of one:
 * that run).  The spread between a side's runs is measured and widens
 * the interval already, so one disturbed run of three is in the verdict's
 * interval; when most are, the interval is made of disturbed samples.
 * The first run's reason, with how many runs said so.
 */
static void flag_unreliable(struct pp_cmp_pool *p, const struct entry *e, size_t n)
{
	char why[2][PP_CMP_WHY_MAX];
	size_t flagged[2] = { 0, 0 }, runs[2] = { 0, 0 }, i;
	int side;

	for (i = 0; i < n; i++) {
		side = e[i].new;
		runs[side]++;
		if (run_unreliable(&e[i], why[side], flagged[side] ? 0 : sizeof(why[0])))
			flagged[side]++;
	}
	for (side = 0; side < 2; side++) {
		if (flagged[side] * 2 <= runs[side])
			continue;
		if (runs[side] > 1)
			snprintf(p->unreliable, sizeof(p->unreliable), "%s: %.200s (%zu of %zu runs)",
				 side ? "new" : "base", why[side], flagged[side], runs[side]);
		else
			snprintf(p->unreliable, sizeof(p->unreliable), "%s: %.240s",
				 side ? "new" : "base", why[side]);
		return;
	}
}

/* The kernel views of p's results that carry a profile, side by side. */
static int prof_pool(struct pp_cmp_pool *p, const struct entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].r->k.prof)
			(*(e[i].new ? &p->nnew_prof : &p->nbase_prof))++;
	p->base_prof = p->nbase_prof ? malloc(p->nbase_prof * sizeof(*p->base_prof)) : NULL;
	p->new_prof = p->nnew_prof ? malloc(p->nnew_prof * sizeof(*p->new_prof)) : NULL;
	if ((p->nbase_prof && !p->base_prof) || (p->nnew_prof && !p->new_prof))
		return -ENOMEM;
	p->nbase_prof = p->nnew_prof = 0;
	for (i = 0; i < n; i++) {
		if (!e[i].r->k.prof)
			continue;
		if (e[i].new)
			p->new_prof[p->nnew_prof++] = &e[i].r->k;
		else
			p->base_prof[p->nbase_prof++] = &e[i].r->k;
	}
	return 0;
}

/* A group of entries of one key into p; seq of its first in *first. */
static int pool_group(struct pp_cmp_pool *p, const struct entry *e, size_t n,
		      size_t *first)
{
	double *tmp = malloc(n * sizeof(*tmp));
	size_t i;

	memset(p, 0, sizeof(*p));
	if (!tmp)
		return -ENOMEM;
	pp_strlcpy(p->key, e[0].r->key, sizeof(p->key));
	pp_strlcpy(p->unit, e[0].r->unit, sizeof(p->unit));
	p->dir = e[0].r->dir;
	*first = e[0].seq;
	for (i = 0; i < n; i++) {
		if (strcmp(e[i].r->unit, p->unit) || e[i].r->dir != p->dir)
			p->conflict = true;
		if (e[i].r->kind != PP_KIND_MEASURED)
			p->kind = e[i].r->kind;
		if (e[i].r->spread_pct > p->spread_pct)
			p->spread_pct = e[i].r->spread_pct;
		if (e[i].new) {
			p->nnew += e[i].r->nsamples;
			p->new_runs++;
		} else {
			p->nbase += e[i].r->nsamples;
			p->base_runs++;
		}
	}
	flag_unreliable(p, e, n);
	kside_pool(&p->base_k, e, n, false, tmp);
	kside_pool(&p->new_k, e, n, true, tmp);
	free(tmp);
	if (prof_pool(p, e, n))
		return -ENOMEM;
	p->base = p->nbase ? malloc(p->nbase * sizeof(double)) : NULL;
	p->new = p->nnew ? malloc(p->nnew * sizeof(double)) : NULL;
	if ((p->nbase && !p->base) || (p->nnew && !p->new))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		*(e[i].new ? &p->new_nmed : &p->base_nmed) += e[i].r->nrounds > 1 ?
							       e[i].r->nrounds : 1;
	p->base_rmed = p->base_nmed ? malloc(p->base_nmed * sizeof(double)) : NULL;
	p->new_rmed = p->new_nmed ? malloc(p->new_nmed * sizeof(double)) : NULL;
	if ((p->base_nmed && !p->base_rmed) || (p->new_nmed && !p->new_rmed))
		return -ENOMEM;
	p->nbase = p->nnew = 0;
	p->base_nmed = p->new_nmed = 0;
	for (i = 0; i < n; i++) {
		const struct pp_result *r = e[i].r;
		double *dst = e[i].new ? p->new + p->nnew : p->base + p->nbase;
		double *med = e[i].new ? p->new_rmed : p->base_rmed;
		size_t *nmed = e[i].new ? &p->new_nmed : &p->base_nmed;

		memcpy(dst, r->samples, r->nsamples * sizeof(double));
		*(e[i].new ? &p->nnew : &p->nbase) += r->nsamples;
		if (r->nrounds > 1) {
			memcpy(med + *nmed, r->rounds, r->nrounds * sizeof(double));
			*nmed += r->nrounds;
		} else {
			med[(*nmed)++] = r->nsamples ? pp_median(r->samples, r->nsamples) : NAN;
		}
	}
	return 0;
}

static void pool_clear(struct pp_cmp_pool *p)
{
	free(p->base);
	free(p->new);
	free(p->base_rmed);
	free(p->new_rmed);
	free(p->base_prof);
	free(p->new_prof);
	p->base = p->new = NULL;
	p->base_rmed = p->new_rmed = NULL;
	p->base_prof = p->new_prof = NULL;
}

struct seq_pool {
	size_t first;
	struct pp_cmp_pool p;
};

static int cmp_seq_pool(const void *a, const void *b)
{
	const struct seq_pool *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/*
 * Sorting every result by key makes pooling O(N log N) in the number of
 * results (a linear search per key would be quadratic); the pools are then
 * put back in the order their keys first appeared.
 */
int pp_cmp_pool(const struct pp_run *base, size_t nbase,
		const struct pp_run *new, size_t nnew,
		struct pp_cmp_pool **out, size_t *nout)
{
	struct seq_pool *sp = NULL;
	struct entry *e;
	size_t total = 0, n = 0, i, j, ng = 0;
	int err = 0;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < nbase; i++)
		total += base[i].nresults;
	for (i = 0; i < nnew; i++)
		total += new[i].nresults;
	if (!total)
		return 0;
	e = malloc(total * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (i = 0; i < nbase + nnew; i++) {
		const struct pp_run *run = i < nbase ? &base[i] : &new[i - nbase];

		for (j = 0; j < run->nresults; j++, n++)
			e[n] = (struct entry){ &run->results[j], run, n, i >= nbase };
	}
	qsort(e, n, sizeof(*e), cmp_entry);
	sp = calloc(n, sizeof(*sp));
	if (!sp) {
		err = -ENOMEM;
		goto free_e;
	}
	for (i = 0; i < n && !err; i = j) {
		for (j = i + 1; j < n && !strcmp(e[j].r->key, e[i].r->key); j++)
			;
		err = pool_group(&sp[ng].p, e + i, j - i, &sp[ng].first);
		ng++;
	}
	if (!err) {
		qsort(sp, ng, sizeof(*sp), cmp_seq_pool);
		*out = calloc(ng, sizeof(**out));
		if (!*out)
			err = -ENOMEM;
	}
	for (i = 0; i < ng; i++) {
		if (err)
			pool_clear(&sp[i].p);
		else
			(*out)[i] = sp[i].p;
	}
	free(sp);
	if (!err)
		*nout = ng;
free_e:
	free(e);
	return err;
}

bool pp_cmp_gates(const struct pp_cmp_pool *p)
{
	return p->kind == PP_KIND_MEASURED;
}

void pp_cmp_pool_free(struct pp_cmp_pool *pool, size_t n)
{
	size_t i;

	for (i = 0; pool && i < n; i++)
		pool_clear(&pool[i]);
	free(pool);
}

/* --- comparability --- */

/* A fact of one run into buf; false when the run did not record it. */
typedef bool (*fact_fn)(const struct pp_run *r, const char *arg, char *buf,
			size_t size);

static bool fact_str(const char *v, char *buf, size_t size)
{
	pp_strlcpy(buf, v, size);
	return v[0] != '\0';
}

static bool f_host(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.hostname, b, n);
}

static bool f_cpu(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.cpu_model, b, n);
}

static bool f_ncpus(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	snprintf(b, n, "%d", r->meta.online_cpus);
	return r->meta.online_cpus > 0;
}

static bool f_version(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.version, b, n);
}

static bool f_mode(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.mode, b, n);
}

static bool f_pin(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	if (r->meta.pin_cpu < 0)
		return fact_str("not pinned", b, n);
	snprintf(b, n, "%d", r->meta.pin_cpu);
	return true;
}

static bool f_gov(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.governor, b, n);
}

static bool f_cmdline(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	if (!r->meta.kcmdline[0])
		return false;
	pp_cmdline_normalise(r->meta.kcmdline, b, n);
	return true;
}

static bool f_thp_en(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.thp_enabled, b, n);
}

static bool f_thp_df(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return fact_str(r->meta.thp_defrag, b, n);
}

static bool f_accel(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	(void)arg;
	return r->meta.emul.recorded && fact_str(r->meta.emul.accel, b, n);
}

static bool f_clock(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	const char *c = pp_emul_clock(&r->meta.emul);

	(void)arg;
	return c && fact_str(c, b, n);
}

/* An emulator on the wall clock: "tcg (wall clock)"; else "not emulated". */
static bool f_emul_wall(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	const struct pp_emul *e = &r->meta.emul;

	(void)arg;
	if (!e->recorded)
		return false;
	if (pp_emul_wall(e))
		snprintf(b, n, "%s (wall clock)", e->accel[0] ? e->accel : "emulated");
	else
		snprintf(b, n, "%s", e->emulated == 1 ? "emulated (virtual clock)" :
			 e->emulated == 0 ? "not emulated" : "cannot tell");
	return true;
}

/* A run that recorded mitigations and lacks this one: "" (no such file). */
static bool f_mitig(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	size_t i;

	if (!r->meta.nmitig)
		return false;
	for (i = 0; i < r->meta.nmitig; i++)
		if (!strcmp(r->meta.mitig[i].name, arg))
			break;
	pp_strlcpy(b, i < r->meta.nmitig ? r->meta.mitig[i].text : "", n);
	return true;
}

/* A benchmark's fact, an info of the run (struct pp_bench's facts). */
static bool f_info(const struct pp_run *r, const char *arg, char *b, size_t n)
{
	const char *v = pp_run_find_info(r, arg);

	return v && fact_str(v, b, n);
}


void pp_cmdline_normalise(const char *cmdline, char *buf, size_t size)
{
	/* what names the kernel, or the side (scripts/kernel-ab.sh), compared */
	static const char *const drop[] = { "BOOT_IMAGE=", "initrd=", "perfprobe_side=" };
	const char *p = cmdline;
	size_t off = 0, i, len;

	buf[0] = '\0';
	while (*p) {
		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (!len)
			break;
		for (i = 0; i < ARRAY_SIZE(drop); i++)
			if (!strncmp(p, drop[i], strlen(drop[i])))
				break;
		if (i == ARRAY_SIZE(drop) && off + len + 2 <= size) {
			off += (size_t)snprintf(buf + off, size - off, "%s%.*s",
						off ? " " : "", (int)len, p);
		}
		p += len;
	}
}

/*
 * A side's distinct values of a fact, joined by " | " into buf; how many
 * there are (0: no run recorded it).
 */
static size_t side_value(const struct pp_run *runs, size_t n, fact_fn fn,
			 const char *arg, char *buf, size_t size)
{
	char v[PP_CMP_VALUE_MAX];
	size_t i, j, nd = 0, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!fn(&runs[i], arg, v, sizeof(v)))
			continue;
		/* seen in an earlier run? */
		for (j = 0; j < i; j++) {
			char w[PP_CMP_VALUE_MAX];

			if (fn(&runs[j], arg, w, sizeof(w)) && !strcmp(v, w))
				break;
		}
		if (j < i)
			continue;
		nd++;
		if (off < size)
			off += (size_t)snprintf(buf + off, size - off, "%s%s",
						nd > 1 ? " | " : "", v);
	}
	return nd;
}

const char *pp_cmp_warn_kind_name(enum pp_cmp_warn_kind k)
{
	static const char *const names[] = {
		[PP_CMP_WARN_DIFFERS] = "differs",
		[PP_CMP_WARN_CLOCK] = "clock",
		[PP_CMP_WARN_EMULATED] = "emulated",
	};

	return (unsigned int)k < ARRAY_SIZE(names) ? names[k] : "?";
}

enum pp_cmp_clock pp_cmp_clock(const struct pp_run *base, size_t nbase,
			       const struct pp_run *new, size_t nnew)
{
	size_t i, virt = 0;

	for (i = 0; i < nbase + nnew; i++) {
		const struct pp_meta *m = i < nbase ? &base[i].meta : &new[i - nbase].meta;

		virt += m->emul.recorded && m->emul.virtual_clock;
	}
	if (!virt)
		return PP_CMP_CLOCK_WALL;
	return virt == nbase + nnew ? PP_CMP_CLOCK_VIRTUAL : PP_CMP_CLOCK_MIXED;
}

/* The sides whose facts are checked, and the warnings found so far. */
struct fact_check {
	const struct pp_run *base, *new;
	size_t nbase, nnew;
	struct pp_cmp_warn *w;
	size_t n;
};

static int add_warn(struct fact_check *fc, const char *fact, const char *base, const char *new)
{
	struct pp_cmp_warn *nw = realloc(fc->w, (fc->n + 1) * sizeof(*nw));

	if (!nw)
		return -ENOMEM;
	fc->w = nw;
	pp_strlcpy(nw[fc->n].fact, fact, sizeof(nw->fact));
	pp_strlcpy(nw[fc->n].base, base, sizeof(nw->base));
	pp_strlcpy(nw[fc->n].new, new, sizeof(nw->new));
	nw[fc->n].kind = PP_CMP_WARN_DIFFERS;
	fc->n++;
	return 0;
}

/* One fact: a warning when the sides differ or one side is mixed. */
static int check_fact(struct fact_check *fc, const char *fact, fact_fn fn, const char *arg)
{
	char vb[PP_CMP_VALUE_MAX], vn[PP_CMP_VALUE_MAX];
	size_t db = side_value(fc->base, fc->nbase, fn, arg, vb, sizeof(vb));
	size_t dn = side_value(fc->new, fc->nnew, fn, arg, vn, sizeof(vn));

	if (!db || !dn || (db == 1 && dn == 1 && !strcmp(vb, vn)))
		return 0;
	return add_warn(fc, fact, vb, vn);
}

/* The median trusted clock of a side; its spread in % in *spread. */
static double side_mhz(const struct pp_run *runs, size_t n, double *spread)
{
	double v[64], lo = INFINITY, hi = 0;
	size_t i, k = 0;

	for (i = 0; i < n && k < ARRAY_SIZE(v); i++) {
		const struct pp_mhz *z = &runs[i].meta.mhz;

		if (!z->trusted || !(z->mhz > 0))
			continue;
		v[k++] = z->mhz;
		lo = fmin(lo, z->mhz);
		hi = fmax(hi, z->mhz);
	}
	*spread = k ? (hi - lo) / lo * 100.0 : 0;
	return k ? pp_median(v, k) : NAN;
}

static int check_mhz(struct fact_check *fc, double tol)
{
	double sb, mb = side_mhz(fc->base, fc->nbase, &sb);
	double sn, mn = side_mhz(fc->new, fc->nnew, &sn);
	char vb[64], vn[64];

	if (isnan(mb) || isnan(mn))
		return 0;
	if (sb <= tol && sn <= tol && fabs(mn - mb) / mb * 100.0 <= tol)
		return 0;
	snprintf(vb, sizeof(vb), "%.0f", mb);
	snprintf(vn, sizeof(vn), "%.0f", mn);
	return add_warn(fc, "mhz", vb, vn);
}

/* Every mitigation any run lists, each once, in name order. */
static int check_mitigations(struct fact_check *fc)
{
	const char *prev = "";
	char fact[PP_CMP_FACT_MAX];
	size_t i, j;
	int err = 0;

	for (;;) {
		const char *next = NULL;

		/* the smallest name after prev: the lists are sorted */
		for (i = 0; i < fc->nbase + fc->nnew; i++) {
			const struct pp_meta *m = i < fc->nbase ? &fc->base[i].meta :
								  &fc->new[i - fc->nbase].meta;

			for (j = 0; j < m->nmitig; j++) {
				if (strcmp(m->mitig[j].name, prev) <= 0)
					continue;
				if (!next || strcmp(m->mitig[j].name, next) < 0)
					next = m->mitig[j].name;
				break;
			}
		}
		if (!next)
			return err;
		snprintf(fact, sizeof(fact), "mitigations.%s", next);
		err = check_fact(fc, fact, f_mitig, next);
		if (err)
			return err;
		prev = next;
	}
}

/* Every benchmark's facts (info.<name>); a run without that benchmark has none. */
static int check_bench_facts(struct fact_check *fc)
{
	char fact[PP_CMP_FACT_MAX];
	const char *const *f;
	unsigned int i;
	int err = 0;

	for (i = 0; i < pp_nbenches && !err; i++)
		for (f = pp_benches[i]->facts; f && *f && !err; f++) {
			snprintf(fact, sizeof(fact), "info.%s", *f);
			err = check_fact(fc, fact, f_info, *f);
		}
	return err;
}

/* An emulator timed on the wall clock: even the same run twice says nothing. */
static int check_emulation(struct fact_check *fc)
{
	char vb[PP_CMP_VALUE_MAX], vn[PP_CMP_VALUE_MAX];
	size_t i;
	int err;

	for (i = 0; i < fc->nbase + fc->nnew; i++) {
		const struct pp_run *r = i < fc->nbase ? &fc->base[i] : &fc->new[i - fc->nbase];

		if (!pp_emul_wall(&r->meta.emul))
			continue;
		side_value(fc->base, fc->nbase, f_emul_wall, NULL, vb, sizeof(vb));
		side_value(fc->new, fc->nnew, f_emul_wall, NULL, vn, sizeof(vn));
		err = add_warn(fc, "emulation", vb, vn);
		if (!err)
			fc->w[fc->n - 1].kind = PP_CMP_WARN_EMULATED;
		return err;
	}
	return 0;
}

/* Seven parameters: the two sides as pp_cmp_pool() takes them, a tolerance, the list out. */
int pp_cmp_warnings(const struct pp_run *base, size_t nbase,
		    const struct pp_run *new, size_t nnew, double mhz_tol_pct,
		    struct pp_cmp_warn **out, size_t *nout)
{
	static const struct {
		const char *fact;
		fact_fn fn;
	} facts[] = {
		{ "hostname", f_host },
		{ "cpu_model", f_cpu },
		{ "online_cpus", f_ncpus },
		{ "perfprobe_version", f_version },
		{ "options.mode", f_mode },
		{ "options.pin_cpu", f_pin },
		{ "cpufreq_governor", f_gov },
		{ "kernel_cmdline", f_cmdline },
		{ "thp.enabled", f_thp_en },
		{ "thp.defrag", f_thp_df },
		{ "emulation.accelerator", f_accel },
	};
	struct fact_check fc = { base, new, nbase, nnew, NULL, 0 };
	size_t i;
	int err = 0;

	/* first: the figures are not comparable at all */
	if (pp_cmp_clock(base, nbase, new, nnew) == PP_CMP_CLOCK_MIXED) {
		err = check_fact(&fc, "emulation.clock", f_clock, NULL);
		if (!err && fc.n)
			fc.w[fc.n - 1].kind = PP_CMP_WARN_CLOCK;
	}
	for (i = 0; i < ARRAY_SIZE(facts) && !err; i++) {
		err = check_fact(&fc, facts[i].fact, facts[i].fn, NULL);
		/* the clock right after the machine's own facts */
		if (!err && facts[i].fn == f_pin)
			err = check_mhz(&fc, mhz_tol_pct);
	}
	if (!err)
		err = check_mitigations(&fc);
	if (!err)
		err = check_bench_facts(&fc);
	if (!err)
		err = check_emulation(&fc);
	if (err) {
		free(fc.w);
		fc.w = NULL;
		fc.n = 0;
	}
	*out = fc.w;
	*nout = fc.n;
	return err;
}
