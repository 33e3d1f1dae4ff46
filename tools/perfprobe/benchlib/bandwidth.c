// SPDX-License-Identifier: GPL-2.0
/*
 * Bandwidth results; see bandwidth.h.
 */
#include <stdlib.h>
#include <string.h>

#include "benchlib/bandwidth.h"

int pp_report_mbps(struct pp_ctx *ctx, const char *key, double bytes_per_op,
		   const struct pp_sampling *s)
{
	double v[PP_MAX_SAMPLES];
	struct pp_result *r;
	unsigned int i;

	if (pp_key_declared_in(ctx, key, "MB/s"))
		return -1;
	for (i = 0; i < s->n; i++) {
		if (!(s->ns_per_op[i] > 0))
			return pp_fail(ctx, "%s: a sample took no time", key);
		v[i] = bytes_per_op / PP_MB / (s->ns_per_op[i] * 1e-9);
	}
	if (pp_report(ctx, key, v, s->n, s->iters))
		return -1;
	r = pp_run_find_mut(ctx->run, key);
	if (r) {
		r->cpu_first = s->cpu_first;
		r->cpu_last = s->cpu_last;
	}
	return 0;
}

int pp_bandwidth_mb(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		    void *arg, double bytes, const struct pp_timing_opts *to)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	int ret;

	if (!s)
		return pp_fail(ctx, "%s: out of memory", key);
	ret = pp_sample(ctx, fn, arg, to, s);
	if (ret)
		ret = pp_sample_err(ctx, key, ret);
	else
		ret = pp_report_mbps(ctx, key, bytes, s);
	free(s);
	return ret;
}
