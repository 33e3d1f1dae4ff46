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
#include "report/runsel.h"
#include "util.h"

enum cmp_format { FMT_TEXT, FMT_JSON, FMT_JUNIT, FMT_KTAP, FMT_LAVA, FMT_KCIDB };

struct cmp_opts {
	double threshold;
	double run_noise;		/* assumed run-to-run SD, % */
	bool sort, strict, no_history;
	bool gate_emulated;		/* verdicts of wall-clock emulation gate */
	enum cmp_format format;
	const char **fail_on;		/* as many as given */
	int nfail_on;
	const char **ignore;
	int nignore;
};

/* One side: its files and their runs; earlier runs of its label. */
struct side {
	const char *arg;
	char **paths;
	size_t npaths;
	struct pp_run *runs;
	struct pp_run *hist;
	size_t nhist;
};

/*
 * Why a key was not compared: the side without it, and what that side's
 * run said of it.  Every one is a warning; on the new side, a failure,
 * a missing key and an interrupted run are errors in the CI formats, a
 * skip is a skipped test.
 */
enum problem {
	PB_NONE,
	PB_FAILED,		/* its benchmark failed */
	PB_SKIPPED,		/* its benchmark could not run there */
	PB_INTERRUPTED,		/* the run stopped before it */
	PB_MISSING,		/* not in the results, no reason given */
	PB_CONFLICT,		/* the runs give it different units */
	PB_CLOCK,		/* one side counted instructions, the other time */
};

static const char *const problem_names[] = {
	[PB_NONE] = "", [PB_FAILED] = "failed", [PB_SKIPPED] = "skipped",
	[PB_INTERRUPTED] = "interrupted", [PB_MISSING] = "missing",
	[PB_CONFLICT] = "conflict", [PB_CLOCK] = "not-comparable",
};

/* One key compared, in the order it is printed. */
struct row {
	struct pp_cmp_pool *pool;
	struct pp_cmp_stat st;
	bool ok;		/* st is valid (both sides have samples) */
	const char *group;
	bool gates;		/* its verdict may fail the run (pp_cmp_gates()) */
	bool fails;		/* sets the exit: a regression that gates */
	bool unreliable;	/* ok, but the harness flagged a side (pool->unreliable) */
	enum problem problem;	/* !ok: why, on the side without it */
	bool on_new;		/* the problem is the new side's */
	char why[PP_CMP_WHY_MAX];
};

/* What one comparison is, beyond its rows: the clock and whether it gates. */
struct cmp_kind {
	enum pp_cmp_clock clock;
	bool emulated_wall;	/* an emulator timed a side on the wall clock */
	bool gates;		/* its regressions fail the run */
};

/* What a comparison found that is not a verdict: the exit depends on it. */
struct findings {
	size_t nreg, nfail;	/* regressions; those that gate */
	size_t nok;		/* keys compared */
	size_t nwarn;		/* facts, problems, unreliable keys, interrupted runs */
	size_t nunreliable;	/* of those: keys the harness flagged (they gate with --strict) */
	char incomplete[PP_CMP_WHY_MAX];	/* why nothing can pass, or "" */
};

static int parse_opts(struct pp_cli *cli, struct cmp_opts *o)
{
	static const char *const formats[] = {
		[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_JUNIT] = "junit",
		[FMT_KTAP] = "ktap", [FMT_LAVA] = "lava", [FMT_KCIDB] = "kcidb",
	};
	unsigned int f;
	int i;

	memset(o, 0, sizeof(*o));
	/* no cap: room for every --fail-on and --ignore given */
	o->fail_on = calloc((size_t)cli->ncopts + 1, sizeof(*o->fail_on));
	o->ignore = calloc((size_t)cli->ncopts + 1, sizeof(*o->ignore));
	if (!o->fail_on || !o->ignore) {
		pp_err("compare: out of memory");
		return PP_EXIT_FAIL;
	}
	o->threshold = PP_CMP_THRESHOLD_PCT;
	o->run_noise = PP_CMP_RUN_NOISE_PCT;
	o->format = cli->json ? FMT_JSON : FMT_TEXT;
	for (i = 0; i < cli->ncopts; i++) {
		const struct pp_cli_opt *c = &cli->copts[i];

		switch (c->val) {
		case 't':
			if (pp_parse_double(c->arg, 0, 100, &o->threshold) ||
			    o->threshold <= 0 || o->threshold >= 100)
				return pp_usage_err("compare: --threshold: '%s' is not a percentage between 0 and 100",
						    c->arg);
			break;
		case 'N':
			if (pp_parse_double(c->arg, 0, 100, &o->run_noise) || o->run_noise >= 100)
				return pp_usage_err("compare: --run-noise: '%s' is not a percentage from 0 to 100",
						    c->arg);
			break;
		case 's':
			o->sort = true;
			break;
		case 'S':
			o->strict = true;
			break;
		case 'H':
			o->no_history = true;
			break;
		case PP_OPT_GATE_EMULATED:
			o->gate_emulated = true;
			break;
		case 'F':
		case 'I':
			if (c->val == 'F')
				o->fail_on[o->nfail_on++] = c->arg;
			else
				o->ignore[o->nignore++] = c->arg;
			break;
		case 'f':
			for (f = 0; f < ARRAY_SIZE(formats); f++)
				if (!strcmp(c->arg, formats[f]))
					break;
			if (f == ARRAY_SIZE(formats))
				return pp_usage_err("compare: --format: '%s' is not one of text, json, junit, ktap, lava, kcidb",
						    c->arg);
			o->format = f;
			break;
		}
	}
	if (cli->json && o->format != FMT_JSON)
		return pp_usage_err("compare: --json and --format %s contradict each other",
				    formats[o->format]);
	return 0;
}

