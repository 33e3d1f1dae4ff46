// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe export --csv RUNS...: every result of every run as one flat
 * CSV row (RFC 4180), the list spreadsheets and the vendor guides use:
 *
 *   label,release,date,host,key,unit,value,median,min,max,mean,cv_pct,n,noisy
 *
 * value is the headline (the median, or STREAM's best); an imported
 * single-valued result has n 1 and empty min/max/cv.
 *
 * perfprobe export --lava RUN: one run as the lines a LAVA test shell
 * runs to record it (Documentation/lava.rst): for each result
 *
 *   lava-test-case KEY --result pass --measurement VALUE --units UNIT
 *
 * and for each benchmark the run skipped or that failed, its name with
 * --result skip or fail.
 *
 * perfprobe export --folded RUNS...: every sampled profile as collapsed
 * stacks, the format FlameGraph, speedscope and the Firefox profiler
 * read, one line a distinct stack, its frames from the root, the run and
 * the key first:
 *
 *   LABEL@DATE;KEY;main;...;syscall;entry_SYSCALL_64_[k];...;__x64_sys_getppid_[k] 12
 *
 * Written to stdout, or atomically to -o FILE.  Documentation/report.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "report/runsel.h"
#include "util.h"

/* A field, quoted when it holds a comma, a quote or a line break. */
static void csv_str(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputs(last ? "\r\n" : ",", f);
}

/* A number with ten significant digits; empty when there is none. */
static void csv_num(FILE *f, double v, bool have)
{
	if (have && isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(',', f);
}

static void export_run(FILE *f, const struct pp_run *run)
{
	const struct pp_meta *m = &run->meta;
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];
		bool spread = r->nsamples > 1;

		csv_str(f, m->label[0] ? m->label : m->release, false);
		csv_str(f, m->release, false);
		csv_str(f, m->date, false);
		csv_str(f, m->hostname, false);
		csv_str(f, r->key, false);
		csv_str(f, r->unit, false);
		csv_num(f, r->value, true);
		csv_num(f, r->st.median, r->nsamples > 0);
		csv_num(f, r->st.min, spread);
		csv_num(f, r->st.max, spread);
		csv_num(f, r->st.mean, r->nsamples > 0);
		csv_num(f, r->st.cv_pct, spread);
		fprintf(f, "%zu,", r->nsamples);
		csv_str(f, r->noisy ? "yes" : "no", true);
	}
}

/*
 * A word for LAVA's test shell, which makes a directory of a case's name:
 * what is not [A-Za-z0-9_.-] (a unit: also / and %) becomes '_'.
 */
static void lava_word(FILE *f, const char *s, const char *more)
{
	for (; *s; s++)
		fputc(isalnum((unsigned char)*s) || strchr("_.-", *s) || strchr(more, *s) ?
		      *s : '_', f);
}

static void export_lava(FILE *f, const struct pp_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];

		fputs("lava-test-case ", f);
		lava_word(f, r->key, "");
		if (!isfinite(r->value)) {
			fputs(" --result fail\n", f);
			continue;
		}
		fprintf(f, " --result pass --measurement %.10g", r->value);
		if (r->unit[0]) {
			fputs(" --units ", f);
			lava_word(f, r->unit, "/%");
		}
		fputc('\n', f);
	}
	for (i = 0; i < run->nskips; i++) {
		fputs("lava-test-case ", f);
		lava_word(f, run->skips[i].name, "");
		fputs(" --result skip\n", f);
	}
	for (i = 0; i < run->nfails; i++) {
		fputs("lava-test-case ", f);
		lava_word(f, run->fails[i].name, "");
		fputs(" --result fail\n", f);
	}
}

/* A frame's name, its separators (';', a line break) made harmless. */
static void folded_frame(FILE *f, const char *name, bool kernel)
{
	fputc(';', f);
	for (; *name; name++)
		fputc(*name == ';' ? ':' : (unsigned char)*name < ' ' ? '?' : *name, f);
	if (kernel)
		fputs("_[k]", f);
}

static void export_folded(FILE *f, const struct pp_run *run)
{
	const struct pp_meta *m = &run->meta;
	size_t i, j, k;

	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];
		const struct pp_prof *p = r->k.prof;

		for (j = 0; p && j < p->nstacks; j++) {
			const struct pp_prof_stack *s = &p->stacks[j];

			fprintf(f, "%s@%s;%s", m->label[0] ? m->label : m->release, m->date, r->key);
			for (k = 0; k < (size_t)s->nuser + s->nkernel; k++)
				folded_frame(f, p->frames[p->pool[s->off + k]], k >= s->nuser);
			fprintf(f, " %llu\n", (unsigned long long)s->count);
		}
	}
}

int pp_cmd_export(struct pp_cli *cli, int argc, char **argv)
{
	struct pp_run *runs;
	bool csv = false, lava = false, folded = false;
	char *buf = NULL;
	size_t n, len = 0, i;
	FILE *f;
	int ret, c;

	for (c = 0; c < cli->ncopts; c++)
		if (cli->copts[c].val == PP_OPT_EXPORT_CSV)
			csv = true;
		else if (cli->copts[c].val == PP_OPT_EXPORT_LAVA)
			lava = true;
		else if (cli->copts[c].val == PP_OPT_EXPORT_FOLDED)
			folded = true;
	if (csv + lava + folded != 1)
		return pp_usage_err("export: say the format: --csv, --lava or --folded, one of them");
	if (argc < 1)
		return pp_usage_err("export: give one or more result files, directories or labels");
	if (cli->json)
		return pp_usage_err("export: --json is not an export format: the files already are JSON");
	ret = pp_runs_load(argv, argc, cli->results_dir, &runs, &n);
	if (ret)
		return ret;
	if (lava && n != 1) {
		pp_runs_free(runs, n);
		return pp_usage_err("export: --lava takes one run (a LAVA test case's name is its key), %zu given", n);
	}
	f = cli->out ? open_memstream(&buf, &len) : stdout;
	if (!f) {
		pp_err("export: out of memory");
		ret = PP_EXIT_FAIL;
		goto free_runs;
	}
	if (lava) {
		export_lava(f, &runs[0]);
	} else if (folded) {
		for (i = 0; i < n; i++)
			export_folded(f, &runs[i]);
	} else {
		fputs("label,release,date,host,key,unit,value,median,min,max,mean,cv_pct,n,noisy\r\n", f);
		for (i = 0; i < n; i++)
			export_run(f, &runs[i]);
	}
	if (f == stdout) {
		ret = fflush(stdout) ? PP_EXIT_FAIL : 0;
		goto free_runs;
	}
	if (fclose(f)) {
		pp_err("export: out of memory");
		ret = PP_EXIT_FAIL;
		goto free_buf;
	}
	ret = pp_write_file_atomic(cli->out, buf, len);
	if (ret) {
		pp_err("export: cannot write %s: %s", cli->out, strerror(-ret));
		ret = PP_EXIT_FAIL;
	}
free_buf:
	free(buf);
free_runs:
	pp_runs_free(runs, n);
	return ret;
}
