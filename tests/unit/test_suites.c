// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU suites' parsers (bench/dhrystone.c ...) against the real output
 * of the suites (tests/fixtures/suites/), whole, cut short and mixed up;
 * and the option table against the suites.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench.h"
#include "benchlib/suite.h"
#include "options.h"

#define FIXTURES	"tests/fixtures/suites/"

static const char *const names[] = {
	"dhrystone", "whetstone", "linpack", "nbench", "coremark_pro",
};

static char *slurp(const char *name)
{
	char path[256];
	FILE *f;
	char *text;
	long n;

	snprintf(path, sizeof(path), FIXTURES "%s.txt", name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* The last s in text, or NULL. */
static char *last_of(char *text, const char *s)
{
	char *p, *last = NULL;

	for (p = strstr(text, s); p; p = strstr(p + 1, s))
		last = p;
	return last;
}

static const struct pp_suite *suite_of(const char *name)
{
	const struct pp_bench *b = pp_bench_find(name);

	assert_non_null(b);
	assert_non_null(b->suite);
	return b->suite;
}

static double fig(const struct pp_suite_out *out, const char *key)
{
	unsigned int i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->fig[i].key, key))
			return out->fig[i].value;
	fail_msg("no %s", key);
	return 0;
}

static int parse(const char *name, const char *text, struct pp_suite_out *out)
{
	memset(out, 0, sizeof(*out));
	return suite_of(name)->parse(text, out);
}

/* Each fixture: its figures, each declared by its benchmark. */
static void test_fixtures(void **state)
{
	struct pp_suite_out out;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *text = slurp(names[i]);

		if (!text) {
			print_message("# no fixture of %s\n", names[i]);
			continue;
		}
		assert_int_equal(parse(names[i], text, &out), 0);
		assert_false(out.again);
		assert_true(out.n > 0);
		for (k = 0; k < out.n; k++)
			assert_non_null(pp_key_decl_find(pp_bench_find(names[i])->keys,
							 out.fig[k].key));
		free(text);
	}
}

static void test_values(void **state)
{
	struct pp_suite_out out;
	char *text;

	(void)state;
	text = slurp("dhrystone");
	assert_int_equal(parse("dhrystone", text, &out), 0);
	assert_float_equal(fig(&out, "dhrystone-per_second"), 46913468.0, 0.01);
	assert_float_equal(fig(&out, "dhrystone-dmips"), 46913468.0 / 1757, 0.01);
	free(text);
	text = slurp("whetstone");
	assert_int_equal(parse("whetstone", text, &out), 0);
	assert_float_equal(fig(&out, "whetstone-mwips"), 4029.150, 1e-9);
	free(text);
	text = slurp("linpack");
	assert_int_equal(parse("linpack", text, &out), 0);
	assert_float_equal(fig(&out, "linpack-kflops"), 4331306.505, 1e-6);	/* the last row */
	free(text);
	text = slurp("coremark_pro");
	assert_int_equal(parse("coremark_pro", text, &out), 0);
	assert_int_equal(out.n, 30);
	assert_float_equal(fig(&out, "coremark_pro-score"), 2713.36, 1e-9);
	assert_float_equal(fig(&out, "coremark_pro-score-mt"), 3074.96, 1e-9);
	assert_float_equal(fig(&out, "coremark_pro-zip-test"), 29.41, 1e-9);
	assert_float_equal(fig(&out, "coremark_pro-linear_alg-mid-100x100-sp-mt"), 68.40, 1e-9);
	free(text);
	text = slurp("nbench");
	if (text) {
		assert_int_equal(parse("nbench", text, &out), 0);
		assert_int_equal(out.n, 35);
		/* after its "not 95 % certain" warnings, and on the name's line */
		assert_float_equal(fig(&out, "nbench-numeric_sort"), 1046.1, 1e-9);
		assert_float_equal(fig(&out, "nbench-idea"), 14357, 1e-9);
		assert_float_equal(fig(&out, "nbench-idea-index"), 65.20, 1e-9);
		assert_float_equal(fig(&out, "nbench-index-fp"), 106.411, 1e-9);
		assert_float_equal(fig(&out, "nbench-index_p90-integer"), 180.118, 1e-9);
		free(text);
	}
}

