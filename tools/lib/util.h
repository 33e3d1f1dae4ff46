/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the perfprobe tools: messages, strict number
 * parsing, string copies.
 */
#ifndef PP_UTIL_H
#define PP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noinline	__attribute__((noinline))
/* No specialised copy of a function for its callers: GCC's; clang never
 * clones and does not know the attribute. */
#if defined(__GNUC__) && !defined(__clang__)
#define __noclone	__attribute__((noclone))
#else
#define __noclone
#endif

/* "perfprobe: <message>\n" on stderr. */
void pp_err(const char *fmt, ...) __printf(1, 2);
/*
 * Only at a verbosity of 1 or more (0 until set; the command line's -v
 * raises it).
 */
void pp_dbg(const char *fmt, ...) __printf(1, 2);
void pp_set_verbosity(int level);
int pp_verbosity(void);

int pp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int pp_parse_double(const char *s, double min, double max, double *out);
/* Sizes with k/m/g suffixes (powers of two), as lmbench's bytes(). */
int pp_parse_size(const char *s, uint64_t *out);

/* Bounded copy that always terminates; returns false when truncated. */
bool pp_strlcpy(char *dst, const char *src, size_t size);

/* Read the first line of a small file (sysfs, procfs); strips '\n'. */
int pp_read_line(const char *path, char *buf, size_t size);

/*
 * A whole text file, NUL-ended, into *text (free() it), its length in
 * *len: 0; -errno (it cannot be opened or read), -EISDIR, -EFBIG (more
 * than max bytes; 0: no limit), -EILSEQ (a NUL byte in it: not text),
 * -ENOMEM.  An empty file is "".
 */
int pp_read_text(const char *path, size_t max, char **text, size_t *len);

/* Read or write exactly n bytes: 0, -errno, or -EPIPE at end of file. */
int pp_read_full(int fd, void *buf, size_t n);
int pp_write_full(int fd, const void *buf, size_t n);
/*
 * Write len bytes of buf as path, mode 0644, atomically: a temporary file
 * beside it, fsync, rename.  Never a half-written path.  0 or -errno.
 */
int pp_write_file_atomic(const char *path, const void *buf, size_t len);

/*
 * The status line at the bottom of a terminal (stderr): set it, and the
 * lines pp_err()/pp_vline() write go above it; end removes it.  Does
 * nothing when stderr is not a terminal.
 */
bool pp_status_tty(void);
void pp_status_set(const char *text);
void pp_status_end(void);
/* "perfprobe: " and the message, a line on stderr above the status line. */
void pp_vline(const char *fmt, va_list ap);
/* The error of a short read() or write() r: -errno, or -EPIPE for EOF. */
int pp_io_err(ssize_t r);

/* mkdir -p */
int pp_mkdirs(const char *path, unsigned int mode);

#endif /* PP_UTIL_H */
