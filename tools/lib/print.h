/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One print layer for everything that prints data, in the manner of
 * iproute2's json_print: each field is written once, with its JSON key
 * and its text format, and rendered as one or the other depending on
 * the mode chosen at pp_print_start().
 *
 *	pp_print_start(stdout, json);
 *	pp_print_string(PP_JSON, "format", NULL, "perfprobe-timer");
 *	pp_print_u64(PP_ANY, "count", "  count: %llu\n", n);
 *	pp_print_open_array("histogram");
 *	...
 *	pp_print_close_array();
 *	ret = pp_print_end();		(a command: pp_print_done())
 *
 * PP_FP writes only in text mode, PP_JSON only in JSON mode, PP_ANY in
 * both.  In text mode a field is fprintf(f, fmt, value) (nothing when fmt
 * is NULL); the value's type is the one its function names: unsigned
 * long long for u64, unsigned int, int, double, const char * for
 * strings, bools and nulls (bools print "yes" or "no").  In JSON mode the
 * fields build one document, an object, that pp_print_end() writes at
 * once: stdout carries exactly one JSON document, or nothing when a
 * field could not be added.  Keys are ignored inside arrays and required
 * inside objects.  Objects and arrays exist only in JSON: in text the
 * caller's formats carry the layout.
 *
 * One printer per process (the CLI prints one document per command).
 */
#ifndef PP_PRINT_H
#define PP_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

enum pp_print_mode {
	PP_FP	= 1 << 0,	/* text only */
	PP_JSON	= 1 << 1,	/* JSON only */
	PP_ANY	= PP_FP | PP_JSON,
};

/* Begin a document on f (JSON: an object). */
void pp_print_start(FILE *f, bool json);
/*
 * End it: JSON is written now, followed by a newline.  Returns 0, or the
 * first error since pp_print_start(): -ENOMEM, -EINVAL for a misuse (a
 * key missing or written twice in one object, unbalanced open/close,
 * nesting deeper than PP_PRINT_DEPTH) or -EIO if f failed.
 */
int pp_print_end(void);
bool pp_print_json(void);

/*
 * Numbers for people, the one way every text output writes a figure:
 * PP_NUM_DIGITS significant digits in plain notation, never an
 * exponent, trailing zeros after the point dropped: 109400, 2.069,
 * 0.000718, 0 ("-" when NaN: a figure that is absent).  A buffer of
 * PP_NUM_LEN holds any figure below 1e20 and down to 1e-12.
 */
#define PP_NUM_DIGITS		4
#define PP_NUM_LEN		40
void pp_fmt_num(char *buf, size_t size, double v);
/* A duration the same way: "850 ns", "1.024 us", "3.5 ms", "2 s". */
void pp_fmt_ns(char *buf, size_t size, double ns);

#define PP_PRINT_DEPTH		16

void pp_print_open_object(const char *key);
void pp_print_close_object(void);
void pp_print_open_array(const char *key);
void pp_print_close_array(void);

void pp_print_u64(int mode, const char *key, const char *fmt, uint64_t v);
void pp_print_uint(int mode, const char *key, const char *fmt, unsigned int v);
void pp_print_int(int mode, const char *key, const char *fmt, int v);
/* Not finite: JSON null. */
void pp_print_double(int mode, const char *key, const char *fmt, double v);
/* The same in JSON; in text fmt with the figure as pp_fmt_num() (a %s). */
void pp_print_num(int mode, const char *key, const char *fmt, double v);
/* NULL: JSON null, "-" in text.  Bytes that are not UTF-8 become '?'. */
void pp_print_string(int mode, const char *key, const char *fmt, const char *v);
void pp_print_bool(int mode, const char *key, const char *fmt, bool v);
/* JSON null; in text fmt with the string text ("-" when NULL). */
void pp_print_null(int mode, const char *key, const char *fmt, const char *text);
/* JSON: an integer in ns; text: fmt with the duration as pp_fmt_ns(). */
void pp_print_ns(int mode, const char *key, const char *fmt, uint64_t ns);

/* Text mode only: a newline; free text (headers, rules, bars). */
void pp_print_nl(void);
void pp_print_text(const char *fmt, ...) __printf(1, 2);

#endif /* PP_PRINT_H */
