// SPDX-License-Identifier: GPL-2.0
/*
 * The print layer (print.h): text through fprintf(), JSON as one jansson
 * tree written at the end, so that a failure half way leaves stdout
 * without half a document.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

static struct {
	FILE *f;
	bool json;
	json_t *stack[PP_PRINT_DEPTH + 1];	/* [0]: the document */
	unsigned int depth;			/* containers open */
	int err;				/* the first error */
} pr;

static void set_err(int err)
{
	if (!pr.err)
		pr.err = err;
}

static void reset(void)
{
	json_decref(pr.stack[0]);
	memset(pr.stack, 0, sizeof(pr.stack));
	pr.depth = 0;
	pr.err = 0;
}

void pp_print_start(FILE *f, bool json)
{
	reset();
	pr.f = f;
	pr.json = json;
	if (!json)
		return;
	pr.stack[0] = json_object();
	if (pr.stack[0])
		pr.depth = 1;
	else
		set_err(-ENOMEM);
}

int pp_print_end(void)
{
	int err = pr.err;
	char *s;

	if (pr.json && !err && pr.depth != 1)
		err = -EINVAL;		/* an object or array left open */
	if (pr.json && !err) {
		s = json_dumps(pr.stack[0], JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		if (s) {
			fprintf(pr.f, "%s\n", s);
			free(s);
		} else {
			err = -ENOMEM;
		}
	}
	if (fflush(pr.f) || ferror(pr.f))
		err = err ? err : -EIO;
	reset();
	return err;
}

bool pp_print_json(void)
{
	return pr.json;
}

static bool want_json(int mode)
{
	return pr.json && (mode & PP_JSON);
}

static bool want_text(int mode, const char *fmt)
{
	return !pr.json && (mode & PP_FP) && fmt;
}

/* Add v (a new reference, or NULL after a failed allocation) to the top. */
static void put(const char *key, json_t *v)
{
	json_t *top;

	if (!v) {
		set_err(-ENOMEM);
		return;
	}
	if (!pr.depth)
		goto put_v;
	top = pr.stack[pr.depth - 1];
	if (json_is_array(top)) {
		if (json_array_append_new(top, v))
			set_err(-ENOMEM);
		return;
	}
	if (!key || json_object_get(top, key))
		goto put_v;
	if (json_object_set_new(top, key, v))
		set_err(-ENOMEM);
	return;

put_v:		/* nowhere to put it */
	json_decref(v);
	set_err(-EINVAL);
}

static void open_container(const char *key, json_t *c)
{
	if (!pr.json)
		goto put_c;
	if (c && pr.depth > PP_PRINT_DEPTH) {
		set_err(-EINVAL);
		goto put_c;
	}
	put(key, json_incref(c));
	if (c && !pr.err)
		pr.stack[pr.depth++] = c;
put_c:
	json_decref(c);		/* the parent holds it now, if anything does */
}

static void close_container(bool array)
{
	if (!pr.json || pr.err)
		return;
	if (pr.depth < 2 || json_is_array(pr.stack[pr.depth - 1]) != array) {
		set_err(-EINVAL);
		return;
	}
	pr.depth--;
}

void pp_print_open_object(const char *key)
{
	open_container(key, pr.json ? json_object() : NULL);
}

void pp_print_close_object(void)
{
	close_container(false);
}

void pp_print_open_array(const char *key)
{
	open_container(key, pr.json ? json_array() : NULL);
}

void pp_print_close_array(void)
{
	close_container(true);
}

/* json_int_t is signed: larger counts go as reals rather than wrap. */
static json_t *json_u64(uint64_t v)
{
	return v > INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
}

void pp_print_u64(int mode, const char *key, const char *fmt, uint64_t v)
{
	if (want_json(mode))
		put(key, json_u64(v));
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, (unsigned long long)v);
}

void pp_print_uint(int mode, const char *key, const char *fmt, unsigned int v)
{
	if (want_json(mode))
		put(key, json_integer(v));
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, v);
}

void pp_print_int(int mode, const char *key, const char *fmt, int v)
{
	if (want_json(mode))
		put(key, json_integer(v));
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, v);
}

void pp_print_double(int mode, const char *key, const char *fmt, double v)
{
	if (want_json(mode))
		put(key, isfinite(v) ? json_real(v) : json_null());
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, v);
}

void pp_print_num(int mode, const char *key, const char *fmt, double v)
{
	char buf[PP_NUM_LEN];

	if (want_json(mode))
		put(key, isfinite(v) ? json_real(v) : json_null());
	if (want_text(mode, fmt)) {
		pp_fmt_num(buf, sizeof(buf), v);
		fprintf(pr.f, fmt, buf);
	}
}

/* JSON strings are UTF-8: a command line or a file name may not be. */
static json_t *json_str(const char *v)
{
	json_t *j = json_string(v);
	char *copy;
	size_t i;

	if (j)
		return j;
	copy = strdup(v);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++)
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

void pp_print_string(int mode, const char *key, const char *fmt, const char *v)
{
	if (want_json(mode))
		put(key, v ? json_str(v) : json_null());
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, v ? v : "-");
}

void pp_print_bool(int mode, const char *key, const char *fmt, bool v)
{
	if (want_json(mode))
		put(key, json_boolean(v));
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, v ? "yes" : "no");
}

void pp_print_null(int mode, const char *key, const char *fmt, const char *text)
{
	if (want_json(mode))
		put(key, json_null());
	if (want_text(mode, fmt))
		fprintf(pr.f, fmt, text ? text : "-");
}

void pp_fmt_num(char *buf, size_t size, double v)
{
	double a = fabs(v), q;
	int dec;
	char *p;

	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	if (isinf(v) || a == 0) {
		snprintf(buf, size, isinf(v) ? "%.0f" : "0", v);
		return;
	}
	/* the decimals that keep PP_NUM_DIGITS digits; none: round to tens, ... */
	dec = PP_NUM_DIGITS - 1 - (int)floor(log10(a));
	if (dec <= 0) {
		q = pow(10, -dec);
		snprintf(buf, size, "%.0f", round(v / q) * q);
		return;
	}
	snprintf(buf, size, "%.*f", dec, v);
	p = strchr(buf, '.');
	if (!p)
		return;
	p += strlen(p);
	while (p[-1] == '0')
		*--p = '\0';
	if (p[-1] == '.')
		p[-1] = '\0';
}

void pp_fmt_ns(char *buf, size_t size, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} u[] = { { 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" } };
	char num[PP_NUM_LEN];
	size_t i = 0;

	while (i + 1 < ARRAY_SIZE(u) && fabs(ns) >= u[i + 1].scale)
		i++;
	pp_fmt_num(num, sizeof(num), ns / u[i].scale);
	if (isnan(ns))
		snprintf(buf, size, "%s", num);
	else
		snprintf(buf, size, "%s %s", num, u[i].unit);
}

void pp_print_ns(int mode, const char *key, const char *fmt, uint64_t ns)
{
	char buf[PP_NUM_LEN + 4];

	if (want_json(mode))
		put(key, json_u64(ns));
	if (want_text(mode, fmt)) {
		pp_fmt_ns(buf, sizeof(buf), (double)ns);
		fprintf(pr.f, fmt, buf);
	}
}

void pp_print_nl(void)
{
	if (!pr.json)
		fputc('\n', pr.f);
}

void pp_print_text(const char *fmt, ...)
{
	va_list ap;

	if (pr.json)
		return;
	va_start(ap, fmt);
	vfprintf(pr.f, fmt, ap);
	va_end(ap);
}
