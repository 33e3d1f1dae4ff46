/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_CLI_H
#define PP_CLI_H

#include "harness.h"

struct pp_cli {
	struct pp_opts opts;
	bool repeat_set;
	bool version;
	bool help;
	const char *cmd;
	char **args;
	int nargs;
	int argc;		/* the whole command line, for the results */
	char **argv;
};

/*
 * Parse the global options (anywhere on the line) and the command.
 * Returns 0, or PP_EXIT_USAGE after one line on stderr.
 */
int pp_cli_parse(int argc, char **argv, struct pp_cli *cli);

int pp_main(int argc, char **argv);

#endif /* PP_CLI_H */
