// SPDX-License-Identifier: GPL-2.0
/*
 * pp-kprof: what sampling costs, measured side by side (kprof.t, and
 * the figure in Documentation/kernel-view.rst).
 *
 *   pp-kprof cost [HZ [ROUNDS [MS]]]
 *
 * A getppid() loop timed in chunks of MS milliseconds (default 10, a
 * traced pass of the default mode), ROUNDS times (default 40) a chunk
 * without sampling and one sampled at HZ (default the kernel view's),
 * in alternating order.  Prints "name=value" lines: the median ns per
 * call of each, their ratio less one in %, the samples a second of CPU
 * time; the same in the thread's CPU time (cpu_*), which leaves out the
 * time other processes took the CPU, and so is what sampling costs on a
 * busy machine too (the kernel here has no IRQ_TIME_ACCOUNTING: an
 * interrupt's time is the thread's).  Exit 4 with one "perfprobe: ..."
 * line when sampling is not allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kprof.h"
#include "kernel/ksyms.h"
#include "kernel/usyms.h"
#include "stats.h"
#include "util.h"

#define MAX_ROUNDS	1000

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static __noinline void loop(uint64_t n)
{
	while (n--)
		syscall(SYS_getppid);
}

/*
 * ns per call of n calls, and of the thread's CPU time in *cpu; sampled
 * when how is not NULL (samples added).
 */
static double chunk(const struct pp_kprof_how *how, unsigned int hz, uint64_t n,
		    uint64_t *samples, double *cpu)
{
	struct pp_kprof_req req = { .hz = hz, .period = 1000000000ull / hz };
	struct pp_kprof *kp = NULL;
	struct pp_prof *p = NULL;
	pid_t self = getpid();
	char why[PP_KPROF_WHY_MAX + 64];
	uint64_t t0, t1, c0, c1;
	int err;

	if (how) {
		req.pids = &self;
		req.npids = 1;
		req.expect_ns = 2e7;
		err = pp_kprof_start(&kp, how, &req, why, sizeof(why));
		if (err) {
			pp_err("%s", why);
			exit(1);
		}
	}
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns();
	loop(n);
	t1 = now_ns();
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*cpu = (double)(c1 - c0) / (double)n;
	if (kp) {
		struct pp_usyms *us = pp_usyms_new();
		struct pp_ksyms ks = { 0 };

		if (!us || pp_kprof_stop(kp) || pp_kprof_profile(kp, &ks, us, NULL, &p)) {
			pp_err("reading the samples: out of memory");
			exit(1);
		}
		*samples += p->samples;
		pp_prof_destroy(p);
		pp_usyms_free(us);
		pp_kprof_close(kp);
	}
	return (double)(t1 - t0) / (double)n;
}

int main(int argc, char **argv)
{
	static double plain[MAX_ROUNDS], sampled[MAX_ROUNDS];
	static double cplain[MAX_ROUNDS], csampled[MAX_ROUNDS];
	unsigned int hz = PP_KPROF_HZ, rounds = 40, ms = 10, r;
	struct pp_kprof_how how;
	uint64_t n, t0, samples = 0;
	double a, b, ca, cb, secs = 0;

	if (argc < 2 || strcmp(argv[1], "cost")) {
		fprintf(stderr, "usage: pp-kprof cost [HZ [ROUNDS [MS]]]\n");
		return 2;
	}
	if (argc > 2)
		hz = (unsigned int)atoi(argv[2]);
	if (argc > 3)
		rounds = (unsigned int)atoi(argv[3]);
	if (argc > 4)
		ms = (unsigned int)atoi(argv[4]);
	if (!hz || hz > 100000 || !rounds || rounds > MAX_ROUNDS || !ms || ms > 10000) {
		fprintf(stderr, "pp-kprof: HZ 1-100000, ROUNDS 1-%d, MS 1-10000\n", MAX_ROUNDS);
		return 2;
	}
	if (pp_kprof_probe(&how)) {
		pp_err("profile: %s", how.why);
		return 4;
	}
	/* size a chunk to ms */
	for (n = 1000;; n *= 2) {
		t0 = now_ns();
		loop(n);
		if (now_ns() - t0 > (uint64_t)ms * 250000)
			break;
	}
	n = (uint64_t)((double)n * ms * 1e6 / (double)(now_ns() - t0));
	for (r = 0; r < rounds; r++) {
		if (r & 1) {
			sampled[r] = chunk(&how, hz, n, &samples, &csampled[r]);
			plain[r] = chunk(NULL, hz, n, NULL, &cplain[r]);
		} else {
			plain[r] = chunk(NULL, hz, n, NULL, &cplain[r]);
			sampled[r] = chunk(&how, hz, n, &samples, &csampled[r]);
		}
		secs += csampled[r] * (double)n * 1e-9;
	}
	a = pp_median(plain, rounds);
	b = pp_median(sampled, rounds);
	ca = pp_median(cplain, rounds);
	cb = pp_median(csampled, rounds);
	printf("event=%s\nhz=%u\nchunk_ms=%u\nrounds=%u\n", how.event, hz, ms, rounds);
	printf("plain_ns=%.1f\nsampled_ns=%.1f\ncost_pct=%.2f\n", a, b, (b / a - 1) * 100);
	printf("cpu_plain_ns=%.1f\ncpu_sampled_ns=%.1f\ncpu_cost_pct=%.2f\n", ca, cb,
	       (cb / ca - 1) * 100);
	printf("samples_per_cpu_s=%.0f\n", (double)samples / secs);
	return 0;
}
