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
#include "print.h"

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

/* --- histograms --- */

/* Bucket k holds [2^(k-1), 2^k) ns; bucket 0 holds 0. */
static void bucket_range(unsigned int k, double *lo, double *hi)
{
	*lo = k ? ldexp(1.0, (int)k - 1) : 0;
	*hi = k ? ldexp(1.0, (int)k) : 1;	/* bucket 63: and above */
}

/* One non-empty bucket: a JSON object, or a text bar under indent. */
static void bucket_print(const struct ppnl_stats *st, unsigned int k,
			 uint64_t max, const char *indent)
{
	char a[32], b[32], range[80];
	double lo, hi;
	int bar = (int)((st->hist[k] * HIST_BAR_WIDTH + max - 1) / max);

	bucket_range(k, &lo, &hi);
	pp_fmt_ns(a, sizeof(a), lo);
	pp_fmt_ns(b, sizeof(b), hi);
	snprintf(range, sizeof(range), k ? "[%s, %s)" : "%s", a, b);
	pp_print_open_object(NULL);
	pp_print_uint(PP_JSON, "log2", NULL, k);
	pp_print_double(PP_JSON, "from_ns", NULL, lo);
	pp_print_double(PP_JSON, "to_ns", NULL, hi);
	pp_print_text("%s%-22s", indent, range);
	pp_print_u64(PP_ANY, "count", " %10llu", st->hist[k]);
	pp_print_text(" |%.*s\n", bar, "########################################");
	pp_print_close_object();
}

