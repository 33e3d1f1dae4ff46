// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
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

/* --- comparability facts --- */

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_THP		"/sys/kernel/mm/transparent_hugepage"
#define MAX_CPUS	8192
#define GOV_LEN		32

/* The first line of <root><rel> into buf; buf is untouched on failure. */
static int read_fact(const char *root, const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX], line[4096];
	int n = snprintf(path, sizeof(path), "%s%s", root, rel);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	n = pp_read_line(path, line, sizeof(line));
	if (n)
		return n;
	pp_strlcpy(buf, line, size);
	return 0;
}

bool pp_thp_selected(const char *line, char *buf, size_t size)
{
	const char *open = strchr(line, '['), *close;

	if (!open)
		return false;
	close = strchr(++open, ']');
	if (!close || close == open || (size_t)(close - open) >= size)
		return false;
	memcpy(buf, open, (size_t)(close - open));
	buf[close - open] = '\0';
	return true;
}

/* A string appended to: buf[off..size) is the room left. */
struct sbuf {
	char *buf;
	size_t size, off;
};

/* Appends to sb, silently truncating. */
static void __printf(2, 3) append(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->off >= sb->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->off, sb->size - sb->off, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->off = sb->off + (size_t)n < sb->size ? sb->off + (size_t)n : sb->size;
}

/* The CPUs whose governor is which, as ranges: "0-1,4". */
static void append_cpus(struct sbuf *sb, const int *cpus, const char *const *gov, size_t n,
			const char *which)
{
	size_t i = 0, j;
	bool first = true;

	while (i < n) {
		if (strcmp(gov[i], which)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < n && !strcmp(gov[j + 1], which) &&
		     cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			append(sb, "%s%d", first ? "" : ",", cpus[i]);
		else
			append(sb, "%s%d-%d", first ? "" : ",", cpus[i], cpus[j]);
		first = false;
		i = j + 1;
	}
}

bool pp_governor_summary(const int *cpus, const char *const *gov, size_t n,
			 char *buf, size_t size)
{
	struct sbuf sb = { buf, size, 0 };
	const char *one = NULL;
	bool mixed = false;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!gov[i][0])
			continue;
		if (one && strcmp(one, gov[i]))
			mixed = true;
		if (!one)
			one = gov[i];
	}
	if (!one)
		return false;
	buf[0] = '\0';
	if (!mixed) {
		pp_strlcpy(buf, one, size);
		return true;
	}
	/* each governor once, in the order of its first CPU */
	for (i = 0; i < n; i++) {
		if (!gov[i][0])
			continue;
		for (j = 0; j < i && strcmp(gov[j], gov[i]); j++)
			;
		if (j < i)
			continue;
		append(&sb, "%s%s: ", sb.off ? "; " : "", gov[i]);
		append_cpus(&sb, cpus, gov, n, gov[i]);
	}
	return true;
}

/* "0-3,5" -> 0 1 2 3 5; the count, or -1 on anything else. */
static int parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (; a <= b; a++) {
			if (n == max)
				return -1;
			cpus[n++] = (int)a;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return n;
}

static void read_governors(struct pp_meta *m, const char *root)
{
	char list[4096], rel[96];
	const char **gov = NULL;
	char (*names)[GOV_LEN] = NULL;
	int *cpus = malloc(MAX_CPUS * sizeof(*cpus));
	int i, n;

	if (!cpus || read_fact(root, SYS_CPU "/online", list, sizeof(list)) ||
	    (n = parse_cpulist(list, cpus, MAX_CPUS)) <= 0)
		goto out;
	names = calloc((size_t)n, sizeof(*names));
	gov = calloc((size_t)n, sizeof(*gov));
	if (!names || !gov)
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), SYS_CPU "/cpu%d/cpufreq/scaling_governor", cpus[i]);
		read_fact(root, rel, names[i], sizeof(names[i]));
		gov[i] = names[i];
	}
	pp_governor_summary(cpus, gov, (size_t)n, m->governor, sizeof(m->governor));
out:
	free(gov);
	free(names);
	free(cpus);
}

static void read_mitigations(struct pp_meta *m, const char *root)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct pp_mitig *mi;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s" SYS_CPU "/vulnerabilities", root);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) && m->nmitig < PP_MITIG_MAX) {
		if (e->d_name[0] == '.')
			continue;
		mi = &m->mitig[m->nmitig];
		snprintf(rel, sizeof(rel), SYS_CPU "/vulnerabilities/%s", e->d_name);
		if (!pp_strlcpy(mi->name, e->d_name, sizeof(mi->name)) ||
		    read_fact(root, rel, mi->text, sizeof(mi->text)) || !mi->text[0])
			continue;
		m->nmitig++;
	}
	closedir(d);
	pp_mitig_sort(m);
}

