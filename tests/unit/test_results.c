// SPDX-License-Identifier: GPL-2.0
/* Results: JSON round trip, atomic write, and every kind of bad file. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "results.h"
#include "sysinfo.h"
#include "util.h"

static char dir[] = "/tmp/pp-unit.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void path(char *buf, const char *name)
{
	snprintf(buf, 256, "%s/%s", dir, name);
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* 10 samples: 8 in the kernel (getppid 6, the exit 2), 2 in user space. */
static void add_profile(struct pp_run *run, struct pp_kside *k)
{
	struct pp_prof *p = calloc(1, sizeof(*p));
	uint32_t f[4];

	assert_non_null(p);
	pp_strlcpy(p->event, "cpu-clock", sizeof(p->event));
	p->period = 250000;
	p->sample_ns = 250000;
	assert_int_equal(pp_prof_frame(p, "main", &f[0]), 0);
	assert_int_equal(pp_prof_frame(p, "entry_SYSCALL_64", &f[1]), 0);
	assert_int_equal(pp_prof_frame(p, "__x64_sys_getppid", &f[2]), 0);
	assert_int_equal(pp_prof_add(p, f, 1, 2, 6), 0);
	assert_int_equal(pp_prof_frame(p, PP_PROF_SYSRET, &f[1]), 0);
	assert_int_equal(pp_prof_add(p, f, 1, 1, 2), 0);
	assert_int_equal(pp_prof_add(p, f, 1, 0, 2), 0);
	/* as with the kernel's debug info: getppid's samples on two lines */
	assert_int_equal(pp_prof_set_debuginfo(p, "/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64"), 0);
	assert_int_equal(pp_prof_line(p, f[2], "kernel/sys.c:969", 2), 0);
	assert_int_equal(pp_prof_line(p, f[2], "kernel/sys.c:970", 4), 0);
	p->samples = 10;
	p->kernel = 8;
	p->user = 2;
	assert_int_equal(pp_run_keep_prof(run, p), 0);
	k->prof = p;
	k->prof_op_ns = 1000;
	k->prof_ops = 2500;
	k->prof_cost_ns_per_op = 12;
}

static void make_run(struct pp_run *run)
{
	const double a[] = { 1.0, 1.5, 1.25, 1.1, 1.2 };
	const double b[] = { 900, 1000, 950 };
	struct pp_result *r;

	pp_run_init(run);
	strcpy(run->meta.hostname, "host1");
	strcpy(run->meta.sysname, "Linux");
	strcpy(run->meta.release, "6.1.0-test");
	strcpy(run->meta.date, "2026-12-02T10:11:12Z");
	run->meta.mhz.mhz = 2000;
	run->meta.mhz.trusted = true;
	run->meta.online_cpus = 2;
	run->meta.samples = 5;
	run->meta.noise_pct = 5;
	run->meta.pin_cpu = 1;
	strcpy(run->meta.governor, "performance");
	strcpy(run->meta.kcmdline, "BOOT_IMAGE=/vmlinuz ro quiet");
	strcpy(run->meta.thp_enabled, "madvise");
	/* thp_defrag not recorded: must stay absent */
	strcpy(run->meta.mitig[0].name, "spectre_v2");
	strcpy(run->meta.mitig[0].text, "Mitigation: Retpolines");
	strcpy(run->meta.mitig[1].name, "mds");
	strcpy(run->meta.mitig[1].text, "Not affected");
	run->meta.nmitig = 2;
	r = pp_run_add(run, "lat_syscall-null", "us", PP_LOWER_IS_BETTER, a, 5);
	/* two rounds of 5 samples each: 1.0 .. 1.4 and the same again */
	assert_int_equal(pp_result_add_round(r, a, 5), 0);
	assert_non_null(r);
	r->iterations = 1000;
	r->cpu_first = 0;
	r->cpu_last = 1;
	strcpy(r->k.source, "kmod");
	r->k.kernel_ns_per_op = 80.5;
	r->k.faults_per_op = 0.0;
	r->k.switches_per_op = 2.0;
	r->k.scope = "perfprobe and its children";
	r->k.missing = "copy: fentry refused";
	r->k.ntop = 2;
	strcpy(r->k.top[0].name, "read");
	r->k.top[0].count_per_op = 2;
	r->k.top[0].ns_per_op = 900;
	strcpy(r->k.top[1].name, "write");
	r->k.top[1].count_per_op = 2;
	r->k.top[1].ns_per_op = 300;
	add_profile(run, &r->k);
	r = pp_run_add(run, "bw_pipe", "MB/s", PP_HIGHER_IS_BETTER, b, 3);
	assert_non_null(r);
	r->kind = PP_KIND_DERIVED;	/* not what bw_pipe is: a kind to be kept */
	pp_run_skip(run, "lat_select-tcp", "no loopback");
	pp_run_fail(run, "lat_proc", "fork: EAGAIN");
}

