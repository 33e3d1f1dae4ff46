/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kside: the kernel's view of a system call loop, from perfprobe.ko
 * (struct pp_kside, source "kmod").  Documentation/kmod-tools.rst.
 */
#ifndef PP_KSIDE_H
#define PP_KSIDE_H

#include "harness.h"
#include "ktrace.h"
#include "ppnl.h"

/* pp_ktrace_compute() of perfprobe.ko's trace (-ENOMEM, -ENOENT). */
int pp_kside_compute(const struct ppnl_trace *t, const char *const *names,
		     struct pp_kside_calc *out);

/*
 * After key was reported by the harness: run fn again with this process
 * traced by perfprobe.ko and fill the result's kernel view.  Never fails
 * the benchmark: without the module it writes one note on stderr (once
 * per process) and changes nothing.
 */
void pp_kside_syscall(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		      void *arg, const char *const *names);

/*
 * The "Kernel view (perfprobe.ko)" table, if any result has one, through
 * the print layer (print.h) in text mode.
 */
void pp_kside_print(const struct pp_run *run);

#endif /* PP_KSIDE_H */
