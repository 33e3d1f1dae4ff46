// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe copy: copy_from_user()/copy_to_user()/clear_user() bandwidth
 * measured inside perfprobe.ko on our own buffer, beside user-space
 * memcpy() of the same size and alignment.  Every copy is checked: the
 * module's FNV-1a of what it copied in, the pattern it copied out, the
 * zeros it cleared.  Documentation/kmod-tools.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kmodcmd.h"
#include "print.h"
#include "runcmd.h"
#include "stats.h"

#define MB			(1024.0 * 1024.0)	/* lmbench's MB */
#define GUARD			64
#define MAX_ALIGN		(PERFPROBE_COPY_MAX_OFFSET - 1)

static const char *const dir_names[] = { "in", "out", "clear" };

struct copy_cfg {
	unsigned int dirs;		/* PP_COPY_DIR_* */
	uint64_t sizes[PP_COPY_MAX_SIZES];
	unsigned int nsizes;
	uint64_t aligns[PP_COPY_MAX_ALIGNS];
	unsigned int naligns;
};

struct copy_cell {
	uint64_t size, align;
	double mbps[3], ns[3];		/* per direction, NAN if not run */
	double memcpy_mbps;
};

struct copy_state {
	struct pp_ctx ctx;
	struct pp_run run;
	struct ppnl sess;
	unsigned char *buf, *src;	/* buflen bytes each, mmap()ed */
	size_t buflen;
	struct copy_cell *cells;
	unsigned int ncells;
	unsigned int dirs;		/* PP_COPY_DIR_* run */
};

/* --- options --- */

int pp_copy_parse_dir(const char *s, unsigned int *dirs)
{
	if (!strcmp(s, "in"))
		*dirs = PP_COPY_DIR_IN;
	else if (!strcmp(s, "out"))
		*dirs = PP_COPY_DIR_OUT;
	else if (!strcmp(s, "clear"))
		*dirs = PP_COPY_DIR_CLEAR;
	else if (!strcmp(s, "all"))
		*dirs = PP_COPY_DIR_IN | PP_COPY_DIR_OUT | PP_COPY_DIR_CLEAR;
	else
		return -EINVAL;
	return 0;
}

int pp_copy_parse_list(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out, unsigned int maxn, unsigned int *n)
{
	char buf[1024], *tok, *save = NULL;

	*n = 0;
	if (!pp_strlcpy(buf, s, sizeof(buf)) || !*buf)
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (*n >= maxn || pp_parse_size(tok, &v) || v < min || v > max)
			return -EINVAL;
		out[(*n)++] = v;
	}
	return *n ? 0 : -EINVAL;
}

void pp_copy_size_name(uint64_t size, char *buf, size_t len)
{
	if (size >= (1 << 20) && !(size % (1 << 20)))
		snprintf(buf, len, "%llum", (unsigned long long)(size >> 20));
	else if (size >= 1024 && !(size % 1024))
		snprintf(buf, len, "%lluk", (unsigned long long)(size >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)size);
}

static void default_cfg(struct copy_cfg *c, bool quick)
{
	static const uint64_t quick_sizes[] = { 64, 4095, 4096, 65537, 1 << 20 };
	static const uint64_t odd[] = { 3, 4095, 65537 };
	static const uint64_t aligns[] = { 0, 1, 7, 63 };
	unsigned int i, k;

	memset(c, 0, sizeof(*c));
	c->dirs = PP_COPY_DIR_IN | PP_COPY_DIR_OUT;
	if (quick) {
		for (i = 0; i < ARRAY_SIZE(quick_sizes); i++)
			c->sizes[c->nsizes++] = quick_sizes[i];
		c->aligns[c->naligns++] = 0;
		c->aligns[c->naligns++] = 7;
		return;
	}
	/* powers of two from 1 B to 64 MiB, with the odd sizes in order */
	for (k = 0, i = 0; k <= 26; k++) {
		while (i < ARRAY_SIZE(odd) && odd[i] < (1ULL << k))
			c->sizes[c->nsizes++] = odd[i++];
		c->sizes[c->nsizes++] = 1ULL << k;
	}
	for (i = 0; i < ARRAY_SIZE(aligns); i++)
		c->aligns[c->naligns++] = aligns[i];
}