/* An iteration of lat_pagefault is many operations: per op = per iteration / n. */
static void test_kside_scale(void **state)
{
	struct pp_kside k;

	(void)state;
	pp_kside_clear(&k);
	k.faults_per_op = 2048;
	k.syscalls_per_op = 3;
	k.ntop = 1;
	k.top[0].count_per_op = 1;
	k.top[0].ns_per_op = 4096;
	k.prof_ops = 10;
	k.prof_op_ns = 4096;
	pp_kside_scale(&k, 2048);
	assert_true(k.faults_per_op == 1);
	/* operations counted: 2048 a loop iteration */
	assert_true(k.prof_ops == 20480 && k.prof_op_ns == 2);
	assert_true(fabs(k.syscalls_per_op - 3.0 / 2048) < 1e-15);
	assert_true(k.top[0].ns_per_op == 2);
	assert_true(isnan(k.copy_bytes_per_op));
	pp_kside_scale(&k, 0);		/* ignored, never a division by 0 */
	assert_true(k.faults_per_op == 1);
}

/* How often s is in the file at p. */
static unsigned int occurrences(const char *p, const char *s)
{
	static char text[1 << 20];
	FILE *f = fopen(p, "r");
	unsigned int n = 0;
	const char *t;
	size_t len;

	assert_non_null(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	for (t = strstr(text, s); t; t = strstr(t + 1, s))
		n++;
	return n;
}

/*
 * A result made in rounds is noisy when most rounds' own samples spread:
 * rounds quiet in themselves whose medians differ (the run-to-run noise
 * compare measures) are not, though all their samples' CV is high.
 */
static void test_noisy_rounds(void **state)
{
	const double quiet1[] = { 1.00, 1.01, 1.00 }, quiet2[] = { 1.30, 1.31, 1.30 },
		     spread[] = { 1.0, 1.5, 2.0 };
	struct pp_run run;
	struct pp_result *r;

	(void)state;
	pp_run_init(&run);
	r = pp_run_add(&run, "lat_syscall-null", "us", PP_LOWER_IS_BETTER, quiet1, 3);
	assert_non_null(r);
	assert_false(pp_result_noisy(r, 10));
	assert_int_equal(pp_result_add_round(r, quiet2, 3), 0);
	assert_int_equal(pp_result_add_round(r, quiet1, 3), 0);
	assert_true(r->st.cv_pct > 10);
	assert_false(pp_result_noisy(r, 10));
	/* two of five spread (the last measured again), then three of six: not most */
	assert_int_equal(pp_result_add_round(r, spread, 3), 0);
	assert_int_equal(pp_result_add_round(r, quiet2, 3), 0);
	assert_int_equal(pp_result_redo_round(r, spread, 3), 0);
	assert_false(pp_result_noisy(r, 10));
	assert_int_equal(pp_result_add_round(r, spread, 3), 0);
	assert_false(pp_result_noisy(r, 10));
	assert_int_equal(pp_result_add_round(r, spread, 3), 0);
	assert_true(pp_result_noisy(r, 10));
	/* one round: its samples' CV */
	r = pp_run_add(&run, "lat_syscall-read", "us", PP_LOWER_IS_BETTER, spread, 3);
	assert_non_null(r);
	assert_true(pp_result_noisy(r, 10));
	assert_false(pp_result_noisy(r, 50));
	pp_run_free(&run);
}

static void test_round_trip(void **state)
{
	struct pp_run run, back;
	const struct pp_result *r;
	char p[256], err[512];

	(void)state;
	make_run(&run);
	path(p, "run.json");
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_load(&back, p, err, sizeof(err)), 0);
	/* a kind is written only when it is not measured: once, bw_pipe's */
	assert_int_equal(occurrences(p, "\"kind\""), 1);
	assert_int_equal(occurrences(p, "\"kind\": \"derived\""), 1);
	assert_string_equal(back.meta.hostname, "host1");
	assert_string_equal(back.meta.release, "6.1.0-test");
	assert_true(back.meta.mhz.trusted && back.meta.mhz.mhz == 2000);
	assert_int_equal(back.meta.pin_cpu, 1);
	assert_string_equal(back.meta.governor, "performance");
	assert_string_equal(back.meta.kcmdline, "BOOT_IMAGE=/vmlinuz ro quiet");
	assert_string_equal(back.meta.thp_enabled, "madvise");
	assert_string_equal(back.meta.thp_defrag, "");
	/* kept sorted by name, whatever order they came in */
	assert_int_equal(back.meta.nmitig, 2);
	assert_string_equal(back.meta.mitig[0].name, "mds");
	assert_string_equal(back.meta.mitig[0].text, "Not affected");
	assert_string_equal(back.meta.mitig[1].name, "spectre_v2");
	assert_string_equal(back.meta.mitig[1].text, "Mitigation: Retpolines");
	assert_int_equal(back.nresults, 2);
	r = pp_run_find(&back, "lat_syscall-null");
	assert_non_null(r);
	assert_int_equal(r->nsamples, 10);
	assert_true(r->samples[1] == 1.5 && r->samples[6] == 1.5);
	assert_int_equal(r->nrounds, 2);
	assert_true(fabs(r->rounds[0] - 1.2) < 1e-12 && fabs(r->rounds[1] - 1.2) < 1e-12);
	assert_int_equal(back.meta.rounds, 1);
	assert_true(fabs(r->value - 1.2) < 1e-12);
	assert_true(fabs(r->st.median - 1.2) < 1e-12);
	assert_int_equal(r->iterations, 1000);
	assert_int_equal(r->cpu_first, 0);
	assert_int_equal(r->cpu_last, 1);
	assert_string_equal(r->k.source, "kmod");
	assert_true(r->k.kernel_ns_per_op == 80.5);
	assert_true(r->k.faults_per_op == 0.0);
	assert_true(isnan(r->k.probe_ns_per_op));
	assert_true(isnan(r->k.copy_bytes_per_op));
	assert_true(r->k.switches_per_op == 2.0);
	assert_string_equal(r->k.scope, "perfprobe and its children");
	assert_string_equal(r->k.missing, "copy: fentry refused");
	assert_int_equal(r->k.ntop, 2);
	assert_string_equal(r->k.top[1].name, "write");
	assert_true(r->k.top[0].count_per_op == 2 && r->k.top[0].ns_per_op == 900);
	/* the profile: its counts and stacks, the rest computed from them */
	assert_non_null(r->k.prof);
	assert_string_equal(r->k.prof->event, "cpu-clock");
	assert_int_equal(r->k.prof->period, 250000);
	assert_int_equal(r->k.prof->samples, 10);
	assert_int_equal(r->k.prof->kernel, 8);
	assert_int_equal(r->k.prof->nstacks, 3);
	assert_int_equal(r->k.prof->nframes, 4);
	assert_true(r->k.prof_op_ns == 1000 && r->k.prof_cost_ns_per_op == 12);
	assert_true(r->k.prof_ops == 2500 && r->k.prof->sample_ns == 250000);
	assert_int_equal(occurrences(p, "\"kernel_ns_per_op\": 800"), 1);
	assert_int_equal(occurrences(p, "\"path\": \"__x64_sys_getppid <- entry_SYSCALL_64\""), 2);
	assert_int_equal(occurrences(p, "\"1 3 0 1 2\""), 0);
	assert_int_equal(occurrences(p, "\"6 1 0 1 2\""), 1);
	/* the source lines, most samples first; the top function's hottest */
	assert_string_equal(r->k.prof->debuginfo, "/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64");
	assert_int_equal(r->k.prof->nlines, 2);
	assert_string_equal(r->k.prof->lines[0].src, "kernel/sys.c:970");
	assert_int_equal(r->k.prof->lines[0].count, 4);
	assert_string_equal(pp_prof_hot_line(r->k.prof, 2)->src, "kernel/sys.c:970");
	assert_null(pp_prof_hot_line(r->k.prof, 0));
	assert_int_equal(occurrences(p, "\"src\": \"kernel/sys.c:970\""), 2);
	assert_int_equal(r->kind, PP_KIND_MEASURED);
	r = pp_run_find(&back, "bw_pipe");
	assert_non_null(r);
	assert_int_equal(r->dir, PP_HIGHER_IS_BETTER);
	assert_int_equal(r->kind, PP_KIND_DERIVED);
	assert_int_equal(back.nskips, 1);
	assert_string_equal(back.skips[0].reason, "no loopback");
	assert_int_equal(back.nfails, 1);
	pp_run_free(&run);
	pp_run_free(&back);
}

