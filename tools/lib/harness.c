// SPDX-License-Identifier: GPL-2.0
/*
 * The measurement harness: loop sizing, warm-up, samples, overheads
 * taken out, reporting under declared keys, skips and CPU pinning.  The
 * progress lines are progress.c's, temporary directories tmpdir.c's,
 * signals interrupt.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cpuhog.h"
#include "harness.h"
#include "print.h"

#define CALIB_MAX_ROUNDS	40
#define MAX_ITERS		1000000000000ull

uint64_t pp_next_iters(uint64_t iters, uint64_t elapsed_ns, uint64_t target_ns)
{
	double want;

	if (!iters)
		iters = 1;
	if (!elapsed_ns)
		want = (double)iters * 16.0;
	else
		want = (double)iters * (double)target_ns / (double)elapsed_ns;
	if (want > (double)iters * 16.0)
		want = (double)iters * 16.0;
	if (want < 1.0)
		want = 1.0;
	if (want > (double)MAX_ITERS)
		want = (double)MAX_ITERS;
	return (uint64_t)(want + 0.5);
}

static __noinline int empty_loop(uint64_t iters, void *arg)
{
	(void)arg;
	while (iters-- > 0)
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

double pp_loop_overhead(void)
{
	double v[11];
	uint64_t iters = 1000000;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		uint64_t t0 = pp_now_ns();

		empty_loop(iters, NULL);
		v[i] = (double)(pp_now_ns() - t0) / (double)iters;
	}
	return pp_median(v, ARRAY_SIZE(v));
}

static int time_once(pp_loop_fn fn, void *arg, uint64_t iters, uint64_t *ns)
{
	uint64_t t0;
	int ret;

	if (pp_interrupted)
		return -EINTR;
	t0 = pp_now_ns();
	ret = fn(iters, arg);
	if (pp_interrupted)
		return -EINTR;

	*ns = pp_now_ns() - t0;
	return ret;
}

/*
 * Noise handled, not only flagged: samples that spread more than the
 * run's noise threshold were disturbed (a preemption, another process on
 * the CPU) for part of the time.  n more samples are taken, and the
 * quietest n consecutive of all of them are the result; while those still
 * spread more than the threshold, n more again, up to QUIET_ROUNDS sets
 * (the time bound: QUIET_ROUNDS times the samples' time; none with
 * --quick, which keeps its time).  A disturbance that lasts longer than
 * one set (another guest's memory traffic on a shared host) is outlasted
 * by the next.  Said on stderr, and by pp_report_sampling() in the run's
 * info.
 */
#define QUIET_ROUNDS	3

static int quieten(struct pp_ctx *ctx, pp_loop_fn fn, void *arg, struct pp_sampling *s)
{
	unsigned int i, n = s->n, total = n;
	size_t start = 0;
	uint64_t ns;
	int ret;

	struct pp_hogs *snap;

	if (ctx->opts.quick || ctx->opts.noise_pct <= 0 || 2 * n > PP_MAX_SAMPLES || n < 3)
		return 0;
	s->first_cv_pct = pp_cv_pct(s->ns_per_op, n);
	if (s->first_cv_pct <= ctx->opts.noise_pct)
		return 0;
	snap = pp_hogs_snap();
	while (total < (1 + QUIET_ROUNDS) * n && total + n <= PP_MAX_SAMPLES) {
		for (i = total; i < total + n; i++) {
			ret = time_once(fn, arg, s->iters, &ns);
			if (ret) {
				pp_hogs_since(snap, s->hogs, sizeof(s->hogs));
				return ret;
			}
			s->ns_per_op[i] = (double)ns / (double)s->iters;
		}
		total += n;
		start = pp_quietest_window(s->ns_per_op, total, n);
		if (pp_cv_pct(s->ns_per_op + start, n) <= ctx->opts.noise_pct)
			break;
	}
	memmove(s->ns_per_op, s->ns_per_op + start, n * sizeof(s->ns_per_op[0]));
	s->taken = total;
	/* still disturbed: who else ran while the extra sets were taken */
	if (pp_cv_pct(s->ns_per_op, n) > ctx->opts.noise_pct)
		pp_hogs_since(snap, s->hogs, sizeof(s->hogs));
	else
		pp_hogs_since(snap, NULL, 0);
	pp_dbg("%s: samples spread %.1f%%: %u more taken, the quietest %u kept (%.1f%%)",
	       ctx->bench ? ctx->bench : "?", s->first_cv_pct, total - n, n,
	       pp_cv_pct(s->ns_per_op, n));
	return 0;
}

