// SPDX-License-Identifier: GPL-2.0
/*
 * glmark2: the OpenGL (ES) 2.0 benchmark, as installed or built, run and
 * read; perfprobe does not rewrite it (benchlib/suite.h).  It needs a
 * display: without DISPLAY or WAYLAND_DISPLAY it is skipped with that
 * reason.  Its "glmark2 Score: N" line is the figure, the guide's
 * Glmark2 table.  Documentation/bench/glmark2.rst.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

static void glmark2_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	(void)ctx;
	(void)attempt;
	(void)c;
}

static int glmark2_parse(const char *text, struct pp_suite_out *out)
{
	const char *p = strstr(text, "glmark2 Score:");
	char *end;
	double v;

	if (!strstr(text, "glmark2"))
		return pp_suite_bad(out, "no \"glmark2\" in it: not glmark2's output");
	if (!p)
		return pp_suite_bad(out, "no \"glmark2 Score:\" line: cut short");
	p += strlen("glmark2 Score:");
	v = strtod(p, &end);
	if (end == p)
		return pp_suite_bad(out, "\"glmark2 Score:\" without a number");
	return pp_suite_fig(out, "glmark2-score", v);
}

static const struct pp_suite suite = {
	.title = "glmark2",
	.progs = "glmark2 glmark2-wayland glmark2-es2 glmark2-es2-wayland",
	.display = true,
	.timeout_s = 1800,
	.cmd = glmark2_cmd,
	.parse = glmark2_parse,
};

static int glmark2_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "glmark2", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "glmark2-score", .unit = "score", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "glmark2's Score (frames per second over its scenes)" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_glmark2 = {
	.name = "glmark2",
	.group = "cpu",
	.summary = "glmark2, as installed: its Score; needs a display (runs when named)",
	.keys = keys,
	.run = glmark2_run,
	.by_name = true,
	.suite = &suite,
};
