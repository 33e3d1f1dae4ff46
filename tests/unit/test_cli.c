// SPDX-License-Identifier: GPL-2.0
/* Option parsing, the benchmark registry and table number formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bench.h"
#include "cli.h"
#include "options.h"
#include "report/summary.h"

#include "argv.h"

static void test_defaults(void **state)
{
	struct pp_cli cli;

	(void)state;
	assert_int_equal(parse(&cli, "perfprobe syscall"), 0);
	assert_string_equal(cli.cmd, "syscall");
	assert_int_equal(cli.nargs, 0);
	assert_int_equal(cli.opts.samples, 11);
	assert_int_equal(cli.opts.pin_cpu, -1);
	assert_false(cli.json);
}

static void test_options_anywhere(void **state)
{
	struct pp_cli cli;

	(void)state;
	assert_int_equal(parse(&cli, "perfprobe --quick --json run lat_syscall -o x.json --cpu 0"), 0);
	assert_string_equal(cli.cmd, "run");
	assert_int_equal(cli.nargs, 1);
	assert_string_equal(cli.args[0], "lat_syscall");
	assert_true(cli.json && cli.opts.quick);
	assert_string_equal(cli.out, "x.json");
	assert_int_equal(cli.opts.pin_cpu, 0);
	assert_int_equal(cli.opts.samples, 5);	/* quick */
	assert_int_equal(parse(&cli, "perfprobe --quick -r 9 syscall"), 0);
	assert_int_equal(cli.opts.samples, 9);	/* --repeat wins */
	assert_int_equal(parse(&cli, "perfprobe --full syscall"), 0);
	assert_true(cli.opts.target_ms > 10);
	assert_int_equal(parse(&cli, "perfprobe --version"), 0);
	assert_true(cli.version);
	assert_int_equal(parse(&cli, "perfprobe --noise 2.5 syscall"), 0);
	assert_true(cli.opts.noise_pct == 2.5);
}

static void test_bad_options(void **state)
{
	struct pp_cli cli;
	static const char *const bad[] = {
		"perfprobe --bogus syscall",
		"perfprobe -Z syscall",
		"perfprobe --repeat abc syscall",
		"perfprobe --repeat 0 syscall",
		"perfprobe --repeat 100000 syscall",
		"perfprobe --repeat -3 syscall",
		"perfprobe --cpu 99999 syscall",
		"perfprobe --cpu x syscall",
		"perfprobe --quick --full syscall",
		"perfprobe syscall --repeat",
		"perfprobe --noise abc syscall",
		"perfprobe --tmpdir /nonexistent/dir syscall",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		print_message("# %s\n", bad[i]);
		assert_int_equal(parse(&cli, bad[i]), PP_EXIT_USAGE);
	}
}

static void test_main_errors(void **state)
{
	char *unknown[] = { "perfprobe", "frobnicate", NULL };
	char *run_bad[] = { "perfprobe", "run", "no_such_bench", NULL };
	char *summary_none[] = { "perfprobe", "summary", NULL };
	char *list_bad[] = { "perfprobe", "list", "nogroup", NULL };

	(void)state;
	assert_int_equal(pp_main(2, unknown), PP_EXIT_USAGE);
	assert_int_equal(pp_main(3, run_bad), PP_EXIT_USAGE);
	assert_int_equal(pp_main(2, summary_none), PP_EXIT_USAGE);
	assert_int_equal(pp_main(3, list_bad), PP_EXIT_USAGE);
}

static void test_registry(void **state)
{
	unsigned int i, j;

	(void)state;
	assert_true(pp_nbenches > 0);
	for (i = 0; i < pp_nbenches; i++) {
		const struct pp_bench *b = pp_benches[i];
		const struct pp_key_decl *k;
		bool group = false;

		assert_non_null(b->name);
		assert_non_null(b->summary);
		assert_non_null(b->run);
		for (j = 0; j < pp_ngroups; j++)
			group |= !strcmp(pp_groups[j].name, b->group);
		assert_true(group);
		assert_ptr_equal(pp_bench_find(b->name), b);
		for (j = i + 1; j < pp_nbenches; j++)
			assert_string_not_equal(b->name, pp_benches[j]->name);
		/* every benchmark declares its keys (test_keys.c checks them) */
		assert_non_null(b->keys);
		for (k = b->keys; k->pattern; k++)
			print_message("# %s: %s\n", b->name, k->pattern);
	}
	assert_non_null(pp_bench_find("lat_syscall"));
	assert_true(pp_group_valid("proc"));
	assert_false(pp_group_valid("nope"));
}

