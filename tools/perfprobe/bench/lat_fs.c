// SPDX-License-Identifier: GPL-2.0
/*
 * lat_fs: file creation and deletion, as lmbench's lat_fs.
 *
 * For each file size (0, 1, 4 and 10 KB) a batch of n files is created
 * with creat() + write() + close(), then deleted with unlink(), each in
 * the order n-1 .. 0.  The files are spread over a tree of directories
 * so that no directory holds more than 100 entries (lmbench's default
 * "-n 100").  Making the directory tree and the names, and removing the
 * directories, is not timed; creating and deleting the files is.  n is
 * sized so that creating a batch lasts one sample's target time.
 *
 * Results per size S:
 *   lat_fs-create-<S>k  us per file created   (summary: File Create)
 *   lat_fs-delete-<S>k  us per file deleted   (summary: File Delete)
 *   lat_fs-<S>k         files created per second, lmbench's own output
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "stats.h"

#define FS_PER_DIR	100		/* lmbench's -n default */
#define FS_MIN_FILES	16
#define FS_MAX_FILES	(1u << 17)
#define FS_WRITE_CHUNK	(128 * 1024)	/* lmbench's mkfile() buffer */

struct fs_state {
	char root[PATH_MAX];		/* the batch's top directory */
	size_t root_len;
	char *names;			/* n names, stride bytes apart */
	size_t stride;
	uint64_t n;
	size_t size;			/* bytes per file */
	char *data;
};

struct fs_batch {
	uint64_t create_ns, delete_ns;
};

/* A size's samples: ns per file created and deleted, batches of n files. */
struct fs_times {
	double create[PP_MAX_SAMPLES], delete[PP_MAX_SAMPLES];
	uint64_t n;
};

static int fs_depth(uint64_t n)
{
	uint64_t cap = FS_PER_DIR;
	int depth = 0;

	while (cap < n) {
		cap *= FS_PER_DIR;
		depth++;
	}
	return depth;
}

/*
 * Walk the tree below path (len bytes used): with make, create its
 * directories and record the file names; without, remove the
 * directories (the files are gone by then).
 */
static int fs_walk(struct fs_state *s, char *path, size_t len, int depth,
		   uint64_t *next, bool make)
{
	unsigned int i;
	int ret;

	for (i = 0; i < FS_PER_DIR && *next < s->n; i++) {
		int w = snprintf(path + len, PATH_MAX - len, "/%u", i);

		if (w < 0 || (size_t)w >= PATH_MAX - len)
			return -ENAMETOOLONG;
		if (!depth) {
			if (len + w + 1 > s->stride)
				return -ENAMETOOLONG;
			if (make)
				memcpy(s->names + *next * s->stride, path, len + w + 1);
			(*next)++;
			continue;
		}
		if (make && mkdir(path, 0700))
			return -errno;
		ret = fs_walk(s, path, len + w, depth - 1, next, make);
		if (ret)
			return ret;
		if (!make && rmdir(path))
			return -errno;
	}
	path[len] = '\0';
	return 0;
}

static int fs_tree(struct fs_state *s, bool make)
{
	char path[PATH_MAX];
	uint64_t next = 0;
	int ret;

	memcpy(path, s->root, s->root_len + 1);
	if (make && mkdir(path, 0700))
		return -errno;
	ret = fs_walk(s, path, s->root_len, fs_depth(s->n), &next, make);
	if (ret)
		return ret;
	if (!make && rmdir(s->root))
		return -errno;
	return 0;
}

static int mkfile(const char *name, size_t size, const char *data)
{
	int fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0666);
	int ret = 0;

	if (fd < 0)
		return -errno;
	while (size > 0) {
		size_t chunk = size > FS_WRITE_CHUNK ? FS_WRITE_CHUNK : size;
		ssize_t w = write(fd, data, chunk);

		if (w != (ssize_t)chunk) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		size -= chunk;
	}
	close(fd);
	return ret;
}

static int fs_create(struct fs_state *s)
{
	uint64_t i = s->n;
	int ret;

	while (i-- > 0) {
		ret = mkfile(s->names + i * s->stride, s->size, s->data);
		if (ret)
			return ret;
	}
	return 0;
}

static int fs_delete(struct fs_state *s)
{
	uint64_t i = s->n;

	while (i-- > 0)
		if (unlink(s->names + i * s->stride))
			return -errno;
	return 0;
}

