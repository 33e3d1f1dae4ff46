// SPDX-License-Identifier: GPL-2.0
/*
 * lat_sig: signal costs, as lmbench's lat_sig.
 *
 *   install  sigaction() of a handler
 *   catch    kill(self, SIGUSR1) caught by an empty handler, less the
 *            cost of kill(self, 0) (sending without delivering)
 *   prot     a write to a read-only shared file mapping: the protection
 *            fault and its SIGSEGV caught, less the cost of "catch"
 *            (lmbench assumes the delivery costs what a catch costs)
 *
 * prot: the handler returns and the write faults again, so each fault is
 * one operation; after the last one the handler makes the page writable
 * so the write completes.  The two mprotect() calls per pass are spread
 * over the thousands of faults in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

static void empty_handler(int sig)
{
	(void)sig;
}

static int do_install(uint64_t n, void *arg)
{
	struct sigaction sa, old;

	(void)arg;
	while (n-- > 0) {
		sa.sa_handler = empty_handler;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = 0;
		if (sigaction(SIGUSR1, &sa, &old))
			return -errno;
	}
	return 0;
}

static int do_send(uint64_t n, void *arg)
{
	pid_t me = getpid();

	(void)arg;
	while (n-- > 0)
		if (kill(me, 0))
			return -errno;
	return 0;
}

static int do_catch(uint64_t n, void *arg)
{
	pid_t me = getpid();

	(void)arg;
	while (n-- > 0)
		if (kill(me, SIGUSR1))
			return -errno;
	return 0;
}

static volatile char *prot_page;
static size_t prot_size;
static volatile uint64_t prot_caught, prot_want;

static void prot_handler(int sig)
{
	(void)sig;
	if (++prot_caught >= prot_want)
		mprotect((void *)prot_page, prot_size, PROT_READ | PROT_WRITE);
}

static int do_prot(uint64_t n, void *arg)
{
	(void)arg;
	prot_caught = 0;
	prot_want = n;
	*prot_page = 1;		/* faults n times, see above */
	if (mprotect((void *)prot_page, prot_size, PROT_READ))
		return -errno;
	return prot_caught == n ? 0 : -EPROTO;
}

static int setup_prot(struct pp_ctx *ctx)
{
	char dir[4096], path[4200];
	struct sigaction sa;
	void *p;
	int fd;

	if (pp_tmp_dir(ctx, dir, sizeof(dir)))
		return pp_fail(ctx, "cannot create a temporary directory");
	snprintf(path, sizeof(path), "%s/lat_sig", dir);
	prot_size = (size_t)sysconf(_SC_PAGESIZE);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)prot_size))
		return pp_fail(ctx, "%s: %s", path, strerror(errno));
	p = mmap(NULL, prot_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return pp_fail(ctx, "mmap: %s", strerror(errno));
	prot_page = p;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = prot_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL))
		return pp_fail(ctx, "sigaction: %s", strerror(errno));
	return 0;
}

static void teardown_prot(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	if (prot_page)
		munmap((void *)prot_page, prot_size);
	prot_page = NULL;
}

/* catch: kill(self, SIGUSR1), less kill(self, 0) measured beside it. */
static int measure_catch(struct pp_ctx *ctx, void *arg, unsigned int attempt,
			 struct pp_sampling *s, double *overhead_ns)
{
	struct pp_sampling *send = arg;
	int ret;

	(void)attempt;
	ret = pp_sample(ctx, do_send, NULL, NULL, send);
	if (ret)
		return ret;	/* send holds no samples to take a median of */
	*overhead_ns = pp_median(send->ns_per_op, send->n);
	return pp_sample(ctx, do_catch, NULL, NULL, s);
}

/* prot: a fault and its delivery, less a catch (lmbench's estimate of delivery). */
static int measure_prot(struct pp_ctx *ctx, void *arg, unsigned int attempt,
			struct pp_sampling *s, double *overhead_ns)
{
	(void)attempt;
	*overhead_ns = *(const double *)arg;
	return pp_sample(ctx, do_prot, NULL, NULL, s);
}

static int lat_sig_run(struct pp_ctx *ctx)
{
	struct pp_sampling *send, *catch, *prot;
	struct sigaction sa, old;
	int ret = -1, skipped = 0;
	double catch_ns;

	send = malloc(sizeof(*send));
	catch = malloc(sizeof(*catch));
	prot = malloc(sizeof(*prot));
	if (!send || !catch || !prot) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	skipped = pp_latency(ctx, "lat_sig-install", do_install, NULL);
	if (skipped < 0) {
		ret = skipped;
		goto out;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = empty_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	ret = pp_sample_net(ctx, "lat_sig-catch", measure_catch, send, 1, catch);
	sigaction(SIGUSR1, &old, NULL);
	/* skipped (> 0) only as too noisy: lat_sig-prot is, for the same reason */
	if (ret > 0)
		ret = pp_skip(ctx, "lat_sig-prot", "no lat_sig-catch to take out of it: "
			      "too noisy here");
	if (ret)
		goto out;
	ret = pp_report_sampling(ctx, "lat_sig-catch", catch);
	if (ret)
		goto out;

	catch_ns = pp_median(catch->ns_per_op, catch->n);
	ret = setup_prot(ctx);
	if (!ret)
		ret = pp_sample_net(ctx, "lat_sig-prot", measure_prot, &catch_ns, 1, prot);
	teardown_prot();
	if (!ret)
		ret = pp_report_sampling(ctx, "lat_sig-prot", prot);
out:
	free(send);
	free(catch);
	free(prot);
	return ret < 0 ? ret : ret | skipped;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_sig-install", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "sigaction() of a handler",
	  .show = PP_SHOW({ PP_COL("proc", 7, "sig ", "inst", 4, 1), .lm_col = 7 },
		  { .lm_line = "Signal handler installation:" }) },
	{ .pattern = "lat_sig-catch", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a signal sent to self and caught, less the send",
	  .show = PP_SHOW({ PP_COL("proc", 8, "sig ", "hndl", 4, 1), .lm_col = 8 },
		  { .lm_line = "Signal handler overhead:" }) },
	{ .pattern = "lat_sig-prot", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .spread_pct = 20,	/* accuracy.rst, Noisy by nature */
	  .desc = "a protection fault caught as SIGSEGV, less a catch",
	  .show = PP_SHOW({ PP_COL("fsvm", 6, " Prot", "Fault", 5, 2), .lm_col = 6 },
		  { .lm_line = "Protection fault:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_sig = {
	.name = "lat_sig",
	.group = "proc",
	.summary = "signal handler install, catch, and protection fault (us)",
	.keys = keys,
	.run = lat_sig_run,
};
