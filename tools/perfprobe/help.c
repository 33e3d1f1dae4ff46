// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe help COMMAND, perfprobe COMMAND --help: each command's usage,
 * its own options and an example.  The global options are in
 * `perfprobe help`; the whole story in Documentation/cli.rst and the man
 * pages made from it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "util.h"

/*
 * What a command is about and an example; its usage line and its options
 * come from the tables (pp_commands[] in cli.c, pp_options[] in options.c).
 */
static const struct {
	const char *name;
	const char *about;
	const char *example;
} helps[] = {
	{ "list",
	  "Every benchmark, one line each: name, group, what it measures; \"(by name)\"\n"
	  "marks those `run` with no names leaves out.  -v adds every result key it\n"
	  "can produce with unit, direction and description.",
	  "perfprobe list ipc" },
	{ "run",
	  "Run benchmarks by name or group; with none, the LMBench set (the groups\n"
	  "proc ctx ipc fsvm bw mem ops).  The others (stream, crypto, net, storage)\n"
	  "run when named.  The run is printed, saved under the results directory\n"
	  "and with -o also written to a file.  Options: the global ones\n"
	  "(perfprobe help): --quick/--full, -r N, --cpu N, --label, --json, -o,\n"
	  "--kernel-view, --no-save.",
	  "perfprobe --cpu 1 --label 6.1 run proc ipc" },
	{ "syscall",
	  "The Processor, Processes table (group proc), with the kernel view of\n"
	  "each system call when perfprobe.ko is loaded or BPF is allowed.",
	  "insmod kmod/perfprobe.ko && perfprobe syscall" },
	{ "summary",
	  "lmbench's summary tables, one row per run.  RUNS: result files,\n"
	  "directories, labels, or latest.  --json is refused: the files are JSON.",
	  "perfprobe summary 6.1 6.12" },
	{ "ls",
	  "The saved runs: date, label, kernel, mode, pinning, results, file.\n"
	  "--label after ls filters; before it, it would name a run.",
	  "perfprobe ls --label '6.*'" },
	{ "compare",
	  "Per key: the change of NEW against BASE with its 95% interval and a\n"
	  "verdict; exit 5 on a regression, 6 when nothing can pass (no key on both\n"
	  "sides, a --fail-on key missing) or, with --strict, on any warning.",
	  "perfprobe compare --sort 6.1 6.12" },
	{ "report",
	  "One self-contained HTML page of the runs (no script, nothing fetched):\n"
	  "tables, the memory-latency curve, bars with spread, compare against the\n"
	  "first run; perfprobe-timer documents add the lateness chart.  --guide:\n"
	  "the vendor performance guide's document of the runs, HTML or Markdown.",
	  "perfprobe report 6.1 6.12 -o report.html" },
	{ "import",
	  "lmbench raw results files and summaries as perfprobe runs (one document a\n"
	  "run, in the results directory or DIR); -v lists what had no key.  lava: a\n"
	  "LAVA job's output directory, dispatcher log or results export (with the\n"
	  "run's JSON the job printed, every sample), a run per test suite.",
	  "perfprobe import lmbench results/x86_64-linux-gnu/host.0" },
	{ "export",
	  "Every result as one CSV row: label, release, date, host, key, unit, value,\n"
	  "median, min, max, mean, cv_pct, n, noisy.  --lava: a lava-test-case line a\n"
	  "result, for a LAVA test shell to run (its headline value the measurement).\n"
	  "--folded: every sampled profile as collapsed stacks, one line a stack,\n"
	  "LABEL@DATE;KEY;frames COUNT, kernel frames marked _[k] (flamegraph.pl,\n"
	  "speedscope, the Firefox profiler).",
	  "perfprobe export --csv latest > latest.csv" },
	{ "kernel-view",
	  "Which backend of the kernel view would be used here (perfprobe.ko, else\n"
	  "BPF), and for each every probe group: how it attaches or why not.",
	  "perfprobe kernel-view status" },
	{ "kmod",
	  "status: perfprobe.ko loaded? its ABI, clocksource and probes.  check: does\n"
	  "the module file KO fit the running kernel (vermagic, ABI)?",
	  "perfprobe kmod check kmod/perfprobe.ko" },
	{ "copy",
	  "copy_from_user, copy_to_user and clear_user bandwidth inside the kernel\n"
	  "(perfprobe.ko) beside memcpy of the same buffer, data verified.",
	  "perfprobe copy --sizes 4k,64k --align 0,7" },
	{ "timer",
	  "How late an hrtimer fires (perfprobe.ko): min, mean, max, log2 histogram.",
	  "perfprobe timer --period 50000 --count 2000" },
	{ "trace",
	  "Per-syscall kernel times and page faults of a command, from perfprobe.ko\n"
	  "or BPF (--kernel-view).",
	  "perfprobe trace -- ls /" },
	{ "netserver",
	  "The far end of the net benchmarks.  --quiet: log only problems\n"
	  "(-q is --quick, as everywhere).",
	  "perfprobe netserver --bind 192.0.2.2" },
	{ "help",
	  "The commands and global options, or one command's usage and options.",
	  "perfprobe help compare" },
	{ "version",
	  "The version.",
	  "perfprobe version" },
};

int pp_cmd_help_text(const char *cmd, FILE *f)
{
	const struct pp_command *c = pp_command_find(cmd);
	unsigned int i;

	if (!c)
		return -1;
	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(helps[i].name, cmd))
			break;
	pp_options_synopsis(f, c->name, c->args);
	fputc('\n', f);
	if (i < ARRAY_SIZE(helps))
		fprintf(f, "%s\n\n", helps[i].about);
	else
		fprintf(f, "%s.\n\n", c->help);
	if (pp_options_print(NULL, c->name)) {
		fprintf(f, "options of %s (the global ones: perfprobe help):\n", c->name);
		pp_options_print(f, c->name);
		fputc('\n', f);
	}
	if (i < ARRAY_SIZE(helps))
		fprintf(f, "example:\n  %s\n", helps[i].example);
	return 0;
}
