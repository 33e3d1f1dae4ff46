/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report page of runs and timer documents (report.c), for the
 * report command (reportcmd.c).  Documentation/report.rst.
 */
#ifndef PP_REPORT_H
#define PP_REPORT_H

#include <stdio.h>

#include "report/comparison.h"
#include "results.h"

#define PP_TIMER_BUCKETS	64

/* A `perfprobe timer --json` document: its lateness histogram. */
struct pp_timer_doc {
	char name[256];
	double period_ns, count;
	size_t nb;
	double from[PP_TIMER_BUCKETS], to[PP_TIMER_BUCKETS], n[PP_TIMER_BUCKETS];
};

/*
 * path as a perfprobe-timer document (perfprobe timer --json): 1 with t
 * filled, 0 when it is not one, -EINVAL when it is one without a
 * histogram.
 */
int pp_timer_doc_load(const char *path, struct pp_timer_doc *t);

struct pp_report_in {
	const struct pp_run *runs;	/* every run of every side, in order */
	size_t nruns;
	const struct pp_side *sides;	/* as compare takes them: each side */
	size_t nsides;			/* against the first */
	const struct pp_timer_doc *timers;
	size_t ntimers;
	const char *svgdir;	/* NULL: charts inline; else a file each here */
};

/*
 * The page into f (built in SVG mode too, for the caller to throw away),
 * the number of charts drawn in *charts: 0, or the first -errno.
 */
int pp_report_write(FILE *f, const struct pp_report_in *in, unsigned int *charts);

#endif /* PP_REPORT_H */
