/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kview: the kernel view of every benchmark, from whichever backend is
 * here (perfprobe.ko through ppnl, or BPF through kbpf), into each
 * result's struct pp_kside.  Documentation/kernel-view.rst.
 */
#ifndef PP_KVIEW_H_TOOLS
#define PP_KVIEW_H_TOOLS

#include "harness.h"

enum pp_kv_mode {
	PP_KV_AUTO,		/* the module if loaded, else BPF, else off */
	PP_KV_KMOD,
	PP_KV_BPF,
	PP_KV_OFF,
};

/* "auto", "kmod", "bpf", "off": 0, or -EINVAL. */
int pp_kview_mode_parse(const char *s, enum pp_kv_mode *mode);

/*
 * Choose the backend and hook it into ctx (ctx->kview).  auto without a
 * backend writes one note on stderr saying how to enable one, and
 * returns 0; kmod or bpf asked for and not usable: one error line and
 * -1.  The backend stays until the process exits.
 */
int pp_kview_setup(struct pp_ctx *ctx, enum pp_kv_mode mode);

/*
 * The "Kernel view" block of a run, if any result has one, through the
 * print layer (print.h) in text mode.
 */
void pp_kview_print(const struct pp_run *run);

#endif /* PP_KVIEW_H_TOOLS */
