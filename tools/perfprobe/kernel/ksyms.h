/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms: kernel addresses to function names from /proc/kallsyms, which
 * lists the kernel's text, every loaded module's and every JIT-compiled
 * BPF program's (bpf_prog_<tag>_<name>).
 */
#ifndef PP_KSYMS_H
#define PP_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_ksym {
	uint64_t addr;
	uint32_t name;		/* offset in names */
	bool bpf;		/* a BPF program's ([bpf]) */
};

/* A JIT-compiled BPF function as the bpf() system call describes it. */
struct pp_kjit {
	uint64_t addr;
	uint32_t len;
	char name[48];		/* bpf_prog_<tag>_<name>, as kallsyms has it */
};

struct pp_ksyms {
	struct pp_ksym *syms;	/* by address */
	size_t n;
	char *names;
	size_t names_len;
	uint64_t text_lo, text_hi;	/* the kernel's own: _stext.._etext */
	struct pp_kjit *jits;	/* by address (pp_ksyms_jits()) */
	size_t njits;
	bool jits_known;	/* the bpf() system call listed them */
};

/*
 * Read the text symbols of path (/proc/kallsyms): 0, or a negative
 * errno with one line in why: -EACCES when the addresses are hidden
 * (all zero: kptr_restrict, or not root).
 */
int pp_ksyms_load(struct pp_ksyms *ks, const char *path, char *why, size_t len);

/*
 * The BPF programs loaded now, with their lengths, from the bpf() system
 * call (needs CAP_SYS_ADMIN; without, the names stay kallsyms' alone):
 * kallsyms gives no sizes, and JIT-compiled code it does not list (a
 * classic BPF filter: seccomp's, a socket's) lies in the same pages, right
 * after programs it lists.  0, or a negative errno.
 */
int pp_ksyms_jits(struct pp_ksyms *ks);

/*
 * The function addr is in, or NULL when it is in none that is listed.
 * Where the BPF programs are known (pp_ksyms_jits()), an address past
 * the end of the BPF program before it is PP_KSYMS_JIT; so is a kernel
 * address in no symbol outside the kernel's own text (a JIT image of its
 * own, far from any listed one: modules and trampolines are listed).
 */
#define PP_KSYMS_JIT	"[JIT code kallsyms does not list]"
/* Is addr's symbol a BPF program's? */
bool pp_ksyms_is_bpf(const struct pp_ksyms *ks, uint64_t addr);
const char *pp_ksyms_name(const struct pp_ksyms *ks, uint64_t addr);

void pp_ksyms_free(struct pp_ksyms *ks);

#endif /* PP_KSYMS_H */
