// SPDX-License-Identifier: GPL-2.0
/*
 * bw_mem: memory bandwidth, as lmbench's bw_mem.
 *
 * Each operation works over S bytes of a page-aligned buffer (and, for
 * the copies, into a second one) in 512-byte chunks of 128 4-byte words:
 *
 *   rd     read every 4th word and sum          wr     write every 4th word
 *   rdwr   read and write back every 4th word   cp     copy every 4th word
 *   frd    read and sum every word              fwr    write every word,
 *                                                      each chunk backwards
 *   fcp    copy every word ("unrolled bcopy")   bzero  libc memset()
 *   bcopy  libc memmove() (bcopy()), src and dst both page-aligned
 *
 * Bandwidth is S / time in MB/s with lmbench's MB of 10^6 bytes; a copy
 * counts the S bytes copied once.  Every word is one scalar 4-byte load
 * or store, as in lmbench built with -O; memloop.h says how the loops are
 * kept that way.  fwr stores in the order lmbench's compiled chain of
 * assignments does (p[127] first): that order is its "Mem write" figure.
 *
 * Sizes: 1, 2, 4, ... MB up to 4 x the last-level cache, capped at
 * 256 MB (--full: 1 GB) and at an eighth of RAM per buffer; --quick: 1
 * and 16 MB.  Keys bw_mem-<op>-<S>mb.  The summary shows bcopy (libc),
 * fcp (hand), frd (read) and fwr (write) at the largest size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib/bandwidth.h"
#include "bench.h"
#include "benchlib/caches.h"
#include "benchlib/memloop.h"

#define WORDS		PP_CHUNK_WORDS	/* 512-byte chunks, as lmbench */
#define MIN_MAX_MB	16
#define MAX_MB		256
#define FULL_MAX_MB	1024
#define SAMPLE_MS	5.0		/* lmbench's ENOUGH on a stable machine */

struct mem_state {
	unsigned int *buf, *buf2;
	size_t nbytes;
};

static volatile unsigned int mem_sink;

static const unsigned int *last_chunk(const struct mem_state *s)
{
	return s->buf + s->nbytes / 4 - WORDS;
}

static int do_rd(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	const unsigned int *p, *last = last_chunk(s);
	unsigned int sum = 0, t, i;

	while (n-- > 0) {
		for (p = s->buf; p <= last; p += WORDS) {
			t = 0;
#pragma GCC unroll 32
			for (i = 0; i < WORDS; i += 4)
				t = pp_sum32(t, p[i]);
			sum += t;
		}
		pp_pass_done();
	}
	mem_sink += sum;
	return 0;
}

static int do_wr(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	volatile unsigned int *p, *last = s->buf + s->nbytes / 4 - WORDS;
	unsigned int i;

	while (n-- > 0)
		for (p = s->buf; p <= last; p += WORDS)
#pragma GCC unroll 32
			for (i = 0; i < WORDS; i += 4)
				p[i] = 1;
	return 0;
}

static int do_rdwr(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	const unsigned int *p, *last = last_chunk(s);
	volatile unsigned int *w;
	unsigned int sum = 0, t, i;

	while (n-- > 0) {
		for (p = s->buf; p <= last; p += WORDS) {
			w = (volatile unsigned int *)p;
			t = 0;
#pragma GCC unroll 32
			for (i = 0; i < WORDS; i += 4) {
				t = pp_sum32(t, p[i]);
				w[i] = 1;
			}
			sum += t;
		}
		pp_pass_done();
	}
	mem_sink += sum;
	return 0;
}

static int do_cp(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	const volatile unsigned int *p, *last = last_chunk(s);
	volatile unsigned int *d;
	unsigned int i;

	while (n-- > 0)
		for (p = s->buf, d = s->buf2; p <= last; p += WORDS, d += WORDS)
#pragma GCC unroll 32
			for (i = 0; i < WORDS; i += 4)
				d[i] = p[i];
	return 0;
}

