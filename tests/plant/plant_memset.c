// SPDX-License-Identifier: GPL-2.0
/*
 * plant_memset: a benchmark planted in a test build only
 * ($(O)/tests/perfprobe-planted, tests/integration/plant.t), to prove
 * that a benchmark is its file and its registry line (benches.h here):
 * list, run, summary, compare, report and completion find it with no
 * other edit.  It times memset() of a small buffer, shows the figure in a
 * summary table of its own and in the report's bandwidth bars, and
 * reports a derived figure and a fact beside it, which compare must
 * never let gate.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/bandwidth.h"

#define PLANT_BYTES	4096

static __noinline int do_memset(uint64_t n, void *arg)
{
	unsigned char *buf = arg;

	while (n-- > 0) {
		memset(buf, (int)(n & 0xff), PLANT_BYTES);
		__asm__ volatile("" : : "r"(buf) : "memory");
	}
	return 0;
}

static int plant_memset_run(struct pp_ctx *ctx)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	unsigned char *buf = malloc(PLANT_BYTES);
	double ns_per_kb[PP_MAX_SAMPLES], bytes = PLANT_BYTES;
	unsigned int i;
	int ret;

	if (!s || !buf) {
		ret = pp_fail(ctx, "plant_memset: out of memory");
		goto out;
	}
	ret = pp_sample(ctx, do_memset, buf, NULL, s);
	if (ret) {
		ret = pp_fail(ctx, "plant_memset-4kb: %s", strerror(-ret));
		goto out;
	}
	ret = pp_report_mbps(ctx, "plant_memset-4kb", PLANT_BYTES, s);
	for (i = 0; !ret && i < s->n; i++)
		ns_per_kb[i] = s->ns_per_op[i] / (PLANT_BYTES / 1024);
	if (!ret)
		ret = pp_report(ctx, "plant_memset-4kb-ns_per_kb", ns_per_kb, s->n, s->iters);
	if (!ret)
		ret = pp_report(ctx, "plant_memset-bytes", &bytes, 1, 0);
out:
	free(buf);
	free(s);
	return ret;
}

static const struct pp_key_table tables[] = {
	{ "plant", "Planted benchmark (a test build's) in MB/s - bigger is better", 0 },
	{ NULL, NULL, 0 }
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "plant_memset-%ukb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "memset() of an N KB buffer",
	  .show = PP_SHOW({ .key = "plant_memset-4kb", PP_COL("plant", 1, "memset", "  4K  ", 6, 0) },
			  { .key = "plant_memset-4kb", .chart = "bw-ipc" }) },
	{ .pattern = "plant_memset-%ukb-ns_per_kb", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "the same samples as ns per KB" },
	{ .pattern = "plant_memset-bytes", .unit = "bytes", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_FACT, .desc = "the buffer's size" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_plant_memset = {
	.name = "plant_memset",
	.group = "bw",
	.summary = "memset() of 4 KB, planted by the tests (MB/s)",
	.keys = keys,
	.tables = tables,
	.run = plant_memset_run,
	.by_name = true,
};
