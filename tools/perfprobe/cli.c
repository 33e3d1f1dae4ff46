// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: the command line.  Commands live in one table
 * (pp_commands[]), options in another (options.c).  Global options may
 * appear anywhere on the line up to "--"; a command's own after its word,
 * where they shadow a global option of the same long name (ls --label).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/suite.h"
#include "cli.h"
#include "commands.h"
#include "options.h"
#include "kernel/kview.h"
#include "print.h"
#include "report/runsel.h"
#include "report/summary.h"
#include "runcmd.h"

#ifndef PP_VERSION
#define PP_VERSION "0.0-dev"
#endif

/* Measurement modes: samples per result and time per sample. */
#define DEFAULT_SAMPLES		11	/* lmbench's TRIES */
#define DEFAULT_TARGET_MS	10.0
#define QUICK_SAMPLES		5
#define QUICK_TARGET_MS		2.0
#define FULL_SAMPLES		21
#define FULL_TARGET_MS		50.0
#define DEFAULT_NOISE_PCT	5.0

static int cmd_list(struct pp_cli *cli, int argc, char **argv);
static int cmd_run(struct pp_cli *cli, int argc, char **argv);
static int cmd_syscall(struct pp_cli *cli, int argc, char **argv);
static int cmd_summary(struct pp_cli *cli, int argc, char **argv);
static int cmd_ls(struct pp_cli *cli, int argc, char **argv);
static int cmd_help(struct pp_cli *cli, int argc, char **argv);
static int cmd_version(struct pp_cli *cli, int argc, char **argv);

#define N	PP_COMP_NONE, NULL

/*
 * The commands: name, function, arguments (after the command's own
 * options, which are in options.c), help line, why --json is refused,
 * how the first argument and the rest complete.
 */
const struct pp_command pp_commands[] = {
	{ "list", cmd_list, "[GROUP]", "list the benchmarks, one per line", NULL,
	  PP_COMP_BENCH, NULL, N, false },
	{ "run", cmd_run, "[NAME|GROUP...]", "run benchmarks (default: the LMBench set; others by name)", NULL,
	  PP_COMP_BENCH, NULL, PP_COMP_BENCH, NULL, false },
	{ "syscall", cmd_syscall, "", "the Processor, Processes table (group proc)", NULL, N, N, false },
	{ "summary", cmd_summary, "RUNS...", "lmbench tables, one row per run (files, dirs, labels, latest)",
	  "the result files already are JSON", PP_COMP_RUN, NULL, PP_COMP_RUN, NULL, false },
	{ "ls", cmd_ls, "", "list the saved runs, or those matching", NULL, N, N, false },
	{ "compare", pp_cmd_compare, "BASE NEW...", "did NEW regress against BASE? verdicts per key (files, dirs, labels, latest)",
	  NULL, PP_COMP_RUN, NULL, PP_COMP_RUN, NULL, false },
	{ "report", pp_cmd_report, "RUNS... -o OUT", "one HTML page (or SVG files) of runs: tables, curves, bars, compare",
	  "a report is HTML or SVG (--format)", PP_COMP_RUN, NULL, PP_COMP_RUN, NULL, false },
	{ "import", pp_cmd_import, "lmbench|lava FILE... [-o DIR]", "lmbench results, or LAVA jobs' results, as perfprobe runs",
	  "it writes result files, which are JSON", PP_COMP_WORDS, "lmbench lava", PP_COMP_FILE, NULL, false },
	{ "export", pp_cmd_export, "--csv|--lava|--folded RUNS... [-o FILE]", "every result as a flat CSV row or a LAVA lava-test-case line; the profiles as collapsed stacks",
	  "the result files already are JSON", PP_COMP_RUN, NULL, PP_COMP_RUN, NULL, false },
	{ "kernel-view", pp_cmd_kernel_view, "status", "which kernel-view backend (perfprobe.ko, BPF) would be used; each probe: how, or why not",
	  NULL, PP_COMP_WORDS, "status", N, false },
	{ "kmod", pp_cmd_kmod, "status|check KO", "perfprobe.ko: loaded? what it can do; does KO fit this kernel", NULL,
	  PP_COMP_WORDS, "status check", PP_COMP_FILE, "*.ko", false },
	{ "copy", pp_cmd_copy, "", "copy_from/to_user bandwidth beside memcpy (perfprobe.ko)", NULL, N, N, false },
	{ "timer", pp_cmd_timer, "", "hrtimer expiry lateness (perfprobe.ko)", NULL, N, N, false },
	{ "trace", pp_cmd_trace, "-- CMD...", "per-syscall kernel times of a command (perfprobe.ko or BPF)", NULL,
	  PP_COMP_PROGRAM, NULL, N, false },
	{ "netserver", pp_cmd_netserver, "", "serve the net benchmarks' tests",
	  "a server prints no document", N, N, false },
	{ "help", cmd_help, "[COMMAND]", "this text, or a command's usage, options and example", "help is text",
	  PP_COMP_CMD, NULL, N, false },
	{ "version", cmd_version, "", "print the version", NULL, N, N, false },
	{ "gen-options", pp_cmd_gen_options, "WHAT", "the generated parts of the docs and completion (make options)",
	  "it prints reST and shell", N, N, true },
};

