// SPDX-License-Identifier: GPL-2.0
/*
 * Every option of perfprobe, once (pp_options[]), in the manner of fio's
 * options.c: name, letter, value, help line, default, how the value is
 * completed, and the command it belongs to (NULL: global).  cli.c builds
 * getopt's tables from it at run time; usage(), `help COMMAND`, the
 * option lists of Documentation/cli.rst and the man pages, and the bash
 * and zsh completion come from it: `perfprobe gen-options WHAT` prints
 * each generated part, `make options` writes them into the checked-in
 * files and `make check-options` fails when one is not current.
 *
 * Adding an option: one entry here (Documentation/adding.rst), its case
 * where the command reads cli->copts[] (or global_opt() in cli.c), then
 * `make options`.
 *
 * The rules (pp_options_check(), tests/unit/test_cli.c): a letter means
 * one thing: a command's own letter is never a global one; a command's
 * own option may share a global option's long name (ls --label), and
 * after the command's word it is the command's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "util.h"

#define G	NULL		/* a global option */

const struct pp_option pp_options[] = {
	/* cmd  name           letter id               metavar  help, default, completion */
	{ G, "json", 'j', PP_OPT_JSON, NULL,
	  "stdout is one JSON document (progress and diagnostics stay on stderr)", NULL,
	  PP_COMP_NONE, NULL, 0 },
	{ G, "output", 'o', PP_OPT_OUTPUT, "FILE",
	  "also write the run to FILE, atomically (report, export, import: where their output goes)",
	  NULL, PP_COMP_FILE, NULL, 0 },
	{ G, "repeat", 'r', PP_OPT_REPEAT, "N",
	  "samples per result; the median is reported", "11; --quick 5, --full 21",
	  PP_COMP_NONE, NULL, 0 },
	{ G, "rounds", 0, PP_OPT_ROUNDS, "N",
	  "run the benchmarks N times over, each round all of them in turn: one run "
	  "then measures its own round-to-round spread, which compare uses", "1",
	  PP_COMP_NONE, NULL, 0 },
	{ G, "cpu", 'c', PP_OPT_CPU, "N",
	  "pin the benchmarks and every process they start to CPU N", "not pinned",
	  PP_COMP_NONE, NULL, 0 },
	{ G, "quick", 'q', PP_OPT_QUICK, NULL,
	  "short runs for smoke tests: 5 samples of 2 ms", NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "full", 0, PP_OPT_FULL, NULL,
	  "long runs for publication: 21 samples of 50 ms", NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "noise", 0, PP_OPT_NOISE, "PCT",
	  "mark results whose coefficient of variation exceeds PCT", "5",
	  PP_COMP_NONE, NULL, 0 },
	{ G, "results-dir", 0, PP_OPT_RESULTS_DIR, "DIR",
	  "where runs are saved", "$PERFPROBE_RESULTS_DIR, else ~/.local/share/perfprobe/results",
	  PP_COMP_DIR, NULL, 0 },
	{ G, "no-save", 0, PP_OPT_NO_SAVE, NULL,
	  "do not save the run under the results directory", NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "tmpdir", 0, PP_OPT_TMPDIR, "DIR",
	  "where benchmarks put temporary files", "$TMPDIR or /tmp", PP_COMP_DIR, NULL, 0 },
	{ G, "label", 0, PP_OPT_LABEL, "NAME",
	  "name the run (1-63 of A-Za-z0-9._+-) for ls, summary and compare",
	  "the kernel release", PP_COMP_NONE, NULL, 0 },
	{ G, "kernel-view", 0, PP_OPT_KERNEL_VIEW, "MODE",
	  "the kernel's figures for each result: auto (perfprobe.ko if loaded, else BPF), kmod, bpf, off",
	  "auto", PP_COMP_WORDS, "auto kmod bpf off", 0 },
	{ G, "profile-samples", 0, PP_OPT_PROFILE_SAMPLES, "N",
	  "the kernel view's sampled profile of each result: its pass ends once it has "
	  "N samples, and runs again until it has them, or has taken 4x the CPU time "
	  "they stand for (1 ms each): narrower intervals in compare's function by "
	  "function difference", "10",
	  PP_COMP_NONE, NULL, 0 },
	{ G, "vmlinux", 0, PP_OPT_VMLINUX, "FILE",
	  "the running kernel's vmlinux with debug info: the profile names the functions "
	  "inlined where each sample fell and the source line (the file's build ID must be "
	  "the kernel's)",
	  "looked for where distributions install it: /usr/lib/debug/boot/vmlinux-RELEASE, ...",
	  PP_COMP_FILE, NULL, 0 },
	{ G, "verbose", 'v', PP_OPT_VERBOSE, NULL,
	  "more detail: each result and note as measured, every kernel-view figure",
	  NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "quiet", 0, PP_OPT_QUIET, NULL,
	  "errors only on stderr, no progress or notes; netserver: log only problems",
	  NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "help", 'h', PP_OPT_HELP, NULL,
	  "the commands and options; after a command, its usage", NULL, PP_COMP_NONE, NULL, 0 },
	{ G, "version", 0, PP_OPT_VERSION, NULL,
	  "the version", NULL, PP_COMP_NONE, NULL, 0 },

	{ "ls", "kernel", 'k', 'k', "GLOB",
	  "only runs of kernels matching GLOB", NULL, PP_COMP_NONE, NULL, 0 },
	{ "ls", "label", 0, PP_OPT_LS_LABEL, "GLOB",
	  "only runs whose label matches GLOB", NULL, PP_COMP_LABEL, NULL, 0 },

	{ "compare", "threshold", 't', 't', "PCT",
	  "a change larger than PCT is real", "5", PP_COMP_NONE, NULL, 0 },
	{ "compare", "run-noise", 'N', 'N', "PCT",
	  "run-to-run variation assumed where nothing measures it", "4",
	  PP_COMP_NONE, NULL, 0 },
	{ "compare", "gate-emulated", 0, PP_OPT_GATE_EMULATED, NULL,
	  "regressions of runs an emulator timed on the wall clock fail the run too "
	  "(by default they gate nothing)", NULL, PP_COMP_NONE, NULL, 0 },
	{ "compare", "no-history", 'H', 'H', NULL,
	  "do not measure the run-to-run variation from earlier runs of the sides' labels",
	  NULL, PP_COMP_NONE, NULL, 0 },
	{ "compare", "sort", 's', 's', NULL,
	  "regressions first, the worst first", NULL, PP_COMP_NONE, NULL, 0 },
	{ "compare", "strict", 'S', 'S', NULL,
	  "any warning but an unreliable key: exit 6; unreliable keys gate", NULL, PP_COMP_NONE, NULL, 0 },
	{ "compare", "fail-on", 'F', 'F', "GLOB",
	  "only these keys fail the run", NULL, PP_COMP_NONE, NULL, PP_OPT_REPEATABLE },
	{ "compare", "ignore", 'I', 'I', "GLOB",
	  "leave these keys out", NULL, PP_COMP_NONE, NULL, PP_OPT_REPEATABLE },
	{ "compare", "format", 'f', 'f', "FORMAT",
	  "text, json, junit, ktap, lava or kcidb", "text; --json: json",
	  PP_COMP_WORDS, "text json junit ktap lava kcidb", 0 },
	{ "compare", "kcidb-version", 0, PP_OPT_KCIDB_VERSION, "VER",
	  "the KCIDB schema --format kcidb writes: 5.3 (kcidb-io's current) or 4.3 (older KCIDBs)",
	  "5.3", PP_COMP_WORDS, "5.3 4.3", 0 },

	/*
	 * The CPU suites' programs: one per benchmark with a suite
	 * (benchlib/suite.h), named as it with '-' for '_' (test_cli.c)
	 */
#define SUITE_OPT(name, id, what, meta)						\
	{ "run", name, 0, id, meta, what, "$PERFPROBE_<NAME>, else its program in PATH", \
	  PP_COMP_FILE, NULL, 0 }
	SUITE_OPT("dhrystone", PP_OPT_SUITE_DHRYSTONE,
		  "Dhrystone 2.1's program (dhry_1.c + dhry_2.c, built)", "PATH"),
	SUITE_OPT("whetstone", PP_OPT_SUITE_WHETSTONE, "Whetstone's program (whets.c, built)",
		  "PATH"),
	SUITE_OPT("linpack", PP_OPT_SUITE_LINPACK, "LINPACK's program (linpackc.new, built)",
		  "PATH"),
	SUITE_OPT("nbench", PP_OPT_SUITE_NBENCH,
		  "nbench-byte's program (built; run in its directory, beside NNET.DAT)", "PATH"),
	{ "run", "coremark-pro", 0, PP_OPT_SUITE_COREMARK_PRO, "DIR",
	  "CoreMark-Pro's built source tree (make TARGET=linux64 build), run as make certify-all "
	  "in it", "$PERFPROBE_COREMARK_PRO", PP_COMP_DIR, NULL, 0 },
	SUITE_OPT("glmark2", PP_OPT_SUITE_GLMARK2, "glmark2's program (needs a display)", "PATH"),
#undef SUITE_OPT

	{ "report", "format", 'f', 'f', "FORMAT",
	  "html: one page in the file OUT; svg: the charts as files in the directory OUT; "
	  "md: Markdown (with --guide)",
	  "html", PP_COMP_WORDS, "html svg md", 0 },
	{ "report", "guide", 'g', 'g', NULL,
	  "the vendor performance guide's document: its sections, tables, metric names and "
	  "units, a column per board and kernel", NULL, PP_COMP_NONE, NULL, 0 },

	{ "export", "csv", 0, PP_OPT_EXPORT_CSV, NULL,
	  "the format: CSV, one row a result", NULL, PP_COMP_NONE, NULL, 0 },
	{ "export", "lava", 0, PP_OPT_EXPORT_LAVA, NULL,
	  "the format: a LAVA test shell's lava-test-case line a result, its median the measurement",
	  NULL, PP_COMP_NONE, NULL, 0 },
	{ "export", "folded", 0, PP_OPT_EXPORT_FOLDED, NULL,
	  "the format: the sampled profiles as collapsed stacks (FlameGraph, speedscope), "
	  "the run and the key as their first frames", NULL, PP_COMP_NONE, NULL, 0 },

	{ "copy", "dir", 'd', 'd', "DIRS",
	  "directions, comma-separated: in, out, clear or all", "all",
	  PP_COMP_WORDS, "in out clear all", 0 },
	{ "copy", "sizes", 's', 's', "LIST",
	  "copy sizes, e.g. 64,4k,1m", NULL, PP_COMP_NONE, NULL, 0 },
	{ "copy", "align", 'a', 'a', "LIST",
	  "user buffer offsets, e.g. 0,7", NULL, PP_COMP_NONE, NULL, 0 },

	{ "timer", "period", 'p', 'p', "NS",
	  "between expiries", "100000", PP_COMP_NONE, NULL, 0 },
	{ "timer", "count", 'n', 'n', "N",
	  "expiries", "1000", PP_COMP_NONE, NULL, 0 },

	{ "trace", "hist", 'H', 'H', NULL,
	  "histograms under the syscalls", NULL, PP_COMP_NONE, NULL, 0 },
	{ "trace", "all", 0, PP_OPT_TRACE_ALL, NULL,
	  "also the copy and fault-time probes (their cost lands in the syscall times)",
	  NULL, PP_COMP_NONE, NULL, 0 },

	{ "netserver", "bind", 'b', 'b', "ADDR",
	  "listen on ADDR, numeric IPv4 or IPv6 (at most 4)", "127.0.0.1 and ::1",
	  PP_COMP_NONE, NULL, PP_OPT_REPEATABLE },
	{ "netserver", "port", 'p', 'p', "N",
	  "control port; data ports are ephemeral", "12866", PP_COMP_NONE, NULL, 0 },
	{ "netserver", "max-tests", 'm', 'm', "N",
	  "tests served at once", "8", PP_COMP_NONE, NULL, 0 },
	{ "netserver", "max-per-client", 0, PP_OPT_NS_MAX_PER_CLIENT, "N",
	  "tests served at once to one client address", "half of --max-tests, at least 2",
	  PP_COMP_NONE, NULL, 0 },
	{ "netserver", "max-duration", 0, PP_OPT_NS_MAX_DURATION, "MS",
	  "the longest test served, in ms (10 to 60000)", "60000", PP_COMP_NONE, NULL, 0 },
	{ "netserver", "secret-file", 0, PP_OPT_NS_SECRET_FILE, "FILE",
	  "serve only clients that prove they know the secret in FILE's first line "
	  "(theirs: $PERFPROBE_NETSERVER_SECRET_FILE)", "none", PP_COMP_FILE, NULL, 0 },
};

