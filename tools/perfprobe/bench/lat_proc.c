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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

struct proc_state {
	char prog[4096];
	void (*child)(const struct proc_state *s);	/* never returns */
};

static void child_exit(const struct proc_state *s)
{
	(void)s;
	_exit(0);
}

static void child_exec(const struct proc_state *s)
{
	char *const av[] = { (char *)s->prog, NULL };
	char *const env[] = { NULL };

	close(1);
	execve(s->prog, av, env);
	_exit(127);
}

static void child_shell(const struct proc_state *s)
{
	close(1);
	execl("/bin/sh", "sh", "-c", s->prog, (char *)NULL);
	_exit(127);
}

/* n times: fork, the child does its part, the parent waits for it. */
static int do_spawn(uint64_t n, void *arg)
{
	const struct proc_state *s = arg;
	int status;

	while (n-- > 0) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0)
			s->child(s);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return -ENOEXEC;
	}
	return 0;
}

static int lat_proc_run(struct pp_ctx *ctx)
{
	struct proc_state s;
	int ret;

	s.child = child_exit;
	ret = pp_latency(ctx, "lat_proc-fork", do_spawn, &s);
	if (pp_helper_path(ctx, "perfprobe-hello", s.prog, sizeof(s.prog))) {
		pp_skip(ctx, "lat_proc-exec", "perfprobe-hello not found beside perfprobe (run make)");
		pp_skip(ctx, "lat_proc-shell", "perfprobe-hello not found beside perfprobe (run make)");
		return ret ? ret : 1;
	}
	s.child = child_exec;
	ret |= pp_latency(ctx, "lat_proc-exec", do_spawn, &s);
	if (access("/bin/sh", X_OK))
		return pp_skip(ctx, "lat_proc-shell", "/bin/sh: %s", strerror(errno));
	s.child = child_shell;
	ret |= pp_latency(ctx, "lat_proc-shell", do_spawn, &s);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ "lat_proc-fork", "us", PP_LOWER_IS_BETTER, "fork() and the child's exit, waited for" },
	{ "lat_proc-exec", "us", PP_LOWER_IS_BETTER, "fork() and execve() of a tiny program" },
	{ "lat_proc-shell", "us", PP_LOWER_IS_BETTER, "/bin/sh -c running a tiny program" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_proc = {
	.name = "lat_proc",
	.group = "proc",
	.summary = "fork+exit, fork+execve, fork+/bin/sh -c (us)",
	.keys = keys,
	.run = lat_proc_run,
};