#undef N

const unsigned int pp_ncommands = ARRAY_SIZE(pp_commands);

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: perfprobe [OPTIONS] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < pp_ncommands; i++)
		if (!pp_commands[i].hidden)
			fprintf(f, "  %-11s %s\n", pp_commands[i].name, pp_commands[i].help);
	fprintf(f, "\noptions (anywhere up to '--'; a command's own: perfprobe help COMMAND):\n");
	pp_options_print(f, NULL);
	fprintf(f,
		"\nexit codes: 0 all ran, 1 failure, 2 usage error, 3 bad result file,\n"
		"            4 some benchmarks skipped (the rest ran); compare: 5 a regression,\n"
		"            6 not comparable (nothing can pass; --strict: any warning);\n"
		"            129, 130, 143: run stopped by SIGHUP,\n"
		"            SIGINT, SIGTERM (the results so far kept)\n");
}

static int check_cpu(const char *arg, int *cpu)
{
	cpu_set_t set;
	uint64_t v;

	if (pp_parse_u64(arg, 0, CPU_SETSIZE - 1, &v))
		return pp_usage_err("--cpu: '%s' is not a CPU number", arg);
	if (sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET((int)v, &set))
		return pp_usage_err("--cpu: CPU %s is not online or not allowed here", arg);
	*cpu = (int)v;
	return 0;
}

struct parse_state {
	bool quick, full;
};

/*
 * One global option; 0 or PP_EXIT_USAGE.  Long as the option table is:
 * a flat switch, a case an option.
 */
