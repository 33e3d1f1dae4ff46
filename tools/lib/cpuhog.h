/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who else had the CPU: a snapshot of every process's CPU time
 * (/proc/PID/stat), and later the ones that used the most since, for a
 * result that stayed noisy ("cc1 (pid 4242) 0.8 s").
 */
#ifndef PP_CPUHOG_H
#define PP_CPUHOG_H

#include <stddef.h>

struct pp_hogs;

/* NULL when /proc cannot be read (or out of memory). */
struct pp_hogs *pp_hogs_snap(void);
/*
 * The three processes, perfprobe's own left out, that used the most CPU
 * since snap, into buf ("" when none used any); frees snap (only that,
 * when buf is NULL).
 */
void pp_hogs_since(struct pp_hogs *snap, char *buf, size_t size);

#endif /* PP_CPUHOG_H */
