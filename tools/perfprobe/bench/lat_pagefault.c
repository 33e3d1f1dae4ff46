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
 * fault-around maps up to 16 neighbouring cached pages per fault, a large
 * folio whole, so not every touch traps; lmbench divides by the pages all
 * the same, and so do we.  Beside it: the faults a pass takes per page
 * (counted with getrusage() over passes of their own) and the figure per
 * fault, so kernels that map different amounts per fault read correctly.
 * PERFPROBE_PAGEFAULT_FILE measures a file given instead of perfprobe's
 * own (one lmbench is given too).  See Documentation/bench/lat_pagefault.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_minflt + ru.ru_majflt;
}

#define PF_COUNT_PASSES	5

/*
 * Faults a pass takes per page, PF_COUNT_PASSES samples: each a fresh
 * mapping touched all over, as the timed passes do, counted with
 * getrusage() around the touches alone.
 */
static int pf_count(struct pf_state *s, double *per_page)
{
	const volatile char *base;
	unsigned int sum = 0, k;
	long before, after;
	size_t i;
	int ret;

	for (k = 0; k < PF_COUNT_PASSES; k++) {
		ret = pf_remap(s);
		if (ret)
			return ret;
		base = s->where;
		before = minor_faults();
		for (i = 0; i < s->npages; i++)
			sum += (unsigned char)base[s->pages[i]];
		after = minor_faults();
		if (before < 0 || after < before)
			return -EINVAL;
		per_page[k] = (double)(after - before) / (double)s->npages;
	}
	pf_sink += sum;
	return 0;
}

/*
 * The faults per page (a fact of the kernel and the file) and the cost per
 * fault, the figure's samples divided by the median faults per page.
 */
static int pf_report_faults(struct pp_ctx *ctx, struct pf_state *s,
			    const struct pp_sampling *both)
{
	double per_page[PF_COUNT_PASSES], per_fault[PP_MAX_SAMPLES], fpp;
	size_t i;
	int ret;

	ret = pf_count(s, per_page);
	if (ret)
		return pp_skip(ctx, "lat_pagefault-faults-per-page",
			       "cannot count the faults: %s", strerror(-ret));
	ret = pp_report(ctx, "lat_pagefault-faults-per-page", per_page, PF_COUNT_PASSES,
			s->npages);
	fpp = pp_median(per_page, PF_COUNT_PASSES);
	if (ret || !(fpp > 0))
		return ret ? ret : pp_skip(ctx, "lat_pagefault-fault", "no fault counted");
	for (i = 0; i < both->n && i < PP_MAX_SAMPLES; i++)
		per_fault[i] = both->ns_per_op[i] * 1e-3 / fpp;	/* ns a page -> us a fault */
	return pp_report(ctx, "lat_pagefault-fault", per_fault, (unsigned int)i, both->iters);
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
	if (!ret)
		ret = pf_report_faults(ctx, s, both);
out:
	free(s->remap);
	s->remap = NULL;
	free(both);
	return ret;
}

/* PERFPROBE_PAGEFAULT_FILE, whole pages of it; or perfprobe's own file. */
static int pf_file(struct pp_ctx *ctx, struct pf_state *s, size_t psize, char *path,
		   size_t len)
{
	const char *given = getenv("PERFPROBE_PAGEFAULT_FILE");
	struct stat st;
	int ret;

	if (given && *given) {
		if (stat(given, &st) || !S_ISREG(st.st_mode) || st.st_size < (1 << 20))
			return pp_fail(ctx, "PERFPROBE_PAGEFAULT_FILE=%s: %s", given,
				       "not a regular file of 1 MB or more");
		s->size = (size_t)st.st_size / psize * psize;
		s->npages = s->size / psize;
		snprintf(path, len, "%s", given);
		pp_info(ctx, "lat_pagefault-file", "%s, %zu pages (PERFPROBE_PAGEFAULT_FILE)",
			given, s->npages);
		return 0;
	}
	s->size = ctx->opts.full ? 64u << 20 : 8u << 20;
	s->npages = s->size / psize;
	ret = pp_data_file(ctx, "lat_pagefault", s->size, path, len);
	if (ret)
		return pp_fail(ctx, "cannot write a %zu MB file: %s", s->size >> 20,
			       strerror(-ret));
	return 0;
}

static int lat_pagefault_run(struct pp_ctx *ctx)
{
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	struct pf_state s = { .fd = -1 };
	char path[PATH_MAX];
	int ret;

	ret = pf_file(ctx, &s, psize, path, sizeof(path));
	if (ret)
		return ret;
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
	{ .pattern = "lat_pagefault-faults-per-page", .unit = "faults", .dir = PP_LOWER_IS_BETTER,
	  .kind = PP_KIND_FACT,
	  .desc = "faults a pass takes per page: how much of the file one fault maps" },
	{ .pattern = "lat_pagefault-fault", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .kind = PP_KIND_DERIVED,
	  .desc = "lat_pagefault per fault taken: the figure / faults per page" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_pagefault = {
	.name = "lat_pagefault",
	.group = "fsvm",
	.summary = "fault in a page of a cached file mapping, random order (us)",
	.keys = keys,
	.run = lat_pagefault_run,
};
