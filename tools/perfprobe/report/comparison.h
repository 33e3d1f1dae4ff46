/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One comparison of two sides, as compare decides it: the sides (their
 * runs and their labels' history), a row per key with its verdict or why
 * it has none, the warnings, the clock, and what sets the exit.  compare
 * (comparecmd.c) prints it in every format; report (report.c) draws it,
 * so both say the same of the same runs.  The statistics are compare.c's.
 * Documentation/compare.rst.
 */
#ifndef PP_COMPARISON_H
#define PP_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>

#include "report/compare.h"
#include "results.h"

/* What decides the verdicts and the exit (compare's options). */
struct pp_cmp_opts {
	double threshold;
	double run_noise;		/* assumed run-to-run SD, % */
	bool sort, strict, no_history;
	bool gate_emulated;		/* verdicts of wall-clock emulation gate */
	const char **fail_on;		/* as many as given */
	int nfail_on;
	const char **ignore;
	int nignore;
};

/* One side: its files and their runs; earlier runs of its label. */
struct pp_side {
	const char *arg;
	char **paths;
	size_t npaths;
	struct pp_run *runs;
	struct pp_run *hist;
	size_t nhist;
};

/*
 * The files of one side (runsel.c), then their runs; its label's history
 * unless history is false: 0 or an exit code (said on stderr).
 */
int pp_side_load(struct pp_side *s, const char *results_dir, bool history);
void pp_side_free(struct pp_side *s);

/*
 * Why a key was not compared: the side without it, and what that side's
 * run said of it.  Every one is a warning; on the new side, a failure,
 * a missing key and an interrupted run are errors in the CI formats, a
 * skip is a skipped test.
 */
enum pp_cmp_problem {
	PP_PB_NONE,
	PP_PB_FAILED,		/* its benchmark failed */
	PP_PB_SKIPPED,		/* its benchmark could not run there */
	PP_PB_INTERRUPTED,	/* the run stopped before it */
	PP_PB_MISSING,		/* not in the results, no reason given */
	PP_PB_CONFLICT,		/* the runs give it different units */
	PP_PB_CLOCK,		/* one side counted instructions, the other time */
};

const char *pp_cmp_problem_name(enum pp_cmp_problem p);

/* One key compared, in the order it is printed. */
struct pp_cmp_row {
	struct pp_cmp_pool *pool;
	struct pp_cmp_stat st;
	bool ok;		/* st is valid (both sides have samples) */
	const char *group;
	bool gates;		/* its verdict may fail the run (pp_cmp_gates()) */
	bool fails;		/* sets the exit: a regression that gates */
	bool unreliable;	/* ok, but the harness flagged a side (pool->unreliable) */
	enum pp_cmp_problem problem;	/* !ok: why, on the side without it */
	bool on_new;		/* the problem is the new side's */
	char why[PP_CMP_WHY_MAX];
};

/* The row's verdict as compare's JSON names it (missing-new, conflict, ...). */
const char *pp_cmp_row_verdict(const struct pp_cmp_row *r);

/* What one comparison is, beyond its rows: the clock and whether it gates. */
struct pp_cmp_kind {
	enum pp_cmp_clock clock;
	bool emulated_wall;	/* an emulator timed a side on the wall clock */
	bool gates;		/* its regressions fail the run */
};

/* What a comparison found that is not a verdict: the exit depends on it. */
struct pp_cmp_findings {
	size_t nreg, nfail;	/* regressions; those that gate */
	size_t nok;		/* keys compared */
	size_t nwarn;		/* facts, problems, unreliable keys, interrupted runs */
	size_t nunreliable;	/* of those: keys the harness flagged (they gate with --strict) */
	char incomplete[PP_CMP_WHY_MAX];	/* why nothing can pass, or "" */
};

struct pp_comparison {
	const struct pp_side *base, *new;
	const struct pp_cmp_opts *o;
	struct pp_cmp_warn *w;		/* facts that differ, emulation, clocks */
	size_t nw;
	struct pp_cmp_pool *pool;
	size_t npool;
	struct pp_cmp_row *rows;	/* by group, or worst first (o->sort) */
	size_t nrows;
	struct pp_cmp_kind k;
	struct pp_cmp_findings fd;
};

/* base against new: 0 or -errno; pp_comparison_free() in either case. */
int pp_comparison_build(struct pp_comparison *c, const struct pp_side *base,
			const struct pp_side *new, const struct pp_cmp_opts *o);
void pp_comparison_free(struct pp_comparison *c);

/* Whether a warning makes --strict exit 6. */
bool pp_cmp_warn_counts(const struct pp_cmp_warn *w, const struct pp_cmp_opts *o);
/* What a warning means beyond its values; NULL for a fact that differs. */
const char *pp_cmp_warn_note(const struct pp_cmp_warn *w, const struct pp_cmp_opts *o);
/* One line, without "warning: " and the newline. */
void pp_cmp_warn_line(char *buf, size_t size, const struct pp_cmp_warn *w,
		      const struct pp_cmp_opts *o);
/*
 * The kernel view's "why" of a compared row, as compare's text gives it:
 * the figures that changed beyond their noise ("kernel/op +88 ns,
 * syscalls/op +1"), or "kernel view unchanged"; "" and 0 where a side
 * has no kernel view.  Its length.
 */
size_t pp_cmp_kernel_why(char *buf, size_t size, const struct pp_cmp_row *r, double threshold);
/* Does a --fail-on glob name a key of either side? */
bool pp_cmp_names_a_key(const char *glob, const struct pp_cmp_row *rows, size_t nrows);

/*
 * The kernel view's figures a row's delta has (struct pp_kside), in
 * compare's JSON order: how many, the name of one, its value.
 */
size_t pp_kd_count(void);
const char *pp_kd_name(size_t i);
double pp_kd_value(const struct pp_kside *k, size_t i);

#endif /* PP_COMPARISON_H */
