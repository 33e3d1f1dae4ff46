/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bandwidth results: sample a loop that moves a known number of bytes
 * per operation and report MB/s.  MB is lmbench's: 10^6 bytes
 * (lib_timing.c: "bandwidths are all power of ten").
 */
#ifndef PP_BANDWIDTH_H
#define PP_BANDWIDTH_H

#include "harness.h"

#define PP_MB	1e6

/*
 * Report samples of ns per operation, each moving bytes_per_op, as MB/s
 * (the result keeps where the sampling ran).  0, or pp_fail()'s value.
 */
int pp_report_mbps(struct pp_ctx *ctx, const char *key, double bytes_per_op,
		   const struct pp_sampling *s);

/* Sample fn and report it: bytes per operation; to may be NULL. */
int pp_bandwidth_mb(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		    void *arg, double bytes, const struct pp_timing_opts *to);

#endif /* PP_BANDWIDTH_H */
