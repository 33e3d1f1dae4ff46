// SPDX-License-Identifier: GPL-2.0
/* The profile model: frames and stacks merged, functions, paths, shares. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "prof.h"

static uint32_t fr(struct pp_prof *p, const char *name)
{
	uint32_t i;

	assert_int_equal(pp_prof_frame(p, name, &i), 0);
	return i;
}

/*
 * A getppid loop and a seccomp filter: user main;loop, then the kernel's
 * entry, do_syscall_64 and either getppid or the filter; plus one sample
 * in user space alone.
 */
static void build(struct pp_prof *p)
{
	uint32_t s[6];

	pp_prof_init(p);
	s[0] = fr(p, "main");
	s[1] = fr(p, "loop");
	s[2] = fr(p, "entry_SYSCALL_64");
	s[3] = fr(p, "do_syscall_64");
	s[4] = fr(p, "__x64_sys_getppid");
	assert_int_equal(pp_prof_add(p, s, 2, 3, 5), 0);
	s[4] = fr(p, "syscall_trace_enter");
	s[5] = fr(p, "__seccomp_filter");
	assert_int_equal(pp_prof_add(p, s, 2, 4, 3), 0);
	assert_int_equal(pp_prof_add(p, s, 2, 3, 1), 0);	/* trace_enter itself */
	s[4] = fr(p, "__x64_sys_getppid");
	assert_int_equal(pp_prof_add(p, s, 2, 3, 2), 0);	/* merged with the first */
	assert_int_equal(pp_prof_add(p, s, 2, 0, 4), 0);	/* user only */
	p->samples = 15;
	p->kernel = 11;
	p->user = 4;
}

static void test_merge_and_functions(void **state)
{
	struct pp_prof p;
	struct pp_prof_fn *f;
	size_t n;

	(void)state;
	build(&p);
	assert_int_equal(p.nframes, 7);
	assert_int_equal(p.nstacks, 4);
	assert_int_equal(p.stacks[0].count, 7);
	assert_int_equal(pp_prof_frame(&p, "main", &(uint32_t){ 0 }), 0);
	assert_int_equal(p.nframes, 7);
	assert_int_equal(pp_prof_functions(&p, &f, &n), 0);
	assert_int_equal(n, 5);
	/* by self: getppid 7, the filter 3, trace_enter 1 */
	assert_string_equal(p.frames[f[0].frame], "__x64_sys_getppid");
	assert_int_equal(f[0].self, 7);
	assert_string_equal(p.frames[f[1].frame], "__seccomp_filter");
	assert_int_equal(f[1].self, 3);
	assert_string_equal(p.frames[f[2].frame], "syscall_trace_enter");
	assert_int_equal(f[2].self, 1);
	assert_int_equal(f[2].total, 4);
	pp_prof_sort_total(f, n);
	/* the entry and do_syscall_64 are in every kernel sample: first seen first */
	assert_string_equal(p.frames[f[0].frame], "entry_SYSCALL_64");
	assert_int_equal(f[0].total, 11);
	assert_string_equal(p.frames[f[1].frame], "do_syscall_64");
	assert_int_equal(f[2].total, 7);
	free(f);
	assert_true(pp_prof_find(&p, "__seccomp_filter") >= 0);
	assert_int_equal(pp_prof_find(&p, "nothing"), -1);
	pp_prof_free(&p);
}