/* meta.emulation round trip: what it says, and not recorded when absent. */
static void test_emulation_round_trip(void **state)
{
	struct pp_run run, back;
	char p[256], err[512], *s;

	(void)state;
	make_run(&run);
	s = pp_run_to_string(&run);
	assert_null(strstr(s, "\"emulation\""));	/* not recorded: not written */
	free(s);
	run.meta.emul = (struct pp_emul){ .recorded = true, .emulated = 1, .accel = "tcg",
					  .virtual_clock = true,
					  .stated = "perfprobe_accel=tcg (kernel command line)",
					  .detected = "CPUID hypervisor signature 'TCGTCGTCGTCG'" };
	path(p, "emul.json");
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_load(&back, p, err, sizeof(err)), 0);
	assert_true(back.meta.emul.recorded);
	assert_int_equal(back.meta.emul.emulated, 1);
	assert_string_equal(back.meta.emul.accel, "tcg");
	assert_true(back.meta.emul.virtual_clock);
	assert_string_equal(pp_emul_clock(&back.meta.emul), "virtual (instructions)");
	assert_false(pp_emul_wall(&back.meta.emul));
	assert_string_equal(back.meta.emul.stated, run.meta.emul.stated);
	assert_string_equal(back.meta.emul.detected, run.meta.emul.detected);
	pp_run_free(&back);
	/* cannot be told: null, and read back as such */
	run.meta.emul = (struct pp_emul){ .recorded = true, .emulated = -1 };
	s = pp_run_to_string(&run);
	assert_non_null(strstr(s, "\"emulated\": null"));
	assert_non_null(strstr(s, "\"accelerator\": null"));
	assert_non_null(strstr(s, "\"clock\": \"wall\""));
	assert_null(strstr(s, "stated_by"));
	free(s);
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_load(&back, p, err, sizeof(err)), 0);
	assert_int_equal(back.meta.emul.emulated, -1);
	assert_false(back.meta.emul.virtual_clock);
	pp_run_free(&back);
	pp_run_free(&run);
}

