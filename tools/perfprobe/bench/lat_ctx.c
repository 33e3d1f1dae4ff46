// SPDX-License-Identifier: GPL-2.0
/*
 * lat_ctx: context switch time, as lmbench's lat_ctx.
 *
 * N processes (perfprobe and N-1 helpers) form a ring of N pipes and pass
 * a token (one int) around it.  Each process, when it holds the token,
 * sums its own private array of S KB (allocated and written after the
 * fork, so no page is shared) before passing the token on: the array is
 * the process's working set, which the other processes' arrays push out of
 * the caches.  One operation is one trip around the ring: N pipe
 * write/read pairs, N sums and N context switches.
 *
 * lmbench then subtracts what is not switching: it measures one process
 * that writes the token into a pipe, reads it back from the same pipe and
 * sums its array, cycling over as many pipes as the ring has (the largest
 * N measured for that size), and reports
 *
 *	lat_ctx-N-Sk = trip time / N - that overhead	(us per switch)
 *
 * as perfprobe does, per sample, with the median overhead.  Processes go
 * where the scheduler puts them, as in lmbench (or all on --cpu N); where
 * they ended is shown in the progress output.  With two CPUs and no
 * pinning, much of the "switch" is a cross-CPU wake-up.
 *
 * Sizes and process counts: lmbench's summary columns (2/0K, 2/16K,
 * 2/64K, 8/16K, 8/64K, 16/16K, 16/64K) and N = 2, 4 at 128K and 256K; with
 * --full, lmbench's standard run (S = 0 4 8 16 32 64 KB, N = 2 4 8 16 24
 * 32 64 96) as well.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "print.h"
#include "stats.h"
#include "benchlib/ipc.h"

#define CTX_MAXPROCS	96
#define CTX_NCOUNTS	8

struct ctx_size {
	unsigned int kb;
	unsigned int procs[CTX_NCOUNTS + 1];	/* 0-terminated, ascending */
};

static const struct ctx_size ctx_default[] = {
	{ 0, { 2 } },
	{ 16, { 2, 8, 16 } },
	{ 64, { 2, 8, 16 } },
	{ 128, { 2, 4 } },
	{ 256, { 2, 4 } },
};

#define LMB_PROCS	{ 2, 4, 8, 16, 24, 32, 64, 96 }
static const struct ctx_size ctx_full[] = {
	{ 0, LMB_PROCS },
	{ 4, LMB_PROCS },
	{ 8, LMB_PROCS },
	{ 16, LMB_PROCS },
	{ 32, LMB_PROCS },
	{ 64, LMB_PROCS },
	{ 128, { 2, 4 } },
	{ 256, { 2, 4 } },
};

struct ring {
	unsigned int procs;		/* pipes, and processes in the ring */
	int fds[CTX_MAXPROCS][2];
	pid_t pids[CTX_MAXPROCS];	/* [0] unused: perfprobe itself */
	unsigned int *data;		/* perfprobe's working set */
	size_t bytes;
	volatile unsigned int sink;
};

/* Read every int of the working set (lmbench's sumit()). */
static __noinline unsigned int sum_data(const unsigned int *d, size_t bytes)
{
	size_t i, n = bytes / sizeof(int);
	unsigned int sum = 0;

	__asm__ __volatile__("" : : "r"(d) : "memory");
	for (i = 0; i < n; i++)
		sum += d[i];
	return sum;
}

static unsigned int *new_data(size_t bytes)
{
	unsigned int *d;

	if (!bytes)
		return NULL;
	d = malloc(bytes);
	if (d)
		memset(d, 1, bytes);	/* private pages, really allocated */
	return d;
}

static int token_pass(int wr, int rd, int *tok)
{
	ssize_t r = write(wr, tok, sizeof(*tok));

	if (r != (ssize_t)sizeof(*tok))
		return pp_io_err(r);
	r = read(rd, tok, sizeof(*tok));
	return r == (ssize_t)sizeof(*tok) ? 0 : pp_io_err(r);
}

