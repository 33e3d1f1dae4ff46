// SPDX-License-Identifier: GPL-2.0
/*
 * coremark_pro: EEMBC's CoreMark-Pro, as built from its published
 * sources (github.com/eembc/coremark-pro), run by its own makefile and
 * read; perfprobe does not rewrite it (benchlib/suite.h).
 *
 * What is given is the built source tree (`make TARGET=linux64 build`
 * in it): perfprobe runs its certification there,
 *
 *   make -C TREE TARGET=linux64 XCMD=-c<online CPUs> certify-all
 *
 * (TARGET=linux on a 32-bit machine), which runs each of the nine
 * workloads on one context and on as many as there are CPUs, three times
 * each, and prints its WORKLOAD RESULTS TABLE (iterations per second,
 * MultiCore and SingleCore, and their ratio) and its MARK RESULTS TABLE
 * (the CoreMark-PRO score).  Those tables are the figures: the
 * SingleCore ones are the guide's "CoreMarkPro" table, the MultiCore
 * ones its "CoreMarkPro for Two Cores" (one per CPU).  A workload the
 * table gives as n/a is left out; no score fails.
 * Documentation/bench/coremark_pro.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/suite.h"

static void cmp_cmd(const struct pp_ctx *ctx, unsigned int attempt, struct pp_suite_cmd *c)
{
	int n = ctx->run->meta.online_cpus > 0 ? ctx->run->meta.online_cpus : 1;

	(void)attempt;
	c->argv[0] = sizeof(long) == 8 ? "TARGET=linux64" : "TARGET=linux";
	snprintf(c->argbuf[0], sizeof(c->argbuf[0]), "XCMD=-c%d", n);
	c->argv[1] = c->argbuf[0];
	c->argv[2] = "certify-all";
}

/* "12.5" or "n/a" (NAN) into *v: true when it is one of them. */
static bool figure(const char *s, double *v)
{
	char *end;

	if (!strcmp(s, "n/a")) {
		*v = NAN;
		return true;
	}
	*v = strtod(s, &end);
	return end != s && !*end;
}

/*
 * The rows of the table whose title line is title, below its dashes, to
 * the first line that is not one (a blank line, make's own): each "NAME
 * MULTI SINGLE SCALING", n/a left out.  The rows read, or -EPROTO.
 */
static int table(const char *text, const char *title, struct pp_suite_out *out, bool mark)
{
	const char *p = strstr(text, title), *eol;
	int rows = 0, err;

	if (!p)
		return pp_suite_bad(out, "no \"%s\": cut short", title);
	for (; (p = strchr(p, '\n')) && strncmp(p + 1, "-----", 5);)
		p++;
	if (!p || !(p = strchr(p + 1, '\n')))
		return pp_suite_bad(out, "%s without its rows: cut short", title);
	for (; p[1] && p[1] != '\n'; p = eol) {
		char name[80], v[3][16], key[PP_KEY_MAX];
		static const char *const suffix[3] = { "-mt", "", "-scaling" };
		unsigned int i;

		char line[160], more;
		double f[3];

		eol = strchr(p + 1, '\n');
		if (!eol)
			return pp_suite_bad(out, "%s: row %d is cut short", title, rows + 1);
		if (eol - p >= (long)sizeof(line))
			break;	/* no row of the table is so long */
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p - 1), p + 1);
		if (sscanf(line, "%79s %15s %15s %15s %c", name, v[0], v[1], v[2], &more) != 4 ||
		    !figure(v[0], &f[0]) || !figure(v[1], &f[1]) ||
		    !figure(v[2], &f[2]))
			break;	/* the table's end */
		for (i = 0; name[i]; i++)
			name[i] = (char)tolower((unsigned char)name[i]);
		if (mark && !strcmp(name, "coremark-pro"))
			strcpy(name, "score");
		for (i = 0; i < 3; i++) {
			if (isnan(f[i]))
				continue;
			snprintf(key, sizeof(key), "coremark_pro-%s%s", name, suffix[i]);
			err = pp_suite_fig(out, key, f[i]);
			if (err)
				return err;
		}
		rows++;
	}
	return rows;
}

static int cmp_parse(const char *text, struct pp_suite_out *out)
{
	int n = table(text, "WORKLOAD RESULTS TABLE", out, false);
	unsigned int i;

	if (n < 0)
		return n;
	if (!n)
		return pp_suite_bad(out, "WORKLOAD RESULTS TABLE has no workload");
	n = table(text, "MARK RESULTS TABLE", out, true);
	if (n < 0)
		return n;
	for (i = 0; i < out->n; i++)
		if (!strcmp(out->fig[i].key, "coremark_pro-score"))
			return 0;
	return pp_suite_bad(out, "no CoreMark-PRO SingleCore score in its MARK RESULTS TABLE");
}

static const struct pp_suite suite = {
	.title = "CoreMark-Pro",
	.tree = true,
	.timeout_s = 7200,
	.cmd = cmp_cmd,
	.parse = cmp_parse,
};

static int coremark_pro_run(struct pp_ctx *ctx)
{
	return pp_suite_run(ctx, "coremark_pro", &suite);
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "coremark_pro-score-mt", .unit = "score", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "the CoreMark-PRO mark, MultiCore (one context per CPU)" },
	{ .pattern = "coremark_pro-score", .unit = "score", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "the CoreMark-PRO mark, SingleCore" },
	{ .pattern = "coremark_pro-*-mt", .unit = "iter/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "a workload's iterations per second, MultiCore (one context per CPU)" },
	{ .pattern = "coremark_pro-*-scaling", .unit = "x", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "a workload's or the mark's MultiCore over SingleCore" },
	{ .pattern = "coremark_pro-*", .unit = "iter/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "a workload's iterations per second, SingleCore" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_coremark_pro = {
	.name = "coremark_pro",
	.group = "cpu",
	.summary = "EEMBC CoreMark-Pro, its built tree's certify-all: workloads and mark (runs when named)",
	.keys = keys,
	.run = coremark_pro_run,
	.by_name = true,
	.suite = &suite,
};