static int copy_opts(struct pp_cli *cli, struct copy_cfg *c)
{
	int i;

	default_cfg(c, cli->opts.quick);
	for (i = 0; i < cli->ncopts; i++) {
		const struct pp_cli_opt *o = &cli->copts[i];

		if (o->val == 'd' && pp_copy_parse_dir(o->arg, &c->dirs))
			return pp_usage_err("copy: --dir: '%s' is not in, out, clear or all",
					     o->arg);
		if (o->val == 's' &&
		    pp_copy_parse_list(o->arg, 1, PERFPROBE_COPY_MAX_SIZE, c->sizes,
				       PP_COPY_MAX_SIZES, &c->nsizes))
			return pp_usage_err("copy: --sizes: '%s' is not a list of sizes from 1 to 64m (e.g. 3,4k,1m)",
					     o->arg);
		if (o->val == 'a' &&
		    pp_copy_parse_list(o->arg, 0, MAX_ALIGN, c->aligns,
				       PP_COPY_MAX_ALIGNS, &c->naligns))
			return pp_usage_err("copy: --align: '%s' is not a list of offsets from 0 to %llu",
					     o->arg, MAX_ALIGN);
	}
	return 0;
}

/* --- buffers and data checks --- */

static void *map_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int setup_bufs(struct copy_state *st, const struct copy_cfg *c)
{
	uint64_t max = 0;
	unsigned int i;

	for (i = 0; i < c->nsizes; i++)
		if (c->sizes[i] > max)
			max = c->sizes[i];
	st->buflen = (size_t)max + PERFPROBE_COPY_MAX_OFFSET + GUARD;
	st->buf = map_buf(st->buflen);
	st->src = map_buf(st->buflen);
	if (!st->buf || !st->src) {
		pp_err("copy: cannot map 2 x %zu bytes: %s", st->buflen, strerror(errno));
		return -ENOMEM;
	}
	/* pre-faulted by MAP_POPULATE; locked so no fault lands in a copy */
	if (mlock(st->buf, st->buflen) || mlock(st->src, st->buflen))
		fprintf(stderr, "perfprobe: copy: warning: mlock: %s: continuing unlocked\n",
			strerror(errno));
	memset(st->src, 0x3c, st->buflen);
	return 0;
}

static void free_bufs(struct copy_state *st)
{
	if (st->buf)
		munmap(st->buf, st->buflen);
	if (st->src)
		munmap(st->src, st->buflen);
}

/* Prepare [align, align + size) before a series; return the expected sum. */
static uint64_t prepare(unsigned char *p, uint32_t dir, uint64_t size,
			uint64_t align)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ size, j;

	p[align + size] = 0x5a;			/* guard after */
	if (align)
		p[align - 1] = 0x5a;		/* guard before */
	for (j = 0; j < size; j++) {
		unsigned char *b = &p[align + j];

		if (dir == PERFPROBE_COPY_FROM_USER) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			*b = (unsigned char)x;
		} else if (dir == PERFPROBE_COPY_TO_USER) {
			*b = (unsigned char)~PERFPROBE_COPY_PATTERN(j);
		} else {
			*b = 0xa5;
		}
	}
	return dir == PERFPROBE_COPY_FROM_USER ? ppnl_fnv1a64(p + align, size) : 0;
}

/* After a series: what the kernel wrote, and nothing around it. */
static int verify(const unsigned char *p, uint32_t dir, uint64_t size,
		  uint64_t align, uint64_t *bad)
{
	uint64_t j;

	if (p[align + size] != 0x5a || (align && p[align - 1] != 0x5a)) {
		*bad = p[align + size] != 0x5a ? size : (uint64_t)-1;
		return -EIO;
	}
	if (dir == PERFPROBE_COPY_FROM_USER)
		return 0;
	for (j = 0; j < size; j++) {
		unsigned char want = dir == PERFPROBE_COPY_TO_USER ?
				     PERFPROBE_COPY_PATTERN(j) : 0;

		if (p[align + j] != want) {
			*bad = j;
			return -EIO;
		}
	}
	return 0;
}

/* --- the kernel side --- */

static int kcopy(struct copy_state *st, struct ppnl_copy *req, uint64_t sum,
		 const char *key)
{
	int ret = ppnl_copy(&st->sess, req);

	if (ret) {
		ppnl_perror(&st->sess, key, ret);
		return ret;
	}
	if (!req->done) {
		pp_err("%s: the module did no iteration", key);
		return -EIO;
	}
	if (req->dir == PERFPROBE_COPY_FROM_USER &&
	    (!req->has_checksum || req->checksum != sum)) {
		pp_err("%s: data mismatch: the kernel's checksum %#llx is not ours %#llx",
		       key, (unsigned long long)req->checksum, (unsigned long long)sum);
		return -EIO;
	}
	return 0;
}

