// SPDX-License-Identifier: GPL-2.0
/*
 * stream: John McCalpin's STREAM memory bandwidth kernels.
 *
 *   copy   c[i] = a[i]			2 x 8 bytes per element
 *   scale  b[i] = q * c[i]		2 x 8
 *   add    c[i] = a[i] + b[i]		3 x 8
 *   triad  a[i] = b[i] + q * c[i]	3 x 8
 *
 * in that order, on three arrays of doubles at least four times the
 * last-level cache, once on one thread and once with one thread per CPU
 * (each pinned, each first touching the part of the arrays it works on).
 * As stream.c: MB is 10^6 bytes, the first pass is not counted, the best
 * rate is the headline and the final values are checked against a scalar
 * replay of the same arithmetic.  Every counted pass is one sample.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "print.h"
#include "stats.h"
#include "benchlib/caches.h"

#define MB			(1ul << 20)
#define NKERNELS		4
#define MIN_PASSES		10		/* stream.c's NTIMES */
#define MAX_PASSES		(PP_MAX_SAMPLES + 1)
#define MAX_THREADS		1024
#define STREAM_MIN_ARRAY	(10000000ul * 8)	/* stream.c 5.10's default */
#define STREAM_EPSILON		1e-13		/* stream.c, for doubles */
#define STREAM_SCALAR		3.0

static const char *const kname[NKERNELS] = { "copy", "scale", "add", "triad" };
static const unsigned int karrays[NKERNELS] = { 2, 2, 3, 3 };

/* The three arrays, back to back in one mapping as stream.c's static ones. */
struct stream_mem {
	void *map;
	size_t len;
	size_t n;			/* elements per array */
};

struct stream_set {
	double *a, *b, *c;
	size_t n;			/* elements per array */
	unsigned int nthreads, passes;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;				/* 1: all threads started, -1: give up */
	int bad_cpu;			/* the CPU a thread could not start on */
	pthread_barrier_t bar;
	uint64_t ns[NKERNELS][MAX_PASSES];
	const int *cpus;		/* the CPUs of its threads */
	unsigned int kv_k;		/* the kernel the kernel view runs */
};

struct stream_worker {
	struct stream_set *set;
	struct stream_worker *all;	/* every worker, for thread 0's sums */
	pthread_t tid;
	unsigned int idx;
	int cpu, ran_on;
	size_t lo, hi;
	uint64_t start, end;		/* this thread's kernel, last pass */
} __attribute__((aligned(64)));

/*
 * The kernels, on len elements from where the pointers point; scale, add and
 * triad two elements per step (one 16-byte vector) and the odd one after.  stream.c's trip
 * count is a compile-time constant and gcc -O2 gives it a packed SSE2 loop;
 * a run-time count keeps the plain loop scalar at -O2, this form gets the
 * same packed loop as stream.c.  Same loads, stores and arithmetic.
 */
/* gcc makes this memcpy(), as it does stream.c's copy loop. */
static __noinline void k_copy(double *restrict c, const double *restrict a, size_t len)
{
	size_t j;

	for (j = 0; j < len; j++)
		c[j] = a[j];
}

static __noinline void k_scale(double *restrict b, const double *restrict c, double q,
			       size_t len)
{
	size_t i;

	for (i = 0; i < len / 2; i++) {
		b[2 * i] = q * c[2 * i];
		b[2 * i + 1] = q * c[2 * i + 1];
	}
	if (len & 1)
		b[len - 1] = q * c[len - 1];
}

static __noinline void k_add(double *restrict c, const double *restrict a,
			     const double *restrict b, size_t len)
{
	size_t i;

	for (i = 0; i < len / 2; i++) {
		c[2 * i] = a[2 * i] + b[2 * i];
		c[2 * i + 1] = a[2 * i + 1] + b[2 * i + 1];
	}
	if (len & 1)
		c[len - 1] = a[len - 1] + b[len - 1];
}

static __noinline void k_triad(double *restrict a, const double *restrict b,
			       const double *restrict c, double q, size_t len)
{
	size_t i;

	for (i = 0; i < len / 2; i++) {
		a[2 * i] = b[2 * i] + q * c[2 * i];
		a[2 * i + 1] = b[2 * i + 1] + q * c[2 * i + 1];
	}
	if (len & 1)
		a[len - 1] = b[len - 1] + q * c[len - 1];
}

