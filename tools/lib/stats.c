// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double sorted_median(const double *v, size_t n)
{
	if (n & 1)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double pp_median(const double *v, size_t n)
{
	double *tmp, m;

	if (!n)
		return NAN;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return NAN;
	memcpy(tmp, v, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	m = sorted_median(tmp, n);
	free(tmp);
	return m;
}

int pp_stats_compute(const double *v, size_t n, struct pp_stats *st)
{
	double sum = 0, sq = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;

	st->n = n;
	st->min = st->max = v[0];
	for (i = 0; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (v[i] > st->max)
			st->max = v[i];
		sum += v[i];
	}
	st->mean = sum / (double)n;
	/* Two passes: exact enough for the few hundred samples we keep. */
	for (i = 0; i < n; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
	st->cv_pct = st->mean != 0.0 ? st->stddev / fabs(st->mean) * 100.0 : 0.0;
	st->median = pp_median(v, n);
	return isnan(st->median) ? -ENOMEM : 0;
}

double pp_cv_pct(const double *v, size_t n)
{
	struct pp_stats st;

	if (n < 2 || pp_stats_compute(v, n, &st))
		return 0;
	return st.cv_pct;
}

size_t pp_quietest_window(const double *v, size_t total, size_t n)
{
	size_t i, best = 0;
	double best_cv = INFINITY;

	for (i = 0; n && i + n <= total; i++) {
		double cv = pp_cv_pct(v + i, n);

		if (cv < best_cv) {
			best_cv = cv;
			best = i;
		}
	}
	return best;
}

bool pp_below_beyond_noise(double v, double v_cv_pct, double base, double base_cv_pct,
			   double floor_pct, double *tol_pct)
{
	double tol = fmax(floor_pct, 2 * fmax(v_cv_pct, base_cv_pct));

	if (tol_pct)
		*tol_pct = tol;
	return v < base * (1 - tol / 100);
}