static uint32_t clamp_iters(uint64_t want, uint64_t size)
{
	uint64_t cap = PERFPROBE_COPY_MAX_TOTAL_BYTES / size;

	if (cap > PERFPROBE_COPY_MAX_ITERATIONS)
		cap = PERFPROBE_COPY_MAX_ITERATIONS;
	if (want > cap)
		want = cap;
	return want ? (uint32_t)want : 1;
}

/* Size the loop so one COPY request lasts the target time. */
static int calibrate(struct copy_state *st, struct ppnl_copy *req, uint64_t sum,
		     const char *key)
{
	uint64_t target = (uint64_t)(st->ctx.opts.target_ms * 1e6);
	unsigned int round;
	int ret;

	req->iterations = 1;
	for (round = 0; round < 40; round++) {
		ret = kcopy(st, req, sum, key);
		if (ret)
			return ret;
		if (req->total_ns >= target / 16 ||
		    req->iterations == clamp_iters(UINT64_MAX, req->size))
			break;
		req->iterations = clamp_iters(pp_next_iters(req->done, req->total_ns,
							    target), req->size);
	}
	req->iterations = clamp_iters(pp_next_iters(req->done, req->total_ns, target),
				      req->size);
	return 0;
}

static int kernel_series(struct copy_state *st, struct copy_cell *cell,
			 uint32_t dir)
{
	struct ppnl_copy req = { .dir = dir, .addr = (uintptr_t)st->buf,
				 .buflen = st->buflen, .size = cell->size,
				 .offset = cell->align };
	double mbps[PP_MAX_SAMPLES], ns[PP_MAX_SAMPLES];
	char key[PP_KEY_MAX], sz[32];
	unsigned int i, n = st->ctx.opts.samples;
	uint64_t sum, bad = 0;
	int ret;

	pp_copy_size_name(cell->size, sz, sizeof(sz));
	snprintf(key, sizeof(key), "kcopy-%s-%s-a%llu", dir_names[dir], sz,
		 (unsigned long long)cell->align);
	sum = prepare(st->buf, dir, cell->size, cell->align);
	ret = calibrate(st, &req, sum, key);
	for (i = 0; !ret && i < n; i++) {
		ret = kcopy(st, &req, sum, key);
		if (ret)
			break;
		ns[i] = (double)req.total_ns / req.done;
		mbps[i] = (double)cell->size / ns[i] * 1e9 / MB;
	}
	if (ret)
		return ret;
	if (verify(st->buf, dir, cell->size, cell->align, &bad)) {
		pp_err("%s: data mismatch at byte %lld of the copy", key, (long long)bad);
		return -EIO;
	}
	if (pp_report(&st->ctx, key, mbps, n, req.iterations))
		return -ENOMEM;
	cell->mbps[dir] = pp_median(mbps, n);
	cell->ns[dir] = pp_median(ns, n);
	return 0;
}

/* --- memcpy beside it --- */

struct mc_arg {
	unsigned char *dst;
	const unsigned char *src;
	size_t size;
};

static int mc_loop(uint64_t iters, void *arg)
{
	struct mc_arg *a = arg;

	while (iters-- > 0) {
		memcpy(a->dst, a->src, a->size);
		__asm__ __volatile__("" ::: "memory");
	}
	return 0;
}

static int memcpy_series(struct copy_state *st, struct copy_cell *cell)
{
	struct mc_arg a = { st->buf + cell->align, st->src + cell->align, cell->size };
	double mbps[PP_MAX_SAMPLES];
	struct pp_sampling *s;
	char key[PP_KEY_MAX], sz[32];
	unsigned int i;
	int ret;

	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	pp_copy_size_name(cell->size, sz, sizeof(sz));
	snprintf(key, sizeof(key), "memcpy-%s-a%llu", sz, (unsigned long long)cell->align);
	ret = pp_sample(&st->ctx, mc_loop, &a, NULL, s);
	if (!ret && memcmp(a.dst, a.src, a.size)) {
		pp_err("%s: memcpy() copied the wrong data", key);
		ret = -EIO;
	}
	for (i = 0; !ret && i < s->n; i++)
		mbps[i] = (double)cell->size / s->ns_per_op[i] * 1e9 / MB;
	if (!ret && pp_report(&st->ctx, key, mbps, s->n, s->iters))
		ret = -ENOMEM;
	if (!ret)
		cell->memcpy_mbps = pp_median(mbps, s->n);
	free(s);
	return ret;
}

