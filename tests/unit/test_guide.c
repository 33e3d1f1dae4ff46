// SPDX-License-Identifier: GPL-2.0
/* The vendor-guide style tables (guide.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench.h"
#include "report/guide.h"

static bool produced(const char *key)
{
	unsigned int b;

	for (b = 0; b < pp_nbenches; b++)
		if (pp_key_decl_find(pp_benches[b]->keys, key))
			return true;
	return false;
}

/* Every cell names a valid key that a benchmark declares. */
static void test_cell_keys(void **state)
{
	unsigned int t;

	(void)state;
	assert_true(pp_guide_ntables > 0);
	for (t = 0; t < pp_guide_ntables; t++) {
		const struct pp_guide_table *g = &pp_guide_tables[t];
		const struct pp_guide_row *r;
		const struct pp_guide_col *c;

		assert_non_null(g->caption);
		assert_non_null(g->row_head);
		for (r = g->rows; r->label; r++)
			for (c = g->cols; c->head; c++) {
				char key[PP_KEY_MAX];

				snprintf(key, sizeof(key), c->key, r->part);
				print_message("# %s: %s\n", g->caption, key);
				assert_true(pp_key_valid(key));
				assert_true(produced(key));
			}
	}
}

static char *print(const struct pp_run *runs, size_t n, int *printed)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*printed = pp_print_guide_tables(f, runs, n);
	fclose(f);
	return text;
}

static void test_print(void **state)
{
	double s[] = { 10.0, 20.0, 30.0 };
	struct pp_run run;
	struct pp_result *r;
	int printed;
	char *text;

	(void)state;
	pp_run_init(&run);
	snprintf(run.meta.hostname, sizeof(run.meta.hostname), "board");
	text = print(&run, 1, &printed);
	assert_int_equal(printed, 0);		/* no values: no table */
	assert_string_equal(text, "");
	free(text);

	r = pp_run_add(&run, "stream-copy-best", "MB/s", PP_HIGHER_IS_BETTER, s, 3);
	assert_non_null(r);
	r->value = 1640.4;
	text = print(&run, 1, &printed);
	print_message("%s", text);
	assert_int_equal(printed, 1);
	assert_non_null(strstr(text, "Benchmarks    board: perf\n"));
	assert_non_null(strstr(text, "copy (MB/s)       1640.40\n"));
	assert_non_null(strstr(text, "add (MB/s)              -\n"));
	assert_non_null(strstr(text, "\nTable: Stream\n"));
	assert_null(strstr(text, "All CPUs"));
	free(text);

	/* two runs: one column each, told apart by number */
	text = print((struct pp_run[]){ run, run }, 2, &printed);
	assert_non_null(strstr(text, "board #1: perf  board #2: perf"));
	free(text);
	pp_run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_keys),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests_name("guide", tests, NULL, NULL);
}
