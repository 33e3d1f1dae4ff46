// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe compare BASE NEW [NEW...]: is NEW slower than BASE, where,
 * how sure, and what did the kernel do differently?
 *
 * Each side is a result file, a directory of them (every *.json below
 * it), a label or "latest" (runsel.c); a side's runs are pooled.  The statistics are compare.c's; this file resolves the
 * sides, filters keys, and writes the verdicts as text or JSON (through
 * the print layer) or as JUnit XML, KTAP or LAVA test-case lines for CI.
 * Documentation/compare.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "options.h"
#include "print.h"
#include "stats.h"
#include "report/compare.h"
#include "report/comparison.h"
#include "report/profdiff.h"
#include "report/runsel.h"
#include "util.h"

enum cmp_format { FMT_TEXT, FMT_JSON, FMT_JUNIT, FMT_KTAP, FMT_LAVA, FMT_KCIDB };

/* compare's options: what decides (comparison.h), and the output's form. */
struct cmp_opts {
	struct pp_cmp_opts cmp;
	enum cmp_format format;
	int kcidb_major, kcidb_minor;	/* --kcidb-version */
};

static const char *const format_names[] = {
	[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_JUNIT] = "junit",
	[FMT_KTAP] = "ktap", [FMT_LAVA] = "lava", [FMT_KCIDB] = "kcidb",
};

/* One of compare's own options: 0 or PP_EXIT_USAGE. */
static int parse_opt(struct cmp_opts *o, const struct pp_cli_opt *c)
{
	unsigned int f;

	switch (c->val) {
	case 't':
		if (pp_parse_double(c->arg, 0, 100, &o->cmp.threshold) ||
		    o->cmp.threshold <= 0 || o->cmp.threshold >= 100)
			return pp_usage_err("compare: --threshold: '%s' is not a percentage between 0 and 100",
					    c->arg);
		break;
	case 'N':
		if (pp_parse_double(c->arg, 0, 100, &o->cmp.run_noise) || o->cmp.run_noise >= 100)
			return pp_usage_err("compare: --run-noise: '%s' is not a percentage from 0 to 100",
					    c->arg);
		break;
	case 's':
		o->cmp.sort = true;
		break;
	case 'S':
		o->cmp.strict = true;
		break;
	case 'H':
		o->cmp.no_history = true;
		break;
	case PP_OPT_GATE_EMULATED:
		o->cmp.gate_emulated = true;
		break;
	case PP_OPT_KCIDB_VERSION:
		if (!strcmp(c->arg, "5.3"))
			o->kcidb_minor = 3;
		else if (!strcmp(c->arg, "4.3"))
			o->kcidb_major = 4;
		else
			return pp_usage_err("compare: --kcidb-version: '%s' is not 5.3 or 4.3", c->arg);
		break;
	case 'F':
		o->cmp.fail_on[o->cmp.nfail_on++] = c->arg;
		break;
	case 'I':
		o->cmp.ignore[o->cmp.nignore++] = c->arg;
		break;
	case 'f':
		for (f = 0; f < ARRAY_SIZE(format_names); f++)
			if (!strcmp(c->arg, format_names[f]))
				break;
		if (f == ARRAY_SIZE(format_names))
			return pp_usage_err("compare: --format: '%s' is not one of text, json, junit, ktap, lava, kcidb",
					    c->arg);
		o->format = f;
		break;
	}
	return 0;
}

static int parse_opts(struct pp_cli *cli, struct cmp_opts *o)
{
	int i, ret;

	memset(o, 0, sizeof(*o));
	/* no cap: room for every --fail-on and --ignore given */
	o->cmp.fail_on = calloc((size_t)cli->ncopts + 1, sizeof(*o->cmp.fail_on));
	o->cmp.ignore = calloc((size_t)cli->ncopts + 1, sizeof(*o->cmp.ignore));
	if (!o->cmp.fail_on || !o->cmp.ignore) {
		pp_err("compare: out of memory");
		return PP_EXIT_FAIL;
	}
	o->cmp.threshold = PP_CMP_THRESHOLD_PCT;
	o->cmp.run_noise = PP_CMP_RUN_NOISE_PCT;
	o->format = cli->json ? FMT_JSON : FMT_TEXT;
	o->kcidb_major = 5;
	o->kcidb_minor = 3;
	for (i = 0; i < cli->ncopts; i++) {
		ret = parse_opt(o, &cli->copts[i]);
		if (ret)
			return ret;
	}
	if (cli->json && o->format != FMT_JSON)
		return pp_usage_err("compare: --json and --format %s contradict each other",
				    format_names[o->format]);
	return 0;
}

/* --- warnings, in every format --- */

/* --- output: text and JSON through the print layer --- */

/*
 * The kernel view's change, where both sides have one: every figure in
 * JSON; in text (text: a changed row) those that changed beyond their
 * noise, or that none did.
 */
static void print_kdelta(const struct pp_cmp_row *r, bool text, double threshold)
{
	const struct pp_kside *b = &r->pool->base_k, *n = &r->pool->new_k;
	char why[PP_CMP_WHY_MAX];
	size_t i;

	if (!b->source[0] || !n->source[0])
		return;
	pp_print_open_object("kernel_delta");
	for (i = 0; i < pp_kd_count(); i++) {
		if (isnan(pp_kd_value(b, i)) || isnan(pp_kd_value(n, i)))
			continue;
		pp_print_double(PP_JSON, pp_kd_name(i), NULL,
				pp_kd_value(n, i) - pp_kd_value(b, i));
	}
	if (text && pp_cmp_kernel_why(why, sizeof(why), r, threshold))
		pp_print_text("; %s", why);
	pp_print_close_object();
}

