// SPDX-License-Identifier: GPL-2.0
/* The print layer: the same calls rendered as text and as JSON. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "print.h"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

/* Close the stream; the text it got stays in c->buf (to be freed). */
static void cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
}

/* One record written once, with every kind of field and nesting. */
static void record(void)
{
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-test");
	pp_print_string(PP_ANY, "name", "name: %s\n", "a \"quoted\"\tname\\");
	pp_print_u64(PP_ANY, "count", "count: %llu\n", 18446744073709551615ULL);
	pp_print_uint(PP_ANY, "abi", "abi %u", 1);
	pp_print_int(PP_ANY, "delta", ", delta %d\n", -7);
	pp_print_double(PP_ANY, "cost_ns", "cost %.1f ns\n", 12.5);
	pp_print_double(PP_JSON, "nan", NULL, NAN);
	pp_print_ns(PP_ANY, "late_ns", "late %s\n", 1500);
	pp_print_bool(PP_ANY, "loaded", "loaded: %s\n", true);
	pp_print_null(PP_ANY, "signal", "signal: %s\n", "none");
	pp_print_string(PP_ANY, "missing", "missing: %s\n", NULL);
	pp_print_text("-- %s --\n", "text only");
	pp_print_open_object("caps");
	pp_print_bool(PP_JSON, "trace", NULL, false);
	pp_print_string(PP_FP, NULL, "trace: %s\n", "not available");
	pp_print_close_object();
	pp_print_open_array("hist");
	for (unsigned int k = 1; k <= 2; k++) {
		pp_print_open_object(NULL);
		pp_print_uint(PP_ANY, "log2", "  [%u]", k);
		pp_print_u64(PP_ANY, "count", " %llu", k * 10);
		pp_print_close_object();
		pp_print_nl();
	}
	pp_print_close_array();
	pp_print_open_array("argv");
	pp_print_string(PP_JSON, NULL, NULL, "bad\xff-utf8");
	pp_print_close_array();
}

static void test_text(void **state)
{
	struct capture c;

	(void)state;
	cap_open(&c);
	pp_print_start(c.f, false);
	assert_false(pp_print_json());
	record();
	assert_int_equal(pp_print_end(), 0);
	cap_close(&c);
	assert_string_equal(c.buf,
			    "name: a \"quoted\"\tname\\\n"
			    "count: 18446744073709551615\n"
			    "abi 1, delta -7\n"
			    "cost 12.5 ns\n"
			    "late 1.5 us\n"
			    "loaded: yes\n"
			    "signal: none\n"
			    "missing: -\n"
			    "-- text only --\n"
			    "trace: not available\n"
			    "  [1] 10\n"
			    "  [2] 20\n");
	free(c.buf);
}

static json_t *render_json(struct capture *c)
{
	json_error_t je;
	json_t *root;

	cap_open(c);
	pp_print_start(c->f, true);
	assert_true(pp_print_json());
	record();
	assert_int_equal(pp_print_end(), 0);
	cap_close(c);
	/* exactly one document: anything after it is an error */
	root = json_loads(c->buf, 0, &je);
	if (!root)
		fail_msg("not one JSON document: %s: %s", je.text, c->buf);
	return root;
}

static void test_json(void **state)
{
	struct capture c;
	json_t *root, *h;

	(void)state;
	root = render_json(&c);
	assert_string_equal(json_string_value(json_object_get(root, "format")),
			    "perfprobe-test");
	/* escaping is jansson's: the raw text has the escapes */
	assert_string_equal(json_string_value(json_object_get(root, "name")),
			    "a \"quoted\"\tname\\");
	assert_non_null(strstr(c.buf, "\"a \\\"quoted\\\"\\tname\\\\\""));
	/* above INT64_MAX: a number still, not a wrapped negative one */
	assert_true(json_is_real(json_object_get(root, "count")));
	assert_true(json_real_value(json_object_get(root, "count")) > 1.8e19);
	assert_int_equal(json_integer_value(json_object_get(root, "abi")), 1);
	assert_int_equal(json_integer_value(json_object_get(root, "delta")), -7);
	assert_true(json_real_value(json_object_get(root, "cost_ns")) == 12.5);
	assert_true(json_is_null(json_object_get(root, "nan")));
	assert_int_equal(json_integer_value(json_object_get(root, "late_ns")), 1500);
	assert_true(json_is_true(json_object_get(root, "loaded")));
	assert_true(json_is_null(json_object_get(root, "signal")));
	assert_true(json_is_null(json_object_get(root, "missing")));
	assert_true(json_is_false(json_object_get(json_object_get(root, "caps"), "trace")));
	assert_int_equal(json_object_size(json_object_get(root, "caps")), 1);
	h = json_object_get(root, "hist");
	assert_int_equal(json_array_size(h), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 1), "log2")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 1), "count")), 20);
	assert_string_equal(json_string_value(json_array_get(json_object_get(root, "argv"), 0)),
			    "bad?-utf8");
	/* text-only output never reaches the document */
	assert_null(strstr(c.buf, "text only"));
	assert_null(strstr(c.buf, "not available"));
	assert_int_equal(json_object_size(root), 14);
	json_decref(root);
	free(c.buf);
}

