/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that talk to perfprobe.ko: kmod, copy, timer, trace.
 * Documentation/kmod-tools.rst.
 */
#ifndef PP_KMODCMD_H
#define PP_KMODCMD_H

#include "commands.h"
#include "ppnl.h"

/* --- shared by the commands (kmod.c) --- */

/*
 * Connect to perfprobe.ko.  Returns 0, or the exit code after one line
 * on stderr: PP_EXIT_SKIP when the module is not loaded, PP_EXIT_FAIL
 * otherwise.
 */
int pp_kmod_open(struct ppnl *s, struct ppnl_info *info, const char *what);

/*
 * Statistics through the print layer (print.h), in the open JSON object:
 * count, sum, min, mean and max in ns and the log2 histogram.  Text: only
 * the histogram, one bar per non-empty bucket under indent, and only when
 * indent is not NULL.
 */
void pp_stats_print(const struct ppnl_stats *st, const char *indent);

/* timer options, checked (unit tests). */
int pp_timer_check(uint64_t period_ns, uint64_t count);

/* copy --dir / --sizes / --align lists (unit tests). */
#define PP_COPY_MAX_SIZES	64
#define PP_COPY_MAX_ALIGNS	16
#define PP_COPY_DIR_IN		(1U << PERFPROBE_COPY_FROM_USER)
#define PP_COPY_DIR_OUT		(1U << PERFPROBE_COPY_TO_USER)
#define PP_COPY_DIR_CLEAR	(1U << PERFPROBE_COPY_CLEAR_USER)

int pp_copy_parse_dir(const char *s, unsigned int *dirs);
int pp_copy_parse_list(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out, unsigned int maxn, unsigned int *n);
/* "4k", "64m", "4095": the size part of a result key. */
void pp_copy_size_name(uint64_t size, char *buf, size_t len);

#endif /* PP_KMODCMD_H */