/* "+88 ns", "-1.2 us": a signed time for people. */
static const char *signed_ns(double ns, char *buf, size_t size)
{
	buf[0] = ns < 0 ? '-' : '+';
	pp_fmt_ns(buf + 1, size - 1, fabs(ns));
	return buf;
}

/*
 * The profiles' difference: the kernel time's change, and the kernel
 * functions whose time changed beyond their sampling error, with their
 * paths; the share of the key's change they explain.  In text only where
 * the key changed (text), in JSON wherever both sides have profiles.
 */
static void print_pdiff(const struct pp_cmp_pool *p, bool text)
{
	char a[PP_NUM_LEN + 4], b[PP_NUM_LEN + 4], c[PP_NUM_LEN + 4], e[PP_NUM_LEN + 4];
	struct pp_pdiff d;
	size_t i;

	if ((!text && !pp_print_json()) || pp_pdiff(p, &d))
		return;
	pp_print_open_object("profile_delta");
	pp_print_u64(PP_JSON, "base_samples", NULL, d.base_samples);
	pp_print_u64(PP_JSON, "new_samples", NULL, d.new_samples);
	pp_print_double(PP_JSON, "base_ops", NULL, d.base_ops);
	pp_print_double(PP_JSON, "new_ops", NULL, d.new_ops);
	pp_print_double(PP_JSON, "base_op_ns", NULL, d.base_op_ns);
	pp_print_double(PP_JSON, "new_op_ns", NULL, d.new_op_ns);
	pp_print_double(PP_JSON, "op_delta_ns", NULL, d.op_delta);
	pp_print_double(PP_JSON, "kernel_base_ns_per_op", NULL, d.kernel_base);
	pp_print_double(PP_JSON, "kernel_new_ns_per_op", NULL, d.kernel_new);
	pp_print_double(PP_JSON, "kernel_delta_ns_per_op", NULL, d.kernel_delta);
	pp_print_double(PP_JSON, "kernel_lo", NULL, d.kernel_lo);
	pp_print_double(PP_JSON, "kernel_hi", NULL, d.kernel_hi);
	pp_print_text("\n    kernel profile: %s/op [%s..%s] of the %s/op change (%llu, %llu samples)",
		      signed_ns(d.kernel_delta, a, sizeof(a)), signed_ns(d.kernel_lo, b, sizeof(b)),
		      signed_ns(d.kernel_hi, c, sizeof(c)), signed_ns(d.op_delta, e, sizeof(e)),
		      (unsigned long long)d.base_samples, (unsigned long long)d.new_samples);
	pp_print_open_array("functions");
	for (i = 0; i < d.nfn; i++) {
		const struct pp_pdiff_fn *f = &d.fn[i];

		pp_print_open_object(NULL);
		pp_print_string(PP_JSON, "name", NULL, f->name);
		pp_print_double(PP_JSON, "delta_ns_per_op", NULL, f->delta);
		pp_print_double(PP_JSON, "lo", NULL, f->lo);
		pp_print_double(PP_JSON, "hi", NULL, f->hi);
		pp_print_double(PP_JSON, "base_ns_per_op", NULL, f->base_ns);
		pp_print_double(PP_JSON, "new_ns_per_op", NULL, f->new_ns);
		pp_print_bool(PP_JSON, "beyond_error", NULL, f->beyond);
		pp_print_text("\n      %s/op [%s..%s] in ", signed_ns(f->delta, a, sizeof(a)),
			      signed_ns(f->lo, b, sizeof(b)), signed_ns(f->hi, c, sizeof(c)));
		pp_print_string(PP_ANY, "path", "%s", f->path);
		if (!f->beyond)
			pp_print_text(" (within the sampling error)");
		pp_print_close_object();
	}
	pp_print_close_array();
	pp_print_double(PP_JSON, "explained_pct", NULL, d.explained_pct);
	if (!d.nbeyond)
		pp_print_text("\n      no kernel function's time changed beyond its sampling error: "
			      "more samples would tell (--full, more runs)");
	if (d.nfn && isfinite(d.explained_pct))
		pp_print_text("\n      these explain %.0f%% of the change", d.explained_pct);
	pp_print_close_object();
}

