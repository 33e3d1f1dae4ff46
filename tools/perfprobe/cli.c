// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: the command line.  Commands live in one table (cmds[]);
 * global options may appear anywhere on the line.
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
#include "cli.h"
#include "commands.h"
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

struct cmd {
	const char *name;
	int (*fn)(struct pp_cli *cli, int argc, char **argv);
	const char *args;
	const char *help;
	const struct pp_cmd_opts *opts;	/* the command's own options */
	const char *nojson;	/* why --json is refused; NULL: it is honoured */
};

static int cmd_list(struct pp_cli *cli, int argc, char **argv);
static int cmd_run(struct pp_cli *cli, int argc, char **argv);
static int cmd_syscall(struct pp_cli *cli, int argc, char **argv);
static int cmd_summary(struct pp_cli *cli, int argc, char **argv);
static int cmd_ls(struct pp_cli *cli, int argc, char **argv);

static const struct option ls_longopts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 }
};

static const struct pp_cmd_opts ls_opts = { "k:", ls_longopts };
static int cmd_help(struct pp_cli *cli, int argc, char **argv);
static int cmd_version(struct pp_cli *cli, int argc, char **argv);

static const struct cmd cmds[] = {
	{ "list", cmd_list, "[GROUP]", "list the benchmarks, one per line", NULL, NULL },
	{ "run", cmd_run, "[NAME|GROUP...]", "run benchmarks (default: the LMBench set; others by name)", NULL, NULL },
	{ "syscall", cmd_syscall, "", "the Processor, Processes table (group proc)", NULL, NULL },
	{ "summary", cmd_summary, "RUNS...", "lmbench tables, one row per run (files, dirs, labels, latest)", NULL,
	  "the result files already are JSON" },
	{ "ls", cmd_ls, "[--kernel K] [--label L]", "list the saved runs", &ls_opts, NULL },
	{ "compare", pp_cmd_compare, "[-t PCT] BASE NEW...", "did NEW regress against BASE? verdicts per key (files or dirs)", &pp_compare_opts, NULL },
	{ "report", pp_cmd_report, "[--format svg] RUNS... -o OUT", "one HTML page (or SVG files) of runs: tables, curves, bars, compare", &pp_report_opts,
	  "a report is HTML or SVG (--format)" },
	{ "import", pp_cmd_import, "lmbench FILE... [-o DIR]", "lmbench results files or summaries as perfprobe runs", NULL,
	  "it writes result files, which are JSON" },
	{ "export", pp_cmd_export, "--csv RUNS... [-o FILE]", "every result as a flat CSV row (key, unit, value, median, min, max, cv)", &pp_export_opts,
	  "the result files already are JSON" },
	{ "kernel-view", pp_cmd_kernel_view, "status", "which kernel-view backend (perfprobe.ko, BPF) would be used; each probe: how, or why not", NULL, NULL },
	{ "kmod", pp_cmd_kmod, "status|check KO", "perfprobe.ko: loaded? what it can do; does KO fit this kernel", NULL, NULL },
	{ "copy", pp_cmd_copy, "[-d DIR -s LIST]", "copy_from/to_user bandwidth beside memcpy (perfprobe.ko)", &pp_copy_opts, NULL },
	{ "timer", pp_cmd_timer, "[-p NS -n N]", "hrtimer expiry lateness (perfprobe.ko)", &pp_timer_opts, NULL },
	{ "trace", pp_cmd_trace, "[-H] [--all] -- CMD...", "per-syscall kernel times of a command (perfprobe.ko or BPF)", &pp_trace_opts, NULL },
	{ "netserver", pp_cmd_netserver, "[-b ADDR...]", "serve the net benchmarks' tests", &pp_netserver_opts,
	  "a server prints no document" },
	{ "help", cmd_help, "[COMMAND]", "this text, or a command's usage, options and example", NULL,
	  "help is text" },
	{ "version", cmd_version, "", "print the version", NULL, NULL },
};

