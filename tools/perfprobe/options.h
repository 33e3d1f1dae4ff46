/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option table (options.c): every option of perfprobe, global or a
 * command's own, written once, in the manner of fio's struct fio_option.
 * getopt's tables, usage(), `help COMMAND`, the option lists of
 * Documentation/cli.rst and the man pages, and the bash and zsh
 * completion come from it (`perfprobe gen-options`, `make options`).
 */
#ifndef PP_OPTIONS_H
#define PP_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

/* How an option's value, or a command's argument, is completed. */
enum pp_comp {
	PP_COMP_NONE,		/* a number or free text: nothing offered */
	PP_COMP_FILE,		/* a file name (glob: only those) */
	PP_COMP_DIR,		/* a directory */
	PP_COMP_WORDS,		/* one of words */
	PP_COMP_BENCH,		/* benchmark and group names (perfprobe list) */
	PP_COMP_RUN,		/* labels, latest, result files and directories */
	PP_COMP_LABEL,		/* labels of the saved runs */
	PP_COMP_CMD,		/* a perfprobe command */
	PP_COMP_PROGRAM,	/* a program to run, then its arguments */
};

/* The ids the global options are parsed by (cli.c: global_opt()). */
enum {
	PP_OPT_JSON = 'j',
	PP_OPT_OUTPUT = 'o',
	PP_OPT_REPEAT = 'r',
	PP_OPT_CPU = 'c',
	PP_OPT_QUICK = 'q',
	PP_OPT_VERBOSE = 'v',
	PP_OPT_HELP = 'h',
	PP_OPT_FULL = 256,
	PP_OPT_VERSION,
	PP_OPT_RESULTS_DIR,
	PP_OPT_NO_SAVE,
	PP_OPT_TMPDIR,
	PP_OPT_LABEL,
	PP_OPT_NOISE,
	PP_OPT_KERNEL_VIEW,
	PP_OPT_QUIET,
	PP_OPT_ROUNDS,
	PP_OPT_GATE_EMULATED,
	PP_OPT_PROFILE_SAMPLES,
	PP_OPT_VMLINUX,
	/* a command's own options without a letter (with one: the letter) */
	PP_OPT_LS_LABEL,
	PP_OPT_TRACE_ALL,
	PP_OPT_EXPORT_CSV,
	PP_OPT_NS_MAX_PER_CLIENT,
	PP_OPT_NS_MAX_DURATION,
	PP_OPT_NS_SECRET_FILE,
	PP_OPT_EXPORT_LAVA,
	PP_OPT_KCIDB_VERSION,
	PP_OPT_EXPORT_FOLDED,
	/* run --dhrystone PATH ...: a CPU suite's program, one each */
	PP_OPT_SUITE_DHRYSTONE,
	PP_OPT_SUITE_WHETSTONE,
	PP_OPT_SUITE_LINPACK,
	PP_OPT_SUITE_NBENCH,
	PP_OPT_SUITE_COREMARK_PRO,
	PP_OPT_SUITE_GLMARK2,
	PP_OPT_SUITE_LAST = PP_OPT_SUITE_GLMARK2,
};

#define PP_OPT_IS_SUITE(id)	((id) >= PP_OPT_SUITE_DHRYSTONE && (id) <= PP_OPT_SUITE_LAST)

#define PP_OPT_REPEATABLE	0x1	/* may be given more than once, all kept */

struct pp_option {
	const char *cmd;	/* the command it belongs to; NULL: global */
	const char *name;	/* long name, without "--" */
	char letter;		/* short name, or 0 */
	int id;			/* the value the parser gives for it */
	const char *metavar;	/* its value's name; NULL: it takes none */
	const char *help;	/* one line */
	const char *def;	/* the default, as text; NULL: none to say */
	enum pp_comp comp;	/* how its value is completed */
	const char *words;	/* PP_COMP_WORDS: the values; FILE: a glob */
	unsigned int flags;	/* PP_OPT_* */
};

extern const struct pp_option pp_options[];
extern const unsigned int pp_noptions;

/* A command, as its help, the docs and the completion describe it. */
struct pp_cli;
struct pp_command {
	const char *name;
	int (*fn)(struct pp_cli *cli, int argc, char **argv);
	const char *args;	/* its arguments, after its own options */
	const char *help;	/* one line */
	const char *nojson;	/* why --json is refused; NULL: it is honoured */
	enum pp_comp comp;	/* its first argument */
	const char *words;
	enum pp_comp comp2;	/* the arguments after the first */
	const char *words2;
	bool hidden;		/* not listed (gen-options) */
};

extern const struct pp_command pp_commands[];	/* cli.c */
extern const unsigned int pp_ncommands;

const struct pp_command *pp_command_find(const char *name);

/* The option of the table a long name or letter names, for CMD (NULL:
 * global): the command's own first (it shadows a global one). */
const struct pp_option *pp_option_find(const char *cmd, const char *name, char letter);

/* The table's own rules (one meaning per letter, ...): 0, or -1 and why. */
int pp_options_check(char *err, size_t size);

/* "  -r, --repeat N" column and help lines of CMD's options (NULL: global);
 * how many (f NULL: only counted). */
unsigned int pp_options_print(FILE *f, const char *cmd);

/* "usage: perfprobe [OPTIONS] CMD [-t PCT] [-I GLOB]... ARGS", wrapped. */
void pp_options_synopsis(FILE *f, const char *cmd, const char *args);

/* perfprobe gen-options WHAT: the generated part of a file (make options). */
int pp_cmd_gen_options(struct pp_cli *cli, int argc, char **argv);

#endif /* PP_OPTIONS_H */
