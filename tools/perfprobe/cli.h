/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_CLI_H
#define PP_CLI_H

#include <stdio.h>

#include <getopt.h>

#include "exitcode.h"
#include "harness.h"

/* A command's own option as given (options.c: its id), in order. */
struct pp_cli_opt {
	int val;			/* the option's id in pp_options[] */
	const char *arg;		/* its value, or NULL */
	const char *name;		/* its long name */
};

struct pp_cli {
	struct pp_opts opts;		/* what the measurements take */
	/* where the output goes: the commands', not the core's */
	bool json;
	const char *out;		/* -o FILE */
	const char *results_dir;	/* --results-dir */
	bool no_save;
	const char *label;		/* --label, NULL: the release */
	bool repeat_set;
	bool version;
	bool help;
	const char *cmd;
	char **args;
	int nargs;
	struct pp_cli_opt *copts;	/* the command's own options, as many */
	int ncopts;			/* as given; valid until the next parse */
	int kview_mode;		/* enum pp_kv_mode, --kernel-view */
	int argc;		/* the whole command line, for the results */
	char **argv;
};

/*
 * Parse the global options (anywhere on the line, up to "--") and the
 * command's own (after its word; options.c).  Returns 0, or
 * PP_EXIT_USAGE after one line on stderr.
 */
int pp_cli_parse(int argc, char **argv, struct pp_cli *cli);

int pp_main(int argc, char **argv);

/* One command's usage, options and example (help.c); -1: no such command. */
int pp_cmd_help_text(const char *cmd, FILE *f);

#endif /* PP_CLI_H */
