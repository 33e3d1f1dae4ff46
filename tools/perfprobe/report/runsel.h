/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which result files a command-line word names, for summary, compare and
 * ls: a file; a directory (every *.json below it); "latest" (the newest
 * run saved in the results directory); or a label (every saved run with
 * that --label).  Documentation/compare.rst.
 */
#ifndef PP_RUNSEL_H
#define PP_RUNSEL_H

#include <stddef.h>

#include "results.h"

struct pp_runsel {
	char **paths;		/* sorted, except "latest" */
	size_t n, cap;
};

/*
 * Resolve arg, looking for labels and "latest" in results_dir (NULL: the
 * default directory).  0, or an exit code after one line on stderr.
 */
int pp_runsel_resolve(const char *arg, const char *results_dir,
		      struct pp_runsel *sel);
/* Every *.json below dir, sorted: 0 or -errno. */
int pp_runsel_scan(const char *dir, struct pp_runsel *sel);
void pp_runsel_free(struct pp_runsel *sel);

/*
 * Every run the words name, loaded in order into *out (pp_runs_free()
 * it): 0, or an exit code after one line on stderr.
 */
int pp_runs_load(char **words, int nwords, const char *results_dir,
		 struct pp_run **out, size_t *nout);
void pp_runs_free(struct pp_run *runs, size_t n);

#endif /* PP_RUNSEL_H */
