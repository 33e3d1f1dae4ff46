// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static int verbosity;

void pp_set_verbosity(int level)
{
	verbosity = level;
}

int pp_verbosity(void)
{
	return verbosity;
}

/*
 * The status line: one line at the bottom of a terminal, redrawn in
 * place ("\r", erase to the end of the line); every other line written
 * to stderr goes above it.  Nothing of it when stderr is not a terminal.
 */
static char status[512];
static bool status_on;
static int status_tty = -1;

bool pp_status_tty(void)
{
	const char *term = getenv("TERM");

	if (status_tty < 0)
		status_tty = isatty(STDERR_FILENO) && term && strcmp(term, "dumb");
	return status_tty;
}

static void status_hide(void)
{
	if (status_on)
		fputs("\r\033[K", stderr);
}

static void status_show(void)
{
	if (status_on) {
		fputs(status, stderr);
		fflush(stderr);
	}
}

void pp_status_set(const char *text)
{
	struct winsize ws;
	size_t max = sizeof(status) - 1;

	if (!pp_status_tty())
		return;
	/* a wrapped line cannot be redrawn in place: cut it to the width */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 && (size_t)ws.ws_col - 1 < max)
		max = ws.ws_col - 1;
	status_hide();
	snprintf(status, max + 1, "%s", text);
	status_on = true;
	status_show();
}

void pp_status_end(void)
{
	status_hide();
	status_on = false;
	fflush(stderr);
}

void pp_vline(const char *fmt, va_list ap)
{
	status_hide();
	fputs("perfprobe: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	status_show();
}

void pp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pp_vline(fmt, ap);
	va_end(ap);
}

void pp_dbg(const char *fmt, ...)
{
	va_list ap;

	if (!verbosity)
		return;
	va_start(ap, fmt);
	pp_vline(fmt, ap);
	va_end(ap);
}

int pp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pp_parse_double(const char *s, double min, double max, double *out)
{
	double v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pp_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && !(tolower((unsigned char)end[1]) == 'b' && !end[2]))
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

bool pp_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (!size)
		return false;
	if (len >= size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return false;
	}
	memcpy(dst, src, len + 1);
	return true;
}

int pp_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool got;
	size_t len;

	if (!f)
		return -errno;
	got = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!got)
		return -EIO;
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

int pp_read_text(const char *path, size_t max, char **text, size_t *len)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	size_t cap = 0;
	char *b = NULL;
	ssize_t r;
	int ret = 0;

	if (!f)
		return -errno;
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return -EISDIR;
	}
	r = getdelim(&b, &cap, '\0', f);
	if (r < 0 && !ferror(f)) {	/* empty */
		free(b);
		b = calloc(1, 1);
		r = 0;
		if (!b)
			ret = -ENOMEM;
	} else if (r < 0) {
		ret = -EIO;
	} else if (max && (size_t)r > max) {
		ret = -EFBIG;
	} else if (memchr(b, '\0', (size_t)r)) {
		ret = -EILSEQ;
	}
	fclose(f);
	if (ret) {
		free(b);
		return ret;
	}
	*text = b;
	*len = (size_t)r;
	return 0;
}

int pp_mkdirs(const char *path, unsigned int mode)
{
	char tmp[4096];
	char *p;

	if (!pp_strlcpy(tmp, path, sizeof(tmp)))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int pp_io_err(ssize_t r)
{
	return r < 0 ? -errno : -EPIPE;
}

int pp_read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return pp_io_err(r);
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pp_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return pp_io_err(r);
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pp_write_file_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, n, err;

	n = snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	/* a full disk is a short write, then ENOSPC: say that one */
	err = pp_write_full(fd, buf, len);
	if (!err && fsync(fd))
		err = -errno;
	if (fchmod(fd, 0644) && !err)
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
