/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every command that makes a run (run, syscall, copy) does around
 * its measurements, in one place so that their runs are alike: the
 * metadata, pinning, loop overhead and mode before; noise marking, the
 * output, -o FILE, saving under the results directory and the exit code
 * after.
 */
#ifndef PP_RUNCMD_H
#define PP_RUNCMD_H

#include "cli.h"

/*
 * Set ctx up for a run into *run from the command line: options, the
 * binary's directory, pinning (--cpu), signal handlers for temporary
 * files, and the run's metadata.  Returns 0, or PP_EXIT_FAIL after one
 * line on stderr with run freed.
 */
int pp_cmd_run_start(struct pp_cli *cli, struct pp_ctx *ctx,
		     struct pp_run *run);

/* The text output of a run, through the print layer (print.h). */
typedef void (*pp_run_text_fn)(const struct pp_run *run, void *arg);

/*
 * Print the run (--json: the results document; else text(run, arg)),
 * write it to -o FILE, save it under the results directory as
 * <time>-<tag>.json, and free it.  Returns the exit code: PP_EXIT_FAIL
 * if anything failed (a result, the output, a save that was asked for),
 * PP_EXIT_SKIP if something was skipped, else PP_EXIT_OK.
 */
int pp_cmd_run_finish(const struct pp_cli *cli, struct pp_ctx *ctx, const char *tag,
		      pp_run_text_fn text, void *arg);

#endif /* PP_RUNCMD_H */