static void run_kernel(struct stream_worker *w, unsigned int k)
{
	struct stream_set *s = w->set;
	size_t lo = w->lo, len = w->hi - w->lo;

	switch (k) {
	case 0:
		k_copy(s->c + lo, s->a + lo, len);
		break;
	case 1:
		k_scale(s->b + lo, s->c + lo, STREAM_SCALAR, len);
		break;
	case 2:
		k_add(s->c + lo, s->a + lo, s->b + lo, len);
		break;
	default:
		k_triad(s->a + lo, s->b + lo, s->c + lo, STREAM_SCALAR, len);
		break;
	}
}

/*
 * Every thread runs each kernel on its part between two barriers and reads
 * the clock just before and just after it.  A pass lasts from the first
 * thread's start to the last thread's end: the time the work took, as
 * stream.c's "omp parallel for", without the wake-up of the thread that
 * reads the clock (a thread woken late from a barrier reading the start
 * would shorten the pass and inflate the rate).
 */
static void pass_time(struct stream_worker *w, unsigned int k, unsigned int p)
{
	struct stream_set *s = w->set;
	uint64_t first = w->all[0].start, last = w->all[0].end;
	unsigned int t;

	for (t = 1; t < s->nthreads; t++) {
		if (w->all[t].start < first)
			first = w->all[t].start;
		if (w->all[t].end > last)
			last = w->all[t].end;
	}
	s->ns[k][p] = last - first;
}

static void *worker_main(void *arg)
{
	struct stream_worker *w = arg;
	struct stream_set *s = w->set;
	unsigned int p, k;
	size_t j;

	pthread_mutex_lock(&s->lock);
	while (!s->go)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (s->go < 0)
		return NULL;
	w->ran_on = sched_getcpu();
	/* First touch: the pages of this part live where this thread runs. */
	for (j = w->lo; j < w->hi; j++) {
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	pthread_barrier_wait(&s->bar);
	/* stream.c's timing check, part of the arithmetic the check replays. */
	for (j = w->lo; j < w->hi; j++)
		s->a[j] = 2.0 * s->a[j];
	for (p = 0; p < s->passes; p++) {
		for (k = 0; k < NKERNELS; k++) {
			pthread_barrier_wait(&s->bar);
			w->start = pp_now_ns();
			run_kernel(w, k);
			w->end = pp_now_ns();
			/* After it, every thread's times are there; before the next
			 * kernel's barrier, none is overwritten.
			 */
			pthread_barrier_wait(&s->bar);
			if (!w->idx)
				pass_time(w, k, p);
		}
	}
	return NULL;
}

static int mem_map(struct stream_mem *m, size_t n)
{
	m->len = 3 * n * sizeof(double);
	m->map = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->map == MAP_FAILED) {
		m->map = NULL;
		return -errno;
	}
	m->n = n;
	return 0;
}

static void mem_unmap(struct stream_mem *m)
{
	if (m->map)
		munmap(m->map, m->len);
	m->map = NULL;
}

/* Thread t's part starts on a cache line (8 doubles): no line is shared. */
static size_t part_start(const struct stream_set *s, unsigned int t)
{
	if (t >= s->nthreads)
		return s->n;
	return s->n * t / s->nthreads / 8 * 8;
}

/* Start one worker per CPU, pinned before it runs; wait for them all. */
static int run_workers(struct stream_set *s, struct stream_worker *w,
		       const int *cpus)
{
	unsigned int t, started = 0;
	pthread_attr_t attr;
	cpu_set_t one;
	int ret = 0;

	if (pthread_barrier_init(&s->bar, NULL, s->nthreads))
		return -ENOMEM;
	s->go = 0;
	for (t = 0; t < s->nthreads && !ret; t++) {
		s->bad_cpu = cpus[t];
		w[t].set = s;
		w[t].all = w;
		w[t].idx = t;
		w[t].cpu = cpus[t];
		w[t].ran_on = -1;
		w[t].lo = part_start(s, t);
		w[t].hi = part_start(s, t + 1);
		CPU_ZERO(&one);
		CPU_SET(cpus[t], &one);
		pthread_attr_init(&attr);
		ret = -pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		if (!ret)
			ret = -pthread_create(&w[t].tid, &attr, worker_main, &w[t]);
		pthread_attr_destroy(&attr);
		if (!ret)
			started++;
	}
	/* All or none: the started ones wait at the gate for the verdict. */
	pthread_mutex_lock(&s->lock);
	s->go = ret ? -1 : 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	pthread_barrier_destroy(&s->bar);
	return ret;
}

