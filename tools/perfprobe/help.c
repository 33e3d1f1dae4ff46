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
#include "util.h"

static const struct {
	const char *name;
	const char *text;
} helps[] = {
	{ "list",
	  "usage: perfprobe [-v] [--json] list [GROUP]\n\n"
	  "Every benchmark, one line each: name, group, what it measures; \"(by name)\"\n"
	  "marks those `run` with no names leaves out.  -v adds every result key it\n"
	  "can produce with unit, direction and description.\n\n"
	  "example:\n  perfprobe list ipc\n" },
	{ "run",
	  "usage: perfprobe [OPTIONS] run [NAME|GROUP...]\n\n"
	  "Run benchmarks by name or group; with none, the LMBench set (the groups\n"
	  "proc ctx ipc fsvm bw mem ops).  The others (stream, crypto, net, storage)\n"
	  "run when named.  The run is printed, saved under the results directory\n"
	  "and with -o also written to a file.  Options: the global ones\n"
	  "(perfprobe help): --quick/--full, -r N, --cpu N, --label, --json, -o,\n"
	  "--kernel-view, --no-save.\n\n"
	  "example:\n  perfprobe --cpu 1 --label 6.1 run proc ipc\n" },
	{ "syscall",
	  "usage: perfprobe [OPTIONS] syscall\n\n"
	  "The Processor, Processes table (group proc), with the kernel view of\n"
	  "each system call when perfprobe.ko is loaded or BPF is allowed.\n\n"
	  "example:\n  insmod kmod/perfprobe.ko && perfprobe syscall\n" },
	{ "summary",
	  "usage: perfprobe [-v] summary RUNS...\n\n"
	  "lmbench's summary tables, one row per run.  RUNS: result files,\n"
	  "directories, labels, or latest.  --json is refused: the files are JSON.\n\n"
	  "example:\n  perfprobe summary 6.1 6.12\n" },
	{ "ls",
	  "usage: perfprobe [--json] ls [--kernel GLOB] [--label GLOB]\n\n"
	  "The saved runs: date, label, kernel, mode, pinning, results, file.\n\n"
	  "  -k, --kernel GLOB  only runs of kernels matching GLOB\n"
	  "      --label GLOB   only runs labelled so\n\n"
	  "example:\n  perfprobe ls --kernel '6.12*'\n" },
	{ "compare",
	  "usage: perfprobe [--json] compare [OPTIONS] BASE NEW [NEW...]\n\n"
	  "Per key: the change of NEW against BASE with its 95% interval and a\n"
	  "verdict; exit 5 on a regression, 6 with --strict when not comparable.\n\n"
	  "  -t, --threshold PCT  a real change (default 5)\n"
	  "  -N, --run-noise PCT  run-to-run variation assumed with one run a side (4)\n"
	  "  -s, --sort           regressions first, the worst first\n"
	  "  -S, --strict         runs that differ in what changes figures: exit 6\n"
	  "      --gate-emulated  regressions of runs an emulator timed on the wall\n"
	  "                       clock fail the run too (by default they do not)\n"
	  "  -F, --fail-on GLOB   only these keys fail the run (repeatable)\n"
	  "  -I, --ignore GLOB    leave these keys out (repeatable)\n"
	  "  -f, --format F       text, json, junit, ktap, lava, kcidb\n\n"
	  "example:\n  perfprobe compare --sort 6.1 6.12\n" },
	{ "report",
	  "usage: perfprobe report [--format html|svg] RUNS... -o OUT\n\n"
	  "One self-contained HTML page of the runs (no script, nothing fetched):\n"
	  "tables, the memory-latency curve, bars with spread, compare against the\n"
	  "first run; perfprobe-timer documents add the lateness chart.\n\n"
	  "  -f, --format svg  the charts as SVG files in the directory OUT\n\n"
	  "example:\n  perfprobe report 6.1 6.12 -o report.html\n" },
	{ "import",
	  "usage: perfprobe [-v] import lmbench FILE... [-o DIR]\n\n"
	  "lmbench raw results files and summaries as perfprobe runs (one document a\n"
	  "run, in the results directory or DIR); -v lists what had no key.\n\n"
	  "example:\n  perfprobe import lmbench results/x86_64-linux-gnu/host.0\n" },
	{ "export",
	  "usage: perfprobe export --csv RUNS... [-o FILE]\n\n"
	  "Every result as one CSV row: label, release, date, host, key, unit, value,\n"
	  "median, min, max, mean, cv_pct, n, noisy.\n\n"
	  "example:\n  perfprobe export --csv latest > latest.csv\n" },
	{ "kernel-view",
	  "usage: perfprobe [--json] kernel-view status\n\n"
	  "Which backend of the kernel view would be used here (perfprobe.ko, else\n"
	  "BPF), and for each every probe group: how it attaches or why not.\n\n"
	  "example:\n  perfprobe kernel-view status\n" },
	{ "kmod",
	  "usage: perfprobe [--json] kmod status | kmod check KO\n\n"
	  "status: perfprobe.ko loaded? its ABI, clocksource and probes.  check: does\n"
	  "the module file KO fit the running kernel (vermagic, ABI)?\n\n"
	  "example:\n  perfprobe kmod check kmod/perfprobe.ko\n" },
	{ "copy",
	  "usage: perfprobe [OPTIONS] copy [-d DIRS] [-s SIZES] [-a ALIGNS]\n\n"
	  "copy_from_user, copy_to_user and clear_user bandwidth inside the kernel\n"
	  "(perfprobe.ko) beside memcpy of the same buffer, data verified.\n\n"
	  "  -d, --dir in,out,clear   directions (default all)\n"
	  "  -s, --sizes LIST         copy sizes, e.g. 64,4k,1m\n"
	  "  -a, --align LIST         user buffer offsets, e.g. 0,7\n\n"
	  "example:\n  perfprobe copy --sizes 4k,64k --align 0,7\n" },
	{ "timer",
	  "usage: perfprobe [--json] timer [-p NS] [-n N]\n\n"
	  "How late an hrtimer fires (perfprobe.ko): min, mean, max, log2 histogram.\n\n"
	  "  -p, --period NS   between expiries (default 100000)\n"
	  "  -n, --count N     expiries (default 1000)\n\n"
	  "example:\n  perfprobe timer --period 50000 --count 2000\n" },
	{ "trace",
	  "usage: perfprobe [--json] trace [-H] [--all] -- COMMAND [ARGS]\n\n"
	  "Per-syscall kernel times and page faults of a command, from perfprobe.ko\n"
	  "or BPF (--kernel-view).\n\n"
	  "  -H         histograms under the syscalls\n"
	  "      --all  also the copy and fault-time probes (their cost then lands\n"
	  "             in the syscall times)\n\n"
	  "example:\n  perfprobe trace -- ls /\n" },
	{ "netserver",
	  "usage: perfprobe netserver [-b ADDR]... [-p PORT] [-m N] [-q]\n\n"
	  "The far end of the net benchmarks.  Its options are its own: the global\n"
	  "options end at the word netserver.\n\n"
	  "  -b, --bind ADDR      listen on ADDR (numeric IPv4 or IPv6; repeatable);\n"
	  "                       default 127.0.0.1 and ::1 (the loopback only)\n"
	  "  -p, --port N         control port (default 12866); data ports are ephemeral\n"
	  "  -m, --max-tests N    tests served at once\n"
	  "  -q, --quiet          log only problems\n\n"
	  "example:\n  perfprobe netserver --bind 192.0.2.2\n" },
	{ "help",
	  "usage: perfprobe help [COMMAND]\n\n"
	  "The commands and global options, or one command's usage and options.\n\n"
	  "example:\n  perfprobe help compare\n" },
	{ "version",
	  "usage: perfprobe [--json] version\n\nThe version.\n\nexample:\n  perfprobe version\n" },
};

int pp_cmd_help_text(const char *cmd, FILE *f)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(helps[i].name, cmd)) {
			fputs(helps[i].text, f);
			return 0;
		}
	return -1;
}
