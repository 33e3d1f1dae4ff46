/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PP_SYSINFO_H
#define PP_SYSINFO_H

#include "results.h"

/* Fill what describes this machine and this run (not the options). */
void pp_sysinfo_collect(struct pp_meta *m, int argc, char **argv);

/*
 * The facts that decide whether runs are comparable beyond the machine:
 * cpufreq governor, CPU vulnerability mitigations, kernel command line,
 * transparent hugepage settings.  Every path is prefixed with root (""
 * for this system, a directory that mimics /sys and /proc in tests); a
 * read that fails leaves its field empty.
 */
void pp_sysinfo_facts(struct pp_meta *m, const char *root);

/* "always [madvise] never" -> "madvise"; false if no word is selected. */
bool pp_thp_selected(const char *line, char *buf, size_t size);

/*
 * The governors of CPUs cpus[0..n) (ascending; gov[i] "" when CPU cpus[i]
 * has none) in one string: the name when all agree, otherwise each with
 * its CPUs, "performance: 0-1,4; powersave: 2-3".  False if none has one.
 */
bool pp_governor_summary(const int *cpus, const char *const *gov, size_t n,
			 char *buf, size_t size);

/*
 * Processor clock from a chain of dependent adds (one cycle each on every
 * CPU we know), cross-checked with what the system reports.
 */
void pp_mhz_measure(struct pp_mhz *mhz, bool quick);

/* Decide whether a measured clock agrees well enough with the system's. */
void pp_mhz_judge(struct pp_mhz *mhz, double cv_pct);

#endif /* PP_SYSINFO_H */