static int global_opt(struct pp_cli *cli, struct parse_state *ps, int c)
{
	uint64_t v;
	double d;

	switch (c) {
	case PP_OPT_JSON:
		cli->json = true;
		break;
	case PP_OPT_OUTPUT:
		if (!*optarg)
			return pp_usage_err("-o: empty file name");
		cli->out = optarg;
		break;
	case PP_OPT_REPEAT:
		if (pp_parse_u64(optarg, 1, PP_MAX_SAMPLES, &v))
			return pp_usage_err("--repeat: '%s' is not a number from 1 to %d",
					 optarg, PP_MAX_SAMPLES);
		cli->opts.samples = (unsigned int)v;
		cli->repeat_set = true;
		break;
	case PP_OPT_ROUNDS:
		if (pp_parse_u64(optarg, 1, PP_MAX_ROUNDS, &v))
			return pp_usage_err("--rounds: '%s' is not a number from 1 to %d",
					 optarg, PP_MAX_ROUNDS);
		cli->opts.rounds = (unsigned int)v;
		break;
	case PP_OPT_PROFILE_SAMPLES:
		if (pp_parse_u64(optarg, 1, PP_MAX_PROFILE_SAMPLES, &v))
			return pp_usage_err("--profile-samples: '%s' is not a number from 1 to %d",
					 optarg, PP_MAX_PROFILE_SAMPLES);
		cli->opts.profile_samples = (unsigned int)v;
		break;
	case PP_OPT_VMLINUX:
		cli->opts.vmlinux = optarg;
		break;
	case PP_OPT_CPU:
		return check_cpu(optarg, &cli->opts.pin_cpu);
	case PP_OPT_QUICK:
		ps->quick = true;
		break;
	case PP_OPT_FULL:
		ps->full = true;
		break;
	case PP_OPT_QUIET:
		cli->opts.quiet = true;
		break;
	case PP_OPT_VERBOSE:
		pp_set_verbosity(pp_verbosity() + 1);
		break;
	case PP_OPT_HELP:
		cli->help = true;
		break;
	case PP_OPT_VERSION:
		cli->version = true;
		break;
	case PP_OPT_RESULTS_DIR:
		if (!*optarg)
			return pp_usage_err("--results-dir: empty directory name");
		cli->results_dir = optarg;
		break;
	case PP_OPT_NO_SAVE:
		cli->no_save = true;
		break;
	case PP_OPT_TMPDIR:
		if (access(optarg, W_OK | X_OK))
			return pp_usage_err("--tmpdir: '%s' is not a writable directory",
					 optarg);
		cli->opts.tmpdir = optarg;
		break;
	case PP_OPT_LABEL:
		if (!pp_label_valid(optarg))
			return pp_usage_err("--label: '%s': 1 to 63 letters, digits or . _ + - (not 'latest')",
					 optarg);
		cli->label = optarg;
		break;
	case PP_OPT_KERNEL_VIEW: {
		enum pp_kv_mode m;

		if (pp_kview_mode_parse(optarg, &m))
			return pp_usage_err("--kernel-view: '%s': say auto, kmod, bpf or off", optarg);
		cli->kview_mode = m;
		break;
	}
	case PP_OPT_NOISE:
		if (pp_parse_double(optarg, 0.01, 1000, &d))
			return pp_usage_err("--noise: '%s' is not a percentage", optarg);
		cli->opts.noise_pct = d;
		break;
	default:
		return pp_usage_err("option id %d has no case in global_opt()", c);
	}
	return 0;
}

/*
 * getopt_long()'s tables for the options after CMD's word (NULL: before
 * any command word), from pp_options[]: the global ones, but for those a
 * command's own option of the same long name shadows, and the command's
 * own.  getopt gives a long option as PP_OPT_VAL + its index, a short
 * one as its letter.
 */
#define PP_OPT_VAL	0x10000

struct opt_tables {
	char *so;
	struct option *lo;
};

static bool opt_applies(const struct pp_option *o, const char *cmd)
{
	if (!o->cmd)
		return pp_option_find(cmd, o->name, 0) == o;
	return cmd && !strcmp(o->cmd, cmd);
}

static int build_tables(const char *cmd, struct opt_tables *t)
{
	unsigned int i, n = 0;
	char *p;

	t->so = calloc(3 * pp_noptions + 3, 1);
	t->lo = calloc(pp_noptions + 1, sizeof(*t->lo));
	if (!t->so || !t->lo) {
		free(t->so);
		free(t->lo);
		pp_err("out of memory");
		return PP_EXIT_FAIL;
	}
	p = t->so;
	if (!cmd)
		*p++ = '+';	/* stop at the command word */
	*p++ = ':';
	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *o = &pp_options[i];

		if (!opt_applies(o, cmd))
			continue;
		t->lo[n].name = o->name;
		t->lo[n].has_arg = o->metavar ? required_argument : no_argument;
		t->lo[n++].val = PP_OPT_VAL + (int)i;
		if (o->letter) {
			*p++ = o->letter;
			if (o->metavar)
				*p++ = ':';
		}
	}
	return 0;
}

static void free_tables(struct opt_tables *t)
{
	free(t->so);
	free(t->lo);
}