const unsigned int pp_noptions = ARRAY_SIZE(pp_options);

static bool same_cmd(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

const struct pp_command *pp_command_find(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < pp_ncommands; i++)
		if (!strcmp(pp_commands[i].name, name))
			return &pp_commands[i];
	return NULL;
}

const struct pp_option *pp_option_find(const char *cmd, const char *name, char letter)
{
	const struct pp_option *g = NULL;
	unsigned int i;

	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *o = &pp_options[i];

		if (name ? strcmp(o->name, name) : o->letter != letter)
			continue;
		if (cmd && same_cmd(o->cmd, cmd))
			return o;
		if (!o->cmd && !g)
			g = o;
	}
	return g;
}

int pp_options_check(char *err, size_t size)
{
	unsigned int i, j;

	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *a = &pp_options[i];

		if (a->cmd && !pp_command_find(a->cmd)) {
			snprintf(err, size, "--%s: no command '%s'", a->name, a->cmd);
			return -1;
		}
		if (!a->help || !a->help[0] || (a->comp == PP_COMP_WORDS && !a->words)) {
			snprintf(err, size, "--%s: no help line or no words", a->name);
			return -1;
		}
		for (j = i + 1; j < pp_noptions; j++) {
			const struct pp_option *b = &pp_options[j];
			bool related = same_cmd(a->cmd, b->cmd) || !a->cmd || !b->cmd;

			if (!related)
				continue;
			if (a->letter && a->letter == b->letter) {
				snprintf(err, size, "-%c means both --%s and --%s", a->letter,
					 a->name, b->name);
				return -1;
			}
			if (same_cmd(a->cmd, b->cmd) && !strcmp(a->name, b->name)) {
				snprintf(err, size, "--%s twice for %s", a->name,
					 a->cmd ? a->cmd : "the global options");
				return -1;
			}
			if (same_cmd(a->cmd, b->cmd) && a->id == b->id) {
				snprintf(err, size, "--%s and --%s share an id", a->name, b->name);
				return -1;
			}
		}
	}
	return 0;
}

