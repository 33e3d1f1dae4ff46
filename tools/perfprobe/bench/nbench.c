// SPDX-License-Identifier: GPL-2.0
/*
 * nbench: BYTE's BYTEmark as nbench-byte 2.2.3 (Uwe F. Mayer's Linux
 * port), as built from its published sources, run and read; perfprobe
 * does not rewrite it (benchlib/suite.h).
 *
 * It runs in its own directory, where its NNET.DAT is.  Each of its ten
 * tests prints "NAME : iterations/s : old index : new index" (the figures
 * on a line of their own after its warnings when it doubts them), the old
 * index against a Pentium 90, the new against an AMD K6/233; then the
 * original BYTEmark's integer and floating-point indexes (Pentium 90)
 * and, under LINUX DATA BELOW, the memory, integer and floating-point
 * indexes (K6/233).  Every one of them is a figure; the guide's NBench
 * table shows the tests' iterations per second.
 * Documentation/bench/nbench.rst.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

static const struct {
	const char *name;		/* as nbench prints it */
	const char *key;		/* nbench-<key> */
} tests[] = {
	{ "NUMERIC SORT", "numeric_sort" },
	{ "STRING SORT", "string_sort" },
	{ "BITFIELD", "bitfield" },
	{ "FP EMULATION", "fp_emulation" },
	{ "FOURIER", "fourier" },
	{ "ASSIGNMENT", "assignment" },
	{ "IDEA", "idea" },
	{ "HUFFMAN", "huffman" },
	{ "NEURAL NET", "neural_net" },
	{ "LU DECOMPOSITION", "lu_decomposition" },
};

/* The line of text that starts with name and a ':' after spaces, or NULL. */
static const char *line_of(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + n;

		if (strncmp(p, name, n))
			continue;
		while (*q == ' ')
			q++;
		if (*q == ':')
			return q + 1;
	}
	return NULL;
}

/* The number after the line's k-th ':' (0: right after the name), into *v. */
static int field(const char *p, unsigned int k, double *v)
{
	char *end;

	while (k--) {
		p = strpbrk(p, ":\n");
		if (!p || *p != ':')
			return -1;
		p++;
	}
	*v = strtod(p, &end);
	return end == p ? -1 : 0;
}

/*
 * A test's figures: on its line, or, when nbench warned that they are not
 * 95% certain ("** WARNING: ..." lines after the name), on the line of
 * spaces and ':' after the warnings.
 */
static const char *figures_of(const char *p)
{
	double v;

	if (!field(p, 0, &v))
		return p;
	for (p = strchr(p, '\n'); p && p[1] == '*'; p = strchr(p + 1, '\n'))
		;
	if (!p)
		return NULL;
	for (p++; *p == ' '; p++)
		;
	return *p == ':' ? p + 1 : NULL;
}

static int index_fig(const char *from, const char *name, const char *key,
		     struct pp_suite_out *out)
{
	const char *p = from ? line_of(from, name) : NULL;
	double v;

	if (!p || field(p, 0, &v))
		return pp_suite_bad(out, "no \"%s\" line: cut short", name);
	return pp_suite_fig(out, key, v);
}

static int nbench_parse(const char *text, struct pp_suite_out *out)
{
	const char *orig, *linux_data;
	char key[PP_KEY_MAX];
	unsigned int i;
	int err;

	if (!strstr(text, "BYTEmark"))
		return pp_suite_bad(out, "no \"BYTEmark\" in it: not nbench's output");
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		const char *p = line_of(text, tests[i].name);
		double v[3];

		if (!p)
			return pp_suite_bad(out, "no \"%s\" line: cut short", tests[i].name);
		p = figures_of(p);
		if (!p || field(p, 0, &v[0]) || field(p, 1, &v[1]) || field(p, 2, &v[2]))
			return pp_suite_bad(out, "\"%s\": not 3 figures", tests[i].name);
		snprintf(key, sizeof(key), "nbench-%s", tests[i].key);
		err = pp_suite_fig(out, key, v[0]);
		snprintf(key, sizeof(key), "nbench-%s-index_p90", tests[i].key);
		err = err ?: pp_suite_fig(out, key, v[1]);
		snprintf(key, sizeof(key), "nbench-%s-index", tests[i].key);
		err = err ?: pp_suite_fig(out, key, v[2]);
		if (err)
			return err;
	}
	orig = strstr(text, "ORIGINAL BYTEMARK RESULTS");
	linux_data = strstr(text, "LINUX DATA BELOW");
	return index_fig(orig, "INTEGER INDEX", "nbench-index_p90-integer", out) ?:
	       index_fig(orig, "FLOATING-POINT INDEX", "nbench-index_p90-fp", out) ?:
	       index_fig(linux_data, "MEMORY INDEX", "nbench-index-memory", out) ?:
	       index_fig(linux_data, "INTEGER INDEX", "nbench-index-integer", out) ?:
	       index_fig(linux_data, "FLOATING-POINT INDEX", "nbench-index-fp", out);
}

static void nbench_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	(void)ctx;
	(void)attempt;
	(void)c;
}

static const struct pp_suite suite = {
	.title = "NBench",
	.progs = "nbench",
	.in_exe_dir = true,
	.timeout_s = 1800,
	.cmd = nbench_cmd,
	.parse = nbench_parse,
};

static int nbench_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "nbench", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "nbench-index-%s", .unit = "index", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED,
	  .desc = "nbench's memory, integer, floating-point index (AMD K6/233 = 1)" },
	{ .pattern = "nbench-index_p90-%s", .unit = "index", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED,
	  .desc = "the original BYTEmark's integer, floating-point index (Pentium 90 = 1)" },
	{ .pattern = "nbench-%s-index", .unit = "index", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "a test's index (AMD K6/233 = 1)" },
	{ .pattern = "nbench-%s-index_p90", .unit = "index", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "a test's index (Pentium 90 = 1)" },
	{ .pattern = "nbench-%s", .unit = "iter/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "a BYTEmark test's iterations per second, as nbench timed them" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_nbench = {
	.name = "nbench",
	.group = "cpu",
	.summary = "nbench-byte (BYTEmark), the program as built: its tests and indexes (runs when named)",
	.keys = keys,
	.run = nbench_run,
	.by_name = true,
	.suite = &suite,
};