static int take_samples(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
			double overhead, struct pp_sampling *s)
{
	unsigned int attempt, i;
	uint64_t ns;
	int ret;

	for (attempt = 0; attempt < PP_NET_ATTEMPTS; attempt++) {
		s->n = ctx->opts.samples;
		s->taken = 0;
		s->hogs[0] = '\0';
		s->cpu_first = pp_current_cpu();
		for (i = 0; i < s->n; i++) {
			ret = time_once(fn, arg, s->iters, &ns);
			if (ret)
				return ret;
			s->ns_per_op[i] = (double)ns / (double)s->iters;
		}
		ret = quieten(ctx, fn, arg, s);
		if (ret)
			return ret;
		s->cpu_last = pp_current_cpu();
		/* The empty loop's cost is part of every pass: take it out. */
		if (overhead <= 0 || pp_sampling_net(s, overhead, 1))
			return 0;
	}
	return -EDOM;
}

void pp_kview_loop(struct pp_ctx *ctx, pp_loop_fn fn, void *arg, uint64_t iters,
		   double gross_ns)
{
	struct pp_kv_job job = { .loop = fn, .iters = iters, .arg = arg, .gross_ns = gross_ns };

	ctx->kv_iters = 0;
	if (!ctx->kview || !iters)
		return;
	pp_kside_clear(&ctx->kv_last);
	if (!ctx->kview(ctx, &job, &ctx->kv_last))
		ctx->kv_iters = iters;
}

void pp_kview_work(struct pp_ctx *ctx, pp_work_fn fn, void *arg, double gross_ns)
{
	struct pp_kv_job job = { .work = fn, .arg = arg, .gross_ns = gross_ns };

	ctx->kv_iters = 0;
	if (!ctx->kview || !fn)
		return;
	pp_kside_clear(&ctx->kv_last);
	if (!ctx->kview(ctx, &job, &ctx->kv_last))
		ctx->kv_iters = 1;
}

/*
 * The kernel view of the loop just sampled, kept for the result that
 * reports it (pp_result_add()).  The traced passes come after the
 * samples, so the figure the user reads was taken with nothing armed.
 */
static void kview_pass(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
		       double overhead, const struct pp_sampling *s)
{
	pp_kview_loop(ctx, fn, arg, s->iters,
		      pp_median(s->ns_per_op, s->n) + (overhead > 0 ? overhead : 0));
}

int pp_sample(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
	      const struct pp_timing_opts *to, struct pp_sampling *s)
{
	double target_ms = to && to->target_ms > 0 ? to->target_ms : ctx->opts.target_ms;
	uint64_t target = (uint64_t)(target_ms * 1e6);
	uint64_t max_iters = to && to->max_iters ? to->max_iters : MAX_ITERS;
	double overhead = 0;
	uint64_t iters = 1, ns;
	unsigned int i;
	int ret;

	if (!(to && to->no_overhead))
		overhead = ctx->run->meta.loop_overhead_ns;

	/* Size the loop: grow until one pass is long enough to scale from. */
	for (i = 0; i < CALIB_MAX_ROUNDS; i++) {
		ret = time_once(fn, arg, iters, &ns);
		if (ret)
			return ret;
		if (ns >= target / 16 || iters >= max_iters)
			break;
		iters = pp_next_iters(iters, ns, target);
	}
	iters = pp_next_iters(iters, ns, target);
	if (iters > max_iters)
		iters = max_iters;

	/*
	 * Warm-up, thrown away.  One slow calibration pass (a preemption, a
	 * child still starting) would leave every sample a few iterations
	 * long: when the warm-up at the final count is far from the target,
	 * size again from it and warm up once more.
	 */
	for (i = 0; i < 3; i++) {
		ret = time_once(fn, arg, iters, &ns);
		if (ret)
			return ret;
		if ((ns >= target / 2 && ns <= target * 2) || iters >= max_iters)
			break;
		iters = pp_next_iters(iters, ns, target);
		if (iters > max_iters)
			iters = max_iters;
	}

	s->iters = iters;
	ctx->kv_iters = 0;
	ret = take_samples(ctx, fn, arg, overhead, s);
	if (!ret && ctx->kview && !(to && to->no_kview))
		kview_pass(ctx, fn, arg, overhead, s);
	return ret;
}

bool pp_sampling_net(struct pp_sampling *s, double overhead_ns, double per)
{
	unsigned int i;

	if (!(per > 0))
		return false;
	for (i = 0; i < s->n; i++)
		if (!((s->ns_per_op[i] - overhead_ns) / per > 0))
			return false;
	for (i = 0; i < s->n; i++)
		s->ns_per_op[i] = (s->ns_per_op[i] - overhead_ns) / per;
	return true;
}

