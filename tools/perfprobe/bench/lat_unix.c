// SPDX-License-Identifier: GPL-2.0
/*
 * lat_unix: AF_UNIX stream socket round trip, as lmbench's lat_unix.
 *
 * A socketpair(AF_UNIX, SOCK_STREAM) between perfprobe and a helper;
 * perfprobe writes one byte (lmbench's default message size), the helper
 * reads it and writes it back, perfprobe reads it: one operation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define UNIX_MSG	1

static int do_unix(uint64_t n, void *arg)
{
	int fd = *(int *)arg;
	char buf[UNIX_MSG] = { 0 };
	ssize_t r;

	while (n-- > 0) {
		r = write(fd, buf, UNIX_MSG);
		if (r != UNIX_MSG)
			return pp_io_err(r);
		r = read(fd, buf, UNIX_MSG);
		if (r != UNIX_MSG)
			return pp_io_err(r);
	}
	return 0;
}

static __attribute__((noreturn)) void echo(int fd)
{
	char buf[UNIX_MSG];

	while (read(fd, buf, UNIX_MSG) == UNIX_MSG)
		if (write(fd, buf, UNIX_MSG) != UNIX_MSG)
			break;
	_exit(0);
}

static int lat_unix_run(struct pp_ctx *ctx)
{
	struct sigaction old;
	pid_t pid;
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return pp_fail(ctx, "socketpair(AF_UNIX): %s", strerror(errno));
	pid = pp_child_fork();
	if (pid < 0) {
		ret = pp_fail(ctx, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(sv[1]);
		echo(sv[0]);
	}
	close(sv[0]);
	sv[0] = -1;
	pp_sigpipe_ignore(&old);
	ret = pp_recv_timeout(sv[1]);
	if (!ret)
		ret = do_unix(1, &sv[1]);
	if (ret)
		ret = pp_fail(ctx, "first round trip: %s", strerror(-ret));
	else
		ret = pp_latency_placed(ctx, "lat_unix", do_unix, &sv[1], &pid, 1);
	pp_sigpipe_restore(&old);
	pp_child_stop(pid);
out:
	if (sv[0] >= 0)
		close(sv[0]);
	close(sv[1]);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_unix", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "round trip of a token over an AF_UNIX socket pair",
	  .show = PP_SHOW({ PP_COL("ipc", 3, "AF  ", "UNIX", 4, 2), .lm_col = 3 },
		  { .lm_line = "AF_UNIX sock stream latency:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_unix = {
	.name = "lat_unix",
	.group = "ipc",
	.summary = "AF_UNIX stream socket round trip between two processes, 1 byte (us)",
	.keys = keys,
	.run = lat_unix_run,
};
