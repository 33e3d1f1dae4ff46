/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurement harness used by every benchmark.
 *
 * A benchmark gives a loop body "run this operation iters times" and the
 * harness does the rest, as lmbench's benchmp() does: it sizes the loop
 * so one sample lasts the target time, throws a warm-up sample away,
 * takes N samples, keeps every one of them, subtracts the empty-loop
 * overhead and reports the median with its spread.  Benchmarks never
 * print: they report through pp_report*() and pp_skip().
 */
#ifndef PP_HARNESS_H
#define PP_HARNESS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "keys.h"
#include "results.h"
#include "util.h"

#define PP_MAX_SAMPLES		1000
#define PP_MAX_ROUNDS		100	/* run --rounds */
#define PP_PROFILE_SAMPLES	10	/* --profile-samples' default */
#define PP_MAX_PROFILE_SAMPLES	100000

/* Return 0, or a negative errno after which the measurement is failed. */
typedef int (*pp_loop_fn)(uint64_t iters, void *arg);

struct pp_opts {
	unsigned int samples;		/* --repeat, default 11 */
	unsigned int rounds;		/* --rounds, default 1 */
	double target_ms;		/* time one sample should last */
	double noise_pct;		/* CV above which a result is noisy */
	int pin_cpu;			/* --cpu, -1 = none */
	bool quick;
	bool full;
	const char *tmpdir;		/* --tmpdir */
	bool quiet;			/* --quiet: no progress */
	unsigned int profile_samples;	/* --profile-samples, default 10 */
	const char *vmlinux;		/* --vmlinux; NULL: looked for */
};

struct pp_ctx;

/*
 * Work that sizes itself, such as a network test that runs for a time:
 * one call runs it once and says how many operations (of what its
 * results count) it made, at least one, and may say in *ns what one
 * took as it timed them itself (its set-up left out; 0: the call's time
 * over *ops).
 */
typedef int (*pp_work_fn)(void *arg, uint64_t *ops, double *ns);

/* What a traced pass runs: a counted loop, or work that counts itself. */
struct pp_kv_job {
	pp_loop_fn loop;		/* loop(iters, arg), iters in all */
	uint64_t iters;
	pp_work_fn work;		/* else work(arg, &ops) once a chunk */
	void *arg;
	double gross_ns;		/* untraced time of one operation */
};

/*
 * The kernel view of a measurement (the command sets it; NULL: off).
 * Called after the untraced samples with what they ran and its median
 * gross time per operation (ns, the empty loop included): run it again
 * in traced passes and fill k per operation.  0 with k filled, else
 * nonzero and k untouched.
 */
typedef int (*pp_kview_fn)(struct pp_ctx *ctx, const struct pp_kv_job *job,
			   struct pp_kside *k);

struct pp_ctx {
	struct pp_opts opts;
	struct pp_run *run;
	const char *bench;		/* benchmark now running */
	const struct pp_key_decl *keys;	/* and the keys it declares */
	char exe_dir[256];		/* directory of the perfprobe binary */
	unsigned int done, total;	/* progress, in benchmarks */
	unsigned int round;		/* run --rounds: this one, from 0 */
	uint64_t start_ns, bench_ns;	/* when the run, the benchmark began */
	/* the benchmark's results so far, how many of them are noisy */
	unsigned int bench_results, bench_noisy;
	size_t bench_skips;		/* the run's skips when it began */
	bool bench_failed;		/* its failure was said */
	char failmsg[256];
	pp_kview_fn kview;
	/* the last sampled loop's kernel view, for the result that reports it */
	struct pp_kside kv_last;
	uint64_t kv_iters;		/* 0: none pending */
};

/* One timing of a loop: samples[i] is ns per operation of sample i. */
struct pp_sampling {
	uint64_t iters;
	unsigned int n;
	double ns_per_op[PP_MAX_SAMPLES];
	int cpu_first, cpu_last;
	/*
	 * noisy: taken in all, and the first n's CV (pp_sample() sets them;
	 * a sampling filled by hand must zero taken)
	 */
	unsigned int taken;
	double first_cv_pct;
	/* still noisy: what else took the CPU meanwhile (cpuhog.h) */
	char hogs[160];
};

