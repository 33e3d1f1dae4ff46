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

static const struct pp_guide_table *const all[] = {
	&pp_guide_lmbench, &pp_guide_stream, &pp_guide_stream_mt, &pp_guide_storage,
	&pp_guide_storage_dev, &pp_guide_tcp_bidir, &pp_guide_udp_ndr, &pp_guide_udp_pdr,
	&pp_guide_udp_stream, &pp_guide_openssl, &pp_guide_openssl_cpu, &pp_guide_kcapi,
	&pp_guide_kcapi_cpu, &pp_guide_ipsec[0], &pp_guide_ipsec[1], &pp_guide_ipsec[2],
	&pp_guide_ipsec[3],
};

/* Every cell names a valid key that a benchmark declares; every table its command. */
static void test_cell_keys(void **state)
{
	unsigned int t;

	(void)state;
	assert_true(pp_guide_ntables > 0);
	for (t = 0; t < ARRAY_SIZE(all); t++) {
		const struct pp_guide_table *g = all[t];
		const struct pp_guide_row *r;
		const struct pp_guide_col *c;

		assert_non_null(g->caption);
		assert_non_null(g->row_head);
		assert_non_null(g->command);
		for (r = g->rows; r->label; r++)
			for (c = g->cols; c->head; c++) {
				char key[PP_KEY_MAX];

				if (!c->key) {	/* the row's own text */
					assert_non_null(r->fixed);
					continue;
				}
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

/* A column without a key shows the row's own text, once; the HTML has the same cells. */
static void test_fixed_and_html(void **state)
{
	double s[] = { 100.0 };
	struct pp_run run;
	struct pp_result *r;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int printed;

	(void)state;
	pp_run_init(&run);
	snprintf(run.meta.hostname, sizeof(run.meta.hostname), "board");
	r = pp_run_add(&run, "rfc2544-ndr-1518", "Mbit/s", PP_HIGHER_IS_BETTER, s, 1);
	assert_non_null(r);
	r->value = 957.04;
	r = pp_run_add(&run, "rfc2544-ndr-1518-cpu_local", "%", PP_LOWER_IS_BETTER, s, 1);
	assert_non_null(r);
	r->value = 39.57;
	text = print(&run, 1, &printed);
	print_message("%s", text);
	assert_int_equal(printed, 1);
	/* the row's own column once, beside the label; the run's measures */
	assert_non_null(strstr(text, "Frame Size(bytes)  UDP Datagram Size(bytes) "
			       "(LOCAL_SEND_SIZE)  board: THROUGHPUT (Mbits/sec)  board: CPU Load "
			       "% (LOCAL_CPU_UTIL)"));
	/* the datagram of a 1518-byte frame, the figures, one not measured */
	assert_non_null(strstr(text, "\n1518 "));
	assert_non_null(strstr(text, " 1472  "));
	assert_non_null(strstr(text, " 957.04  "));
	assert_non_null(strstr(text, " 39.57  "));
	free(text);

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(pp_guide_tables_with_data(&run, 1), 1);
	assert_int_equal(pp_html_guide_tables(f, &run, 1), 1);
	fclose(f);
	print_message("%s", text);
	assert_non_null(strstr(text, "<caption>Table: UDP Egress Throughput (0% loss, RFC 2544 "
			       "NDR)</caption>"));
	assert_non_null(strstr(text, "<td class=\"l\">1518</td><td>1472</td><td>957.04</td>"
			       "<td>39.57</td><td>-</td></tr>"));
	free(text);
	pp_run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_keys),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_fixed_and_html),
	};

	return cmocka_run_group_tests_name("guide", tests, NULL, NULL);
}
