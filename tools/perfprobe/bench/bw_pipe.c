// SPDX-License-Identifier: GPL-2.0
/*
 * bw_pipe: bandwidth through a pipe between two processes, as lmbench's
 * bw_pipe.
 *
 * A helper process writes 64 KB chunks (lmbench's XFERSIZE) into a pipe;
 * perfprobe reads them with 64 KB reads into a buffer that is not page
 * aligned (128 bytes past a page boundary, as lmbench's reader).  One
 * operation moves 10 MB (lmbench's default total); perfprobe asks for each
 * 10 MB through a control pipe, as lmbench's reader does.  MB/s with
 * lmbench's MB of 10^6 bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define PIPE_XFER	(64 * 1024)
#define PIPE_TOTAL	(10 * 1024 * 1024)
#define PIPE_MISALIGN	128

static int bw_pipe_run(struct pp_ctx *ctx)
{
	struct pp_stream_bw b = {
		.key = "bw_pipe",
		.xfer = PIPE_XFER,
		.total = PIPE_TOTAL,
		.misalign = PIPE_MISALIGN,
	};
	struct sigaction old;
	int fds[2], ret;

	if (pipe2(fds, O_CLOEXEC))
		return pp_fail(ctx, "pipe: %s", strerror(errno));
	b.rfd = fds[0];
	b.wfd = fds[1];
	pp_sigpipe_ignore(&old);
	ret = pp_stream_bw(ctx, &b);
	pp_sigpipe_restore(&old);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_pipe", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "data moved through a pipe",
	  .show = PP_SHOW({ PP_COL("bw", 1, "Pipe", "    ", 4, 0), .lm_col = 1 },
		  { .lm_line = "Pipe bandwidth:" }, { .chart = "bw-ipc" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_pipe = {
	.name = "bw_pipe",
	.group = "bw",
	.summary = "pipe bandwidth between two processes, 64 KB writes (MB/s)",
	.keys = keys,
	.run = bw_pipe_run,
};