/* One batch of n files: untimed setup, timed create, timed delete. */
static int fs_batch(struct fs_state *s, uint64_t n, struct fs_batch *b)
{
	uint64_t t0, t1;
	int ret;

	s->n = n;
	ret = fs_tree(s, true);
	if (ret)
		return ret;
	t0 = pp_now_ns();
	ret = fs_create(s);
	t1 = pp_now_ns();
	if (ret)
		return ret;
	b->create_ns = t1 - t0;
	t0 = pp_now_ns();
	ret = fs_delete(s);
	t1 = pp_now_ns();
	if (ret)
		return ret;
	b->delete_ns = t1 - t0;
	return fs_tree(s, false);
}

/* Size the batch as pp_sample() sizes its loops. */
static int fs_size_batch(struct pp_ctx *ctx, struct fs_state *s, uint64_t *n)
{
	uint64_t target = (uint64_t)(ctx->opts.target_ms * 1e6);
	uint64_t iters = FS_MIN_FILES;
	struct fs_batch b;
	int ret, i;

	for (i = 0; i < 20; i++) {
		ret = fs_batch(s, iters, &b);
		if (ret)
			return ret;
		if (b.create_ns >= target / 16 || iters >= FS_MAX_FILES)
			break;
		iters = pp_next_iters(iters, b.create_ns, target);
		if (iters > FS_MAX_FILES)
			iters = FS_MAX_FILES;
	}
	iters = pp_next_iters(iters, b.create_ns, target);
	*n = iters < FS_MIN_FILES ? FS_MIN_FILES :
	     iters > FS_MAX_FILES ? FS_MAX_FILES : iters;
	return 0;
}

/*
 * The kernel view of creating and of deleting files (kernel/kview.c):
 * its loop goes on through a tree of twice the batch's names, so each
 * traced pass creates (or deletes, of files made beforehand) fresh ones;
 * what it made is removed afterwards, untraced.
 */
struct fs_kv {
	struct fs_state *s;
	uint64_t cur;
	bool create;
};

static int fs_kv_loop(uint64_t iters, void *arg)
{
	struct fs_kv *k = arg;
	struct fs_state *s = k->s;
	int ret = 0;

	while (iters-- > 0 && !ret && k->cur < s->n) {
		const char *name = s->names + k->cur++ * s->stride;

		if (k->create)
			ret = mkfile(name, s->size, s->data);
		else if (unlink(name))
			ret = -errno;
	}
	return ret;
}

static void fs_kview(struct pp_ctx *ctx, struct fs_state *s, uint64_t n, bool create,
		     const double *ns_per_file, unsigned int nsamples)
{
	struct fs_kv k = { s, 0, create };
	uint64_t batch = n, i;

	if (!ctx->kview)
		return;
	s->n = 2 * n > FS_MAX_FILES ? FS_MAX_FILES : 2 * n;
	n = s->n / 2;
	if (fs_tree(s, true))
		goto out;
	for (i = 0; !create && i < s->n; i++)
		if (mkfile(s->names + i * s->stride, s->size, s->data))
			goto clean;
	pp_kview_loop(ctx, fs_kv_loop, &k, n, pp_median(ns_per_file, nsamples));
clean:
	for (i = 0; i < s->n; i++)
		unlink(s->names + i * s->stride);
	fs_tree(s, false);
out:
	s->n = batch;
}

/* create first, with the files per second (both creation), then delete */
static int fs_report(struct pp_ctx *ctx, struct fs_state *s, unsigned int kb,
		     const struct fs_times *t)
{
	double us_c[PP_MAX_SAMPLES], us_d[PP_MAX_SAMPLES], rate[PP_MAX_SAMPLES];
	unsigned int i, ns = ctx->opts.samples;
	char key[PP_KEY_MAX];

	for (i = 0; i < ns; i++) {
		us_c[i] = t->create[i] / 1e3;
		us_d[i] = t->delete[i] / 1e3;
		rate[i] = 1e9 / t->create[i];
	}
	fs_kview(ctx, s, t->n, true, t->create, ns);
	snprintf(key, sizeof(key), "lat_fs-create-%uk", kb);
	if (pp_report(ctx, key, us_c, ns, t->n))
		return -1;
	snprintf(key, sizeof(key), "lat_fs-%uk", kb);
	if (pp_report(ctx, key, rate, ns, t->n))
		return -1;
	fs_kview(ctx, s, t->n, false, t->delete, ns);
	snprintf(key, sizeof(key), "lat_fs-delete-%uk", kb);
	return pp_report(ctx, key, us_d, ns, t->n);
}

