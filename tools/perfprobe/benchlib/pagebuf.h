/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Anonymous buffers in one kind of page, not in whatever the allocator
 * and khugepaged happen to give: 2 MB aligned and asked for in
 * transparent huge pages, or kept in base pages.  lat_mem_rd's curves
 * (the TLB), storage's direct I/O (a request's segments are its pages).
 */
#ifndef PP_PAGEBUF_H
#define PP_PAGEBUF_H

#include <stdbool.h>
#include <stddef.h>

#define PP_HUGE_ALIGN	(2ul << 20)	/* a PMD's transparent huge page (4 KB base pages) */

/*
 * At least want bytes in *buf, 2 MB aligned, madvise()d for huge pages
 * (MADV_NOHUGEPAGE with base_pages); *len is what to munmap() from *buf
 * (or, on failure, the length that could not be mapped).  0 or -errno.
 */
int pp_pagebuf_map(size_t want, bool base_pages, char **buf, size_t *len);

/* kB of the mapping at addr in transparent huge pages (smaps), or -1. */
long pp_pagebuf_huge_kb(const void *addr);

#endif
