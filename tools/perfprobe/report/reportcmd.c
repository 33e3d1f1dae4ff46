// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe report [--format html|svg] RUNS... -o OUT: the page of
 * report.c written to -o, or with --format svg its charts as SVG files
 * into the directory -o names.  RUNS are words (runsel.h) or
 * perfprobe-timer documents, told apart by their format.  With --guide,
 * the vendor guide's document (guidedoc.c) of the runs, as HTML or
 * Markdown (--format md).  Documentation/report.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "report/guidedoc.h"
#include "report/report.h"
#include "report/runsel.h"
#include "util.h"

enum { OPT_FORMAT = 'f', OPT_GUIDE = 'g' };	/* their ids in options.c */

/*
 * What the arguments name: timer documents, and sides of runs (as
 * compare takes them, with their labels' history); runs is every side's
 * runs in order, shallow copies (the sides own them).
 */
struct inputs {
	struct pp_timer_doc *timers;
	size_t ntimers;
	struct pp_side *sides;
	size_t nsides;
	struct pp_run *runs;
	size_t nruns;
};

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static void inputs_free(struct inputs *in)
{
	size_t i;

	free(in->runs);
	for (i = 0; i < in->nsides; i++)
		pp_side_free(&in->sides[i]);
	free(in->sides);
	free(in->timers);
	memset(in, 0, sizeof(*in));
}

/* Each word a side; the runs, all sides' in order: 0 or an exit code. */
static int sides_load(struct inputs *in, char **words, int nw, const char *results_dir)
{
	size_t i, n = 0;
	int ret = 0;

	in->sides = calloc((size_t)nw, sizeof(*in->sides));
	if (!in->sides)
		return PP_EXIT_FAIL;
	for (; in->nsides < (size_t)nw && !ret; in->nsides++) {
		in->sides[in->nsides].arg = words[in->nsides];
		ret = pp_side_load(&in->sides[in->nsides], results_dir, true);
		n += in->sides[in->nsides].npaths;
	}
	if (ret)
		return ret;
	in->runs = calloc(n ? n : 1, sizeof(*in->runs));
	if (!in->runs)
		return PP_EXIT_FAIL;
	for (i = 0; i < in->nsides; i++) {
		memcpy(in->runs + in->nruns, in->sides[i].runs,
		       in->sides[i].npaths * sizeof(*in->runs));
		in->nruns += in->sides[i].npaths;
	}
	return 0;
}

/*
 * Timer documents by their format; every other argument names runs,
 * loaded in order.  0, or an exit code after one line (in freed).
 */
static int inputs_load(struct pp_cli *cli, int argc, char **argv, struct inputs *in)
{
	char **words;
	int i, nw = 0, ret = 0;

	memset(in, 0, sizeof(*in));
	words = calloc((size_t)argc, sizeof(*words));
	in->timers = calloc((size_t)argc, sizeof(*in->timers));
	if (!words || !in->timers) {
		pp_err("report: out of memory");
		ret = PP_EXIT_FAIL;
	}
	for (i = 0; i < argc && !ret; i++) {
		int r = is_file(argv[i]) ? pp_timer_doc_load(argv[i], &in->timers[in->ntimers]) : 0;

		if (r < 0) {
			pp_err("report: %s: a perfprobe-timer document without a histogram",
			       argv[i]);
			ret = PP_EXIT_BADFILE;
		} else if (r) {
			in->ntimers++;
		} else {
			words[nw++] = argv[i];
		}
	}
	if (!ret && nw)
		ret = sides_load(in, words, nw, cli->results_dir);
	free(words);
	if (ret)
		inputs_free(in);
	return ret;
}

/* The page, or the charts, to -o: 0 or an exit code after one line. */
static int report_out(const char *out, const struct inputs *in, bool svg)
{
	struct pp_report_in rin = {
		.runs = in->runs, .nruns = in->nruns, .sides = in->sides,
		.nsides = in->nsides, .timers = in->timers,
		.ntimers = in->ntimers, .svgdir = svg ? out : NULL,
	};
	unsigned int charts = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (svg && mkdir(out, 0755) && errno != EEXIST) {
		pp_err("report: cannot make the directory %s: %s", out, strerror(errno));
		return PP_EXIT_FAIL;
	}
	/* in SVG mode the page is still built, and thrown away */
	f = open_memstream(&buf, &len);
	if (!f) {
		pp_err("report: out of memory");
		return PP_EXIT_FAIL;
	}
	err = pp_report_write(f, &rin, &charts);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err && !svg)
		err = pp_write_file_atomic(out, buf, len);
	free(buf);
	if (err) {
		pp_err("report: cannot write %s: %s", out, strerror(-err));
		return PP_EXIT_FAIL;
	}
	if (svg && !charts) {
		pp_err("report: nothing to draw in the runs given");
		return PP_EXIT_FAIL;
	}
	return 0;
}

/* The guide's document of the runs to -o: 0 or an exit code after one line. */
static int guide_out(const char *out, const struct inputs *in, bool md)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (!in->nruns) {
		pp_err("report: --guide: no run among the arguments (timer documents have no "
		       "place in it)");
		return PP_EXIT_BADFILE;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		pp_err("report: out of memory");
		return PP_EXIT_FAIL;
	}
	err = pp_guide_doc_write(f, md ? PP_GUIDE_MD : PP_GUIDE_HTML, in->runs, in->nruns);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err)
		err = pp_write_file_atomic(out, buf, len);
	free(buf);
	if (err) {
		pp_err("report: cannot write %s: %s", out, strerror(-err));
		return PP_EXIT_FAIL;
	}
	return 0;
}

int pp_cmd_report(struct pp_cli *cli, int argc, char **argv)
{
	const char *format = "html";
	bool guide = false;
	struct inputs in;
	int c, ret;

	for (c = 0; c < cli->ncopts; c++) {
		if (cli->copts[c].val == OPT_FORMAT)
			format = cli->copts[c].arg;
		else if (cli->copts[c].val == OPT_GUIDE)
			guide = true;
	}
	if (guide && strcmp(format, "html") && strcmp(format, "md"))
		return pp_usage_err("report: --guide --format '%s': say html or md", format);
	if (!guide && !strcmp(format, "md"))
		return pp_usage_err("report: --format md is the guide's (--guide)");
	if (strcmp(format, "html") && strcmp(format, "svg") && strcmp(format, "md"))
		return pp_usage_err("report: --format '%s': say html or svg", format);
	if (argc < 1)
		return pp_usage_err("report: give one or more result files, directories or labels");
	if (!cli->out)
		return pp_usage_err("report: say where it goes: -o %s",
				    strcmp(format, "svg") ? "report.html" : "DIR");
	if (cli->json)
		return pp_usage_err("report: --json is not a report format (--format html|svg)");
	ret = inputs_load(cli, argc, argv, &in);
	if (ret)
		return ret;
	if (guide)
		ret = guide_out(cli->out, &in, !strcmp(format, "md"));
	else
		ret = report_out(cli->out, &in, !strcmp(format, "svg"));
	inputs_free(&in);
	return ret;
}