enum {
	OPT_RESULTS_DIR = 256,
	OPT_NO_SAVE,
	OPT_TMPDIR,
	OPT_LABEL,
	OPT_NOISE,
	OPT_KERNEL_VIEW,
	OPT_FULL,
	OPT_VERSION,
	OPT_QUIET,
};

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "quick", no_argument, NULL, 'q' },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "results-dir", required_argument, NULL, OPT_RESULTS_DIR },
	{ "no-save", no_argument, NULL, OPT_NO_SAVE },
	{ "tmpdir", required_argument, NULL, OPT_TMPDIR },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "kernel-view", required_argument, NULL, OPT_KERNEL_VIEW },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ NULL, 0, NULL, 0 }
};

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: perfprobe [OPTIONS] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %-9s %-16s %s\n", cmds[i].name, cmds[i].args, cmds[i].help);
	fprintf(f,
		"\noptions:\n"
		"  --json            stdout is one JSON document (progress stays on stderr)\n"
		"  -o, --output FILE also write the results to FILE (atomically)\n"
		"  -r, --repeat N    samples per result (default %d, the median is reported)\n"
		"  -c, --cpu N       pin the benchmarks and their children to CPU N\n"
		"  -q, --quick       short runs for smoke tests\n"
		"      --full        long runs for publication\n"
		"      --noise PCT   mark results whose CV exceeds PCT%% (default %.0f)\n"
		"      --results-dir DIR  where runs are saved (default ~/.local/share/perfprobe/results)\n"
		"      --no-save     do not save the run under the results directory\n"
		"      --tmpdir DIR  where temporary files go (default $TMPDIR or /tmp)\n"
		"      --label NAME  name the run (default: the kernel release) for ls, summary, compare\n"
		"      --kernel-view auto|kmod|bpf|off  the kernel's figures for each result, from\n"
		"                    perfprobe.ko or BPF (default auto: the module if loaded, else BPF)\n"
		"  -v, --verbose     more detail: every result with its spread\n"
		"      --quiet       no progress on stderr (errors and notes still; -q is --quick)\n"
		"  -h, --help        this text;  --version  the version\n"
		"\nexit codes: 0 all ran, 1 failure, 2 usage error, 3 bad result file,\n"
		"            4 some benchmarks skipped (the rest ran)\n",
		DEFAULT_SAMPLES, DEFAULT_NOISE_PCT);
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

/* One global option; 0 or PP_EXIT_USAGE. */
static int global_opt(struct pp_cli *cli, struct parse_state *ps, int c,
		      char **argv)
{
	uint64_t v;
	double d;

	switch (c) {
	case 'j':
		cli->json = true;
		break;
	case 'o':
		if (!*optarg)
			return pp_usage_err("-o: empty file name");
		cli->out = optarg;
		break;
	case 'r':
		if (pp_parse_u64(optarg, 1, PP_MAX_SAMPLES, &v))
			return pp_usage_err("--repeat: '%s' is not a number from 1 to %d",
					 optarg, PP_MAX_SAMPLES);
		cli->opts.samples = (unsigned int)v;
		cli->repeat_set = true;
		break;
	case 'c':
		return check_cpu(optarg, &cli->opts.pin_cpu);
	case 'q':
		ps->quick = true;
		break;
	case OPT_FULL:
		ps->full = true;
		break;
	case OPT_QUIET:
		cli->opts.quiet = true;
		break;
	case 'v':
		pp_set_verbosity(pp_verbosity() + 1);
		break;
	case 'h':
		cli->help = true;
		break;
	case OPT_VERSION:
		cli->version = true;
		break;
	case OPT_RESULTS_DIR:
		if (!*optarg)
			return pp_usage_err("--results-dir: empty directory name");
		cli->results_dir = optarg;
		break;
	case OPT_NO_SAVE:
		cli->no_save = true;
		break;
	case OPT_TMPDIR:
		if (access(optarg, W_OK | X_OK))
			return pp_usage_err("--tmpdir: '%s' is not a writable directory",
					 optarg);
		cli->opts.tmpdir = optarg;
		break;
	case OPT_LABEL:
		if (!pp_label_valid(optarg))
			return pp_usage_err("--label: '%s': 1 to 63 letters, digits or . _ + - (not 'latest')",
					 optarg);
		cli->label = optarg;
		break;
	case OPT_KERNEL_VIEW: {
		enum pp_kv_mode m;

		if (pp_kview_mode_parse(optarg, &m))
			return pp_usage_err("--kernel-view: '%s': say auto, kmod, bpf or off", optarg);
		cli->kview_mode = m;
		break;
	}
	case OPT_NOISE:
		if (pp_parse_double(optarg, 0.01, 1000, &d))
			return pp_usage_err("--noise: '%s' is not a percentage", optarg);
		cli->opts.noise_pct = d;
		break;
	case ':':
		return pp_usage_err("option '%s' needs a value", argv[optind - 1]);
	default:
		if (optopt)
			return pp_usage_err("unknown option '-%c'", optopt);
		return pp_usage_err("unknown option '%s'", argv[optind - 1]);
	}
	return 0;
}