/* stream.c's checkSTREAMresults(): replay the arithmetic on scalars. */
static int check_results(struct pp_ctx *ctx, const struct stream_set *s,
			 const char *what)
{
	double aj = 1.0, bj = 2.0, cj = 0.0, err[3] = { 0, 0, 0 }, want[3];
	const double *arr[3] = { s->a, s->b, s->c };
	unsigned int p, i;
	size_t j, nbad;

	aj = 2.0 * aj;
	for (p = 0; p < s->passes; p++) {
		cj = aj;
		bj = STREAM_SCALAR * cj;
		cj = aj + bj;
		aj = bj + STREAM_SCALAR * cj;
	}
	want[0] = aj;
	want[1] = bj;
	want[2] = cj;
	for (i = 0; i < 3; i++) {
		for (j = 0; j < s->n; j++)
			err[i] += fabs(arr[i][j] - want[i]);
		err[i] /= (double)s->n;
		if (!(fabs(err[i] / want[i]) <= STREAM_EPSILON))
			break;
	}
	if (i == 3)
		return 0;
	for (nbad = 0, j = 0; j < s->n; j++)
		if (!(fabs(arr[i][j] / want[i] - 1.0) <= STREAM_EPSILON))
			nbad++;
	return pp_fail(ctx, "%s: result check failed: array %c: %zu of %zu wrong, %s %.3g > %g",
		       what, "abc"[i], nbad, s->n, "average relative error",
		       fabs(err[i] / want[i]), STREAM_EPSILON);
}

/*
 * The same samples under key-best, whose value is their maximum: stream.c's
 * "Best Rate MB/s".  Added with pp_result_add(), not pp_report(), so that the
 * progress line shows that value and not the median.  The result, or NULL.
 */
static struct pp_result *report_best(struct pp_ctx *ctx, const char *key, const double *v,
				     unsigned int n, uint64_t iters)
{
	struct pp_result *r = pp_result_add(ctx, key, v, n, iters);
	char best[PP_NUM_LEN], avg[PP_NUM_LEN], min[PP_NUM_LEN];

	if (!r)
		return NULL;
	r->value = r->st.max;
	pp_kside_clear(&r->k);	/* the kernel view is shown once, with the median's key */
	pp_fmt_num(best, sizeof(best), r->value);
	pp_fmt_num(avg, sizeof(avg), r->st.mean);
	pp_fmt_num(min, sizeof(min), r->st.min);
	pp_progress(ctx, "%-28s %10s %-5s (best of %u, avg %s, min %s)", key, best, r->unit,
		    n, avg, min);
	return r;
}

/*
 * The kernel view of kernel k (kernel/kview.c): one pass over the whole
 * arrays an iteration.  One thread: in this one.  One per CPU: in as many
 * threads on the same CPUs, each on its part of the arrays (the pages it
 * first touched), started for the pass and joined after it, so the view
 * holds what starting them costs as well.
 */
static void *kv_worker(void *arg)
{
	struct stream_worker *w = arg;

	run_kernel(w, w->set->kv_k);
	return NULL;
}

static int kv_pass_mt(struct stream_set *s, struct stream_worker *w)
{
	unsigned int t, started = 0;
	pthread_attr_t attr;
	cpu_set_t one;
	int ret = 0;

	for (t = 0; t < s->nthreads && !ret; t++) {
		w[t] = (struct stream_worker){ .set = s, .lo = part_start(s, t),
					       .hi = part_start(s, t + 1) };
		CPU_ZERO(&one);
		CPU_SET(s->cpus[t], &one);
		pthread_attr_init(&attr);
		ret = -pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		if (!ret)
			ret = -pthread_create(&w[t].tid, &attr, kv_worker, &w[t]);
		pthread_attr_destroy(&attr);
		if (!ret)
			started++;
	}
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	return ret;
}

