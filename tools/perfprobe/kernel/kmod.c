// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe kmod status | kmod check FILE.ko | timer, and the helpers the
 * other perfprobe.ko commands share.  Documentation/kmod-tools.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "kelf.h"
#include "kmodcmd.h"

#define TIMER_DEFAULT_PERIOD_NS	100000ULL	/* 100 us */
#define TIMER_DEFAULT_COUNT	1000U
#define TIMER_QUICK_COUNT	200U
#define TIMER_FULL_COUNT	10000U
#define HIST_BAR_WIDTH		40

int pp_kmod_open(struct ppnl *s, struct ppnl_info *info, const char *what)
{
	int ret = ppnl_connect(s, info);

	if (!ret)
		return 0;
	if (ret == -ENOENT) {
		pp_err(PPNL_NOT_LOADED);
		return PP_EXIT_SKIP;
	}
	if (ret == -EPROTO)
		pp_err("%s: %s", what, s->msg);
	else
		ppnl_perror(s, what, ret);
	return PP_EXIT_FAIL;
}

int pp_json_print(json_t *o)
{
	char *s;

	if (!o)
		return PP_EXIT_FAIL;
	s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(o);
	if (!s) {
		pp_err("out of memory");
		return PP_EXIT_FAIL;
	}
	printf("%s\n", s);
	free(s);
	return 0;
}

/* --- histograms --- */

static void fmt_ns(char *buf, size_t size, double ns)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.3g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, size, "%.3g s", ns / 1e9);
}

/* Bucket k holds [2^(k-1), 2^k) ns; bucket 0 holds 0. */
static void bucket_range(unsigned int k, double *lo, double *hi)
{
	*lo = k ? ldexp(1.0, (int)k - 1) : 0;
	*hi = k ? ldexp(1.0, (int)k) : 1;	/* bucket 63: and above */
}

void pp_hist_print(FILE *f, const struct ppnl_stats *st, const char *indent)
{
	uint64_t max = 0;
	unsigned int k;

	for (k = 0; k < PERFPROBE_HIST_BUCKETS; k++)
		if (st->hist[k] > max)
			max = st->hist[k];
	if (!max)
		return;
	for (k = 0; k < PERFPROBE_HIST_BUCKETS; k++) {
		char a[32], b[32], range[80];
		double lo, hi;
		int bar;

		if (!st->hist[k])
			continue;
		bucket_range(k, &lo, &hi);
		fmt_ns(a, sizeof(a), lo);
		fmt_ns(b, sizeof(b), hi);
		snprintf(range, sizeof(range), k ? "[%s, %s)" : "%s", a, b);
		bar = (int)((st->hist[k] * HIST_BAR_WIDTH + max - 1) / max);
		fprintf(f, "%s%-22s %10llu |%.*s\n", indent, range,
			(unsigned long long)st->hist[k], bar,
			"########################################");
	}
}

json_t *pp_stats_json(const struct ppnl_stats *st)
{
	json_t *o = json_object(), *h = json_array();
	unsigned int k;

	json_object_set_new(o, "count", json_integer((json_int_t)st->count));
	json_object_set_new(o, "sum_ns", json_integer((json_int_t)st->sum_ns));
	json_object_set_new(o, "min_ns", json_integer((json_int_t)st->min_ns));
	json_object_set_new(o, "mean_ns", json_integer((json_int_t)st->mean_ns));
	json_object_set_new(o, "max_ns", json_integer((json_int_t)st->max_ns));
	for (k = 0; k < PERFPROBE_HIST_BUCKETS; k++) {
		json_t *b;
		double lo, hi;

		if (!st->hist[k])
			continue;
		bucket_range(k, &lo, &hi);
		b = json_object();
		json_object_set_new(b, "log2", json_integer(k));
		json_object_set_new(b, "from_ns", json_real(lo));
		json_object_set_new(b, "to_ns", json_real(hi));
		json_object_set_new(b, "count", json_integer((json_int_t)st->hist[k]));
		json_array_append_new(h, b);
	}
	json_object_set_new(o, "histogram", h);
	return o;
}

/* --- kmod status --- */

