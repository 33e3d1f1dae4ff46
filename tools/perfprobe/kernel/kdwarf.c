// SPDX-License-Identifier: GPL-2.0
/*
 * kdwarf: a vmlinux's DWARF through libdwfl, reported offline at its link
 * addresses; a kernel address is moved back by the KASLR offset, then
 * dwarf_getscopes() gives the inlined subroutines it is in (innermost
 * first) and the line table its line.  Lookups are cached by address: a
 * profile asks for the same few hundred addresses again and again.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kdwarf.h"
#include "util.h"

#define KDWARF_CACHE	1024
#define BUILD_ID_MAX	64

const char *const pp_kdwarf_paths[] = {
	"/usr/lib/debug/boot/vmlinux-%s",		/* Debian, Ubuntu */
	"/usr/lib/debug/lib/modules/%s/vmlinux",	/* Fedora, RHEL */
	"/lib/modules/%s/build/vmlinux",		/* a kernel built here */
	"/boot/vmlinux-%s",
	NULL,
};

struct kdwarf_slot {
	uint64_t addr;
	bool used, found;
	struct pp_kdwarf_loc loc;
};

struct pp_kdwarf {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int64_t slide;		/* running address - link address */
	char path[256];
	struct kdwarf_slot *cache;
};

/* Local files only, as usyms: a benchmark never waits for debuginfod. */
static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* The GNU build ID in the ELF notes of file notes, into id: its length, or 0. */
static size_t notes_build_id(const char *notes, unsigned char *id, size_t size)
{
	unsigned char buf[4096];
	size_t off = 0, n;
	int fd = open(notes, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return 0;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got <= 0)
		return 0;
	n = (size_t)got;
	while (off + 12 <= n) {
		uint32_t h[3];
		size_t name, desc;

		memcpy(h, buf + off, sizeof(h));
		name = (h[0] + 3u) & ~3u;
		desc = (h[1] + 3u) & ~3u;
		if (name > n || desc > n || off + 12 + name + desc > n)
			return 0;
		if (h[2] == 3 && h[0] == 4 && !memcmp(buf + off + 12, "GNU", 4)) {
			if (h[1] > size)
				return 0;
			memcpy(id, buf + off + 12 + name, h[1]);
			return h[1];
		}
		off += 12 + name + desc;
	}
	return 0;
}

static void hex(const unsigned char *b, size_t n, char *out, size_t size)
{
	size_t i;

	out[0] = 0;
	for (i = 0; i < n && 2 * i + 3 <= size; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The link address of symbol name in m, or 0. */
static uint64_t sym_addr(Dwfl_Module *m, const char *name)
{
	int i, n = dwfl_module_getsymtab(m);

	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s = dwfl_module_getsym_info(m, i, &sym, &addr, NULL, NULL, NULL);

		if (s && !strcmp(s, name))
			return addr;
	}
	return 0;
}

/* Is m's build ID the one in notes?  Else say why. */
static int same_kernel(Dwfl_Module *m, const char *notes, char *why, size_t len)
{
	unsigned char run[BUILD_ID_MAX];
	const unsigned char *file;
	char a[2 * BUILD_ID_MAX + 1], b[2 * BUILD_ID_MAX + 1];
	GElf_Addr vaddr;
	size_t nrun = notes_build_id(notes, run, sizeof(run));
	int nfile = dwfl_module_build_id(m, &file, &vaddr);

	if (!nrun) {
		snprintf(why, len, "%s: no build ID to check the file against", notes);
		return -ESRCH;
	}
	if (nfile <= 0) {
		snprintf(why, len, "has no build ID to check against the running kernel's");
		return -ESRCH;
	}
	if ((size_t)nfile == nrun && !memcmp(file, run, nrun))
		return 0;
	hex(file, (size_t)nfile, a, sizeof(a));
	hex(run, nrun, b, sizeof(b));
	snprintf(why, len, "is another kernel's (build ID %.16s..., the running kernel's %.16s...)",
		 a, b);
	return -ESRCH;
}

static int open_file(struct pp_kdwarf *kd, const char *path, const char *notes,
		     uint64_t stext, char *why, size_t len)
{
	char sub[192];
	uint64_t link;
	Dwarf_Addr bias;
	int err;

	pp_strlcpy(kd->path, path, sizeof(kd->path));
	kd->dwfl = dwfl_begin(&callbacks);
	if (!kd->dwfl) {
		snprintf(why, len, "%s: libdwfl: %s", path, dwfl_errmsg(-1));
		return -ENOMEM;
	}
	kd->mod = dwfl_report_offline(kd->dwfl, "kernel", path, -1);
	if (!kd->mod || dwfl_report_end(kd->dwfl, NULL, NULL)) {
		snprintf(why, len, "%s: not an ELF file libdwfl reads: %s", path, dwfl_errmsg(-1));
		return -ENODATA;
	}
	if (notes) {
		err = same_kernel(kd->mod, notes, sub, sizeof(sub));
		if (err) {
			snprintf(why, len, "%s %s", path, sub);
			return err;
		}
	}
	if (!dwfl_module_getdwarf(kd->mod, &bias)) {
		snprintf(why, len, "%s: no DWARF in it (a stripped vmlinux)", path);
		return -ENODATA;
	}
	link = sym_addr(kd->mod, "_stext");
	if (!link || !stext) {
		snprintf(why, len, "%s: no _stext %s", path,
			 link ? "in kallsyms to place it" : "symbol in it");
		return -ENODATA;
	}
	kd->slide = (int64_t)(stext - link);
	return 0;
}

int pp_kdwarf_open(struct pp_kdwarf **out, const char *path, const char *release,
		   const char *notes, uint64_t stext, char *why, size_t len)
{
	struct pp_kdwarf *kd = calloc(1, sizeof(*kd));
	char buf[256], tried[512] = "";
	size_t i;
	int err;

	if (!kd) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; !path && pp_kdwarf_paths[i]; i++) {
		snprintf(buf, sizeof(buf), pp_kdwarf_paths[i], release);
		if (!access(buf, R_OK))
			path = buf;
		else
			snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s",
				 i ? ", " : "", buf);
	}
	if (!path) {
		snprintf(why, len, "no vmlinux with debug info (looked for %s)", tried);
		free(kd);
		return -ENOENT;
	}
	if (access(path, R_OK)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		free(kd);
		return -ENOENT;
	}
	err = open_file(kd, path, notes, stext, why, len);
	if (!err) {
		kd->cache = calloc(KDWARF_CACHE, sizeof(*kd->cache));
		err = kd->cache ? 0 : -ENOMEM;
		if (err)
			snprintf(why, len, "out of memory");
	}
	if (err) {
		pp_kdwarf_close(kd);
		return err;
	}
	*out = kd;
	return 0;
}