/* --- text: usage, help --- */

static void opt_left(char *buf, size_t size, const struct pp_option *o)
{
	snprintf(buf, size, "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
		 o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
		 o->metavar ? " " : "", o->metavar ? o->metavar : "");
}

/* The length of TEXT's first word; a space inside [...] is no break. */
static size_t word_len(const char *text)
{
	size_t n;
	int depth = 0;

	for (n = 0; text[n] && (text[n] != ' ' || depth > 0); n++)
		depth += (text[n] == '[') - (text[n] == ']');
	return n;
}

/* TEXT, starting at column AT, words wrapped before column WIDTH onto
 * lines indented by INDENT. */
static void wrap(FILE *f, const char *text, size_t at, size_t indent, size_t width)
{
	bool first = true;

	while (*text) {
		size_t n = word_len(text);

		if (!first && at + 1 + n > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			at = indent;
		} else if (!first) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)n, text);
		first = false;
		at += n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

unsigned int pp_options_print(FILE *f, const char *cmd)
{
	unsigned int i, n = 0;
	char left[64], text[512];

	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *o = &pp_options[i];

		if (!same_cmd(o->cmd, cmd))
			continue;
		n++;
		if (!f)
			continue;
		opt_left(left, sizeof(left), o);
		if (strlen(left) > 25)
			fprintf(f, "%s\n%-26s", left, "");
		else
			fprintf(f, "%-26s", left);
		snprintf(text, sizeof(text), "%s%s%s%s%s", o->help, o->def ? " (default " : "",
			 o->def ? o->def : "", o->def ? ")" : "",
			 o->flags & PP_OPT_REPEATABLE ? "; repeatable" : "");
		wrap(f, text, 26, 26, 79);
	}
	return n;
}

