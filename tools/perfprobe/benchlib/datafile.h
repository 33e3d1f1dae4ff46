/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data files for the file and VM benchmarks: a file of a given size,
 * fully written (no holes) and synced, in a temporary directory of the
 * run, the way lmbench's script writes $FILE with lmdd before it runs
 * lat_mmap, lat_pagefault, bw_file_rd and bw_mmap_rd on it.
 */
#ifndef PP_DATAFILE_H
#define PP_DATAFILE_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

/*
 * Create <tmpdir>/<name> of size bytes; its path goes to path.
 * Returns 0 or a negative errno.
 */
int pp_data_file(struct pp_ctx *ctx, const char *name, uint64_t size,
		 char *path, size_t len);

/*
 * The sizes the file benchmarks walk, in MB: 1, 2, 4, ..., 64 (--full:
 * 256; --quick: 1 and 8).  Fills mb[] (at most max entries) and returns
 * how many; the last is the largest.
 */
unsigned int pp_file_sizes_mb(const struct pp_ctx *ctx, unsigned int *mb,
			      unsigned int max);

#endif /* PP_DATAFILE_H */
