/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declared result keys.  Every benchmark declares each key it can emit,
 * with its unit, direction and a line of description; the harness takes
 * unit and direction from the declaration and refuses a key that is not
 * declared (Documentation/adding.rst).
 *
 * A declaration's pattern is a key, or a key with conversions for the
 * parts a curve or a sweep varies:
 *
 *   %u  one or more digits                     lat_ctx-%u-%uk
 *   %s  one or more key characters but '-'     lat_mem_rd-stride%u-sz%s
 *   *   one or more key characters, '-' too    crypto-evp-*-%u
 *
 * The first declaration that matches a key is the key's.
 *
 * A declaration also says where its keys are shown (.show): the columns
 * of the summary tables, the lines and columns of lmbench's own files
 * that give them (import), the report's charts.  Report, summary and
 * import name no key of their own (Documentation/adding.rst).
 */
#ifndef PP_KEYS_H
#define PP_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/*
 * A summary table: lmbench's (summary.c) or a benchmark's own (its
 * .tables).  Its columns are the keys that name its id.
 */
struct pp_key_table {
	const char *id;			/* NULL ends a list */
	const char *title;
	unsigned int mhz_col;		/* the clock's column (from 1), or 0 */
};

/*
 * A table of one run a row per item (an algorithm) and a column per size,
 * as `openssl speed` prints it: cell = result <prefix>-<row>-<col>, with
 * prefix the declaration's pattern up to "-*"; then an optional column of
 * result <prefix>-<row>-<extra> and one of the text info
 * <prefix>-<row>-<info>.
 */
struct pp_key_matrix {
	const char *title;
	const char *const *rows;	/* NULL-ended */
	const char *const *cols;	/* key suffixes, NULL-ended */
	const char *col_head;		/* printf format of a column head */
	int prec;			/* digits after the point */
	const char *extra, *extra_head;	/* or NULL */
	const char *info, *info_head;	/* or NULL */
};

/* What a key is to a chart of the report (report.c names the charts). */
enum pp_chart_role {
	PP_CHART_BAR,		/* a bar: the key, or a '*' prefix's largest size */
	PP_CHART_POINT,		/* a curve's point: x is the pattern's last conversion */
	PP_CHART_MARK,		/* a size, marked on the curve's x axis */
	PP_CHART_INFO_MARKS,	/* the info named .key: "L1 49152 L2 ..." sizes, marked */
};

/* The rows of a block of lmbench's raw results (import.c reads them). */
enum pp_lm_rows {
	PP_LM_SIZE,	/* "MB value": the key's %u is the size in its unit (mb, m, kb, b) */
	PP_LM_CTX,	/* "processes us" under "size=Nk": lat_ctx's two %u */
	PP_LM_RATE,	/* "Nk files a/s b/s": %u is N, .lm_col the figure's column */
	PP_LM_CURVE,	/* a line naming the curve, then "stride=S" blocks of "MB ns" */
};

/* How a curve's point names its size (pp_key_size()). */
enum pp_size_name {
	PP_SIZE_BYTES,		/* "512", "16k", "4m": 2^10, 2^20 */
	PP_SIZE_LMBENCH_MB,	/* lat_mem_rd's "31k": lmbench's MB column x 1000 */
};

