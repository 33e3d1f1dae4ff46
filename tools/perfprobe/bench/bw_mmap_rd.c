// SPDX-License-Identifier: GPL-2.0
/*
 * bw_mmap_rd: rereading a cached file through a mapping, as lmbench's
 * bw_mmap_rd.
 *
 * One operation sums S bytes of a shared read-only mapping of the file
 * as longs, every one of them (lmbench's bread(), pp_bread() in
 * memloop.h):
 *
 *   mo   (lmbench "mmap_only")  the file is mapped once, before timing;
 *                               each operation only reads the mapping
 *   o2c  (lmbench "open2close") open(), mmap(), read, close(), munmap()
 *                               each time, page faults included
 *
 * Bandwidth is S / time in MB/s (10^6 bytes, lmbench's MB).  Sizes 1, 2,
 * ..., 64 MB (--quick: 1 and 8 MB; --full: up to 256 MB) over one file of
 * the largest size; keys bw_mmap_rd-mo-<S>mb and bw_mmap_rd-o2c-<S>mb.
 * The summary's "Mmap reread" column shows mo at the largest size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlib/bandwidth.h"
#include "bench.h"
#include "benchlib/datafile.h"
#include "benchlib/memloop.h"

struct mrd_state {
	const char *path;
	size_t size;			/* bytes per operation */
	const void *map;		/* mmap_only: the mapping */
};

static volatile unsigned long mrd_sink;

static int do_mmap_only(uint64_t n, void *arg)
{
	const struct mrd_state *s = arg;
	unsigned long sum = 0;

	while (n-- > 0)
		sum += pp_bread(s->map, s->size);
	mrd_sink += sum;
	return 0;
}

static int do_open2close(uint64_t n, void *arg)
{
	const struct mrd_state *s = arg;
	unsigned long sum = 0;
	void *p;
	int fd;

	while (n-- > 0) {
		fd = open(s->path, O_RDONLY);
		if (fd < 0)
			return -errno;
		p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return -errno;
		}
		sum += pp_bread(p, s->size);
		close(fd);
		munmap(p, s->size);
	}
	mrd_sink += sum;
	return 0;
}

static int mrd_mmap_only(struct pp_ctx *ctx, struct mrd_state *s, unsigned int mb)
{
	char key[PP_KEY_MAX];
	void *p;
	int fd, ret;

	snprintf(key, sizeof(key), "bw_mmap_rd-mo-%umb", mb);
	fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pp_fail(ctx, "%s: %s", s->path, strerror(errno));
	p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ret = pp_fail(ctx, "mmap %s: %s", s->path, strerror(errno));
		goto out;
	}
	s->map = p;
	ret = pp_bandwidth_mb(ctx, key, do_mmap_only, s, (double)s->size, NULL);
	munmap(p, s->size);
out:
	close(fd);
	return ret;
}

static int bw_mmap_rd_run(struct pp_ctx *ctx)
{
	unsigned int mb[16], n = pp_file_sizes_mb(ctx, mb, ARRAY_SIZE(mb)), i;
	struct mrd_state s = { 0 };
	char path[PATH_MAX], key[PP_KEY_MAX];
	int ret;

	ret = pp_data_file(ctx, "bw_mmap_rd", (uint64_t)mb[n - 1] << 20, path, sizeof(path));
	if (ret)
		return pp_fail(ctx, "cannot write a %u MB file: %s", mb[n - 1],
			       strerror(-ret));
	s.path = path;
	for (i = 0; !ret && i < n; i++) {
		s.size = (size_t)mb[i] << 20;
		ret = mrd_mmap_only(ctx, &s, mb[i]);
		snprintf(key, sizeof(key), "bw_mmap_rd-o2c-%umb", mb[i]);
		if (!ret)
			ret = pp_bandwidth_mb(ctx, key, do_open2close, &s,
					      (double)s.size, NULL);
	}
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_mmap_rd-mo-%umb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "read of a mapped cached N MB file",
	  .show = PP_SHOW({ .key = "bw_mmap_rd-mo-*", PP_COL("bw", 5, " Mmap ", "reread", 6, 0), .lm_col = 5 },
		  { .lm_block = "\"Mmap read bandwidth" }, { .key = "bw_mmap_rd-mo-*", .chart = "bw-ipc" }) },
	{ .pattern = "bw_mmap_rd-o2c-%umb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .spread_pct = 35,	/* accuracy.rst, Noisy by nature */
	  .desc = "open, mmap, read, munmap and close of it",
	  .show = PP_SHOW({ .lm_block = "\"Mmap read open2close bandwidth" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_mmap_rd = {
	.name = "bw_mmap_rd",
	.group = "bw",
	.summary = "reread a cached file through mmap and sum it (MB/s)",
	.keys = keys,
	.run = bw_mmap_rd_run,
};