static bool matches(const char *const *globs, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], key, 0))
			return true;
	return false;
}

/* --- the sides --- */

/* The files of one side (runsel.c), then their runs: 0 or an exit code. */
static int side_load(struct side *s, const char *results_dir)
{
	struct pp_runsel sel;
	char err[512];
	size_t i;
	int ret;

	ret = pp_runsel_resolve(s->arg, results_dir, &sel);
	if (ret)
		return ret;
	s->paths = sel.paths;
	s->npaths = sel.n;
	s->runs = calloc(s->npaths, sizeof(*s->runs));
	if (!s->runs)
		return PP_EXIT_FAIL;
	for (i = 0; i < s->npaths; i++) {
		ret = pp_run_load(&s->runs[i], s->paths[i], err, sizeof(err));
		if (ret) {
			pp_err("%s", err);
			return PP_EXIT_BADFILE;
		}
	}
	return 0;
}

/* Runs of one kernel made the same way: label, host, release, mode, pinning. */
static bool same_setup(const struct pp_meta *a, const struct pp_meta *b)
{
	return !strcmp(a->label, b->label) && !strcmp(a->hostname, b->hostname) &&
	       !strcmp(a->release, b->release) && !strcmp(a->mode, b->mode) &&
	       a->pin_cpu == b->pin_cpu;
}

/*
 * The side's history: the saved runs (results_dir) of its label on its
 * host, made the same way, that are not its own files, when all its runs
 * share that setup.  They measure the run-to-run variation of that kernel there;
 * their figures are not compared.  0 or an exit code.
 */
static int side_history(struct side *s, const char *results_dir)
{
	const struct pp_meta *m = &s->runs[0].meta;
	struct pp_runsel all = { 0 };
	char dir[PATH_MAX], err[512];
	struct stat *own;
	size_t i, j;

	for (i = 1; i < s->npaths; i++)
		if (!same_setup(&s->runs[i].meta, m))
			return 0;
	if (!m->label[0])
		return 0;
	if (results_dir)
		pp_strlcpy(dir, results_dir, sizeof(dir));
	else if (pp_results_default_dir(dir, sizeof(dir)))
		return 0;
	if (pp_runsel_scan(dir, &all))
		return 0;	/* no saved runs: no history */
	s->hist = calloc(all.n ? all.n : 1, sizeof(*s->hist));
	own = calloc(s->npaths, sizeof(*own));	/* the side's files, by inode */
	if (!s->hist || !own) {
		free(own);
		pp_runsel_free(&all);
		return PP_EXIT_FAIL;
	}
	for (j = 0; j < s->npaths; j++)
		if (stat(s->paths[j], &own[j]))
			own[j].st_ino = 0;
	for (i = 0; i < all.n; i++) {
		struct pp_run *h = &s->hist[s->nhist];
		struct stat st;

		if (stat(all.paths[i], &st))
			continue;
		for (j = 0; j < s->npaths; j++)
			if (own[j].st_ino == st.st_ino && own[j].st_dev == st.st_dev)
				break;
		if (j < s->npaths || pp_run_load(h, all.paths[i], err, sizeof(err)))
			continue;
		if (same_setup(&h->meta, m))
			s->nhist++;
		else
			pp_run_free(h);
	}
	free(own);
	pp_runsel_free(&all);
	return 0;
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nhist; i++)
		pp_run_free(&s->hist[i]);
	free(s->hist);
	for (i = 0; i < s->npaths; i++) {
		if (s->runs)
			pp_run_free(&s->runs[i]);
		free(s->paths[i]);
	}
	free(s->runs);
	free(s->paths);
}

/* --- rows --- */

/* The group of a key: its benchmark's (the name before the first '-'). */
static const char *key_group(const char *key)
{
	char name[PP_KEY_MAX];
	const struct pp_bench *b;

	snprintf(name, sizeof(name), "%s", key);
	name[strcspn(name, "-")] = '\0';
	b = pp_bench_find(name);
	return b ? b->group : "other";
}

static unsigned int group_rank(const char *group)
{
	unsigned int i;

	for (i = 0; i < pp_ngroups; i++)
		if (!strcmp(pp_groups[i].name, group))
			return i;
	return pp_ngroups;
}