/* The command's options of the last parse: one buffer, grown as needed. */
static struct pp_cli_opt *copts_buf;
static size_t copts_cap;

static int add_copt(struct pp_cli *cli, const struct pp_option *o, const char *arg)
{
	if ((size_t)cli->ncopts == copts_cap) {
		size_t cap = copts_cap ? 2 * copts_cap : 16;
		struct pp_cli_opt *p = realloc(copts_buf, cap * sizeof(*p));

		if (!p) {
			pp_err("out of memory");
			return PP_EXIT_FAIL;
		}
		copts_buf = p;
		copts_cap = cap;
	}
	cli->copts = copts_buf;
	cli->copts[cli->ncopts].val = o->id;
	cli->copts[cli->ncopts].name = o->name;
	cli->copts[cli->ncopts++].arg = arg;
	return 0;
}

/*
 * The options up to the command word (cmd NULL) or after it (argv[0] is
 * the word): each global one to global_opt(), each of the command's own
 * to cli->copts[].
 */
static int parse_opts(struct pp_cli *cli, struct parse_state *ps,
		      const char *cmd, int argc, char **argv)
{
	const struct pp_option *o;
	struct opt_tables t;
	int c, ret;

	ret = build_tables(cmd, &t);
	if (ret)
		return ret;
	optind = 0;	/* 0: a full reset of glibc's getopt state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, t.so, t.lo, NULL)) != -1) {
		if (c == ':') {
			ret = pp_usage_err("%s%soption '%s' needs a value", cmd ? cmd : "",
					   cmd ? ": " : "", argv[optind - 1]);
			break;
		}
		if (c == '?') {
			if (optopt && optopt < PP_OPT_VAL)
				ret = pp_usage_err("%s%sunknown option '-%c'", cmd ? cmd : "",
						   cmd ? ": " : "", optopt);
			else
				ret = pp_usage_err("%s%sunknown option '%s'", cmd ? cmd : "",
						   cmd ? ": " : "", argv[optind - 1]);
			break;
		}
		o = c >= PP_OPT_VAL ? &pp_options[c - PP_OPT_VAL] : pp_option_find(cmd, NULL, (char)c);
		if (!o) {	/* not in the table: cannot happen */
			ret = pp_usage_err("unknown option '-%c'", c);
			break;
		}
		ret = o->cmd ? add_copt(cli, o, optarg) : global_opt(cli, ps, o->id);
		if (ret)
			break;
	}
	free_tables(&t);
	return ret;
}

int pp_cli_parse(int argc, char **argv, struct pp_cli *cli)
{
	struct parse_state ps = { false, false };
	int ret;

	memset(cli, 0, sizeof(*cli));
	cli->opts.samples = DEFAULT_SAMPLES;
	cli->opts.rounds = 1;
	cli->opts.target_ms = DEFAULT_TARGET_MS;
	cli->opts.noise_pct = DEFAULT_NOISE_PCT;
	cli->opts.profile_samples = PP_PROFILE_SAMPLES;
	cli->opts.pin_cpu = -1;
	cli->argc = argc;
	cli->argv = argv;

	/* Up to the command word, then the rest knowing the command. */
	ret = parse_opts(cli, &ps, NULL, argc, argv);
	if (ret)
		return ret;
	if (optind < argc) {
		int first = optind;

		ret = parse_opts(cli, &ps, argv[first], argc - first, argv + first);
		if (ret)
			return ret;
		cli->cmd = argv[first];
		cli->args = argv + first + optind;
		cli->nargs = argc - first - optind;
	}
	if (ps.quick && ps.full)
		return pp_usage_err("--quick and --full exclude each other");
	cli->opts.quick = ps.quick;
	cli->opts.full = ps.full;
	if (ps.quick) {
		cli->opts.target_ms = QUICK_TARGET_MS;
		if (!cli->repeat_set)
			cli->opts.samples = QUICK_SAMPLES;
	} else if (ps.full) {
		cli->opts.target_ms = FULL_TARGET_MS;
		if (!cli->repeat_set)
			cli->opts.samples = FULL_SAMPLES;
	}
	return 0;
}

