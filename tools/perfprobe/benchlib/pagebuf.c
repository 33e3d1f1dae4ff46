// SPDX-License-Identifier: GPL-2.0
/*
 * Anonymous buffers in one kind of page; see pagebuf.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "benchlib/pagebuf.h"

int pp_pagebuf_map(size_t want, bool base_pages, char **buf, size_t *len)
{
	char *p, *aligned;

	*len = want + PP_HUGE_ALIGN;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		*buf = NULL;
		return -errno;
	}
	/* Trim to a 2 MB aligned start; the tail stays mapped, unused. */
	aligned = (char *)(((uintptr_t)p + PP_HUGE_ALIGN - 1) & ~(PP_HUGE_ALIGN - 1));
	if (aligned != p)
		munmap(p, (size_t)(aligned - p));
	*len -= (size_t)(aligned - p);
	*buf = aligned;
#if defined(MADV_NOHUGEPAGE) && defined(MADV_HUGEPAGE)
	/* EINVAL where the kernel has no THP: base pages, as asked or not */
	madvise(aligned, *len, base_pages ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
	return 0;
}

long pp_pagebuf_huge_kb(const void *addr)
{
	unsigned long a = (unsigned long)addr, lo, hi;
	char line[512];
	bool in = false;
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/smaps", "re");
	if (!f)
		return -1;
	while (kb < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = lo <= a && a < hi;
		else if (in)
			sscanf(line, "AnonHugePages: %ld kB", &kb);
	}
	fclose(f);
	return kb;
}
