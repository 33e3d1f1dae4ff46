// SPDX-License-Identifier: GPL-2.0
/*
 * Declared result keys: the pattern syntax, every benchmark's
 * declarations, the summary tables' columns against them, and "perfprobe
 * list -v" (text and JSON) showing every one of them.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench.h"
#include "cli.h"
#include "report/import.h"
#include "report/summary.h"

static void test_match(void **state)
{
	(void)state;
	assert_true(pp_key_match("lat_pipe", "lat_pipe"));
	assert_false(pp_key_match("lat_pipe", "lat_pipe-x"));
	assert_false(pp_key_match("lat_pipe-x", "lat_pipe"));
	assert_true(pp_key_match("lat_ctx-%u-%uk", "lat_ctx-16-64k"));
	assert_false(pp_key_match("lat_ctx-%u-%uk", "lat_ctx-16-k"));
	assert_false(pp_key_match("lat_ctx-%u-%uk", "lat_ctx-x-64k"));
	assert_true(pp_key_match("lat_mem_rd-stride%u-sz%s", "lat_mem_rd-stride128-sz31k"));
	assert_true(pp_key_match("lat_mem_rd-stride%u-sz%s", "lat_mem_rd-stride16-sz512"));
	/* %s is one word: no '-' */
	assert_false(pp_key_match("net-tcp_stream-%s", "net-tcp_stream-1448-cpu_local"));
	assert_true(pp_key_match("net-%s-%s-cpu_local", "net-tcp_stream-1448-cpu_local"));
	assert_true(pp_key_match("net-%s-%u-p%u", "net-tcp_rr-1-p99"));
	/* '*' takes '-' too, and backtracks */
	assert_true(pp_key_match("crypto-evp-*-%u", "crypto-evp-aes-128-cbc-16384"));
	assert_false(pp_key_match("crypto-evp-*-%u", "crypto-evp-aes-128-cbc-cpu_load"));
	assert_true(pp_key_match("crypto-evp-*-cpu_load", "crypto-evp-aes-128-cbc-cpu_load"));
	/* a conversion is never empty */
	assert_false(pp_key_match("a-%s", "a-"));
	assert_false(pp_key_match("a-*", "a-"));
	assert_false(pp_key_match("a%u", "a"));

	assert_true(pp_key_pattern_valid("lat_ctx-%u-%uk"));
	assert_true(pp_key_pattern_valid("crypto-evp-*-cpu_load"));
	assert_false(pp_key_pattern_valid("lat_ctx-%d"));
	assert_false(pp_key_pattern_valid("Lat"));
	assert_false(pp_key_pattern_valid("a--b"));
}

/* A key a pattern stands for: each conversion given a value. */
static void instance(const char *pattern, char *buf, size_t size)
{
	size_t n = 0;

	for (; *pattern && n + 2 < size; pattern++) {
		if (*pattern == '%') {
			pattern++;
			buf[n++] = *pattern == 'u' ? '7' : 'x';
		} else {
			buf[n++] = *pattern == '*' ? 'x' : *pattern;
		}
	}
	buf[n] = '\0';
}

/* The benchmarks whose declarations match key. */
static unsigned int declared_by(const char *key, const struct pp_bench **by)
{
	unsigned int b, n = 0;

	for (b = 0; b < pp_nbenches; b++)
		if (pp_key_decl_find(pp_benches[b]->keys, key)) {
			*by = pp_benches[b];
			n++;
		}
	return n;
}

/*
 * Every declaration is well formed, and the keys it stands for are its
 * own: no earlier declaration of the benchmark shadows it, and no other
 * benchmark declares them.
 */
static void test_declarations(void **state)
{
	unsigned int b, total = 0;

	(void)state;
	for (b = 0; b < pp_nbenches; b++) {
		const struct pp_bench *bench = pp_benches[b], *by = NULL;
		const struct pp_key_decl *k;

		assert_non_null(bench->keys);
		assert_non_null(bench->keys->pattern);
		for (k = bench->keys; k->pattern; k++) {
			char key[PP_KEY_MAX];

			instance(k->pattern, key, sizeof(key));
			print_message("# %s: %s (%s) %s %s\n", bench->name, k->pattern, key,
				      k->unit, pp_dir_name(k->dir));
			assert_true(pp_key_pattern_valid(k->pattern));
			assert_true(k->unit && *k->unit && strlen(k->unit) < PP_UNIT_MAX);
			assert_true(k->dir == PP_LOWER_IS_BETTER || k->dir == PP_HIGHER_IS_BETTER);
			assert_true(k->desc && *k->desc);
			assert_ptr_equal(pp_key_decl_find(bench->keys, key), k);
			assert_int_equal(declared_by(key, &by), 1);
			total++;
		}
	}
	assert_true(total >= pp_nbenches);
}