/* Cut before, inside or at each place a figure comes from: an error, never a figure. */
static void test_cut_short(void **state)
{
	static const struct {
		const char *name, *at;
		int off;		/* from the start of at */
	} cuts[] = {
		{ "dhrystone", "Dhrystones per Second:", 0 },
		{ "dhrystone", "Dhrystones per Second:", 10 },
		{ "dhrystone", "Execution ends", 0 },
		{ "whetstone", "\nMWIPS", 1 },
		{ "whetstone", "Calibrate", 0 },
		{ "linpack", "    2048", 20 },
		{ "linpack", "   32768", 30 },
		{ "linpack", "   32768", 0 },
		{ "linpack", "KFLOPS\n", 3 },
		{ "coremark_pro", "MARK RESULTS TABLE", 0 },
		{ "coremark_pro", "CoreMark-PRO   ", 0 },
		{ "coremark_pro", "zip-test      ", 30 },
		{ "coremark_pro", "WORKLOAD RESULTS", 0 },
		{ "nbench", "FOURIER", 0 },
		{ "nbench", "LINUX DATA BELOW", 0 },
		{ "nbench", "FLOATING-POINT INDEX", 0 },
	};
	struct pp_suite_out out;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		char *text = slurp(cuts[i].name), *p;

		if (!text)
			continue;
		p = last_of(text, cuts[i].at);
		assert_non_null(p);
		p[cuts[i].off] = '\0';
		print_message("# %s: cut %u\n", cuts[i].name, i);
		assert_int_equal(parse(cuts[i].name, text, &out), -EPROTO);
		assert_true(out.why[0]);
		free(text);
	}
}

/* Each parser refuses the others' output, nothing, and says why. */
static void test_not_theirs(void **state)
{
	struct pp_suite_out out;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		assert_int_equal(parse(names[i], "", &out), -EPROTO);
		assert_true(out.why[0]);
		for (j = 0; j < ARRAY_SIZE(names); j++) {
			char *text = slurp(names[j]);

			if (!text || i == j) {
				free(text);
				continue;
			}
			assert_int_equal(parse(names[i], text, &out), -EPROTO);
			assert_true(out.why[0]);
			free(text);
		}
	}
	assert_int_equal(parse("glmark2", "glmark2 2023.01\n=====\n", &out), -EPROTO);
	assert_int_equal(parse("glmark2", "glmark2 Score: 186\n", &out), 0);
	assert_float_equal(fig(&out, "glmark2-score"), 186, 1e-9);
}

/* Dhrystone's "too small": asked again, no figure; a wrong answer fails. */
static void test_again_and_wrong(void **state)
{
	struct pp_suite_out out;
	char *text = slurp("dhrystone"), *p;

	(void)state;
	p = strstr(text, "Microseconds for one run");
	assert_non_null(p);
	strcpy(p, "Measured time too small to obtain meaningful results\n");
	assert_int_equal(parse("dhrystone", text, &out), -EPROTO);
	assert_true(out.again);
	assert_int_equal(out.n, 0);
	free(text);
	text = slurp("whetstone");
	p = strstr(text, "\nMWIPS");
	memcpy(p + 1, "Wrong answer ", 13);
	assert_int_equal(parse("whetstone", text, &out), -EPROTO);
	free(text);
}

/* run --<name>: one option per suite, named as it, and none else. */
static void test_options(void **state)
{
	char opt[64];
	unsigned int i, n = 0;

	(void)state;
	for (i = 0; i < pp_nbenches; i++) {
		const struct pp_option *o;

		if (!pp_benches[i]->suite)
			continue;
		pp_suite_opt(pp_benches[i]->name, opt, sizeof(opt));
		o = pp_option_find("run", opt, 0);
		assert_non_null(o);
		assert_string_equal(o->cmd, "run");
		assert_true(PP_OPT_IS_SUITE(o->id));
		n++;
	}
	for (i = 0; i < pp_noptions; i++)
		if (PP_OPT_IS_SUITE(pp_options[i].id))
			n--;
	assert_int_equal(n, 0);
	pp_suite_env("coremark_pro", opt, sizeof(opt));
	assert_string_equal(opt, "PERFPROBE_COREMARK_PRO");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_not_theirs),
		cmocka_unit_test(test_again_and_wrong),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests_name("suites", tests, NULL, NULL);
}
