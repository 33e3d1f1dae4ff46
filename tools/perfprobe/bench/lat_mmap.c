// SPDX-License-Identifier: GPL-2.0
/*
 * lat_mmap: the cost of making and breaking a file mapping, as lmbench's
 * lat_mmap.
 *
 * One operation: mmap() S bytes of a file read-write and shared, write
 * one byte every 16 KB over the first tenth of the mapping, munmap().
 * The write touches make the kernel really set up (part of) the mapping,
 * so a lazy mmap() cannot look free; lmbench's default, non-random mode.
 *
 * Sizes: 1, 2, 4, ..., 64 MB (--quick: 1 and 8 MB; --full: up to 256 MB),
 * all over one file of the largest size.  Keys lat_mmap-<S>m in us; the
 * summary's "Mmap Latency" column shows the largest size, as lmbench's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/datafile.h"

#define MMAP_TOUCH_STRIDE	(16 * 1024)	/* lmbench's PSIZE */
#define MMAP_TOUCH_FRACTION	10		/* lmbench's N */

struct mmap_state {
	int fd;
	size_t size;
};

static int do_mmap(uint64_t n, void *arg)
{
	const struct mmap_state *s = arg;
	char c = (char)(s->size & 0xff);

	while (n-- > 0) {
		volatile char *where, *p, *end;
		void *m = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			       s->fd, 0);

		if (m == MAP_FAILED)
			return -errno;
		where = m;
		end = where + s->size / MMAP_TOUCH_FRACTION;
		for (p = where; p < end; p += MMAP_TOUCH_STRIDE)
			*p = c;
		if (munmap(m, s->size))
			return -errno;
	}
	return 0;
}

static int lat_mmap_run(struct pp_ctx *ctx)
{
	unsigned int mb[16], n = pp_file_sizes_mb(ctx, mb, ARRAY_SIZE(mb)), i;
	struct mmap_state s;
	char path[PATH_MAX], key[PP_KEY_MAX];
	int ret;

	ret = pp_data_file(ctx, "lat_mmap", (uint64_t)mb[n - 1] << 20, path, sizeof(path));
	if (ret)
		return pp_fail(ctx, "cannot write a %u MB file: %s", mb[n - 1],
			       strerror(-ret));
	s.fd = open(path, O_RDWR | O_CLOEXEC);
	if (s.fd < 0)
		return pp_fail(ctx, "%s: %s", path, strerror(errno));
	for (i = 0; !ret && i < n; i++) {
		s.size = (size_t)mb[i] << 20;
		snprintf(key, sizeof(key), "lat_mmap-%um", mb[i]);
		ret = pp_latency(ctx, key, do_mmap, &s);
	}
	close(s.fd);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_mmap-%um", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .spread_pct = 50,	/* accuracy.rst, Noisy by nature */
	  .desc = "mmap() and munmap() of N MB of a file: lat_mmap-Nm",
	  .show = PP_SHOW({ .key = "lat_mmap-*", PP_COL("fsvm", 5, "  Mmap ", "Latency", 7, 1), .lm_col = 5 },
		  { .lm_block = "\"mappings" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_mmap = {
	.name = "lat_mmap",
	.group = "fsvm",
	.summary = "mmap, touch a tenth at 16 KB stride, munmap a 1-64 MB file (us)",
	.keys = keys,
	.run = lat_mmap_run,
};
