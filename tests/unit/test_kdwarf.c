// SPDX-License-Identifier: GPL-2.0
/*
 * kdwarf against a file whose DWARF is known: this test itself.  It
 * stands in for a vmlinux: its _stext is placed where the loader put it
 * (as KASLR moves the kernel's), and marks in functions inlined one into
 * another record their addresses and source lines in a section of their
 * own; each mark must come back with the functions inlined there,
 * outermost first, and its line.  Then the refusals: another build's
 * notes, a file that is not ELF, no file where one is looked for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kernel/kdwarf.h"

#define STR2(x)	#x
#define STR(x)	STR2(x)

struct mark {
	uint64_t addr, line;
};

/*
 * The address of the next instruction and its line, into pp_marks (the
 * linker's __start_/__stop_ symbols bound it); the store after it keeps
 * an instruction of the same scope there.
 */
#define MARK()								\
	asm volatile("1:\n\t.pushsection pp_marks, \"aw\"\n\t.balign 8\n"	\
		     "\t.quad 1b\n\t.quad " STR(__LINE__) "\n\t.popsection"); sink++

extern const struct mark __start_pp_marks[], __stop_pp_marks[];
static volatile int sink;

void _stext(void);
void outer(void);

/* The anchor, as the kernel's _stext. */
__attribute__((noinline)) void _stext(void)
{
	sink++;
}

static inline __attribute__((always_inline)) void inner_inl(void)
{
	MARK();		/* 0: outer <- middle_inl <- inner_inl */
}

static inline __attribute__((always_inline)) void middle_inl(void)
{
	inner_inl();
	MARK();		/* 1: outer <- middle_inl */
}

__attribute__((noinline)) void outer(void)
{
	middle_inl();
	MARK();		/* 2: outer alone */
}

static const char *const want[][2] = {
	{ "middle_inl" PP_KDWARF_INLINED, "inner_inl" PP_KDWARF_INLINED },
	{ "middle_inl" PP_KDWARF_INLINED, NULL },
	{ NULL, NULL },
};

static struct pp_kdwarf *open_self(void)
{
	struct pp_kdwarf *kd = NULL;
	char why[512];

	assert_int_equal(pp_kdwarf_open(&kd, "/proc/self/exe", "x", NULL,
					(uint64_t)(uintptr_t)_stext, why, sizeof(why)), 0);
	return kd;
}

static void test_inlined_and_lines(void **state)
{
	struct pp_kdwarf *kd = open_self();
	struct pp_kdwarf_loc loc;
	char line[32];
	size_t i, n = (size_t)(__stop_pp_marks - __start_pp_marks);

	(void)state;
	outer();
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++) {
		const struct mark *m = &__start_pp_marks[i];
		unsigned int want_n = !want[i][0] ? 0 : !want[i][1] ? 1 : 2, j;

		/* twice: the second from the cache */
		for (j = 0; j < 2; j++) {
			assert_true(pp_kdwarf_lookup(kd, m->addr, &loc));
			assert_int_equal(loc.ninline, want_n);
			if (want_n)
				assert_string_equal(loc.inlined[0], want[i][0]);
			if (want_n > 1)
				assert_string_equal(loc.inlined[1], want[i][1]);
			snprintf(line, sizeof(line), "test_kdwarf.c:%llu",
				 (unsigned long long)m->line);
			assert_true(strlen(loc.src) >= strlen(line));
			assert_string_equal(loc.src + strlen(loc.src) - strlen(line), line);
		}
	}
	/* no DWARF covers the first page */
	assert_false(pp_kdwarf_lookup(kd, 16, &loc));
	assert_string_equal(pp_kdwarf_path(kd), "/proc/self/exe");
	pp_kdwarf_close(kd);
}

/* This file's GNU build ID, from its notes. */
static size_t self_build_id(unsigned char *id, size_t size)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t len = 0;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	while (!len && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= size &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				memcpy(id, (char *)d->d_buf + doff, nh.n_descsz);
				len = nh.n_descsz;
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return len;
}

/* A notes file as /sys/kernel/notes: one GNU build ID note of id. */
static void write_notes(const char *path, const unsigned char *id, size_t n)
{
	uint32_t h[3] = { 4, (uint32_t)n, NT_GNU_BUILD_ID };
	FILE *f = fopen(path, "w");
	static const char zero[4];

	assert_non_null(f);
	fwrite(h, sizeof(h), 1, f);
	fwrite("GNU", 4, 1, f);
	fwrite(id, n, 1, f);
	fwrite(zero, (4 - n % 4) % 4, 1, f);
	fclose(f);
}

static void test_refusals(void **state)
{
	char dir[] = "/tmp/pp-kdwarf-XXXXXX", notes[64], bad[64], why[512];
	unsigned char id[64];
	size_t n = self_build_id(id, sizeof(id));
	uint64_t stext = (uint64_t)(uintptr_t)_stext;
	struct pp_kdwarf *kd = NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(notes, sizeof(notes), "%s/notes", dir);
	snprintf(bad, sizeof(bad), "%s/vmlinux-x", dir);
	/* the same build: used */
	assert_true(n > 0);
	write_notes(notes, id, n);
	assert_int_equal(pp_kdwarf_open(&kd, "/proc/self/exe", "x", notes, stext, why,
					sizeof(why)), 0);
	pp_kdwarf_close(kd);
	/* another build: refused, both IDs named */
	id[0] ^= 0xff;
	write_notes(notes, id, n);
	assert_int_equal(pp_kdwarf_open(&kd, "/proc/self/exe", "x", notes, stext, why,
					sizeof(why)), -ESRCH);
	assert_non_null(strstr(why, "is another kernel's (build ID"));
	/* not ELF */
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("not an ELF file\n", f);
	fclose(f);
	assert_int_equal(pp_kdwarf_open(&kd, bad, "x", NULL, stext, why, sizeof(why)), -ENODATA);
	assert_non_null(strstr(why, "not an ELF file libdwfl reads"));
	/* nothing where it looks: each place named */
	assert_int_equal(pp_kdwarf_open(&kd, NULL, "no-such-release", NULL, stext, why,
					sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "/usr/lib/debug/boot/vmlinux-no-such-release, "));
	assert_int_equal(pp_kdwarf_open(&kd, "/nonexistent/vmlinux", "x", NULL, stext, why,
					sizeof(why)), -ENOENT);
	unlink(notes);
	unlink(bad);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlined_and_lines),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests_name("kdwarf", tests, NULL, NULL);
}