void pp_options_synopsis(FILE *f, const char *cmd, const char *args)
{
	char *buf = NULL;
	unsigned int i;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	fprintf(m, "usage: perfprobe [OPTIONS] %s", cmd);
	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *o = &pp_options[i];

		if (!same_cmd(o->cmd, cmd))
			continue;
		if (o->letter)
			fprintf(m, " [-%c", o->letter);
		else
			fprintf(m, " [--%s", o->name);
		fprintf(m, "%s%s]%s", o->metavar ? " " : "", o->metavar ? o->metavar : "",
			o->flags & PP_OPT_REPEATABLE ? "..." : "");
	}
	fprintf(m, "%s%s", args[0] ? " " : "", args);
	if (fclose(m) == 0)
		wrap(f, buf, 0, 8, 79);
	free(buf);
}

/* --- generated files: make options --- */

static const char *const comp_names[] = {
	[PP_COMP_NONE] = "none", [PP_COMP_FILE] = "file", [PP_COMP_DIR] = "dir",
	[PP_COMP_WORDS] = "words", [PP_COMP_BENCH] = "benches", [PP_COMP_RUN] = "runs",
	[PP_COMP_LABEL] = "labels", [PP_COMP_CMD] = "commands", [PP_COMP_PROGRAM] = "program",
};