static const struct cmd *find_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* The global options plus those of the command, for getopt_long(). */
static void merge_opts(const struct pp_cmd_opts *co, char *shortopts,
		       size_t size, struct option *lo, size_t nlo)
{
	size_t n = 0, i;

	snprintf(shortopts, size, ":jo:r:c:qvh%s", co ? co->shortopts : "");
	for (i = 0; long_opts[i].name && n + 1 < nlo; i++)
		lo[n++] = long_opts[i];
	for (i = 0; co && co->longopts[i].name && n + 1 < nlo; i++)
		lo[n++] = co->longopts[i];
	memset(&lo[n], 0, sizeof(lo[n]));
}

static bool is_cmd_opt(const struct pp_cmd_opts *co, int c)
{
	unsigned int i;

	for (i = 0; co && co->longopts[i].name; i++)
		if (co->longopts[i].val == c)
			return true;
	return false;
}

/*
 * Options after the command word: the global ones and the command's own,
 * anywhere (argv[0] is the command word).
 */
static int parse_cmd_line(struct pp_cli *cli, struct parse_state *ps,
			  const struct cmd *cmd, int argc, char **argv)
{
	const struct pp_cmd_opts *co = cmd ? cmd->opts : NULL;
	struct option lo[64];
	char so[64];
	int c, ret;

	merge_opts(co, so, sizeof(so), lo, ARRAY_SIZE(lo));
	optind = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (is_cmd_opt(co, c) && cli->ncopts < PP_CLI_MAX_COPTS) {
			cli->copts[cli->ncopts].val = c;
			cli->copts[cli->ncopts++].arg = optarg;
			continue;
		}
		ret = global_opt(cli, ps, c, argv);
		if (ret)
			return ret;
	}
	cli->cmd = argv[0];
	cli->args = argv + optind;
	cli->nargs = argc - optind;
	return 0;
}

int pp_cli_parse(int argc, char **argv, struct pp_cli *cli)
{
	struct parse_state ps = { false, false };
	int c, ret;

	memset(cli, 0, sizeof(*cli));
	cli->opts.samples = DEFAULT_SAMPLES;
	cli->opts.target_ms = DEFAULT_TARGET_MS;
	cli->opts.noise_pct = DEFAULT_NOISE_PCT;
	cli->opts.pin_cpu = -1;
	cli->argc = argc;
	cli->argv = argv;

	/* Up to the command word ('+'), then the rest knowing the command. */
	optind = 0;	/* 0: a full reset of glibc's getopt state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:jo:r:c:qvh", long_opts, NULL)) != -1) {
		ret = global_opt(cli, &ps, c, argv);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		int first = optind;

		ret = parse_cmd_line(cli, &ps, find_cmd(argv[first]), argc - first,
				     argv + first);
		if (ret)
			return ret;
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
	pp_print_text("%s\n", b->not_default ? " (by name)" : "");
	pp_print_bool(PP_JSON, "default", NULL, !b->not_default);
	pp_print_open_array("keys");
	for (k = b->keys; (pp_verbosity() || pp_print_json()) && k && k->pattern; k++) {
		pp_print_open_object(NULL);
		pp_print_string(PP_ANY, "pattern", "                  %-32s ", k->pattern);
		pp_print_string(PP_ANY, "unit", "%-8s ", k->unit);
		pp_print_string(PP_ANY, "direction", "%-6s ", pp_dir_name(k->dir));
		pp_print_string(PP_ANY, "description", "%s", k->desc);
		pp_print_string(k->kind ? PP_ANY : PP_JSON, "kind", " (%s)", pp_kind_name(k->kind));
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

static int run_benches(struct pp_cli *cli, const struct pp_bench **list,
		       unsigned int n, const char *tag)
{
	struct pp_run run;
	struct pp_ctx ctx;
	unsigned int i;
	int ret;

	ret = pp_cmd_run_start(cli, &ctx, &run);
	if (ret)
		return ret;
	if (pp_kview_setup(&ctx, cli->kview_mode)) {
		pp_run_free(&run);
		return PP_EXIT_FAIL;
	}
	ctx.total = n;
	if (!ctx.opts.quiet)
		pp_err("%u benchmark%s, %u samples of %.0f ms each, %s", n, n == 1 ? "" : "s",
		       ctx.opts.samples, ctx.opts.target_ms,
		       ctx.opts.pin_cpu >= 0 ? "pinned" : "not pinned (use --cpu N to pin)");

	pp_interrupt_enable();
	for (i = 0; i < n && !pp_interrupted; i++) {
		int r;

		ctx.bench = list[i]->name;
		ctx.keys = list[i]->keys;
		pp_progress_begin(&ctx, i);
		ctx.failmsg[0] = '\0';
		ctx.kv_iters = 0;
		pp_progress(&ctx, "%s: %s", list[i]->name, list[i]->summary);
		r = list[i]->run(&ctx);
		pp_tmp_cleanup();
		if (pp_interrupted) {
			/* what it finished is kept; it did not fail */
			run.interrupted = true;
			fprintf(stderr, "perfprobe: interrupted by SIG%s during %s: keeping the %zu results measured, %u of %u benchmarks done\n",
				sigabbrev_np(pp_interrupted) ?: "?", list[i]->name,
				run.nresults, i, n);
			break;
		}
		if (r < 0) {
			pp_err("%s: failed: %s", list[i]->name,
			       ctx.failmsg[0] ? ctx.failmsg : "unknown error");
			pp_run_fail(&run, list[i]->name,
				    ctx.failmsg[0] ? ctx.failmsg : "unknown error");
		}
	}
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
			if (!pp_benches[i]->not_default)
				list[n++] = pp_benches[i];
	return run_benches(cli, list, n, tag);
}