/* What the machine shows, and what whoever started it says (which wins). */
static void test_emulation_decide(void **state)
{
	struct pp_emul e;
	struct pp_emul_in in = { .hv_bit = 1, .hv_sig = "TCGTCGTCGTCG", .dmi_vendor = "QEMU" };

	(void)state;
	/* QEMU 7.2's TCG signs CPUID 0x40000000 */
	pp_emul_decide(&e, &in);
	assert_true(e.recorded);
	assert_int_equal(e.emulated, 1);
	assert_string_equal(e.accel, "tcg");
	assert_false(e.virtual_clock);		/* not told: the wall clock */
	assert_string_equal(e.stated, "");
	assert_non_null(strstr(e.detected, "TCGTCGTCGTCG"));
	/* KVM under QEMU: the same DMI vendor, KVM's signature */
	in.hv_sig = "KVMKVMKVM";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, 0);
	assert_string_equal(e.accel, "kvm");
	/* a QEMU machine with the hypervisor bit and no signature: TCG */
	in.hv_sig = "";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, 1);
	assert_string_equal(e.accel, "tcg");
	/* no bit, no QEMU: the hardware */
	in.hv_bit = 0;
	in.dmi_vendor = "Dell Inc.";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, 0);
	assert_string_equal(e.accel, "none");
	/* a hypervisor perfprobe does not know: cannot tell */
	in.hv_bit = 1;
	in.hv_sig = "SomethingNew";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, -1);
	assert_string_equal(e.accel, "");
	/* no CPUID: cannot tell either, unless told */
	in.hv_bit = -1;
	in.hv_sig = NULL;
	in.dmi_vendor = NULL;
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, -1);
	/* the kernel command line states it, and the clock */
	in.cmdline = "console=ttyS0 perfprobe_accel=tcg quiet perfprobe_clock=icount";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, 1);
	assert_string_equal(e.accel, "tcg");
	assert_true(e.virtual_clock);
	assert_string_equal(e.stated, "perfprobe_accel=tcg (kernel command line), "
			    "perfprobe_clock=icount (kernel command line)");
	/* the environment wins over the command line; so does a statement over CPUID */
	in.hv_bit = 1;
	in.hv_sig = "TCGTCGTCGTCG";
	in.env_accel = "kvm";
	in.env_clock = "wall";
	pp_emul_decide(&e, &in);
	assert_int_equal(e.emulated, 0);
	assert_string_equal(e.accel, "kvm");
	assert_false(e.virtual_clock);
	assert_string_equal(e.stated, "PERFPROBE_ACCEL=kvm (environment), "
			    "PERFPROBE_CLOCK=wall (environment)");
	assert_non_null(strstr(e.detected, "TCGTCGTCGTCG"));	/* kept beside it */
	/* a word that only starts like it is not it */
	in.env_accel = NULL;
	in.env_clock = NULL;
	in.cmdline = "xperfprobe_accel=kvm perfprobe_accelx=kvm";
	pp_emul_decide(&e, &in);
	assert_string_equal(e.accel, "tcg");
	assert_string_equal(e.stated, "");
}

