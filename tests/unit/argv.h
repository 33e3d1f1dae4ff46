/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command line for pp_cli_parse() in the unit tests: LINE split on spaces.
 * The parser keeps pointers into argv (the command after "--", ...), so the
 * strings and the vector are static: valid until the next call, not only
 * while this one runs (ASan's detect_stack_use_after_return catches the
 * difference).
 */
#ifndef PP_TESTS_ARGV_H
#define PP_TESTS_ARGV_H

#include <stdio.h>
#include <string.h>

#include "cli.h"

static inline int parse(struct pp_cli *cli, const char *line)
{
	static char buf[1024];
	static char *argv[128];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok(buf, " "); tok && argc < 127; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return pp_cli_parse(argc, argv, cli);
}

#endif /* PP_TESTS_ARGV_H */
