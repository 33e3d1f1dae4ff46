// SPDX-License-Identifier: GPL-2.0
/* Results: JSON round trip, atomic write, and every kind of bad file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "results.h"
#include "util.h"

static char dir[] = "/tmp/pp-unit.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void path(char *buf, const char *name)
{
	snprintf(buf, 256, "%s/%s", dir, name);
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_run(struct pp_run *run)
{
	const double a[] = { 1.0, 1.5, 1.25, 1.1, 1.2 };
	const double b[] = { 900, 1000, 950 };
	struct pp_result *r;

	pp_run_init(run);
	strcpy(run->meta.hostname, "host1");
	strcpy(run->meta.sysname, "Linux");
	strcpy(run->meta.release, "6.1.0-test");
	strcpy(run->meta.date, "2026-12-02T10:11:12Z");
	run->meta.mhz.mhz = 2000;
	run->meta.mhz.trusted = true;
	run->meta.online_cpus = 2;
	run->meta.samples = 5;
	run->meta.noise_pct = 5;
	run->meta.pin_cpu = 1;
	r = pp_run_add(run, "lat_syscall-null", "us", PP_LOWER_IS_BETTER, a, 5);
	assert_non_null(r);
	r->iterations = 1000;
	r->cpu_first = 0;
	r->cpu_last = 1;
	strcpy(r->k.source, "kmod");
	r->k.kernel_ns_per_op = 80.5;
	r->k.faults_per_op = 0.0;
	assert_non_null(pp_run_add(run, "bw_pipe", "MB/s", PP_HIGHER_IS_BETTER, b, 3));
	pp_run_skip(run, "lat_select-tcp", "no loopback");
	pp_run_fail(run, "lat_proc", "fork: EAGAIN");
}

static void test_round_trip(void **state)
{
	struct pp_run run, back;
	const struct pp_result *r;
	char p[256], err[512];

	(void)state;
	make_run(&run);
	path(p, "run.json");
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_load(&back, p, err, sizeof(err)), 0);
	assert_string_equal(back.meta.hostname, "host1");
	assert_string_equal(back.meta.release, "6.1.0-test");
	assert_true(back.meta.mhz.trusted && back.meta.mhz.mhz == 2000);
	assert_int_equal(back.meta.pin_cpu, 1);
	assert_int_equal(back.nresults, 2);
	r = pp_run_find(&back, "lat_syscall-null");
	assert_non_null(r);
	assert_int_equal(r->nsamples, 5);
	assert_true(r->samples[1] == 1.5);
	assert_true(fabs(r->value - 1.2) < 1e-12);
	assert_true(fabs(r->st.median - 1.2) < 1e-12);
	assert_int_equal(r->iterations, 1000);
	assert_int_equal(r->cpu_first, 0);
	assert_int_equal(r->cpu_last, 1);
	assert_string_equal(r->k.source, "kmod");
	assert_true(r->k.kernel_ns_per_op == 80.5);
	assert_true(r->k.faults_per_op == 0.0);
	assert_true(isnan(r->k.probe_ns_per_op));
	r = pp_run_find(&back, "bw_pipe");
	assert_non_null(r);
	assert_int_equal(r->dir, PP_HIGHER_IS_BETTER);
	assert_int_equal(back.nskips, 1);
	assert_string_equal(back.skips[0].reason, "no loopback");
	assert_int_equal(back.nfails, 1);
	pp_run_free(&run);
	pp_run_free(&back);
}

static void test_atomic_no_leftovers(void **state)
{
	struct pp_run run;
	char p[256], cmd[512];

	(void)state;
	make_run(&run);
	path(p, "atomic.json");
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_save(&run, p), 0);
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls %s | grep tmp)\"", dir);
	assert_int_equal(system(cmd), 0);
	/* a directory that does not exist: error, nothing written */
	assert_int_not_equal(pp_run_save(&run, "/nonexistent-dir/x.json"), 0);
	pp_run_free(&run);
}

static void expect_bad(const char *name, const char *text, const char *msg)
{
	struct pp_run run;
	char p[256], err[512] = "";

	path(p, name);
	if (text)
		write_file(p, text);
	assert_int_equal(pp_run_load(&run, p, err, sizeof(err)), PP_EXIT_BADFILE);
	/* one line that names the file and the problem */
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, msg));
	assert_null(strchr(err, '\n'));
}

static void test_bad_files(void **state)
{
	(void)state;
	expect_bad("missing.json", NULL, "cannot read");
	expect_bad("text.json", "hello world\n", "not valid JSON");
	expect_bad("trunc.json", "{\"format\": \"perfprobe-results\", \"schema_ve", "not valid JSON");
	expect_bad("other.json", "{\"name\": 1}", "not a perfprobe result");
	expect_bad("array.json", "[1, 2]", "not a perfprobe result");
	expect_bad("newer.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 99, \"meta\": {}, \"results\": []}",
		   "newer");
	expect_bad("nometa.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"results\": []}",
		   "missing");
	expect_bad("badkey.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"Bad Key\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1]}]}",
		   "no valid key");
	expect_bad("nosamples.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": []}]}",
		   "no samples");
	expect_bad("dup.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1]}, {\"key\": \"lat_pipe\", \"unit\": \"us\", "
		   "\"direction\": \"lower\", \"samples\": [2]}]}",
		   "duplicated");
}

static void test_keys(void **state)
{
	(void)state;
	assert_true(pp_key_valid("lat_syscall-null"));
	assert_true(pp_key_valid("lat_pipe"));
	assert_true(pp_key_valid("bw_mem-bcopy-16mb"));
	assert_true(pp_key_valid("lat_mem_rd-stride128-sz31k"));
	assert_true(pp_key_valid("lat_ctx-2-128k"));
	assert_false(pp_key_valid(""));
	assert_false(pp_key_valid("Lat_pipe"));
	assert_false(pp_key_valid("lat pipe"));
	assert_false(pp_key_valid("lat_pipe-"));
	assert_false(pp_key_valid("lat--pipe"));
	assert_false(pp_key_valid("-lat"));
	assert_false(pp_key_valid("lat_pipe\"x"));
}

static void test_results_path(void **state)
{
	struct pp_meta m = { 0 };
	char buf[512], expect[512];

	(void)state;
	strcpy(m.hostname, "box");
	strcpy(m.date, "2026-12-02T10:11:12Z");
	assert_int_equal(pp_results_path(dir, &m, "syscall", buf, sizeof(buf)), 0);
	snprintf(expect, sizeof(expect), "%s/box/2026-12-02/101112-syscall-", dir);
	assert_memory_equal(buf, expect, strlen(expect));
	assert_int_equal(access(strrchr(expect, '/') ? dir : dir, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_atomic_no_leftovers),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_results_path),
	};

	return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
