/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output: lmbench's summary tables (one row per run) and the flat
 * "name (unit)  value" listing.
 */
#ifndef PP_SUMMARY_H
#define PP_SUMMARY_H

#include <stdio.h>

#include "keys.h"
#include "results.h"

/*
 * The summary tables: lmbench's, in getsummary's order, then each
 * benchmark's own (its .tables) in registry order; NULL past the last.
 */
const struct pp_key_table *pp_table(unsigned int i);

#define PP_COL_KEYS	4	/* keys a column may average */
#define PP_TABLE_COLS	24

/* A column of a table, from the key declarations that name it. */
struct pp_col {
	const char *h1, *h2;	/* header lines, each exactly width chars */
	int width;
	int prec;		/* digits after the point before truncation */
	bool mhz;		/* the clock (the run's meta, not a key) */
	const char *keys[PP_COL_KEYS];	/* key or "prefix*": the mean of those a run has */
	unsigned int nkeys;
};

/*
 * The columns of t, in order, up to max: how many.  A column is there
 * when a declaration names it; the first place no declaration names
 * ends the table.
 */
unsigned int pp_table_cols(const struct pp_key_table *t, struct pp_col *cols,
			   unsigned int max);

/* A matrix (keys.h) and the prefix of its keys. */
struct pp_matrix {
	const struct pp_key_matrix *m;
	char prefix[PP_KEY_MAX];
};

/* The matrices the declarations give, in registry order; false past them. */
bool pp_matrix_get(unsigned int i, struct pp_matrix *out);

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
bool pp_table_has_data(const struct pp_key_table *t, const struct pp_run *runs, size_t nruns);
bool pp_matrix_has_data(const struct pp_run *run, const struct pp_matrix *m);
/* Run i's name in the OS column: its label, or release, told apart. */
void pp_row_name(const struct pp_run *runs, size_t nruns, size_t i, char *buf, size_t size);

/* Tables (and matrices) that have at least one value in one of the runs. */
int pp_print_tables(FILE *f, const struct pp_run *runs, size_t nruns);
void pp_print_notes(FILE *f, const struct pp_run *runs, size_t nruns);
void pp_print_flat(FILE *f, const struct pp_run *run, bool stats);

#endif /* PP_SUMMARY_H */
