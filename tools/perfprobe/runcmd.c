// SPDX-License-Identifier: GPL-2.0
/*
 * The set-up and the end of a run, shared by run, syscall and copy
 * (runcmd.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "print.h"
#include "runcmd.h"
#include "sysinfo.h"

static void exe_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n <= 0) {
		pp_strlcpy(buf, ".", size);
		return;
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
}

static void setup_meta(struct pp_ctx *ctx, const struct pp_cli *cli)
{
	struct pp_meta *m = &ctx->run->meta;

	pp_sysinfo_collect(m, cli->argc, cli->argv);
	pp_clock_calibrate(&m->clock);
	m->loop_overhead_ns = pp_loop_overhead();
	pp_mhz_measure(&m->mhz, ctx->opts.quick);
	pp_mhz_emulated(&m->mhz, &m->emul);
	m->samples = ctx->opts.samples;
	m->rounds = ctx->opts.rounds ? ctx->opts.rounds : 1;
	m->target_ms = ctx->opts.target_ms;
	m->noise_pct = ctx->opts.noise_pct;
	m->pin_cpu = ctx->opts.pin_cpu;
	pp_strlcpy(m->mode, ctx->opts.quick ? "quick" : ctx->opts.full ? "full" :
		   "default", sizeof(m->mode));
	pp_strlcpy(m->label, cli->label ? cli->label : m->release,
		   sizeof(m->label));
}

/*
 * -o FILE: its directory must exist and be writable now, not after the
 * run (the file itself is written atomically at the end).
 */
static int check_out_dir(const char *out)
{
	char dir[PATH_MAX];
	char *slash;

	pp_strlcpy(dir, out, sizeof(dir));
	slash = strrchr(dir, '/');
	if (!slash)
		pp_strlcpy(dir, ".", sizeof(dir));
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK | X_OK)) {
		pp_err("-o %s: cannot write in %s: %s", out, dir, strerror(errno));
		return PP_EXIT_FAIL;
	}
	return 0;
}

int pp_cmd_run_start(struct pp_cli *cli, struct pp_ctx *ctx,
		     struct pp_run *run)
{
	if (cli->out && check_out_dir(cli->out))
		return PP_EXIT_FAIL;
	memset(ctx, 0, sizeof(*ctx));
	ctx->opts = cli->opts;
	ctx->run = run;
	exe_dir(ctx->exe_dir, sizeof(ctx->exe_dir));
	pp_run_init(run);

	/* pinned before the metadata: the loop overhead is this CPU's */
	if (ctx->opts.pin_cpu >= 0 && pp_pin_cpu(ctx->opts.pin_cpu)) {
		pp_err("--cpu %d: cannot pin: %s", ctx->opts.pin_cpu, strerror(errno));
		pp_run_free(run);
		return PP_EXIT_FAIL;
	}
	pp_signals_install();
	setup_meta(ctx, cli);
	return 0;
}

static int save_results(const struct pp_cli *cli, struct pp_ctx *ctx, const char *tag)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int err, ret = 0;

	if (cli->out) {
		err = pp_run_save(ctx->run, cli->out);
		if (err) {
			pp_err("%s: cannot write results: %s", cli->out, strerror(-err));
			ret = -1;
		}
	}
	if (cli->no_save)
		return ret;
	if (cli->results_dir)
		pp_strlcpy(dir, cli->results_dir, sizeof(dir));
	else if (pp_results_default_dir(dir, sizeof(dir)))
		return ret;	/* no home: nowhere to keep history */
	err = pp_results_path(dir, &ctx->run->meta, tag, path, sizeof(path));
	if (!err)
		err = pp_run_save(ctx->run, path);
	if (err) {
		pp_err("%s: cannot save results: %s%s", dir, strerror(-err),
		       cli->results_dir ? "" : " (not kept; use --results-dir DIR or --no-save)");
		/* Only a directory the user asked for makes the run fail. */
		return cli->results_dir ? -1 : ret;
	}
	if (!ctx->opts.quiet)
		pp_err("results saved to %s", path);
	return ret;
}

/* stdout: the results document, or the command's text. */
static int print_run(const struct pp_run *run, bool json, pp_run_text_fn text,
		     void *arg)
{
	char *s;

	if (!json) {
		pp_print_start(stdout, false);
		text(run, arg);
		return pp_print_done();
	}
	s = pp_run_to_string(run);
	if (!s) {
		pp_err("out of memory");
		return PP_EXIT_FAIL;
	}
	printf("%s\n", s);
	free(s);
	if (fflush(stdout)) {
		pp_err("cannot print: %s", strerror(errno));
		return PP_EXIT_FAIL;
	}
	return 0;
}

int pp_cmd_run_finish(const struct pp_cli *cli, struct pp_ctx *ctx, const char *tag,
		      pp_run_text_fn text, void *arg)
{
	struct pp_run *run = ctx->run;
	int ret;

	pp_run_mark_noise(run);
	ret = print_run(run, cli->json, text, arg);
	if (save_results(cli, ctx, tag))
		ret = PP_EXIT_FAIL;
	if (run->nfails)
		ret = PP_EXIT_FAIL;
	else if (run->nskips && ret == PP_EXIT_OK)
		ret = PP_EXIT_SKIP;
	if (run->interrupted)
		ret = 128 + pp_interrupted;	/* as the shell reports a signal */
	pp_run_free(run);
	return ret;
}