static bool sort_by_verdict;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	unsigned int ga, gb;

	/* derived figures and facts apart, after the rest */
	if (a->gates != b->gates)
		return a->gates ? -1 : 1;
	if (sort_by_verdict) {
		if (a->ok != b->ok)
			return a->ok ? -1 : 1;
		if (a->ok) {
			int c = pp_cmp_order(&a->st, a->pool->dir, &b->st, b->pool->dir);

			if (c)
				return c;
		}
	}
	ga = group_rank(a->group);
	gb = group_rank(b->group);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	return a->pool < b->pool ? -1 : a->pool > b->pool;
}

static const char *row_verdict(const struct row *r)
{
	if (r->problem == PB_CLOCK)
		return "not-comparable";
	if (r->pool->conflict)
		return "conflict";
	if (!r->ok)
		return r->on_new ? "missing-new" : "missing-base";
	return pp_verdict_name(r->st.verdict);
}

/* The name a run's fails and skips give a key: its benchmark, or itself. */
static const struct pp_note *run_says(const struct pp_note *list, size_t n,
				      const char *key)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(list[i].name);
		if (!strcmp(list[i].name, key) ||
		    (!strncmp(list[i].name, key, len) && key[len] == '-'))
			return &list[i];
	}
	return NULL;
}

/* Why the side without r's key has none: r->problem, r->why. */
static void row_problem(struct row *r, const struct side *base, const struct side *new)
{
	const struct side *s;
	const struct pp_note *k;
	size_t i;

	r->on_new = !r->pool->nnew || r->pool->conflict || r->problem == PB_CLOCK;
	s = r->on_new ? new : base;
	if (r->problem == PB_CLOCK) {
		snprintf(r->why, sizeof(r->why),
			 "one side counted instructions (QEMU -icount), the other time");
		return;
	}
	if (r->pool->conflict) {
		r->problem = PB_CONFLICT;
		snprintf(r->why, sizeof(r->why), "the runs give it different units or directions");
		return;
	}
	for (i = 0; i < s->npaths; i++) {
		const struct pp_run *run = &s->runs[i];

		k = run_says(run->fails, run->nfails, r->pool->key);
		if (k) {
			r->problem = PB_FAILED;
			snprintf(r->why, sizeof(r->why), "%s failed: %.150s", k->name, k->reason);
			return;
		}
		k = run_says(run->skips, run->nskips, r->pool->key);
		if (k) {
			r->problem = PB_SKIPPED;
			snprintf(r->why, sizeof(r->why), "%s skipped: %.150s", k->name, k->reason);
			return;
		}
	}
	for (i = 0; i < s->npaths; i++) {
		if (s->runs[i].interrupted) {
			r->problem = PB_INTERRUPTED;
			snprintf(r->why, sizeof(r->why), "the run was interrupted before it (%s)",
				 s->paths[i]);
			return;
		}
	}
	r->problem = PB_MISSING;
	snprintf(r->why, sizeof(r->why), "not in its results");
}

/* --- warnings, in every format --- */

/* What a warning means beyond its values; NULL for a fact that differs. */
static const char *warn_note(const struct pp_cmp_warn *w, const struct cmp_opts *o)
{
	switch (w->kind) {
	case PP_CMP_WARN_CLOCK:
		return "one side counted instructions, the other time: no figure is compared";
	case PP_CMP_WARN_EMULATED:
		if (o->gate_emulated)
			return "an emulator timed the host, not the kernel: gating anyway (--gate-emulated)";
		return "an emulator timed the host, not the kernel: the verdicts gate nothing (--gate-emulated)";
	case PP_CMP_WARN_DIFFERS:
		break;
	}
	return NULL;
}

/* Whether a warning makes --strict exit 6. */
static bool warn_counts(const struct pp_cmp_warn *w, const struct cmp_opts *o)
{
	return w->kind != PP_CMP_WARN_EMULATED || !o->gate_emulated;
}

/* One line, without "warning: " and the newline. */
static void warn_line(char *buf, size_t size, const struct pp_cmp_warn *w,
		      const struct cmp_opts *o)
{
	const char *note = warn_note(w, o);

	snprintf(buf, size, "%s%s: base '%s', new '%s'%s%s", w->fact,
		 w->kind == PP_CMP_WARN_EMULATED ? "" : " differs", w->base, w->new,
		 note ? ": " : "", note ? note : "");
}

/* --- output: text and JSON through the print layer --- */

static bool have(double v)
{
	return !isnan(v);
}

/*
 * The kernel figures a row's delta has, in JSON all of them where both
 * sides measured them.  A time goes with a count (its own index for a
 * count): it means something only where that count is not incidental.
 */
enum kd_kind { KD_COUNT, KD_BYTES, KD_NS };
enum kd_index { KD_KERNEL_NS, KD_SYSCALLS, KD_FAULTS, KD_FAULT_NS, KD_SWITCHES, KD_OFFCPU,
		KD_COPY_BYTES, KD_COPY_NS };