/* Samples of ns per file created and deleted; 0 or a negative errno. */
static int fs_measure(struct pp_ctx *ctx, struct fs_state *s, struct fs_times *t)
{
	struct fs_batch b;
	unsigned int i;
	int ret;

	ret = fs_size_batch(ctx, s, &t->n);
	if (!ret)
		ret = fs_batch(s, t->n, &b);	/* warm-up, thrown away */
	for (i = 0; !ret && i < ctx->opts.samples; i++) {
		ret = fs_batch(s, t->n, &b);
		/* a batch never takes less than 1 ns */
		t->create[i] = (double)(b.create_ns ? b.create_ns : 1) / (double)t->n;
		t->delete[i] = (double)(b.delete_ns ? b.delete_ns : 1) / (double)t->n;
	}
	return ret;
}

static int fs_sizes(struct pp_ctx *ctx, struct fs_state *s, const char *dir)
{
	static const unsigned int sizes_kb[] = { 0, 1, 4, 10 };
	struct fs_times t;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sizes_kb); i++) {
		s->size = (size_t)sizes_kb[i] * 1024;
		ret = fs_measure(ctx, s, &t);
		if (ret)
			return pp_fail(ctx, "%uk files in %s: %s", sizes_kb[i], dir,
				       strerror(-ret));
		if (fs_report(ctx, s, sizes_kb[i], &t))
			return -1;
	}
	return 0;
}

static int lat_fs_run(struct pp_ctx *ctx)
{
	struct fs_state *s;
	char dir[PATH_MAX - 64];
	int ret;

	ret = pp_tmp_dir(ctx, dir, sizeof(dir));
	if (ret)
		return pp_fail(ctx, "cannot create a temporary directory: %s",
			       strerror(-ret));
	s = calloc(1, sizeof(*s));
	if (!s)
		return pp_fail(ctx, "out of memory");
	s->root_len = (size_t)snprintf(s->root, sizeof(s->root), "%s/lat_fs", dir);
	/* FS_MAX_FILES < 100^3: at most 3 levels of "/NN" below the root */
	s->stride = s->root_len + 3 * 3 + 1;
	s->names = malloc(FS_MAX_FILES * s->stride);
	s->data = calloc(1, FS_WRITE_CHUNK);
	if (!s->names || !s->data) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	ret = fs_sizes(ctx, s, dir);
out:
	free(s->names);
	free(s->data);
	free(s);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_fs-create-%uk", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "create a file of N KB: lat_fs-create-Nk",
	  .show = PP_SHOW({ .key = "lat_fs-create-0k", PP_COL("fsvm", 1, "  0K  ", "Create", 6, 2), .lm_col = 1 },
		  { .key = "lat_fs-create-10k", PP_COL("fsvm", 3, " 10K  ", "Create", 6, 2), .lm_col = 3 },
		  { .lm_block = "\"File system latency", .lm_rows = PP_LM_RATE, .lm_col = 3 }) },
	{ .pattern = "lat_fs-delete-%uk", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "delete a file of N KB",
	  .show = PP_SHOW({ .key = "lat_fs-delete-0k", PP_COL("fsvm", 2, "  0K  ", "Delete", 6, 2), .lm_col = 2 },
		  { .key = "lat_fs-delete-10k", PP_COL("fsvm", 4, " 10K  ", "Delete", 6, 2), .lm_col = 4 },
		  { .lm_block = "\"File system latency", .lm_rows = PP_LM_RATE, .lm_col = 4 }) },
	{ .pattern = "lat_fs-%uk", .unit = "files/s", .dir = PP_HIGHER_IS_BETTER,
	  .kind = PP_KIND_DERIVED,
	  .desc = "files of N KB created per second: lmbench's figure, 1 / create",
	  .show = PP_SHOW({ .lm_block = "\"File system latency", .lm_rows = PP_LM_RATE, .lm_col = 3 }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_fs = {
	.name = "lat_fs",
	.group = "fsvm",
	.summary = "create and delete 0, 1, 4, 10 KB files (us per file, files/s)",
	.keys = keys,
	.run = lat_fs_run,
};
