// SPDX-License-Identifier: GPL-2.0
/*
 * lat_syscall: the cost of simple system calls, as lmbench's lat_syscall.
 *
 *   null   getppid()
 *   read   read 1 byte from /dev/zero
 *   write  write 1 byte to /dev/null
 *   stat   stat() of a file in the temporary directory
 *   fstat  fstat() of an open descriptor of that file
 *   open   open() + close() of that file
 *
 * Each loop gets the kernel's view like every other (kernel/kview.c);
 * glibc 2.33+ implements stat() and fstat() with newfstatat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"


struct sc_state {
	int fd;
	char file[4096];
};

static int do_null(uint64_t n, void *arg)
{
	(void)arg;
	while (n-- > 0)
		getppid();
	return 0;
}

static int do_read(uint64_t n, void *arg)
{
	struct sc_state *s = arg;
	char c;

	while (n-- > 0)
		if (read(s->fd, &c, 1) != 1)
			return -EIO;
	return 0;
}

static int do_write(uint64_t n, void *arg)
{
	struct sc_state *s = arg;
	char c = 0;

	while (n-- > 0)
		if (write(s->fd, &c, 1) != 1)
			return -EIO;
	return 0;
}

static int do_stat(uint64_t n, void *arg)
{
	struct sc_state *s = arg;
	struct stat st;

	while (n-- > 0)
		if (stat(s->file, &st))
			return -errno;
	return 0;
}

static int do_fstat(uint64_t n, void *arg)
{
	struct sc_state *s = arg;
	struct stat st;

	while (n-- > 0)
		if (fstat(s->fd, &st))
			return -errno;
	return 0;
}

static int do_open(uint64_t n, void *arg)
{
	struct sc_state *s = arg;

	while (n-- > 0) {
		int fd = open(s->file, O_RDONLY);

		if (fd < 0)
			return -errno;
		close(fd);
	}
	return 0;
}

static int on_fd(struct pp_ctx *ctx, const char *key, const char *path, int flags,
		 pp_loop_fn fn, struct sc_state *s)
{
	int ret;

	s->fd = open(path, flags);
	if (s->fd < 0)
		return pp_skip(ctx, key, "%s: %s", path, strerror(errno));
	ret = pp_latency(ctx, key, fn, s);
	close(s->fd);
	return ret;
}

static int lat_syscall_run(struct pp_ctx *ctx)
{
	struct sc_state s;
	char dir[3800];
	int fd, ret = 0;

	ret |= pp_latency(ctx, "lat_syscall-null", do_null, NULL);
	ret |= on_fd(ctx, "lat_syscall-read", "/dev/zero", O_RDONLY, do_read, &s);
	ret |= on_fd(ctx, "lat_syscall-write", "/dev/null", O_WRONLY, do_write, &s);

	/* lmbench's script stats a file it made in its scratch directory. */
	if (pp_tmp_dir(ctx, dir, sizeof(dir)))
		return pp_fail(ctx, "cannot create a temporary directory: %s",
			       strerror(errno));
	snprintf(s.file, sizeof(s.file), "%s/XXX", dir);
	fd = open(s.file, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return pp_fail(ctx, "%s: %s", s.file, strerror(errno));
	close(fd);
	ret |= pp_latency(ctx, "lat_syscall-stat", do_stat, &s);
	ret |= on_fd(ctx, "lat_syscall-fstat", s.file, O_RDONLY, do_fstat, &s);
	ret |= pp_latency(ctx, "lat_syscall-open", do_open, &s);
	return ret < 0 ? -1 : ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_syscall-null", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "getppid(): a system call that does nothing",
	  .show = PP_SHOW({ PP_COL("proc", 2, "null", "call", 4, 2), .lm_col = 2 },
		  { .lm_line = "Simple syscall:" }, { .lm_line = "Null syscall:" }) },
	{ .pattern = "lat_syscall-read", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "read one byte from /dev/zero",
	  .show = PP_SHOW({ PP_COL("proc", 3, "null", " I/O", 4, 1) },
		  { .lm_line = "Simple read:" }) },
	{ .pattern = "lat_syscall-write", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "write one byte to /dev/null",
	  .show = PP_SHOW({ .table = "proc", .col = 3 }, { .lm_line = "Simple write:" }) },
	{ .pattern = "lat_syscall-stat", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "stat() of a file",
	  .show = PP_SHOW({ PP_COL("proc", 4, "    ", "stat", 4, 1), .lm_col = 4 },
		  { .lm_line = "Simple stat:" }) },
	{ .pattern = "lat_syscall-fstat", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "fstat() of an open file",
	  .show = PP_SHOW({ .lm_line = "Simple fstat:" }) },
	{ .pattern = "lat_syscall-open", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "open() and close() of a file",
	  .show = PP_SHOW({ PP_COL("proc", 5, "open", "clos", 4, 1), .lm_col = 5 },
		  { .lm_line = "Simple open/close:" }) },
	{ .pattern = "lat_syscall-io", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .kind = PP_KIND_DERIVED,
	  .desc = "lmbench's null I/O, the mean of read and write: imported summaries have it",
	  .show = PP_SHOW({ .table = "proc", .col = 3, .lm_col = 3 }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_syscall = {
	.name = "lat_syscall",
	.group = "proc",
	.summary = "null, read, write, stat, fstat, open+close system calls (us)",
	.keys = keys,
	.run = lat_syscall_run,
};