void pp_sysinfo_facts(struct pp_meta *m, const char *root)
{
	char line[256];

	m->governor[0] = m->kcmdline[0] = '\0';
	m->thp_enabled[0] = m->thp_defrag[0] = '\0';
	m->nmitig = 0;
	read_governors(m, root);
	read_mitigations(m, root);
	read_fact(root, "/proc/cmdline", m->kcmdline, sizeof(m->kcmdline));
	if (!read_fact(root, SYS_THP "/enabled", line, sizeof(line)))
		pp_thp_selected(line, m->thp_enabled, sizeof(m->thp_enabled));
	if (!read_fact(root, SYS_THP "/defrag", line, sizeof(line)))
		pp_thp_selected(line, m->thp_defrag, sizeof(m->thp_defrag));
}

/* --- emulation --- */

#define DMI_VENDOR	"/sys/class/dmi/id/sys_vendor"

/* What each accelerator is; anything else stated is recorded, untold. */
static const struct {
	const char *name;
	bool emulated;
} accels[] = {
	{ "tcg", true }, { "kvm", false }, { "hvf", false }, { "whpx", false },
	{ "nvmm", false }, { "xen", false }, { "hyperv", false },
	{ "vmware", false }, { "none", false },
};

/* CPUID 0x40000000 signatures: the hypervisor, and whether it emulates. */
static const struct {
	const char *sig, *accel;
	bool emulated;
} hv_sigs[] = {
	{ "KVMKVMKVM", "kvm", false }, { "TCGTCGTCGTCG", "tcg", true },
	{ "Microsoft Hv", "hyperv", false }, { "VMwareVMware", "vmware", false },
	{ "XenVMMXenVMM", "xen", false }, { "VBoxVBoxVBox", "virtualbox", false },
	{ "bhyve bhyve ", "bhyve", false }, { "ACRNACRNACRN", "acrn", false },
};

/* The value of word NAME= in a command line into buf; false if absent. */
static bool cmdline_value(const char *cmdline, const char *name, char *buf,
			  size_t size)
{
	size_t len = strlen(name);
	const char *p = cmdline;

	while (p && *p) {
		p += strspn(p, " \t\n");
		if (!strncmp(p, name, len) && p[len] == '=') {
			p += len + 1;
			len = strcspn(p, " \t\n");
			if (len >= size)
				len = size - 1;
			memcpy(buf, p, len);
			buf[len] = '\0';
			return true;
		}
		p += strcspn(p, " \t\n");
	}
	return false;
}

/* What the machine shows, into e->detected, e->accel and e->emulated. */
static void emul_detected(struct pp_emul *e, const struct pp_emul_in *in)
{
	bool qemu = in->dmi_vendor && !strcmp(in->dmi_vendor, "QEMU");
	size_t i;

	e->emulated = -1;
	e->accel[0] = '\0';
	if (in->hv_bit < 0) {
		snprintf(e->detected, sizeof(e->detected),
			 "no CPUID on this architecture%s: cannot tell an emulator from hardware",
			 qemu ? " (DMI: a QEMU machine)" : "");
		return;
	}
	if (!in->hv_bit) {
		if (qemu) {
			/* TCG with -cpu ...,-hypervisor, or KVM hidden so */
			e->emulated = 1;
			pp_strlcpy(e->accel, "tcg", sizeof(e->accel));
			snprintf(e->detected, sizeof(e->detected),
				 "DMI: a QEMU machine, and no CPUID hypervisor bit: TCG (or a hidden KVM)");
			return;
		}
		e->emulated = 0;
		pp_strlcpy(e->accel, "none", sizeof(e->accel));
		snprintf(e->detected, sizeof(e->detected),
			 "no CPUID hypervisor bit: the hardware itself");
		return;
	}
	for (i = 0; in->hv_sig && in->hv_sig[0] && i < ARRAY_SIZE(hv_sigs); i++) {
		if (strcmp(in->hv_sig, hv_sigs[i].sig))
			continue;
		e->emulated = hv_sigs[i].emulated;
		pp_strlcpy(e->accel, hv_sigs[i].accel, sizeof(e->accel));
		snprintf(e->detected, sizeof(e->detected),
			 "CPUID hypervisor signature '%s': %s", in->hv_sig,
			 hv_sigs[i].emulated ? "an emulator" : "hardware virtualisation");
		return;
	}
	if (in->hv_sig && in->hv_sig[0]) {
		snprintf(e->detected, sizeof(e->detected),
			 "CPUID hypervisor signature '%s': an unknown hypervisor", in->hv_sig);
		return;
	}
	if (qemu) {
		/* KVM always signs CPUID 0x40000000 unless told kvm=off */
		e->emulated = 1;
		pp_strlcpy(e->accel, "tcg", sizeof(e->accel));
		snprintf(e->detected, sizeof(e->detected),
			 "DMI: a QEMU machine; CPUID hypervisor bit, no hypervisor signature: TCG");
		return;
	}
	snprintf(e->detected, sizeof(e->detected),
		 "CPUID hypervisor bit without a hypervisor signature");
}

