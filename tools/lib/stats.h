/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_STATS_H
#define PP_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct pp_stats {
	size_t n;
	double min;
	double max;
	double mean;
	double median;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv_pct;		/* stddev / mean * 100 */
};

/* Fails (-EINVAL) on n == 0 or a non-finite sample; v is not modified. */
int pp_stats_compute(const double *v, size_t n, struct pp_stats *st);
double pp_median(const double *v, size_t n);

/* The coefficient of variation of v, in %; 0 for fewer than 2 values. */
double pp_cv_pct(const double *v, size_t n);

/*
 * Where the n consecutive values of v[0..total) with the smallest
 * coefficient of variation begin (the first such window on a tie).
 */
size_t pp_quietest_window(const double *v, size_t total, size_t n);

/*
 * An invariant a benchmark knows says v cannot be below base (more
 * working set cannot make a switch cheaper): is it, beyond the noise of
 * either?  The tolerance is twice the larger CV, at least floor_pct;
 * *tol_pct gets it.
 */
bool pp_below_beyond_noise(double v, double v_cv_pct, double base, double base_cv_pct,
			   double floor_pct, double *tol_pct);

#endif /* PP_STATS_H */
