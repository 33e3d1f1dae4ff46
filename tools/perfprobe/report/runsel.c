// SPDX-License-Identifier: GPL-2.0
/*
 * Result files named by a word: a file, a directory, "latest" or a label
 * (runsel.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exitcode.h"
#include "report/runsel.h"
#include "util.h"

static int sel_add(struct pp_runsel *sel, const char *path)
{
	if (sel->n == sel->cap) {
		size_t cap = sel->cap ? 2 * sel->cap : 16;
		char **p = realloc(sel->paths, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sel->paths = p;
		sel->cap = cap;
	}
	sel->paths[sel->n] = strdup(path);
	if (!sel->paths[sel->n])
		return -ENOMEM;
	sel->n++;
	return 0;
}

void pp_runsel_free(struct pp_runsel *sel)
{
	size_t i;

	for (i = 0; i < sel->n; i++)
		free(sel->paths[i]);
	free(sel->paths);
	memset(sel, 0, sizeof(*sel));
}

static struct pp_runsel *scan_sel;

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".json"))
		return 0;
	return sel_add(scan_sel, path) ? 1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pp_runsel_scan(const char *dir, struct pp_runsel *sel)
{
	scan_sel = sel;
	if (nftw(dir, scan_one, 16, FTW_PHYS))
		return errno ? -errno : -ENOMEM;
	if (sel->n)
		qsort(sel->paths, sel->n, sizeof(*sel->paths), cmp_str);
	return 0;
}

/* Saved runs of results_dir whose label is label, or the newest one. */
static int from_history(const char *word, const char *dir, struct pp_runsel *sel)
{
	bool latest = !strcmp(word, "latest");
	struct pp_runsel all = { 0 };
	char newest[32] = "", err[512];
	bool best_interrupted = false;
	size_t i, best = 0;
	int ret;

	ret = pp_runsel_scan(dir, &all);
	if (ret) {
		pp_err("%s: no such file or directory, and no saved runs to look for a label in (%s: %s)",
		       word, dir, strerror(-ret));
		return PP_EXIT_BADFILE;
	}
	for (i = 0; i < all.n && !ret; i++) {
		struct pp_run run;

		if (pp_run_load(&run, all.paths[i], err, sizeof(err)))
			continue;	/* not a run of ours: not a match */
		/* paths are sorted: of the same second, the later file */
		if (latest && strcmp(run.meta.date, newest) >= 0) {
			pp_strlcpy(newest, run.meta.date, sizeof(newest));
			best = i + 1;
			best_interrupted = run.interrupted;
		} else if (!latest && !strcmp(run.meta.label, word)) {
			ret = sel_add(sel, all.paths[i]);
		}
		pp_run_free(&run);
	}
	if (!ret && best) {
		if (best_interrupted)
			fprintf(stderr, "perfprobe: latest: %s was interrupted: its results are partial\n",
				all.paths[best - 1]);
		ret = sel_add(sel, all.paths[best - 1]);
	}
	pp_runsel_free(&all);
	if (ret)
		return PP_EXIT_FAIL;
	if (!sel->n) {
		pp_err("%s: no such file or directory, and no saved run %s in %s (perfprobe ls lists them)",
		       word, latest ? "at all" : "has this label", dir);
		return PP_EXIT_BADFILE;
	}
	return 0;
}

int pp_runsel_resolve(const char *arg, const char *results_dir,
		      struct pp_runsel *sel)
{
	char dir[PATH_MAX];
	struct stat st;
	int ret;

	memset(sel, 0, sizeof(*sel));
	if (!stat(arg, &st)) {
		if (!S_ISDIR(st.st_mode))
			return sel_add(sel, arg) ? PP_EXIT_FAIL : 0;
		ret = pp_runsel_scan(arg, sel);
		if (ret) {
			pp_err("%s: %s", arg, strerror(-ret));
			return PP_EXIT_FAIL;
		}
		if (!sel->n) {
			pp_err("%s: no result files (*.json) in this directory", arg);
			return PP_EXIT_BADFILE;
		}
		return 0;
	}
	/* not a path: a label or "latest", which contain no '/' */
	if (strchr(arg, '/') || (strcmp(arg, "latest") && !pp_label_valid(arg))) {
		pp_err("%s: %s", arg, strerror(errno));
		return PP_EXIT_BADFILE;
	}
	if (results_dir)
		pp_strlcpy(dir, results_dir, sizeof(dir));
	else if (pp_results_default_dir(dir, sizeof(dir))) {
		pp_err("%s: no such file, and no results directory to look for labels in", arg);
		return PP_EXIT_BADFILE;
	}
	return from_history(arg, dir, sel);
}

int pp_runs_load(char **words, int nwords, const char *results_dir,
		 struct pp_run **out, size_t *nout)
{
	struct pp_run *runs = NULL;
	size_t n = 0, i;
	char err[512];
	int a, ret = 0;

	for (a = 0; a < nwords && !ret; a++) {
		struct pp_runsel sel;
		struct pp_run *more;

		ret = pp_runsel_resolve(words[a], results_dir, &sel);
		if (ret)
			break;
		more = realloc(runs, (n + sel.n) * sizeof(*runs));
		if (!more)
			ret = PP_EXIT_FAIL;
		else
			runs = more;
		for (i = 0; !ret && i < sel.n; i++) {
			ret = pp_run_load(&runs[n], sel.paths[i], err, sizeof(err));
			if (ret) {
				pp_err("%s", err);
				ret = PP_EXIT_BADFILE;
			} else {
				n++;
			}
		}
		pp_runsel_free(&sel);
	}
	if (ret) {
		pp_runs_free(runs, n);
		return ret;
	}
	*out = runs;
	*nout = n;
	return 0;
}

void pp_runs_free(struct pp_run *runs, size_t n)
{
	while (n-- > 0)
		pp_run_free(&runs[n]);
	free(runs);
}