/* The overhead: one process, pipe write + read + sum, over all pipes. */
static int do_overhead(uint64_t n, void *arg)
{
	struct ring *r = arg;
	unsigned int i = 0, sum = 0;
	int tok = 1, ret;

	while (n-- > 0) {
		ret = token_pass(r->fds[i][1], r->fds[i][0], &tok);
		if (ret)
			return ret;
		if (++i == r->procs)
			i = 0;
		sum += sum_data(r->data, r->bytes);
	}
	r->sink = sum;
	return 0;
}

/* One trip around the ring. */
static int do_ring(uint64_t n, void *arg)
{
	struct ring *r = arg;
	unsigned int sum = 0;
	int tok = 1, ret;

	while (n-- > 0) {
		ret = token_pass(r->fds[0][1], r->fds[r->procs - 1][0], &tok);
		if (ret)
			return ret;
		sum += sum_data(r->data, r->bytes);
	}
	r->sink = sum;
	return 0;
}

/* Helper k of the ring: read from pipe k-1, sum, write into pipe k. */
static __attribute__((noreturn)) void member(struct ring *r, unsigned int k)
{
	int rd = r->fds[k - 1][0], wr = r->fds[k][1], tok;
	unsigned int i, sum = 0, *data;

	for (i = 0; i < r->procs; i++) {
		if (r->fds[i][0] != rd)
			close(r->fds[i][0]);
		if (r->fds[i][1] != wr)
			close(r->fds[i][1]);
	}
	data = new_data(r->bytes);
	if (r->bytes && !data)
		_exit(1);
	while (read(rd, &tok, sizeof(tok)) == (ssize_t)sizeof(tok)) {
		sum += sum_data(data, r->bytes);
		if (write(wr, &tok, sizeof(tok)) != (ssize_t)sizeof(tok))
			break;
	}
	r->sink = sum;
	_exit(0);
}

static void ring_close(struct ring *r)
{
	unsigned int i;

	for (i = 1; i < r->procs; i++) {
		pp_child_stop(r->pids[i]);
		r->pids[i] = -1;
	}
	for (i = 0; i < r->procs; i++) {
		if (r->fds[i][0] >= 0)
			close(r->fds[i][0]);
		if (r->fds[i][1] >= 0)
			close(r->fds[i][1]);
		r->fds[i][0] = r->fds[i][1] = -1;
	}
	free(r->data);
	r->data = NULL;
}

/* procs pipes and perfprobe's own working set. */
static int ring_open(struct ring *r, unsigned int procs, size_t bytes)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->procs = procs;
	r->bytes = bytes;
	for (i = 0; i < CTX_MAXPROCS; i++) {
		r->fds[i][0] = r->fds[i][1] = -1;
		r->pids[i] = -1;
	}
	for (i = 0; i < procs; i++)
		if (pipe2(r->fds[i], O_CLOEXEC))
			return -errno;
	r->data = new_data(bytes);
	return bytes && !r->data ? -ENOMEM : 0;
}

/* Fork the helpers; perfprobe keeps the ends it uses, sends one token. */
static int ring_start(struct ring *r)
{
	unsigned int i;
	int tok = 1;

	for (i = 1; i < r->procs; i++) {
		r->pids[i] = pp_child_fork();
		if (r->pids[i] < 0)
			return -errno;
		if (r->pids[i] == 0)
			member(r, i);
	}
	for (i = 0; i < r->procs; i++) {
		if (i != r->procs - 1) {
			close(r->fds[i][0]);
			r->fds[i][0] = -1;
		}
		if (i != 0) {
			close(r->fds[i][1]);
			r->fds[i][1] = -1;
		}
	}
	return token_pass(r->fds[0][1], r->fds[r->procs - 1][0], &tok);
}

