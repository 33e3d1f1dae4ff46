// SPDX-License-Identifier: GPL-2.0
/*
 * bw_file_rd: rereading a cached file with read(), as lmbench's
 * bw_file_rd.
 *
 * One operation reads S bytes of the file in 64 KB read() calls into one
 * page-aligned buffer and, after each call, sums what it asked for as
 * longs (lmbench's bread(), pp_bread() in memloop.h: 128 longs to a
 * chunk, one add chain each), so the data is really looked at.  lmbench's
 * bw_file_rd declares its words int, but bread() sums longs: summing
 * 4-byte words took twice the adds and read 0.87 of lmbench3's 8 MB
 * figure (Documentation/accuracy.rst):
 *
 *   io   (lmbench "io_only")    lseek() to 0, read and sum S bytes
 *   o2c  (lmbench "open2close") open(), read and sum S bytes, close()
 *
 * Bandwidth is S / time in MB/s, with lmbench's MB of 10^6 bytes
 * (lib_timing.c: bandwidths are powers of ten).  Sizes 1, 2, ..., 64 MB
 * (--quick: 1 and 8 MB; --full: up to 256 MB) over one file of the
 * largest size; keys bw_file_rd-io-<S>mb and bw_file_rd-o2c-<S>mb.  The
 * summary's "File reread" column shows io at the largest size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib/bandwidth.h"
#include "bench.h"
#include "benchlib/datafile.h"
#include "benchlib/memloop.h"

#define XFERSIZE	(64 * 1024)	/* lmbench: all bandwidth I/O uses this */

struct rd_state {
	const char *path;
	int fd;
	long count;			/* bytes per operation */
	long xfer;
	void *buf;
};

static volatile unsigned long rd_sink;

/*
 * lmbench's doit(): read count bytes in xfer-sized calls, summing the
 * bytes asked for after each.  The loop runs while the count left is >= 0,
 * so a pass whose count is a multiple of xfer ends on a zero-byte read().
 */
static int read_sum(const struct rd_state *s, int fd)
{
	unsigned long sum = 0;
	long left = s->count;

	while (left >= 0) {
		size_t want = (size_t)(left < s->xfer ? left : s->xfer);
		ssize_t n = read(fd, s->buf, want);

		if (n < 0)
			return -errno;
		if (!n)
			break;
		sum += pp_bread(s->buf, want);
		left -= s->xfer;
	}
	rd_sink += sum;
	return 0;
}

static int do_io_only(uint64_t n, void *arg)
{
	const struct rd_state *s = arg;
	int ret;

	while (n-- > 0) {
		if (lseek(s->fd, 0, SEEK_SET) < 0)
			return -errno;
		ret = read_sum(s, s->fd);
		if (ret)
			return ret;
	}
	return 0;
}

static int do_open2close(uint64_t n, void *arg)
{
	const struct rd_state *s = arg;
	int fd, ret;

	while (n-- > 0) {
		fd = open(s->path, O_RDONLY);
		if (fd < 0)
			return -errno;
		ret = read_sum(s, fd);
		close(fd);
		if (ret)
			return ret;
	}
	return 0;
}

static int rd_sizes(struct pp_ctx *ctx, struct rd_state *s, const unsigned int *mb,
		    unsigned int n)
{
	char key[PP_KEY_MAX];
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		s->count = (long)mb[i] << 20;
		s->xfer = s->count < XFERSIZE ? s->count : XFERSIZE;
		snprintf(key, sizeof(key), "bw_file_rd-io-%umb", mb[i]);
		ret = pp_bandwidth_mb(ctx, key, do_io_only, s, (double)s->count, NULL);
		snprintf(key, sizeof(key), "bw_file_rd-o2c-%umb", mb[i]);
		if (!ret)
			ret = pp_bandwidth_mb(ctx, key, do_open2close, s,
					      (double)s->count, NULL);
	}
	return ret;
}

static int bw_file_rd_run(struct pp_ctx *ctx)
{
	unsigned int mb[16], n = pp_file_sizes_mb(ctx, mb, ARRAY_SIZE(mb));
	struct rd_state s = { .fd = -1 };
	char path[PATH_MAX];
	int ret;

	ret = pp_data_file(ctx, "bw_file_rd", (uint64_t)mb[n - 1] << 20, path, sizeof(path));
	if (ret)
		return pp_fail(ctx, "cannot write a %u MB file: %s", mb[n - 1],
			       strerror(-ret));
	s.path = path;
	s.buf = aligned_alloc((size_t)sysconf(_SC_PAGESIZE), XFERSIZE);
	if (!s.buf)
		return pp_fail(ctx, "out of memory");
	memset(s.buf, 0, XFERSIZE);
	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0) {
		ret = pp_fail(ctx, "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = rd_sizes(ctx, &s, mb, n);
	close(s.fd);
out:
	free(s.buf);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_file_rd-io-%umb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "read() of a cached N MB file",
	  .show = PP_SHOW({ .key = "bw_file_rd-io-*", PP_COL("bw", 4, " File ", "reread", 6, 0), .lm_col = 4 },
		  { .lm_block = "\"read bandwidth" }, { .key = "bw_file_rd-io-*", .chart = "bw-ipc" }) },
	{ .pattern = "bw_file_rd-o2c-%umb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "open, read() and close of a cached N MB file",
	  .show = PP_SHOW({ .lm_block = "\"read open2close bandwidth" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_file_rd = {
	.name = "bw_file_rd",
	.group = "bw",
	.summary = "reread a cached file with 64 KB read()s and sum it (MB/s)",
	.keys = keys,
	.run = bw_file_rd_run,
};