struct pp_timing_opts {
	double target_ms;		/* 0: the run's default */
	uint64_t max_iters;		/* 0: no limit */
	bool no_overhead;		/* do not subtract the empty loop */
	bool no_kview;			/* an overhead loop: no kernel view */
};

/* Loop sizing, kept pure so it can be tested: next iteration count. */
uint64_t pp_next_iters(uint64_t iters, uint64_t elapsed_ns, uint64_t target_ns);

/*
 * The kernel view of a loop the benchmark timed itself (ctx->kview; does
 * nothing when it is off): fn(iters) runs in the traced passes, gross_ns
 * is its untraced time per iteration.  The next result reported with a
 * multiple of iters operations carries it, as after pp_sample().  iters
 * 0: the next results carry none (the last loop's view is not theirs).
 */
void pp_kview_loop(struct pp_ctx *ctx, pp_loop_fn fn, void *arg, uint64_t iters,
		   double gross_ns);

/*
 * The kernel view of work that runs for a time of its own (ctx->kview;
 * nothing when it is off): each traced chunk is one fn() call and the
 * figures are per operation it said it made; gross_ns is the untraced
 * time of one.  The next results reported with iterations 1 carry it.
 */
void pp_kview_work(struct pp_ctx *ctx, pp_work_fn fn, void *arg, double gross_ns);

/* Measure the empty loop once per run (ns per iteration). */
double pp_loop_overhead(void);

/*
 * Size the loop, warm up and take the samples, less the empty loop's
 * cost (unless to->no_overhead).  0, or a negative errno; -EDOM when a
 * sample stayed at or below the empty loop (see pp_sample_net()).
 */
int pp_sample(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
	      const struct pp_timing_opts *to, struct pp_sampling *s);

/*
 * Impossible values.  A figure with an overhead taken out of it is a
 * difference of two measurements; when load hit the overhead's and not
 * the operation's, the difference is at or below zero: a time no
 * operation can take.  Such a measurement is taken again, overhead and
 * all, up to PP_NET_ATTEMPTS times, and then skipped with the reason:
 * never reported, and never left in the samples to drag the median.
 */
#define PP_NET_ATTEMPTS		5

/*
 * Every sample becomes (sample - overhead_ns) / per.  Pure.  Returns
 * false, s untouched, when one of them would be at or below zero.
 */
bool pp_sampling_net(struct pp_sampling *s, double overhead_ns, double per);

/*
 * Measure the operation into s and say what to take out of it: the
 * overhead (ns, per sample's operation) measured again or not, as the
 * benchmark sees fit; attempt counts from 0.  0 or a negative errno.
 */
typedef int (*pp_measure_fn)(struct pp_ctx *ctx, void *arg, unsigned int attempt,
			     struct pp_sampling *s, double *overhead_ns);

/*
 * measure() until every sample less its overhead, divided by per, is
 * above zero.  0 with s net; else the value of pp_skip() (it stayed
 * impossible) or of pp_sample_err().
 */
int pp_sample_net(struct pp_ctx *ctx, const char *key, pp_measure_fn measure,
		  void *arg, double per, struct pp_sampling *s);

/* A pp_sample() error of key: -EDOM is skipped with the reason, else failed. */
int pp_sample_err(struct pp_ctx *ctx, const char *key, int err);

/*
 * Results are reported under declared keys only: unit and direction are
 * the declaration's (ctx->keys), and a key that is not declared fails
 * the benchmark with the key named.  samples[] are in the unit.
 */
const struct pp_key_decl *pp_key_declared(struct pp_ctx *ctx, const char *key);
/* A helper that computes in one unit: 0, or pp_fail() if key is not declared in it. */
int pp_key_declared_in(struct pp_ctx *ctx, const char *key, const char *unit);
/* Recorded, not printed; NULL after pp_fail(). */
struct pp_result *pp_result_add(struct pp_ctx *ctx, const char *key,
				const double *samples, unsigned int n,
				uint64_t iters);
