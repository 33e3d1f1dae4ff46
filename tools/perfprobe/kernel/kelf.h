/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kelf: read the .modinfo section of a kernel module (libelf) and compare
 * its vermagic with the running kernel.
 */
#ifndef PP_KELF_H
#define PP_KELF_H

#include <stdbool.h>
#include <stddef.h>

struct pp_modinfo {
	char vermagic[256];		/* "6.1.0-28-amd64 SMP preempt ..." */
	char name[64];
	char version[64];
};

/*
 * Parse a .modinfo blob ("key=value\0key=value\0...").  Returns 0, or
 * -ENOENT when it has no vermagic.
 */
int pp_modinfo_parse(const char *data, size_t size, struct pp_modinfo *mi);

/*
 * Read FILE.ko.  Returns 0, or a negative errno with one line in err
 * naming the file: -EIO unreadable, -ENOEXEC not an ELF relocatable
 * object, -ENOENT no .modinfo section or no vermagic.
 */
int pp_kelf_read(const char *path, struct pp_modinfo *mi, char *err,
		 size_t errlen);

/* The kernel release of a vermagic: its first word. */
void pp_vermagic_release(const char *vermagic, char *buf, size_t size);

#endif /* PP_KELF_H */
