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

/*
 * What says whether an emulator runs this machine (struct pp_emul), each
 * NULL where it is not available: the statements of whoever started it
 * (the environment wins over the kernel command line) and what the
 * machine shows (DMI's system vendor; on x86 the CPUID hypervisor bit and
 * the hypervisor's signature at leaf 0x40000000).
 */
struct pp_emul_in {
	const char *env_accel;		/* $PERFPROBE_ACCEL */
	const char *env_clock;		/* $PERFPROBE_CLOCK */
	const char *cmdline;		/* /proc/cmdline */
	const char *dmi_vendor;		/* /sys/class/dmi/id/sys_vendor */
	int hv_bit;			/* CPUID.1:ECX[31]; -1: not x86 */
	const char *hv_sig;		/* its 12 bytes; "" when none */
};

/* A statement wins over what is detected; both are kept in words. */
void pp_emul_decide(struct pp_emul *e, const struct pp_emul_in *in);

/* The inputs from this machine (files under root, "" for this system). */
void pp_emul_detect(struct pp_emul *e, const char *root);

/* An emulated CPU's "MHz" is how fast the host emulates: not trusted. */
void pp_mhz_emulated(struct pp_mhz *mhz, const struct pp_emul *e);

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