int pp_kdwarf_open_running(struct pp_kdwarf **out, const char *path, uint64_t stext,
			   char *why, size_t len)
{
	struct utsname u;

	if (uname(&u)) {
		snprintf(why, len, "uname: %s", strerror(errno));
		return -errno;
	}
	return pp_kdwarf_open(out, path, u.release, "/sys/kernel/notes", stext, why, len);
}

const char *pp_kdwarf_path(const struct pp_kdwarf *kd)
{
	return kd->path;
}

/* The kernel tree's top directories (its relative paths start with one). */
static const char *const top_dirs[] = {
	"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init", "io_uring",
	"ipc", "kernel", "lib", "mm", "net", "rust", "samples", "security", "sound", "virt",
	NULL,
};

/*
 * An absolute path the compilation directory did not cover (assembler
 * files: their directory is the build's, their names the source's) from
 * its first component that is one of the tree's top directories on.
 */
static const char *in_tree(const char *file)
{
	const char *p;
	size_t i, n;

	for (p = file; *file == '/' && (p = strchr(p, '/')); p++) {
		for (i = 0; top_dirs[i]; i++) {
			n = strlen(top_dirs[i]);
			if (!strncmp(p + 1, top_dirs[i], n) && p[1 + n] == '/')
				return p + 1;
		}
	}
	return file;
}

/* file:line, the file relative to the kernel tree. */
static void src_of(Dwfl_Module *m, Dwarf_Addr a, char *out, size_t size)
{
	Dwfl_Line *l = dwfl_module_getsrc(m, a);
	const char *file, *dir;
	size_t dl;
	int line = 0;

	out[0] = 0;
	file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (!file || line <= 0)
		return;
	dir = dwfl_line_comp_dir(l);
	dl = dir ? strlen(dir) : 0;
	if (dl && !strncmp(file, dir, dl) && file[dl] == '/')
		file += dl + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	file = in_tree(file);
	snprintf(out, size, "%s:%d", file, line);
}

/*
 * dwarf_getscopes() gives the innermost scope at a, then continues in
 * the abstract definition of the function inlined there; the concrete
 * chain, through every inlined instance up to the function the compiler
 * emitted, is dwarf_getscopes_die() of that innermost scope (as
 * eu-addr2line -i does it).
 */
static bool lookup(struct pp_kdwarf *kd, uint64_t addr, struct pp_kdwarf_loc *loc)
{
	Dwarf_Addr a = (Dwarf_Addr)((int64_t)addr - kd->slide), bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(kd->mod, a, &bias), *scopes = NULL;
	Dwarf_Die inner;
	unsigned int k = 0;
	int i, n;

	memset(loc, 0, sizeof(*loc));
	if (!cu)
		return false;
	n = dwarf_getscopes(cu, a - bias, &scopes);
	if (n > 0) {
		inner = scopes[0];
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	/* scopes[] is innermost first; keep the innermost PP_KDWARF_INLINE */
	for (i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			k++;
	loc->ninline = k < PP_KDWARF_INLINE ? k : PP_KDWARF_INLINE;
	for (i = 0, k = 0; i < n && k < loc->ninline; i++) {
		const char *name;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[i]);
		k++;
		snprintf(loc->inlined[loc->ninline - k], PP_KDWARF_NAME, "%s%s",
			 name ? name : "[unnamed]", PP_KDWARF_INLINED);
	}
	free(scopes);
	src_of(kd->mod, a, loc->src, sizeof(loc->src));
	return true;
}

bool pp_kdwarf_lookup(struct pp_kdwarf *kd, uint64_t addr, struct pp_kdwarf_loc *loc)
{
	struct kdwarf_slot *s = &kd->cache[(addr ^ (addr >> 13)) % KDWARF_CACHE];

	if (!s->used || s->addr != addr) {
		s->found = lookup(kd, addr, &s->loc);
		s->addr = addr;
		s->used = true;
	}
	if (s->found)
		*loc = s->loc;
	return s->found;
}

void pp_kdwarf_close(struct pp_kdwarf *kd)
{
	if (!kd)
		return;
	if (kd->dwfl)
		dwfl_end(kd->dwfl);
	free(kd->cache);
	free(kd);
}
