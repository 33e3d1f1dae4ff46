// SPDX-License-Identifier: GPL-2.0
/*
 * A run's progress on stderr (harness.h): a line a benchmark, the
 * detail with -v, and on a terminal a status line with the time spent
 * and what is left.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "harness.h"
#include "print.h"

static void clock_text(char *buf, size_t size, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, size, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%lu:%02lu", t / 60, t % 60);
}

/*
 * The terminal's status line: benchmark i of N, the time since the run
 * began, and what is left at the pace so far (the finished benchmarks'
 * mean time, less what the current one has had).
 */
static void status_update(struct pp_ctx *ctx)
{
	uint64_t now = pp_now_ns();
	double el, per, left;
	char line[256], e[32], l[32];
	unsigned int n;

	if (!ctx->start_ns || !pp_status_tty())
		return;
	el = (double)(now - ctx->start_ns) * 1e-9;
	clock_text(e, sizeof(e), el);
	if (ctx->done) {
		per = (double)(ctx->bench_ns - ctx->start_ns) * 1e-9 / ctx->done;
		left = per * (ctx->total - ctx->done) - (double)(now - ctx->bench_ns) * 1e-9;
		clock_text(l, sizeof(l), left > 0 ? left : 0);
	}
	n = ctx->bench_results;
	if (ctx->done)
		snprintf(line, sizeof(line), "perfprobe: [%u/%u] %s  %s elapsed, ~%s left; %u result%s",
			 ctx->done + 1, ctx->total, ctx->bench ? ctx->bench : "", e, l, n,
			 n == 1 ? "" : "s");
	else
		snprintf(line, sizeof(line), "perfprobe: [%u/%u] %s  %s elapsed; %u result%s",
			 ctx->done + 1, ctx->total, ctx->bench ? ctx->bench : "", e, n,
			 n == 1 ? "" : "s");
	pp_status_set(line);
}

static void say(struct pp_ctx *ctx, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	pp_err("[%u/%u] %s", ctx->done + 1, ctx->total, msg);
}

void pp_progress(struct pp_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->opts.quiet)
		return;
	if (pp_verbosity()) {
		va_start(ap, fmt);
		say(ctx, fmt, ap);
		va_end(ap);
	}
	status_update(ctx);
}

void pp_notice(struct pp_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->opts.quiet)
		return;
	va_start(ap, fmt);
	say(ctx, fmt, ap);
	va_end(ap);
	status_update(ctx);
}

void pp_progress_begin(struct pp_ctx *ctx, unsigned int i)
{
	uint64_t now = pp_now_ns();

	if (!ctx->start_ns)
		ctx->start_ns = now;
	ctx->bench_ns = now;
	ctx->done = i;
	ctx->bench_results = 0;
	ctx->bench_noisy = 0;
	ctx->bench_skips = ctx->run->nskips;
	ctx->bench_failed = false;
	if (!ctx->opts.quiet)
		status_update(ctx);
}

void pp_progress_end(struct pp_ctx *ctx)
{
	unsigned int n = ctx->bench_results;
	size_t skips = ctx->run->nskips - ctx->bench_skips;
	char took[PP_NUM_LEN + 4], more[64] = "";

	/* nothing measured: the skip or the failure above was its line */
	if (ctx->opts.quiet || (!n && (skips || ctx->bench_failed)))
		return;
	if (ctx->bench_noisy)
		snprintf(more, sizeof(more), ", %u noisy", ctx->bench_noisy);
	if (skips)
		snprintf(more + strlen(more), sizeof(more) - strlen(more), ", %zu skipped", skips);
	pp_fmt_ns(took, sizeof(took), (double)(pp_now_ns() - ctx->bench_ns));
	pp_err("[%u/%u] %s: %u result%s%s, %s", ctx->done + 1, ctx->total, ctx->bench, n,
	       n == 1 ? "" : "s", more, took);
}
