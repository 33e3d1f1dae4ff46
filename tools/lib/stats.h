/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_STATS_H
#define PP_STATS_H

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

#endif /* PP_STATS_H */
