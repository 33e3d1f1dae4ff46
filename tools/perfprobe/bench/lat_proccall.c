// SPDX-License-Identifier: GPL-2.0
/*
 * lat_proccall: a procedure call, as lmbench's "lat_proc procedure".
 *
 * lmbench calls use_int(r) in a loop: a function compiled apart, whose
 * body adds its argument to a volatile 64-bit counter.  Here the callee
 * is marked noinline and noclone so the compiler keeps the call; the
 * time is call + that body + return, with the loop around it included as
 * in lmbench.  The key keeps lmbench's name, lat_proc-proccall, which is
 * what users know (lat_proc is the fork/exec benchmark here).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static volatile uint64_t proc_sink;

static __noinline __noclone void use_int(int v)
{
	proc_sink += (uint64_t)v;
}

static __noinline int do_call(uint64_t n, void *arg)
{
	int r = *(int *)arg;

	while (n-- > 0)
		use_int(r);
	return 0;
}

static int lat_proccall_run(struct pp_ctx *ctx)
{
	struct pp_timing_opts to = { .no_overhead = true };
	struct pp_sampling *s = malloc(sizeof(*s));
	int arg = 1, ret;

	if (!s)
		return pp_fail(ctx, "lat_proccall: out of memory");
	ret = pp_sample(ctx, do_call, &arg, &to, s);
	if (ret)
		ret = pp_fail(ctx, "lat_proc-proccall: %s", strerror(-ret));
	else
		ret = pp_report_sampling(ctx, "lat_proc-proccall", s);
	free(s);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_proc-proccall", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a call of a function that is not inlined" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_proccall = {
	.name = "lat_proccall",
	.group = "ops",
	.summary = "procedure call, lmbench's \"lat_proc procedure\" (us)",
	.keys = keys,
	.run = lat_proccall_run,
};