struct stream_kv {
	struct stream_set *s;
	struct stream_worker *w;	/* one per thread */
};

static int stream_kv_loop(uint64_t iters, void *arg)
{
	struct stream_kv *kv = arg;
	int ret = 0;

	while (iters-- > 0 && !ret) {
		if (kv->s->nthreads == 1)
			run_kernel(kv->w, kv->s->kv_k);
		else
			ret = kv_pass_mt(kv->s, kv->w);
	}
	return ret;
}

static void stream_kview(struct pp_ctx *ctx, struct stream_set *s, unsigned int k)
{
	struct stream_kv kv = { .s = s };
	double ns[MAX_PASSES];
	unsigned int p;

	pp_kview_loop(ctx, NULL, NULL, 0, 0);	/* not the last set's view */
	if (!ctx->kview || s->passes < 2)
		return;
	kv.w = aligned_alloc(64, s->nthreads * sizeof(*kv.w));
	if (!kv.w)
		return;
	kv.w[0] = (struct stream_worker){ .set = s, .lo = 0, .hi = s->n };
	s->kv_k = k;
	for (p = 1; p < s->passes; p++)
		ns[p - 1] = (double)s->ns[k][p];
	pp_kview_loop(ctx, stream_kv_loop, &kv, 1, pp_median(ns, s->passes - 1));
	free(kv.w);
}

/* MB/s of each counted pass (all but the first), as stream.c. */
static int report_kernel(struct pp_ctx *ctx, struct stream_set *s,
			 unsigned int k, const char *suffix, int cpu_lo, int cpu_hi)
{
	double v[PP_MAX_SAMPLES], bytes = (double)karrays[k] * sizeof(double) * (double)s->n;
	char key[PP_KEY_MAX - 8], best[PP_KEY_MAX];
	struct pp_result *r;
	unsigned int p;

	for (p = 1; p < s->passes; p++) {
		double sec = (double)s->ns[k][p] * 1e-9;

		if (!(sec > 0))
			return pp_fail(ctx, "stream-%s%s: a pass took no time", kname[k], suffix);
		v[p - 1] = bytes * 1e-6 / sec;
	}
	snprintf(key, sizeof(key), "stream-%s%s", kname[k], suffix);
	snprintf(best, sizeof(best), "%s-best", key);
	stream_kview(ctx, s, k);
	if (pp_report(ctx, key, v, s->passes - 1, s->n))
		return -1;
	r = pp_run_find_mut(ctx->run, key);
	r->cpu_first = cpu_lo;
	r->cpu_last = cpu_hi;
	r = report_best(ctx, best, v, s->passes - 1, s->n);
	if (!r)
		return -1;
	r->cpu_first = cpu_lo;
	r->cpu_last = cpu_hi;
	return 0;
}

/* The debug knob of the tests: a wrong element must fail the check. */
static void maybe_corrupt(struct stream_set *s)
{
	const char *e = getenv("PERFPROBE_STREAM_CORRUPT");

	if (e && *e && strcmp(e, "0"))
		s->a[s->n / 2] *= 2.0;
}

