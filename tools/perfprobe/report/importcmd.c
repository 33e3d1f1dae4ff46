// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe import lmbench [-v] FILE... [-o DIR]: each lmbench file
 * through import.c, what it gave on stderr (-v: every line or cell not
 * imported), each run saved as a results document in DIR (default the
 * results directory), its path on stdout.  Documentation/import.rst.
 *
 * perfprobe import lava [-v] DIR|FILE... [-o DIR]: the results of LAVA
 * jobs through importlava.c, every path given read before the runs are
 * made (a job's results and its definition or artifacts may be in
 * several files).  Documentation/lava.rst.
 *
 * perfprobe import SUITE FILE... [-o DIR]: the saved output of a CPU
 * suite perfprobe runs (dhrystone, whetstone, linpack, nbench,
 * coremark_pro, glmark2: the benchmarks with a suite, benchlib/suite.h),
 * read by the parser that reads it when perfprobe runs it, a run each.
 * Every file is read before any is written: a bad one writes nothing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "benchlib/suite.h"
#include "commands.h"
#include "report/import.h"
#include "util.h"

/* Where the documents go: 0, or an exit code after one line. */
static int import_dir(const struct pp_cli *cli, char *dir, size_t size)
{
	int ret;

	if (cli->out)
		pp_strlcpy(dir, cli->out, size);
	else if (pp_results_default_dir(dir, size))
		return pp_usage_err("import: no results directory (set --results-dir)");
	ret = pp_mkdirs(dir, 0755);
	if (ret) {
		pp_err("import: cannot make %s: %s", dir, strerror(-ret));
		return PP_EXIT_FAIL;
	}
	return 0;
}

/* What the last file gave, on stderr; with -v every note. */
static void import_said(const struct pp_import *im, size_t before, bool summary)
{
	size_t k, nruns = im->nruns - before;

	fprintf(stderr, "perfprobe: import: %s: %s, %zu run%s, %u figures imported (%u "
		"more given twice alike), %u lines or cells not%s\n", im->file,
		summary ? "summary" : "raw results", nruns, nruns == 1 ? "" : "s",
		im->imported, im->twice, im->unknown,
		pp_verbosity() ? ":" : " (-v lists them)");
	for (k = 0; pp_verbosity() && k < im->nnotes; k++)
		fprintf(stderr, "  %s:%u: %s\n", im->file, im->notes[k].line,
			im->notes[k].text);
}

/* The runs from before on, a document each: 0 or an exit code. */
static int import_save(struct pp_import *im, size_t before, bool summary,
		       const char *dir, size_t *written)
{
	char path[PATH_MAX + 160], tag[80];
	size_t k;
	int err;

	for (k = before; k < im->nruns; k++) {
		struct pp_run *run = &im->runs[k];

		if (!run->nresults) {
			fprintf(stderr, "perfprobe: import: %s: %s: no figure: no document\n",
				im->file, im->names[k]);
			continue;
		}
		pp_import_finish_meta(run, im->file,
				      summary ? "lmbench summary" : "lmbench results");
		snprintf(tag, sizeof(tag), "lmbench-%s", run->meta.label);
		snprintf(path, sizeof(path), "%s/import-%s-%03zu.json", dir, tag, *written);
		err = pp_run_save(run, path);
		if (err) {
			pp_err("import: cannot write %s: %s", path, strerror(-err));
			return PP_EXIT_FAIL;
		}
		printf("%s\n", path);
		(*written)++;
	}
	return 0;
}

/* One file: 0 or an exit code after one line. */
static int import_one(struct pp_import *im, const char *file, const char *dir,
		      size_t *written)
{
	size_t before = im->nruns;
	bool summary;
	int err;

	err = pp_import_file(im, file, &summary);
	if (err == -EPROTO || err == -EILSEQ) {
		pp_err("import: %s:1: not an lmbench results file or summary (no "
		       "\"[lmbench\" header, no summary table)", file);
		return PP_EXIT_BADFILE;
	}
	if (err) {
		pp_err("import: %s: %s", file, strerror(-err));
		return err == -ENOENT || err == -EACCES || err == -EISDIR ? PP_EXIT_BADFILE :
		       PP_EXIT_FAIL;
	}
	import_said(im, before, summary);
	return import_save(im, before, summary, dir, written);
}

