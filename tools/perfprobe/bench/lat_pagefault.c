// SPDX-License-Identifier: GPL-2.0
/*
 * lat_pagefault: the cost of faulting in a page of a file mapping, as
 * lmbench's lat_pagefault.
 *
 * An 8 MB file (--full: 64 MB), in the page cache, is mapped read-only
 * and shared.  One pass reads one word of every page in a random order,
 * then unmaps and maps the file again and calls msync(MS_INVALIDATE), so
 * the next pass faults again.  A second loop times the unmap + map +
 * msync alone; its median is taken off every pass, and what is left is
 * divided by the number of pages:
 *
 *   lat_pagefault = (t(touch all + remap) - t(remap)) / pages   [us]
 *
 * The faults are minor faults (the pages stay cached), and the kernel's
 * fault-around maps up to 16 neighbouring cached pages per fault, so not
 * every touch traps; lmbench divides by the pages all the same, and so
 * do we.  See Documentation/bench/lat_pagefault.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/datafile.h"

struct pf_state {
	int fd;
	size_t size;
	size_t npages;
	size_t *pages;			/* byte offsets, in touch order */
	char *where;
	struct pp_sampling *remap;	/* the overhead: remaps alone */
};

static volatile unsigned int pf_sink;

static int pf_remap(struct pf_state *s)
{
	void *p;

	if (s->where && munmap(s->where, s->size))
		return -errno;
	s->where = NULL;
	p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	s->where = p;
	if (msync(p, s->size, MS_INVALIDATE))
		return -errno;
	return 0;
}

static int do_remap(uint64_t n, void *arg)
{
	struct pf_state *s = arg;
	int ret;

	while (n-- > 0) {
		ret = pf_remap(s);
		if (ret)
			return ret;
	}
	return 0;
}

static int do_touch(uint64_t n, void *arg)
{
	struct pf_state *s = arg;
	unsigned int sum = 0;
	size_t i;
	int ret;

	while (n-- > 0) {
		const volatile char *base = s->where;

		for (i = 0; i < s->npages; i++)
			sum += (unsigned char)base[s->pages[i]];
		ret = pf_remap(s);
		if (ret)
			return ret;
	}
	pf_sink += sum;
	return 0;
}

/* A random order of the pages (Fisher-Yates, xorshift64). */
static void shuffle(size_t *v, size_t n, size_t scale)
{
	uint64_t r = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	size_t i, j, t;

	for (i = 0; i < n; i++)
		v[i] = i * scale;
	for (i = n - 1; i > 0; i--) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		j = (size_t)(r % (i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static int pf_sample(struct pp_ctx *ctx, struct pf_state *s, pp_loop_fn fn,
		     struct pp_sampling *out)
{
	int ret = pf_remap(s);

	if (!ret)
		ret = pp_sample(ctx, fn, s, NULL, out);
	return ret;
}

/* Remap and touch every page, less the remap measured beside it. */
static int measure_faults(struct pp_ctx *ctx, void *arg, unsigned int attempt,
			  struct pp_sampling *s, double *overhead_ns)
{
	struct pf_state *st = arg;
	int ret;

	(void)attempt;
	ret = pf_sample(ctx, st, do_remap, st->remap);
	if (ret)
		return ret;	/* no remap samples to take a median of */
	*overhead_ns = pp_median(st->remap->ns_per_op, st->remap->n);
	return pf_sample(ctx, st, do_touch, s);
}

/* 0, or pp_skip()'s or pp_fail()'s value. */
static int pf_measure(struct pp_ctx *ctx, struct pf_state *s)
{
	struct pp_sampling *both;
	int ret;

	s->remap = malloc(sizeof(*s->remap));
	both = malloc(sizeof(*both));
	if (!s->remap || !both) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	/* Samples become the time of one page's fault. */
	ret = pp_sample_net(ctx, "lat_pagefault", measure_faults, s, (double)s->npages, both);
	if (ret)
		goto out;
	both->iters *= s->npages;
	ret = pp_report_sampling(ctx, "lat_pagefault", both);
out:
	free(s->remap);
	s->remap = NULL;
	free(both);
	return ret;
}

static int lat_pagefault_run(struct pp_ctx *ctx)
{
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	struct pf_state s = { .fd = -1 };
	char path[PATH_MAX];
	int ret;

	s.size = ctx->opts.full ? 64u << 20 : 8u << 20;
	s.npages = s.size / psize;
	ret = pp_data_file(ctx, "lat_pagefault", s.size, path, sizeof(path));
	if (ret)
		return pp_fail(ctx, "cannot write a %zu MB file: %s", s.size >> 20,
			       strerror(-ret));
	s.pages = malloc(s.npages * sizeof(*s.pages));
	if (!s.pages)
		return pp_fail(ctx, "out of memory");
	shuffle(s.pages, s.npages, psize);
	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0) {
		ret = pp_fail(ctx, "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = pf_measure(ctx, &s);
	if (s.where)
		munmap(s.where, s.size);
	close(s.fd);
out:
	free(s.pages);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_pagefault", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a page fault on a file mapping, per page",
	  .show = PP_SHOW({ PP_COL("fsvm", 7, " Page", "Fault", 5, 2), .lm_col = 7 },
		  { .lm_line = "Pagefaults on " }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_pagefault = {
	.name = "lat_pagefault",
	.group = "fsvm",
	.summary = "fault in a page of a cached file mapping, random order (us)",
	.keys = keys,
	.run = lat_pagefault_run,
};
