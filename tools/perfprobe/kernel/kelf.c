// SPDX-License-Identifier: GPL-2.0
/*
 * kelf: the .modinfo section of a kernel module, read with libelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kelf.h"
#include "util.h"

static void take(char *dst, size_t size, const char *val, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, val, len);
	dst[len] = '\0';
}

int pp_modinfo_parse(const char *data, size_t size, struct pp_modinfo *mi)
{
	size_t i = 0;

	memset(mi, 0, sizeof(*mi));
	while (i < size) {
		const char *s = data + i;
		const char *end = memchr(s, '\0', size - i);
		size_t len = end ? (size_t)(end - s) : size - i;

		if (len > 9 && !strncmp(s, "vermagic=", 9))
			take(mi->vermagic, sizeof(mi->vermagic), s + 9, len - 9);
		else if (len > 5 && !strncmp(s, "name=", 5))
			take(mi->name, sizeof(mi->name), s + 5, len - 5);
		else if (len > 8 && !strncmp(s, "version=", 8))
			take(mi->version, sizeof(mi->version), s + 8, len - 8);
		i += len + 1;
	}
	/* the kernel writes "... modversions " with a trailing blank */
	i = strlen(mi->vermagic);
	while (i > 0 && (mi->vermagic[i - 1] == ' ' || mi->vermagic[i - 1] == '\t'))
		mi->vermagic[--i] = '\0';
	return mi->vermagic[0] ? 0 : -ENOENT;
}

void pp_vermagic_release(const char *vermagic, char *buf, size_t size)
{
	size_t n = strcspn(vermagic, " \t");

	take(buf, size, vermagic, n);
}

static Elf_Scn *find_section(Elf *e, const char *want)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return NULL;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want))
			return sh.sh_type == SHT_NOBITS ? NULL : scn;
	}
	return NULL;
}

static int read_modinfo(Elf *e, const char *path, struct pp_modinfo *mi,
			char *err, size_t errlen)
{
	GElf_Ehdr eh;
	Elf_Scn *scn;
	Elf_Data *d;

	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || eh.e_type != ET_REL) {
		snprintf(err, errlen, "%s: not a kernel module (not an ELF relocatable object)",
			 path);
		return -ENOEXEC;
	}
	scn = find_section(e, ".modinfo");
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_buf) {
		snprintf(err, errlen, "%s: not a kernel module (no .modinfo section)", path);
		return -ENOENT;
	}
	if (pp_modinfo_parse(d->d_buf, d->d_size, mi)) {
		snprintf(err, errlen, "%s: not a kernel module (.modinfo has no vermagic)", path);
		return -ENOENT;
	}
	return 0;
}

int pp_kelf_read(const char *path, struct pp_modinfo *mi, char *err,
		 size_t errlen)
{
	Elf *e;
	int fd, ret;

	memset(mi, 0, sizeof(*mi));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "%s: libelf: %s", path, elf_errmsg(-1));
		return -EIO;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return ret;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e) {
		snprintf(err, errlen, "%s: not a kernel module: %s", path, elf_errmsg(-1));
		ret = -ENOEXEC;
		goto close_fd;
	}
	ret = read_modinfo(e, path, mi, err, errlen);
	elf_end(e);
close_fd:
	close(fd);
	return ret;
}