static int cmd_run(struct pp_cli *cli, int argc, char **argv)
{
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
		pp_print_string(PP_ANY, "file", "  %s\n", rows[i].path);
		pp_print_close_object();
	}
	pp_print_close_array();
}

static int cmd_ls(struct pp_cli *cli, int argc, char **argv)
{
	const char *kernel = NULL, *label = NULL;
	struct pp_runsel all = { 0 };
	struct ls_row *rows;
	char dir[PATH_MAX], err[512];
	size_t i, n = 0;
	int c, ret;

	(void)argv;
	if (cli->label && !pp_label_valid(cli->label))
		return PP_EXIT_USAGE;
	if (argc)
		return pp_usage_err("ls: takes no arguments (--kernel K and --label L filter)");
	for (c = 0; c < cli->ncopts; c++)
		kernel = cli->copts[c].arg;
	/* --label is a global option: for ls it is the filter */
	label = cli->label;
	if (cli->results_dir)
		pp_strlcpy(dir, cli->results_dir, sizeof(dir));
	else if (pp_results_default_dir(dir, sizeof(dir)))
		return pp_usage_err("ls: no results directory (no $HOME): give --results-dir DIR");
	ret = pp_runsel_scan(dir, &all);
	if (ret && ret != -ENOENT) {
		pp_err("ls: %s: %s", dir, strerror(-ret));
		return PP_EXIT_FAIL;
	}
	rows = calloc(all.n ? all.n : 1, sizeof(*rows));
	if (!rows) {
		pp_runsel_free(&all);
		return PP_EXIT_FAIL;
	}
	for (i = 0; i < all.n; i++) {
		struct pp_run run;

		if (pp_run_load(&run, all.paths[i], err, sizeof(err))) {
			fprintf(stderr, "perfprobe: ls: skipped: %s\n", err);
			continue;
		}
		if ((!kernel || !fnmatch(kernel, run.meta.release, 0)) &&
		    (!label || !fnmatch(label, run.meta.label, 0))) {
			rows[n].meta = run.meta;
			rows[n].nresults = run.nresults;
			rows[n].path = all.paths[i];
			n++;
		}
		pp_run_free(&run);
	}
	qsort(rows, n, sizeof(*rows), cmp_ls_row);
	pp_print_start(stdout, cli->json);
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-ls");
	pp_print_string(PP_JSON, "results_dir", NULL, dir);
	ls_print(rows, n);
	if (!n)
		pp_print_text("(no saved runs%s in %s)\n", kernel || label ? " that match" : "", dir);
	ret = pp_print_done();
	free(rows);
	pp_runsel_free(&all);
	return ret;
}

static int cmd_help(struct pp_cli *cli, int argc, char **argv)
{
	(void)cli;
	if (argc > 1)
		return pp_usage_err("help: one command at a time");
	if (argc == 1) {
		if (!find_cmd(argv[0]))
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
	const struct cmd *cmd;
	struct pp_cli cli;
	int ret;

	ret = pp_cli_parse(argc, argv, &cli);
	if (ret)
		return ret;
	if (cli.version)
		return cmd_version(&cli, 0, NULL);
	cmd = cli.cmd ? find_cmd(cli.cmd) : NULL;
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