static void print_row(const struct pp_cmp_row *r, const struct pp_cmp_opts *o)
{
	const struct pp_cmp_pool *p = r->pool;

	pp_print_open_object(NULL);
	pp_print_string(PP_ANY, "key", "%-28s", p->key);
	pp_print_string(PP_JSON, "unit", NULL, p->unit);
	pp_print_string(PP_JSON, "direction", NULL,
			p->dir == PP_HIGHER_IS_BETTER ? "higher" : "lower");
	pp_print_string(PP_JSON, "group", NULL, r->group);
	if (r->ok) {
		pp_print_num(PP_ANY, "base_median", " %12s", r->st.base_median);
		pp_print_num(PP_ANY, "new_median", " %12s", r->st.new_median);
		pp_print_string(PP_FP, NULL, " %-6s", p->unit);
		pp_print_double(PP_ANY, "change_pct", " %+7.1f%%", r->st.change_pct);
		pp_print_double(PP_ANY, "lo_pct", " [%+.1f", r->st.lo_pct);
		pp_print_double(PP_ANY, "hi_pct", "..%+.1f]", r->st.hi_pct);
		pp_print_double(PP_JSON, "confidence", NULL, r->st.conf);
		pp_print_double(PP_JSON, "eq_lo_pct", NULL, r->st.eq_lo_pct);
		pp_print_double(PP_JSON, "eq_hi_pct", NULL, r->st.eq_hi_pct);
		pp_print_u64(PP_JSON, "base_samples", NULL, r->st.nbase);
		pp_print_u64(PP_JSON, "new_samples", NULL, r->st.nnew);
		pp_print_u64(PP_JSON, "base_runs", NULL, r->st.base_runs);
		pp_print_u64(PP_JSON, "new_runs", NULL, r->st.new_runs);
		pp_print_u64(PP_JSON, "base_medians", NULL, r->st.base_nmed);
		pp_print_u64(PP_JSON, "new_medians", NULL, r->st.new_nmed);
		pp_print_double(PP_JSON, "run_noise_pct", NULL, r->st.run_noise_pct);
		pp_print_bool(PP_JSON, "run_noise_measured", NULL, r->st.run_noise_measured);
		pp_print_u64(PP_JSON, "history_runs", NULL, r->st.history_runs);
		if (r->st.identical)
			pp_print_bool(PP_JSON, "identical", NULL, true);
	} else {
		pp_print_text(" %12s %12s %-6s %8s %s", "", "", p->unit, "", "");
	}
	pp_print_string(PP_ANY, "verdict", "  %s", pp_cmp_row_verdict(r));
	if (r->ok && r->st.identical)
		pp_print_text(" (identical samples)");
	else if (r->ok && !r->st.run_noise_measured)
		pp_print_text(" (noise assumed)");
	/* "same" by the equivalence test's interval, where the 95% one is wider */
	if (r->ok && r->st.verdict == PP_VERDICT_SAME &&
	    (r->st.lo_pct < -o->threshold || r->st.hi_pct > o->threshold))
		pp_print_text(" (%.0f%% interval [%+.1f..%+.1f])", PP_CMP_EQ_CONF * 100,
			      r->st.eq_lo_pct, r->st.eq_hi_pct);
	if (!r->ok) {
		pp_print_string(PP_JSON, "problem", NULL, pp_cmp_problem_name(r->problem));
		pp_print_string(PP_ANY, "reason", " (%s)", r->why);
	} else if (r->unreliable) {
		pp_print_string(PP_ANY, "unreliable", ", unreliable: %s", r->pool->unreliable);
	}
	if (r->fails)
		pp_print_text(" (fails)");
	pp_print_string(r->gates ? PP_JSON : PP_ANY, "kind", " (%s, not gating)",
			pp_kind_name(p->kind));
	if (p->spread_pct > 0) {
		/* noisy by nature: its own run-to-run spread is larger than a target */
		pp_print_double(PP_ANY, "declared_spread_pct", " (spread by nature %.0f%%", p->spread_pct);
		pp_print_bool(PP_JSON, "within_declared_spread", NULL,
			      r->ok && fabs(r->st.change_pct) < p->spread_pct);
		pp_print_text("%s)", r->ok && fabs(r->st.change_pct) < p->spread_pct ?
			      ": the change is within it" : "");
	}
	pp_print_bool(PP_JSON, "gates", NULL, r->gates);
	pp_print_bool(PP_JSON, "fails", NULL, r->fails);
	if (r->ok) {
		bool changed = r->st.verdict == PP_VERDICT_REGRESSION ||
			       r->st.verdict == PP_VERDICT_IMPROVEMENT;

		print_kdelta(r, changed, o->threshold);
		print_pdiff(p, changed);
	}
	pp_print_text("\n");
	pp_print_close_object();
}

static void print_side(const char *name, const struct pp_side *s)
{
	size_t i;

	pp_print_open_object(name);
	pp_print_string(PP_ANY, "arg", "%s", s->arg);
	pp_print_u64(PP_ANY, "runs", " (%llu run", s->npaths);
	pp_print_text("%s", s->npaths == 1 ? "" : "s");
	pp_print_string(PP_ANY, "kernel", ", kernel %s)", s->runs[0].meta.release);
	pp_print_open_array("files");
	for (i = 0; i < s->npaths; i++)
		pp_print_string(PP_JSON, NULL, NULL, s->paths[i]);
	pp_print_close_array();
	pp_print_close_object();
}

/*
 * How the run-to-run variation went into the intervals: measured from
 * the sides' repeated runs (the median over the keys), or assumed.
 */
