/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lmbench results, raw or summarised, as perfprobe runs (import.c), for
 * the import command (importcmd.c).  Documentation/import.rst.
 */
#ifndef PP_IMPORT_H
#define PP_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define PP_IMPORT_RUNS		64
#define PP_IMPORT_NOTES		4096

struct pp_import_note {
	unsigned int line;
	char text[200];
};

/* The runs of every file imported so far; the counts and notes of the last. */
struct pp_import {
	const char *file;
	struct pp_run *runs;
	char (*names)[64];		/* each run's row name, or the file */
	size_t nruns;
	unsigned int imported, unknown, twice;
	struct pp_import_note *notes;	/* what was not imported, for -v */
	size_t nnotes;
};

/* 0, or -ENOMEM (im freed). */
int pp_import_init(struct pp_import *im);
void pp_import_free(struct pp_import *im);

/*
 * One lmbench file: its runs appended to im->runs, *summary said (a
 * summary table, or raw results).  0; -EPROTO or -EILSEQ when it is not
 * an lmbench results file or summary; else -errno.
 */
int pp_import_file(struct pp_import *im, const char *path, bool *summary);

/* What an imported run's metadata says of it: file, kind, defaults. */
void pp_import_finish_meta(struct pp_run *run, const char *file, const char *kind);

/* Columns of lmbench's summary table id (its 3.0 layout), 0 if there is none. */
unsigned int pp_import_table_cols(const char *id);

#endif /* PP_IMPORT_H */
