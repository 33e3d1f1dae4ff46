// SPDX-License-Identifier: GPL-2.0
/*
 * lat_proc: process creation, as lmbench's lat_proc.
 *
 *   fork   fork(); the child exits at once; the parent waits
 *   exec   fork(); the child execve()s a tiny program
 *   shell  fork(); the child runs "/bin/sh -c <that program>"
 *
 * The children close stdout first, as lmbench's do.  A child that cannot
 * exec fails the measurement instead of being timed as a fast exit.
 *
 * A fork copies the forking process's mappings and page tables, so that
 * process is part of the figure.  The loops never run in perfprobe (100+
 * mappings, 18 shared libraries) but in a helper (lean.c), twice:
 *
 *   lat_proc-fork ...        perfprobe-proc, linked dynamically against
 *                            libc as lmbench's lat_proc is, exec'ing
 *                            perfprobe-hello-dyn, dynamic as lmbench's hello:
 *                            lmbench's figures, to read beside its tables
 *   lat_proc-fork-lean ...   perfprobe-lean, static, exec'ing the static
 *                            perfprobe-hello: the kernel's work with as
 *                            little of a process as there can be
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

/* Mappings of a process ("self" or a pid), and whether ld.so is one. */
static int count_maps(const char *pid, bool *dynamic)
{
	char path[64], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	*dynamic = false;
	while (fgets(line, sizeof(line), f)) {
		n += strchr(line, '\n') != NULL;
		*dynamic |= strstr(line, "/ld-linux") || strstr(line, "/ld-musl");
	}
	fclose(f);
	return n;
}

/* A process's resident set in kB (VmRSS), or -1. */
static long resident_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* One set of the three figures: the process they run in, the program exec'd. */
struct proc_set {
	const char *helper, *hello;
	const char *fork, *exec, *shell;	/* the keys */
	const char *info;			/* which process measured */
};

static const struct proc_set sets[] = {
	{ "perfprobe-proc", "perfprobe-hello-dyn",
	  "lat_proc-fork", "lat_proc-exec", "lat_proc-shell", "lat_proc-process" },
	{ "perfprobe-lean", "perfprobe-hello",
	  "lat_proc-fork-lean", "lat_proc-exec-lean", "lat_proc-shell-lean",
	  "lat_proc-lean-process" },
};

/* The three figures of a set cannot be measured here: each skipped, saying why. */
static int skip_set(struct pp_ctx *ctx, const struct proc_set *ps, const char *why)
{
	return pp_skip(ctx, ps->fork, "%s", why) | pp_skip(ctx, ps->exec, "%s", why) |
	       pp_skip(ctx, ps->shell, "%s", why);
}

/* Each figure of a set from its helper, or their skips saying why. */
static int proc_set_run(struct pp_ctx *ctx, const struct proc_set *ps)
{
	char hello[4096], path[4096], pid[16], why[4200];
	bool dyn, self_dyn;
	struct lean l;
	int64_t maps;
	int ret, own;

	if (pp_helper_path(ctx, ps->helper, path, sizeof(path)) ||
	    pp_helper_path(ctx, ps->hello, hello, sizeof(hello))) {
		snprintf(why, sizeof(why), "%s or %s not found beside perfprobe (run make)",
			 ps->helper, ps->hello);
		return skip_set(ctx, ps, why);
	}
	ret = lean_start(&l, path, hello);
	if (ret)
		return pp_fail(ctx, "starting %s: %s", ps->helper, strerror(-ret));
	maps = lean_ask(&l, PP_LEAN_MAPS, 0);
	if (maps < 0) {
		lean_stop(&l);
		/* a dynamic helper where its libc.so is missing */
		snprintf(why, sizeof(why), "%s does not start", path);
		return skip_set(ctx, ps, why);
	}
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	if (count_maps(pid, &dyn) < 0)
		dyn = false;
	own = count_maps("self", &self_dyn);
	/* hello is linked as the helper is (Makefile: both static with STATIC=1) */
	pp_info(ctx, ps->info, "%s, %s, %lld mappings, %ld kB resident (perfprobe itself: %d); execs %s (%s)",
		ps->helper, dyn ? "dynamically linked" : "static", (long long)maps,
		resident_kb(l.pid), own, ps->hello,
		dyn && !strcmp(ps->hello, "perfprobe-hello-dyn") ? "dynamic" : "static");
	l.op = PP_LEAN_FORK;
	ret = pp_latency(ctx, ps->fork, lean_loop, &l);
	l.op = PP_LEAN_EXEC;
	ret |= pp_latency(ctx, ps->exec, lean_loop, &l);
	if (access("/bin/sh", X_OK)) {
		ret |= pp_skip(ctx, ps->shell, "/bin/sh: %s", strerror(errno));
	} else {
		l.op = PP_LEAN_SHELL;
		ret |= pp_latency(ctx, ps->shell, lean_loop, &l);
	}
	lean_stop(&l);
	return ret;
}

static int lat_proc_run(struct pp_ctx *ctx)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(sets) && ret >= 0; i++)
		ret |= proc_set_run(ctx, &sets[i]);
	return ret < 0 ? -1 : ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_proc-fork", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and the child's exit, waited for, from lmbench's footprint",
	  .show = PP_SHOW({ PP_COL("proc", 9, "fork", "proc", 4, 2), .lm_col = 9 },
		  { .lm_line = "Process fork+exit:" }) },
	{ .pattern = "lat_proc-exec", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and execve() of a tiny dynamic program, from lmbench's footprint",
	  .show = PP_SHOW({ PP_COL("proc", 10, "exec", "proc", 4, 2), .lm_col = 10 },
		  { .lm_line = "Process fork+execve:" }) },
	{ .pattern = "lat_proc-shell", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "/bin/sh -c running that program, from lmbench's footprint",
	  .show = PP_SHOW({ PP_COL("proc", 11, "sh  ", "proc", 4, 2), .lm_col = 11 },
		  { .lm_line = "Process fork+/bin/sh -c:" }) },
	{ .pattern = "lat_proc-fork-lean", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and exit from a lean static process: the kernel's part" },
	{ .pattern = "lat_proc-exec-lean", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fork() and execve() of a tiny static program, from that process" },
	{ .pattern = "lat_proc-shell-lean", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "/bin/sh -c running the static program, from that process" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_proc = {
	.name = "lat_proc",
	.group = "proc",
	.summary = "fork+exit, fork+execve, fork+/bin/sh -c (us)",
	.keys = keys,
	.run = lat_proc_run,
};