static void print_run_noise(const struct pp_cmp_row *rows, size_t nrows,
			    const struct pp_cmp_opts *o)
{
	double *v = malloc((nrows ? nrows : 1) * sizeof(*v));
	size_t i, n = 0, single = 0, hist = 0;
	bool measured = false;

	for (i = 0; v && i < nrows; i++) {
		if (!rows[i].ok)
			continue;
		measured = rows[i].st.run_noise_measured;
		if (rows[i].st.history_runs > hist)
			hist = rows[i].st.history_runs;
		v[n++] = rows[i].st.run_noise_pct;
		if (rows[i].pool->nbase == 1 || rows[i].pool->nnew == 1)
			single++;
	}
	/* imported results have one value and no samples to give an interval */
	pp_print_u64(single ? PP_ANY : PP_JSON, "single_valued_keys",
		     "single-valued keys (imported results, no samples): %llu; their intervals "
		     "are the run-to-run variation alone\n", (unsigned long long)single);
	pp_print_open_object("run_noise");
	pp_print_bool(PP_JSON, "measured", NULL, measured);
	pp_print_double(PP_JSON, "assumed_pct", NULL, o->run_noise);
	if (n && measured) {
		pp_print_num(PP_ANY, "median_pct",
			     "run-to-run variation: measured from the runs' and rounds' medians, median %s%% over the keys",
			     pp_median(v, n));
		pp_print_u64(PP_ANY, "history_runs", " (with %llu earlier runs of the labels)",
			     (unsigned long long)hist);
		pp_print_text("\n");
	} else if (n) {
		pp_print_num(PP_FP, NULL, "run-to-run variation: assumed %s%% (one run a side cannot "
			     "show it; 2+ runs a side, or run --rounds N, measure it; --run-noise PCT)\n",
			     o->run_noise);
	}
	pp_print_close_object();
	free(v);
}

/* One warning: kind, what it is about, one line. */
static void print_warning(const char *kind, const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void print_warning(const char *kind, const char *subject, const char *fmt, ...)
{
	char text[PP_CMP_WHY_MAX + PP_KEY_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pp_print_open_object(NULL);
	pp_print_string(PP_JSON, "kind", NULL, kind);
	if (subject)
		pp_print_string(PP_JSON, "subject", NULL, subject);
	pp_print_string(PP_ANY, "message", "warning: %s\n", text);
	pp_print_close_object();
}

/*
 * Everything that is not a verdict, before the verdicts: facts that
 * differ, interrupted runs, keys not compared and why, results the
 * harness flagged, --fail-on globs that name no key.
 */
static void print_warnings(const struct pp_comparison *c)
{
	const struct pp_side *sides[] = { c->base, c->new };
	const struct pp_cmp_warn *w = c->w;
	const struct pp_cmp_row *rows = c->rows;
	const struct pp_cmp_opts *o = c->o;
	size_t i, j, nw = c->nw, nrows = c->nrows;
	int g;

	pp_print_open_array("warnings");
	for (i = 0; i < nw; i++) {
		const char *note = pp_cmp_warn_note(&w[i], o);

		pp_print_open_object(NULL);
		pp_print_string(PP_JSON, "kind", NULL, w[i].kind == PP_CMP_WARN_DIFFERS ? "fact" :
				pp_cmp_warn_kind_name(w[i].kind));
		pp_print_string(PP_ANY, "fact", w[i].kind == PP_CMP_WARN_EMULATED ?
				"warning: %s:" : "warning: %s differs:", w[i].fact);
		pp_print_string(PP_ANY, "base", " base '%s'", w[i].base);
		pp_print_string(PP_ANY, "new", ", new '%s'", w[i].new);
		if (note)
			pp_print_string(PP_ANY, "note", ": %s", note);
		pp_print_text("\n");
		pp_print_close_object();
	}
	for (j = 0; j < ARRAY_SIZE(sides); j++)
		for (i = 0; i < sides[j]->npaths; i++)
			if (sides[j]->runs[i].interrupted)
				print_warning("interrupted", sides[j]->paths[i],
					      "%s: %s was interrupted: its results are partial",
					      j ? "new" : "base", sides[j]->paths[i]);
	for (i = 0; i < nrows; i++) {
		const struct pp_cmp_row *r = &rows[i];

		if (!r->ok)
			print_warning(pp_cmp_problem_name(r->problem), r->pool->key,
				      "%s: not compared, %s: %s", r->pool->key,
				      r->on_new ? "new" : "base", r->why);
		else if (r->unreliable)
			print_warning("unreliable", r->pool->key, "%s: unreliable, %s%s",
				      r->pool->key, r->pool->unreliable,
				      o->strict ? "" : " (gates only with --strict)");
	}
	for (g = 0; g < o->nfail_on; g++) {
		if (!pp_cmp_names_a_key(o->fail_on[g], rows, nrows))
			print_warning("fail-on", o->fail_on[g],
				      "--fail-on '%s' names no key of either side", o->fail_on[g]);
	}
	pp_print_close_array();
}

static void print_comparison(const struct pp_comparison *c)
{
	const struct pp_cmp_findings *fd = &c->fd;
	const struct pp_cmp_kind *k = &c->k;
	const struct pp_cmp_opts *o = c->o;
	const struct pp_cmp_row *rows = c->rows;
	size_t nrows = c->nrows;
	static const char *const clocks[] = {
		[PP_CMP_CLOCK_WALL] = PP_CLOCK_WALL,
		[PP_CMP_CLOCK_VIRTUAL] = PP_CLOCK_VIRTUAL,
		[PP_CMP_CLOCK_MIXED] = "mixed",
	};
	bool insns = k->clock == PP_CMP_CLOCK_VIRTUAL;
	const char *group = NULL;
	size_t i, nreg = fd->nreg;

	pp_print_open_object(NULL);
	pp_print_text("base: ");
	print_side("base", c->base);
	pp_print_text("\nnew:  ");
	print_side("new", c->new);
	pp_print_text("\n");
	pp_print_double(PP_JSON, "threshold_pct", NULL, o->threshold);
	pp_print_string(PP_JSON, "clock", NULL, clocks[k->clock]);
	pp_print_bool(PP_JSON, "gates", NULL, k->gates);
	print_warnings(c);
	if (insns)
		pp_print_text("clock: %s on both sides (QEMU -icount): a change is an instruction-count change, the work done, not time\n",
			      PP_CLOCK_VIRTUAL);
	print_run_noise(rows, nrows, o);
	pp_print_text("\n%-28s %12s %12s %-6s %8s %s  %s\n", "key", "base", "new", "unit",
		      insns ? "insn chg" : "change", "[interval]", "verdict");
	pp_print_open_array("results");
	for (i = 0; i < nrows; i++) {
		if (!rows[i].gates && (!i || rows[i - 1].gates)) {
			group = NULL;
			pp_print_text("-- not gating: derived figures and facts (their verdicts set no exit)\n");
		}
		if (!o->sort && (!group || strcmp(group, rows[i].group))) {
			group = rows[i].group;
			pp_print_text("-- %s\n", group);
		}
		print_row(&rows[i], o);
	}
	pp_print_close_array();
	pp_print_u64(PP_ANY, "regressions", "\n%llu regression", nreg);
	pp_print_text("%s beyond ", nreg == 1 ? "" : "s");
	pp_print_num(PP_FP, NULL, "%s%%", o->threshold);
	pp_print_text(" at %.0f%% confidence%s%s", PP_CMP_CONF * 100,
		      insns ? " (instruction counts)" : "",
		      k->gates ? "" : k->emulated_wall ?
		      "; emulated on the wall clock, none fails the run" : "");
	pp_print_u64(PP_ANY, "failing", ", %llu failing", fd->nfail);
	pp_print_u64(PP_ANY, "compared", "; %llu keys compared", fd->nok);
	pp_print_u64(PP_ANY, "warning_count", ", %llu warnings\n", fd->nwarn);
	if (fd->incomplete[0])
		pp_print_string(PP_ANY, "not_comparable", "not comparable: %s\n", fd->incomplete);
	pp_print_close_object();
}

/* --- output: CI formats --- */

/* Warnings as comment lines ("# warning: ..."): KTAP, and LAVA's shell. */
static void print_warn_comments(FILE *f, const struct pp_comparison *c)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i;

	for (i = 0; i < c->nw; i++) {
		pp_cmp_warn_line(text, sizeof(text), &c->w[i], c->o);
		text[strcspn(text, "\n")] = '\0';
		fprintf(f, "# warning: %s\n", text);
	}
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, f);
		}
	}
}