static int do_frd(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	const unsigned int *p, *last = last_chunk(s);
	unsigned int sum = 0, t, i;

	while (n-- > 0) {
		for (p = s->buf; p <= last; p += WORDS) {
			t = 0;
#pragma GCC unroll 128
			for (i = 0; i < WORDS; i++)
				t = pp_sum32(t, p[i]);
			sum += t;
		}
		pp_pass_done();
	}
	mem_sink += sum;
	return 0;
}

static int do_fwr(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	volatile unsigned int *p, *last = s->buf + s->nbytes / 4 - WORDS;
	unsigned int i;

	/* lmbench's chain of assignments, as compiled: p[127] down to p[0] */
	while (n-- > 0)
		for (p = s->buf; p <= last; p += WORDS)
#pragma GCC unroll 128
			for (i = WORDS; i-- > 0;)
				p[i] = 1;
	return 0;
}

static int do_fcp(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;
	const volatile unsigned int *p, *last = last_chunk(s);
	volatile unsigned int *d;
	unsigned int i;

	while (n-- > 0)
		for (p = s->buf, d = s->buf2; p <= last; p += WORDS, d += WORDS)
#pragma GCC unroll 128
			for (i = 0; i < WORDS; i++)
				d[i] = p[i];
	return 0;
}

static int do_bzero(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;

	while (n-- > 0) {
		memset(s->buf, 0, s->nbytes);
		pp_pass_done();
	}
	return 0;
}

static int do_bcopy(uint64_t n, void *arg)
{
	const struct mem_state *s = arg;

	while (n-- > 0) {
		memmove(s->buf2, s->buf, s->nbytes);
		pp_pass_done();
	}
	return 0;
}

static const struct {
	const char *name;
	pp_loop_fn fn;
} mem_ops[] = {
	{ "rd", do_rd }, { "wr", do_wr }, { "rdwr", do_rdwr }, { "cp", do_cp },
	{ "frd", do_frd }, { "fwr", do_fwr }, { "fcp", do_fcp },
	{ "bzero", do_bzero }, { "bcopy", do_bcopy },
};

/* The last-level cache; 8 MB (lmbench's default) when nothing says. */
static unsigned long llc_bytes(const char **how)
{
	unsigned long v = pp_llc_bytes(how);

	if (v)
		return v;
	*how = "unknown, assumed";
	return 8ul << 20;
}

static unsigned int max_size_mb(struct pp_ctx *ctx)
{
	unsigned long long ram = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
				 (unsigned long long)sysconf(_SC_PAGESIZE);
	unsigned int cap = ctx->opts.full ? FULL_MAX_MB : MAX_MB, mb = MIN_MAX_MB;
	const char *how;
	unsigned long llc = llc_bytes(&how);

	if (ctx->opts.quick)
		return MIN_MAX_MB;
	while ((unsigned long long)mb << 20 < 4ull * llc && mb < cap)
		mb *= 2;
	while (mb > MIN_MAX_MB && ((unsigned long long)mb << 20) * 8 > ram)
		mb /= 2;
	pp_progress(ctx, "bw_mem: last-level cache %lu KB (%s): sizes up to %u MB%s",
		    llc >> 10, how, mb, mb == cap ? " (capped)" : "");
	return mb;
}

static int mem_sizes(struct pp_ctx *ctx, struct mem_state *s, unsigned int max_mb)
{
	struct pp_timing_opts to = { 0 };
	char key[PP_KEY_MAX];
	unsigned int mb, i;
	int ret = 0;

	/*
	 * 81 results by default: samples of 5 ms rather than the run's 10
	 * halve the time of the sizes that fit in the caches, and are long
	 * enough for loops of whole passes.  --full keeps its own.
	 */
	if (!ctx->opts.full && ctx->opts.target_ms > SAMPLE_MS)
		to.target_ms = SAMPLE_MS;

	for (mb = 1; !ret && mb <= max_mb; mb *= 2) {
		if (ctx->opts.quick && mb != 1 && mb != max_mb)
			continue;
		s->nbytes = (size_t)mb << 20;
		for (i = 0; !ret && i < ARRAY_SIZE(mem_ops); i++) {
			snprintf(key, sizeof(key), "bw_mem-%s-%umb", mem_ops[i].name, mb);
			ret = pp_bandwidth_mb(ctx, key, mem_ops[i].fn, s,
					      (double)s->nbytes, &to);
		}
	}
	return ret;
}

