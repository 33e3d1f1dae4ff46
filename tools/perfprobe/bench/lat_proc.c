// SPDX-License-Identifier: GPL-2.0
/*
 * lat_proc: process creation, as lmbench's lat_proc.
 *
 *   fork   fork(); the child exits at once; the parent waits
 *   exec   fork(); the child execve()s a tiny static program
 *   shell  fork(); the child runs "/bin/sh -c <that program>"
 *
 * The children close stdout first, as lmbench's do.  A child that cannot
 * exec fails the measurement instead of being timed as a fast exit.
 *
 * The loops run in perfprobe-lean, a small static process (lean.c): a
 * fork copies the forking process's mappings, and perfprobe's own 100+
 * (18 shared libraries) would be measured instead of the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lean.h"

/* The lean helper the loops run in (tools/perfprobe/lean.c). */
struct lean {
	pid_t pid;
	int to, from;		/* its stdin, its stdout */
	uint32_t op;		/* the loop asked for by lean_loop() */
	struct sigaction old_pipe;
};

static int lean_start(struct lean *l, const char *path, const char *prog)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int in[2], out[2], ret;

	/* a helper that died is -EPIPE from a write, not SIGPIPE */
	sigaction(SIGPIPE, &ign, &l->old_pipe);
	if (pipe2(in, O_CLOEXEC))
		goto fail;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	l->pid = fork();
	if (l->pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
			_exit(127);
		execl(path, "perfprobe-lean", prog, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	l->to = in[1];
	l->from = out[0];
	if (l->pid < 0) {
		close(l->to);
		close(l->from);
		goto fail;
	}
	return 0;

fail:
	ret = -errno;
	sigaction(SIGPIPE, &l->old_pipe, NULL);
	return ret;
}

static void lean_stop(struct lean *l)
{
	int status;

	close(l->to);		/* EOF: it exits */
	close(l->from);
	while (waitpid(l->pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &l->old_pipe, NULL);
}

static int64_t lean_ask(struct lean *l, uint32_t op, uint64_t n)
{
	struct pp_lean_req req = { .op = op, .n = n };
	struct pp_lean_ans ans;

	if (pp_write_full(l->to, &req, sizeof(req)) ||
	    pp_read_full(l->from, &ans, sizeof(ans)))
		return -EPIPE;	/* the helper died: it could not exec */
	return ans.result;
}

/* n times fork + the child's part + wait, in the helper. */
static int lean_loop(uint64_t n, void *arg)
{
	struct lean *l = arg;
	int64_t r = lean_ask(l, l->op, n);

	return r < 0 ? (int)r : 0;
}

static int count_own_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int lat_proc_run(struct pp_ctx *ctx)
{
	char hello[4096], lean_path[4096];
	struct lean l;
	int64_t maps;
	int ret;

	if (pp_helper_path(ctx, "perfprobe-lean", lean_path, sizeof(lean_path)))
		return pp_skip(ctx, NULL, "perfprobe-lean not found beside perfprobe (run make)");
	if (pp_helper_path(ctx, "perfprobe-hello", hello, sizeof(hello)))
		return pp_skip(ctx, NULL, "perfprobe-hello not found beside perfprobe (run make)");
	ret = lean_start(&l, lean_path, hello);
	if (ret)
		return pp_fail(ctx, "starting perfprobe-lean: %s", strerror(-ret));
	maps = lean_ask(&l, PP_LEAN_MAPS, 0);
	if (maps < 0) {
		lean_stop(&l);
		return pp_fail(ctx, "perfprobe-lean (%s) does not answer", lean_path);
	}
	pp_info(ctx, "lat_proc-process", "perfprobe-lean, static, %lld mappings (perfprobe itself: %d)",
		(long long)maps, count_own_maps());
	l.op = PP_LEAN_FORK;
	ret = pp_latency(ctx, "lat_proc-fork", lean_loop, &l);
	l.op = PP_LEAN_EXEC;
	ret |= pp_latency(ctx, "lat_proc-exec", lean_loop, &l);
	if (access("/bin/sh", X_OK)) {
		ret |= pp_skip(ctx, "lat_proc-shell", "/bin/sh: %s", strerror(errno));
	} else {
		l.op = PP_LEAN_SHELL;
		ret |= pp_latency(ctx, "lat_proc-shell", lean_loop, &l);
	}
	lean_stop(&l);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_proc-fork", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and the child's exit, waited for",
	  .show = PP_SHOW({ PP_COL("proc", 9, "fork", "proc", 4, 2), .lm_col = 9 },
		  { .lm_line = "Process fork+exit:" }) },
	{ .pattern = "lat_proc-exec", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and execve() of a tiny program",
	  .show = PP_SHOW({ PP_COL("proc", 10, "exec", "proc", 4, 2), .lm_col = 10 },
		  { .lm_line = "Process fork+execve:" }) },
	{ .pattern = "lat_proc-shell", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "/bin/sh -c running a tiny program",
	  .show = PP_SHOW({ PP_COL("proc", 11, "sh  ", "proc", 4, 2), .lm_col = 11 },
		  { .lm_line = "Process fork+/bin/sh -c:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_proc = {
	.name = "lat_proc",
	.group = "proc",
	.summary = "fork+exit, fork+execve, fork+/bin/sh -c (us)",
	.keys = keys,
	.run = lat_proc_run,
};
