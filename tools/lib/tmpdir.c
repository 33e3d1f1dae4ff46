// SPDX-License-Identifier: GPL-2.0
/*
 * Temporary directories of a run (tmpdir.h): made under --tmpdir,
 * $TMPDIR or /tmp, remembered, and removed with all they hold by the
 * process that made them, at the end of a benchmark or from a signal
 * handler (interrupt.c).  Removal is in-process and async-signal-safe:
 * open, getdents64, fstatat, unlinkat and close, no malloc, no stdio.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define PP_TMP_DIRS		16
/* Benchmarks make flat directories; deeper trees are left, not recursed. */
#define RMTREE_DEPTH		16

static struct {
	char path[PATH_MAX];
	pid_t owner;			/* the process that made it */
} tmp_dirs[PP_TMP_DIRS];
static volatile sig_atomic_t ntmp;

static bool dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

static int rm_at(int parent, const char *name, unsigned int depth);

/* One entry of the directory fd: 1 when removed, 0 when not, -errno. */
static int rm_entry(int fd, const struct dirent64 *d, unsigned int depth)
{
	struct stat st;
	bool dir = d->d_type == DT_DIR;

	if (d->d_type == DT_UNKNOWN) {
		if (fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW))
			return errno == ENOENT ? 0 : -errno;
		dir = S_ISDIR(st.st_mode);
	}
	if (dir) {
		int err = rm_at(fd, d->d_name, depth + 1);

		return err ? err : 1;
	}
	if (unlinkat(fd, d->d_name, 0))
		return errno == ENOENT ? 0 : -errno;
	return 1;
}

/*
 * What the directory name in parent holds, then itself.  A pass over
 * it removes what it reads; passes repeat until one removes nothing
 * (removing entries while reading a directory may hide others from
 * that read).  0, or the first -errno.
 */
static int rm_at(int parent, const char *name, unsigned int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	int fd, err = 0, removed;
	ssize_t n, off;

	if (depth > RMTREE_DEPTH)
		return -ELOOP;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	do {
		removed = 0;
		while (!err && (n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n && !err; ) {
				const struct dirent64 *d = (const void *)(buf + off);
				int r = dot_or_dotdot(d->d_name) ? 0 : rm_entry(fd, d, depth);

				if (r < 0)
					err = r;
				removed += r > 0;
				off += d->d_reclen;
			}
		}
		if (!err && n < 0)
			err = -errno;
	} while (!err && removed && lseek(fd, 0, SEEK_SET) == 0);
	close(fd);
	if (!err && unlinkat(parent, name, AT_REMOVEDIR) && errno != ENOENT)
		err = -errno;
	return err;
}

int pp_rmtree(const char *dir)
{
	return rm_at(AT_FDCWD, dir, 0);
}

void pp_tmp_cleanup(void)
{
	pid_t self = getpid();

	while (ntmp > 0 && tmp_dirs[ntmp - 1].owner == self) {
		ntmp--;
		pp_rmtree(tmp_dirs[ntmp].path);
	}
}

int pp_tmp_dir(struct pp_ctx *ctx, char *buf, size_t size)
{
	const char *base = ctx->opts.tmpdir;
	sigset_t all, old;
	int n;

	if (!base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	n = snprintf(buf, size, "%s/perfprobe.XXXXXX", base);
	if (n < 0 || (size_t)n >= size || ntmp >= PP_TMP_DIRS)
		return -ENAMETOOLONG;
	/* Create and register with signals blocked: never leak a directory. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!mkdtemp(buf)) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		return err;
	}
	pp_strlcpy(tmp_dirs[ntmp].path, buf, sizeof(tmp_dirs[0].path));
	tmp_dirs[ntmp].owner = getpid();
	ntmp++;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
