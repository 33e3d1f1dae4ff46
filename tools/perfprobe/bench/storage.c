// SPDX-License-Identifier: GPL-2.0
/*
 * storage: sequential file write and read throughput and the CPU load
 * they cost, at buffer sizes 4k, 256k, 1m and 4m, as the vendor guide's
 * MMC/SD table; and, for a block device named in PERFPROBE_STORAGE_DEV,
 * cached and direct device read rates as hdparm -T and -t --direct.
 *
 * The file is written in ctx->opts.samples segments, each ended by
 * fsync() and timed with it: each segment is one sample.  Before the file
 * is read back, its pages are dropped from the page cache so the reads
 * come from the device.  CPU load is the CPU time of the process (user +
 * system) over the wall time of the segment.
 *
 * Options (environment): PERFPROBE_STORAGE_DIR, PERFPROBE_STORAGE_SIZE,
 * PERFPROBE_STORAGE_DIRECT, PERFPROBE_STORAGE_DROP_CACHES,
 * PERFPROBE_STORAGE_DEV; see Documentation/bench/storage.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "bench.h"
#include "benchlib/pagebuf.h"
#include "stats.h"

#define KB			1024ul
#define MB			(1024ul * 1024)
#define ST_ALIGN		4096		/* O_DIRECT buffer and size unit */
#define ST_MAX_BUF		(4 * MB)
#define ST_PATH			(PATH_MAX + 64)	/* a directory + a file name */
#define HDPARM_CHUNK		(2 * MB)	/* hdparm's TIMING_BUF_MB */
#define TMPFS_MAGIC_		0x01021994
#define RAMFS_MAGIC_		0x858458f6

static const size_t bufsizes[] = { 4 * KB, 256 * KB, 1 * MB, 4 * MB };

struct st_opts {
	const char *dir;		/* where the test directory is made */
	size_t size;			/* bytes of the file */
	bool direct;			/* O_DIRECT writes and reads */
	bool drop;			/* drop_caches before reading */
	const char *dev;		/* block device for the hdparm figures */
};

/*
 * The infos the figures depend on (compare warns when they differ): the
 * file system, and the buffer's pages, with which direct reads moved 2x.
 */
enum { ST_FACT_FS, ST_FACT_BUFFER };
static const char *const facts[] = {
	[ST_FACT_FS] = "storage-fs",
	[ST_FACT_BUFFER] = "storage-buffer",
	NULL
};

struct st_pass {
	double mbps[PP_MAX_SAMPLES];
	double cpu[PP_MAX_SAMPLES];
	unsigned int n;
};

static bool env_on(const char *name)
{
	const char *e = getenv(name);

	return e && *e && strcmp(e, "0");
}

