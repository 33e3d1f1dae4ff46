// SPDX-License-Identifier: GPL-2.0
/*
 * A run's progress on stderr (progress.h): a line a step, and on a
 * terminal a status line with the time spent and what is left.
 */
#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "harness.h"

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

	if (!ctx->start_ns || !pp_status_tty())
		return;
	el = (double)(now - ctx->start_ns) * 1e-9;
	clock_text(e, sizeof(e), el);
	if (ctx->done) {
		per = (double)(ctx->bench_ns - ctx->start_ns) * 1e-9 / ctx->done;
		left = per * (ctx->total - ctx->done) - (double)(now - ctx->bench_ns) * 1e-9;
		clock_text(l, sizeof(l), left > 0 ? left : 0);
	}
	if (ctx->done)
		snprintf(line, sizeof(line), "perfprobe: [%u/%u] %s  %s elapsed, ~%s left",
			 ctx->done + 1, ctx->total, ctx->bench ? ctx->bench : "", e, l);
	else
		snprintf(line, sizeof(line), "perfprobe: [%u/%u] %s  %s elapsed",
			 ctx->done + 1, ctx->total, ctx->bench ? ctx->bench : "", e);
	pp_status_set(line);
}

void pp_progress(struct pp_ctx *ctx, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (ctx->opts.quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pp_err("[%u/%u] %s", ctx->done + 1, ctx->total, msg);
	status_update(ctx);
}

void pp_progress_begin(struct pp_ctx *ctx, unsigned int i)
{
	uint64_t now = pp_now_ns();

	if (!ctx->start_ns)
		ctx->start_ns = now;
	ctx->bench_ns = now;
	ctx->done = i;
}
