/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe: what differs between the kernels the module builds for
 * (Documentation/kmod-tools.rst, "Kernel versions").  Every difference
 * the module's code sees lives here.
 */
#ifndef PERFPROBE_COMPAT_H
#define PERFPROBE_COMPAT_H

/*
 * Not version numbers: features found in the headers of the kernel built
 * for (kmod/Kbuild defines PP_HAVE_*), so a distribution kernel with a
 * backport builds too.
 */

/* 6.2 split the genl ops: pre_doit gets the split form (genl_split_ops). */
#ifdef PP_HAVE_GENL_SPLIT_OPS
#define PP_GENL_PRE_OPS		genl_split_ops
#else
#define PP_GENL_PRE_OPS		genl_ops
#endif

#endif /* PERFPROBE_COMPAT_H */