/* An emulated CPU's add chain is not a clock. */
static void test_emulated_mhz(void **state)
{
	struct pp_mhz mhz = { .mhz = 969.6, .trusted = true };
	struct pp_emul e = { .recorded = true, .emulated = 0 };

	(void)state;
	pp_mhz_emulated(&mhz, &e);
	assert_true(mhz.trusted);
	e.emulated = 1;
	pp_mhz_emulated(&mhz, &e);
	assert_false(mhz.trusted);
	assert_non_null(strstr(mhz.note, "not a clock"));
}

/* A fact that was not recorded is not written: absent, not "" or "unknown". */
static void test_facts_absent_not_written(void **state)
{
	struct pp_run run;
	char *s;

	(void)state;
	pp_run_init(&run);
	s = pp_run_to_string(&run);
	assert_non_null(s);
	assert_null(strstr(s, "cpufreq_governor"));
	assert_null(strstr(s, "kernel_cmdline"));
	assert_null(strstr(s, "\"thp\""));
	assert_null(strstr(s, "mitigations"));
	free(s);
	strcpy(run.meta.thp_defrag, "never");
	s = pp_run_to_string(&run);
	assert_non_null(strstr(s, "\"thp\": {\n      \"defrag\": \"never\"\n    }"));
	free(s);
	pp_run_free(&run);
}

/* A file written before the facts were recorded still loads, without them. */
static void test_old_file_loads(void **state)
{
	struct pp_run run;
	char p[256], err[512] = "";

	(void)state;
	path(p, "old.json");
	write_file(p, "{\"format\": \"perfprobe-results\", \"schema_version\": 1, "
		   "\"meta\": {\"perfprobe_version\": \"0.1\", \"hostname\": \"h\", "
		   "\"cpu_model\": \"X\", \"online_cpus\": 2, "
		   "\"options\": {\"mode\": \"default\", \"pin_cpu\": null}}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", "
		   "\"direction\": \"lower\", \"samples\": [5, 6, 7]}]}");
	assert_int_equal(pp_run_load(&run, p, err, sizeof(err)), 0);
	assert_string_equal(run.meta.hostname, "h");
	assert_string_equal(run.meta.mode, "default");
	assert_int_equal(run.meta.pin_cpu, -1);
	assert_string_equal(run.meta.governor, "");
	assert_string_equal(run.meta.kcmdline, "");
	assert_string_equal(run.meta.thp_enabled, "");
	assert_string_equal(run.meta.thp_defrag, "");
	assert_int_equal(run.meta.nmitig, 0);
	assert_int_equal(run.nresults, 1);
	pp_run_free(&run);
}