static void test_processor_keys(void **state)
{
	static const char *const keys[] = {
		"lat_syscall-null", "lat_syscall-read", "lat_syscall-write",
		"lat_syscall-stat", "lat_syscall-fstat", "lat_syscall-open",
		"lat_select-tcp", "lat_sig-install", "lat_sig-catch", "lat_sig-prot",
		"lat_proc-fork", "lat_proc-exec", "lat_proc-shell",
	};
	unsigned int i, b;

	(void)state;
	/* every key users know from the seeds is produced by a proc benchmark */
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		bool found = false;

		for (b = 0; b < pp_nbenches && !found; b++)
			found = !strcmp(pp_benches[b]->group, "proc") &&
				pp_key_decl_find(pp_benches[b]->keys, keys[i]);
		print_message("# %s\n", keys[i]);
		assert_true(found);
	}
}

static void cell(double v, int w, int prec, const char *want)
{
	char buf[32];

	pp_fmt_cell(buf, sizeof(buf), v, w, prec);
	print_message("# %g -> '%s' (want '%s')\n", v, buf, want);
	assert_string_equal(buf, want);
}

static void test_cells(void **state)
{
	(void)state;
	/* lmbench's getsummary: printf then cut to the width */
	cell(0.39, 4, 2, "0.39");
	cell(3.9, 4, 1, " 3.9");
	cell(29.71, 4, 1, "29.7");
	cell(143.456, 4, 2, "143.");
	cell(5051.3, 4, 2, "5051");
	cell(1.1, 5, 2, " 1.10");
	/* too wide for the column: a K suffix, never a cut-off number */
	cell(11250.0, 4, 2, " 11K");
	cell(123456.0, 4, 2, "123K");
	cell(2500000.0, 4, 2, "  2M");
	/* missing or non-positive: blanks */
	cell(-1, 4, 2, "    ");
	cell(0, 4, 2, "    ");
}

/* The option table's rules, and what the parser makes of it. */
static void test_option_table(void **state)
{
	struct pp_cli cli;
	char err[256], line[1024];
	int i;

	(void)state;
	err[0] = '\0';
	if (pp_options_check(err, sizeof(err)))
		print_message("# %s\n", err);
	assert_int_equal(pp_options_check(err, sizeof(err)), 0);

	/* after ls, --label is ls's filter; before it, the global one */
	assert_int_equal(parse(&cli, "perfprobe ls --label 6.*"), 0);
	assert_null(cli.label);
	assert_int_equal(cli.ncopts, 1);
	assert_int_equal(cli.copts[0].val, PP_OPT_LS_LABEL);
	assert_string_equal(cli.copts[0].arg, "6.*");
	assert_int_equal(parse(&cli, "perfprobe --label 6.1 run lat_syscall --label 6.2"), 0);
	assert_string_equal(cli.label, "6.2");
	assert_int_equal(cli.ncopts, 0);

	/* no cap on repeated options: forty --ignore */
	strcpy(line, "perfprobe compare");
	for (i = 1; i <= 40; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " -I k%d", i);
	strcat(line, " a b");
	assert_int_equal(parse(&cli, line), 0);
	assert_int_equal(cli.ncopts, 40);
	assert_string_equal(cli.copts[39].arg, "k40");
	assert_int_equal(cli.nargs, 2);

	/* -q is --quick everywhere; --quiet is global */
	assert_int_equal(parse(&cli, "perfprobe netserver -q"), 0);
	assert_true(cli.opts.quick);
	assert_int_equal(parse(&cli, "perfprobe netserver --quiet -p 1234"), 0);
	assert_true(cli.opts.quiet && !cli.opts.quick);
	assert_int_equal(cli.copts[0].val, 'p');

	/* a global long option after a command with an id of the same value */
	assert_int_equal(parse(&cli, "perfprobe trace --all --results-dir /tmp -- ls"), 0);
	assert_int_equal(cli.ncopts, 1);
	assert_int_equal(cli.copts[0].val, PP_OPT_TRACE_ALL);
	assert_string_equal(cli.results_dir, "/tmp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_options_anywhere),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_option_table),
		cmocka_unit_test(test_main_errors),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_processor_keys),
		cmocka_unit_test(test_cells),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