/* Median ns of the overhead loop for this size over procs pipes; -errno. */
static int overhead(struct pp_ctx *ctx, struct ring *r, unsigned int procs,
		    size_t bytes, struct pp_sampling *s, double *ns)
{
	int ret = ring_open(r, procs, bytes);

	if (!ret)
		ret = pp_sample(ctx, do_overhead, r, NULL, s);
	ring_close(r);
	if (!ret)
		*ns = pp_median(s->ns_per_op, s->n);
	return ret;
}

struct ring_job {
	struct ring *r;
	unsigned int procs, maxprocs;
	size_t bytes;
	double *ovh;			/* the size's overhead, per process */
	struct pp_placement *pl;
};

/*
 * One ring's trips, less procs times the overhead.  A burst of other
 * load during the overhead's samples or the ring's can leave the ring
 * below the overhead: measured again, the overhead is measured again too.
 */
static int measure_ring(struct pp_ctx *ctx, void *arg, unsigned int attempt,
			struct pp_sampling *s, double *overhead_ns)
{
	struct ring_job *j = arg;
	struct ring *r = j->r;
	int ret = 0;

	if (attempt)
		ret = overhead(ctx, r, j->maxprocs, j->bytes, s, j->ovh);
	if (!ret)
		ret = ring_open(r, j->procs, j->bytes);
	if (!ret)
		ret = ring_start(r);
	if (!ret) {
		pp_place_init(j->pl, r->pids + 1, j->procs - 1);
		ret = pp_sample_placed(ctx, do_ring, r, NULL, s, j->pl);
	}
	ring_close(r);
	*overhead_ns = *j->ovh * j->procs;
	return ret;
}

/*
 * Is this size's switch (s, ns per switch) below the 0k one of the same
 * process count beyond their noise?  why says by how much.
 */
#define CTX_ATTEMPTS	3
#define CTX_FLOOR_PCT	10.0

static bool below_0k(struct pp_ctx *ctx, unsigned int procs, const struct pp_sampling *s,
		     char *why, size_t len)
{
	char key0[PP_KEY_MAX], a[PP_NUM_LEN], b[PP_NUM_LEN];
	const struct pp_result *r0;
	double us, tol;

	snprintf(key0, sizeof(key0), "lat_ctx-%u-0k", procs);
	r0 = pp_run_find(ctx->run, key0);
	if (!r0)
		return false;
	us = pp_median(s->ns_per_op, s->n) * 1e-3;
	if (!pp_below_beyond_noise(us, pp_cv_pct(s->ns_per_op, s->n), r0->value, r0->st.cv_pct,
				   CTX_FLOOR_PCT, &tol))
		return false;
	pp_fmt_num(a, sizeof(a), us);
	pp_fmt_num(b, sizeof(b), r0->value);
	snprintf(why, len, "%s us is below %s's %s us by more than the noise (%.0f%%)", a, key0,
		 b, tol);
	return true;
}

/* The ring of j->procs processes, its samples in s. */
static int one_ring(struct pp_ctx *ctx, struct ring_job *j, struct pp_sampling *s)
{
	char key[PP_KEY_MAX], why[PP_KEY_MAX + 2 * PP_NUM_LEN + 64];
	unsigned int a;
	int ret;

	snprintf(key, sizeof(key), "lat_ctx-%u-%zuk", j->procs, j->bytes / 1024);
	/*
	 * lmbench prints nothing when the overhead swamps the ring.  A
	 * working set cannot make a switch cheaper than the 0k one: a size
	 * that reads below it beyond the noise is measured again, and
	 * skipped when it stays there.
	 */
	for (a = 0;; a++) {
		ret = pp_sample_net(ctx, key, measure_ring, j, j->procs, s);
		if (ret || !j->bytes || !below_0k(ctx, j->procs, s, why, sizeof(why)))
			break;
		if (a + 1 == CTX_ATTEMPTS)
			return pp_skip(ctx, key, "%s in each of %u measurements: impossible, not "
				       "reported", why, CTX_ATTEMPTS);
		pp_progress(ctx, "%s: %s: measuring again", key, why);
	}
	if (!ret)
		ret = pp_report_sampling(ctx, key, s);
	if (!ret)
		pp_place_note(ctx, key, j->pl);
	return ret;
}

