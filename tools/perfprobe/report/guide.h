/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables in the style of the vendor performance guides (rows of metrics,
 * one column per run and measure: "Benchmarks | host: perf"), for the
 * benchmarks beyond lmbench whose users know them from those guides, and
 * for the guide's document (guidedoc.c).  Data-driven: a table is a
 * struct pp_guide_table in guide.c; summary prints pp_guide_tables[].
 */
#ifndef PP_GUIDE_H
#define PP_GUIDE_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

#define PP_GUIDE_MAX_COLS	32	/* columns (runs, boards) a table shows */

struct pp_guide_col {
	/*
	 * The measure's name: "perf", "Write Throughput (Mbytes/sec)".  With
	 * .info, a format whose %s is the text of that info of the column,
	 * upper-cased, and a space ("Write %sThroughput": "Write EXT4
	 * Throughput"), or nothing.
	 */
	const char *head;
	const char *key;	/* result key, "%s" replaced by the row's part; NULL:
				 * the row's .fixed (a property of the row, not a figure),
				 * shown once beside the label */
	const char *info;
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
	const char *command;		/* the perfprobe command that measures it */
};

/*
 * A column of the tables: one run, or the runs of one board and kernel;
 * a key's value is that of the last of them that has it.
 */
struct pp_guide_colset {
	const char *name;		/* "am62xx-sk" */
	const struct pp_run *const *runs;
	size_t n;
};

enum pp_guide_fmt { PP_GUIDE_TEXT, PP_GUIDE_HTML, PP_GUIDE_MD };

extern const struct pp_guide_table pp_guide_lmbench, pp_guide_stream, pp_guide_stream_mt,
	pp_guide_storage, pp_guide_storage_dev, pp_guide_tcp_bidir, pp_guide_udp_ndr,
	pp_guide_udp_pdr, pp_guide_udp_stream, pp_guide_openssl, pp_guide_openssl_cpu,
	pp_guide_kcapi, pp_guide_kcapi_cpu;
extern const struct pp_guide_table pp_guide_ipsec[4];
extern const struct pp_guide_table pp_guide_dhrystone, pp_guide_whetstone, pp_guide_linpack,
	pp_guide_nbench, pp_guide_coremark_pro, pp_guide_coremark_pro_mt, pp_guide_glmark2;

/* The ones perfprobe summary and run print after lmbench's tables. */
extern const struct pp_guide_table *const pp_guide_tables[];
extern const unsigned int pp_guide_ntables;

bool pp_guide_row_has_data(const struct pp_guide_row *r, const struct pp_guide_table *t,
			   const struct pp_guide_colset *cs, size_t ncols);
bool pp_guide_table_has_data(const struct pp_guide_table *t, const struct pp_guide_colset *cs,
			     size_t ncols);
/* One table; data_rows: only the rows with a value. */
void pp_guide_table_write(FILE *f, enum pp_guide_fmt fmt, const struct pp_guide_table *t,
			  const struct pp_guide_colset *cs, size_t ncols, bool data_rows);

/* pp_guide_tables[] with at least one value, a run a column; how many were printed. */
int pp_print_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns);
/* How many tables have at least one value. */
int pp_guide_tables_with_data(const struct pp_run *runs, size_t nruns);
/* The same as HTML tables (the report); returns how many. */
int pp_html_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns);

#endif /* PP_GUIDE_H */