static void mkfile(const char *root, const char *rel, const char *text)
{
	char p[512], cmd[1024];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", p);
	assert_int_equal(system(cmd), 0);
	write_file(p, text);
}

/* The facts read from a tree that mimics /sys and /proc. */
static void test_facts_from_sysfs(void **state)
{
	struct pp_meta m;
	char root[256];

	(void)state;
	memset(&m, 0, sizeof(m));
	snprintf(root, sizeof(root), "%s/root", dir);
	mkfile(root, "/sys/devices/system/cpu/online", "0-2,4\n");
	mkfile(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	mkfile(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	mkfile(root, "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	mkfile(root, "/sys/devices/system/cpu/cpu4/cpufreq/scaling_governor", "performance\n");
	mkfile(root, "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
	       "Mitigation: Enhanced / Automatic IBRS\n");
	mkfile(root, "/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	mkfile(root, "/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1 root=/dev/sda1 ro quiet\n");
	mkfile(root, "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	mkfile(root, "/sys/kernel/mm/transparent_hugepage/defrag",
	       "always defer defer+madvise [madvise] never\n");
	pp_sysinfo_facts(&m, root);
	assert_string_equal(m.governor, "performance: 0-1,4; powersave: 2");
	assert_int_equal(m.nmitig, 2);
	assert_string_equal(m.mitig[0].name, "meltdown");
	assert_string_equal(m.mitig[1].text, "Mitigation: Enhanced / Automatic IBRS");
	assert_string_equal(m.kcmdline, "BOOT_IMAGE=/boot/vmlinuz-6.1 root=/dev/sda1 ro quiet");
	assert_string_equal(m.thp_enabled, "madvise");
	assert_string_equal(m.thp_defrag, "madvise");

	/* every read fails: every fact absent, including stale ones */
	snprintf(root, sizeof(root), "%s/empty", dir);
	pp_sysinfo_facts(&m, root);
	assert_string_equal(m.governor, "");
	assert_string_equal(m.kcmdline, "");
	assert_string_equal(m.thp_enabled, "");
	assert_string_equal(m.thp_defrag, "");
	assert_int_equal(m.nmitig, 0);
}

static void test_governor_and_thp_parsing(void **state)
{
	const int cpus[] = { 0, 1, 2, 3, 6, 7 };
	const char *same[] = { "schedutil", "schedutil", "", "schedutil", "schedutil", "schedutil" };
	const char *mixed[] = { "a", "b", "a", "a", "b", "b" };
	const char *none[] = { "", "", "", "", "", "" };
	char buf[64];

	(void)state;
	assert_true(pp_governor_summary(cpus, same, 6, buf, sizeof(buf)));
	assert_string_equal(buf, "schedutil");
	assert_true(pp_governor_summary(cpus, mixed, 6, buf, sizeof(buf)));
	assert_string_equal(buf, "a: 0,2-3; b: 1,6-7");
	assert_false(pp_governor_summary(cpus, none, 6, buf, sizeof(buf)));
	assert_true(pp_thp_selected("[always] madvise never", buf, sizeof(buf)));
	assert_string_equal(buf, "always");
	assert_true(pp_thp_selected("always defer defer+madvise madvise [never]", buf, sizeof(buf)));
	assert_string_equal(buf, "never");
	assert_false(pp_thp_selected("always madvise never", buf, sizeof(buf)));
	assert_false(pp_thp_selected("always [] never", buf, sizeof(buf)));
	assert_false(pp_thp_selected("always [madvise", buf, sizeof(buf)));
}

static void test_atomic_no_leftovers(void **state)
{
	struct pp_run run;
	char p[256], cmd[512];

	(void)state;
	make_run(&run);
	path(p, "atomic.json");
	assert_int_equal(pp_run_save(&run, p), 0);
	assert_int_equal(pp_run_save(&run, p), 0);
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls %s | grep tmp)\"", dir);
	assert_int_equal(system(cmd), 0);
	/* a directory that does not exist: error, nothing written */
	assert_int_not_equal(pp_run_save(&run, "/nonexistent-dir/x.json"), 0);
	pp_run_free(&run);
}

/* -errno: -EINVAL unless the file cannot be read */
static void expect_bad_err(const char *name, const char *text, const char *msg, int ret)
{
	struct pp_run run;
	char p[256], err[512] = "";

	path(p, name);
	if (text)
		write_file(p, text);
	assert_int_equal(pp_run_load(&run, p, err, sizeof(err)), ret);
	/* one line that names the file and the problem */
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, msg));
	assert_null(strchr(err, '\n'));
}