/* --- list --- */

/* One benchmark: a line, and with -v (text) or --json its declared keys. */
static void list_bench(const struct pp_bench *b)
{
	const struct pp_key_decl *k;

	pp_print_open_object(NULL);
	pp_print_string(PP_ANY, "name", "%-16s ", b->name);
	pp_print_string(PP_ANY, "group", "%-7s ", b->group);
	pp_print_string(PP_ANY, "summary", "%s", b->summary);
	/* what `run` with no names leaves out */
	pp_print_text("%s\n", b->by_name ? " (by name)" : "");
	pp_print_bool(PP_JSON, "default", NULL, !b->by_name);
	pp_print_open_array("keys");
	for (k = b->keys; (pp_verbosity() || pp_print_json()) && k && k->pattern; k++) {
		pp_print_open_object(NULL);
		pp_print_string(PP_ANY, "pattern", "                  %-32s ", k->pattern);
		pp_print_string(PP_ANY, "unit", "%-8s ", k->unit);
		pp_print_string(PP_ANY, "direction", "%-6s ", pp_dir_name(k->dir));
		pp_print_string(PP_ANY, "description", "%s", k->desc);
		pp_print_string(k->kind ? PP_ANY : PP_JSON, "kind", " (%s)", pp_kind_name(k->kind));
		if (k->spread_pct > 0)
			pp_print_double(PP_ANY, "spread_pct", " (spread by nature %.0f%%)",
					k->spread_pct);
		pp_print_text("\n");
		pp_print_close_object();
	}
	pp_print_close_array();
	pp_print_close_object();
}

/* Text: one line a benchmark, -v adds its declared keys; --json: all of it. */
static int cmd_list(struct pp_cli *cli, int argc, char **argv)
{
	unsigned int i;

	if (argc > 1)
		return pp_usage_err("list: at most one group");
	if (argc == 1 && !pp_group_valid(argv[0]))
		return pp_usage_err("list: unknown group '%s'", argv[0]);
	pp_print_start(stdout, cli->json);
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-list");
	pp_print_open_array("benchmarks");
	for (i = 0; i < pp_nbenches; i++)
		if (argc == 0 || !strcmp(pp_benches[i]->group, argv[0]))
			list_bench(pp_benches[i]);
	pp_print_close_array();
	return pp_print_done();
}

/* --- run --- */

/* The run's text: the lmbench tables, the kernel view, the notes. */
static void run_text(const struct pp_run *run, void *arg)
{
	(void)arg;
	pp_print_tables(stdout, run, 1);
	pp_kview_print(run);
	putchar('\n');
	if (pp_verbosity())
		pp_print_flat(stdout, run, true);
	pp_print_notes(stdout, run, 1);
}

/*
 * One benchmark of the set, the done-th of all rounds': false when a
 * signal stopped the run (what it finished is kept; it did not fail).
 */
static bool run_one(struct pp_ctx *ctx, struct pp_run *run, const struct pp_bench *b,
		    unsigned int done)
{
	const char *why;
	int r;

	ctx->bench = b->name;
	ctx->keys = b->keys;
	pp_progress_begin(ctx, done);
	ctx->failmsg[0] = '\0';
	ctx->kv_iters = 0;
	pp_progress(ctx, "%s: %s", b->name, b->summary);
	r = b->run(ctx);
	pp_tmp_cleanup();
	if (pp_interrupted) {
		run->interrupted = true;
		fprintf(stderr, "perfprobe: interrupted by SIG%s during %s: keeping the %zu results measured, %u of %u benchmarks done\n",
			sigabbrev_np(pp_interrupted) ?: "?", b->name, run->nresults, done,
			ctx->total);
		return false;
	}
	if (r < 0) {
		why = ctx->failmsg[0] ? ctx->failmsg : "unknown error";
		pp_err("[%u/%u] %s: failed: %s", done + 1, ctx->total, b->name, why);
		pp_run_fail(run, b->name, why);
		ctx->bench_failed = true;
	}
	pp_progress_end(ctx);
	return true;
}