#define KD(i, n, l, k, c) [i] = { #n, l, offsetof(struct pp_kside, n), k, c }
static const struct kd_field {
	const char *name;
	const char *label;
	size_t off;
	enum kd_kind kind;
	enum kd_index count;		/* the count it goes with */
} kd_fields[] = {
	KD(KD_KERNEL_NS, kernel_ns_per_op, "kernel", KD_NS, KD_SYSCALLS),
	KD(KD_SYSCALLS, syscalls_per_op, "syscalls", KD_COUNT, KD_SYSCALLS),
	KD(KD_FAULTS, faults_per_op, "faults", KD_COUNT, KD_FAULTS),
	KD(KD_FAULT_NS, fault_ns_per_op, "fault time", KD_NS, KD_FAULTS),
	KD(KD_SWITCHES, switches_per_op, "switches", KD_COUNT, KD_SWITCHES),
	KD(KD_OFFCPU, offcpu_ns_per_op, "off-CPU", KD_NS, KD_SWITCHES),
	KD(KD_COPY_BYTES, copy_bytes_per_op, "bytes copied", KD_BYTES, KD_COPY_BYTES),
	KD(KD_COPY_NS, copy_ns_per_op, "copy time", KD_NS, KD_COPY_BYTES),
};
#undef KD

static double kd_value(const struct pp_kside *k, unsigned int i)
{
	return *(const double *)((const char *)k + kd_fields[i].off);
}

/* A count, or bytes, worth a place in text (results.h). */
static bool kd_shown(double v, enum kd_kind kind)
{
	return fabs(v) >= (kind == KD_BYTES ? PP_KSIDE_BYTES_MIN : PP_KSIDE_COUNT_MIN);
}

/*
 * Did figure i change beyond its noise (compare.rst, "The kernel
 * view")?  By threshold percent of the base at least, and: a count by
 * PP_KSIDE_COUNT_MIN an operation or more (bytes: PP_KSIDE_BYTES_MIN); a
 * time only where its count is not incidental on a side, and kernel time
 * by more than twice the error of the two figures where they carry one.
 */
static bool kd_changed(const struct pp_kside *b, const struct pp_kside *n, unsigned int i,
		       double threshold)
{
	const struct kd_field *f = &kd_fields[i];
	double vb = kd_value(b, i), vn = kd_value(n, i), d = vn - vb, err;
	enum kd_index c = f->count;

	if (!(fabs(d) * 100 >= threshold * fabs(vb)) || d == 0)
		return false;
	if (f->kind != KD_NS)
		return kd_shown(d, f->kind);
	if (!kd_shown(kd_value(b, c), kd_fields[c].kind) &&
	    !kd_shown(kd_value(n, c), kd_fields[c].kind))
		return false;
	if (i != KD_KERNEL_NS)
		return true;
	err = hypot(b->kernel_ns_err, n->kernel_ns_err);
	return isnan(err) || fabs(d) > 2 * err;
}

/*
 * The kernel view's change, where both sides have one: every figure in
 * JSON; in text (text: a changed row) those that changed beyond their
 * noise, or that none did.
 */
static void print_kdelta(const struct pp_kside *b, const struct pp_kside *n, bool text,
			 double threshold)
{
	char v[PP_NUM_LEN + 4];
	const char *sep = "; ";
	unsigned int i;

	if (!b->source[0] || !n->source[0])
		return;
	pp_print_open_object("kernel_delta");
	for (i = 0; i < ARRAY_SIZE(kd_fields); i++) {
		double d = kd_value(n, i) - kd_value(b, i);

		if (!have(kd_value(b, i)) || !have(kd_value(n, i)))
			continue;
		pp_print_double(PP_JSON, kd_fields[i].name, NULL, d);
		if (!text || !kd_changed(b, n, i, threshold))
			continue;
		if (kd_fields[i].kind == KD_NS)
			pp_fmt_ns(v, sizeof(v), d);
		else
			pp_fmt_num(v, sizeof(v), d);
		pp_print_text("%s%s/op %s%s", sep, kd_fields[i].label, d > 0 ? "+" : "", v);
		sep = ", ";
	}
	if (text && *sep == ';')
		pp_print_text("; kernel view unchanged");
	pp_print_close_object();
}

