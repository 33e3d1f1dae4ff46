// SPDX-License-Identifier: GPL-2.0
/*
 * lat_mem_rd: memory read latency, as lmbench's lat_mem_rd.
 *
 * A chain of pointers is laid out in an array, one pointer every
 * "stride" bytes, and walked with dependent loads (p = *p): the time of
 * one load is the latency of the level of the memory hierarchy the
 * array fits in.  As lmbench's default chain (stride_initialize) the
 * chain runs forward through the array, each pointer pointing "stride"
 * bytes further and the last one back to the start.  The sizes are a
 * subset of lmbench's grid (its step()): the powers of two and, on the
 * stride-128 curve, the sizes half-way between them (3K, 6K, 12K, ...).
 *
 * The "random" curve is lmbench's -t (thrash_initialize): the pages of
 * the array in a random order and each load on another page than the
 * load before, lines within a page in bit-reversed order.  Hardware
 * prefetchers cannot follow it and a large array misses in the TLB on
 * every load.
 *
 * The stride-128 curve is cut into plateaus (see find_plateaus()): they
 * give lat_mem_rd-l1, -l2, -l3 and the sizes of the caches; the largest
 * size gives lat_mem_rd-main.  Documentation/bench/lat_mem_rd.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/pagebuf.h"
#include "print.h"
#include "benchlib/caches.h"

#define LOADS_PER_ITER	100
#define LOWER		512		/* lmbench's smallest size */
#define MAX_POINTS	64
#define MAX_LEVELS	8
#define SUMMARY_STRIDE	128		/* lmbench's getsummary reads stride=128 */
#define MIN_TOP		(8ul << 20)	/* getsummary's main memory figure */
#define MB		(1ul << 20)

/* Plateau detection, see find_plateaus(). */
#define PLATEAU_RISE	1.30		/* above the plateau's floor: left it */
#define TRANSITION_RISE	1.12		/* still climbing: not a plateau yet */

/* The invariant below_l1(): tolerance floor and attempts. */
#define MEMRD_FLOOR_PCT	10.0
#define MEMRD_ATTEMPTS	3

struct chase {
	void **p;
};

#define LOAD	p = (void **)*p;
#define LOAD10	LOAD LOAD LOAD LOAD LOAD LOAD LOAD LOAD LOAD LOAD
#define LOAD100	LOAD10 LOAD10 LOAD10 LOAD10 LOAD10 LOAD10 LOAD10 LOAD10 LOAD10 LOAD10

/* One iteration is LOADS_PER_ITER dependent loads; the walk goes on. */
static __noinline int do_loads(uint64_t n, void *arg)
{
	struct chase *c = arg;
	void **p = c->p;

	while (n-- > 0) {
		LOAD100
	}
	c->p = p;
	return 0;
}

struct point {
	size_t size;
	double *ns;			/* one value per sample */
	double min;			/* lmbench reports the minimum */
};

struct curve {
	size_t stride;
	bool random;
	unsigned int n;
	struct point pt[MAX_POINTS];	/* pt[0], in L1, is below_l1()'s reference */
	struct point trial;		/* a reference measured again: measure_ref() */
};

struct plateaus {
	unsigned int n;
	unsigned int first[MAX_LEVELS], last[MAX_LEVELS];
};

struct mem {
	char *buf;
	size_t len, top, page;
	unsigned int nsamples;
	struct pp_sampling *s;
	struct pp_caches sys;
	uint64_t seed;
};

/*
 * The largest size: four times the last-level cache, at least lmbench's
 * 8 MB, at most 64 MB (--quick), 256 MB (default) or 1 GB (--full) and a
 * quarter of the available memory; a power of two.
 */
static size_t top_size(const struct pp_ctx *ctx, const struct pp_caches *c)
{
	size_t cap = ctx->opts.quick ? 64 * MB : ctx->opts.full ? 1024 * MB : 256 * MB;
	size_t llc = c->levels ? c->size[c->levels] : 0;
	size_t want = llc ? 4 * llc : cap, avail = pp_mem_available() / 4, top;

	if (want < MIN_TOP)
		want = MIN_TOP;
	if (want > cap)
		want = cap;
	if (want > avail)
		want = avail;
	for (top = LOWER; top * 2 <= want; top *= 2)
		;
	return top;
}

