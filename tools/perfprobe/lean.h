/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe-lean: the small static process that process-creation loops
 * run in (tools/perfprobe/lean.c, Documentation/bench/lat_proc.rst).
 *
 * perfprobe starts it with two pipes as its stdin and stdout and the
 * program to exec as argv[1]; then, per request, it runs the loop asked
 * for and answers with the result.  EOF on stdin ends it.
 */
#ifndef PP_LEAN_H
#define PP_LEAN_H

#include <stdint.h>

enum pp_lean_op {
	PP_LEAN_FORK = 1,	/* fork(); the child exits at once */
	PP_LEAN_EXEC,		/* fork(); the child execve()s argv[1] */
	PP_LEAN_SHELL,		/* fork(); the child runs /bin/sh -c argv[1] */
	PP_LEAN_MAPS,		/* no loop: answers its own number of mappings */
};

struct pp_lean_req {
	uint32_t op;		/* enum pp_lean_op */
	uint32_t pad;
	uint64_t n;		/* iterations */
};

/* 0 (or, for PP_LEAN_MAPS, the count) or a negative errno. */
struct pp_lean_ans {
	int64_t result;
};

#endif /* PP_LEAN_H */