static int one_size(struct pp_ctx *ctx, const struct ctx_size *cs, struct ring *r,
		    struct pp_sampling *s, struct pp_placement *pl)
{
	double ovh = 0;
	struct ring_job j = { r, 0, 0, (size_t)cs->kb * 1024, &ovh, pl };
	int ret, skipped = 0;
	unsigned int i;

	for (i = 0; i < CTX_NCOUNTS && cs->procs[i]; i++)
		j.maxprocs = cs->procs[i];
	ret = overhead(ctx, r, j.maxprocs, j.bytes, s, &ovh);
	if (ret)
		return pp_fail(ctx, "lat_ctx overhead, %uk: %s", cs->kb, strerror(-ret));
	pp_progress(ctx, "lat_ctx: %uk: overhead (pipe + sum, one process) %.3f us",
		    cs->kb, ovh * 1e-3);
	for (i = 0; i < CTX_NCOUNTS && cs->procs[i]; i++) {
		j.procs = cs->procs[i];
		ret = one_ring(ctx, &j, s);
		if (ret < 0)
			return ret;
		skipped |= ret;
	}
	return skipped;
}

static int lat_ctx_run(struct pp_ctx *ctx)
{
	const struct ctx_size *list = ctx->opts.full ? ctx_full : ctx_default;
	size_t n = ctx->opts.full ? ARRAY_SIZE(ctx_full) : ARRAY_SIZE(ctx_default);
	struct pp_sampling *s = malloc(sizeof(*s));
	struct pp_placement *pl = malloc(sizeof(*pl));
	struct ring *r = malloc(sizeof(*r));
	struct sigaction old;
	int ret = 0;
	size_t i;

	if (!s || !pl || !r) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	pp_sigpipe_ignore(&old);
	for (i = 0; i < n && ret >= 0; i++)
		ret |= one_size(ctx, &list[i], r, s, pl);
	pp_sigpipe_restore(&old);
out:
	free(s);
	free(pl);
	free(r);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_ctx-%u-%uk", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "one switch among N processes with S KB each: lat_ctx-N-Sk",
	  .show = PP_SHOW({ .key = "lat_ctx-2-0k", PP_COL("ctx", 1, "2p/0K", "ctxsw", 5, 2), .lm_col = 1 },
		  { .key = "lat_ctx-2-16k", PP_COL("ctx", 2, "2p/16K", "ctxsw ", 6, 2), .lm_col = 2 },
		  { .key = "lat_ctx-2-64k", PP_COL("ctx", 3, "2p/64K", "ctxsw ", 6, 2), .lm_col = 3 },
		  { .key = "lat_ctx-8-16k", PP_COL("ctx", 4, "8p/16K", "ctxsw ", 6, 2), .lm_col = 4 },
		  { .key = "lat_ctx-8-64k", PP_COL("ctx", 5, "8p/64K", "ctxsw ", 6, 2), .lm_col = 5 },
		  { .key = "lat_ctx-16-16k", PP_COL("ctx", 6, "16p/16K", "ctxsw  ", 7, 2), .lm_col = 6 },
		  { .key = "lat_ctx-16-64k", PP_COL("ctx", 7, "16p/64K", "ctxsw  ", 7, 2), .lm_col = 7 },
		  { .key = "lat_ctx-2-0k", PP_COL("ipc", 1, "2p/0K", "ctxsw", 5, 2), .lm_col = 1 },
		  { .lm_block = "\"size=", .lm_rows = PP_LM_CTX }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_ctx = {
	.name = "lat_ctx",
	.group = "ctx",
	.summary = "context switch among N processes with S KB working sets each (us)",
	.keys = keys,
	.run = lat_ctx_run,
};
