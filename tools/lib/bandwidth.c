// SPDX-License-Identifier: GPL-2.0
/*
 * Bandwidth results; see bandwidth.h.
 */
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"

int pp_bandwidth_mb(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		    void *arg, double bytes, const struct pp_timing_opts *to)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	double *v = NULL;
	unsigned int i;
	int ret;

	if (!s)
		return pp_fail(ctx, "%s: out of memory", key);
	ret = pp_sample(ctx, fn, arg, to, s);
	if (ret) {
		ret = pp_fail(ctx, "%s: %s", key, strerror(-ret));
		goto out;
	}
	v = malloc(s->n * sizeof(*v));
	if (!v) {
		ret = pp_fail(ctx, "%s: out of memory", key);
		goto out;
	}
	/* bytes / (ns * 1e-9) / 1e6; a pass never takes less than 1 ns */
	for (i = 0; i < s->n; i++)
		v[i] = bytes / PP_MB * 1e9 / (s->ns_per_op[i] > 1 ? s->ns_per_op[i] : 1);
	ret = pp_report(ctx, key, "MB/s", PP_HIGHER_IS_BETTER, v, s->n, s->iters);
	if (!ret) {
		struct pp_result *r = pp_run_find_mut(ctx->run, key);

		if (r) {
			r->cpu_first = s->cpu_first;
			r->cpu_last = s->cpu_last;
		}
	}
out:
	free(v);
	free(s);
	return ret;
}