/* "words a b c", "file *.ko", "none": what the completion scripts read. */
static void comp_spec(FILE *f, enum pp_comp c, const char *words)
{
	fprintf(f, "%s%s%s", comp_names[c], words ? " " : "", words ? words : "");
}

static void gen_bash(FILE *f)
{
	unsigned int i, j;

	fprintf(f, "_perfprobe_cmds=\"");
	for (i = 0, j = 0; i < pp_ncommands; i++)
		if (!pp_commands[i].hidden)
			fprintf(f, "%s%s", j++ ? " " : "", pp_commands[i].name);
	fprintf(f, "\"\n# the options of CMD (empty: the global ones), as words\n");
	fprintf(f, "_perfprobe_opts() {\n\tcase $1 in\n");
	for (i = 0; i <= pp_ncommands; i++) {
		const char *cmd = i < pp_ncommands ? pp_commands[i].name : NULL;
		bool any = false;

		for (j = 0; j < pp_noptions; j++) {
			const struct pp_option *o = &pp_options[j];

			if (!same_cmd(o->cmd, cmd))
				continue;
			if (!any)
				fprintf(f, "\t%s) echo \"", cmd ? cmd : "''");
			fprintf(f, "%s--%s", any ? " " : "", o->name);
			any = true;
		}
		if (any)
			fprintf(f, "\" ;;\n");
	}
	fprintf(f, "\tesac\n}\n");
	fprintf(f, "# how the value of option $2 of command $1 completes; nothing: it takes none\n");
	fprintf(f, "_perfprobe_optval() {\n\tcase $1:$2 in\n");
	/* a command's own first: it shadows a global one of its name */
	for (i = 0; i < 2; i++)
		for (j = 0; j < pp_noptions; j++) {
			const struct pp_option *o = &pp_options[j];

			if (!o->metavar || !!o->cmd != !i)
				continue;
			fprintf(f, "\t%s:--%s", o->cmd ? o->cmd : "*", o->name);
			if (o->letter)
				fprintf(f, "|%s:-%c", o->cmd ? o->cmd : "*", o->letter);
			fprintf(f, ") echo \"");
			comp_spec(f, o->comp, o->words);
			fprintf(f, "\" ;;\n");
		}
	fprintf(f, "\tesac\n}\n");
	fprintf(f, "# how argument $2 (1: the first) of command $1 completes\n");
	fprintf(f, "_perfprobe_argval() {\n\tcase $1:$2 in\n");
	for (i = 0; i < pp_ncommands; i++) {
		const struct pp_command *c = &pp_commands[i];

		if (c->hidden)
			continue;
		fprintf(f, "\t%s:1) echo \"", c->name);
		comp_spec(f, c->comp, c->words);
		fprintf(f, "\" ;;\n\t%s:*) echo \"", c->name);
		comp_spec(f, c->comp2, c->words2);
		fprintf(f, "\" ;;\n");
	}
	fprintf(f, "\tesac\n}\n");
}

