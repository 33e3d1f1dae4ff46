/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms: kernel addresses to function names from /proc/kallsyms, which
 * lists the kernel's text, every loaded module's and every JIT-compiled
 * BPF program's (bpf_prog_<tag>_<name>).
 */
#ifndef PP_KSYMS_H
#define PP_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct pp_ksym {
	uint64_t addr;
	uint32_t name;		/* offset in names */
};

struct pp_ksyms {
	struct pp_ksym *syms;	/* by address */
	size_t n;
	char *names;
	size_t names_len;
};

/*
 * Read the text symbols of path (/proc/kallsyms): 0, or a negative
 * errno with one line in why: -EACCES when the addresses are hidden
 * (all zero: kptr_restrict, or not root).
 */
int pp_ksyms_load(struct pp_ksyms *ks, const char *path, char *why, size_t len);

/* The function addr is in, or NULL when it is in none that is listed. */
const char *pp_ksyms_name(const struct pp_ksyms *ks, uint64_t addr);

void pp_ksyms_free(struct pp_ksyms *ks);

#endif /* PP_KSYMS_H */
