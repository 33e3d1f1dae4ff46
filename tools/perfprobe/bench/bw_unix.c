// SPDX-License-Identifier: GPL-2.0
/*
 * bw_unix: bandwidth through an AF_UNIX stream socket between two
 * processes, as lmbench's bw_unix.
 *
 * A socketpair(AF_UNIX, SOCK_STREAM); a helper process writes 64 KB chunks
 * (lmbench's XFERSIZE) and perfprobe reads them with 64 KB reads into a
 * page-aligned buffer (lmbench's reader uses a valloc()ed buffer here).
 * One operation moves 10 MB, asked for through a control pipe, as
 * lmbench's reader does.  MB/s with lmbench's MB of 10^6 bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define UNIX_XFER	(64 * 1024)
#define UNIX_TOTAL	(10 * 1024 * 1024)

static int bw_unix_run(struct pp_ctx *ctx)
{
	struct pp_stream_bw b = {
		.key = "bw_unix",
		.xfer = UNIX_XFER,
		.total = UNIX_TOTAL,
		.misalign = 0,
	};
	struct sigaction old;
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return pp_fail(ctx, "socketpair(AF_UNIX): %s", strerror(errno));
	b.rfd = sv[0];
	b.wfd = sv[1];
	pp_sigpipe_ignore(&old);
	ret = pp_stream_bw(ctx, &b);
	pp_sigpipe_restore(&old);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_unix", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "data moved through an AF_UNIX socket pair",
	  .show = PP_SHOW({ PP_COL("bw", 2, "AF  ", "UNIX", 4, 0), .lm_col = 2 },
		  { .lm_line = "AF_UNIX sock stream bandwidth:" }, { .chart = "bw-ipc" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_unix = {
	.name = "bw_unix",
	.group = "bw",
	.summary = "AF_UNIX stream socket bandwidth between two processes, 64 KB writes (MB/s)",
	.keys = keys,
	.run = bw_unix_run,
};
