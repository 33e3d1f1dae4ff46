// SPDX-License-Identifier: GPL-2.0
/*
 * lat_pipe: pipe round trip between two processes, as lmbench's lat_pipe.
 *
 * perfprobe writes one byte into a pipe, a helper process reads it and
 * writes it back through a second pipe, perfprobe reads it: one operation.
 * Both processes go where the scheduler puts them (or both on --cpu N);
 * where they ran is shown in the progress output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

struct pipe_state {
	int wr, rd;
};

static int do_pipe(uint64_t n, void *arg)
{
	struct pipe_state *s = arg;
	ssize_t r;
	char c = 0;

	while (n-- > 0) {
		r = write(s->wr, &c, 1);
		if (r != 1)
			return pp_io_err(r);
		r = read(s->rd, &c, 1);
		if (r != 1)
			return pp_io_err(r);
	}
	return 0;
}

static __attribute__((noreturn)) void echo(int rd, int wr)
{
	char c;

	while (read(rd, &c, 1) == 1)
		if (write(wr, &c, 1) != 1)
			break;
	_exit(0);
}

static int lat_pipe_run(struct pp_ctx *ctx)
{
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, ret;
	struct pipe_state s;
	struct sigaction old;
	pid_t pid = -1;

	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		ret = pp_fail(ctx, "pipe: %s", strerror(errno));
		goto out;
	}
	pid = pp_child_fork();
	if (pid < 0) {
		ret = pp_fail(ctx, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		echo(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	to[0] = from[1] = -1;
	s.wr = to[1];
	s.rd = from[0];
	pp_sigpipe_ignore(&old);
	ret = do_pipe(1, &s);	/* both processes are up, as lmbench */
	if (ret)
		ret = pp_fail(ctx, "first round trip: %s", strerror(-ret));
	else
		ret = pp_latency_placed(ctx, "lat_pipe", do_pipe, &s, &pid, 1);
	pp_sigpipe_restore(&old);
out:
	for (int i = 0; i < 2; i++) {
		if (to[i] >= 0)
			close(to[i]);
		if (from[i] >= 0)
			close(from[i]);
	}
	pp_child_stop(pid);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_pipe", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "round trip of a token over two pipes",
	  .show = PP_SHOW({ PP_COL("ipc", 2, " Pipe", "     ", 5, 2), .lm_col = 2 },
		  { .lm_line = "Pipe latency:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_pipe = {
	.name = "lat_pipe",
	.group = "ipc",
	.summary = "pipe round trip between two processes, 1 byte (us)",
	.keys = keys,
	.run = lat_pipe_run,
};