/*
 * One place a key is shown; a list of them ends with an entry that names
 * no place (PP_SHOW() adds it).
 *
 * .key is the key shown: NULL for the declaration's pattern (then a key),
 * an instance of the pattern ("lat_ctx-2-16k"), or a prefix ending in
 * '*' for the result of the prefix with the largest size (lmbench's
 * "biggest" figure).  Then any of:
 *
 * .table, .col: column .col (from 1) of summary table .table, with its
 *	header lines .h1 and .h2 (.width characters each) and .prec digits
 *	after the point.  Several keys may share a column: it shows the mean
 *	of those a run has (lmbench's null I/O: read and write), and one of
 *	them gives the header.  .col 0: only in lmbench's table.
 * .lm_col: the column of lmbench's own summary of .table that is this key
 *	(import; a '*' key is imported as <prefix>largest); with .lm_block,
 *	the column of the block's rows that holds the figure.
 * .lm_line: a line of lmbench's raw results, "LABEL value", that is the key.
 * .lm_block, .lm_rows: a block of lmbench's raw results, its header line
 *	starting so, whose rows (laid out as .lm_rows says) give the key; a
 *	figure per second for a key in a time unit is inverted.
 * .chart, .role: a chart of the report; a POINT's line is .dashed or not.
 * .matrix: a matrix of the declaration's keys (summary).
 */
struct pp_key_show {
	const char *key;
	const char *table;
	unsigned int col;
	const char *h1, *h2;
	int width, prec;
	unsigned int lm_col;
	const char *lm_line;
	const char *lm_block;
	enum pp_lm_rows lm_rows;
	const char *chart;
	enum pp_chart_role role;
	bool dashed;
	const struct pp_key_matrix *matrix;
};

#define PP_SHOW(...)	((const struct pp_key_show[]){ __VA_ARGS__, { .key = NULL } })

/* Column n of summary table t: header lines a and b, w wide, p decimals. */
#define PP_COL(t, n, a, b, w, p) \
	.table = (t), .col = (n), .h1 = (a), .h2 = (b), .width = (w), .prec = (p)

struct pp_key_decl {
	const char *pattern;		/* NULL ends a list */
	const char *unit;		/* "us", "MB/s", "%" ... */
	enum pp_dir dir;
	enum pp_kind kind;		/* measured unless said (results.h) */
	/*
	 * Noisy by nature: how far the figure moves from run to run on a
	 * quiet machine, % of its median ((max - min) / median of runs'
	 * medians, measured: Documentation/accuracy.rst), when that is more
	 * than a comparison's 10%; 0 for the rest.  Results carry it, and
	 * compare marks a change inside it.
	 */
	double spread_pct;
	const char *desc;		/* one line for "perfprobe list -v" */
	const struct pp_key_show *show;	/* where it is shown, or NULL */
	enum pp_size_name size;		/* how its keys name a size */
};

/* Ends a list of declarations. */
#define PP_KEYS_END	{ .pattern = NULL }

/* Does the entry end its list (it names no place)? */
bool pp_show_end(const struct pp_key_show *s);

/* The key (or '*' prefix) an entry of d shows. */
static inline const char *pp_show_key(const struct pp_key_decl *d,
				      const struct pp_key_show *s)
{
	return s->key ? s->key : d->pattern;
}

/*
 * The size a curve's point names (the text of its last conversion) in
 * bytes, or -1 when it is not one.
 */
double pp_key_size(const char *text, enum pp_size_name how);
/* How a key names a size of bytes: the inverse of pp_key_size(). */
void pp_key_size_name(char *buf, size_t size, double bytes, enum pp_size_name how);

/* Does key match pattern (the syntax above)? */
bool pp_key_match(const char *pattern, const char *key);

/* The first declaration in decls (NULL-ended; may be NULL) matching key. */
const struct pp_key_decl *pp_key_decl_find(const struct pp_key_decl *decls,
					   const char *key);

/* A pattern is a valid key once each conversion is given a value. */
bool pp_key_pattern_valid(const char *pattern);

/*
 * lat_mem_rd names a size as lmbench's MB column (2^20 bytes) x 1000
 * ("sz31k" is 0.031 MiB); back to bytes: lmbench's sizes are 2^n and steps
 * of an eighth of 2^n between, so the nearest such step to mib x 2^20.
 */
double pp_memrd_bytes(double mib);

/* "lower" or "higher", as the result files spell a direction. */
const char *pp_dir_name(enum pp_dir dir);

#endif /* PP_KEYS_H */
