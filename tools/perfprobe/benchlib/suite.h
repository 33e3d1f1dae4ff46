/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU suites of the vendor guides (Dhrystone, Whetstone, Linpack,
 * NBench, CoreMark-Pro, glmark2): programs defined by their published
 * sources, which perfprobe runs as they are built or installed and does
 * not rewrite.  A suite is a benchmark (bench/<name>.c) whose
 * struct pp_bench points to its struct pp_suite: where its program is
 * looked for, how it is run, and the parser of what it prints.  `run`
 * runs it (pp_suite_run()), `import <name>` reads its saved output with
 * the same parser, and the option `run --<name>` (options.c) gives its
 * program.  Documentation/bench/suites.rst.
 */
#ifndef PP_SUITE_H
#define PP_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"

#define PP_SUITE_FIGS		64		/* figures one output gives */
#define PP_SUITE_OUT_MAX	(4u << 20)	/* the most output read */
#define PP_SUITE_ARGS		8

/* What a parser made of a suite's output. */
struct pp_suite_out {
	struct {
		char key[PP_KEY_MAX];
		double value;
	} fig[PP_SUITE_FIGS];
	unsigned int n;
	char why[200];			/* not its output, or cut short: why */
	bool again;			/* it asks to be run with more work */
};

/* How the program is run: its arguments after the program and its input. */
struct pp_suite_cmd {
	const char *argv[PP_SUITE_ARGS];	/* NULL-ended */
	char argbuf[2][64];			/* room for argv's own strings */
	char input[64];				/* written to its stdin */
};

struct pp_suite {
	const char *title;		/* "Dhrystone 2.1" */
	/* the program's names looked for in PATH, space-separated; NULL: none */
	const char *progs;
	/* what is given: a built source tree, run as `make -C TREE ARGS` */
	bool tree;
	/* run in its program's directory (it opens data files there), not a temporary one */
	bool in_exe_dir;
	bool display;			/* it needs DISPLAY or WAYLAND_DISPLAY */
	unsigned int timeout_s;		/* killed after so long */
	/* its command line for attempt 0, 1, ... (more work each time it asks again) */
	void (*cmd)(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c);
	/*
	 * Its output (NUL-terminated) into out: 0, or -EPROTO with out->why
	 * (not its output, truncated, a figure missing or not a number).
	 */
	int (*parse)(const char *text, struct pp_suite_out *out);
	/* after a run's parse: figures of this run's own (the clock); may be NULL */
	int (*finish)(struct pp_ctx *ctx, struct pp_suite_out *out);
};

/* Add a figure: 0, or -EPROTO (not a positive number, no room) with out->why. */
int pp_suite_fig(struct pp_suite_out *out, const char *key, double v);
/* A parser's failure: -EPROTO, out->why formatted. */
int pp_suite_bad(struct pp_suite_out *out, const char *fmt, ...) __printf(2, 3);

/* Its environment variable, PERFPROBE_<NAME>: run --<name> sets it. */
void pp_suite_env(const char *bench, char *buf, size_t size);
/* Its option's long name: the benchmark's name with '-' for '_'. */
void pp_suite_opt(const char *bench, char *buf, size_t size);

/*
 * Run the suite of benchmark b: find its program, run it, parse what it
 * printed and report the figures.  0, or the value of pp_skip() (not
 * found, no display) or of pp_fail().
 */
int pp_suite_run(struct pp_ctx *ctx, const char *bench, const struct pp_suite *s);

/* A saved output file through the parser: 0, -EPROTO (out->why), else -errno. */
int pp_suite_parse_file(const struct pp_suite *s, const char *path, struct pp_suite_out *out);

#endif /* PP_SUITE_H */
