/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the C TAP writer of perfprobe's tests, in the manner of the
 * kernel's tools/testing/selftests/kselftest.h.  Header only.
 *
 * Lines are printed without numbers ("ok - NAME", "not ok - NAME",
 * "ok - NAME # SKIP REASON", "# diagnostic"): a test program may run as
 * one of several whose lines the caller numbers and plans
 * (tests/lib/tap.sh, tests/vm/guest-tests.sh).  tap_exit_code() gives the
 * exit code with the kselftest codes: KSFT_PASS 0, KSFT_FAIL 1,
 * KSFT_SKIP 4 (everything was skipped).
 *
 *	tap_ok(n == 3, "three calls counted (got %d)", n);
 *	tap_skip("no CAP_PERFMON", "perfmon-only case");
 *	tap_diag("kernel reports: %s", msg);
 *	return tap_exit_code();
 *
 * A program of several files puts TAP_STATE_DEFINE; in one of them.
 */
#ifndef PP_TAP_H
#define PP_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

struct tap_state {
	unsigned int pass, fail, skip;
	bool quiet;		/* count only: the exit code says it all */
	const char *prefix;	/* put before every test name */
};

/* One program, one count: exactly one of its files says TAP_STATE_DEFINE. */
extern struct tap_state tap_st;
#define TAP_STATE_DEFINE	struct tap_state tap_st = { .prefix = "" }

static inline void tap_set_quiet(bool quiet)
{
	tap_st.quiet = quiet;
}

static inline void tap_set_prefix(const char *prefix)
{
	tap_st.prefix = prefix ? prefix : "";
}

static inline bool tap_quiet(void)
{
	return tap_st.quiet;
}

static inline unsigned int tap_failed(void)
{
	return tap_st.fail;
}

static inline void tap_vline(const char *result, const char *fmt, va_list ap,
			     const char *skip)
{
	if (tap_st.quiet)
		return;
	printf("%s - %s", result, tap_st.prefix);
	vprintf(fmt, ap);
	if (skip)
		printf(" # SKIP %s", skip);
	putchar('\n');
	fflush(stdout);
}

static inline bool tap_ok(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		tap_st.pass++;
	else
		tap_st.fail++;
	va_start(ap, fmt);
	tap_vline(ok ? "ok" : "not ok", fmt, ap, NULL);
	va_end(ap);
	return ok;
}

static inline void tap_skip(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	tap_st.skip++;
	va_start(ap, fmt);
	tap_vline("ok", fmt, ap, reason);
	va_end(ap);
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	if (tap_st.quiet)
		return;
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* KSFT_FAIL if a check failed, KSFT_SKIP if all were skipped, else 0. */
static inline int tap_exit_code(void)
{
	if (tap_st.fail)
		return KSFT_FAIL;
	if (tap_st.skip && !tap_st.pass)
		return KSFT_SKIP;
	return KSFT_PASS;
}

#endif /* PP_TAP_H */
