/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit codes of the perfprobe command (Documentation/cli.rst) and the
 * few helpers that turn what a command met into one.  The core
 * (tools/lib) returns 0 or -errno with a message; only the commands
 * decide what that means to the shell.
 */
#ifndef PP_EXITCODE_H
#define PP_EXITCODE_H

#include "util.h"

enum pp_exit {
	PP_EXIT_OK	= 0,	/* everything asked for ran */
	PP_EXIT_FAIL	= 1,	/* a benchmark or the tool itself failed */
	PP_EXIT_USAGE	= 2,	/* unknown command or option, bad value */
	PP_EXIT_BADFILE	= 3,	/* unreadable or invalid result file */
	PP_EXIT_SKIP	= 4,	/* ran, but some benchmarks were skipped */
	PP_EXIT_REGRESSION = 5,	/* compare: a regression was found */
	PP_EXIT_NOT_COMPARABLE = 6,	/* compare: nothing can pass; --strict: a warning */
};

/*
 * A usage error: "perfprobe: <message> (see 'perfprobe help')" on stderr;
 * returns PP_EXIT_USAGE.
 */
int pp_usage_err(const char *fmt, ...) __printf(1, 2);

/*
 * pp_print_end() (print.h) for a command: PP_EXIT_OK, or PP_EXIT_FAIL
 * after one line.
 */
int pp_print_done(void);

#endif /* PP_EXITCODE_H */