/* The runs of LAVA jobs: 0 or an exit code after one line. */
static int import_lava(struct pp_import *im, int argc, char **argv, const char *dir)
{
	char path[PATH_MAX + 160], tag[96];
	struct pp_lava lv = { 0 };
	size_t k, written = 0;
	int a, err = 0, ret = 0;

	for (a = 0; a < argc && !err; a++) {
		err = pp_lava_read(im, &lv, argv[a]);
		if (err == -EPROTO || err == -EILSEQ) {
			pp_err("import: %s: no LAVA job's results in it (no dispatcher log, results "
			       "export, job definition or perfprobe run)", argv[a]);
			ret = PP_EXIT_BADFILE;
		} else if (err) {
			pp_err("import: %s: %s", argv[a], strerror(-err));
			ret = err == -ENOENT || err == -EACCES ? PP_EXIT_BADFILE : PP_EXIT_FAIL;
		}
	}
	if (!err)
		err = pp_lava_runs(im, &lv);
	if (!ret && err) {
		pp_err("import: %s", err == -E2BIG ? "more than 64 runs: import fewer jobs at once" :
		       strerror(-err));
		ret = PP_EXIT_FAIL;
	}
	if (!ret) {
		fprintf(stderr, "perfprobe: import: %zu test cases, %zu artifacts: %zu runs (%zu with "
			"their samples), %u figures imported, %u not%s\n", lv.ncases, lv.nart,
			im->nruns, lv.nsamples, im->imported, im->unknown,
			pp_verbosity() ? ":" : " (-v lists them)");
		for (k = 0; pp_verbosity() && k < im->nnotes; k++)
			fprintf(stderr, "  line %u: %s\n", im->notes[k].line, im->notes[k].text);
		if (!im->nruns) {
			pp_err("import: no perfprobe result among the LAVA test cases read");
			ret = PP_EXIT_BADFILE;
		}
	}
	for (k = 0; !ret && k < im->nruns; k++) {
		struct pp_run *run = &im->runs[k];

		if (!run->nresults) {
			fprintf(stderr, "perfprobe: import: test suite %s: no perfprobe key: no document\n",
				im->names[k]);
			continue;
		}
		if (!strcmp(run->meta.mode, "")) {
			pp_import_finish_meta(run, argv[0], "LAVA results");
			pp_strlcpy(run->meta.mhz.note, "not in LAVA's results", sizeof(run->meta.mhz.note));
		}
		snprintf(tag, sizeof(tag), "lava-%s", run->meta.label);
		snprintf(path, sizeof(path), "%s/import-%s-%03zu.json", dir, tag, written);
		err = pp_run_save(run, path);
		if (err) {
			pp_err("import: cannot write %s: %s", path, strerror(-err));
			ret = PP_EXIT_FAIL;
			break;
		}
		printf("%s\n", path);
		written++;
	}
	pp_lava_free(&lv);
	return ret;
}

/* lmbench's results files, each one or more runs. */
static int import_lmbench(struct pp_import *im, int argc, char **argv, const char *dir)
{
	size_t written = 0;
	int a, ret = 0;

	for (a = 0; a < argc && !ret; a++)
		ret = import_one(im, argv[a], dir, &written);
	return ret;
}

/* One suite output's figures as a run: 0 or -errno. */
static int suite_run_make(const struct pp_cli *cli, const struct pp_bench *b, const char *file,
			  const struct pp_suite_out *out, struct pp_run *run)
{
	const char *src = pp_intern(file);
	const struct pp_key_decl *d;
	struct pp_result *r;
	char kind[96];
	unsigned int i;

	pp_run_init(run);
	for (i = 0; i < out->n; i++) {
		d = pp_key_decl_find(b->keys, out->fig[i].key);
		if (!d)
			return -EINVAL;	/* the parser and the declarations disagree */
		r = pp_run_add(run, out->fig[i].key, d->unit, d->dir, &out->fig[i].value, 1);
		if (!r)
			return -ENOMEM;
		r->kind = d->kind;
		r->imported = src;
	}
	pp_strlcpy(run->meta.label, cli->label ? cli->label : "imported", sizeof(run->meta.label));
	pp_strlcpy(run->meta.hostname, run->meta.label, sizeof(run->meta.hostname));
	snprintf(kind, sizeof(kind), "%s output", b->name);
	pp_import_finish_meta(run, file, kind);
	pp_strlcpy(run->meta.mhz.note, "not in the suite's output", sizeof(run->meta.mhz.note));
	return 0;
}