/* --- the run --- */

static int run_cell(struct copy_state *st, struct copy_cell *cell,
		    unsigned int dirs)
{
	uint32_t d;
	int ret;

	/* not run (yet): a cell that fails half way shows what it has */
	cell->memcpy_mbps = NAN;
	for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++)
		cell->mbps[d] = cell->ns[d] = NAN;
	for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++) {
		if (!(dirs & (1U << d)))
			continue;
		ret = kernel_series(st, cell, d);
		if (ret)
			return ret;
	}
	return memcpy_series(st, cell);
}

/* The keys copy reports, as a benchmark declares them (keys.h). */
static const struct pp_key_decl copy_keys[] = {
	{ .pattern = "kcopy-%s-%s-a%u", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "copy_from_user (in), copy_to_user (out), clear_user by size and alignment" },
	{ .pattern = "memcpy-%s-a%u", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "user-space memcpy() beside them" },
	PP_KEYS_END
};

static int run_all(struct copy_state *st, const struct copy_cfg *c)
{
	unsigned int i, j;
	int ret;

	st->cells = calloc((size_t)c->nsizes * c->naligns, sizeof(*st->cells));
	if (!st->cells)
		return -ENOMEM;
	st->ctx.total = c->nsizes * c->naligns;
	for (i = 0; i < c->nsizes; i++) {
		for (j = 0; j < c->naligns; j++) {
			struct copy_cell *cell = &st->cells[st->ncells];

			cell->size = c->sizes[i];
			cell->align = c->aligns[j];
			st->ctx.done = st->ncells++;
			ret = run_cell(st, cell, c->dirs);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void col(double v, int width)
{
	if (isfinite(v))
		pp_print_text(" %*.*f", width, v < 100 ? 2 : 0, v);
}

/* The text of the run: one table; --json prints the run's results. */
static void copy_text(const struct pp_run *run, void *arg)
{
	const struct copy_state *st = arg;
	unsigned int i, d, dirs = st->dirs;

	(void)run;
	pp_print_text("User copy bandwidth in MB/s (2^20 bytes/s) - bigger is better; ns per call\n");
	pp_print_text("%9s %5s", "size", "align");
	for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++)
		if (dirs & (1U << d))
			pp_print_text(" %5s MB/s", dir_names[d]);
	pp_print_text(" %11s", "memcpy MB/s");
	for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++)
		if (dirs & (1U << d))
			pp_print_text(" %5s ns/call", dir_names[d]);
	pp_print_nl();
	for (i = 0; i < st->ncells; i++) {
		const struct copy_cell *c = &st->cells[i];
		char sz[32];

		pp_copy_size_name(c->size, sz, sizeof(sz));
		pp_print_text("%9s %5llu", sz, (unsigned long long)c->align);
		for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++)
			if (dirs & (1U << d))
				col(c->mbps[d], 10);
		col(c->memcpy_mbps, 11);
		for (d = 0; d <= PERFPROBE_COPY_DIR_MAX; d++)
			if (dirs & (1U << d))
				col(c->ns[d], 13);
		pp_print_nl();
	}
}

int pp_cmd_copy(struct pp_cli *cli, int argc, char **argv)
{
	struct copy_state st;
	struct ppnl_info info;
	struct copy_cfg cfg;
	int ret;

	(void)argv;
	if (argc)
		return pp_usage_err("copy: takes no arguments, only --dir, --sizes and --align");
	ret = copy_opts(cli, &cfg);
	if (ret)
		return ret;
	memset(&st, 0, sizeof(st));
	ret = pp_kmod_open(&st.sess, &info, "copy");
	if (ret)
		return ret;
	ret = pp_cmd_run_start(cli, &st.ctx, &st.run);
	if (ret) {
		ppnl_close(&st.sess);
		return ret;
	}
	st.ctx.bench = "copy";
	st.ctx.keys = copy_keys;
	st.dirs = cfg.dirs;
	ret = setup_bufs(&st, &cfg);
	if (!ret)
		ret = run_all(&st, &cfg);
	if (ret)	/* what went wrong is on stderr already */
		pp_run_fail(&st.run, "copy", strerror(-ret));
	ret = pp_cmd_run_finish(cli, &st.ctx, "copy", copy_text, &st);
	free(st.cells);
	free_bufs(&st);
	ppnl_close(&st.sess);
	return ret;
}
