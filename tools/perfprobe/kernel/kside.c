// SPDX-License-Identifier: GPL-2.0
/*
 * kside: kernel-side figures of the lat_syscall loops from perfprobe.ko.
 *
 * The loop runs a second time while perfprobe.ko traces this process:
 * the module's sys_enter..sys_exit times give the kernel time per
 * operation, the user-observed time with the trace on minus the time
 * without it is what the probes cost, and the time without the trace
 * minus the kernel time is the entry/exit path (and the C library).
 * Probe cost is shown beside the others, never folded into them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kside.h"
#include "print.h"
#include "stats.h"

enum { KS_UNTRIED, KS_READY, KS_UNAVAILABLE };

static int ks_state = KS_UNTRIED;
static struct ppnl ks_sess;
static struct ppnl_info ks_info;

static void ks_close(void)
{
	ppnl_close(&ks_sess);
}

static void ks_note(const char *why)
{
	fprintf(stderr, "perfprobe: note: no kernel-side figures: %s\n", why);
}

static bool ks_ready(void)
{
	char why[PPNL_MSG_MAX + 64];
	int ret;

	if (ks_state != KS_UNTRIED)
		return ks_state == KS_READY;
	ks_state = KS_UNAVAILABLE;
	ret = ppnl_connect(&ks_sess, &ks_info);
	if (ret == -ENOENT) {
		ks_note("perfprobe.ko is not loaded (insmod kmod/perfprobe.ko)");
		return false;
	}
	if (ret) {
		snprintf(why, sizeof(why), "perfprobe.ko: %s%s%s", strerror(-ret),
			 ks_sess.msg[0] ? ": " : "", ks_sess.msg);
		ks_note(why);
		return false;
	}
	if (!(ks_info.caps & PERFPROBE_CAP_SYSCALL_TRACE)) {
		ppnl_close(&ks_sess);
		ks_note("perfprobe.ko cannot trace system calls on this kernel");
		return false;
	}
	atexit(ks_close);
	ks_state = KS_READY;
	return true;
}

int pp_kside_compute(const struct ppnl_trace *t, const char *const *names,
		     struct pp_kside_calc *out)
{
	struct pp_ktrace kt;
	int ret = pp_ktrace_from_ppnl(t, &kt);

	if (ret)
		return ret;
	ret = pp_ktrace_compute(&kt, names, out);
	pp_ktrace_free(&kt);
	return ret;
}

/* Sample fn with this process traced; the trace results in t. */
static int traced_sample(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
			 uint32_t features, struct pp_sampling *s,
			 struct ppnl_trace *t)
{
	int ret, stop;

	ret = ppnl_trace_start(&ks_sess, (uint32_t)getpid(), features, NULL);
	if (ret)
		return ret;
	ret = pp_sample(ctx, fn, arg, NULL, s);
	stop = ppnl_trace_stop(&ks_sess);
	if (ret)
		return ret;
	if (stop)
		return stop;
	return ppnl_trace_get(&ks_sess, t);
}

static void fill(struct pp_ctx *ctx, struct pp_result *r, uint32_t features,
		 const struct pp_sampling *s, const struct pp_kside_calc *c)
{
	double user = r->value * 1e3;	/* the result is in us */
	double traced = pp_median(s->ns_per_op, s->n);
	struct pp_kside *k = &r->k;

	pp_strlcpy(k->source, "kmod", sizeof(k->source));
	k->kernel_ns_per_op = c->kernel_ns;
	k->entry_exit_ns_per_op = user - c->kernel_ns;
	k->probe_ns_per_op = traced - user;
	k->syscalls_per_op = c->syscalls;
	if (features & PERFPROBE_CAP_COPY_KPROBES)
		k->copy_bytes_per_op = c->copy_bytes;
	pp_progress(ctx, "%-28s kernel %.4g us, entry+exit %.4g us, probes %.4g us (perfprobe.ko)",
		    r->key, k->kernel_ns_per_op * 1e-3, k->entry_exit_ns_per_op * 1e-3,
		    k->probe_ns_per_op * 1e-3);
}

static void measure(struct pp_ctx *ctx, struct pp_result *r, pp_loop_fn fn,
		    void *arg, const char *const *names)
{
	uint32_t features = PERFPROBE_CAP_SYSCALL_TRACE |
			    (ks_info.caps & PERFPROBE_CAP_COPY_KPROBES);
	struct pp_sampling *s = malloc(sizeof(*s));
	struct pp_kside_calc c;
	struct ppnl_trace t;
	int ret;

	if (!s)
		return;
	ret = traced_sample(ctx, fn, arg, features, s, &t);
	if (ret) {
		char why[PPNL_MSG_MAX + 64];

		ppnl_strerror(&ks_sess, ret, why, sizeof(why));
		fprintf(stderr, "perfprobe: note: %s: no kernel-side figures: %s\n",
			r->key, why);
		goto free_s;
	}
	if (pp_kside_compute(&t, names, &c))
		fprintf(stderr, "perfprobe: note: %s: the trace saw none of its system calls\n",
			r->key);
	else
		fill(ctx, r, features, s, &c);
	ppnl_trace_free(&t);
free_s:
	free(s);
}

void pp_kside_syscall(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		      void *arg, const char *const *names)
{
	struct pp_result *r = pp_run_find_mut(ctx->run, key);

	if (!r || strcmp(r->unit, "us") || !ks_ready())
		return;
	measure(ctx, r, fn, arg, names);
}

static bool any_kmod(const struct pp_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++)
		if (!strcmp(run->results[i].k.source, "kmod"))
			return true;
	return false;
}

/* A column of microseconds from ns, "-" when not measured. */
static void cell_us(double ns, int width)
{
	if (isfinite(ns))
		pp_print_text(" %*.4f", width, ns * 1e-3);
	else
		pp_print_text(" %*s", width, "-");
}

/*
 * Text only: in JSON the same figures are each result's "kernel" object
 * of the results document.
 */
void pp_kside_print(const struct pp_run *run)
{
	size_t i;

	if (!any_kmod(run))
		return;
	pp_print_text("\nKernel view (perfprobe.ko) - times in microseconds, probe cost shown apart\n");
	pp_print_text("%-24s %9s %9s %10s %10s %8s\n", "key", "user us", "kernel us",
		      "entry+exit", "probe cost", "sc/op");
	pp_print_text("------------------------ --------- --------- ---------- ---------- --------\n");
	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];

		if (strcmp(r->k.source, "kmod"))
			continue;
		pp_print_text("%-24s %9.4f", r->key, r->value);
		cell_us(r->k.kernel_ns_per_op, 9);
		cell_us(r->k.entry_exit_ns_per_op, 10);
		cell_us(r->k.probe_ns_per_op, 10);
		pp_print_text(" %8.2f\n", r->k.syscalls_per_op);
	}
}