static void test_paths(void **state)
{
	char buf[PP_PROF_PATH_MAX];
	struct pp_prof p;

	(void)state;
	build(&p);
	pp_prof_path(&p, (uint32_t)pp_prof_find(&p, "__seccomp_filter"), true, buf, sizeof(buf));
	assert_string_equal(buf, "__seccomp_filter <- syscall_trace_enter <- do_syscall_64 <- entry_SYSCALL_64");
	pp_prof_path(&p, (uint32_t)pp_prof_find(&p, "syscall_trace_enter"), false, buf, sizeof(buf));
	assert_string_equal(buf, "syscall_trace_enter <- do_syscall_64 <- entry_SYSCALL_64");
	/* not a leaf anywhere: only its name */
	pp_prof_path(&p, (uint32_t)pp_prof_find(&p, "do_syscall_64"), true, buf, sizeof(buf));
	assert_string_equal(buf, "do_syscall_64");
	/* JIT code the unwinder stops in: the path that reached its callers */
	{
		uint32_t j[5] = { fr(&p, "main"), fr(&p, "entry_SYSCALL_64"), fr(&p, "do_syscall_64"),
				  fr(&p, "__seccomp_filter"), fr(&p, "[jit]") };

		assert_int_equal(pp_prof_add(&p, j + 4, 0, 1, 4), 0);
		assert_int_equal(pp_prof_add(&p, j, 1, 4, 1), 0);
		pp_prof_path(&p, j[4], true, buf, sizeof(buf));
		assert_string_equal(buf, "[jit] <- __seccomp_filter <- do_syscall_64 <- entry_SYSCALL_64");
	}
	/* cut short rather than overflow */
	pp_prof_path(&p, (uint32_t)pp_prof_find(&p, "__seccomp_filter"), true, buf, 20);
	assert_string_equal(buf, "__seccomp_filter");
	pp_prof_free(&p);
}

static void test_shares(void **state)
{
	struct pp_prof p;
	double se, share, ns;

	(void)state;
	build(&p);
	share = pp_prof_kernel_share(&p, &se);
	assert_true(fabs(share - 11.0 / 15) < 1e-12);
	assert_true(fabs(se - sqrt(12.0 / 17 * 5.0 / 17 / 15)) < 1e-12);
	ns = pp_prof_ns(3, 15, 1500, &se);
	assert_true(fabs(ns - 300) < 1e-9);
	assert_true(fabs(se - 1500 * sqrt(4.0 / 17 * 13.0 / 17 / 15)) < 1e-9);
	/* all of a few samples: an error all the same */
	ns = pp_prof_ns(6, 6, 1000, &se);
	assert_true(ns == 1000 && se > 100);
	ns = pp_prof_ns(0, 0, 1500, &se);
	assert_true(isnan(ns) && isnan(se));
	pp_prof_free(&p);
}

static void test_bad_stacks(void **state)
{
	uint32_t s[2] = { 0, 7 };
	struct pp_prof p;

	(void)state;
	pp_prof_init(&p);
	fr(&p, "a");
	assert_int_equal(pp_prof_add(&p, s, 1, 1, 1), -EINVAL);	/* frame 7 */
	assert_int_equal(pp_prof_add(&p, s, 1, 0, 0), -EINVAL);	/* no samples */
	assert_int_equal(pp_prof_add(&p, s, 1, 0, 2), 0);
	assert_int_equal(p.nstacks, 1);
	pp_prof_free(&p);
	pp_prof_destroy(NULL);
}

/* Many frames and stacks: the hashes grow and still find each one. */
static void test_growth(void **state)
{
	struct pp_prof p;
	char name[32];
	uint32_t i, s[2];

	(void)state;
	pp_prof_init(&p);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		s[0] = fr(&p, name);
		s[1] = fr(&p, "leaf");
		assert_int_equal(pp_prof_add(&p, s, 0, 2, 1), 0);
		assert_int_equal(pp_prof_add(&p, s, 0, 2, 1), 0);
	}
	assert_int_equal(p.nframes, 5001);
	assert_int_equal(p.nstacks, 5000);
	for (i = 0; i < p.nstacks; i++)
		assert_int_equal(p.stacks[i].count, 2);
	pp_prof_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_and_functions),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_bad_stacks),
		cmocka_unit_test(test_growth),
	};

	return cmocka_run_group_tests_name("prof", tests, NULL, NULL);
}
