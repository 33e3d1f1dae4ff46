// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe import lmbench [-v] FILE... [-o DIR]: each lmbench file
 * through import.c, what it gave on stderr (-v: every line or cell not
 * imported), each run saved as a results document in DIR (default the
 * results directory), its path on stdout.  Documentation/import.rst.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "report/import.h"
#include "util.h"

/* Where the documents go: 0, or an exit code after one line. */
static int import_dir(const struct pp_cli *cli, char *dir, size_t size)
{
	if (cli->out)
		pp_strlcpy(dir, cli->out, size);
	else if (pp_results_default_dir(dir, size))
		return pp_usage_err("import: no results directory (set --results-dir)");
	if (mkdir(dir, 0755) && errno != EEXIST) {
		pp_err("import: cannot make %s: %s", dir, strerror(errno));
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
		return err == -ENOENT || err == -EACCES ? PP_EXIT_BADFILE : PP_EXIT_FAIL;
	}
	import_said(im, before, summary);
	return import_save(im, before, summary, dir, written);
}

int pp_cmd_import(struct pp_cli *cli, int argc, char **argv)
{
	char dir[PATH_MAX];
	struct pp_import im;
	size_t written = 0;
	int a, ret;

	if (argc < 1 || strcmp(argv[0], "lmbench"))
		return pp_usage_err("import: say what to import: perfprobe import lmbench FILE...");
	if (argc < 2)
		return pp_usage_err("import lmbench: give one or more lmbench results files");
	ret = import_dir(cli, dir, sizeof(dir));
	if (ret)
		return ret;
	if (pp_import_init(&im)) {
		pp_err("import: out of memory");
		return PP_EXIT_FAIL;
	}
	for (a = 1; a < argc && !ret; a++)
		ret = import_one(&im, argv[a], dir, &written);
	pp_import_free(&im);
	return ret;
}