/* Text inside a zsh single-quoted _arguments spec or _describe item. */
static void zsh_text(FILE *f, const char *s, bool brackets)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == ':' || (brackets && (*s == '[' || *s == ']')))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void zsh_action(FILE *f, enum pp_comp c, const char *words)
{
	switch (c) {
	case PP_COMP_FILE:
		fprintf(f, words ? "_files -g \"%s\"" : "_files", words);
		break;
	case PP_COMP_DIR:
		fprintf(f, "_files -/");
		break;
	case PP_COMP_WORDS:
		fprintf(f, "(%s)", words);
		break;
	case PP_COMP_BENCH:
		fprintf(f, "_perfprobe_benches");
		break;
	case PP_COMP_RUN:
		fprintf(f, "_perfprobe_runs");
		break;
	case PP_COMP_LABEL:
		fprintf(f, "_perfprobe_labels");
		break;
	case PP_COMP_CMD:
		fprintf(f, "_perfprobe_cmds");
		break;
	case PP_COMP_PROGRAM:
		fprintf(f, "_command_names");
		break;
	case PP_COMP_NONE:
		fprintf(f, " ");
		break;
	}
}

static void zsh_opt(FILE *f, const struct pp_option *o)
{
	const char *rep = o->flags & PP_OPT_REPEATABLE ? "*" : "";

	fprintf(f, "\t\t");
	if (o->letter && *rep)
		fprintf(f, "'*'{-%c,--%s}'", o->letter, o->name);
	else if (o->letter)
		fprintf(f, "'(-%c --%s)'{-%c,--%s}'", o->letter, o->name, o->letter, o->name);
	else
		fprintf(f, "'%s--%s", rep, o->name);
	fprintf(f, "[");
	zsh_text(f, o->help, true);
	fprintf(f, "]");
	if (o->metavar) {
		fprintf(f, ":%s:", o->metavar);
		zsh_action(f, o->comp, o->words);
	}
	fprintf(f, "'\n");
}

