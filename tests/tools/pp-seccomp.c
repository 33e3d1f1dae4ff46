// SPDX-License-Identifier: GPL-2.0
/*
 * pp-seccomp: run a command under a seccomp filter that allows every
 * system call, and costs more for the ones named: a known, real kernel
 * slowdown to check a comparison's verdicts against (compare.rst, "The CI
 * recipe").
 *
 *   pp-seccomp [--cost NAME=N]... [--stack K] [--] COMMAND [ARG]...
 *
 *   --cost NAME=N  the system call NAME (getppid, read, write, fstat,
 *                  newfstatat, openat, close, pipe2, ...) runs N more
 *                  filter instructions (1..3800) before it is allowed
 *   --stack K      K copies of the filter (1..8; default 1): each is run
 *                  on every system call
 *
 * Both sides of a comparison run under pp-seccomp, so both take the
 * kernel's seccomp entry path; only the named calls differ.  The filter
 * is classic BPF (no privilege needed beyond no_new_privs), translated
 * and JIT-compiled by the kernel where the JIT is enabled.
 *
 * Exit: the command's status; 2 on a usage error, 1 when the filter
 * cannot be installed or the command cannot be run (one line says why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_COST	3800	/* BPF_MAXINSNS is 4096: room for the rest */
#define MAX_CALLS	8
#define MAX_STACK	8

struct call {
	const char *name;
	int nr;
};

/* The calls lmbench's benchmarks make; add one where a benchmark needs it. */
static const struct call calls[] = {
	{ "getppid", SYS_getppid },
	{ "read", SYS_read },
	{ "write", SYS_write },
	{ "fstat", SYS_fstat },
	{ "newfstatat", SYS_newfstatat },
	{ "openat", SYS_openat },
	{ "close", SYS_close },
	{ "pipe2", SYS_pipe2 },
	{ "getpid", SYS_getpid },
#ifdef SYS_select
	{ "select", SYS_select },
#endif
	{ "pselect6", SYS_pselect6 },
	{ "kill", SYS_kill },
	{ "rt_sigaction", SYS_rt_sigaction },
};

struct cost {
	int nr;
	unsigned int n;
};

static int usage(const char *why)
{
	fprintf(stderr, "pp-seccomp: %s\n"
		"usage: pp-seccomp [--cost NAME=N]... [--stack K] [--] COMMAND [ARG]...\n", why);
	return 2;
}

static int call_nr(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strlen(calls[i].name) == len && !strncmp(calls[i].name, name, len))
			return calls[i].nr;
	return -1;
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi, unsigned int *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n < lo || n > hi)
		return -1;
	*v = n;
	return 0;
}

/*
 * ld nr; per costed call: jeq nr ? next : skip, ja its block; ret allow;
 * then each block: N additions to A, ret allow.  Blocks are reached by
 * BPF_JA, whose offset is 32 bits (jt/jf are 8).
 */
static int build(const struct cost *c, unsigned int nc, struct sock_filter *f, unsigned int max)
{
	unsigned int i, k, n = 0, block;

	block = 1 + 2 * nc + 1;
	for (i = 0; i < nc; i++)
		block += c[i].n + 1;
	if (block > max)
		return -1;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	block = 1 + 2 * nc + 1;
	for (i = 0; i < nc; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, c[i].nr, 0, 1);
		/* from the instruction after this one to the block */
		f[n] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, block - n - 1);
		n++;
		block += c[i].n + 1;
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (i = 0; i < nc; i++) {
		for (k = 0; k < c[i].n; k++)
			f[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	return n;
}

int main(int argc, char **argv)
{
	static struct sock_filter f[BPF_MAXINSNS];
	struct cost c[MAX_CALLS];
	struct sock_fprog prog;
	unsigned int nc = 0, stack = 1, i;
	const char *eq;
	int a, n;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--")) {
			a++;
			break;
		} else if (!strcmp(argv[a], "--cost") && a + 1 < argc) {
			a++;
			eq = strchr(argv[a], '=');
			if (!eq)
				return usage("--cost: expected NAME=N");
			if (nc == MAX_CALLS)
				return usage("--cost: at most 8 calls");
			c[nc].nr = call_nr(argv[a], eq - argv[a]);
			if (c[nc].nr < 0)
				return usage("--cost: not a system call pp-seccomp knows");
			if (parse_uint(eq + 1, 1, MAX_COST, &c[nc].n))
				return usage("--cost: N must be 1..3800");
			nc++;
		} else if (!strcmp(argv[a], "--stack") && a + 1 < argc) {
			if (parse_uint(argv[++a], 1, MAX_STACK, &stack))
				return usage("--stack: K must be 1..8");
		} else if (argv[a][0] == '-') {
			return usage("unknown option");
		} else {
			break;
		}
	}
	if (a >= argc)
		return usage("no command");
	n = build(c, nc, f, BPF_MAXINSNS);
	if (n < 0)
		return usage("--cost: the costs add up to more than a filter holds");
	prog.len = n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "pp-seccomp: prctl(PR_SET_NO_NEW_PRIVS): %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < stack; i++) {
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
			fprintf(stderr, "pp-seccomp: seccomp(SECCOMP_SET_MODE_FILTER): %s\n",
				strerror(errno));
			return 1;
		}
	}
	execvp(argv[a], argv + a);
	fprintf(stderr, "pp-seccomp: %s: %s\n", argv[a], strerror(errno));
	return 1;
}
