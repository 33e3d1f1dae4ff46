// SPDX-License-Identifier: GPL-2.0
/* Statistics and loop sizing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"
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

static int count_calls(uint64_t iters, void *arg)
{
	uint64_t *total = arg;
	volatile uint64_t x = 0;

	*total += iters;
	while (iters-- > 0)
		x += iters;
	return 0;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_stats_known),
		cmocka_unit_test(test_stats_single_and_bad),
		cmocka_unit_test(test_loop_sizing),
		cmocka_unit_test(test_sample_counts),
		cmocka_unit_test(test_sample_failure),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
