/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output: lmbench's summary tables (one row per run) and the flat
 * "name (unit)  value" listing.
 */
#ifndef PP_SUMMARY_H
#define PP_SUMMARY_H

#include <stdio.h>

#include "results.h"

struct pp_col {
	const char *h1, *h2;	/* header lines, each exactly width chars */
	int width;
	int prec;		/* digits after the point before truncation */
	const char *key;	/* result key, or "=mhz" for the clock */
	const char *key2;	/* if set, the column is the mean of both */
	double scale;		/* 0 means 1 */
};

struct pp_table {
	const char *title;
	const struct pp_col *cols;	/* ends with width == 0 */
};

extern const struct pp_table pp_tables[];
extern const unsigned int pp_ntables;

/*
 * A table with a row per item (an algorithm) and a column per size, as
 * `openssl speed` prints it: cell = result <prefix>-<row>-<col>; then an
 * optional column of result <prefix>-<row>-<extra> and one of the text
 * info <prefix>-<row>-<info>.  Printed once per run.
 */
struct pp_matrix {
	const char *title;
	const char *prefix;
	const char *const *rows;	/* NULL-ended */
	const char *const *cols;	/* key suffixes, NULL-ended */
	const char *col_head;		/* printf format of a column head */
	int prec;			/* digits after the point */
	const char *extra, *extra_head;	/* or NULL */
	const char *info, *info_head;	/* or NULL */
};

extern const struct pp_matrix pp_matrices[];
extern const unsigned int pp_nmatrices;

/*
 * Format v into exactly width characters the way lmbench's getsummary
 * does: printf with prec digits, cut to width ("143.", "5051"); values
 * whose integer part does not fit get a K or M suffix instead of a
 * wrong number.  Returns false (and blanks) for a missing value.
 */
bool pp_fmt_cell(char *out, size_t size, double v, int width, int prec);

/* The result for key, or for "prefix*" the one with the largest size. */
const struct pp_result *pp_find_key(const struct pp_run *run, const char *key);
/* A column's value in a run (NAN when it has none). */
double pp_col_value(const struct pp_run *run, const struct pp_col *c);
bool pp_table_has_data(const struct pp_table *t, const struct pp_run *runs, size_t nruns);
bool pp_matrix_has_data(const struct pp_run *run, const struct pp_matrix *m);
/* Run i's name in the OS column: its label, or release, told apart. */
void pp_row_name(const struct pp_run *runs, size_t nruns, size_t i, char *buf, size_t size);

/* Tables (and matrices) that have at least one value in one of the runs. */
int pp_print_tables(FILE *f, const struct pp_run *runs, size_t nruns);
void pp_print_notes(FILE *f, const struct pp_run *runs, size_t nruns);
void pp_print_flat(FILE *f, const struct pp_run *run, bool stats);

#endif /* PP_SUMMARY_H */