int pp_sample_err(struct pp_ctx *ctx, const char *key, int err)
{
	char ns[PP_NUM_LEN + 4];

	if (err != -EDOM)
		return pp_fail(ctx, "%s: %s", key, strerror(-err));
	pp_fmt_ns(ns, sizeof(ns), ctx->run->meta.loop_overhead_ns);
	return pp_skip(ctx, key, "a sample at or below the empty loop's %s in each of %d "
		       "measurements: too noisy here", ns, PP_NET_ATTEMPTS);
}

int pp_sample_net(struct pp_ctx *ctx, const char *key, pp_measure_fn measure,
		  void *arg, double per, struct pp_sampling *s)
{
	char ns[PP_NUM_LEN + 4];
	double overhead = 0;
	unsigned int attempt;
	int ret;

	for (attempt = 0; attempt < PP_NET_ATTEMPTS; attempt++) {
		ret = measure(ctx, arg, attempt, s, &overhead);
		if (ret)
			return pp_sample_err(ctx, key, ret);
		if (pp_sampling_net(s, overhead, per))
			return 0;
		pp_fmt_ns(ns, sizeof(ns), overhead);
		if (attempt + 1 < PP_NET_ATTEMPTS)
			pp_progress(ctx, "%s: a sample at or below the overhead taken out of "
				    "it (%s): measuring again", key, ns);
	}
	return pp_skip(ctx, key, "a sample at or below the overhead taken out of it "
		       "(%s) in each of %d measurements: too noisy here", ns, PP_NET_ATTEMPTS);
}

static void print_result(struct pp_ctx *ctx, const struct pp_result *r)
{
	char v[PP_NUM_LEN];

	pp_fmt_num(v, sizeof(v), r->value);
	pp_progress(ctx, "%-28s %10s %-5s (n=%zu, cv %.1f%%%s)", r->key, v, r->unit,
		    r->nsamples, r->st.cv_pct, r->noisy ? ", NOISY" : "");
}

const struct pp_key_decl *pp_key_declared(struct pp_ctx *ctx, const char *key)
{
	const struct pp_key_decl *d = pp_key_decl_find(ctx->keys, key);

	if (!d)
		pp_fail(ctx, "%s: result key not declared by %s (Documentation/adding.rst)",
			key, ctx->bench ? ctx->bench : "this command");
	return d;
}

int pp_key_declared_in(struct pp_ctx *ctx, const char *key, const char *unit)
{
	const struct pp_key_decl *d = pp_key_declared(ctx, key);

	if (!d)
		return -1;
	if (strcmp(d->unit, unit))
		return pp_fail(ctx, "%s: declared in %s, reported in %s", key, d->unit, unit);
	return 0;
}

/*
 * Recorded; or recorded again (again: a result reported already, whose
 * samples of this round, statistics and kernel view are replaced in
 * place); or, in a later round of run --rounds, added to its earlier ones.
 */
static struct pp_result *result_record(struct pp_ctx *ctx, const char *key,
				       const double *samples, unsigned int n,
				       uint64_t iters, bool again)
{
	const struct pp_key_decl *d = pp_key_declared(ctx, key);
	struct pp_result *r;
	bool was_noisy;

	if (!d)
		return NULL;
	r = pp_run_find_mut(ctx->run, key);
	was_noisy = again && r && r->noisy;
	if (again) {
		if (r && pp_result_redo_round(r, samples, n))
			r = NULL;
	} else if (r && ctx->round) {
		/* run --rounds: a key of an earlier round gets this one's samples */
		if (pp_result_add_round(r, samples, n))
			r = NULL;
	} else {
		r = pp_run_add(ctx->run, key, d->unit, d->dir, samples, n);
	}
	if (!r) {
		pp_fail(ctx, "%s: cannot record result", key);
		return NULL;
	}
	pp_kside_clear(&r->k);
	r->kind = d->kind;
	r->spread_pct = d->spread_pct;
	r->iterations = iters;
	r->noisy = pp_result_noisy(r, ctx->opts.noise_pct);
	/* the benchmark's line counts it once, measured again or not */
	ctx->bench_results += !again;
	ctx->bench_noisy += r->noisy;
	ctx->bench_noisy -= was_noisy;
	/*
	 * The last sampled loop's kernel view, per operation of this result:
	 * a result may count several operations an iteration (lat_pagefault
	 * reports each page of its loop), never a fraction of one.
	 */
	if (ctx->kv_iters && iters && iters % ctx->kv_iters == 0) {
		r->k = ctx->kv_last;
		pp_kside_scale(&r->k, (double)(iters / ctx->kv_iters));
	}
	return r;
}

