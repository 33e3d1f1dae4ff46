// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "stats.h"
#include "sysinfo.h"
#include "util.h"

#ifndef PP_VERSION
#define PP_VERSION "0.0-dev"
#endif

/* Measured and reported clocks must agree this well to be trusted. */
#define MHZ_AGREE_PCT	10.0
#define MHZ_MAX_CV_PCT	2.0

static void cpuinfo_field(const char *field, char *buf, size_t size)
{
	char line[512];
	size_t flen = strlen(field);
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, field, flen) || !colon)
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		pp_strlcpy(buf, colon, size);
		break;
	}
	fclose(f);
}

static uint64_t meminfo_total(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

void pp_sysinfo_collect(struct pp_meta *m, int argc, char **argv)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	size_t off = 0;
	int i;

	pp_strlcpy(m->version, PP_VERSION, sizeof(m->version));
	gmtime_r(&now, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (gethostname(m->hostname, sizeof(m->hostname)))
		pp_strlcpy(m->hostname, "unknown", sizeof(m->hostname));
	m->hostname[sizeof(m->hostname) - 1] = '\0';
	if (!uname(&u)) {
		pp_strlcpy(m->sysname, u.sysname, sizeof(m->sysname));
		pp_strlcpy(m->release, u.release, sizeof(m->release));
		pp_strlcpy(m->kversion, u.version, sizeof(m->kversion));
		pp_strlcpy(m->machine, u.machine, sizeof(m->machine));
	}
	cpuinfo_field("model name", m->cpu_model, sizeof(m->cpu_model));
	if (!m->cpu_model[0])	/* arm64 has no model name */
		cpuinfo_field("CPU part", m->cpu_model, sizeof(m->cpu_model));
	m->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->mem_bytes = meminfo_total();
#ifdef __clang__
	snprintf(m->compiler, sizeof(m->compiler), "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(m->compiler, sizeof(m->compiler), "gcc %s", __VERSION__);
#endif
	m->cmdline[0] = '\0';
	for (i = 0; i < argc && off + 2 < sizeof(m->cmdline); i++) {
		int n = snprintf(m->cmdline + off, sizeof(m->cmdline) - off, "%s%s",
				 i ? " " : "", argv[i]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

#define CHAIN_ADDS	64

static __noinline uint64_t add_chain(uint64_t loops)
{
	uint64_t x = 0;

	while (loops-- > 0) {
#if defined(__x86_64__) || defined(__i386__)
#define ADD8 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t" \
	     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		__asm__ __volatile__(ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 : "+r"(x));
#elif defined(__aarch64__)
#define ADD8 "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t" \
	     "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t" \
	     "add %0, %0, #1\n\tadd %0, %0, #1\n\t"
		__asm__ __volatile__(ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 : "+r"(x));
#else
		x += loops;
#endif
	}
	return x;
}

static double system_mhz(void)
{
	char buf[64];
	double v;

	/* cpufreq's maximum is the best reference; cpuinfo is nominal. */
	if (!pp_read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
			  buf, sizeof(buf)) && (v = atof(buf)) > 0)
		return v / 1000.0;
	cpuinfo_field("cpu MHz", buf, sizeof(buf));
	return buf[0] ? atof(buf) : 0;
}

void pp_mhz_judge(struct pp_mhz *mhz, double cv_pct)
{
	double diff;

	mhz->trusted = false;
	if (mhz->mhz <= 0) {
		snprintf(mhz->note, sizeof(mhz->note), "not measured on this architecture");
		return;
	}
	if (cv_pct > MHZ_MAX_CV_PCT) {
		snprintf(mhz->note, sizeof(mhz->note),
			 "measurement unstable (best passes differ by %.1f%% > %.0f%%): frequency scaling or load",
			 cv_pct, MHZ_MAX_CV_PCT);
		return;
	}
	if (mhz->system_mhz <= 0) {
		mhz->trusted = true;
		snprintf(mhz->note, sizeof(mhz->note),
			 "stable (best passes within %.1f%%); the system reports no frequency", cv_pct);
		return;
	}
	diff = (mhz->mhz - mhz->system_mhz) / mhz->system_mhz * 100.0;
	if (diff < -MHZ_AGREE_PCT) {
		snprintf(mhz->note, sizeof(mhz->note),
			 "measured %.0f MHz but the system reports %.0f MHz (%+.0f%%): throttled, shared or busy CPU",
			 mhz->mhz, mhz->system_mhz, diff);
		return;
	}
	if (diff > MHZ_AGREE_PCT) {
		/*
		 * A dependent add cannot take less than one cycle, so a
		 * stable chain that runs faster than the nominal clock is
		 * running at a boost clock (the nominal one is what a
		 * virtual CPU's /proc/cpuinfo shows).
		 */
		mhz->trusted = true;
		snprintf(mhz->note, sizeof(mhz->note),
			 "stable (best passes within %.1f%%), %+.0f%% above the system's nominal %.0f MHz: boost clock",
			 cv_pct, diff, mhz->system_mhz);
		return;
	}
	mhz->trusted = true;
	snprintf(mhz->note, sizeof(mhz->note),
		 "stable (best passes within %.1f%%), within %.1f%% of the system's %.0f MHz",
		 cv_pct, fabs(diff), mhz->system_mhz);
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

void pp_mhz_measure(struct pp_mhz *mhz, bool quick)
{
	double v[21];
	uint64_t loops = quick ? 20000 : 50000;
	unsigned int i;

	memset(mhz, 0, sizeof(*mhz));
	mhz->system_mhz = system_mhz();
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
	snprintf(mhz->method, sizeof(mhz->method),
		 "dependent add chain (%d adds x %llu loops), best of %zu",
		 CHAIN_ADDS, (unsigned long long)loops, ARRAY_SIZE(v));
	add_chain(loops * 4);	/* let the clock ramp up */
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		uint64_t t0 = pp_now_ns();

		add_chain(loops);
		v[i] = (double)(loops * CHAIN_ADDS) * 1e3 / (double)(pp_now_ns() - t0);
	}
	/*
	 * Preemption, steal time and interrupts only ever make a pass look
	 * slower: the fastest passes are the clock.  Trust it when the three
	 * fastest agree; their spread stands in for the CV.
	 */
	qsort(v, ARRAY_SIZE(v), sizeof(v[0]), cmp_desc);
	mhz->mhz = v[0];
	pp_mhz_judge(mhz, (v[0] - v[2]) / v[0] * 100.0);
#else
	snprintf(mhz->method, sizeof(mhz->method), "none for this architecture");
	pp_mhz_judge(mhz, 0);
#endif
}
