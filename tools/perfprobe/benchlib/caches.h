/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine says about its caches and free memory: the sizes the
 * memory benchmarks scale their working sets by.
 */
#ifndef PP_CACHES_H
#define PP_CACHES_H

#include <stddef.h>

#define PP_CACHE_MAX_LEVELS	8

/* Data and unified caches by level, from sysfs or else from the C library. */
struct pp_caches {
	size_t size[PP_CACHE_MAX_LEVELS];	/* [1] = L1d, ...; 0 = unknown */
	unsigned int levels;			/* the last level known */
	const char *source;			/* "sysfs", "cpuid" or "none" */
};

void pp_caches_read(struct pp_caches *c);

/* The last-level cache in bytes (0 if unknown) and where that came from. */
size_t pp_llc_bytes(const char **source);

/* MemAvailable from /proc/meminfo, in bytes. */
size_t pp_mem_available(void);

#endif /* PP_CACHES_H */