static void gen_zsh(FILE *f)
{
	unsigned int i, j;

	fprintf(f, "_perfprobe_cmds() {\n\tlocal -a cmds\n\tcmds=(\n");
	for (i = 0; i < pp_ncommands; i++) {
		if (pp_commands[i].hidden)
			continue;
		fprintf(f, "\t\t'%s:", pp_commands[i].name);
		zsh_text(f, pp_commands[i].help, false);
		fprintf(f, "'\n");
	}
	fprintf(f, "\t)\n\t_describe -t commands 'perfprobe command' cmds\n}\n");
	fprintf(f, "# the _arguments specs of CMD's options (none: the global ones)\n");
	fprintf(f, "_perfprobe_specs() {\n\tcase $1 in\n");
	for (i = 0; i <= pp_ncommands; i++) {
		const char *cmd = i < pp_ncommands ? pp_commands[i].name : NULL;
		bool any = false;

		for (j = 0; j < pp_noptions; j++) {
			const struct pp_option *o = &pp_options[j];

			if (!same_cmd(o->cmd, cmd))
				continue;
			if (!any)
				fprintf(f, "\t%s) specs=(\n", cmd ? cmd : "''");
			zsh_opt(f, o);
			any = true;
		}
		if (any)
			fprintf(f, "\t\t) ;;\n");
	}
	fprintf(f, "\t*) specs=() ;;\n\tesac\n}\n");
	fprintf(f, "# the _arguments specs of CMD's arguments\n");
	fprintf(f, "_perfprobe_argspecs() {\n\tcase $1 in\n");
	for (i = 0; i < pp_ncommands; i++) {
		const struct pp_command *c = &pp_commands[i];

		if (c->hidden || (c->comp == PP_COMP_NONE && c->comp2 == PP_COMP_NONE))
			continue;
		fprintf(f, "\t%s) args=('1:argument:", c->name);
		zsh_action(f, c->comp, c->words);
		if (c->comp == PP_COMP_PROGRAM)
			fprintf(f, "' '*::arguments:_normal') ;;\n");
		else {
			fprintf(f, "' '*:argument:");
			zsh_action(f, c->comp2, c->words2);
			fprintf(f, "') ;;\n");
		}
	}
	fprintf(f, "\t*) args=() ;;\n\tesac\n}\n");
}

/* reST: "``-r N``, ``--repeat N``" */
static void rst_name(FILE *f, const struct pp_option *o)
{
	const char *sp = o->metavar ? " " : "", *mv = o->metavar ? o->metavar : "";

	if (o->letter)
		fprintf(f, "``-%c%s%s``, ", o->letter, sp, mv);
	fprintf(f, "``--%s%s%s``", o->name, sp, mv);
}

/* Text for reST outside a literal: * and ` escaped, $ and ~ as they are. */
static void rst_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '`' || *s == '\\' || *s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* An option's help line as a sentence of reST, indented. */
static void rst_help(FILE *f, const struct pp_option *o, const char *indent, bool cap)
{
	const char *h = o->help;

	fprintf(f, "%s", indent);
	if (cap && *h >= 'a' && *h <= 'z') {
		fputc(*h - 'a' + 'A', f);
		h++;
	}
	rst_text(f, h);
	if (o->def) {
		fprintf(f, " (default ");
		rst_text(f, o->def);
		fprintf(f, ")");
	}
	fprintf(f, "%s.\n", o->flags & PP_OPT_REPEATABLE ? "; repeatable" : "");
}

static void gen_rst_list(FILE *f, const char *cmd)
{
	unsigned int i;

	for (i = 0; i < pp_noptions; i++)
		if (same_cmd(pp_options[i].cmd, cmd)) {
			rst_name(f, &pp_options[i]);
			fputc('\n', f);
			rst_help(f, &pp_options[i], "  ", false);
		}
}

static void gen_rst_cli(FILE *f, bool global)
{
	unsigned int i, j;

	fprintf(f, "\n");
	if (global) {
		gen_rst_list(f, NULL);
		fprintf(f, "\n");
		return;
	}
	for (i = 0; i < pp_ncommands; i++) {
		const char *cmd = pp_commands[i].name;
		bool any = false;

		for (j = 0; j < pp_noptions; j++)
			any |= same_cmd(pp_options[j].cmd, cmd);
		if (!any || pp_commands[i].hidden)
			continue;
		fprintf(f, "``%s``\n\n", cmd);
		gen_rst_list(f, cmd);
		fprintf(f, "\n");
	}
}