/* A misuse is an error and the document is not written at all. */
static void misuse(void (*fn)(void))
{
	struct capture c;

	cap_open(&c);
	pp_print_start(c.f, true);
	fn();
	assert_int_equal(pp_print_end(), -EINVAL);
	cap_close(&c);
	assert_int_equal(c.len, 0);
	free(c.buf);
}

static void dup_key(void)
{
	pp_print_uint(PP_ANY, "count", NULL, 1);
	pp_print_uint(PP_ANY, "count", NULL, 2);
}

static void no_key(void)
{
	pp_print_uint(PP_ANY, NULL, NULL, 1);
}

static void left_open(void)
{
	pp_print_open_array("a");
}

static void wrong_close(void)
{
	pp_print_open_array("a");
	pp_print_close_object();
	pp_print_close_array();
}

static void close_root(void)
{
	pp_print_close_object();
}

static void too_deep(void)
{
	unsigned int i;

	for (i = 0; i <= PP_PRINT_DEPTH; i++)
		pp_print_open_object("o");
	for (i = 0; i <= PP_PRINT_DEPTH; i++)
		pp_print_close_object();
}

static void test_misuse(void **state)
{
	(void)state;
	misuse(dup_key);
	misuse(no_key);
	misuse(left_open);
	misuse(wrong_close);
	misuse(close_root);
	misuse(too_deep);
}

/* The deepest nesting allowed works, and a new document starts clean. */
static void test_depth_and_restart(void **state)
{
	struct capture c;
	unsigned int i;
	json_t *root, *o;

	(void)state;
	misuse(dup_key);
	cap_open(&c);
	pp_print_start(c.f, true);
	for (i = 0; i < PP_PRINT_DEPTH; i++)
		pp_print_open_object("o");
	pp_print_uint(PP_ANY, "deep", NULL, 1);
	for (i = 0; i < PP_PRINT_DEPTH; i++)
		pp_print_close_object();
	assert_int_equal(pp_print_end(), 0);
	cap_close(&c);
	root = json_loads(c.buf, 0, NULL);
	assert_non_null(root);
	for (o = root, i = 0; i < PP_PRINT_DEPTH; i++)
		o = json_object_get(o, "o");
	assert_int_equal(json_integer_value(json_object_get(o, "deep")), 1);
	json_decref(root);
	free(c.buf);
}

/* Figures for people: 4 significant digits, plain, never an exponent. */
static void test_fmt_num(void **state)
{
	static const struct {
		double v;
		const char *text;
	} num[] = {
		{ 109412.7, "109400" }, { 2.0694, "2.069" }, { 2.28, "2.28" },
		{ 3069, "3069" }, { 0.000718, "0.000718" }, { 0.00071849, "0.0007185" },
		{ 1, "1" }, { 0, "0" }, { -0.0, "0" }, { -12.3456, "-12.35" },
		{ 9999.6, "10000" }, { 0.99996, "1" }, { 1.234567e9, "1235000000" },
		{ 1e-300, "0" }, { NAN, "-" },
	};
	static const struct {
		double ns;
		const char *text;
	} dur[] = {
		{ 0.376, "0.376 ns" }, { 850, "850 ns" }, { 1024.4, "1.024 us" },
		{ 3.5e6, "3.5 ms" }, { 2e9, "2 s" }, { -29812, "-29.81 us" },
		{ NAN, "-" },
	};
	char buf[PP_NUM_LEN + 4];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(num); i++) {
		pp_fmt_num(buf, sizeof(buf), num[i].v);
		assert_string_equal(buf, num[i].text);
	}
	for (i = 0; i < ARRAY_SIZE(dur); i++) {
		pp_fmt_ns(buf, sizeof(buf), dur[i].ns);
		assert_string_equal(buf, dur[i].text);
	}
	/* the largest figure it promises fits */
	pp_fmt_num(buf, PP_NUM_LEN, -9.999e19);
	assert_string_equal(buf, "-99990000000000000000");
	pp_fmt_num(buf, PP_NUM_LEN, -1.234e-12);
	assert_string_equal(buf, "-0.000000000001234");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_depth_and_restart),
		cmocka_unit_test(test_fmt_num),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