static void expect_bad(const char *name, const char *text, const char *msg)
{
	expect_bad_err(name, text, msg, -EINVAL);
}

/* A result whose profile has kernel and user samples and stacks as given. */
#define PROF_FILE(kernel, user, stacks)							\
	"{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "	\
	"\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "	\
	"\"samples\": [1], \"kernel\": {\"source\": \"bpf\", \"profile\": {"			\
	"\"event\": \"cpu-clock\", \"period\": 250000, \"samples\": 8, "			\
	"\"kernel_samples\": " kernel ", \"user_samples\": " user ", \"lost\": 0, "		\
	"\"op_ns\": 1000, \"ops\": 2000, \"sample_ns\": 250000, "				\
	"\"frames\": [\"main\", \"do_syscall_64\"], "					\
	"\"stacks\": [" stacks "]}}}]}"

static void test_bad_files(void **state)
{
	char dirp[256];

	(void)state;
	expect_bad_err("missing.json", NULL, "cannot read", -ENOENT);
	path(dirp, "adir.json");
	assert_int_equal(mkdir(dirp, 0755), 0);
	expect_bad_err("adir.json", NULL, "Is a directory", -EISDIR);
	rmdir(dirp);
	expect_bad("text.json", "hello world\n", "not valid JSON");
	expect_bad("trunc.json", "{\"format\": \"perfprobe-results\", \"schema_ve", "not valid JSON");
	expect_bad("other.json", "{\"name\": 1}", "not a perfprobe result");
	expect_bad("array.json", "[1, 2]", "not a perfprobe result");
	expect_bad("newer.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 99, \"meta\": {}, \"results\": []}",
		   "newer");
	expect_bad("nometa.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"results\": []}",
		   "missing");
	expect_bad("badkey.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"Bad Key\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1]}]}",
		   "no valid key");
	expect_bad("nosamples.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": []}]}",
		   "no samples");
	expect_bad("kind.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"kind\": \"guessed\", \"samples\": [1]}]}",
		   "field kind");
	expect_bad("direction.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"up\", "
		   "\"samples\": [1]}]}",
		   "field direction");
	expect_bad("negative.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1, -2]}]}",
		   "field samples[1]");
	expect_bad("count.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1, 2], \"stats\": {\"n\": 3}}]}",
		   "field stats.n");
	expect_bad("rounds.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1, 2], \"rounds\": [1, \"x\"]}]}",
		   "field rounds[1]");
	expect_bad("rounds1.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1, 2], \"rounds\": [1]}]}",
		   "field rounds");
	expect_bad("dup.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1]}, {\"key\": \"lat_pipe\", \"unit\": \"us\", "
		   "\"direction\": \"lower\", \"samples\": [2]}]}",
		   "duplicated");
	expect_bad("prof-sum.json", PROF_FILE("8", "2", "\"6 1 0 1\", \"2 1 0\""),
		   "field kernel.profile.kernel_samples + user_samples is not samples");
	expect_bad("prof-frame.json", PROF_FILE("6", "2", "\"6 1 0 7\", \"2 1 0\""),
		   "field kernel.profile.stacks[0]: frame 1 is not one of the 2 frames");
	expect_bad("prof-count.json", PROF_FILE("6", "2", "\"5 1 0 1\", \"2 1 0\""),
		   "field kernel.profile.stacks: 7 samples, not samples' 8");
	expect_bad("prof-user.json", PROF_FILE("6", "2", "\"6 3 0 1\", \"2 1 0\""),
		   "field kernel.profile.stacks[0]: 3 user frames of 2");
	expect_bad("prof-line-fn.json",
		   PROF_FILE("6", "2", "\"6 1 0 1\", \"2 1 0\"], \"debuginfo\": \"vmlinux\", "
			     "\"lines\": [{\"name\": \"getppid\", \"src\": \"a.c:1\", "
			     "\"samples\": 1}"),
		   "field kernel.profile.lines[0]: not a frame's name, a source line and "
		   "samples above 0");
	expect_bad("prof-line-sum.json",
		   PROF_FILE("6", "2", "\"6 1 0 1\", \"2 1 0\"], \"debuginfo\": \"vmlinux\", "
			     "\"lines\": [{\"name\": \"do_syscall_64\", \"src\": \"a.c:1\", "
			     "\"samples\": 7}"),
		   "field kernel.profile.lines: 7 samples, more than kernel_samples' 6");
	expect_bad("prof-line-di.json",
		   PROF_FILE("6", "2", "\"6 1 0 1\", \"2 1 0\"], \"lines\": ["),
		   "field kernel.profile.debuginfo, lines: not a file name and a list");
	expect_bad("prof-ops.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1], \"kernel\": {\"source\": \"bpf\", \"profile\": {"
		   "\"event\": \"cpu-clock\", \"period\": 1, \"samples\": 0, \"kernel_samples\": 0, "
		   "\"user_samples\": 0, \"lost\": 0, \"op_ns\": 1000, \"sample_ns\": 1, "
		   "\"frames\": [], \"stacks\": []}}}]}",
		   "field kernel.profile.ops, sample_ns");
	expect_bad("prof-event.json",
		   "{\"format\": \"perfprobe-results\", \"schema_version\": 1, \"meta\": {}, "
		   "\"results\": [{\"key\": \"lat_pipe\", \"unit\": \"us\", \"direction\": \"lower\", "
		   "\"samples\": [1], \"kernel\": {\"source\": \"bpf\", \"profile\": {\"period\": 1}}}]}",
		   "result lat_pipe: field kernel.profile.event");
}