static int parse_opts(struct pp_ctx *ctx, struct st_opts *o)
{
	const char *e = getenv("PERFPROBE_STORAGE_SIZE");
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->dir = getenv("PERFPROBE_STORAGE_DIR");
	if (o->dir && !*o->dir)
		o->dir = NULL;
	o->size = ctx->opts.quick ? 32 * MB : ctx->opts.full ? 1024 * MB : 256 * MB;
	if (e && *e) {
		if (pp_parse_size(e, &v) || v < 64 * KB || v > (1ull << 40))
			return pp_fail(ctx, "PERFPROBE_STORAGE_SIZE=%s: %s", e,
				       "not a size from 64k to 1t");
		o->size = (size_t)v;
	}
	o->direct = env_on("PERFPROBE_STORAGE_DIRECT");
	o->drop = env_on("PERFPROBE_STORAGE_DROP_CACHES");
	o->dev = getenv("PERFPROBE_STORAGE_DEV");
	if (o->dev && !*o->dev)
		o->dev = NULL;
	return 0;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_now(void)
{
	return (double)pp_now_ns() * 1e-9;
}

/*
 * len bytes in bs-sized calls (and fsync when writing); -EINTR once the
 * run is interrupted: a file of a GiB at 4 KiB direct is half a minute.
 */
static int transfer(int fd, char *buf, size_t bs, size_t len, bool wr)
{
	size_t done;
	int ret;

	for (done = 0; done < len; done += bs) {
		if (pp_interrupted)
			return -EINTR;
		ret = wr ? pp_write_full(fd, buf, bs) : pp_read_full(fd, buf, bs);
		if (ret)
			return ret;
	}
	if (wr && fsync(fd))
		return -errno;
	return 0;
}

/* How a file is written or read: len bytes, bs at a time, through buf. */
struct st_io {
	char *buf;
	size_t bs, len;
};

/* Sample i: one whole file, timed from the first call to the fsync. */
static int timed_file(const char *path, int flags, const struct st_io *io, struct st_pass *p,
		      unsigned int i)
{
	bool wr = flags & O_WRONLY;
	double w0, c0, w, c;
	int fd, ret;

	fd = open(path, flags | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	w0 = wall_now();
	c0 = cpu_now();
	ret = transfer(fd, io->buf, io->bs, io->len, wr);
	w = wall_now() - w0;
	c = cpu_now() - c0;
	close(fd);
	if (ret)
		return ret;
	if (!(w > 0))
		return -ERANGE;
	p->mbps[i] = (double)io->len * 1e-6 / w;
	p->cpu[i] = 100.0 * c / w;
	return 0;
}

/* Percentage of a file's pages in the page cache (mincore), or -1. */
static double resident_pct(int fd, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t npages = (len + (size_t)page - 1) / (size_t)page, i, in = 0;
	unsigned char *vec;
	double pct = -1;
	void *map;

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	vec = malloc(npages);
	if (!vec)
		goto unmap;
	if (mincore(map, len, vec))
		goto free_vec;
	for (i = 0; i < npages; i++)
		in += vec[i] & 1;
	pct = 100.0 * (double)in / (double)npages;
free_vec:
	free(vec);
unmap:
	munmap(map, len);
	return pct;
}

static int drop_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

/* Drop one file's pages from the page cache; its residency after, or -1. */
static double drop_file(const char *path, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	double pct = -1;

	if (fd < 0)
		return -1;
	if (!posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_DONTNEED))
		pct = resident_pct(fd, len);
	close(fd);
	return pct;
}

/*
 * Make the reads come from the device: nothing to do with O_DIRECT; else
 * drop_caches when asked (and allowed), or drop these files' pages only.
 */
static int evict(struct pp_ctx *ctx, const struct st_opts *o, char paths[][ST_PATH],
		 unsigned int n, size_t len, const char *key)
{
	double pct, worst = 0;
	unsigned int i;
	int ret;

	if (o->direct)
		return 0;
	if (o->drop) {
		ret = drop_caches();
		if (!ret)
			return 0;
		pp_progress(ctx, "%s: cannot drop caches (%s): dropping the files' pages only",
			    key, strerror(-ret));
	}
	for (i = 0; i < n; i++) {
		pct = drop_file(paths[i], len);
		if (pct < 0)
			return pp_fail(ctx, "%s: cannot drop %s from the page cache", key,
				       paths[i]);
		if (pct > worst)
			worst = pct;
	}
	if (worst > 5)
		pp_notice(ctx, "%s: up to %.0f%% of a file still cached: reads partly from RAM",
			  key, worst);
	return 0;
}

static int report_pass(struct pp_ctx *ctx, const char *key, const struct st_pass *p,
		       size_t len)
{
	char cpukey[PP_KEY_MAX];

	snprintf(cpukey, sizeof(cpukey), "%s-cpu", key);
	if (pp_report(ctx, key, p->mbps, p->n, len))
		return -1;
	return pp_report(ctx, cpukey, p->cpu, p->n, len);
}

static void size_name(size_t bs, char *buf, size_t len)
{
	if (bs >= MB)
		snprintf(buf, len, "%zum", bs / MB);
	else
		snprintf(buf, len, "%zuk", bs / KB);
}

/* n files of len bytes: write each (with fsync), evict them, read each. */
/*
 * The kernel view of one direction: its loop writes or reads the first
 * file again, a whole file an iteration (the results count bytes, so the
 * view is divided down to a byte); a read is evicted first with one
 * posix_fadvise() (seen in the view).
 */
struct st_kv {
	const char *path;
	int flags;
	const struct st_io *io;
};

static int st_kv_file(uint64_t iters, void *arg)
{
	const struct st_kv *k = arg;
	int fd, ret = 0;

	while (iters-- > 0 && !ret) {
		fd = open(k->path, k->flags | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (!(k->flags & O_WRONLY) && !(k->flags & O_DIRECT))
			posix_fadvise(fd, 0, (off_t)k->io->len, POSIX_FADV_DONTNEED);
		ret = transfer(fd, k->io->buf, k->io->bs, k->io->len, k->flags & O_WRONLY);
		close(fd);
	}
	return ret;
}

static void st_kview(struct pp_ctx *ctx, const struct st_pass *p, const char *path,
		     int flags, const struct st_io *io)
{
	struct st_kv k = { path, flags, io };

	/* one file, in the median sample's time (MB/s -> ns) */
	pp_kview_loop(ctx, st_kv_file, &k, 1, (double)io->len * 1e3 / pp_median(p->mbps, p->n));
}

static int write_read(struct pp_ctx *ctx, const struct st_opts *o, struct st_pass *p,
		      char paths[][ST_PATH], const struct st_io *io)
{
	size_t len = io->len;
	int dflag = o->direct ? O_DIRECT : 0, ret = 0;
	char wkey[64], rkey[64], sz[16];
	unsigned int i;

	size_name(io->bs, sz, sizeof(sz));
	snprintf(wkey, sizeof(wkey), "storage-write-%s", sz);
	snprintf(rkey, sizeof(rkey), "storage-read-%s", sz);
	for (i = 0; i < p->n && !ret; i++)
		ret = timed_file(paths[i], O_WRONLY | O_CREAT | O_TRUNC | dflag, io, p, i);
	if (ret == -EINTR)	/* the run says so, and keeps what it has */
		return -1;
	if (ret == -EINVAL && dflag)
		return pp_skip(ctx, NULL, "O_DIRECT writes of %s: EINVAL (unsupported here?)",
			       sz);
	if (ret)
		return pp_fail(ctx, "%s: %s", wkey, strerror(-ret));
	st_kview(ctx, p, paths[0], O_WRONLY | O_TRUNC | dflag, io);
	if (report_pass(ctx, wkey, p, len))
		return -1;
	if (evict(ctx, o, paths, p->n, len, rkey))
		return -1;
	for (i = 0; i < p->n && !ret; i++)
		ret = timed_file(paths[i], O_RDONLY | dflag, io, p, i);
	if (ret == -EINTR)
		return -1;
	if (ret)
		return pp_fail(ctx, "%s: %s", rkey, strerror(-ret));
	st_kview(ctx, p, paths[0], O_RDONLY | dflag, io);
	return report_pass(ctx, rkey, p, len);
}

/* One buffer size: o->size bytes in ctx->opts.samples files. */
static int file_test(struct pp_ctx *ctx, const struct st_opts *o, const char dir[PATH_MAX],
		     char *buf, size_t bs)
{
	char (*paths)[ST_PATH] = calloc(ctx->opts.samples, sizeof(*paths));
	struct st_pass *p = malloc(sizeof(*p));
	struct st_io io = { buf, bs, o->size / ctx->opts.samples / bs * bs };
	unsigned int i;
	int ret;

	if (!p || !paths) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	if (io.len < bs)
		io.len = bs;
	p->n = ctx->opts.samples;
	for (i = 0; i < p->n; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/f%zu-%u.dat", dir, bs, i);
	ret = write_read(ctx, o, p, paths, &io);
	for (i = 0; i < p->n; i++)
		unlink(paths[i]);
out:
	free(paths);
	free(p);
	return ret;
}

struct dev_state {
	const char *dev;
	int fd;
	char *buf;
	uint64_t size, pos;
};

/* hdparm -T: the same 2 MB at the start of the device, from the cache. */
static int dev_cached(uint64_t iters, void *arg)
{
	struct dev_state *d = arg;

	while (iters-- > 0) {
		if (pread(d->fd, d->buf, HDPARM_CHUNK, 0) != (ssize_t)HDPARM_CHUNK)
			return errno ? -errno : -EIO;
	}
	return 0;
}

/* hdparm -t --direct: successive 2 MB from the device, wrapping at its end. */
static int dev_direct(uint64_t iters, void *arg)
{
	struct dev_state *d = arg;

	while (iters-- > 0) {
		if (d->pos + HDPARM_CHUNK > d->size)
			d->pos = 0;
		if (pread(d->fd, d->buf, HDPARM_CHUNK, (off_t)d->pos) != (ssize_t)HDPARM_CHUNK)
			return errno ? -errno : -EIO;
		d->pos += HDPARM_CHUNK;
	}
	return 0;
}

static int dev_measure(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		       struct dev_state *d)
{
	struct pp_timing_opts to = {
		.target_ms = ctx->opts.quick ? 50 : ctx->opts.full ? 1000 : 250,
		.no_overhead = true,
	};
	struct pp_sampling *s = malloc(sizeof(*s));
	double v[PP_MAX_SAMPLES];
	unsigned int i;
	int ret;

	if (!s)
		return pp_fail(ctx, "out of memory");
	ret = pp_sample(ctx, fn, d, &to, s);
	if (ret) {
		ret = pp_fail(ctx, "%s: %s: %s", key, d->dev, strerror(-ret));
		goto out;
	}
	for (i = 0; i < s->n; i++)
		v[i] = (double)HDPARM_CHUNK * 1e-6 / (s->ns_per_op[i] * 1e-9);
	ret = pp_report(ctx, key, v, s->n, s->iters);
out:
	free(s);
	return ret;
}

/* Read-only timings of a block device, as hdparm -T and -t --direct. */
static int dev_test(struct pp_ctx *ctx, const char *dev)
{
	struct dev_state d = { .dev = dev, .fd = -1 };
	struct stat st;
	int ret;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return pp_skip(ctx, "storage-dev", "PERFPROBE_STORAGE_DEV=%s: %s", dev,
			       "not a block device");
	if (posix_memalign((void **)&d.buf, ST_ALIGN, HDPARM_CHUNK))
		return pp_fail(ctx, "out of memory");
	d.fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (d.fd < 0) {
		ret = pp_skip(ctx, "storage-dev", "%s: %s", dev, strerror(errno));
		goto out;
	}
	if (ioctl(d.fd, BLKGETSIZE64, &d.size) || d.size < HDPARM_CHUNK) {
		ret = pp_skip(ctx, "storage-dev", "%s: cannot get its size or under 2 MB", dev);
		goto out;
	}
	pp_progress(ctx, "storage-dev: %s, %.1f GB, read only", dev, (double)d.size / 1e9);
	ret = dev_measure(ctx, "storage-dev-cached", dev_cached, &d);
	close(d.fd);
	d.fd = open(dev, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (d.fd < 0) {
		ret |= pp_skip(ctx, "storage-dev-direct", "%s: O_DIRECT: %s", dev, strerror(errno));
		goto out;
	}
	ret |= dev_measure(ctx, "storage-dev-direct", dev_direct, &d);
out:
	if (d.fd >= 0)
		close(d.fd);
	free(d.buf);
	return ret < 0 ? -1 : ret;
}

/* The test directory: a pp_tmp_dir() (removed even on ^C) inside o->dir. */
static int make_dir(struct pp_ctx *ctx, const struct st_opts *o, char *dir, size_t len)
{
	const char *saved = ctx->opts.tmpdir;
	int ret;

	if (o->dir)
		ctx->opts.tmpdir = o->dir;
	ret = pp_tmp_dir(ctx, dir, len);
	ctx->opts.tmpdir = saved;
	return ret;
}

/* Skip where a file test would not measure a device or would not fit. */
static int check_dir(struct pp_ctx *ctx, const struct st_opts *o, const char *dir)
{
	struct statvfs sv;
	struct statfs sf;

	if (!statfs(dir, &sf) && (sf.f_type == TMPFS_MAGIC_ || sf.f_type == RAMFS_MAGIC_))
		return pp_skip(ctx, NULL, "%s is in memory (tmpfs): %s", dir,
			       "set PERFPROBE_STORAGE_DIR to a directory on the device");
	if (!statvfs(dir, &sv) &&
	    (double)sv.f_bavail * (double)sv.f_frsize < (double)o->size + 64.0 * MB)
		return pp_skip(ctx, NULL, "%s: %.0f MB free, the test needs %zu MB + 64 MB", dir,
			       (double)sv.f_bavail * (double)sv.f_frsize / MB, o->size / MB);
	return 0;
}

/*
 * The filesystem the directory is on, as /proc/self/mountinfo names it
 * (its type after " - ", the mount whose device is the directory's):
 * the info storage-fs, which the guide's table heads name ("EXT4").
 */
static void record_fs(struct pp_ctx *ctx, const char *dir)
{
	char line[4096], type[32] = "";
	unsigned int maj, min;
	struct stat st;
	FILE *f;

	if (stat(dir, &st))
		return;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (!type[0] && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sep && sscanf(line, "%*s %*s %u:%u", &maj, &min) == 2 &&
		    makedev(maj, min) == st.st_dev)
			sscanf(sep + 3, "%31s", type);
	}
	fclose(f);
	if (type[0])
		pp_info(ctx, facts[ST_FACT_FS], "%s", type);
}

/*
 * The I/O buffer: ST_MAX_BUF of pseudo-random bytes (some devices and
 * filesystems make zeros, or anything compressible, cheap), in transparent
 * huge pages where the kernel gives them.  An O_DIRECT request carries the
 * buffer's pages as its segments: in 4 KiB pages, as the allocator happens
 * to place them, a 1 MiB read is up to 256 segments (two requests where a
 * queue takes 254), in huge pages one.  On a virtio disk the host's cost
 * per segment then sets the rate, and which the allocator gave changed
 * direct reads by up to 2x, run to run and between perfprobe and fio
 * (accuracy.rst, "storage and fio").  The info storage-buffer says which
 * the run had.  *len: what to munmap() from it.
 */
static char *st_buffer(struct pp_ctx *ctx, size_t *len)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char *buf;
	long kb;
	size_t j;

	if (pp_pagebuf_map(ST_MAX_BUF, false, &buf, len))
		return NULL;
	for (j = 0; j < ST_MAX_BUF / sizeof(x); j++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + j * sizeof(x), &x, sizeof(x));
	}
	kb = pp_pagebuf_huge_kb(buf);
	if (kb < 0)
		pp_info(ctx, facts[ST_FACT_BUFFER], "%lu kB, page sizes unknown (no /proc/self/smaps)",
			ST_MAX_BUF / KB);
	else
		pp_info(ctx, facts[ST_FACT_BUFFER], "%lu kB, %ld kB of it in transparent huge pages",
			ST_MAX_BUF / KB, kb);
	return buf;
}

static int files(struct pp_ctx *ctx, const struct st_opts *o)
{
	char dir[PATH_MAX], *buf;
	unsigned int i;
	size_t len;
	int ret;

	ret = make_dir(ctx, o, dir, sizeof(dir));
	if (ret)
		return pp_fail(ctx, "cannot create a directory in %s: %s",
			       o->dir ? o->dir : "the temporary directory", strerror(-ret));
	ret = check_dir(ctx, o, dir);
	if (ret)
		return ret;
	record_fs(ctx, dir);
	buf = st_buffer(ctx, &len);
	if (!buf)
		return pp_fail(ctx, "out of memory");
	pp_progress(ctx, "storage: %s, %zu MB per buffer size in %u files written with fsync, %s",
		    dir, o->size / MB, ctx->opts.samples,
		    o->direct ? "O_DIRECT" : o->drop ? "drop_caches before reading" :
		    "the files' pages dropped (fadvise) before reading");
	for (i = 0; i < ARRAY_SIZE(bufsizes) && !ret; i++)
		ret = file_test(ctx, o, dir, buf, bufsizes[i]);
	munmap(buf, len);
	return ret;
}

static int storage_run(struct pp_ctx *ctx)
{
	struct st_opts o;
	int ret;

	ret = parse_opts(ctx, &o);
	if (ret)
		return ret;
	if (o.drop && !o.direct && geteuid()) {
		ret = pp_skip(ctx, "storage-drop-caches", "not root: %s",
			      "the files' pages are dropped with posix_fadvise() instead");
		o.drop = false;
	}
	ret |= files(ctx, &o);
	if (ret >= 0 && o.dev)
		ret |= dev_test(ctx, o.dev);
	return ret < 0 ? -1 : ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "storage-dev-cached", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "cached reads of PERFPROBE_STORAGE_DEV, as hdparm -T" },
	{ .pattern = "storage-dev-direct", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "O_DIRECT reads of PERFPROBE_STORAGE_DEV, as hdparm -t --direct" },
	{ .pattern = "storage-%s-%s", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "sequential file write (with fsync) or read, buffer size" },
	{ .pattern = "storage-%s-%s-cpu", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU load of that write or read" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_storage = {
	.name = "storage",
	.group = "storage",
	.summary = "file write (with fsync) and read at 4k..4m buffers: MB/s, CPU load %",
	.keys = keys,
	.run = storage_run,
	.by_name = true,
	.facts = facts,
};