static void print_row(const struct row *r, const struct cmp_opts *o)
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
		pp_print_u64(PP_JSON, "base_samples", NULL, r->st.nbase);
		pp_print_u64(PP_JSON, "new_samples", NULL, r->st.nnew);
		pp_print_u64(PP_JSON, "base_runs", NULL, r->st.base_runs);
		pp_print_u64(PP_JSON, "new_runs", NULL, r->st.new_runs);
		pp_print_u64(PP_JSON, "base_medians", NULL, r->st.base_nmed);
		pp_print_u64(PP_JSON, "new_medians", NULL, r->st.new_nmed);
		pp_print_double(PP_JSON, "run_noise_pct", NULL, r->st.run_noise_pct);
		pp_print_bool(PP_JSON, "run_noise_measured", NULL, r->st.run_noise_measured);
		pp_print_u64(PP_JSON, "history_runs", NULL, r->st.history_runs);
	} else {
		pp_print_text(" %12s %12s %-6s %8s %s", "", "", p->unit, "", "");
	}
	pp_print_string(PP_ANY, "verdict", "  %s", row_verdict(r));
	if (r->ok && !r->st.run_noise_measured)
		pp_print_text(" (noise assumed)");
	if (!r->ok) {
		pp_print_string(PP_JSON, "problem", NULL, problem_names[r->problem]);
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
	if (r->ok)
		print_kdelta(&p->base_k, &p->new_k, r->st.verdict == PP_VERDICT_REGRESSION ||
			     r->st.verdict == PP_VERDICT_IMPROVEMENT, o->threshold);
	pp_print_text("\n");
	pp_print_close_object();
}

static void print_side(const char *name, const struct side *s)
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
static void print_run_noise(const struct row *rows, size_t nrows,
			    const struct cmp_opts *o)
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

/* Does a --fail-on glob name a key of either side? */
static bool names_a_key(const char *glob, const struct row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (!fnmatch(glob, rows[i].pool->key, 0))
			return true;
	return false;
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
static void print_warnings(const struct side *base, const struct side *new,
			   const struct pp_cmp_warn *w, size_t nw,
			   const struct row *rows, size_t nrows,
			   const struct cmp_opts *o)
{
	const struct side *sides[] = { base, new };
	size_t i, j;
	int g;

	pp_print_open_array("warnings");
	for (i = 0; i < nw; i++) {
		const char *note = warn_note(&w[i], o);

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
		const struct row *r = &rows[i];

		if (!r->ok)
			print_warning(problem_names[r->problem], r->pool->key,
				      "%s: not compared, %s: %s", r->pool->key,
				      r->on_new ? "new" : "base", r->why);
		else if (r->unreliable)
			print_warning("unreliable", r->pool->key, "%s: unreliable, %s%s",
				      r->pool->key, r->pool->unreliable,
				      o->strict ? "" : " (gates only with --strict)");
	}
	for (g = 0; g < o->nfail_on; g++) {
		if (!names_a_key(o->fail_on[g], rows, nrows))
			print_warning("fail-on", o->fail_on[g],
				      "--fail-on '%s' names no key of either side", o->fail_on[g]);
	}
	pp_print_close_array();
}

static void print_comparison(const struct side *base, const struct side *new,
			     const struct pp_cmp_warn *w, size_t nw,
			     const struct row *rows, size_t nrows,
			     const struct cmp_opts *o, const struct findings *fd,
			     const struct cmp_kind *k)
{
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
	print_side("base", base);
	pp_print_text("\nnew:  ");
	print_side("new", new);
	pp_print_text("\n");
	pp_print_double(PP_JSON, "threshold_pct", NULL, o->threshold);
	pp_print_string(PP_JSON, "clock", NULL, clocks[k->clock]);
	pp_print_bool(PP_JSON, "gates", NULL, k->gates);
	print_warnings(base, new, w, nw, rows, nrows, o);
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

/* What every CI format writes beyond its rows. */
struct ci_ctx {
	const struct side *base, *new;
	const struct pp_cmp_warn *w;
	size_t nw;
	const struct cmp_opts *o;
	const struct findings *fd;
};

/* Warnings as comment lines ("# warning: ..."): KTAP, and LAVA's shell. */
static void print_warn_comments(FILE *f, const struct ci_ctx *c)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i;

	for (i = 0; i < c->nw; i++) {
		warn_line(text, sizeof(text), &c->w[i], c->o);
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

static void row_summary(char *buf, size_t size, const struct row *r)
{
	char b[PP_NUM_LEN], nb[PP_NUM_LEN];
	int n;

	pp_fmt_num(b, sizeof(b), r->st.base_median);
	pp_fmt_num(nb, sizeof(nb), r->st.new_median);
	if (r->ok)
		n = snprintf(buf, size, "%s: %s -> %s %s, %+.1f%% [%+.1f..%+.1f], %s%s%s",
			     r->pool->key, b, nb, r->pool->unit,
			     r->st.change_pct, r->st.lo_pct, r->st.hi_pct, row_verdict(r),
			     r->unreliable ? ", unreliable: " : "",
			     r->unreliable ? r->pool->unreliable : "");
	else
		n = snprintf(buf, size, "%s: %s, %s", r->pool->key, row_verdict(r), r->why);
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

static enum ci_status ci_status(const struct row *r)
{
	if (r->fails)
		return CI_FAIL;
	if (!r->gates)		/* a derived figure or a fact: shown, never failing */
		return r->ok ? CI_PASS : CI_SKIP;
	if (!r->ok)
		return r->on_new && r->problem != PB_SKIPPED ? CI_ERROR : CI_SKIP;
	return r->unreliable ? CI_SKIP : CI_PASS;
}

/* The reason of a skip or an error, one line. */
static const char *ci_reason(const struct row *r, char *buf, size_t size)
{
	if (!r->ok)
		snprintf(buf, size, "%s on the %s side: %s", problem_names[r->problem],
			 r->on_new ? "new" : "base", r->why);
	else
		snprintf(buf, size, "unreliable: %s", r->pool->unreliable);
	return buf;
}

static void print_junit(FILE *f, const struct ci_ctx *c, const struct row *rows,
			size_t nrows)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512], why[PP_CMP_WHY_MAX + 64];
	const struct findings *fd = c->fd;
	size_t i, n[CI_SKIP + 1] = { 0 };

	for (i = 0; i < nrows; i++)
		n[ci_status(&rows[i])]++;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites>\n<testsuite name=\"perfprobe compare ");
	xml_escaped(f, c->base->arg);
	fputc(' ', f);
	xml_escaped(f, c->new->arg);
	/* nothing comparable: one error of the suite's own, never all passing */
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
		nrows + !!fd->incomplete[0], n[CI_FAIL], n[CI_ERROR] + !!fd->incomplete[0],
		n[CI_SKIP]);
	if (c->nw)
		fprintf(f, "  <properties>\n");
	for (i = 0; i < c->nw; i++) {
		warn_line(text, sizeof(text), &c->w[i], c->o);
		fprintf(f, "    <property name=\"warning\" value=\"");
		xml_escaped(f, text);
		fprintf(f, "\"/>\n");
	}
	if (c->nw)
		fprintf(f, "  </properties>\n");
	if (fd->incomplete[0]) {
		fprintf(f, "  <testcase classname=\"perfprobe\" name=\"comparable\" time=\"0\">\n"
			"    <error type=\"not-comparable\" message=\"");
		xml_escaped(f, fd->incomplete);
		fprintf(f, "\"/>\n  </testcase>\n");
	}
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

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
			fprintf(f, "    <error type=\"%s\" message=\"", problem_names[r->problem]);
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
	fprintf(f, "</testsuite>\n</testsuites>\n");
}