int pp_report(struct pp_ctx *ctx, const char *key, const double *samples,
	      unsigned int n, uint64_t iters);
/* s is in ns per op; reported in the declared time unit (ns, us, ms, s). */
int pp_report_sampling(struct pp_ctx *ctx, const char *key,
		       const struct pp_sampling *s);
/*
 * The same, for a result reported already and measured again (a
 * reference that later points showed disturbed): replaced in place.
 */
int pp_report_sampling_again(struct pp_ctx *ctx, const char *key,
			     const struct pp_sampling *s);

/* Sample and report in the declared time unit per operation. */
int pp_latency(struct pp_ctx *ctx, const char *key, pp_loop_fn fn, void *arg);

/* The benchmark (key == NULL) or one of its results cannot run here. */
int pp_skip(struct pp_ctx *ctx, const char *key, const char *fmt, ...)
	__printf(3, 4);
/* A fact that is not a number (the driver used): kept as text. */
void pp_info(struct pp_ctx *ctx, const char *name, const char *fmt, ...)
	__printf(3, 4);
/* Failed: message kept for the summary; returns -1. */
int pp_fail(struct pp_ctx *ctx, const char *fmt, ...) __printf(2, 3);

/*
 * progress.c: progress on stderr, "perfprobe: [i/N] ..." lines, none of
 * them with --quiet (errors are pp_err()'s, always):
 *
 *   pp_progress_end()	a benchmark's one line: its results, how many are
 *			noisy or skipped, its time;
 *   pp_notice()	what is left out or measured less well than asked:
 *			a skip, a cache that could not be dropped;
 *   pp_progress()	the detail, with -v only: each result, placement,
 *			"measuring again", the notes on a sampling.
 *
 * Every call redraws the status line of a terminal.
 */
void pp_progress(struct pp_ctx *ctx, const char *fmt, ...) __printf(2, 3);
void pp_notice(struct pp_ctx *ctx, const char *fmt, ...) __printf(2, 3);
/*
 * Benchmark i begins: the progress lines say i + 1 of ctx->total, and on
 * a terminal the status line its elapsed time, its results so far and an
 * estimate of what is left.  pp_status_end() when the run is over.
 */
void pp_progress_begin(struct pp_ctx *ctx, unsigned int i);
/*
 * It ended: its line, unless it measured nothing and a skip or its
 * failure (ctx->bench_failed) said so already.
 */
void pp_progress_end(struct pp_ctx *ctx);

/*
 * tmpdir.c: temporary files and directories of a benchmark.  They are
 * removed, by the process that made them, at pp_tmp_cleanup() and also
 * when the run is interrupted (pp_signals_install()).
 */
int pp_tmp_dir(struct pp_ctx *ctx, char *buf, size_t size);
void pp_tmp_cleanup(void);
/*
 * dir and everything below it (16 levels at most), in this process, with
 * async-signal-safe calls only: 0, or the first -errno.
 */
int pp_rmtree(const char *dir);

/*
 * interrupt.c: SIGINT, SIGTERM and SIGHUP remove the temporary
 * directories and end the process, unless the run is interruptible: then
 * the first only sets pp_interrupted (to the signal) and interrupts the
 * system call under way; the sampling loop then stops the benchmark with
 * -EINTR and the run ends, keeping what it measured.  A second signal
 * ends the process as the first would have without it.
 */
void pp_signals_install(void);
extern volatile sig_atomic_t pp_interrupted;
void pp_interrupt_enable(void);

/* CPU pinning (inherited by children). */
int pp_pin_cpu(int cpu);
int pp_current_cpu(void);

/* Path of a helper program installed beside perfprobe. */
int pp_helper_path(const struct pp_ctx *ctx, const char *name, char *buf,
		   size_t size);

#endif /* PP_HARNESS_H */