static int run_benches(struct pp_cli *cli, const struct pp_bench **list,
		       unsigned int n, const char *tag)
{
	unsigned int i, rounds = cli->opts.rounds ? cli->opts.rounds : 1;
	bool going = true;
	struct pp_run run;
	struct pp_ctx ctx;
	int ret;

	ret = pp_cmd_run_start(cli, &ctx, &run);
	if (ret)
		return ret;
	if (pp_kview_setup(&ctx, cli->kview_mode)) {
		pp_run_free(&run);
		return PP_EXIT_FAIL;
	}
	ctx.total = n * rounds;
	if (!ctx.opts.quiet)
		pp_err("%u benchmark%s%s, %u samples of %.0f ms each, %s", n, n == 1 ? "" : "s",
		       rounds > 1 ? ", in rounds" : "", ctx.opts.samples, ctx.opts.target_ms,
		       ctx.opts.pin_cpu >= 0 ? "pinned" : "not pinned (use --cpu N to pin)");

	pp_interrupt_enable();
	/*
	 * --rounds: the whole set, again and again, so that each key's
	 * rounds are spread over the run and their spread is a run-level
	 * one (drift over the run), not only that of adjacent samples.
	 */
	for (ctx.round = 0; going && ctx.round < rounds; ctx.round++)
		for (i = 0; going && i < n; i++)
			going = run_one(&ctx, &run, list[i], ctx.round * n + i);
	pp_status_end();
	return pp_cmd_run_finish(cli, &ctx, tag, run_text, NULL);
}

static bool listed(const struct pp_bench **list, unsigned int n,
		   const struct pp_bench *b)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == b)
			return true;
	return false;
}

static int select_and_run(struct pp_cli *cli, int nnames, char **names,
			  const char *tag)
{
	const struct pp_bench *list[64];
	unsigned int n = 0, i;
	int a;

	if (pp_nbenches > ARRAY_SIZE(list))
		return PP_EXIT_FAIL;
	for (a = 0; a < nnames; a++) {
		const struct pp_bench *b = pp_bench_find(names[a]);

		if (!b && !pp_group_valid(names[a]))
			return pp_usage_err("run: no benchmark or group named '%s'", names[a]);
		for (i = 0; i < pp_nbenches; i++) {
			const struct pp_bench *c = pp_benches[i];

			if ((c == b || !strcmp(c->group, names[a])) && !listed(list, n, c))
				list[n++] = c;
		}
	}
	if (!nnames)	/* the LMBench set; the others only when named */
		for (i = 0; i < pp_nbenches; i++)
			if (!pp_benches[i]->by_name)
				list[n++] = pp_benches[i];
	return run_benches(cli, list, n, tag);
}

/*
 * run --<suite> PATH: the suite's program, for the run and what it
 * starts, in the variable the suite reads (benchlib/suite.h).
 */
static int suite_paths(const struct pp_cli *cli)
{
	char env[64], opt[64];
	unsigned int i;
	int c;

	for (c = 0; c < cli->ncopts; c++) {
		if (!PP_OPT_IS_SUITE(cli->copts[c].val))
			continue;
		for (i = 0; i < pp_nbenches; i++) {
			pp_suite_opt(pp_benches[i]->name, opt, sizeof(opt));
			if (pp_benches[i]->suite && !strcmp(opt, cli->copts[c].name))
				break;
		}
		if (i == pp_nbenches)	/* the option table and the suites disagree */
			return pp_usage_err("run: --%s: no suite of that name", cli->copts[c].name);
		if (!*cli->copts[c].arg)
			return pp_usage_err("run: --%s: give a path", cli->copts[c].name);
		pp_suite_env(pp_benches[i]->name, env, sizeof(env));
		if (setenv(env, cli->copts[c].arg, 1)) {
			pp_err("run: %s: %s", env, strerror(errno));
			return PP_EXIT_FAIL;
		}
	}
	return 0;
}

