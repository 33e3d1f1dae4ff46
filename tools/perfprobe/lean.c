// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe-lean and perfprobe-proc: the processes lat_proc's loops run in.
 *
 * fork() copies the page tables and mappings of the process that forks,
 * so the forking process is part of the figure.  perfprobe links 18
 * shared libraries (OpenSSL, krb5 through libtirpc, libkcapi, libbpf...)
 * and has about 110 mappings; forking from it would measure its link map.
 * This file is built twice (Makefile):
 *
 *   perfprobe-proc   linked dynamically against libc only, as lmbench's
 *                    lat_proc is (about two dozen mappings), and its fork
 *                    children leave with exit() as lmbench's do: the
 *                    process lmbench's figures are of (lat_proc-fork ...)
 *   perfprobe-lean   static, children leave with _exit(): little more
 *                    than the kernel's own work (lat_proc-fork-lean ...)
 *
 * The protocol is lean.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lean.h"

static const char *prog;

static void child(uint32_t op)
{
	char *const av[] = { (char *)prog, NULL };
	char *const env[] = { NULL };

	if (op == PP_LEAN_FORK) {
#ifdef PP_LEAN_PROC
		exit(0);	/* as lmbench's: libc's exit handlers, ld.so's fini */
#else
		_exit(0);
#endif
	}
	/* as lmbench's children: no output */
	close(1);
	if (op == PP_LEAN_EXEC)
		execve(prog, av, env);
	else
		execl("/bin/sh", "sh", "-c", prog, (char *)NULL);
	_exit(127);
}

/* n times: fork, the child does its part, wait for it. */
static int64_t spawn_loop(uint32_t op, uint64_t n)
{
	int status;

	while (n-- > 0) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0)
			child(op);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return -ENOEXEC;
	}
	return 0;
}

static int64_t count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int64_t n = 0;
	int c;

	if (!f)
		return -errno;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int full_read(int fd, void *buf, size_t size)
{
	char *p = buf;

	while (size) {
		ssize_t r = read(fd, p, size);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		size -= (size_t)r;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pp_lean_req req;
	struct pp_lean_ans ans;

	if (argc != 2) {
		fprintf(stderr, "usage: perfprobe-lean PROGRAM (started by perfprobe)\n");
		return 2;
	}
	prog = argv[1];
	while (!full_read(0, &req, sizeof(req))) {
		switch (req.op) {
		case PP_LEAN_FORK:
		case PP_LEAN_EXEC:
		case PP_LEAN_SHELL:
			ans.result = spawn_loop(req.op, req.n);
			break;
		case PP_LEAN_MAPS:
			ans.result = count_maps();
			break;
		default:
			ans.result = -EINVAL;
		}
		if (write(1, &ans, sizeof(ans)) != (ssize_t)sizeof(ans))
			return 1;
	}
	return 0;
}
