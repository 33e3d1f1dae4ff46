// SPDX-License-Identifier: GPL-2.0
/*
 * Temporary directories: pp_rmtree() removes a tree in-process (files,
 * directories, a symbolic link, not what it points to); pp_tmp_dir()'s
 * directories go at pp_tmp_cleanup(), and only in the process that made
 * them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness.h"

static char base[256];

static void touch(const char *dir, const char *name)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static bool exists(const char *p)
{
	struct stat st;

	return !lstat(p, &st);
}

static void test_rmtree(void **state)
{
	char top[300], sub[PATH_MAX], keep[300], link[PATH_MAX];
	unsigned int i;

	(void)state;
	snprintf(top, sizeof(top), "%s/tree", base);
	snprintf(keep, sizeof(keep), "%s/keep", base);
	assert_int_equal(mkdir(top, 0700), 0);
	assert_int_equal(mkdir(keep, 0700), 0);
	touch(keep, "precious");
	/* more entries than one getdents64() read returns */
	for (i = 0; i < 300; i++) {
		char name[32];

		snprintf(name, sizeof(name), "file-with-a-long-name-%u", i);
		touch(top, name);
	}
	snprintf(sub, sizeof(sub), "%s/a/b/c", top);
	assert_int_equal(pp_mkdirs(sub, 0700), 0);
	touch(sub, "deep");
	snprintf(link, sizeof(link), "%s/link", top);
	assert_int_equal(symlink(keep, link), 0);
	assert_int_equal(pp_rmtree(top), 0);
	assert_false(exists(top));
	assert_true(exists(keep));
	snprintf(sub, sizeof(sub), "%s/precious", keep);
	assert_true(exists(sub));
	/* gone already: nothing to do */
	assert_int_equal(pp_rmtree(top), 0);
	assert_int_equal(pp_rmtree(keep), 0);
}

static void test_tmp_dir(void **state)
{
	struct pp_ctx ctx = { .opts.tmpdir = base };
	char dir[PATH_MAX];
	pid_t pid;
	int st;

	(void)state;
	assert_int_equal(pp_tmp_dir(&ctx, dir, sizeof(dir)), 0);
	assert_int_equal(strncmp(dir, base, strlen(base)), 0);
	touch(dir, "data");
	/* a child inherits the list but does not remove the parent's */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		pp_tmp_cleanup();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(exists(dir));
	pp_tmp_cleanup();
	assert_false(exists(dir));
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "%s/pp-tmpdir.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return pp_rmtree(base) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rmtree),
		cmocka_unit_test(test_tmp_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
