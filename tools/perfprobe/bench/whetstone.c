// SPDX-License-Identifier: GPL-2.0
/*
 * whetstone: Roy Longbottom's C/C++ Whetstone (whets.c; single precision,
 * or double built with -DDP: its output says which), as built from its
 * published source, run and read; perfprobe does not rewrite it
 * (benchlib/suite.h).
 *
 * Run as "whets N" (no questions after the run), in a temporary
 * directory, for the whets.res file it appends to.  It calibrates itself
 * and runs its eight loops for about 100 s of its own timing; its
 * "MWIPS" line is the figure (millions of Whetstone instructions per
 * second), which the guide's "whetstone (MIPS)" row shows.  A run whose
 * checks failed ("Wrong answer") fails.  Documentation/bench/whetstone.rst.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

static void whets_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	(void)ctx;
	(void)attempt;
	c->argv[0] = "N";
}

static int whets_parse(const char *text, struct pp_suite_out *out)
{
	const char *p = text;
	char *end;
	double v;

	if (!strstr(text, "Whetstone Benchmark"))
		return pp_suite_bad(out, "no \"Whetstone Benchmark\" in it: not whets.c's output");
	if (strstr(text, "Wrong answer"))
		return pp_suite_bad(out, "\"Wrong answer\": its checks failed");
	while ((p = strstr(p, "MWIPS")) && (p != text && p[-1] != '\n'))
		p += 5;
	if (!p)
		return pp_suite_bad(out, "no \"MWIPS\" line: cut short");
	p += 5;
	v = strtod(p, &end);
	if (end == p)
		return pp_suite_bad(out, "the \"MWIPS\" line without a number");
	return pp_suite_fig(out, "whetstone-mwips", v);
}

static const struct pp_suite suite = {
	.title = "Whetstone",
	.progs = "whets whetstone",
	.timeout_s = 1200,
	.cmd = whets_cmd,
	.parse = whets_parse,
};

static int whetstone_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "whetstone", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "whetstone-mwips", .unit = "MWIPS", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "Whetstone (whets.c, its precision as built): MWIPS, as it timed them" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_whetstone = {
	.name = "whetstone",
	.group = "cpu",
	.summary = "Whetstone (whets.c), the program as built: MWIPS (runs when named)",
	.keys = keys,
	.run = whetstone_run,
	.by_name = true,
	.suite = &suite,
};
