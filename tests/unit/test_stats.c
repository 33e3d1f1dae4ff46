// SPDX-License-Identifier: GPL-2.0
/* Statistics, loop sizing, overheads taken out, reports under declared keys. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clock.h"
#include "harness.h"
#include "benchlib/memloop.h"
#include "stats.h"

static void test_median_odd_even(void **state)
{
	const double odd[] = { 5, 1, 3 };
	const double even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_true(pp_median(odd, 3) == 3.0);
	assert_true(pp_median(even, 4) == 2.5);
	assert_true(isnan(pp_median(odd, 0)));
}

static void test_stats_known(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct pp_stats st;

	(void)state;
	assert_int_equal(pp_stats_compute(v, 8, &st), 0);
	assert_int_equal(st.n, 8);
	assert_true(st.min == 2 && st.max == 9);
	assert_true(fabs(st.mean - 5.0) < 1e-12);
	assert_true(fabs(st.median - 4.5) < 1e-12);
	/* sample stddev of this set: sqrt(32 / 7) */
	assert_true(fabs(st.stddev - sqrt(32.0 / 7.0)) < 1e-12);
	assert_true(fabs(st.cv_pct - sqrt(32.0 / 7.0) / 5.0 * 100.0) < 1e-9);
}

static void test_stats_single_and_bad(void **state)
{
	const double one[] = { 3.5 };
	const double bad[] = { 1, NAN };
	struct pp_stats st;

	(void)state;
	assert_int_equal(pp_stats_compute(one, 1, &st), 0);
	assert_true(st.stddev == 0 && st.cv_pct == 0 && st.median == 3.5);
	assert_int_not_equal(pp_stats_compute(one, 0, &st), 0);
	assert_int_not_equal(pp_stats_compute(bad, 2, &st), 0);
}

static void test_loop_sizing(void **state)
{
	(void)state;
	/* proportional: 100 iters took 1 ms, 10 ms wanted */
	assert_int_equal(pp_next_iters(100, 1000000, 10000000), 1000);
	/* never more than 16x per step, even when the pass was very short */
	assert_int_equal(pp_next_iters(10, 10, 10000000), 160);
	/* a pass that took no measurable time grows 16x */
	assert_int_equal(pp_next_iters(1, 0, 10000000), 16);
	/* slow operations: at least one iteration */
	assert_int_equal(pp_next_iters(1, 50000000, 10000000), 1);
	/* shrink when one pass was too long */
	assert_int_equal(pp_next_iters(1000, 20000000, 10000000), 500);
	/* 0 is treated as 1 */
	assert_int_equal(pp_next_iters(0, 1000, 1000), 1);
}

static volatile uint64_t count_sink;

static int count_calls(uint64_t iters, void *arg)
{
	uint64_t *total = arg;

	*total += iters;
	while (iters-- > 0)
		count_sink += iters;
	return 0;
}

/* The quietest window: a burst of disturbance is left out, not averaged in. */
static void test_quietest_window(void **state)
{
	/* 1-4 quiet, 5-8 disturbed, 9-14 quiet */
	static const double v[] = { 10, 10.1, 9.9, 10, 30, 55, 12, 40, 10, 10, 10.05, 9.95, 10, 10 };
	static const double flat[] = { 5, 5, 5, 5, 5 };

	(void)state;
	assert_int_equal(pp_quietest_window(v, 14, 5), 8);
	assert_true(pp_cv_pct(v + 8, 5) < 1);
	assert_int_equal(pp_quietest_window(v, 8, 4), 0);	/* before the burst */
	/* a tie: the first; a window as long as the data: 0 */
	assert_int_equal(pp_quietest_window(flat, 5, 2), 0);
	assert_int_equal(pp_quietest_window(v, 14, 14), 0);
	assert_true(pp_cv_pct(v, 1) == 0);
}

/* lat_ctx's invariant: a 128k switch cannot be cheaper than the 0k one. */
static void test_below_beyond_noise(void **state)
{
	double tol;

	(void)state;
	/* lat_ctx.rst's case: 0.42 us at 128k against 2.0 us at 0k */
	assert_true(pp_below_beyond_noise(0.42, 3, 2.0, 2, 10, &tol));
	assert_true(tol == 10);
	/* within the floor, or within twice the larger CV: possible */
	assert_false(pp_below_beyond_noise(1.85, 1, 2.0, 1, 10, &tol));
	assert_false(pp_below_beyond_noise(1.5, 15, 2.0, 2, 10, &tol));
	assert_true(tol == 30);
	/* above the base: always possible */
	assert_false(pp_below_beyond_noise(5.0, 0, 2.0, 0, 10, NULL));
}