/* A summary column's key: exact, or "prefix*" for the largest size. */
static bool column_declared(const char *key)
{
	static const char *const sizes[] = { "1", "1b", "1k", "1kb", "1m", "1mb" };
	const struct pp_bench *by;
	char buf[PP_KEY_MAX];
	size_t len = strlen(key);
	unsigned int i;

	if (!len || key[len - 1] != '*')
		return declared_by(key, &by) == 1;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(buf, sizeof(buf), "%.*s%s", (int)(len - 1), key, sizes[i]);
		if (declared_by(buf, &by) == 1)
			return true;
	}
	return false;
}

/*
 * Where the keys are shown (keys.h): every entry's key is its
 * declaration's (a '*' prefix of its keys, a template of them); every
 * lmbench line and column is one key's; the tables it names exist.
 */
static void test_show_entries(void **state)
{
	unsigned int b, b2, n = 0;

	(void)state;
	for (b = 0; b < pp_nbenches; b++) {
		const struct pp_key_decl *d, *d2;
		const struct pp_key_show *s, *s2;

		for (d = pp_benches[b]->keys; d->pattern; d++) {
			for (s = d->show; s && !pp_show_end(s); s++, n++) {
				const char *k = pp_show_key(d, s);
				char key[PP_KEY_MAX];

				print_message("# %s: %s%s%s%s%s\n", d->pattern, k,
					      s->table ? " table " : "", s->table ? s->table : "",
					      s->chart ? " chart " : "", s->chart ? s->chart : "");
				instance(k, key, sizeof(key));
				if (s->role == PP_CHART_INFO_MARKS)
					assert_true(s->chart && pp_key_valid(k));
				else if (k[strlen(k) - 1] == '*')
					assert_true(column_declared(k));
				else
					assert_true(pp_key_pattern_valid(k) && pp_key_match(d->pattern, key));
				if (s->table && s->col) {
					unsigned int t;

					assert_true(pp_key_valid(k) || k[strlen(k) - 1] == '*');
					for (t = 0; pp_table(t) && strcmp(pp_table(t)->id, s->table); t++)
						;
					assert_non_null(pp_table(t));
				}
				if (s->lm_col && s->table)
					assert_in_range(s->lm_col, 1, pp_import_table_cols(s->table));
				assert_true(!s->lm_col || s->table || s->lm_block);
				assert_true(!s->lm_line || *s->lm_line);
				/* a line, a column of lmbench's, a block header: one key's */
				for (b2 = 0; b2 < pp_nbenches; b2++)
					for (d2 = pp_benches[b2]->keys; d2->pattern; d2++)
						for (s2 = d2->show; s2 && !pp_show_end(s2); s2++) {
							if (s2 == s)
								continue;
							assert_false(s->lm_line && s2->lm_line &&
								     !strcmp(s->lm_line, s2->lm_line));
							assert_false(s->lm_col && s->table &&
								     s2->lm_col == s->lm_col && s2->table &&
								     !strcmp(s->table, s2->table));
							if (s->lm_block && s2->lm_block &&
							    !strcmp(s->lm_block, s2->lm_block))
								assert_int_equal(s->lm_rows, s2->lm_rows);
						}
			}
			/* the list ends with an empty entry, not one that forgot its place */
			if (s)
				assert_null(s->key);
		}
	}
	assert_true(n > 0);
}

/*
 * Every table's columns: those its declarations name, one to its last
 * without a gap, each with one header of its width and one key or more.
 */
static void test_summary_columns(void **state)
{
	const struct pp_key_table *t;
	struct pp_col cols[PP_TABLE_COLS];
	struct pp_matrix mx;
	unsigned int i, j, c, n, m;

	(void)state;
	for (i = 0; (t = pp_table(i)); i++) {
		unsigned int last = t->mhz_col, b, heads, nkeys;

		for (j = 0; j < i; j++)
			assert_string_not_equal(pp_table(j)->id, t->id);
		n = pp_table_cols(t, cols, ARRAY_SIZE(cols));
		for (b = 0; b < pp_nbenches; b++) {
			const struct pp_key_decl *d;
			const struct pp_key_show *s;

			for (d = pp_benches[b]->keys; d->pattern; d++)
				for (s = d->show; s && !pp_show_end(s); s++)
					if (s->table && !strcmp(s->table, t->id) && s->col > last)
						last = s->col;
		}
		print_message("# %s: %u columns, the last named %u\n", t->id, n, last);
		assert_int_equal(n, last);
		assert_true(n > 0 && n < PP_TABLE_COLS);
		for (c = 0; c < n; c++) {
			print_message("#   %u: '%s' '%s' %u keys\n", c + 1, cols[c].h1, cols[c].h2,
				      cols[c].nkeys);
			assert_true(cols[c].width > 0);
			assert_int_equal(strlen(cols[c].h1), cols[c].width);
			assert_int_equal(strlen(cols[c].h2), cols[c].width);
			assert_true(cols[c].mhz == (c + 1 == t->mhz_col));
			assert_true(cols[c].mhz ? !cols[c].nkeys : cols[c].nkeys > 0);
			for (j = 0; j < cols[c].nkeys; j++)
				assert_true(column_declared(cols[c].keys[j]));
			/* one key of the column gives its header; none is left out */
			heads = nkeys = 0;
			for (b = 0; b < pp_nbenches; b++) {
				const struct pp_key_decl *d;
				const struct pp_key_show *s;

				for (d = pp_benches[b]->keys; d->pattern; d++)
					for (s = d->show; s && !pp_show_end(s); s++) {
						if (!s->table || strcmp(s->table, t->id) ||
						    s->col != c + 1)
							continue;
						heads += s->width > 0;
						nkeys++;
					}
			}
			assert_int_equal(heads, cols[c].mhz ? 0 : 1);
			assert_int_equal(nkeys, cols[c].nkeys);
		}
	}
	assert_true(i >= 6);
	for (m = 0; pp_matrix_get(m, &mx); m++) {
		const char *const *r, *const *c2;
		char key[2 * PP_KEY_MAX];

		for (r = mx.m->rows; *r; r++) {
			for (c2 = mx.m->cols; *c2; c2++) {
				snprintf(key, sizeof(key), "%s-%s-%s", mx.prefix, *r, *c2);
				print_message("# %s\n", key);
				assert_true(column_declared(key));
			}
			if (mx.m->extra) {
				snprintf(key, sizeof(key), "%s-%s-%s", mx.prefix, *r, mx.m->extra);
				assert_true(column_declared(key));
			}
		}
	}
	assert_true(m > 0);
}