static void test_keys(void **state)
{
	(void)state;
	assert_true(pp_key_valid("lat_syscall-null"));
	assert_true(pp_key_valid("lat_pipe"));
	assert_true(pp_key_valid("bw_mem-bcopy-16mb"));
	assert_true(pp_key_valid("lat_mem_rd-stride128-sz31k"));
	assert_true(pp_key_valid("lat_ctx-2-128k"));
	assert_false(pp_key_valid(""));
	assert_false(pp_key_valid("Lat_pipe"));
	assert_false(pp_key_valid("lat pipe"));
	assert_false(pp_key_valid("lat_pipe-"));
	assert_false(pp_key_valid("lat--pipe"));
	assert_false(pp_key_valid("-lat"));
	assert_false(pp_key_valid("lat_pipe\"x"));
}

static void test_results_path(void **state)
{
	struct pp_meta m = { 0 };
	char buf[512], expect[512];

	(void)state;
	strcpy(m.hostname, "box");
	strcpy(m.date, "2026-12-02T10:11:12Z");
	assert_int_equal(pp_results_path(dir, &m, "syscall", buf, sizeof(buf)), 0);
	snprintf(expect, sizeof(expect), "%s/box/2026-12-02/101112-syscall-", dir);
	assert_memory_equal(buf, expect, strlen(expect));
	assert_int_equal(access(strrchr(expect, '/') ? dir : dir, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kside_scale),
		cmocka_unit_test(test_noisy_rounds),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_emulation_round_trip),
		cmocka_unit_test(test_emulation_decide),
		cmocka_unit_test(test_emulated_mhz),
		cmocka_unit_test(test_facts_absent_not_written),
		cmocka_unit_test(test_old_file_loads),
		cmocka_unit_test(test_facts_from_sysfs),
		cmocka_unit_test(test_governor_and_thp_parsing),
		cmocka_unit_test(test_atomic_no_leftovers),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_results_path),
	};

	return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
