// SPDX-License-Identifier: GPL-2.0
/*
 * cpuhog: a child that burns 0.3 s of CPU after the snapshot is named
 * with at least that time, unless three other processes took more (a
 * loaded machine): an invariant, not a race.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "cpuhog.h"

#define BURN_S	0.3

static double cpu_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the child's CPU time from /proc, in s, or -1 */
static double child_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void test_hog_named(void **state)
{
	struct pp_hogs *snap;
	char buf[256], *p;
	double t0, s;
	int named = 0, bigger = 0;
	pid_t pid;

	(void)state;
	snap = pp_hogs_snap();
	assert_non_null(snap);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_NAME, "pp-hogtest");
		t0 = cpu_s(CLOCK_PROCESS_CPUTIME_ID);
		while (cpu_s(CLOCK_PROCESS_CPUTIME_ID) - t0 < BURN_S)
			;
		pause();
		_exit(0);
	}
	/* until /proc shows its time (however long a loaded machine takes) */
	while (child_cpu(pid) < BURN_S - 0.02)
		usleep(20000);
	pp_hogs_since(snap, buf, sizeof(buf));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	print_message("# %s\n", buf);
	/* "comm (pid N) S s, ..." */
	for (p = buf; (p = strstr(p, " s")) != NULL; p++) {
		char *q = p;

		while (q > buf && q[-1] != ' ')
			q--;
		s = strtod(q, NULL);
		if (s >= BURN_S - 0.02)
			bigger++;
	}
	named = strstr(buf, "pp-hogtest (pid ") != NULL;
	assert_true(named || bigger == 3);
	pp_hogs_since(pp_hogs_snap(), NULL, 0);	/* frees only */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hog_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
