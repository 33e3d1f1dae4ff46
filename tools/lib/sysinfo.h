/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_SYSINFO_H
#define PP_SYSINFO_H

#include "results.h"

/* Fill what describes this machine and this run (not the options). */
void pp_sysinfo_collect(struct pp_meta *m, int argc, char **argv);

/*
 * Processor clock from a chain of dependent adds (one cycle each on every
 * CPU we know), cross-checked with what the system reports.
 */
void pp_mhz_measure(struct pp_mhz *mhz, bool quick);

/* Decide whether a measured clock agrees well enough with the system's. */
void pp_mhz_judge(struct pp_mhz *mhz, double cv_pct);

#endif /* PP_SYSINFO_H */