/* KTAP: a test name is one word; keys already are. */
static void print_ktap(FILE *f, const struct ci_ctx *c, const struct row *rows,
		       size_t nrows)
{
	char text[512], why[PP_CMP_WHY_MAX + 64];
	const struct findings *fd = c->fd;
	size_t i, k = !!fd->incomplete[0];

	fprintf(f, "KTAP version 1\n1..%zu\n", nrows + k);
	fprintf(f, "# perfprobe compare %s %s\n", c->base->arg, c->new->arg);
	print_warn_comments(f, c);
	if (k)
		fprintf(f, "not ok 1 comparable # %s\n", fd->incomplete);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

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
static void print_lava(FILE *f, const struct ci_ctx *c, const struct row *rows,
		       size_t nrows)
{
	size_t i;

	print_warn_comments(f, c);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
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
 * KernelCI's KCIDB I/O schema (v4): the new side as a checkout, a build
 * and one test per key, with its median as the test's number and the
 * comparison in misc.  Status: FAIL for a failing regression, PASS for
 * the rest that were compared, SKIP for keys missing on one side.
 */
#define KCIDB_ORIGIN	"perfprobe"

static json_t *kcidb_test(const struct row *r, const char *build_id,
			  const char *date)
{
	static const char *const status[] = {
		[CI_PASS] = "PASS", [CI_FAIL] = "FAIL", [CI_ERROR] = "ERROR", [CI_SKIP] = "SKIP",
	};
	char id[PP_KEY_MAX + 320], path[PP_KEY_MAX + 64], why[PP_CMP_WHY_MAX + 64], *p;
	json_t *t = json_object(), *misc = json_object(), *num;

	snprintf(id, sizeof(id), "%s:%s", build_id, r->pool->key);
	snprintf(path, sizeof(path), "perfprobe.%s.%s", r->group, r->pool->key);
	for (p = path + strlen("perfprobe.") + strlen(r->group) + 1; *p; p++)
		if (*p == '.')
			*p = '_';	/* a path's parts are separated by dots */
	json_object_set_new(t, "id", json_string(id));
	json_object_set_new(t, "build_id", json_string(build_id));
	json_object_set_new(t, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(t, "path", json_string(path));
	json_object_set_new(t, "status", json_string(status[ci_status(r)]));
	if (date[0])
		json_object_set_new(t, "start_time", json_string(date));
	if (r->ok) {
		num = json_object();
		json_object_set_new(num, "value", json_real(r->st.new_median));
		json_object_set_new(num, "unit", json_string(r->pool->unit));
		json_object_set_new(t, "number", num);
		json_object_set_new(misc, "base_median", json_real(r->st.base_median));
		json_object_set_new(misc, "change_pct", json_real(r->st.change_pct));
		json_object_set_new(misc, "lo_pct", json_real(r->st.lo_pct));
		json_object_set_new(misc, "hi_pct", json_real(r->st.hi_pct));
	}
	json_object_set_new(misc, "verdict", json_string(row_verdict(r)));
	if (ci_status(r) == CI_ERROR || ci_status(r) == CI_SKIP)
		json_object_set_new(misc, "reason", json_string(ci_reason(r, why, sizeof(why))));
	json_object_set_new(misc, "kind", json_string(pp_kind_name(r->pool->kind)));
	json_object_set_new(misc, "gating", json_boolean(r->gates));
	json_object_set_new(misc, "direction", json_string(r->pool->dir == PP_HIGHER_IS_BETTER ?
							   "higher" : "lower"));
	json_object_set_new(t, "misc", misc);
	return t;
}

static int print_kcidb(FILE *f, const struct ci_ctx *c, const struct row *rows,
		       size_t nrows)
{
	const struct side *base = c->base, *new = c->new;
	const struct pp_meta *m = &new->runs[0].meta;
	json_t *doc = json_object(), *ver = json_object(), *co = json_object();
	json_t *b = json_object(), *tests = json_array(), *misc = json_object();
	char id[256], text[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i;
	int ret;

	if (c->nw) {
		json_t *wa = json_array();

		for (i = 0; i < c->nw; i++) {
			warn_line(text, sizeof(text), &c->w[i], c->o);
			json_array_append_new(wa, json_string(text));
		}
		json_object_set_new(misc, "warnings", wa);
	}
	snprintf(id, sizeof(id), KCIDB_ORIGIN ":%s:%s", m->hostname, m->label);
	json_object_set_new(ver, "major", json_integer(4));
	json_object_set_new(ver, "minor", json_integer(3));
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
		json_array_append_new(tests, kcidb_test(&rows[i], id, m->date));
	json_object_set_new(doc, "tests", tests);
	ret = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return ret ? -EIO : 0;
}

/* --- one comparison --- */

static int build_rows(const struct side *base, const struct side *new,
		      const struct cmp_opts *o, const struct cmp_kind *k,
		      struct pp_cmp_pool **pool, size_t *npool, struct row **out,
		      size_t *nout, struct findings *fd)
{
	struct row *rows;
	size_t i, n = 0;
	int ret;

	ret = pp_cmp_pool(base->runs, base->npaths, new->runs, new->npaths, pool, npool);
	if (ret)
		return ret;
	rows = calloc(*npool ? *npool : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < *npool; i++) {
		struct pp_cmp_pool *p = &(*pool)[i];
		struct row *r = &rows[n];
		bool named = !o->nfail_on || matches(o->fail_on, o->nfail_on, p->key);

		if (matches(o->ignore, o->nignore, p->key))
			continue;
		r->pool = p;
		r->group = key_group(p->key);
		pp_cmp_history(p, base->hist, base->nhist);
		/* the same setup on both sides: one history, counted once */
		if (!base->nhist || !same_setup(&base->runs[0].meta, &new->runs[0].meta))
			pp_cmp_history(p, new->hist, new->nhist);
		r->gates = pp_cmp_gates(p);
		/* instructions against time: no figure is compared */
		if (k->clock == PP_CMP_CLOCK_MIXED)
			r->problem = PB_CLOCK;
		r->ok = !r->problem && !p->conflict && p->nbase && p->nnew &&
			!pp_cmp_runs(p, o->threshold, o->run_noise, &r->st);
		if (!r->ok) {
			row_problem(r, base, new);
			fd->nwarn++;
			/* a key --fail-on names must be measured on the new side */
			if (o->nfail_on && named && r->on_new && !fd->incomplete[0])
				snprintf(fd->incomplete, sizeof(fd->incomplete),
					 "%s, named by --fail-on: %.120s", p->key, r->why);
		} else {
			fd->nok++;
			r->unreliable = p->unreliable[0];
			fd->nwarn += r->unreliable;
			fd->nunreliable += r->unreliable;
		}
		if (r->ok && r->gates && r->st.verdict == PP_VERDICT_REGRESSION) {
			fd->nreg++;
			r->fails = k->gates && named && (!r->unreliable || o->strict);
			fd->nfail += r->fails;
		}
		n++;
	}
	sort_by_verdict = o->sort;
	qsort(rows, n, sizeof(*rows), cmp_rows);
	*out = rows;
	*nout = n;
	return 0;
}

/*
 * What the comparison found beyond its verdicts, counted for the exit:
 * the warnings and why nothing can pass when that is so.
 */
static void find_more(const struct side *base, const struct side *new,
		      const struct row *rows, size_t nrows, size_t nw,
		      const struct cmp_opts *o, struct findings *fd)
{
	size_t i;
	int g;

	fd->nwarn += nw;
	for (i = 0; i < base->npaths; i++)
		fd->nwarn += base->runs[i].interrupted;
	for (i = 0; i < new->npaths; i++)
		fd->nwarn += new->runs[i].interrupted;
	for (g = 0; g < o->nfail_on; g++) {
		if (!names_a_key(o->fail_on[g], rows, nrows)) {
			fd->nwarn++;
			if (!fd->incomplete[0])
				snprintf(fd->incomplete, sizeof(fd->incomplete),
					 "--fail-on '%s' names no key of either side", o->fail_on[g]);
		}
	}
	if (!fd->nok)
		snprintf(fd->incomplete, sizeof(fd->incomplete),
			 "no key of '%.120s' has samples on both sides (%zu keys seen)", new->arg, nrows);
}

static int compare_one(struct side *base, struct side *new,
		       const struct cmp_opts *o, bool *regressed, bool *differs,
		       bool *incomplete)
{
	char text[PP_CMP_VALUE_MAX * 2 + 512];
	struct pp_cmp_pool *pool = NULL;
	struct pp_cmp_warn *w = NULL;
	struct findings fd = { 0 };
	size_t npool = 0, nw = 0, nrows = 0, i;
	struct row *rows = NULL;
	struct ci_ctx c;
	struct cmp_kind k;
	int ret;

	ret = pp_cmp_warnings(base->runs, base->npaths, new->runs, new->npaths,
			      PP_CMP_MHZ_TOL_PCT, &w, &nw);
	k.clock = pp_cmp_clock(base->runs, base->npaths, new->runs, new->npaths);
	k.emulated_wall = false;
	for (i = 0; !ret && i < nw; i++)
		k.emulated_wall |= w[i].kind == PP_CMP_WARN_EMULATED;
	k.gates = !k.emulated_wall || o->gate_emulated;
	if (!ret)
		ret = build_rows(base, new, o, &k, &pool, &npool, &rows, &nrows, &fd);
	if (ret) {
		pp_err("compare: %s", strerror(-ret));
		goto out;
	}
	find_more(base, new, rows, nrows, nw, o, &fd);
	if (o->format != FMT_TEXT && o->format != FMT_JSON) {
		for (i = 0; i < nw; i++) {
			warn_line(text, sizeof(text), &w[i], o);
			fprintf(stderr, "perfprobe: compare: warning: %s\n", text);
		}
		if (fd.nwarn > nw)
			fprintf(stderr, "perfprobe: compare: %zu more warnings: keys not compared "
				"or unreliable, runs interrupted (the text or JSON output lists them)\n",
				fd.nwarn - nw);
	}
	if (fd.incomplete[0])
		pp_err("compare: not comparable: %s", fd.incomplete);
	c = (struct ci_ctx){ base, new, w, nw, o, &fd };
	switch (o->format) {
	case FMT_TEXT:
	case FMT_JSON:
		print_comparison(base, new, w, nw, rows, nrows, o, &fd, &k);
		break;
	case FMT_JUNIT:
		print_junit(stdout, &c, rows, nrows);
		break;
	case FMT_KTAP:
		print_ktap(stdout, &c, rows, nrows);
		break;
	case FMT_LAVA:
		print_lava(stdout, &c, rows, nrows);
		break;
	case FMT_KCIDB:
		ret = print_kcidb(stdout, &c, rows, nrows);
		break;
	}
	*regressed |= fd.nfail > 0;
	/* --strict: any warning but an unreliable key, or emulation it was told to gate */
	for (i = 0; i < nw; i++)
		*differs |= warn_counts(&w[i], o);
	*differs |= fd.nwarn - fd.nunreliable > nw;
	*incomplete |= fd.incomplete[0] != '\0';
out:
	free(rows);
	pp_cmp_pool_free(pool, npool);
	free(w);
	return ret ? PP_EXIT_FAIL : 0;
}

static int compare_sides(struct pp_cli *cli, int argc, char **argv,
			 const struct cmp_opts *opts)
{
	bool regressed = false, differs = false, incomplete = false;
	const struct cmp_opts o = *opts;
	struct side *sides;
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
		ret = side_load(&sides[i], cli->results_dir);
		if (!ret && !o.no_history)
			ret = side_history(&sides[i], cli->results_dir);
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
		ret = compare_one(&sides[0], &sides[i], &o, &regressed, &differs, &incomplete);
	}
	if (o.format == FMT_TEXT || o.format == FMT_JSON) {
		pp_print_close_array();
		if (pp_print_done() && !ret)
			ret = PP_EXIT_FAIL;
	}
	/* fail closed: nothing that could pass when data is missing */
	if (!ret && (incomplete || (o.strict && differs)))
		ret = PP_EXIT_NOT_COMPARABLE;
	else if (!ret && regressed)
		ret = PP_EXIT_REGRESSION;
out:
	for (i = 0; i < argc; i++)
		side_free(&sides[i]);
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
	free(o.fail_on);
	free(o.ignore);
	return ret;
}
