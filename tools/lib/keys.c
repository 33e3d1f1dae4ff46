// SPDX-License-Identifier: GPL-2.0
/*
 * Declared result keys: the pattern matcher (keys.h describes the
 * syntax).  Keys are short (PP_KEY_MAX), so plain backtracking will do.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

/* Characters a key may hold (pp_key_valid()), '-' only when dash. */
static bool key_char(char c, bool dash)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_' ||
	       c == '.' || (dash && c == '-');
}

static bool conv_char(char conv, char c)
{
	if (conv == 'u')
		return isdigit((unsigned char)c);
	return key_char(c, conv == '*');
}

bool pp_key_match(const char *pattern, const char *key)
{
	char conv;
	size_t i;

	if (!*pattern)
		return !*key;
	if (pattern[0] == '%' && (pattern[1] == 'u' || pattern[1] == 's')) {
		conv = pattern[1];
		pattern += 2;
	} else if (pattern[0] == '*') {
		conv = '*';
		pattern++;
	} else {
		return *pattern == *key && pp_key_match(pattern + 1, key + 1);
	}
	/* One character or more of the conversion's, then the rest. */
	for (i = 0; key[i] && conv_char(conv, key[i]); i++)
		if (pp_key_match(pattern, key + i + 1))
			return true;
	return false;
}

const struct pp_key_decl *pp_key_decl_find(const struct pp_key_decl *decls,
					   const char *key)
{
	for (; decls && decls->pattern; decls++)
		if (pp_key_match(decls->pattern, key))
			return decls;
	return NULL;
}

bool pp_key_pattern_valid(const char *pattern)
{
	char key[PP_KEY_MAX], *o = key;
	const char *p;

	for (p = pattern; *p; p++) {
		if (o >= key + sizeof(key) - 2)
			return false;
		if (*p == '%' && (p[1] == 'u' || p[1] == 's')) {
			*o++ = p[1] == 'u' ? '1' : 'x';
			p++;
		} else if (*p == '*') {
			*o++ = 'x';
		} else if (*p == '%') {
			return false;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return pp_key_valid(key);
}

bool pp_show_end(const struct pp_key_show *s)
{
	return !s->table && !s->lm_line && !s->lm_block && !s->chart && !s->matrix;
}

double pp_key_size(const char *text, enum pp_size_name how)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || v < 0 || !isdigit((unsigned char)*text))
		return -1;
	if (*end == 'k' && how == PP_SIZE_LMBENCH_MB)
		return end[1] ? -1 : pp_memrd_bytes(v / 1000);
	if (*end == 'k')
		v *= 1024, end++;
	else if (*end == 'm')
		v *= 1024 * 1024, end++;
	return *end ? -1 : v;
}

void pp_key_size_name(char *buf, size_t size, double bytes, enum pp_size_name how)
{
	double k = bytes * 1000.0 / 1048576.0;

	if (how == PP_SIZE_LMBENCH_MB && k >= 0.5)
		snprintf(buf, size, "%.0fk", k);
	else if (how == PP_SIZE_BYTES && bytes >= 1048576 && !fmod(bytes, 1048576))
		snprintf(buf, size, "%.0fm", bytes / 1048576);
	else if (how == PP_SIZE_BYTES && bytes >= 1024 && !fmod(bytes, 1024))
		snprintf(buf, size, "%.0fk", bytes / 1024);
	else
		snprintf(buf, size, "%.0f", bytes);
}

const char *pp_dir_name(enum pp_dir dir)
{
	return dir == PP_HIGHER_IS_BETTER ? "higher" : "lower";
}

double pp_memrd_bytes(double mib)
{
	double b = mib * 1048576.0, step = pow(2, floor(log2(b))) / 8;

	return step >= 1 ? round(b / step) * step : round(b);
}