struct pp_result *pp_result_add(struct pp_ctx *ctx, const char *key,
				const double *samples, unsigned int n,
				uint64_t iters)
{
	return result_record(ctx, key, samples, n, iters, false);
}

int pp_report(struct pp_ctx *ctx, const char *key, const double *samples,
	      unsigned int n, uint64_t iters)
{
	struct pp_result *r = pp_result_add(ctx, key, samples, n, iters);

	if (!r)
		return -1;
	r->cpu_last = pp_current_cpu();
	if (!ctx->round)
		r->cpu_first = r->cpu_last;
	print_result(ctx, r);
	return 0;
}

/* ns -> unit, for the time units; 0 for any other. */
static double time_scale(const char *unit)
{
	static const struct { const char *unit; double scale; } t[] = {
		{ "ns", 1 }, { "us", 1e-3 }, { "ms", 1e-6 }, { "s", 1e-9 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(unit, t[i].unit))
			return t[i].scale;
	return 0;
}

static int report_sampling(struct pp_ctx *ctx, const char *key,
			   const struct pp_sampling *s, bool again)
{
	const struct pp_key_decl *d = pp_key_declared(ctx, key);
	double v[PP_MAX_SAMPLES], scale;
	struct pp_result *r;
	unsigned int i;

	if (!d)
		return -1;
	scale = time_scale(d->unit);
	if (!scale)
		return pp_fail(ctx, "%s: declared in %s, not a time per operation", key,
			       d->unit);
	for (i = 0; i < s->n; i++)
		v[i] = s->ns_per_op[i] * scale;
	r = result_record(ctx, key, v, s->n, s->iters, again);
	if (!r)
		return -1;
	if (!ctx->round)
		r->cpu_first = s->cpu_first;
	r->cpu_last = s->cpu_last;
	/* only what quieten() sets: a sampling filled by hand has taken 0 */
	if (s->taken > s->n && s->n) {
		char name[PP_KEY_MAX + 16];
		int hl = (int)strnlen(s->hogs, sizeof(s->hogs));

		snprintf(name, sizeof(name), "%s" PP_NOTE_SAMPLES, key);
		pp_info(ctx, name, "the first %u spread %.1f%%: %u taken, the quietest %u "
			"consecutive kept%s%.*s", s->n, s->first_cv_pct, s->taken, s->n,
			hl ? PP_NOTE_HOGS : "", hl, s->hogs);
	}
	print_result(ctx, r);
	return 0;
}

int pp_report_sampling(struct pp_ctx *ctx, const char *key,
		       const struct pp_sampling *s)
{
	return report_sampling(ctx, key, s, false);
}

int pp_report_sampling_again(struct pp_ctx *ctx, const char *key,
			     const struct pp_sampling *s)
{
	return report_sampling(ctx, key, s, true);
}

int pp_latency(struct pp_ctx *ctx, const char *key, pp_loop_fn fn, void *arg)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	int ret;

	if (!s)
		return pp_fail(ctx, "%s: out of memory", key);
	ret = pp_sample(ctx, fn, arg, NULL, s);
	if (ret)
		ret = pp_sample_err(ctx, key, ret);
	else
		ret = pp_report_sampling(ctx, key, s);
	free(s);
	return ret;
}

int pp_skip(struct pp_ctx *ctx, const char *key, const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	pp_run_skip(ctx->run, key ? key : ctx->bench, reason);
	pp_notice(ctx, "%s: skipped: %s", key ? key : ctx->bench, reason);
	return 1;
}

void pp_info(struct pp_ctx *ctx, const char *name, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pp_run_info(ctx->run, name, text);
	pp_progress(ctx, "%s: %s", name, text);
}

int pp_fail(struct pp_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->failmsg, sizeof(ctx->failmsg), fmt, ap);
	va_end(ap);
	return -1;
}

int pp_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int pp_current_cpu(void)
{
	return sched_getcpu();
}

int pp_helper_path(const struct pp_ctx *ctx, const char *name, char *buf,
		   size_t size)
{
	const char *env = getenv("PERFPROBE_LIBEXEC_DIR");
	const char *fmts[] = { "%s/%s", "%s/build/%s", "%s/../libexec/perfprobe/%s" };
	unsigned int i;

	if (env && *env) {
		snprintf(buf, size, "%s/%s", env, name);
		return access(buf, X_OK) ? -ENOENT : 0;
	}
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		int n = snprintf(buf, size, fmts[i], ctx->exe_dir, name);

		if (n > 0 && (size_t)n < size && !access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}