/* stdout of "perfprobe ARGS..." */
static char *output_of(int argc, char **argv)
{
	char path[] = "/tmp/test_keys.XXXXXX";
	int fd = mkstemp(path), saved = dup(1);
	char *text = calloc(1, 1 << 20);
	ssize_t n;

	assert_true(fd >= 0 && saved >= 0 && text);
	unlink(path);
	fflush(stdout);
	dup2(fd, 1);
	assert_int_equal(pp_main(argc, argv), PP_EXIT_OK);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	n = pread(fd, text, (1 << 20) - 1, 0);
	close(fd);
	assert_true(n > 0);
	return text;
}

/* list -v: every declaration, with its unit, direction and spread, on its line. */
static void test_list_verbose(void **state)
{
	char *argv[] = { "perfprobe", "-v", "list", NULL };
	char *text = output_of(3, argv);
	unsigned int b;

	(void)state;
	for (b = 0; b < pp_nbenches; b++) {
		const struct pp_key_decl *k;

		for (k = pp_benches[b]->keys; k->pattern; k++) {
			char want[256], spread[48] = "";

			if (k->spread_pct > 0)
				snprintf(spread, sizeof(spread), " (spread by nature %.0f%%)",
					 k->spread_pct);
			snprintf(want, sizeof(want), " %-32s %-8s %-6s %s%s%s%s%s\n", k->pattern,
				 k->unit, pp_dir_name(k->dir), k->desc, k->kind ? " (" : "",
				 k->kind ? pp_kind_name(k->kind) : "", k->kind ? ")" : "", spread);
			if (!strstr(text, want))
				print_message("# not in list -v: %s", want);
			assert_non_null(strstr(text, want));
		}
	}
	free(text);
}

/* list --json: the same declarations, as data. */
static void test_list_json(void **state)
{
	char *argv[] = { "perfprobe", "--json", "list", NULL };
	char *text = output_of(3, argv);
	json_t *doc = json_loads(text, 0, NULL);
	json_t *all = json_object_get(doc, "benchmarks");
	unsigned int b;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(doc, "format")),
			    "perfprobe-list");
	assert_true(json_is_array(all));
	assert_int_equal(json_array_size(all), pp_nbenches);
	for (b = 0; b < pp_nbenches; b++) {
		json_t *o = json_array_get(all, b), *keys = json_object_get(o, "keys");
		const struct pp_key_decl *k;
		size_t i = 0;

		assert_string_equal(json_string_value(json_object_get(o, "name")),
				    pp_benches[b]->name);
		for (k = pp_benches[b]->keys; k->pattern; k++, i++) {
			json_t *d = json_array_get(keys, i);

			assert_string_equal(json_string_value(json_object_get(d, "pattern")),
					    k->pattern);
			assert_string_equal(json_string_value(json_object_get(d, "unit")), k->unit);
			assert_string_equal(json_string_value(json_object_get(d, "direction")),
					    pp_dir_name(k->dir));
			assert_string_equal(json_string_value(json_object_get(d, "kind")),
					    pp_kind_name(k->kind));
		}
		assert_int_equal(json_array_size(keys), i);
	}
	json_decref(doc);
	free(text);
}

/* lat_mem_rd's key sizes (lmbench's MB column x 1000) back to bytes */
static void test_memrd_bytes(void **state)
{
	(void)state;
	assert_true(pp_memrd_bytes(0.00049) == 512);
	assert_true(pp_memrd_bytes(0.031) == 32768);		/* "sz31k" */
	assert_true(pp_memrd_bytes(0.01367) == 14336);	/* 1.75 x 8K */
	assert_true(pp_memrd_bytes(1.0) == 1048576);		/* "sz1000k" */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memrd_bytes),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_show_entries),
		cmocka_unit_test(test_summary_columns),
		cmocka_unit_test(test_list_verbose),
		cmocka_unit_test(test_list_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