static void row_summary(char *buf, size_t size, const struct pp_cmp_row *r)
{
	char b[PP_NUM_LEN], nb[PP_NUM_LEN];
	int n;

	pp_fmt_num(b, sizeof(b), r->st.base_median);
	pp_fmt_num(nb, sizeof(nb), r->st.new_median);
	if (r->ok)
		n = snprintf(buf, size, "%s: %s -> %s %s, %+.1f%% [%+.1f..%+.1f], %s%s%s",
			     r->pool->key, b, nb, r->pool->unit,
			     r->st.change_pct, r->st.lo_pct, r->st.hi_pct, pp_cmp_row_verdict(r),
			     r->unreliable ? ", unreliable: " : "",
			     r->unreliable ? r->pool->unreliable : "");
	else
		n = snprintf(buf, size, "%s: %s, %s", r->pool->key, pp_cmp_row_verdict(r), r->why);
	if (!r->gates && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " (%s, not gating)", pp_kind_name(r->pool->kind));
	if (r->pool->spread_pct > 0 && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, " (spread by nature %.0f%%%s)", r->pool->spread_pct,
			 r->ok && fabs(r->st.change_pct) < r->pool->spread_pct ?
			 ": the change is within it" : "");
}

/*
 * How a CI format reports a row: a gating regression fails; a key the
 * new side lacks because its benchmark failed, its run stopped or for no
 * reason is an error; one skipped there, one new in the new side, and
 * an unreliable result that does not gate are skipped tests with their
 * reason; the rest pass.
 */
enum ci_status { CI_PASS, CI_FAIL, CI_ERROR, CI_SKIP };

static enum ci_status ci_status(const struct pp_cmp_row *r)
{
	if (r->fails)
		return CI_FAIL;
	if (!r->gates)		/* a derived figure or a fact: shown, never failing */
		return r->ok ? CI_PASS : CI_SKIP;
	if (!r->ok)
		return r->on_new && r->problem != PP_PB_SKIPPED ? CI_ERROR : CI_SKIP;
	return r->unreliable ? CI_SKIP : CI_PASS;
}

/* The reason of a skip or an error, one line. */
static const char *ci_reason(const struct pp_cmp_row *r, char *buf, size_t size)
{
	if (!r->ok)
		snprintf(buf, size, "%s on the %s side: %s", pp_cmp_problem_name(r->problem),
			 r->on_new ? "new" : "base", r->why);
	else
		snprintf(buf, size, "unreliable: %s", r->pool->unreliable);
	return buf;
}

