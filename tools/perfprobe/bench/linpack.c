// SPDX-License-Identifier: GPL-2.0
/*
 * linpack: the LINPACK benchmark in C (netlib's linpackc.new, Bonnie
 * Toy's translation with Will Menninger's changes, double precision), as
 * built from its published source, run and read; perfprobe does not
 * rewrite it (benchlib/suite.h).
 *
 * It asks for the array size on stdin: perfprobe answers 200 (its
 * default, the classic 100 x 100's successor) and then "q".  It doubles
 * its repetitions until a pass takes 10 s of its own timing and prints a
 * row for each; the last row's KFLOPS (the average of the rolled and
 * unrolled loops) is the figure, the guide's "linpack (Kflops)".
 * Documentation/bench/linpack.rst.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

static void linpack_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	(void)ctx;
	(void)attempt;
	snprintf(c->input, sizeof(c->input), "200\nq\n");
}

/* The rows under the KFLOPS header: the last one's last column. */
static int linpack_parse(const char *text, struct pp_suite_out *out)
{
	const char *p = strstr(text, "KFLOPS"), *eol;
	double kflops = 0;
	unsigned int rows = 0;

	if (!strstr(text, "LINPACK benchmark"))
		return pp_suite_bad(out, "no \"LINPACK benchmark\" in it: not linpack's output");
	if (!p || !(p = strchr(p, '\n')) || strncmp(p + 1, "-----", 5))
		return pp_suite_bad(out, "no \"KFLOPS\" table: cut short");
	for (p = strchr(p + 1, '\n'); p && p[1] && p[1] != '\n'; p = eol) {
		double f[6];
		char pct[3][2];

		eol = strchr(p + 1, '\n');
		if (!eol)
			return pp_suite_bad(out, "the KFLOPS table's row %u is cut short", rows + 1);
		if (sscanf(p + 1, "%lf %lf %lf%1[%] %lf%1[%] %lf%1[%] %lf", &f[0], &f[1], &f[2],
			   pct[0], &f[3], pct[1], &f[4], pct[2], &f[5]) != 9)
			return pp_suite_bad(out, "the KFLOPS table's row %u: not 6 numbers",
					    rows + 1);
		kflops = f[5];
		rows++;
	}
	if (!rows)
		return pp_suite_bad(out, "the KFLOPS table has no row: cut short");
	if (p[1] != '\n')
		return pp_suite_bad(out, "the KFLOPS table does not end: cut short");
	return pp_suite_fig(out, "linpack-kflops", kflops);
}

static const struct pp_suite suite = {
	.title = "Linpack",
	.progs = "linpack linpackc",
	.timeout_s = 1200,
	.cmd = linpack_cmd,
	.parse = linpack_parse,
};

static int linpack_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "linpack", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "linpack-kflops", .unit = "Kflops", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "LINPACK in C (linpackc.new), 200 x 200, double: KFLOPS, as it timed them" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_linpack = {
	.name = "linpack",
	.group = "cpu",
	.summary = "LINPACK in C (linpackc.new), the program as built: Kflops (runs when named)",
	.keys = keys,
	.run = linpack_run,
	.by_name = true,
	.suite = &suite,
};
