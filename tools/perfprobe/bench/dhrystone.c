// SPDX-License-Identifier: GPL-2.0
/*
 * dhrystone: Reinhold Weicker's Dhrystone 2.1, as built from its
 * published C sources (dhry_1.c, dhry_2.c), run and read; perfprobe does
 * not rewrite it (benchlib/suite.h).
 *
 * The program asks for its number of runs on stdin and prints
 * "Dhrystones per Second: N" (its own timing, at least 2 s of it).  When
 * the runs took less, it says "Measured time too small" and is run again
 * with ten times as many.  DMIPS are Dhrystones per second over 1757, the
 * VAX 11/780's score; DMIPS/MHz divide them by the clock perfprobe
 * measured for the run (the run's "Mhz"), reported beside them.
 * Documentation/bench/dhrystone.rst.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

#define VAX_DHRYSTONES	1757.0		/* the VAX 11/780's Dhrystones per second */

static void dhry_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	unsigned long runs = ctx->opts.quick ? 5000000ul : ctx->opts.full ? 200000000ul :
			     50000000ul;

	while (attempt--)
		runs *= 10;
	snprintf(c->input, sizeof(c->input), "%lu\n", runs);
}

static int dhry_parse(const char *text, struct pp_suite_out *out)
{
	const char *p = strstr(text, "Dhrystones per Second:");
	char *end;
	double v;

	if (!strstr(text, "Dhrystone"))
		return pp_suite_bad(out, "no \"Dhrystone\" in it: not Dhrystone's output");
	if (strstr(text, "Measured time too small")) {
		out->again = true;
		return pp_suite_bad(out, "\"Measured time too small to obtain meaningful "
				    "results\": it needs more runs");
	}
	if (!p)
		return pp_suite_bad(out, "no \"Dhrystones per Second:\" line: cut short");
	p += strlen("Dhrystones per Second:");
	v = strtod(p, &end);
	if (end == p)
		return pp_suite_bad(out, "\"Dhrystones per Second:\" without a number");
	return pp_suite_fig(out, "dhrystone-per_second", v) ?:
	       pp_suite_fig(out, "dhrystone-dmips", v / VAX_DHRYSTONES);
}

/* DMIPS/MHz with the clock this run measured. */
static int dhry_finish(struct pp_ctx *ctx, struct pp_suite_out *out)
{
	double mhz = ctx->run->meta.mhz.mhz;
	unsigned int i;

	if (!(mhz > 0)) {
		pp_skip(ctx, "dhrystone-dmips_mhz", "the clock was not measured");
		return 0;
	}
	if (!ctx->run->meta.mhz.trusted)
		pp_info(ctx, "dhrystone-mhz", "the clock's measurement is not trusted: %s",
			ctx->run->meta.mhz.note);
	for (i = 0; i < out->n; i++)
		if (!strcmp(out->fig[i].key, "dhrystone-dmips"))
			return pp_suite_fig(out, "dhrystone-mhz", mhz) ?:
			       pp_suite_fig(out, "dhrystone-dmips_mhz", out->fig[i].value / mhz);
	return 0;
}

static const struct pp_suite suite = {
	.title = "Dhrystone",
	.progs = "dhrystone dhry2 dhry",
	.timeout_s = 900,
	.cmd = dhry_cmd,
	.parse = dhry_parse,
	.finish = dhry_finish,
};

static int dhrystone_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "dhrystone", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "dhrystone-per_second", .unit = "Dhrystones/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "Dhrystone 2.1's Dhrystones per Second, as it timed them" },
	{ .pattern = "dhrystone-dmips", .unit = "DMIPS", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "Dhrystones per second / 1757 (the VAX 11/780's)" },
	{ .pattern = "dhrystone-dmips_mhz", .unit = "DMIPS/MHz", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "DMIPS over the clock perfprobe measured" },
	{ .pattern = "dhrystone-mhz", .unit = "MHz", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_FACT, .desc = "the clock perfprobe measured, DMIPS/MHz's divisor" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_dhrystone = {
	.name = "dhrystone",
	.group = "cpu",
	.summary = "Dhrystone 2.1, the program as built: DMIPS, DMIPS/MHz (runs when named)",
	.keys = keys,
	.run = dhrystone_run,
	.by_name = true,
	.suite = &suite,
};
