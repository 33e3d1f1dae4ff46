/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables in the style of the vendor performance guides (rows of metrics,
 * one column per run and measure: "Benchmarks | host: perf"), for the
 * benchmarks beyond lmbench whose users know them from those guides.
 * Data-driven: add a table to pp_guide_tables[] in guide.c.
 */
#ifndef PP_GUIDE_H
#define PP_GUIDE_H

#include <stdio.h>

#include "results.h"

struct pp_guide_col {
	const char *head;	/* "perf", "Write Throughput (Mbytes/sec)" */
	const char *key;	/* result key, "%s" replaced by the row's part; NULL:
				 * the row's .fixed (a property of the row, not a figure) */
};

struct pp_guide_row {
	const char *label;	/* "copy (MB/s)", "4k" */
	const char *part;	/* what replaces "%s" in the column keys */
	const char *fixed;	/* for a column without a key: "18" (bytes) */
};

struct pp_guide_table {
	const char *caption;		/* printed as "Table: <caption>" */
	const char *row_head;		/* "Benchmarks", "Buffer size (bytes)" */
	const struct pp_guide_row *rows;	/* ends with label == NULL */
	const struct pp_guide_col *cols;	/* ends with head == NULL */
};

extern const struct pp_guide_table pp_guide_tables[];
extern const unsigned int pp_guide_ntables;

/* The tables with at least one value; returns how many were printed. */
int pp_print_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns);
/* How many tables have at least one value. */
int pp_guide_tables_with_data(const struct pp_run *runs, size_t nruns);
/* The same as HTML tables (the report); returns how many. */
int pp_html_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns);

#endif /* PP_GUIDE_H */
