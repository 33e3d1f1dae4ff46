// SPDX-License-Identifier: GPL-2.0
/*
 * Data files for the file and VM benchmarks; see datafile.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "benchlib/datafile.h"

#define CHUNK	(1024 * 1024)

static int write_all(int fd, const char *buf, uint64_t size)
{
	while (size > 0) {
		size_t n = size > CHUNK ? CHUNK : (size_t)size;
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		size -= (uint64_t)w;
	}
	return 0;
}

int pp_data_file(struct pp_ctx *ctx, const char *name, uint64_t size,
		 char *path, size_t len)
{
	char dir[4096];
	char *buf;
	int fd, ret, n;
	size_t i;

	ret = pp_tmp_dir(ctx, dir, sizeof(dir));
	if (ret)
		return ret;
	n = snprintf(path, len, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	buf = malloc(CHUNK);
	if (!buf)
		return -ENOMEM;
	/* Not zeroes: a sum over the data is then not trivially 0. */
	for (i = 0; i < CHUNK; i++)
		buf[i] = (char)(i * 7 + 1);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	ret = write_all(fd, buf, size);
	/* Written back now, so writeback does not run during the timing. */
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
out_free:
	free(buf);
	return ret;
}

unsigned int pp_file_sizes_mb(const struct pp_ctx *ctx, unsigned int *mb,
			      unsigned int max)
{
	unsigned int top = ctx->opts.quick ? 8 : ctx->opts.full ? 256 : 64;
	unsigned int n = 0, s;

	for (s = 1; s <= top && n < max; s *= 2)
		if (!ctx->opts.quick || s == 1 || s == top)
			mb[n++] = s;
	return n;
}