static int run_set(struct pp_ctx *ctx, const struct stream_mem *m, unsigned int passes,
		   const int *cpus, unsigned int nthreads, const char *suffix)
{
	struct stream_worker *w = aligned_alloc(64, nthreads * sizeof(*w));
	struct stream_set *s = calloc(1, sizeof(*s));
	char what[32];
	unsigned int k, t;
	int ret;

	snprintf(what, sizeof(what), "stream%s", suffix);
	if (!w || !s) {
		ret = pp_fail(ctx, "%s: out of memory", what);
		goto out;
	}
	memset(w, 0, nthreads * sizeof(*w));
	s->nthreads = nthreads;
	s->passes = passes;
	s->n = m->n;
	s->a = m->map;
	s->b = s->a + m->n;
	s->c = s->b + m->n;
	s->cpus = cpus;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	ret = run_workers(s, w, cpus);
	if (ret) {
		ret = pp_fail(ctx, "%s: cannot start a thread on CPU %d: %s", what,
			      s->bad_cpu, strerror(-ret));
		goto out_free;
	}
	for (t = 0; t < nthreads; t++)
		if (w[t].ran_on != w[t].cpu) {
			ret = pp_fail(ctx, "%s: thread %u ran on CPU %d, not CPU %d", what,
				      t, w[t].ran_on, w[t].cpu);
			goto out_free;
		}
	maybe_corrupt(s);
	ret = check_results(ctx, s, what);
	for (k = 0; k < NKERNELS && !ret; k++)
		ret = report_kernel(ctx, s, k, suffix, cpus[0], cpus[nthreads - 1]);
out_free:
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
out:
	free(s);
	free(w);
	return ret;
}

