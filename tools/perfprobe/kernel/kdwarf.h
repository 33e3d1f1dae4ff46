/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdwarf: the running kernel's debug info (a vmlinux with DWARF, as
 * distributions ship it in their -dbg packages), read with elfutils'
 * libdwfl, so that a profile's kernel addresses name the functions the
 * compiler inlined into the one kallsyms lists, and the source line each
 * sample fell on.  Only a vmlinux whose build ID is the running kernel's
 * is used; its link addresses are moved by the kernel's KASLR offset
 * (_stext in kallsyms against _stext in the file).  Modules' and BPF
 * addresses are outside it and stay kallsyms' alone.
 */
#ifndef PP_KDWARF_H
#define PP_KDWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The inlined functions an address is in, at most (innermost kept). */
#define PP_KDWARF_INLINE	8
#define PP_KDWARF_NAME		128
#define PP_KDWARF_SRC		160
/* A frame the compiler inlined is named "<function> (inlined)", as perf does. */
#define PP_KDWARF_INLINED	" (inlined)"

struct pp_kdwarf;

/* What an address is in: the inlined functions, outermost first, and the line. */
struct pp_kdwarf_loc {
	unsigned int ninline;
	char inlined[PP_KDWARF_INLINE][PP_KDWARF_NAME];
	char src[PP_KDWARF_SRC];	/* "kernel/seccomp.c:412", or "" */
};

/*
 * The places a vmlinux with debug info is looked for, for the kernel
 * release release, as perf looks: "%s" is the release.
 */
extern const char *const pp_kdwarf_paths[];

/*
 * Open path (NULL: the first of pp_kdwarf_paths[] that exists) as the
 * debug info of the kernel running now: its build ID must be notes'
 * (the running kernel's notes, /sys/kernel/notes; NULL: do not check),
 * and its _stext is moved to stext (kallsyms': the KASLR offset).
 * 0 with *out, or a negative errno and one line in why: -ENOENT when no
 * file was found (why names where it looked), -ESRCH when the file is
 * another kernel's, -ENODATA when it has no DWARF.
 */
int pp_kdwarf_open(struct pp_kdwarf **out, const char *path, const char *release,
		   const char *notes, uint64_t stext, char *why, size_t len);

/*
 * pp_kdwarf_open() for the kernel running now: its release (uname), its
 * notes (/sys/kernel/notes), its _stext (stext, from kallsyms).
 */
int pp_kdwarf_open_running(struct pp_kdwarf **out, const char *path, uint64_t stext,
			   char *why, size_t len);

/* The file in use. */
const char *pp_kdwarf_path(const struct pp_kdwarf *kd);

/*
 * Where the kernel address addr is: false when the debug info does not
 * cover it (a module, BPF, a hole), loc untouched then.
 */
bool pp_kdwarf_lookup(struct pp_kdwarf *kd, uint64_t addr, struct pp_kdwarf_loc *loc);

void pp_kdwarf_close(struct pp_kdwarf *kd);

#endif /* PP_KDWARF_H */