static const char *calib_name(uint32_t c)
{
	switch (c) {
	case PERFPROBE_CYCLES_CALIB_TSC_KHZ:
		return "tsc_khz";
	case PERFPROBE_CYCLES_CALIB_MEASURED:
		return "measured against ktime";
	default:
		return "none";
	}
}

static void copy_syms_text(const struct ppnl_info *in, char *buf, size_t size)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < in->ncopy_syms && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      in->copy_syms[i]);
}

static void status_text(const struct ppnl_info *in)
{
	char syms[PPNL_MAX_COPY_SYMS * (PPNL_STR_MAX + 2)];

	printf("perfprobe.ko: loaded\n");
	printf("  ABI version:          %u\n", in->abi_version);
	printf("  module version:       %s\n", in->module_version);
	printf("  clocksource:          %s\n", in->clocksource);
	printf("  clock resolution:     %llu ns\n", (unsigned long long)in->clock_res_ns);
	printf("  ktime_get_ns() cost:  %.1f ns\n", (double)in->ktime_cost_ps / 1e3);
	printf("  get_cycles() cost:    %.1f ns\n", (double)in->cycles_cost_ps / 1e3);
	if (in->cycles_khz)
		printf("  cycle counter:        %llu kHz (calibration: %s)\n",
		       (unsigned long long)in->cycles_khz, calib_name(in->cycles_calib));
	else
		printf("  cycle counter:        none\n");
	if (in->trace_active)
		printf("  trace:                active (tgid %u)\n", in->trace_tgid);
	else
		printf("  trace:                idle\n");
	printf("capabilities:\n");
	printf("  syscall trace:              %s\n",
	       in->caps & PERFPROBE_CAP_SYSCALL_TRACE ? "yes (raw_syscalls tracepoints)" :
	       "not available on this kernel");
	if (in->caps & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		printf("  page-fault kretprobe:       yes (handle_mm_fault)\n");
	else
		printf("  page-fault kretprobe:       not available on this kernel: %s\n",
		       in->pgfault_reason[0] ? in->pgfault_reason : "unknown reason");
	printf("  page_fault_user tracepoint: %s\n",
	       in->caps & PERFPROBE_CAP_PGFAULT_TP ? "yes" : "not available on this kernel");
	copy_syms_text(in, syms, sizeof(syms));
	if (in->caps & PERFPROBE_CAP_COPY_KPROBES)
		printf("  copy-routine kprobes:       %s\n", syms);
	else
		printf("  copy-routine kprobes:       not available on this kernel: %s\n",
		       in->copy_reason[0] ? in->copy_reason : "unknown reason");
}

static json_t *status_json(const struct ppnl_info *in)
{
	json_t *o = json_object(), *caps = json_object(), *syms = json_array();
	unsigned int i;

	json_object_set_new(o, "format", json_string("perfprobe-kmod-status"));
	json_object_set_new(o, "loaded", json_true());
	json_object_set_new(o, "abi_version", json_integer(in->abi_version));
	json_object_set_new(o, "module_version", json_string(in->module_version));
	json_object_set_new(o, "clocksource", json_string(in->clocksource));
	json_object_set_new(o, "clock_res_ns", json_integer((json_int_t)in->clock_res_ns));
	json_object_set_new(o, "ktime_cost_ns", json_real((double)in->ktime_cost_ps / 1e3));
	json_object_set_new(o, "cycles_cost_ns", json_real((double)in->cycles_cost_ps / 1e3));
	json_object_set_new(o, "cycles_khz", json_integer((json_int_t)in->cycles_khz));
	json_object_set_new(o, "cycles_calibration", json_string(calib_name(in->cycles_calib)));
	json_object_set_new(o, "syscall_max", json_integer(in->syscall_max));
	json_object_set_new(o, "trace_active", json_boolean(in->trace_active));
	if (in->trace_active)
		json_object_set_new(o, "trace_tgid", json_integer(in->trace_tgid));
	json_object_set_new(caps, "syscall_trace",
			    json_boolean(in->caps & PERFPROBE_CAP_SYSCALL_TRACE));
	json_object_set_new(caps, "pgfault_kretprobe",
			    json_boolean(in->caps & PERFPROBE_CAP_PGFAULT_KRETPROBE));
	json_object_set_new(caps, "pgfault_tracepoint",
			    json_boolean(in->caps & PERFPROBE_CAP_PGFAULT_TP));
	json_object_set_new(caps, "copy_kprobes",
			    json_boolean(in->caps & PERFPROBE_CAP_COPY_KPROBES));
	json_object_set_new(caps, "cycle_counter",
			    json_boolean(in->caps & PERFPROBE_CAP_CYCLE_COUNTER));
	json_object_set_new(o, "capabilities", caps);
	for (i = 0; i < in->ncopy_syms; i++)
		json_array_append_new(syms, json_string(in->copy_syms[i]));
	json_object_set_new(o, "copy_symbols", syms);
	if (in->copy_reason[0])
		json_object_set_new(o, "copy_reason", json_string(in->copy_reason));
	if (in->pgfault_reason[0])
		json_object_set_new(o, "pgfault_reason", json_string(in->pgfault_reason));
	return o;
}

static int kmod_status(struct pp_cli *cli)
{
	struct ppnl_info info;
	struct ppnl s;
	int ret;

	ret = pp_kmod_open(&s, &info, "kmod status");
	if (ret)
		return ret;
	ppnl_close(&s);
	if (cli->opts.json)
		return pp_json_print(status_json(&info));
	status_text(&info);
	return 0;
}

/* --- kmod check FILE.ko --- */

static json_t *check_json(const char *path, const struct pp_modinfo *mi,
			  const char *rel, const char *running, bool match)
{
	json_t *o = json_object();

	json_object_set_new(o, "format", json_string("perfprobe-kmod-check"));
	json_object_set_new(o, "file", json_string(path));
	json_object_set_new(o, "name", json_string(mi->name));
	json_object_set_new(o, "version", json_string(mi->version));
	json_object_set_new(o, "vermagic", json_string(mi->vermagic));
	json_object_set_new(o, "built_for", json_string(rel));
	json_object_set_new(o, "running", json_string(running));
	json_object_set_new(o, "matches", json_boolean(match));
	return o;
}

static int kmod_check(struct pp_cli *cli, const char *path)
{
	struct pp_modinfo mi;
	struct utsname u;
	char err[512], rel[256];
	bool match;
	int ret;

	if (pp_kelf_read(path, &mi, err, sizeof(err))) {
		pp_err("%s", err);
		return PP_EXIT_BADFILE;
	}
	uname(&u);
	pp_vermagic_release(mi.vermagic, rel, sizeof(rel));
	match = !strcmp(rel, u.release);
	if (cli->opts.json) {
		ret = pp_json_print(check_json(path, &mi, rel, u.release, match));
		return ret ? ret : match ? 0 : PP_EXIT_FAIL;
	}
	printf("%s: module %s, version %s\n", path, mi.name[0] ? mi.name : "?",
	       mi.version[0] ? mi.version : "?");
	printf("  vermagic:        %s\n", mi.vermagic);
	printf("  built for:       %s\n", rel);
	printf("  running kernel:  %s\n", u.release);
	if (match) {
		printf("  matches: the module was built for the running kernel\n");
		return 0;
	}
	printf("  does not match: insmod will refuse it here; rebuild with: make kmod KDIR=/lib/modules/%s/build\n",
	       u.release);
	return PP_EXIT_FAIL;
}

int pp_cmd_kmod(struct pp_cli *cli, int argc, char **argv)
{
	if (argc < 1)
		return pp_usage_err("kmod: say 'kmod status' or 'kmod check FILE.ko'");
	if (!strcmp(argv[0], "status")) {
		if (argc != 1)
			return pp_usage_err("kmod status: takes no arguments");
		return kmod_status(cli);
	}
	if (!strcmp(argv[0], "check")) {
		if (argc != 2)
			return pp_usage_err("kmod check: give one module file (FILE.ko)");
		return kmod_check(cli, argv[1]);
	}
	return pp_usage_err("kmod: unknown subcommand '%s'", argv[0]);
}

/* --- timer --- */

static const struct option timer_longopts[] = {
	{ "period", required_argument, NULL, 'p' },
	{ "count", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

const struct pp_cmd_opts pp_timer_opts = { "p:n:", timer_longopts };

int pp_timer_check(uint64_t period_ns, uint64_t count)
{
	if (period_ns < PERFPROBE_TIMER_MIN_PERIOD_NS ||
	    period_ns > PERFPROBE_TIMER_MAX_PERIOD_NS)
		return pp_usage_err("timer: --period must be %llu to %llu ns",
				     PERFPROBE_TIMER_MIN_PERIOD_NS,
				     PERFPROBE_TIMER_MAX_PERIOD_NS);
	if (count < 1 || count > PERFPROBE_TIMER_MAX_COUNT)
		return pp_usage_err("timer: --count must be 1 to %u",
				     PERFPROBE_TIMER_MAX_COUNT);
	if (period_ns * count > PERFPROBE_TIMER_MAX_TOTAL_NS)
		return pp_usage_err("timer: --period x --count must be at most 1 s (%llu ns)",
				     PERFPROBE_TIMER_MAX_TOTAL_NS);
	return 0;
}

static int timer_opts(struct pp_cli *cli, uint64_t *period, uint64_t *count)
{
	int i;

	*period = TIMER_DEFAULT_PERIOD_NS;
	*count = cli->opts.quick ? TIMER_QUICK_COUNT :
		 cli->opts.full ? TIMER_FULL_COUNT : TIMER_DEFAULT_COUNT;
	for (i = 0; i < cli->ncopts; i++) {
		const struct pp_cli_opt *o = &cli->copts[i];
		uint64_t *dst = o->val == 'p' ? period : count;

		if (pp_parse_u64(o->arg, 0, UINT64_MAX / 2, dst))
			return pp_usage_err("timer: %s: '%s' is not a number",
					     o->val == 'p' ? "--period" : "--count", o->arg);
	}
	return pp_timer_check(*period, *count);
}

static json_t *timer_json(const struct ppnl_timer *t, const struct ppnl_info *in)
{
	json_t *o = json_object();

	json_object_set_new(o, "format", json_string("perfprobe-timer"));
	json_object_set_new(o, "period_ns", json_integer((json_int_t)t->period_ns));
	json_object_set_new(o, "count", json_integer(t->count));
	json_object_set_new(o, "clocksource", json_string(in->clocksource));
	json_object_set_new(o, "clock_res_ns", json_integer((json_int_t)in->clock_res_ns));
	json_object_set_new(o, "lateness", pp_stats_json(&t->late));
	return o;
}

static void timer_text(const struct ppnl_timer *t, const struct ppnl_info *in)
{
	char p[32], a[32], b[32], c[32];

	fmt_ns(p, sizeof(p), (double)t->period_ns);
	printf("hrtimer lateness: %u expiries every %s (clocksource %s, resolution %llu ns)\n",
	       t->count, p, in->clocksource, (unsigned long long)in->clock_res_ns);
	fmt_ns(a, sizeof(a), (double)t->late.min_ns);
	fmt_ns(b, sizeof(b), (double)t->late.mean_ns);
	fmt_ns(c, sizeof(c), (double)t->late.max_ns);
	printf("  min %s, mean %s, max %s\n\n", a, b, c);
	printf("  %-22s %10s\n", "lateness", "expiries");
	pp_hist_print(stdout, &t->late, "  ");
}

int pp_cmd_timer(struct pp_cli *cli, int argc, char **argv)
{
	uint64_t period, count;
	struct ppnl_info info;
	struct ppnl_timer t;
	struct ppnl s;
	int ret;

	(void)argv;
	if (argc)
		return pp_usage_err("timer: takes no arguments, only --period NS and --count N");
	ret = timer_opts(cli, &period, &count);
	if (ret)
		return ret;
	ret = pp_kmod_open(&s, &info, "timer");
	if (ret)
		return ret;
	ret = ppnl_timer(&s, period, (uint32_t)count, &t);
	if (ret) {
		ppnl_perror(&s, "timer", ret);
		ppnl_close(&s);
		return PP_EXIT_FAIL;
	}
	ppnl_close(&s);
	if (cli->opts.json)
		return pp_json_print(timer_json(&t, &info));
	timer_text(&t, &info);
	return 0;
}