/* A key's testcase: failed, in error or skipped with its reason, and its figures. */
static void junit_case(FILE *f, const struct pp_cmp_row *r)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512], why[PP_CMP_WHY_MAX + 64];

	fprintf(f, "  <testcase classname=\"perfprobe.%s\" name=\"", r->group);
	xml_escaped(f, r->pool->key);
	fprintf(f, "\" time=\"0\">\n");
	row_summary(text, sizeof(text), r);
	switch (ci_status(r)) {
	case CI_FAIL:
		fprintf(f, "    <failure type=\"regression\" message=\"");
		xml_escaped(f, text);
		fprintf(f, "\"/>\n");
		break;
	case CI_ERROR:
		fprintf(f, "    <error type=\"%s\" message=\"", pp_cmp_problem_name(r->problem));
		xml_escaped(f, ci_reason(r, why, sizeof(why)));
		fprintf(f, "\"/>\n");
		break;
	case CI_SKIP:
		fprintf(f, "    <skipped message=\"");
		xml_escaped(f, ci_reason(r, why, sizeof(why)));
		fprintf(f, "\"/>\n");
		break;
	case CI_PASS:
		break;
	}
	fprintf(f, "    <system-out>");
	xml_escaped(f, text);
	fprintf(f, "</system-out>\n  </testcase>\n");
}

/* The warnings as the suite's properties. */
static void junit_properties(FILE *f, const struct pp_comparison *c)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i;

	if (!c->nw)
		return;
	fprintf(f, "  <properties>\n");
	for (i = 0; i < c->nw; i++) {
		pp_cmp_warn_line(text, sizeof(text), &c->w[i], c->o);
		fprintf(f, "    <property name=\"warning\" value=\"");
		xml_escaped(f, text);
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "  </properties>\n");
}

static void print_junit(FILE *f, const struct pp_comparison *c)
{
	const struct pp_cmp_findings *fd = &c->fd;
	size_t i, n[CI_SKIP + 1] = { 0 };

	for (i = 0; i < c->nrows; i++)
		n[ci_status(&c->rows[i])]++;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites>\n<testsuite name=\"perfprobe compare ");
	xml_escaped(f, c->base->arg);
	fputc(' ', f);
	xml_escaped(f, c->new->arg);
	/* nothing comparable: one error of the suite's own, never all passing */
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
		c->nrows + !!fd->incomplete[0], n[CI_FAIL], n[CI_ERROR] + !!fd->incomplete[0],
		n[CI_SKIP]);
	junit_properties(f, c);
	if (fd->incomplete[0]) {
		fprintf(f, "  <testcase classname=\"perfprobe\" name=\"comparable\" time=\"0\">\n"
			"    <error type=\"not-comparable\" message=\"");
		xml_escaped(f, fd->incomplete);
		fprintf(f, "\"/>\n  </testcase>\n");
	}
	for (i = 0; i < c->nrows; i++)
		junit_case(f, &c->rows[i]);
	fprintf(f, "</testsuite>\n</testsuites>\n");
}

/* KTAP: a test name is one word; keys already are. */
static void print_ktap(FILE *f, const struct pp_comparison *c)
{
	const struct pp_cmp_row *rows = c->rows;
	size_t nrows = c->nrows;
	char text[512], why[PP_CMP_WHY_MAX + 64];
	const struct pp_cmp_findings *fd = &c->fd;
	size_t i, k = !!fd->incomplete[0];

	fprintf(f, "KTAP version 1\n1..%zu\n", nrows + k);
	fprintf(f, "# perfprobe compare %s %s\n", c->base->arg, c->new->arg);
	print_warn_comments(f, c);
	if (k)
		fprintf(f, "not ok 1 comparable # %s\n", fd->incomplete);
	for (i = 0; i < nrows; i++) {
		const struct pp_cmp_row *r = &rows[i];

		row_summary(text, sizeof(text), r);
		fprintf(f, "# %s\n", text);
		switch (ci_status(r)) {
		case CI_PASS:
		case CI_FAIL:
			fprintf(f, "%s %zu %s\n", r->fails ? "not ok" : "ok", i + 1 + k, r->pool->key);
			break;
		case CI_ERROR:
			fprintf(f, "not ok %zu %s # %s\n", i + 1 + k, r->pool->key,
				ci_reason(r, why, sizeof(why)));
			break;
		case CI_SKIP:
			fprintf(f, "ok %zu %s # SKIP %s\n", i + 1 + k, r->pool->key,
				ci_reason(r, why, sizeof(why)));
			break;
		}
	}
}

/* LAVA's lava-test-case lines: the change in % is the measurement. */
static void print_lava(FILE *f, const struct pp_comparison *c)
{
	const struct pp_cmp_row *rows = c->rows;
	size_t i, nrows = c->nrows;

	print_warn_comments(f, c);
	for (i = 0; i < nrows; i++) {
		const struct pp_cmp_row *r = &rows[i];
		static const char *const res[] = {
			[CI_PASS] = "pass", [CI_FAIL] = "fail", [CI_ERROR] = "fail",
			[CI_SKIP] = "skip",
		};

		if (!r->ok) {
			fprintf(f, "lava-test-case %s --result %s\n", r->pool->key,
				res[ci_status(r)]);
			continue;
		}
		fprintf(f, "lava-test-case %s --result %s --measurement %.6g --units %s\n",
			r->pool->key, res[ci_status(r)], r->st.new_median, r->pool->unit);
	}
}