static int cmd_run(struct pp_cli *cli, int argc, char **argv)
{
	int ret = suite_paths(cli);

	if (ret)
		return ret;
	return select_and_run(cli, argc, argv, "run");
}

static int cmd_syscall(struct pp_cli *cli, int argc, char **argv)
{
	char *proc[] = { "proc" };

	(void)argv;
	if (argc)
		return pp_usage_err("syscall: takes no arguments");
	return select_and_run(cli, 1, proc, "syscall");
}

/* --- summary --- */

static int cmd_summary(struct pp_cli *cli, int argc, char **argv)
{
	struct pp_run *runs;
	size_t i, n;
	int ret;

	if (argc < 1)
		return pp_usage_err("summary: give one or more result files, directories or labels");
	if (cli->json)
		return pp_usage_err("summary: --json is not supported: the files already are JSON");
	ret = pp_runs_load(argv, argc, cli->results_dir, &runs, &n);
	if (ret)
		return ret;
	if (!pp_print_tables(stdout, runs, n))
		printf("(no results that belong in a summary table)\n");
	putchar('\n');
	if (pp_verbosity())
		for (i = 0; i < n; i++) {
			printf("%s (%s):\n", runs[i].meta.label, runs[i].meta.release);
			pp_print_flat(stdout, &runs[i], true);
		}
	pp_print_notes(stdout, runs, n);
	for (i = 0; i < n; i++)
		pp_run_free(&runs[i]);
	free(runs);
	return 0;
}

/* --- ls --- */

struct ls_row {
	struct pp_meta meta;
	size_t nresults;
	bool interrupted;
	const char *path;
};

static int cmp_ls_row(const void *a, const void *b)
{
	const struct ls_row *x = a, *y = b;
	int c = strcmp(x->meta.date, y->meta.date);

	return c ? c : strcmp(x->path, y->path);
}

static void ls_print(const struct ls_row *rows, size_t n)
{
	size_t i;

	pp_print_text("%-20s %-24s %-24s %-7s %-5s %7s  %s\n", "date", "label", "kernel",
		      "mode", "cpu", "results", "file");
	pp_print_open_array("runs");
	for (i = 0; i < n; i++) {
		const struct pp_meta *m = &rows[i].meta;
		char cpu[16];

		snprintf(cpu, sizeof(cpu), "%d", m->pin_cpu);
		pp_print_open_object(NULL);
		pp_print_string(PP_ANY, "date", "%-20s", m->date);
		pp_print_string(PP_ANY, "label", " %-24s", m->label);
		pp_print_string(PP_ANY, "kernel", " %-24s", m->release);
		pp_print_string(PP_ANY, "mode", " %-7s", m->mode);
		pp_print_int(PP_JSON, "pin_cpu", NULL, m->pin_cpu);
		pp_print_string(PP_FP, NULL, " %-5s", m->pin_cpu < 0 ? "-" : cpu);
		pp_print_u64(PP_ANY, "results", " %7llu", rows[i].nresults);
		pp_print_string(PP_ANY, "file", "  %s", rows[i].path);
		pp_print_bool(PP_JSON, "interrupted", NULL, rows[i].interrupted);
		pp_print_text("%s\n", rows[i].interrupted ? "  (interrupted: partial)" : "");
		pp_print_close_object();
	}
	pp_print_close_array();
}

/* The saved runs of all whose kernel and label match the globs (NULL: any), by date. */
static size_t ls_rows(const struct pp_runsel *all, const char *kernel, const char *label,
		      struct ls_row *rows)
{
	char err[512];
	size_t i, n = 0;

	for (i = 0; i < all->n; i++) {
		struct pp_run run;

		if (pp_run_load(&run, all->paths[i], err, sizeof(err))) {
			fprintf(stderr, "perfprobe: ls: skipped: %s\n", err);
			continue;
		}
		if ((!kernel || !fnmatch(kernel, run.meta.release, 0)) &&
		    (!label || !fnmatch(label, run.meta.label, 0))) {
			rows[n].meta = run.meta;
			rows[n].nresults = run.nresults;
			rows[n].interrupted = run.interrupted;
			rows[n].path = all->paths[i];
			n++;
		}
		pp_run_free(&run);
	}
	qsort(rows, n, sizeof(*rows), cmp_ls_row);
	return n;
}