/* A CPU suite's saved output files: all read, then a run each written. */
static int import_suite(const struct pp_cli *cli, const struct pp_bench *b, int argc,
			char **argv, const char *dir)
{
	const struct pp_suite *s = b->suite;
	struct pp_suite_out *out = calloc((size_t)argc, sizeof(*out));
	char path[PATH_MAX + 160];
	int a, err, ret = 0;

	if (!out) {
		pp_err("import: out of memory");
		return PP_EXIT_FAIL;
	}
	for (a = 0; a < argc && !ret; a++) {
		err = pp_suite_parse_file(s, argv[a], &out[a]);
		if (err == -EPROTO) {
			pp_err("import: %s: not %s's output as perfprobe reads it: %s", argv[a],
			       b->name, out[a].why);
			ret = PP_EXIT_BADFILE;
		} else if (err) {
			pp_err("import: %s: %s", argv[a], strerror(-err));
			ret = err == -ENOMEM ? PP_EXIT_FAIL : PP_EXIT_BADFILE;
		}
	}
	for (a = 0; a < argc && !ret; a++) {
		struct pp_run run;

		err = suite_run_make(cli, b, argv[a], &out[a], &run);
		snprintf(path, sizeof(path), "%s/import-%s-%s-%03d.json", dir, b->name,
			 run.meta.label, a);
		if (!err)
			err = pp_run_save(&run, path);
		pp_run_free(&run);
		if (err) {
			pp_err("import: cannot write %s: %s", path, strerror(-err));
			ret = PP_EXIT_FAIL;
			break;
		}
		fprintf(stderr, "perfprobe: import: %s: %s output, %u figures\n", argv[a],
			b->name, out[a].n);
		printf("%s\n", path);
	}
	free(out);
	return ret;
}

/* What import reads: its name on the command line, what it takes, how. */
static const struct import_source {
	const char *name;
	const char *takes;
	int (*import)(struct pp_import *im, int argc, char **argv, const char *dir);
} sources[] = {
	{ "lmbench", "one or more lmbench results files", import_lmbench },
	{ "lava", "a LAVA job's output directory or its results files", import_lava },
};

int pp_cmd_import(struct pp_cli *cli, int argc, char **argv)
{
	const struct import_source *src = NULL;
	const struct pp_bench *suite = NULL;
	char dir[PATH_MAX], names[160] = "";
	struct pp_import im;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (argc >= 1 && !strcmp(argv[0], sources[i].name))
			src = &sources[i];
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "|" : "", sources[i].name);
	}
	/* and the CPU suites, by their benchmarks' names */
	for (i = 0; i < pp_nbenches; i++) {
		if (!pp_benches[i]->suite)
			continue;
		if (argc >= 1 && !strcmp(argv[0], pp_benches[i]->name))
			suite = pp_benches[i];
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "|%s",
			 pp_benches[i]->name);
	}
	if (!src && !suite)
		return pp_usage_err("import: say what to import: perfprobe import %s FILE...", names);
	if (argc < 2)
		return pp_usage_err("import %s: give %s", argv[0],
				    src ? src->takes : "one or more files of its saved output");
	ret = import_dir(cli, dir, sizeof(dir));
	if (ret)
		return ret;
	if (suite)
		return import_suite(cli, suite, argc - 1, argv + 1, dir);
	if (pp_import_init(&im)) {
		pp_err("import: out of memory");
		return PP_EXIT_FAIL;
	}
	ret = src->import(&im, argc - 1, argv + 1, dir);
	pp_import_free(&im);
	return ret;
}
