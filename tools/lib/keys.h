/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declared result keys.  Every benchmark declares each key it can emit,
 * with its unit, direction and a line of description; the harness takes
 * unit and direction from the declaration and refuses a key that is not
 * declared (Documentation/adding.rst).
 *
 * A declaration's pattern is a key, or a key with conversions for the
 * parts a curve or a sweep varies:
 *
 *   %u  one or more digits                     lat_ctx-%u-%uk
 *   %s  one or more key characters but '-'     lat_mem_rd-stride%u-sz%s
 *   *   one or more key characters, '-' too    crypto-evp-*-%u
 *
 * The first declaration that matches a key is the key's.
 */
#ifndef PP_KEYS_H
#define PP_KEYS_H

#include <stdbool.h>

#include "results.h"

struct pp_key_decl {
	const char *pattern;		/* NULL ends a list */
	const char *unit;		/* "us", "MB/s", "%" ... */
	enum pp_dir dir;
	enum pp_kind kind;		/* measured unless said (results.h) */
	const char *desc;		/* one line for "perfprobe list -v" */
};

/* Ends a list of declarations. */
#define PP_KEYS_END	{ .pattern = NULL }

/* Does key match pattern (the syntax above)? */
bool pp_key_match(const char *pattern, const char *key);

/* The first declaration in decls (NULL-ended; may be NULL) matching key. */
const struct pp_key_decl *pp_key_decl_find(const struct pp_key_decl *decls,
					   const char *key);

/* A pattern is a valid key once each conversion is given a value. */
bool pp_key_pattern_valid(const char *pattern);

/*
 * lat_mem_rd names a size as lmbench's MB column (2^20 bytes) x 1000
 * ("sz31k" is 0.031 MiB); back to bytes: lmbench's sizes are 2^n and steps
 * of an eighth of 2^n between, so the nearest such step to mib x 2^20.
 */
double pp_memrd_bytes(double mib);

/* "lower" or "higher", as the result files spell a direction. */
const char *pp_dir_name(enum pp_dir dir);

#endif /* PP_KEYS_H */