static void test_sample_counts(void **state)
{
	struct pp_run run;
	struct pp_ctx ctx = { 0 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	uint64_t total = 0;
	unsigned int i;

	(void)state;
	pp_run_init(&run);
	ctx.run = &run;
	ctx.opts.samples = 7;
	ctx.opts.target_ms = 1;
	assert_int_equal(pp_sample(&ctx, count_calls, &total, NULL, s), 0);
	assert_int_equal(s->n, 7);
	assert_true(s->iters >= 1);
	/* calibration + warm-up + 7 samples */
	assert_true(total >= 8 * s->iters);
	for (i = 0; i < s->n; i++)
		assert_true(s->ns_per_op[i] > 0);
	test_free(s);
	pp_run_free(&run);
}

/* 1 us an iteration, spun; every third pass four times as long. */
static int every_third_slow(uint64_t iters, void *arg)
{
	unsigned int *calls = arg;
	uint64_t t0 = pp_now_ns(), want = iters * 1000 * (++*calls % 3 ? 1 : 4);

	while (pp_now_ns() - t0 < want)
		;
	return 0;
}

/*
 * Noise that lasts: every window of n samples holds a slow third, so the
 * resampling goes to its bound, QUIET_ROUNDS (3) more sets, and no
 * further; the result stays noisy.  With --quick, none.  Load can only add
 * to the spread, so this holds on any machine.
 */
static void test_sample_quieten_bound(void **state)
{
	struct pp_run run;
	struct pp_ctx ctx = { 0 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	unsigned int calls = 0;

	(void)state;
	pp_run_init(&run);
	ctx.run = &run;
	ctx.opts.samples = 7;
	ctx.opts.target_ms = 1;
	ctx.opts.noise_pct = 5;
	assert_int_equal(pp_sample(&ctx, every_third_slow, &calls, NULL, s), 0);
	assert_int_equal(s->n, 7);
	assert_int_equal(s->taken, 4 * 7);
	assert_true(s->first_cv_pct > 5);
	assert_true(pp_cv_pct(s->ns_per_op, s->n) > 5);

	ctx.opts.quick = true;
	assert_int_equal(pp_sample(&ctx, every_third_slow, &calls, NULL, s), 0);
	assert_int_equal(s->taken, 0);
	test_free(s);
	pp_run_free(&run);
}

static int failing(uint64_t iters, void *arg)
{
	(void)iters;
	(void)arg;
	return -5;
}

static void test_sample_failure(void **state)
{
	struct pp_run run;
	struct pp_ctx ctx = { 0 };
	struct pp_sampling *s = test_malloc(sizeof(*s));

	(void)state;
	pp_run_init(&run);
	ctx.run = &run;
	ctx.opts.samples = 3;
	ctx.opts.target_ms = 1;
	assert_int_equal(pp_sample(&ctx, failing, NULL, NULL, s), -5);
	test_free(s);
}

static void fill(struct pp_sampling *s, const double *v, unsigned int n)
{
	memcpy(s->ns_per_op, v, n * sizeof(*v));
	s->n = n;
	s->taken = 0;		/* by hand: nothing taken beyond n */
	s->hogs[0] = '\0';
}

/* Net samples: all above zero, or nothing changes. */
static void test_sampling_net(void **state)
{
	const double good[] = { 110, 120, 130 }, bad[] = { 100, 100, 100, 197.9, 100 };
	struct pp_sampling *s = test_malloc(sizeof(*s));

	(void)state;
	fill(s, good, 3);
	assert_true(pp_sampling_net(s, 100, 2));
	assert_true(s->ns_per_op[0] == 5 && s->ns_per_op[1] == 10 && s->ns_per_op[2] == 15);
	/* lat_sig-catch's [0, 0, 0, 97.9, 0]: refused, samples untouched */
	fill(s, bad, 5);
	assert_false(pp_sampling_net(s, 100, 1));
	assert_memory_equal(s->ns_per_op, bad, sizeof(bad));
	/* below zero, NaN, a bad divisor */
	fill(s, good, 3);
	assert_false(pp_sampling_net(s, 115, 1));
	assert_false(pp_sampling_net(s, NAN, 1));
	assert_false(pp_sampling_net(s, 0, 0));
	assert_memory_equal(s->ns_per_op, good, sizeof(good));
	test_free(s);
}

/* Synthetic measurements: attempt k gets script[k]; overhead 100 ns. */
struct script {
	const double (*v)[5];
	unsigned int nv, calls;
	int err;
};

static int scripted(struct pp_ctx *ctx, void *arg, unsigned int attempt,
		    struct pp_sampling *s, double *overhead_ns)
{
	struct script *sc = arg;

	(void)ctx;
	assert_int_equal(attempt, sc->calls);
	sc->calls++;
	if (sc->err)
		return sc->err;
	fill(s, sc->v[attempt < sc->nv ? attempt : sc->nv - 1], 5);
	*overhead_ns = 100;
	return 0;
}

static void net_ctx(struct pp_ctx *ctx, struct pp_run *run)
{
	memset(ctx, 0, sizeof(*ctx));
	pp_run_init(run);
	ctx->run = run;
	ctx->bench = "test";
}

static void test_sample_net(void **state)
{
	static const double v[][5] = {
		{ 100, 100, 100, 197.9, 100 },	/* the impossible one */
		{ 150, 160, 170, 180, 190 },
	};
	struct script sc = { v, 2, 0, 0 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	struct pp_run run;
	struct pp_ctx ctx;

	(void)state;
	/* measured again, then net */
	net_ctx(&ctx, &run);
	assert_int_equal(pp_sample_net(&ctx, "t-a", scripted, &sc, 1, s), 0);
	assert_int_equal(sc.calls, 2);
	assert_true(s->ns_per_op[0] == 50 && s->ns_per_op[4] == 90);
	assert_int_equal(run.nskips, 0);

	/* impossible every time: skipped with the reason, nothing reported */
	sc = (struct script){ v, 1, 0, 0 };
	assert_int_equal(pp_sample_net(&ctx, "t-b", scripted, &sc, 1, s), 1);
	assert_int_equal(sc.calls, PP_NET_ATTEMPTS);
	assert_int_equal(run.nskips, 1);
	assert_string_equal(run.skips[0].name, "t-b");
	assert_non_null(strstr(run.skips[0].reason, "at or below the overhead"));
	assert_int_equal(run.nresults, 0);

	/* an error of the measurement fails, -EDOM (the empty loop) skips */
	sc = (struct script){ v, 1, 0, -EIO };
	assert_int_equal(pp_sample_net(&ctx, "t-c", scripted, &sc, 1, s), -1);
	assert_non_null(strstr(ctx.failmsg, "t-c"));
	sc = (struct script){ v, 1, 0, -EDOM };
	assert_int_equal(pp_sample_net(&ctx, "t-d", scripted, &sc, 1, s), 1);
	assert_int_equal(sc.calls, 1);
	assert_string_equal(run.skips[1].name, "t-d");
	pp_run_free(&run);
	test_free(s);
}

/* An empty loop that costs more than any pass: -EDOM after every attempt. */
static void test_sample_loop_overhead(void **state)
{
	struct pp_sampling *s = test_malloc(sizeof(*s));
	uint64_t total = 0;
	struct pp_run run;
	struct pp_ctx ctx;

	(void)state;
	net_ctx(&ctx, &run);
	ctx.opts.samples = 3;
	ctx.opts.target_ms = 1;
	run.meta.loop_overhead_ns = 1e12;
	assert_int_equal(pp_sample(&ctx, count_calls, &total, NULL, s), -EDOM);
	/* calibration + warm-up + every attempt's 3 samples */
	assert_true(total >= (1 + PP_NET_ATTEMPTS * 3) * s->iters);
	assert_int_equal(pp_sample_err(&ctx, "t-e", -EDOM), 1);
	assert_non_null(strstr(run.skips[0].reason, "empty loop"));
	pp_run_free(&run);
	test_free(s);
}

static const struct pp_key_decl test_keys[] = {
	{ .pattern = "t-lat", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a latency" },
	{ .pattern = "t-bw-%ukb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "a bandwidth" },
	PP_KEYS_END
};

/* Unit and direction come from the declaration; undeclared keys fail. */
static void test_report_declared(void **state)
{
	const double v[] = { 1000, 2000, 3000 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	const struct pp_result *r;
	struct pp_run run;
	struct pp_ctx ctx;

	(void)state;
	net_ctx(&ctx, &run);
	ctx.keys = test_keys;
	ctx.opts.noise_pct = 5;
	fill(s, v, 3);
	s->iters = 1;
	assert_int_equal(pp_report_sampling(&ctx, "t-lat", s), 0);
	r = pp_run_find(&run, "t-lat");
	assert_non_null(r);
	assert_string_equal(r->unit, "us");
	assert_true(r->value == 2.0);		/* ns -> us */
	assert_int_equal(r->dir, PP_LOWER_IS_BETTER);

	assert_int_equal(pp_report(&ctx, "t-bw-64kb", v, 3, 1), 0);
	r = pp_run_find(&run, "t-bw-64kb");
	assert_string_equal(r->unit, "MB/s");
	assert_int_equal(r->dir, PP_HIGHER_IS_BETTER);

	assert_int_equal(pp_report(&ctx, "t-nope", v, 3, 1), -1);
	assert_non_null(strstr(ctx.failmsg, "t-nope: result key not declared by test"));
	assert_int_equal(pp_report(&ctx, "t-bw-xkb", v, 3, 1), -1);
	/* a time per op in a bandwidth's key, a helper's unit that disagrees */
	assert_int_equal(pp_report_sampling(&ctx, "t-bw-1kb", s), -1);
	assert_non_null(strstr(ctx.failmsg, "not a time per operation"));
	assert_int_equal(pp_key_declared_in(&ctx, "t-lat", "MB/s"), -1);
	assert_non_null(strstr(ctx.failmsg, "declared in us, reported in MB/s"));
	assert_int_equal(pp_key_declared_in(&ctx, "t-bw-1kb", "MB/s"), 0);
	/* no declarations at all: nothing can be reported */
	ctx.keys = NULL;
	assert_int_equal(pp_report(&ctx, "t-lat", v, 3, 1), -1);
	assert_int_equal(run.nresults, 2);
	pp_run_free(&run);
	test_free(s);
}

/*
 * A result measured again is replaced in place: its samples, statistics
 * and the one note on its sampling; it stays where it was, and once.  A
 * key never reported cannot be reported again.
 */
static void test_report_again(void **state)
{
	const double a[] = { 1000, 2000, 9000 }, b[] = { 500, 600, 700 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	const struct pp_result *r;
	struct pp_run run;
	struct pp_ctx ctx;

	(void)state;
	net_ctx(&ctx, &run);
	ctx.keys = test_keys;
	ctx.opts.noise_pct = 5;
	fill(s, a, 3);
	s->iters = 1;
	assert_int_equal(pp_report_sampling(&ctx, "t-lat", s), 0);
	assert_int_equal(pp_report(&ctx, "t-bw-64kb", a, 3, 1), 0);
	assert_true(pp_run_find(&run, "t-lat")->noisy);
	pp_run_info(&run, "t-lat-samples", "first");
	pp_run_info(&run, "t-lat-samples", "second");
	assert_int_equal(run.ninfos, 1);
	assert_string_equal(pp_run_find_info(&run, "t-lat-samples"), "second");

	fill(s, b, 3);
	assert_int_equal(pp_report_sampling_again(&ctx, "t-lat", s), 0);
	assert_int_equal(run.nresults, 2);
	r = &run.results[0];
	assert_string_equal(r->key, "t-lat");
	assert_int_equal(r->nsamples, 3);
	assert_true(fabs(r->samples[0] - 0.5) < 1e-9 && fabs(r->samples[2] - 0.7) < 1e-9);
	assert_true(fabs(r->value - 0.6) < 1e-9 && r->value == r->st.median);
	assert_true(r->noisy == (r->st.cv_pct > 5));

	assert_int_equal(pp_report_sampling_again(&ctx, "t-bw-1kb", s), -1);
	assert_int_equal(pp_report_sampling_again(&ctx, "t-nope", s), -1);
	assert_int_equal(run.nresults, 2);
	pp_run_free(&run);
	test_free(s);
}

/*
 * run --rounds: a key reported again in a later round gets that round's
 * samples after the earlier ones and each round's median; a reference
 * measured again in a round replaces that round's samples only.  A run
 * of one round records no rounds.
 */
static void test_report_rounds(void **state)
{
	const double a[] = { 1000, 2000, 3000 }, b[] = { 4000, 5000, 6000 };
	const double c[] = { 7000, 8000, 9000 };
	struct pp_sampling *s = test_malloc(sizeof(*s));
	const struct pp_result *r;
	struct pp_run run;
	struct pp_ctx ctx;

	(void)state;
	net_ctx(&ctx, &run);
	ctx.keys = test_keys;
	ctx.opts.noise_pct = 5;
	fill(s, a, 3);
	s->iters = 1;
	assert_int_equal(pp_report_sampling(&ctx, "t-lat", s), 0);
	r = pp_run_find(&run, "t-lat");
	assert_int_equal(r->nrounds, 0);
	assert_null(r->rounds);

	ctx.round = 1;
	fill(s, b, 3);
	assert_int_equal(pp_report_sampling(&ctx, "t-lat", s), 0);
	assert_int_equal(run.nresults, 1);
	r = pp_run_find(&run, "t-lat");
	assert_int_equal(r->nsamples, 6);
	assert_int_equal(r->nrounds, 2);
	assert_true(fabs(r->rounds[0] - 2.0) < 1e-9 && fabs(r->rounds[1] - 5.0) < 1e-9);
	assert_true(fabs(r->samples[3] - 4.0) < 1e-9 && fabs(r->st.median - 3.5) < 1e-9);

	fill(s, c, 3);
	assert_int_equal(pp_report_sampling_again(&ctx, "t-lat", s), 0);
	assert_int_equal(r->nsamples, 6);
	assert_int_equal(r->nrounds, 2);
	assert_true(fabs(r->samples[0] - 1.0) < 1e-9 && fabs(r->samples[3] - 7.0) < 1e-9);
	assert_true(fabs(r->rounds[0] - 2.0) < 1e-9 && fabs(r->rounds[1] - 8.0) < 1e-9);
	pp_run_free(&run);
	test_free(s);
}

/*
 * pp_bread(), lmbench's bread(): every long of the bytes asked for is
 * summed once, through the unrolled chunks and the tail alike, and
 * nothing past them.
 */
static void test_bread_sums_every_long(void **state)
{
	static unsigned long buf[3 * PP_CHUNK_WORDS + 7 + 1];
	const size_t n = 3 * PP_CHUNK_WORDS + 7;
	unsigned long want = 0;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++) {
		buf[i] = i * 2654435761ul + 1;
		want += buf[i];
	}
	buf[n] = 12345;		/* beyond the bytes asked for */
	assert_true(pp_bread(buf, n * sizeof(buf[0])) == want);
	/* a trailing partial long is not read, as lmbench's */
	assert_true(pp_bread(buf, n * sizeof(buf[0]) + 3) == want);
	assert_true(pp_bread(buf, 0) == 0);
	assert_true(pp_bread(buf, PP_CHUNK_WORDS * sizeof(buf[0])) ==
		    pp_bread(buf, (PP_CHUNK_WORDS - 1) * sizeof(buf[0])) + buf[PP_CHUNK_WORDS - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_stats_known),
		cmocka_unit_test(test_stats_single_and_bad),
		cmocka_unit_test(test_loop_sizing),
		cmocka_unit_test(test_quietest_window),
		cmocka_unit_test(test_below_beyond_noise),
		cmocka_unit_test(test_bread_sums_every_long),
		cmocka_unit_test(test_sample_counts),
		cmocka_unit_test(test_sample_quieten_bound),
		cmocka_unit_test(test_sample_failure),
		cmocka_unit_test(test_sampling_net),
		cmocka_unit_test(test_sample_net),
		cmocka_unit_test(test_sample_loop_overhead),
		cmocka_unit_test(test_report_declared),
		cmocka_unit_test(test_report_again),
		cmocka_unit_test(test_report_rounds),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