/* Who can state a fact of the machine: $env (its value), else arg= on the kernel command line. */
struct statement {
	const char *value, *env, *arg;
};

/*
 * What st states, into buf; where it came from appended to e->stated
 * ("PERFPROBE_ACCEL=tcg (environment)").  False: nobody stated it.
 */
static bool stated(const struct pp_emul_in *in, const struct statement *st, char *buf,
		   size_t size, struct pp_emul *e)
{
	size_t off = strlen(e->stated), wsize = sizeof(e->stated);

	if (st->value && st->value[0]) {
		pp_strlcpy(buf, st->value, size);
		snprintf(e->stated + off, wsize - off, "%s%s=%s (environment)", off ? ", " : "",
			 st->env, buf);
		return true;
	}
	if (in->cmdline && cmdline_value(in->cmdline, st->arg, buf, size)) {
		snprintf(e->stated + off, wsize - off, "%s%s=%s (kernel command line)",
			 off ? ", " : "", st->arg, buf);
		return true;
	}
	return false;
}

void pp_emul_decide(struct pp_emul *e, const struct pp_emul_in *in)
{
	const struct statement accel_st = { in->env_accel, "PERFPROBE_ACCEL", "perfprobe_accel" };
	const struct statement clock_st = { in->env_clock, "PERFPROBE_CLOCK", "perfprobe_clock" };
	char accel[sizeof(e->accel)] = "", clock[32] = "";
	size_t i;

	memset(e, 0, sizeof(*e));
	e->recorded = true;
	emul_detected(e, in);
	/* whoever started the machine knows: the environment, then the command line */
	if (stated(in, &accel_st, accel, sizeof(accel), e)) {
		pp_strlcpy(e->accel, accel, sizeof(e->accel));
		e->emulated = -1;
		for (i = 0; i < ARRAY_SIZE(accels); i++)
			if (!strcmp(accel, accels[i].name))
				e->emulated = accels[i].emulated;
	}
	/* only who started QEMU knows -icount: time is wall time unless told */
	if (stated(in, &clock_st, clock, sizeof(clock), e))
		e->virtual_clock = !strcmp(clock, "icount") || !strcmp(clock, "virtual");
}

/* CPUID.1:ECX[31] and the signature at 0x40000000 (12 bytes + NUL). */
static int cpuid_hypervisor(char sig[13])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	sig[0] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	if (!(c & (1u << 31)))
		return 0;
	/* only with the bit set: on hardware the leaf is another's */
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return 1;
#else
	sig[0] = '\0';
	return -1;
#endif
}

void pp_emul_detect(struct pp_emul *e, const char *root)
{
	char cmdline[4096] = "", vendor[128] = "", sig[13];
	struct pp_emul_in in = {
		.env_accel = getenv("PERFPROBE_ACCEL"),
		.env_clock = getenv("PERFPROBE_CLOCK"),
	};

	if (!read_fact(root, "/proc/cmdline", cmdline, sizeof(cmdline)))
		in.cmdline = cmdline;
	if (!read_fact(root, DMI_VENDOR, vendor, sizeof(vendor)))
		in.dmi_vendor = vendor;
	in.hv_bit = cpuid_hypervisor(sig);
	in.hv_sig = sig;
	pp_emul_decide(e, &in);
}

void pp_mhz_emulated(struct pp_mhz *mhz, const struct pp_emul *e)
{
	if (e->emulated != 1)
		return;
	mhz->trusted = false;
	snprintf(mhz->note, sizeof(mhz->note), e->virtual_clock ?
		 "emulated CPU on virtual time: instructions counted, not a clock" :
		 "emulated CPU: how fast the host emulates adds, not a clock");
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
	pp_sysinfo_facts(m, "");
	pp_emul_detect(&m->emul, "");
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