/*
 * Keys name a size as lmbench's output does, in its MB column (2^20
 * bytes) times 1000, rounded: 32K is "sz31k", 64K "sz62k", 1M "sz1000k"
 * (the keys users know from published results).  Below 1K that is 0:
 * "sz512" in bytes.
 */
static void point_key(char *buf, size_t len, const char *mode, size_t stride,
		      size_t size)
{
	double k = (double)size * 1000.0 / (double)MB;

	if (k < 0.5)
		snprintf(buf, len, "lat_mem_rd-%sstride%zu-sz%zu", mode, stride, size);
	else
		snprintf(buf, len, "lat_mem_rd-%sstride%zu-sz%.0fk", mode, stride, k);
}

/* 512, 1K, 2K, 4K, ...; dense: also 3K, 6K, 12K, ... (lmbench's grid). */
static size_t next_size(size_t s, bool dense)
{
	if (!dense || s < 2048)
		return s * 2;
	if (!(s & (s - 1)))
		return s + s / 2;
	return s / 3 * 4;
}

static void **build_stride(char *buf, size_t size, size_t stride)
{
	size_t off;

	for (off = stride; off < size; off += stride)
		*(void **)(buf + off - stride) = buf + off;
	*(void **)(buf + off - stride) = buf;
	return (void **)buf;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void shuffle(size_t *a, size_t n, uint64_t *seed)
{
	size_t i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (size_t)(rnd(seed) % (i + 1));
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static size_t bit_reverse(size_t v, unsigned int bits)
{
	size_t r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		if (v & ((size_t)1 << i))
			r |= (size_t)1 << (bits - 1 - i);
	return r;
}

/*
 * lmbench's thrash chain: pages[] in a random order; line j of the bit-
 * reversed order in page i points to line j + 1 of page i + 1, so each
 * load is on the next page; the last page leads back to the first, one
 * line further.  One cycle through every line.  size is a multiple of
 * the page size, which is a multiple of the stride (powers of two).
 */
static void **build_random(struct mem *m, size_t size, size_t stride)
{
	size_t np = size / m->page, nl = m->page / stride, i, j;
	size_t *pages = malloc(np * sizeof(*pages));
	size_t *lines = malloc(nl * sizeof(*lines));
	unsigned int bits = 0;
	void **start = NULL;

	if (!pages || !lines || !np || !nl)
		goto out;
	while (((size_t)1 << bits) < nl)
		bits++;
	for (i = 0; i < np; i++)
		pages[i] = i * m->page;
	shuffle(pages, np, &m->seed);
	for (j = 0; j < nl; j++)
		lines[j] = bit_reverse(j, bits) * stride;
	for (i = 0; i < np; i++) {
		for (j = 0; j < nl; j++) {
			char *from = m->buf + pages[i] + lines[(i + j) % nl];
			char *to = i + 1 < np ?
				m->buf + pages[i + 1] + lines[(i + 1 + j) % nl] :
				m->buf + pages[0] + lines[(j + 1) % nl];

			*(void **)from = to;
		}
	}
	start = (void **)(m->buf + pages[0] + lines[0]);
out:
	free(pages);
	free(lines);
	return start;
}

/* Walk the chain from start; samples become ns per load. */
static int measure(struct pp_ctx *ctx, struct mem *m, void **start,
		   const char *key, struct point *pt)
{
	struct pp_timing_opts to = { .no_overhead = true };
	struct chase c = { .p = start };
	struct pp_sampling *s = m->s;
	unsigned int i;
	int ret;

	ret = pp_sample(ctx, do_loads, &c, &to, s);
	if (ret)
		return pp_fail(ctx, "%s: %s", key, strerror(-ret));
	for (i = 0; i < s->n; i++)
		s->ns_per_op[i] /= LOADS_PER_ITER;
	s->iters *= LOADS_PER_ITER;
	memcpy(pt->ns, s->ns_per_op, s->n * sizeof(double));
	pt->min = pt->ns[0];
	for (i = 1; i < s->n; i++)
		if (pt->ns[i] < pt->min)
			pt->min = pt->ns[i];
	return 0;
}

/*
 * A load from a larger array cannot be faster than one from a smaller:
 * not than the curve's first, smallest size, which sits in the L1 cache,
 * nor than the point reported before it.  A point below either beyond
 * the noise of both (twice the larger CV, at least 10%) was disturbed:
 * why says how.
 */
static bool below_point(const struct point *ref, const char *what, const struct point *pt,
			unsigned int n, char *why, size_t len)
{
	double v = pp_median(pt->ns, n), base = pp_median(ref->ns, n), tol;
	char a[PP_NUM_LEN], b[PP_NUM_LEN];

	if (!pp_below_beyond_noise(v, pp_cv_pct(pt->ns, n), base, pp_cv_pct(ref->ns, n),
				   MEMRD_FLOOR_PCT, &tol))
		return false;
	pp_fmt_num(a, sizeof(a), v);
	pp_fmt_num(b, sizeof(b), base);
	snprintf(why, len, "%s ns is below the %zu-byte array's %s ns (%s) by more than the "
		 "noise (%.0f%%)", a, ref->size, b, what, tol);
	return true;
}

static bool below_l1(const struct curve *cv, const struct point *pt, unsigned int n,
		     char *why, size_t len)
{
	return cv->n && below_point(&cv->pt[0], "L1", pt, n, why, len);
}

static bool below_prev(const struct curve *cv, const struct point *pt, unsigned int n,
		       char *why, size_t len)
{
	return cv->n > 1 && below_point(&cv->pt[cv->n - 1], "the size before", pt, n, why, len);
}

static void **build_chain(struct mem *m, const struct curve *cv, size_t size)
{
	return cv->random ? build_random(m, size, cv->stride) :
			    build_stride(m->buf, size, cv->stride);
}

/*
 * Measure cv->pt[r], the reference a later point broke, again.  Its new
 * walk replaces the reported one, so what is reported is what was
 * compared; unless it would itself break below_l1() or below_prev()
 * against the points before it (that would only move the impossible
 * value back one size): the reference then keeps its figures.  The
 * chains share the buffer, so each is laid out again before it is walked.
 */
static int measure_ref(struct pp_ctx *ctx, struct mem *m, struct curve *cv, unsigned int r)
{
	struct point *ref = &cv->pt[r], *t = &cv->trial;
	char rkey[PP_KEY_MAX], why[2 * PP_NUM_LEN + 160];
	unsigned int n = m->s->n;
	void **start;

	point_key(rkey, sizeof(rkey), cv->random ? "random-" : "", cv->stride, ref->size);
	start = build_chain(m, cv, ref->size);
	if (!start)
		return pp_fail(ctx, "lat_mem_rd: out of memory");
	t->size = ref->size;
	if (measure(ctx, m, start, rkey, t))
		return -1;
	if (r && (below_point(&cv->pt[0], "L1", t, n, why, sizeof(why)) ||
		  (r > 1 && below_point(&cv->pt[r - 1], "the size before", t, n, why,
					sizeof(why))))) {
		pp_progress(ctx, "%s: measured again, %s: keeping its first figures", rkey, why);
		return 0;
	}
	memcpy(ref->ns, t->ns, n * sizeof(double));
	ref->min = t->min;
	return pp_report_sampling_again(ctx, rkey, m->s);
}

/*
 * Measure one point; one that breaks below_l1() or below_prev() is
 * measured again, and the reference it broke with it (measure_ref()): a
 * reference disturbed upwards is as likely as a point disturbed
 * downwards.  (Under a parallel build one size's samples were all held at
 * 3x its neighbours', and the next size then broke below_prev() in every
 * attempt while the reference stood.)  Skipped with the figures when it
 * stays there: 1 (pp_skip()) then.
 */
static int measure_point(struct pp_ctx *ctx, struct mem *m, struct curve *cv,
			 void **start, const char *key, struct point *pt)
{
	char why[2 * PP_NUM_LEN + 160];
	unsigned int a;
	bool l1;

	for (a = 0;; a++) {
		if (measure(ctx, m, start, key, pt))
			return -1;
		if (!cv->n)
			break;
		l1 = below_l1(cv, pt, m->s->n, why, sizeof(why));
		if (!l1 && !below_prev(cv, pt, m->s->n, why, sizeof(why)))
			break;
		if (a + 1 == MEMRD_ATTEMPTS)
			return pp_skip(ctx, key, "%s in each of %u measurements: impossible, "
				       "not reported", why, MEMRD_ATTEMPTS);
		pp_progress(ctx, "%s: %s: measuring both again", key, why);
		if (measure_ref(ctx, m, cv, l1 ? 0 : cv->n - 1))
			return -1;
		start = build_chain(m, cv, pt->size);
		if (!start)
			return pp_fail(ctx, "lat_mem_rd: out of memory");
	}
	return pp_report_sampling(ctx, key, m->s);	/* the point's last walk */
}

/* Thinned grids keep the powers of two 2^k with k % every == 0, and the top. */
static bool on_grid(const struct mem *m, size_t size, unsigned int every)
{
	unsigned int k = 0;

	if (every <= 1 || size == m->top || (size & (size - 1)))
		return true;
	while (((size_t)1 << k) < size)
		k++;
	return k % every == 0;
}

static int run_curve(struct pp_ctx *ctx, struct mem *m, struct curve *cv,
		     bool dense, bool random, unsigned int every)
{
	char key[PP_KEY_MAX];
	size_t size;
	void **start;
	int ret;

	cv->n = 0;
	cv->random = random;
	for (size = LOWER; size <= m->top && cv->n < MAX_POINTS;
	     size = next_size(size, dense)) {
		struct point *pt = &cv->pt[cv->n];

		/* lmbench: no chain shorter than a stride */
		if (size < cv->stride || (random && size % m->page) ||
		    !on_grid(m, size, every))
			continue;
		start = build_chain(m, cv, size);
		if (!start)
			return pp_fail(ctx, "lat_mem_rd: out of memory");
		point_key(key, sizeof(key), random ? "random-" : "", cv->stride, size);
		pt->size = size;
		ret = measure_point(ctx, m, cv, start, key, pt);
		if (ret < 0)
			return -1;
		if (!ret)
			cv->n++;
	}
	return 0;
}

/*
 * Cut a curve into plateaus.  A plateau goes on while the latency stays
 * within PLATEAU_RISE of its lowest point; then the points that still
 * climb by more than TRANSITION_RISE each are the transition, and the
 * next plateau starts where the climb flattens.
 */
static void find_plateaus(const double *t, unsigned int n, struct plateaus *pl)
{
	unsigned int i = 0, j;

	pl->n = 0;
	while (i < n && pl->n < MAX_LEVELS) {
		double floor = t[i];

		for (j = i; j + 1 < n && t[j + 1] <= floor * PLATEAU_RISE; j++)
			if (t[j + 1] < floor)
				floor = t[j + 1];
		pl->first[pl->n] = i;
		pl->last[pl->n] = j;
		pl->n++;
		for (i = j + 1; i + 1 < n && t[i + 1] > t[i] * TRANSITION_RISE; i++)
			;
	}
}

/*
 * The curve that is cut: each size's minimum (lmbench's statistic: the
 * run least disturbed by other work), then a running median of three so
 * a single disturbed size does not cut a plateau (steps survive it).
 */
static void curve_for_plateaus(const struct curve *cv, double *t)
{
	unsigned int p;

	for (p = 0; p < cv->n; p++) {
		double a, b, c;

		if (p == 0 || p + 1 == cv->n) {
			t[p] = cv->pt[p].min;
			continue;
		}
		a = cv->pt[p - 1].min;
		b = cv->pt[p].min;
		c = cv->pt[p + 1].min;
		t[p] = fmax(fmin(a, b), fmin(fmax(a, b), c));
	}
}

/* Cache levels of a plateau list: all but the last, which is memory. */
static unsigned int cache_levels(const struct plateaus *pl)
{
	unsigned int n = pl->n > 1 ? pl->n - 1 : pl->n;

	return n > 3 ? 3 : n;
}

/*
 * Level lvl: per sample, the median of the plateau's points; its size is
 * the plateau's last size (the same in every sample: one sample's curve
 * alone is too noisy to cut).
 */
static int report_level(struct pp_ctx *ctx, struct mem *m, const struct curve *cv,
			const struct plateaus *pl, unsigned int lvl)
{
	unsigned int n = m->nsamples, first = pl->first[lvl], last = pl->last[lvl];
	double lat[PP_MAX_SAMPLES], bytes[PP_MAX_SAMPLES], v[MAX_POINTS];
	char key[PP_KEY_MAX];
	unsigned int i, p;

	for (i = 0; i < n; i++) {
		for (p = first; p <= last; p++)
			v[p - first] = cv->pt[p].ns[i];
		lat[i] = pp_median(v, last - first + 1);
		bytes[i] = (double)cv->pt[last].size;
	}
	snprintf(key, sizeof(key), "lat_mem_rd-l%u", lvl + 1);
	if (pp_report(ctx, key, lat, n, 0))
		return -1;
	snprintf(key, sizeof(key), "lat_mem_rd-detected-l%u-bytes", lvl + 1);
	return pp_report(ctx, key, bytes, n, 0);
}

/* lat_mem_rd-l1 .. -l3 and -main from the stride-128 curve. */
static int report_summary(struct pp_ctx *ctx, struct mem *m, const struct curve *cv)
{
	double t[MAX_POINTS];
	struct plateaus pl;
	unsigned int l;

	if (!cv->n)
		return 0;
	curve_for_plateaus(cv, t);
	find_plateaus(t, cv->n, &pl);
	for (l = 0; l < cache_levels(&pl); l++)
		if (report_level(ctx, m, cv, &pl, l))
			return -1;
	/* getsummary: the biggest size it has (it wants 8 MB). */
	return pp_report(ctx, "lat_mem_rd-main", cv->pt[cv->n - 1].ns, m->nsamples, 0);
}

static int curve_alloc(struct curve *cv, unsigned int nsamples)
{
	unsigned int p;

	for (p = 0; p < MAX_POINTS; p++) {
		cv->pt[p].ns = calloc(nsamples, sizeof(double));
		if (!cv->pt[p].ns)
			return -ENOMEM;
	}
	cv->trial.ns = calloc(nsamples, sizeof(double));
	return cv->trial.ns ? 0 : -ENOMEM;
}

static void curve_free(struct curve *cv)
{
	unsigned int p;

	for (p = 0; p < MAX_POINTS; p++)
		free(cv->pt[p].ns);
	free(cv->trial.ns);
}

/*
 * The stride curves get one kind of page for every size: huge pages where
 * the kernel has them (a 2 MB aligned buffer), so the curve shows the
 * caches and not whether khugepaged happened to have collapsed this range
 * yet; the random walk gets base pages, to show their TLB.
 */
static int map_buffer(struct mem *m, bool base_pages)
{
	return pp_pagebuf_map(m->top + m->page, base_pages, &m->buf, &m->len);
}

static void unmap_buffer(struct mem *m)
{
	if (m->buf)
		munmap(m->buf, m->len);
	m->buf = NULL;
}

/* Strides: lmbench's script runs 16 32 64 128 256 512 1024. */
static int run_strides(struct pp_ctx *ctx, struct mem *m, struct curve *cv)
{
	static const size_t all[] = { 128, 16, 32, 64, 256, 512, 1024 };
	static const size_t quick[] = { 128, 16, 1024 };
	const size_t *list = ctx->opts.quick ? quick : all;
	unsigned int i, n = ctx->opts.quick ? ARRAY_SIZE(quick) : ARRAY_SIZE(all);
	int ret = map_buffer(m, false);

	if (ret)
		return pp_fail(ctx, "lat_mem_rd: mmap %zu bytes: %s", m->len, strerror(-ret));
	for (i = 0; i < n; i++) {
		cv->stride = list[i];
		ret = run_curve(ctx, m, cv, list[i] == SUMMARY_STRIDE || ctx->opts.full,
				false, 1);
		if (!ret && list[i] == SUMMARY_STRIDE)
			ret = report_summary(ctx, m, cv);
		if (ret)
			break;
	}
	unmap_buffer(m);
	return ret;
}

/*
 * The random walk, stride 128, from one page up: every other power of two
 * (every fourth with --quick, all of them with --full) and the top.
 */
static int run_random(struct pp_ctx *ctx, struct mem *m, struct curve *cv)
{
	int ret = map_buffer(m, true);

	if (ret)
		return pp_fail(ctx, "lat_mem_rd: mmap %zu bytes: %s", m->len, strerror(-ret));
	cv->stride = SUMMARY_STRIDE;
	ret = run_curve(ctx, m, cv, false, true,
			ctx->opts.full ? 1 : ctx->opts.quick ? 4 : 2);
	unmap_buffer(m);
	return ret;
}

/*
 * What the system says the caches are, beside what the curve shows (the
 * report marks both): "L1 49152 L2 1310720 L3 ..." bytes, and where from.
 */
static void sys_caches_info(struct pp_ctx *ctx, const struct pp_caches *c)
{
	char buf[256];
	size_t len = 0;
	unsigned int l;

	buf[0] = '\0';
	for (l = 1; l <= c->levels && l < PP_CACHE_MAX_LEVELS && len < sizeof(buf); l++)
		if (c->size[l])
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "L%u %zu ", l,
						c->size[l]);
	if (len && len < sizeof(buf))
		pp_info(ctx, "lat_mem_rd-system-caches", "%s(bytes, from %s)", buf, c->source);
}

static int lat_mem_rd_run(struct pp_ctx *ctx)
{
	struct curve *cv = calloc(1, sizeof(*cv));
	struct mem m = { .seed = 0x9e3779b97f4a7c15ull };
	int ret = -1;

	m.s = malloc(sizeof(*m.s));
	m.nsamples = ctx->opts.samples;
	m.page = (size_t)sysconf(_SC_PAGESIZE);
	if (!cv || !m.s || curve_alloc(cv, m.nsamples)) {
		ret = pp_fail(ctx, "lat_mem_rd: out of memory");
		goto out;
	}
	pp_caches_read(&m.sys);
	sys_caches_info(ctx, &m.sys);
	m.top = top_size(ctx, &m.sys);
	ret = run_strides(ctx, &m, cv);
	if (!ret)
		ret = run_random(ctx, &m, cv);
out:
	if (cv)
		curve_free(cv);
	free(cv);
	free(m.s);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_mem_rd-l%u", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "load latency of cache level N, from the stride-128 curve",
	  .show = PP_SHOW({ .key = "lat_mem_rd-l1", PP_COL("mem", 2, "  L1 $", "      ", 6, 3), .lm_col = 2 },
		  { .key = "lat_mem_rd-l2", PP_COL("mem", 3, "  L2 $", "      ", 6, 3), .lm_col = 3 },
		  { .key = "lat_mem_rd-l3", PP_COL("mem", 4, "  L3 $", "      ", 6, 3) }) },
	{ .pattern = "lat_mem_rd-detected-l%u-bytes", .unit = "bytes", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "size of cache level N as the curve shows it",
	  .show = PP_SHOW({ .chart = "memlat", .role = PP_CHART_MARK },
		  { .key = "lat_mem_rd-system-caches", .chart = "memlat", .role = PP_CHART_INFO_MARKS }) },
	{ .pattern = "lat_mem_rd-main", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "load latency of main memory: the curve's largest size",
	  .show = PP_SHOW({ PP_COL("mem", 5, "Main mem", "        ", 8, 1), .lm_col = 4 }) },
	{ .pattern = "lat_mem_rd-stride%u-sz%s", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a curve's point: dependent loads, stride bytes, array size",
	  .show = PP_SHOW({ .lm_block = "Memory load latency", .lm_rows = PP_LM_CURVE },
		  { .chart = "memlat", .role = PP_CHART_POINT }),
	  .size = PP_SIZE_LMBENCH_MB },
	{ .pattern = "lat_mem_rd-random-stride%u-sz%s", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "the same over pages in random order (lmbench -t)",
	  .show = PP_SHOW({ .lm_block = "Random load latency", .lm_rows = PP_LM_CURVE },
		  { .chart = "memlat", .role = PP_CHART_POINT, .dashed = true }),
	  .size = PP_SIZE_LMBENCH_MB },
	{ .pattern = "lat_mem_rd-random-main", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "lmbench 3's Rand mem: main memory over a random walk; imported summaries have it",
	  .show = PP_SHOW({ .table = "mem", .lm_col = 5 }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_mem_rd = {
	.name = "lat_mem_rd",
	.group = "mem",
	.summary = "memory read latency by array size and stride; L1/L2/L3/main (ns)",
	.keys = keys,
	.run = lat_mem_rd_run,
};
