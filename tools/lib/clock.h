/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark clock: CLOCK_MONOTONIC (a vDSO read where the kernel's
 * clocksource allows it).  Its resolution and per-read cost are measured
 * once per run and recorded in the results.
 */
#ifndef PP_CLOCK_H
#define PP_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct pp_clock_info {
	const char *id;			/* "CLOCK_MONOTONIC" */
	char source[64];		/* kernel clocksource (sysfs), or "" */
	double resolution_ns;		/* smallest observed non-zero step */
	double read_cost_ns;		/* median cost of one read */
	double getres_ns;		/* what clock_getres() claims */
};

static inline uint64_t pp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void pp_clock_calibrate(struct pp_clock_info *ci);

/* The kernel's current clocksource (sysfs) in buf: 0, or -1 and "". */
int pp_clocksource(char *buf, size_t size);

#endif /* PP_CLOCK_H */