void pp_stats_print(const struct ppnl_stats *st, const char *indent)
{
	uint64_t max = 0;
	unsigned int k;

	pp_print_u64(PP_JSON, "count", NULL, st->count);
	pp_print_u64(PP_JSON, "sum_ns", NULL, st->sum_ns);
	pp_print_u64(PP_JSON, "min_ns", NULL, st->min_ns);
	pp_print_u64(PP_JSON, "mean_ns", NULL, st->mean_ns);
	pp_print_u64(PP_JSON, "max_ns", NULL, st->max_ns);
	for (k = 0; k < PERFPROBE_HIST_BUCKETS; k++)
		if (st->hist[k] > max)
			max = st->hist[k];
	pp_print_open_array("histogram");
	for (k = 0; k < PERFPROBE_HIST_BUCKETS && (indent || pp_print_json()); k++)
		if (st->hist[k])
			bucket_print(st, k, max, indent ? indent : "");
	pp_print_close_array();
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

/* A capability: a JSON bool, a text line when label is given. */
static void cap_print(const char *key, const char *label, bool has,
		      const char *yes, const char *reason)
{
	pp_print_bool(PP_JSON, key, NULL, has);
	if (!label)
		return;
	if (has)
		pp_print_text("  %-27s %s\n", label, yes);
	else if (reason)
		pp_print_text("  %-27s not available on this kernel: %s\n", label,
			      reason[0] ? reason : "unknown reason");
	else
		pp_print_text("  %-27s not available on this kernel\n", label);
}

static void caps_print(const struct ppnl_info *in)
{
	bool copy = in->caps & PERFPROBE_CAP_COPY_KPROBES;
	unsigned int i;

	pp_print_text("capabilities:\n");
	pp_print_open_object("capabilities");
	cap_print("syscall_trace", "syscall trace:", in->caps & PERFPROBE_CAP_SYSCALL_TRACE,
		  "yes (raw_syscalls tracepoints)", NULL);
	cap_print("pgfault_kretprobe", "page-fault kretprobe:",
		  in->caps & PERFPROBE_CAP_PGFAULT_KRETPROBE, "yes (handle_mm_fault)",
		  in->pgfault_reason);
	cap_print("pgfault_tracepoint", "page_fault_user tracepoint:",
		  in->caps & PERFPROBE_CAP_PGFAULT_TP, "yes", NULL);
	cap_print("cycle_counter", NULL, in->caps & PERFPROBE_CAP_CYCLE_COUNTER, NULL, NULL);
	cap_print("copy_kprobes", copy ? NULL : "copy-routine kprobes:", copy, NULL,
		  in->copy_reason);
	pp_print_close_object();
	/* the symbols are the text of the copy-routine line */
	if (copy)
		pp_print_text("  %-27s ", "copy-routine kprobes:");
	pp_print_open_array("copy_symbols");
	for (i = 0; i < in->ncopy_syms; i++)
		pp_print_string(copy ? PP_ANY : PP_JSON, NULL, i ? ", %s" : "%s",
				in->copy_syms[i]);
	pp_print_close_array();
	if (copy)
		pp_print_nl();
	if (in->copy_reason[0])
		pp_print_string(PP_JSON, "copy_reason", NULL, in->copy_reason);
	if (in->pgfault_reason[0])
		pp_print_string(PP_JSON, "pgfault_reason", NULL, in->pgfault_reason);
}

static void status_print(const struct ppnl_info *in)
{
	int cyc = in->cycles_khz ? PP_ANY : PP_JSON;

	pp_print_string(PP_JSON, "format", NULL, "perfprobe-kmod-status");
	pp_print_bool(PP_JSON, "loaded", NULL, true);
	pp_print_text("perfprobe.ko: loaded\n");
	pp_print_uint(PP_ANY, "abi_version", "  ABI version:          %u\n", in->abi_version);
	pp_print_string(PP_ANY, "module_version", "  module version:       %s\n",
			in->module_version);
	pp_print_string(PP_ANY, "clocksource", "  clocksource:          %s\n", in->clocksource);
	pp_print_u64(PP_ANY, "clock_res_ns", "  clock resolution:     %llu ns\n",
		     in->clock_res_ns);
	pp_print_double(PP_ANY, "ktime_cost_ns", "  ktime_get_ns() cost:  %.1f ns\n",
			(double)in->ktime_cost_ps / 1e3);
	pp_print_double(PP_ANY, "cycles_cost_ns", "  get_cycles() cost:    %.1f ns\n",
			(double)in->cycles_cost_ps / 1e3);
	if (!in->cycles_khz)
		pp_print_text("  cycle counter:        none\n");
	pp_print_u64(cyc, "cycles_khz", "  cycle counter:        %llu kHz", in->cycles_khz);
	pp_print_string(cyc, "cycles_calibration", " (calibration: %s)\n",
			calib_name(in->cycles_calib));
	pp_print_uint(PP_JSON, "syscall_max", NULL, in->syscall_max);
	pp_print_bool(PP_JSON, "trace_active", NULL, in->trace_active);
	if (in->trace_active)
		pp_print_uint(PP_ANY, "trace_tgid", "  trace:                active (tgid %u)\n",
			      in->trace_tgid);
	else
		pp_print_text("  trace:                idle\n");
	caps_print(in);
}

static int kmod_status(struct pp_cli *cli)
{
	struct ppnl_info info;
	struct ppnl s;
	int ret;

	ret = pp_kmod_open(&s, &info, "kmod status");
	if (ret == PP_EXIT_SKIP && cli->json) {
		/* not loaded: said on stderr, and a document all the same */
		pp_print_start(stdout, true);
		pp_print_string(PP_JSON, "format", NULL, "perfprobe-kmod-status");
		pp_print_bool(PP_JSON, "loaded", NULL, false);
		pp_print_string(PP_JSON, "why", NULL, PPNL_NOT_LOADED);
		pp_print_done();
		return ret;
	}
	if (ret)
		return ret;
	ppnl_close(&s);
	pp_print_start(stdout, cli->json);
	status_print(&info);
	return pp_print_done();
}

/* --- kmod check FILE.ko --- */

static void check_print(const char *path, const struct pp_modinfo *mi,
			const char *rel, const char *running, bool match)
{
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-kmod-check");
	pp_print_string(PP_ANY, "file", "%s: ", path);
	/* absent from .modinfo: null, "-" in text */
	pp_print_string(PP_ANY, "name", "module %s", mi->name[0] ? mi->name : NULL);
	pp_print_string(PP_ANY, "version", ", version %s\n",
			mi->version[0] ? mi->version : NULL);
	pp_print_string(PP_ANY, "vermagic", "  vermagic:        %s\n", mi->vermagic);
	pp_print_string(PP_ANY, "built_for", "  built for:       %s\n", rel);
	pp_print_string(PP_ANY, "running", "  running kernel:  %s\n", running);
	pp_print_bool(PP_JSON, "matches", NULL, match);
	if (match)
		pp_print_text("  matches: the module was built for the running kernel\n");
	else
		pp_print_text("  does not match: insmod will refuse it here; rebuild with: make kmod KDIR=/lib/modules/%s/build\n",
			      running);
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
	pp_print_start(stdout, cli->json);
	check_print(path, &mi, rel, u.release, match);
	ret = pp_print_done();
	return ret ? ret : match ? 0 : PP_EXIT_FAIL;
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

static void timer_print(const struct ppnl_timer *t, const struct ppnl_info *in)
{
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-timer");
	pp_print_uint(PP_ANY, "count", "hrtimer lateness: %u expiries", t->count);
	pp_print_ns(PP_ANY, "period_ns", " every %s", t->period_ns);
	pp_print_string(PP_ANY, "clocksource", " (clocksource %s", in->clocksource);
	pp_print_u64(PP_ANY, "clock_res_ns", ", resolution %llu ns)\n", in->clock_res_ns);
	pp_print_ns(PP_FP, NULL, "  min %s", t->late.min_ns);
	pp_print_ns(PP_FP, NULL, ", mean %s", t->late.mean_ns);
	pp_print_ns(PP_FP, NULL, ", max %s\n\n", t->late.max_ns);
	pp_print_text("  %-22s %10s\n", "lateness", "expiries");
	pp_print_open_object("lateness");
	pp_stats_print(&t->late, "  ");
	pp_print_close_object();
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
	pp_print_start(stdout, cli->json);
	timer_print(&t, &info);
	return pp_print_done();
}