static int bw_mem_run(struct pp_ctx *ctx)
{
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int max_mb = max_size_mb(ctx);
	size_t max = (size_t)max_mb << 20;
	struct mem_state s = { 0 };
	int ret;

	/* Like lmbench's valloc()s; touched now so no page faults are timed. */
	s.buf = aligned_alloc(psize, max);
	s.buf2 = aligned_alloc(psize, max);
	if (!s.buf || !s.buf2) {
		ret = pp_fail(ctx, "cannot allocate 2 x %u MB", max_mb);
		goto out;
	}
	memset(s.buf, 0, max);
	memset(s.buf2, 0, max);
	ret = mem_sizes(ctx, &s, max_mb);
out:
	free(s.buf);
	free(s.buf2);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_mem-%s-%umb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "memory op (rd wr rdwr cp frd fwr fcp bzero bcopy) on N MB",
	  .show = PP_SHOW({ .key = "bw_mem-bcopy-*", PP_COL("bw", 6, " Bcopy", "(libc)", 6, 0), .lm_col = 6 },
		  { .key = "bw_mem-fcp-*", PP_COL("bw", 7, " Bcopy", "(hand)", 6, 0), .lm_col = 7 },
		  { .key = "bw_mem-frd-*", PP_COL("bw", 8, " Mem", "read", 4, 0), .lm_col = 8 },
		  { .key = "bw_mem-fwr-*", PP_COL("bw", 9, "  Mem", "write", 5, 0), .lm_col = 9 },
		  { .key = "bw_mem-bcopy-%umb", .lm_block = "\"libc bcopy unaligned" },
		  { .key = "bw_mem-fcp-%umb", .lm_block = "\"unrolled bcopy unaligned" },
		  { .key = "bw_mem-cp-%umb", .lm_block = "\"unrolled partial bcopy unaligned" },
		  { .key = "bw_mem-bzero-%umb", .lm_block = "Memory bzero bandwidth" },
		  { .key = "bw_mem-frd-%umb", .lm_block = "Memory read bandwidth" },
		  { .key = "bw_mem-rd-%umb", .lm_block = "Memory partial read bandwidth" },
		  { .key = "bw_mem-fwr-%umb", .lm_block = "Memory write bandwidth" },
		  { .key = "bw_mem-wr-%umb", .lm_block = "Memory partial write bandwidth" },
		  { .key = "bw_mem-rdwr-%umb", .lm_block = "Memory partial read/write bandwidth" },
		  { .key = "bw_mem-rd-*", .chart = "bw-mem" }, { .key = "bw_mem-wr-*", .chart = "bw-mem" },
		  { .key = "bw_mem-rdwr-*", .chart = "bw-mem" }, { .key = "bw_mem-cp-*", .chart = "bw-mem" },
		  { .key = "bw_mem-fcp-*", .chart = "bw-mem" }, { .key = "bw_mem-frd-*", .chart = "bw-mem" },
		  { .key = "bw_mem-fwr-*", .chart = "bw-mem" }, { .key = "bw_mem-bcopy-*", .chart = "bw-mem" },
		  { .key = "bw_mem-bzero-*", .chart = "bw-mem" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_mem = {
	.name = "bw_mem",
	.group = "bw",
	.summary = "memory read, write, copy, bzero, bcopy bandwidth, 1 MB to past the LLC (MB/s)",
	.keys = keys,
	.run = bw_mem_run,
};