/* A man page's words: UPPER as *UPPER*, lower as **lower**. */
static void man_words(FILE *f, const char *s)
{
	while (*s) {
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.");
		bool upper = false;
		size_t k;

		/* "NEW..." and "--": the dots and dashes alone are no word */
		while (n && s[n - 1] == '.')
			n--;
		if (!n) {
			if (*s == '|')
				fputs("\\|\\ ", f);
			else
				fputc(*s, f);
			s++;
			continue;
		}
		for (k = 0; k < n; k++)
			upper |= s[k] >= 'A' && s[k] <= 'Z';
		fprintf(f, "%s%.*s%s", upper ? "*" : "**", (int)n, s, upper ? "*" : "**");
		s += n;
	}
}

static void man_opt_name(FILE *f, const struct pp_option *o, bool brief)
{
	if (o->letter && brief) {
		fprintf(f, "**-%c**", o->letter);
	} else {
		if (o->letter)
			fprintf(f, "**-%c**, ", o->letter);
		fprintf(f, "**--%s**", o->name);
	}
	if (o->metavar)
		fprintf(f, " *%s*", o->metavar);
}

static void gen_man_commands(FILE *f)
{
	unsigned int i, j;

	fprintf(f, "\n");
	for (i = 0; i < pp_ncommands; i++) {
		const struct pp_command *c = &pp_commands[i];

		if (c->hidden)
			continue;
		fprintf(f, "**%s**", c->name);
		for (j = 0; j < pp_noptions; j++) {
			const struct pp_option *o = &pp_options[j];

			if (!same_cmd(o->cmd, c->name))
				continue;
			fprintf(f, " [");
			man_opt_name(f, o, true);
			fprintf(f, "]%s", o->flags & PP_OPT_REPEATABLE ? "..." : "");
		}
		if (c->args[0]) {
			fprintf(f, " ");
			man_words(f, c->args);
		}
		fprintf(f, "\n    ");
		rst_text(f, c->help);
		fprintf(f, ".\n\n");
	}
}

static void gen_man_options(FILE *f, const char *cmd)
{
	unsigned int i;

	fprintf(f, "\n");
	for (i = 0; i < pp_noptions; i++) {
		const struct pp_option *o = &pp_options[i];

		if (!same_cmd(o->cmd, cmd))
			continue;
		man_opt_name(f, o, false);
		fprintf(f, "\n");
		rst_help(f, o, "    ", false);
		fprintf(f, "\n");
	}
}

int pp_cmd_gen_options(struct pp_cli *cli, int argc, char **argv)
{
	char err[256];

	(void)cli;
	if (pp_options_check(err, sizeof(err))) {
		pp_err("gen-options: the option table: %s", err);
		return PP_EXIT_FAIL;
	}
	if (argc == 1 && !strcmp(argv[0], "bash"))
		gen_bash(stdout);
	else if (argc == 1 && !strcmp(argv[0], "zsh"))
		gen_zsh(stdout);
	else if (argc == 1 && !strcmp(argv[0], "rst-global"))
		gen_rst_cli(stdout, true);
	else if (argc == 1 && !strcmp(argv[0], "rst-commands"))
		gen_rst_cli(stdout, false);
	else if (argc == 1 && !strcmp(argv[0], "man-commands"))
		gen_man_commands(stdout);
	else if (argc == 1 && !strcmp(argv[0], "man-global"))
		gen_man_options(stdout, NULL);
	else if (argc == 2 && !strcmp(argv[0], "man-own") && pp_command_find(argv[1]))
		gen_man_options(stdout, argv[1]);
	else
		return pp_usage_err("gen-options: say bash, zsh, rst-global, rst-commands, man-commands, man-global or man-own COMMAND");
	return 0;
}
