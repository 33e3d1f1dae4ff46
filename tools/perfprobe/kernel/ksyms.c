// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms: /proc/kallsyms read once into one sorted array; an address
 * belongs to the symbol at or below it.  kallsyms gives no sizes: an
 * address farther than KSYM_SPAN past its symbol, or past the last, is
 * in none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "util.h"

/* No kernel function is longer (the longest on 6.18 are under 64 KiB). */
#define KSYM_SPAN	(1u << 20)

static int cmp_sym(const void *a, const void *b)
{
	const struct pp_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* aliases: the first listed, as kallsyms orders them */
	return (x->name > y->name) - (x->name < y->name);
}

/* Append one symbol: 0 or -ENOMEM. */
static int add(struct pp_ksyms *ks, size_t *cap, size_t *ncap, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1;

	if (ks->n == *cap) {
		size_t c = *cap ? *cap * 2 : 65536;
		struct pp_ksym *s = realloc(ks->syms, c * sizeof(*s));

		if (!s)
			return -ENOMEM;
		ks->syms = s;
		*cap = c;
	}
	if (ks->names_len + len > *ncap) {
		size_t c = *ncap ? *ncap * 2 : 1 << 21;
		char *s;

		while (c < ks->names_len + len)
			c *= 2;
		s = realloc(ks->names, c);
		if (!s)
			return -ENOMEM;
		ks->names = s;
		*ncap = c;
	}
	memcpy(ks->names + ks->names_len, name, len);
	ks->syms[ks->n].addr = addr;
	ks->syms[ks->n].name = (uint32_t)ks->names_len;
	ks->names_len += len;
	ks->n++;
	return 0;
}

int pp_ksyms_load(struct pp_ksyms *ks, const char *path, char *why, size_t len)
{
	size_t cap = 0, ncap = 0, zero = 0;
	char line[512], name[256];
	unsigned long long addr;
	int ret = 0;
	FILE *f;
	char t;

	memset(ks, 0, sizeof(*ks));
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &t, name) != 3)
			continue;
		if (t != 't' && t != 'T')
			continue;
		if (!addr) {
			zero++;
			continue;
		}
		ret = add(ks, &cap, &ncap, addr, name);
		if (ret) {
			snprintf(why, len, "%s: out of memory", path);
			goto fail;
		}
	}
	if (!ks->n) {
		ret = zero ? -EACCES : -ENOENT;
		snprintf(why, len, zero ? "%s hides the kernel's addresses (kptr_restrict; needs root)" :
			 "%s lists no kernel function", path);
		goto fail;
	}
	fclose(f);
	qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_sym);
	return 0;
fail:
	fclose(f);
	pp_ksyms_free(ks);
	return ret;
}

const char *pp_ksyms_name(const struct pp_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - ks->syms[lo - 1].addr >= KSYM_SPAN)
		return NULL;
	/* of aliases at one address, the first listed */
	while (lo > 1 && ks->syms[lo - 2].addr == ks->syms[lo - 1].addr)
		lo--;
	return ks->names + ks->syms[lo - 1].name;
}

void pp_ksyms_free(struct pp_ksyms *ks)
{
	free(ks->syms);
	free(ks->names);
	memset(ks, 0, sizeof(*ks));
}
