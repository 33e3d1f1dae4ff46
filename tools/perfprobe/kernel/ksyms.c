// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms: /proc/kallsyms read once into one sorted array; an address
 * belongs to the symbol at or below it.  kallsyms gives no sizes: an
 * address farther than KSYM_SPAN past its symbol, or past the last, is
 * in none.  Where that symbol is a BPF program's, the programs loaded
 * now and their lengths come from the bpf() system call instead: the
 * JIT's pages hold code kallsyms does not list (classic BPF: a seccomp
 * filter) right after programs it does, and programs loaded since.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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
static int add(struct pp_ksyms *ks, size_t *cap, size_t *ncap, uint64_t addr, const char *name,
	       bool bpf)
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
	ks->syms[ks->n].bpf = bpf;
	ks->names_len += len;
	ks->n++;
	return 0;
}

int pp_ksyms_load(struct pp_ksyms *ks, const char *path, char *why, size_t len)
{
	size_t cap = 0, ncap = 0, zero = 0;
	char line[512], name[256], mod[64];
	unsigned long long addr;
	int ret = 0, n;
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
		n = sscanf(line, "%llx %c %255s [%63[^]]]", &addr, &t, name, mod);
		if (n < 3)
			continue;
		if (t != 't' && t != 'T')
			continue;
		if (!addr) {
			zero++;
			continue;
		}
		ret = add(ks, &cap, &ncap, addr, name, n == 4 && !strcmp(mod, "bpf"));
		if (n == 3 && !strcmp(name, "_stext"))
			ks->text_lo = addr;
		if (n == 3 && !strcmp(name, "_etext"))
			ks->text_hi = addr;
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

static int sys_bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* What program fd's JIT-compiled functions are, appended: 0 or -errno. */
static int prog_jits(struct pp_ksyms *ks, int fd, size_t *cap)
{
	struct bpf_prog_info info;
	union bpf_attr a;
	uint64_t addrs[64];
	uint32_t lens[64], i, n;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
		return -errno;
	n = info.nr_jited_ksyms < 64 ? info.nr_jited_ksyms : 64;
	if (!n)
		return 0;	/* not JIT-compiled */
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = n;
	info.jited_ksyms = (uint64_t)(uintptr_t)addrs;
	info.nr_jited_func_lens = n;
	info.jited_func_lens = (uint64_t)(uintptr_t)lens;
	a.info.info_len = sizeof(info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
		return -errno;
	for (i = 0; i < n; i++) {
		struct pp_kjit *j;

		if (ks->njits == *cap) {
			size_t c = *cap ? *cap * 2 : 64;

			j = realloc(ks->jits, c * sizeof(*j));
			if (!j)
				return -ENOMEM;
			ks->jits = j;
			*cap = c;
		}
		j = &ks->jits[ks->njits++];
		j->addr = addrs[i];
		j->len = lens[i];
		snprintf(j->name, sizeof(j->name), "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x_%.16s",
			 info.tag[0], info.tag[1], info.tag[2], info.tag[3], info.tag[4],
			 info.tag[5], info.tag[6], info.tag[7], info.name);
	}
	return 0;
}

static int cmp_jit(const void *a, const void *b)
{
	const struct pp_kjit *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

int pp_ksyms_jits(struct pp_ksyms *ks)
{
	union bpf_attr a;
	uint32_t id = 0;
	size_t cap = 0;
	int fd, err = 0;

	free(ks->jits);
	ks->jits = NULL;
	ks->njits = 0;
	ks->jits_known = false;
	for (;;) {
		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &a)) {
			if (errno != ENOENT)
				err = -errno;
			break;
		}
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.prog_id = id;
		fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;	/* unloaded meanwhile */
			err = -errno;
			break;
		}
		err = prog_jits(ks, fd, &cap);
		close(fd);
		if (err)
			break;
	}
	if (err) {
		free(ks->jits);
		ks->jits = NULL;
		ks->njits = 0;
		return err;
	}
	qsort(ks->jits, ks->njits, sizeof(*ks->jits), cmp_jit);
	ks->jits_known = true;
	return 0;
}

/* The BPF program addr is in, as the bpf() system call said, or PP_KSYMS_JIT. */
static const char *jit_name(const struct pp_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->njits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->jits[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr - ks->jits[lo - 1].addr < ks->jits[lo - 1].len)
		return ks->jits[lo - 1].name;
	return PP_KSYMS_JIT;
}

/* The symbol addr is in (of aliases, the first listed), or NULL. */
static const struct pp_ksym *find(const struct pp_ksyms *ks, uint64_t addr)
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
	while (lo > 1 && ks->syms[lo - 2].addr == ks->syms[lo - 1].addr)
		lo--;
	return &ks->syms[lo - 1];
}

bool pp_ksyms_is_bpf(const struct pp_ksyms *ks, uint64_t addr)
{
	const struct pp_ksym *s = find(ks, addr);

	return s && s->bpf;
}

const char *pp_ksyms_name(const struct pp_ksyms *ks, uint64_t addr)
{
	const struct pp_ksym *s = find(ks, addr);

	/* executable, not the kernel's text, and no module's: a JIT's */
	if (!s && (addr >> 63) && ks->text_lo && ks->text_hi &&
	    (addr < ks->text_lo || addr >= ks->text_hi))
		return PP_KSYMS_JIT;
	if (!s)
		return NULL;
	/* BPF programs come and go: the ones loaded now, with their ends */
	if (s->bpf && ks->jits_known)
		return jit_name(ks, addr);
	return ks->names + s->name;
}

void pp_ksyms_free(struct pp_ksyms *ks)
{
	free(ks->jits);
	free(ks->syms);
	free(ks->names);
	memset(ks, 0, sizeof(*ks));
}