/*
 * KernelCI's KCIDB I/O schema, version 5.3 (what kcidb-io validates
 * today) or, --kcidb-version 4.3, the last that a lab's older KCIDB may
 * still take: the new side as a checkout, a build and one test per key.
 * Status: FAIL for a failing regression, PASS for the rest that were
 * compared, ERROR for a key that cannot be compared, SKIP for one
 * missing on a side.  The new median is the test's "number" (5.x; 4.3
 * has none: misc.value and misc.unit), the comparison and the verdict in
 * misc, the machine the new side ran on as its environment.  A test's
 * path is perfprobe.GROUP.KEY with the key's dots as '_' (a path's parts
 * are separated by dots): Documentation/compare.rst.
 */
#define KCIDB_ORIGIN	"perfprobe"

static json_t *kcidb_test(const struct pp_cmp_row *r, const char *build_id,
			  const struct pp_meta *m, const struct cmp_opts *o)
{
	static const char *const status[] = {
		[CI_PASS] = "PASS", [CI_FAIL] = "FAIL", [CI_ERROR] = "ERROR", [CI_SKIP] = "SKIP",
	};
	char id[PP_KEY_MAX + 320], path[PP_KEY_MAX + 64], why[PP_CMP_WHY_MAX + 64], *p;
	json_t *t = json_object(), *misc = json_object(), *num, *env;

	snprintf(id, sizeof(id), "%s:%s", build_id, r->pool->key);
	snprintf(path, sizeof(path), "perfprobe.%s.%s", r->group, r->pool->key);
	for (p = path + strlen("perfprobe."); *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' &&
		    p != path + strlen("perfprobe.") + strlen(r->group))
			*p = '_';	/* [a-zA-Z0-9_-] between the dots */
	json_object_set_new(t, "id", json_string(id));
	json_object_set_new(t, "build_id", json_string(build_id));
	json_object_set_new(t, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(t, "path", json_string(path));
	json_object_set_new(t, "status", json_string(status[ci_status(r)]));
	if (m->date[0])
		json_object_set_new(t, "start_time", json_string(m->date));
	if (m->hostname[0]) {
		env = json_object();
		json_object_set_new(env, "comment", json_string(m->hostname));
		json_object_set_new(t, "environment", env);
	}
	if (r->ok) {
		if (o->kcidb_major >= 5) {
			num = json_object();
			json_object_set_new(num, "value", json_real(r->st.new_median));
			json_object_set_new(num, "unit", json_string(r->pool->unit));
			json_object_set_new(t, "number", num);
		} else {
			json_object_set_new(misc, "value", json_real(r->st.new_median));
			json_object_set_new(misc, "unit", json_string(r->pool->unit));
		}
		json_object_set_new(misc, "base_median", json_real(r->st.base_median));
		json_object_set_new(misc, "change_pct", json_real(r->st.change_pct));
		json_object_set_new(misc, "lo_pct", json_real(r->st.lo_pct));
		json_object_set_new(misc, "hi_pct", json_real(r->st.hi_pct));
	}
	json_object_set_new(misc, "key", json_string(r->pool->key));
	json_object_set_new(misc, "verdict", json_string(pp_cmp_row_verdict(r)));
	if (ci_status(r) == CI_ERROR || ci_status(r) == CI_SKIP)
		json_object_set_new(misc, "reason", json_string(ci_reason(r, why, sizeof(why))));
	json_object_set_new(misc, "kind", json_string(pp_kind_name(r->pool->kind)));
	json_object_set_new(misc, "gating", json_boolean(r->gates));
	json_object_set_new(misc, "unreliable", json_boolean(r->unreliable));
	json_object_set_new(misc, "direction", json_string(r->pool->dir == PP_HIGHER_IS_BETTER ?
							   "higher" : "lower"));
	json_object_set_new(t, "misc", misc);
	return t;
}

/* The version is the printer's, not the comparison's: --kcidb-version. */
static int print_kcidb(FILE *f, const struct pp_comparison *c, const struct cmp_opts *o)
{
	const struct pp_cmp_row *rows = c->rows;
	size_t nrows = c->nrows;
	const struct pp_side *base = c->base, *new = c->new;
	const struct pp_meta *m = &new->runs[0].meta;
	json_t *doc = json_object(), *ver = json_object(), *co = json_object();
	json_t *b = json_object(), *tests = json_array(), *misc = json_object();
	char id[256], text[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i;
	int ret;

	if (c->nw) {
		json_t *wa = json_array();

		for (i = 0; i < c->nw; i++) {
			pp_cmp_warn_line(text, sizeof(text), &c->w[i], c->o);
			json_array_append_new(wa, json_string(text));
		}
		json_object_set_new(misc, "warnings", wa);
	}
	snprintf(id, sizeof(id), KCIDB_ORIGIN ":%s:%s", m->hostname, m->label);
	json_object_set_new(ver, "major", json_integer(o->kcidb_major));
	json_object_set_new(ver, "minor", json_integer(o->kcidb_minor));
	json_object_set_new(doc, "version", ver);
	json_object_set_new(co, "id", json_string(id));
	json_object_set_new(co, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(co, "comment", json_string(m->release));
	json_object_set_new(doc, "checkouts", json_pack("[o]", co));
	json_object_set_new(b, "id", json_string(id));
	json_object_set_new(b, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(b, "checkout_id", json_string(id));
	json_object_set_new(b, "architecture", json_string(m->machine));
	json_object_set_new(misc, "kernel_release", json_string(m->release));
	json_object_set_new(misc, "baseline", json_string(base->runs[0].meta.label));
	json_object_set_new(b, "misc", misc);
	json_object_set_new(doc, "builds", json_pack("[o]", b));
	for (i = 0; i < nrows; i++)
		json_array_append_new(tests, kcidb_test(&rows[i], id, m, o));
	json_object_set_new(doc, "tests", tests);
	ret = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return ret ? -EIO : 0;
}

/* --- one comparison --- */

/* What the comparisons found, for the exit code. */
struct outcome {
	bool regressed;		/* a regression that gates */
	bool differs;		/* a warning --strict counts */
	bool incomplete;	/* nothing can pass */
};

static int compare_one(const struct pp_side *base, const struct pp_side *new,
		       const struct cmp_opts *o, struct outcome *out)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512];
	struct pp_comparison cmp;
	const struct pp_cmp_findings *fd = &cmp.fd;
	size_t i;
	int ret;

	ret = pp_comparison_build(&cmp, base, new, &o->cmp);
	if (ret) {
		pp_err("compare: %s", strerror(-ret));
		goto free_comparison;
	}
	if (o->format != FMT_TEXT && o->format != FMT_JSON) {
		for (i = 0; i < cmp.nw; i++) {
			pp_cmp_warn_line(text, sizeof(text), &cmp.w[i], &o->cmp);
			fprintf(stderr, "perfprobe: compare: warning: %s\n", text);
		}
		if (fd->nwarn > cmp.nw)
			fprintf(stderr, "perfprobe: compare: %zu more warnings: keys not compared "
				"or unreliable, runs interrupted (the text or JSON output lists them)\n",
				fd->nwarn - cmp.nw);
	}
	if (fd->incomplete[0])
		pp_err("compare: not comparable: %s", fd->incomplete);
	switch (o->format) {
	case FMT_TEXT:
	case FMT_JSON:
		print_comparison(&cmp);
		break;
	case FMT_JUNIT:
		print_junit(stdout, &cmp);
		break;
	case FMT_KTAP:
		print_ktap(stdout, &cmp);
		break;
	case FMT_LAVA:
		print_lava(stdout, &cmp);
		break;
	case FMT_KCIDB:
		ret = print_kcidb(stdout, &cmp, o);
		break;
	}
	out->regressed |= fd->nfail > 0;
	/* --strict: any warning but an unreliable key, or emulation it was told to gate */
	for (i = 0; i < cmp.nw; i++)
		out->differs |= pp_cmp_warn_counts(&cmp.w[i], &o->cmp);
	out->differs |= fd->nwarn - fd->nunreliable > cmp.nw;
	out->incomplete |= fd->incomplete[0] != '\0';
free_comparison:
	pp_comparison_free(&cmp);
	return ret ? PP_EXIT_FAIL : 0;
}

static int compare_sides(struct pp_cli *cli, int argc, char **argv,
			 const struct cmp_opts *opts)
{
	const struct cmp_opts o = *opts;
	struct outcome out = { false, false, false };
	struct pp_side *sides;
	int i, ret = 0;

	if (argc < 2)
		return pp_usage_err("compare: give a base and at least one new side (result files, directories, labels or latest)");
	if (argc > 2 && o.format != FMT_TEXT && o.format != FMT_JSON)
		return pp_usage_err("compare: --format junit, ktap, lava and kcidb take one new side");
	sides = calloc((size_t)argc, sizeof(*sides));
	if (!sides)
		return PP_EXIT_FAIL;
	for (i = 0; i < argc && !ret; i++) {
		sides[i].arg = argv[i];
		ret = pp_side_load(&sides[i], cli->results_dir, !o.cmp.no_history);
	}
	if (ret)
		goto out;
	if (o.format == FMT_TEXT || o.format == FMT_JSON) {
		pp_print_start(stdout, o.format == FMT_JSON);
		pp_print_string(PP_JSON, "format", NULL, "perfprobe-compare");
		pp_print_open_array("comparisons");
	}
	for (i = 1; i < argc && !ret; i++) {
		if (i > 1)
			pp_print_text("\n");
		ret = compare_one(&sides[0], &sides[i], &o, &out);
	}
	if (o.format == FMT_TEXT || o.format == FMT_JSON) {
		pp_print_close_array();
		if (pp_print_done() && !ret)
			ret = PP_EXIT_FAIL;
	}
	/* fail closed: nothing that could pass when data is missing */
	if (!ret && (out.incomplete || (o.cmp.strict && out.differs)))
		ret = PP_EXIT_NOT_COMPARABLE;
	else if (!ret && out.regressed)
		ret = PP_EXIT_REGRESSION;
out:
	for (i = 0; i < argc; i++)
		pp_side_free(&sides[i]);
	free(sides);
	return ret;
}

int pp_cmd_compare(struct pp_cli *cli, int argc, char **argv)
{
	struct cmp_opts o;
	int ret;

	ret = parse_opts(cli, &o);
	if (!ret)
		ret = compare_sides(cli, argc, argv, &o);
	free(o.cmp.fail_on);
	free(o.cmp.ignore);
	return ret;
}
