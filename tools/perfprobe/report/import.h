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

/*
 * LAVA (importlava.c): the test cases and artifacts of the files read so
 * far, and what the job's definition says of its kernel and device.
 */
struct pp_lava_case {
	const char *file;		/* pp_intern()ed or the caller's */
	unsigned int line;
	char suite[64];			/* the test definition: 0_perfprobe */
	char set[64];			/* lava-test-set, or "" */
	char name[PP_KEY_MAX];
	char result[16];
	char units[PP_UNIT_MAX];
	char job[32];			/* a server's export names it */
	double value;
	bool measured;
};

struct pp_lava_artifact {
	char *text;			/* a perfprobe run's JSON */
	size_t len;
	const char *file;
	unsigned int line;
	struct pp_run run;
	bool loaded, used;
};

struct pp_lava {
	struct pp_lava_case *cases;
	size_t ncases, capcases;
	struct pp_lava_artifact *art;
	size_t nart, capart;
	char kernel[64], device[64];	/* job metadata perfprobe.kernel, .device */
	size_t nsamples;		/* runs made of an artifact */
};

/*
 * A job's output directory (every file in it) or one file: the
 * dispatcher's log, a server's results export, the job definition or a
 * run's JSON.  0; -EPROTO when nothing in it is any of these; else -errno.
 */
int pp_lava_read(struct pp_import *im, struct pp_lava *lv, const char *path);
/* The runs of what was read, appended to im->runs: 0 or -errno. */
int pp_lava_runs(struct pp_import *im, struct pp_lava *lv);
void pp_lava_free(struct pp_lava *lv);

#endif /* PP_IMPORT_H */