/* "0-3,8,10-11" (sysfs CPU list) into cpus[]; returns the count. */
static unsigned int parse_cpu_list(const char *s, int *cpus, unsigned int max)
{
	unsigned int n = 0;
	char *end;

	while (*s && n < max) {
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (; lo <= hi && n < max; lo++)
			cpus[n++] = (int)lo;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

/*
 * The CPUs of the multi-threaded run: those this process may use, or,
 * when --cpu pinned the run to one, every online CPU.
 */
static unsigned int mt_cpus(const struct pp_ctx *ctx, int *cpus, unsigned int max)
{
	char buf[1024];
	cpu_set_t set;
	unsigned int n = 0;
	int c;

	if (ctx->opts.pin_cpu >= 0 || sched_getaffinity(0, sizeof(set), &set)) {
		if (!pp_read_line("/sys/devices/system/cpu/online", buf, sizeof(buf)))
			n = parse_cpu_list(buf, cpus, max);
		return n;
	}
	for (c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

struct stream_plan {
	size_t bytes;			/* per array */
	size_t llc;
	const char *llc_source;
	const char *why;		/* how the size was chosen */
	unsigned int passes;
};

/*
 * Bytes per array: PERFPROBE_STREAM_SIZE, else four times the last-level
 * cache and at least stream.c's default of 10^7 elements; at most a cap
 * per mode and a sixth of the available memory (the three arrays in at
 * most half of it).
 */
static int plan_size(struct pp_ctx *ctx, struct stream_plan *pl)
{
	size_t cap = ctx->opts.quick ? 128 * MB : ctx->opts.full ? 8192 * MB : 2048 * MB;
	size_t mem = pp_mem_available() / 6;
	const char *env = getenv("PERFPROBE_STREAM_SIZE");
	uint64_t v;

	pl->llc = pp_llc_bytes(&pl->llc_source);
	if (env && *env) {
		if (pp_parse_size(env, &v) || v < 1024 || v > pp_mem_available() / 3)
			return pp_fail(ctx, "PERFPROBE_STREAM_SIZE=%s: %s", env,
				       "not a size from 1k to a third of the available memory");
		pl->bytes = (size_t)v;
		pl->why = "PERFPROBE_STREAM_SIZE";
		return 0;
	}
	pl->bytes = 4 * pl->llc;
	pl->why = "4 x last-level cache";
	if (pl->bytes < STREAM_MIN_ARRAY) {
		pl->bytes = STREAM_MIN_ARRAY;
		pl->why = "stream.c's default, above 4 x last-level cache";
	}
	if (pl->bytes > cap) {
		pl->bytes = cap;
		pl->why = ctx->opts.quick ? "--quick cap: BELOW 4 x last-level cache" :
			  "default cap: BELOW 4 x last-level cache (--full allows 8 GB)";
	}
	if (pl->bytes > mem) {
		pl->bytes = mem;
		pl->why = "a sixth of the available memory";
	}
	return 0;
}

/* NUMA nodes online (sysfs); 1 where there is no NUMA information. */
static unsigned int numa_nodes(void)
{
	char buf[256];
	int nodes[64];
	unsigned int n = 0;

	if (!pp_read_line("/sys/devices/system/node/online", buf, sizeof(buf)))
		n = parse_cpu_list(buf, nodes, ARRAY_SIZE(nodes));
	return n ? n : 1;
}

/*
 * Each run on arrays first touched by its own threads.  With one NUMA node
 * placement cannot differ, so the multi-threaded run reuses the mapping:
 * first-touch faults can cost tens of us per page on a VM.
 */
static int run_both(struct pp_ctx *ctx, const struct stream_plan *pl, int one,
		    const int *cpus, unsigned int ncpus)
{
	size_t n = pl->bytes / sizeof(double);
	struct stream_mem m = { 0 };
	int ret;

	ret = mem_map(&m, n);
	if (ret)
		return pp_fail(ctx, "cannot map 3 x %zu MB: %s", pl->bytes / MB, strerror(-ret));
	pp_progress(ctx, "stream: single thread on CPU %d", one);
	ret = run_set(ctx, &m, pl->passes, &one, 1, "");
	if (ret)
		goto out;
	if (ncpus < 2) {
		ret = pp_skip(ctx, "stream-mt", "one CPU: %s",
			      "one thread per CPU would repeat the single-thread run");
		goto out;
	}
	if (numa_nodes() > 1) {
		mem_unmap(&m);
		ret = mem_map(&m, n);
		if (ret) {
			ret = pp_fail(ctx, "cannot map 3 x %zu MB: %s", pl->bytes / MB,
				      strerror(-ret));
			goto out;
		}
	}
	pp_progress(ctx, "stream-mt: %u threads, one pinned on each CPU %d..%d", ncpus, cpus[0],
		    cpus[ncpus - 1]);
	ret = run_set(ctx, &m, pl->passes, cpus, ncpus, "-mt");
out:
	mem_unmap(&m);
	return ret;
}

static int stream_run(struct pp_ctx *ctx)
{
	int one, *cpus = calloc(MAX_THREADS, sizeof(int));
	struct stream_plan pl = { 0 };
	unsigned int ncpus;
	int ret;

	if (!cpus)
		return pp_fail(ctx, "out of memory");
	ret = plan_size(ctx, &pl);
	if (ret)
		goto out;
	/* stream.c counts passes after the first; quick runs fewer of them. */
	pl.passes = ctx->opts.samples + 1;
	if (!ctx->opts.quick && pl.passes < MIN_PASSES)
		pl.passes = MIN_PASSES;
	ncpus = mt_cpus(ctx, cpus, MAX_THREADS);
	one = ctx->opts.pin_cpu >= 0 ? ctx->opts.pin_cpu : ncpus ? cpus[0] : pp_current_cpu();
	pp_progress(ctx, "stream: 3 arrays of %.1f MB (%s; last-level cache %zu KB from %s), %u %s",
		    (double)pl.bytes / 1e6, pl.why, pl.llc >> 10, pl.llc_source, pl.passes,
		    "passes");
	ret = run_both(ctx, &pl, one, cpus, ncpus);
out:
	free(cpus);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "stream-%s", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "STREAM kernel (copy scale add triad), one thread: median",
	  .show = PP_SHOW({ .key = "stream-copy", .chart = "stream" }, { .key = "stream-scale", .chart = "stream" },
		  { .key = "stream-add", .chart = "stream" }, { .key = "stream-triad", .chart = "stream" }) },
	{ .pattern = "stream-%s-best", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "the same, best pass (STREAM's Best Rate)" },
	{ .pattern = "stream-%s-mt", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "the kernel with one thread per CPU: median",
	  .show = PP_SHOW({ .key = "stream-copy-mt", .chart = "stream" },
		  { .key = "stream-scale-mt", .chart = "stream" },
		  { .key = "stream-add-mt", .chart = "stream" }, { .key = "stream-triad-mt", .chart = "stream" }) },
	{ .pattern = "stream-%s-mt-best", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED, .desc = "the same, best pass" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_stream = {
	.name = "stream",
	.group = "stream",
	.summary = "STREAM copy, scale, add, triad memory bandwidth, 1 thread and 1 per CPU (MB/s)",
	.keys = keys,
	.run = stream_run,
	.by_name = true,
};