static int cmd_ls(struct pp_cli *cli, int argc, char **argv)
{
	const char *kernel = NULL, *label = NULL;
	struct pp_runsel all = { 0 };
	struct ls_row *rows;
	char dir[PATH_MAX];
	size_t n;
	int c, ret;

	(void)argv;
	/* after the word ls, --label is ls's own; before it, it names a run */
	if (cli->label)
		return pp_usage_err("ls: --label before ls names a run, which ls does not make; to filter: perfprobe ls --label GLOB");
	if (argc)
		return pp_usage_err("ls: takes no arguments (--kernel GLOB and --label GLOB filter)");
	for (c = 0; c < cli->ncopts; c++) {
		if (cli->copts[c].val == 'k')
			kernel = cli->copts[c].arg;
		else if (cli->copts[c].val == PP_OPT_LS_LABEL)
			label = cli->copts[c].arg;
	}
	if (cli->results_dir)
		pp_strlcpy(dir, cli->results_dir, sizeof(dir));
	else if (pp_results_default_dir(dir, sizeof(dir)))
		return pp_usage_err("ls: no results directory (no $HOME): give --results-dir DIR");
	ret = pp_runsel_scan(dir, &all);
	if (ret && ret != -ENOENT) {
		pp_err("ls: %s: %s", dir, strerror(-ret));
		ret = PP_EXIT_FAIL;
		goto free_all;
	}
	rows = calloc(all.n ? all.n : 1, sizeof(*rows));
	if (!rows) {
		ret = PP_EXIT_FAIL;
		goto free_all;
	}
	n = ls_rows(&all, kernel, label, rows);
	pp_print_start(stdout, cli->json);
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-ls");
	pp_print_string(PP_JSON, "results_dir", NULL, dir);
	ls_print(rows, n);
	if (!n)
		pp_print_text("(no saved runs%s in %s)\n", kernel || label ? " that match" : "", dir);
	ret = pp_print_done();
	free(rows);
free_all:
	pp_runsel_free(&all);
	return ret;
}

static int cmd_help(struct pp_cli *cli, int argc, char **argv)
{
	(void)cli;
	if (argc > 1)
		return pp_usage_err("help: one command at a time");
	if (argc == 1) {
		if (!pp_command_find(argv[0]))
			return pp_usage_err("help: unknown command '%s'", argv[0]);
		return pp_cmd_help_text(argv[0], stdout) ? PP_EXIT_FAIL : 0;
	}
	usage(stdout);
	return 0;
}

static int cmd_version(struct pp_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	pp_print_start(stdout, cli->json);
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-version");
	pp_print_string(PP_ANY, "version", "perfprobe %s\n", PP_VERSION);
	return pp_print_done();
}

int pp_main(int argc, char **argv)
{
	const struct pp_command *cmd;
	struct pp_cli cli;
	int ret;

	ret = pp_cli_parse(argc, argv, &cli);
	if (ret)
		return ret;
	if (cli.version)
		return cmd_version(&cli, 0, NULL);
	cmd = cli.cmd ? pp_command_find(cli.cmd) : NULL;
	if (cli.help && cmd)		/* perfprobe COMMAND --help */
		return pp_cmd_help_text(cmd->name, stdout) ? PP_EXIT_FAIL : 0;
	if (cli.help || !cli.cmd) {
		usage(cli.cmd || cli.help ? stdout : stderr);
		return cli.help ? 0 : PP_EXIT_USAGE;
	}
	if (!cmd)
		return pp_usage_err("unknown command '%s'", cli.cmd);
	/* --json: a document from every command that prints data, else refused */
	if (cli.json && cmd->nojson)
		return pp_usage_err("%s: --json is not supported: %s", cmd->name, cmd->nojson);
	return cmd->fn(&cli, cli.nargs, cli.args);
}
