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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "print.h"
#include "stats.h"
#include "report/compare.h"
#include "report/runsel.h"
#include "util.h"

#define CMP_MAX_GLOBS	32

enum cmp_format { FMT_TEXT, FMT_JSON, FMT_JUNIT, FMT_KTAP, FMT_LAVA, FMT_KCIDB };

struct cmp_opts {
	double threshold;
	double run_noise;		/* assumed run-to-run SD, % */
	bool sort, strict;
	enum cmp_format format;
	const char *fail_on[CMP_MAX_GLOBS];
	int nfail_on;
	const char *ignore[CMP_MAX_GLOBS];
	int nignore;
};

/* One side: its files and their runs. */
struct side {
	const char *arg;
	char **paths;
	size_t npaths;
	struct pp_run *runs;
};

/* One key compared, in the order it is printed. */
struct row {
	struct pp_cmp_pool *pool;
	struct pp_cmp_stat st;
	bool ok;		/* st is valid (both sides have samples) */
	const char *group;
	bool gates;		/* its verdict may fail the run (pp_cmp_gates()) */
	bool fails;		/* a regression that fails the run */
};

static const struct option compare_longopts[] = {
	{ "threshold", required_argument, NULL, 't' },
	{ "sort", no_argument, NULL, 's' },
	{ "strict", no_argument, NULL, 'S' },
	{ "fail-on", required_argument, NULL, 'F' },
	{ "ignore", required_argument, NULL, 'I' },
	{ "format", required_argument, NULL, 'f' },
	{ "run-noise", required_argument, NULL, 'N' },
	{ NULL, 0, NULL, 0 }
};

const struct pp_cmd_opts pp_compare_opts = { "t:sSF:I:f:N:", compare_longopts };

static int parse_opts(struct pp_cli *cli, struct cmp_opts *o)
{
	static const char *const formats[] = {
		[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_JUNIT] = "junit",
		[FMT_KTAP] = "ktap", [FMT_LAVA] = "lava", [FMT_KCIDB] = "kcidb",
	};
	unsigned int f;
	int i;

	memset(o, 0, sizeof(*o));
	o->threshold = PP_CMP_THRESHOLD_PCT;
	o->run_noise = PP_CMP_RUN_NOISE_PCT;
	o->format = cli->json ? FMT_JSON : FMT_TEXT;
	for (i = 0; i < cli->ncopts; i++) {
		const struct pp_cli_opt *c = &cli->copts[i];
		char *end;

		switch (c->val) {
		case 't':
			errno = 0;
			o->threshold = strtod(c->arg, &end);
			if (errno || end == c->arg || *end || !isfinite(o->threshold) ||
			    o->threshold <= 0 || o->threshold >= 100)
				return pp_usage_err("compare: --threshold: '%s' is not a percentage between 0 and 100",
						    c->arg);
			break;
		case 'N':
			errno = 0;
			o->run_noise = strtod(c->arg, &end);
			if (errno || end == c->arg || *end || !isfinite(o->run_noise) ||
			    o->run_noise < 0 || o->run_noise >= 100)
				return pp_usage_err("compare: --run-noise: '%s' is not a percentage from 0 to 100",
						    c->arg);
			break;
		case 's':
			o->sort = true;
			break;
		case 'S':
			o->strict = true;
			break;
		case 'F':
		case 'I':
			if ((c->val == 'F' ? o->nfail_on : o->nignore) >= CMP_MAX_GLOBS)
				return pp_usage_err("compare: at most %d --fail-on and %d --ignore",
						    CMP_MAX_GLOBS, CMP_MAX_GLOBS);
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

static void side_free(struct side *s)
{
	size_t i;

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
	if (r->pool->conflict)
		return "conflict";
	if (!r->ok)
		return r->pool->nbase ? "missing-new" : "missing-base";
	return pp_verdict_name(r->st.verdict);
}

/* --- output: text and JSON through the print layer --- */

static bool have(double v)
{
	return !isnan(v);
}

static void print_kdelta(const struct pp_kside *b, const struct pp_kside *n)
{
	static const struct {
		const char *name;
		size_t off;
		bool ns;		/* a time: printed in ns or us */
		const char *label;
	} f[] = {
		{ "kernel_ns_per_op", offsetof(struct pp_kside, kernel_ns_per_op), true, "kernel" },
		{ "syscalls_per_op", offsetof(struct pp_kside, syscalls_per_op), false, "syscalls" },
		{ "faults_per_op", offsetof(struct pp_kside, faults_per_op), false, "faults" },
		{ "fault_ns_per_op", offsetof(struct pp_kside, fault_ns_per_op), true, "fault time" },
		{ "switches_per_op", offsetof(struct pp_kside, switches_per_op), false, "switches" },
		{ "offcpu_ns_per_op", offsetof(struct pp_kside, offcpu_ns_per_op), true, "off-CPU" },
		{ "copy_bytes_per_op", offsetof(struct pp_kside, copy_bytes_per_op), false,
		  "bytes copied" },
		{ "copy_ns_per_op", offsetof(struct pp_kside, copy_ns_per_op), true, "copy time" },
	};
	bool first = true;
	size_t i;

	if (!b->source[0] || !n->source[0])
		return;
	pp_print_open_object("kernel_delta");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		double vb = *(const double *)((const char *)b + f[i].off);
		double vn = *(const double *)((const char *)n + f[i].off);
		double d = vn - vb;

		if (!have(vb) || !have(vn))
			continue;
		pp_print_double(PP_JSON, f[i].name, NULL, d);
		pp_print_text("%s%s/op ", first ? "; " : ", ", f[i].label);
		if (!f[i].ns)
			pp_print_text(fabs(d) < 1000 ? "%+.2f" : "%+.3g", fabs(d) < 0.005 ? 0.0 : d);
		else if (fabs(d) >= 1000)
			pp_print_text("%+.3g us", d / 1000);
		else
			pp_print_text("%+.3g ns", d);
		first = false;
	}
	pp_print_close_object();
}

static void print_row(const struct row *r, bool changed_only_k)
{
	const struct pp_cmp_pool *p = r->pool;

	pp_print_open_object(NULL);
	pp_print_string(PP_ANY, "key", "%-28s", p->key);
	pp_print_string(PP_JSON, "unit", NULL, p->unit);
	pp_print_string(PP_JSON, "direction", NULL,
			p->dir == PP_HIGHER_IS_BETTER ? "higher" : "lower");
	pp_print_string(PP_JSON, "group", NULL, r->group);
	if (r->ok) {
		pp_print_double(PP_ANY, "base_median", " %12.4g", r->st.base_median);
		pp_print_double(PP_ANY, "new_median", " %12.4g", r->st.new_median);
		pp_print_string(PP_FP, NULL, " %-6s", p->unit);
		pp_print_double(PP_ANY, "change_pct", " %+7.1f%%", r->st.change_pct);
		pp_print_double(PP_ANY, "lo_pct", " [%+.1f", r->st.lo_pct);
		pp_print_double(PP_ANY, "hi_pct", "..%+.1f]", r->st.hi_pct);
		pp_print_double(PP_JSON, "confidence", NULL, r->st.conf);
		pp_print_u64(PP_JSON, "base_samples", NULL, r->st.nbase);
		pp_print_u64(PP_JSON, "new_samples", NULL, r->st.nnew);
		pp_print_u64(PP_JSON, "base_runs", NULL, r->st.base_runs);
		pp_print_u64(PP_JSON, "new_runs", NULL, r->st.new_runs);
		pp_print_double(PP_JSON, "run_noise_pct", NULL, r->st.run_noise_pct);
		pp_print_bool(PP_JSON, "run_noise_measured", NULL, r->st.run_noise_measured);
	} else {
		pp_print_text(" %12s %12s %-6s %8s %s", "", "", p->unit, "", "");
	}
	pp_print_string(PP_ANY, "verdict", "  %s", row_verdict(r));
	if (r->fails)
		pp_print_text(" (fails)");
	pp_print_string(r->gates ? PP_JSON : PP_ANY, "kind", " (%s, not gating)",
			pp_kind_name(p->kind));
	pp_print_bool(PP_JSON, "gates", NULL, r->gates);
	pp_print_bool(PP_JSON, "fails", NULL, r->fails);
	if (r->ok && (!changed_only_k || r->st.verdict == PP_VERDICT_REGRESSION ||
		      r->st.verdict == PP_VERDICT_IMPROVEMENT))
		print_kdelta(&p->base_k, &p->new_k);
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
	size_t i, n = 0, single = 0;
	bool measured = false;

	for (i = 0; v && i < nrows; i++) {
		if (!rows[i].ok)
			continue;
		measured = rows[i].st.run_noise_measured;
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
		pp_print_double(PP_ANY, "median_pct",
				"run-to-run variation: measured from the repeated runs, median %.2g%% over the keys\n",
				pp_median(v, n));
	} else if (n) {
		pp_print_text("run-to-run variation: assumed %.2g%% (one run a side cannot show it; "
			      "2+ runs a side measure it; --run-noise PCT)\n", o->run_noise);
	}
	pp_print_close_object();
	free(v);
}

static void print_comparison(const struct side *base, const struct side *new,
			     const struct pp_cmp_warn *w, size_t nw,
			     const struct row *rows, size_t nrows,
			     const struct cmp_opts *o, size_t nreg)
{
	const char *group = NULL;
	size_t i;

	pp_print_open_object(NULL);
	pp_print_text("base: ");
	print_side("base", base);
	pp_print_text("\nnew:  ");
	print_side("new", new);
	pp_print_text("\n");
	pp_print_double(PP_JSON, "threshold_pct", NULL, o->threshold);
	pp_print_open_array("warnings");
	for (i = 0; i < nw; i++) {
		pp_print_open_object(NULL);
		pp_print_string(PP_ANY, "fact", "warning: %s differs:", w[i].fact);
		pp_print_string(PP_ANY, "base", " base '%s'", w[i].base);
		pp_print_string(PP_ANY, "new", ", new '%s'\n", w[i].new);
		pp_print_close_object();
	}
	pp_print_close_array();
	print_run_noise(rows, nrows, o);
	pp_print_text("\n%-28s %12s %12s %-6s %8s %s  %s\n", "key", "base", "new", "unit",
		      "change", "[interval]", "verdict");
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
		print_row(&rows[i], true);
	}
	pp_print_close_array();
	pp_print_u64(PP_ANY, "regressions", "\n%llu regression", nreg);
	pp_print_text("%s beyond %.4g%% at %.0f%% confidence\n", nreg == 1 ? "" : "s",
		      o->threshold, PP_CMP_CONF * 100);
	pp_print_close_object();
}

/* --- output: CI formats --- */

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
	int n;

	if (r->ok)
		n = snprintf(buf, size, "%s: %.6g -> %.6g %s, %+.1f%% [%+.1f..%+.1f], %s",
			     r->pool->key, r->st.base_median, r->st.new_median, r->pool->unit,
			     r->st.change_pct, r->st.lo_pct, r->st.hi_pct, row_verdict(r));
	else
		n = snprintf(buf, size, "%s: %s", r->pool->key, row_verdict(r));
	if (!r->gates && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, " (%s, not gating)", pp_kind_name(r->pool->kind));
}

static void print_junit(FILE *f, const struct side *new, const struct row *rows,
			size_t nrows, size_t nfail)
{
	char text[512];
	size_t i;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites>\n<testsuite name=\"perfprobe compare ");
	xml_escaped(f, new->arg);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		nrows, nfail, (size_t)0);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		fprintf(f, "  <testcase classname=\"perfprobe.%s\" name=\"", r->group);
		xml_escaped(f, r->pool->key);
		fprintf(f, "\" time=\"0\"");
		row_summary(text, sizeof(text), r);
		if (r->fails) {
			fprintf(f, ">\n    <failure type=\"regression\" message=\"");
			xml_escaped(f, text);
			fprintf(f, "\"/>\n  </testcase>\n");
		} else {
			fprintf(f, ">\n    <system-out>");
			xml_escaped(f, text);
			fprintf(f, "</system-out>\n  </testcase>\n");
		}
	}
	fprintf(f, "</testsuite>\n</testsuites>\n");
}

/* KTAP: a test name is one word; keys already are. */
static void print_ktap(FILE *f, const struct row *rows, size_t nrows)
{
	char text[512];
	size_t i;

	fprintf(f, "KTAP version 1\n1..%zu\n", nrows);
	for (i = 0; i < nrows; i++) {
		row_summary(text, sizeof(text), &rows[i]);
		fprintf(f, "# %s\n", text);
		fprintf(f, "%s %zu %s%s\n", rows[i].fails ? "not ok" : "ok", i + 1,
			rows[i].pool->key, rows[i].ok ? "" : " # SKIP no samples on one side");
	}
}

/* LAVA's lava-test-case lines: the change in % is the measurement. */
static void print_lava(FILE *f, const struct row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		if (!r->ok) {
			fprintf(f, "lava-test-case %s --result skip\n", r->pool->key);
			continue;
		}
		fprintf(f, "lava-test-case %s --result %s --measurement %.6g --units %s\n",
			r->pool->key, r->fails ? "fail" : "pass", r->st.new_median,
			r->pool->unit);
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
	char id[PP_KEY_MAX + 320], path[PP_KEY_MAX + 64], *p;
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
	json_object_set_new(t, "status", json_string(!r->ok ? "SKIP" : r->fails ? "FAIL" : "PASS"));
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
	json_object_set_new(misc, "kind", json_string(pp_kind_name(r->pool->kind)));
	json_object_set_new(misc, "gating", json_boolean(r->gates));
	json_object_set_new(misc, "direction", json_string(r->pool->dir == PP_HIGHER_IS_BETTER ?
							   "higher" : "lower"));
	json_object_set_new(t, "misc", misc);
	return t;
}

static int print_kcidb(FILE *f, const struct side *base, const struct side *new,
		       const struct row *rows, size_t nrows)
{
	const struct pp_meta *m = &new->runs[0].meta;
	json_t *doc = json_object(), *ver = json_object(), *co = json_object();
	json_t *b = json_object(), *tests = json_array(), *misc = json_object();
	char id[256];
	size_t i;
	int ret;

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
		      const struct cmp_opts *o, struct pp_cmp_pool **pool,
		      size_t *npool, struct row **out, size_t *nout, size_t *nreg,
		      size_t *nfail)
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
	*nreg = *nfail = 0;
	for (i = 0; i < *npool; i++) {
		struct pp_cmp_pool *p = &(*pool)[i];
		struct row *r = &rows[n];

		if (matches(o->ignore, o->nignore, p->key))
			continue;
		r->pool = p;
		r->group = key_group(p->key);
		r->gates = pp_cmp_gates(p);
		r->ok = !p->conflict && p->nbase && p->nnew &&
			!pp_cmp_runs(p, o->threshold, o->run_noise, &r->st);
		if (r->ok && r->gates && r->st.verdict == PP_VERDICT_REGRESSION) {
			(*nreg)++;
			r->fails = !o->nfail_on || matches(o->fail_on, o->nfail_on, p->key);
			*nfail += r->fails;
		}
		n++;
	}
	sort_by_verdict = o->sort;
	qsort(rows, n, sizeof(*rows), cmp_rows);
	*out = rows;
	*nout = n;
	return 0;
}

static int compare_one(struct side *base, struct side *new,
		       const struct cmp_opts *o, bool *regressed, bool *differs)
{
	struct pp_cmp_pool *pool = NULL;
	struct pp_cmp_warn *w = NULL;
	size_t npool = 0, nw = 0, nrows = 0, nreg = 0, nfail = 0;
	struct row *rows = NULL;
	int ret;

	ret = pp_cmp_warnings(base->runs, base->npaths, new->runs, new->npaths,
			      PP_CMP_MHZ_TOL_PCT, &w, &nw);
	if (!ret)
		ret = build_rows(base, new, o, &pool, &npool, &rows, &nrows, &nreg, &nfail);
	if (ret) {
		pp_err("compare: %s", strerror(-ret));
		goto out;
	}
	for (size_t i = 0; i < nw && o->format != FMT_TEXT && o->format != FMT_JSON; i++)
		fprintf(stderr, "perfprobe: compare: warning: %s differs: base '%s', new '%s'\n",
			w[i].fact, w[i].base, w[i].new);
	switch (o->format) {
	case FMT_TEXT:
	case FMT_JSON:
		print_comparison(base, new, w, nw, rows, nrows, o, nreg);
		break;
	case FMT_JUNIT:
		print_junit(stdout, new, rows, nrows, nfail);
		break;
	case FMT_KTAP:
		print_ktap(stdout, rows, nrows);
		break;
	case FMT_LAVA:
		print_lava(stdout, rows, nrows);
		break;
	case FMT_KCIDB:
		ret = print_kcidb(stdout, base, new, rows, nrows);
		break;
	}
	*regressed |= nfail > 0;
	*differs |= nw > 0;
out:
	free(rows);
	pp_cmp_pool_free(pool, npool);
	free(w);
	return ret ? PP_EXIT_FAIL : 0;
}

int pp_cmd_compare(struct pp_cli *cli, int argc, char **argv)
{
	bool regressed = false, differs = false;
	struct cmp_opts o;
	struct side *sides;
	int i, ret;

	ret = parse_opts(cli, &o);
	if (ret)
		return ret;
	if (argc < 2)
		return pp_usage_err("compare: give a base and at least one new side (result files or directories)");
	if (argc > 2 && o.format != FMT_TEXT && o.format != FMT_JSON)
		return pp_usage_err("compare: --format junit, ktap, lava and kcidb take one new side");
	sides = calloc((size_t)argc, sizeof(*sides));
	if (!sides)
		return PP_EXIT_FAIL;
	for (i = 0; i < argc && !ret; i++) {
		sides[i].arg = argv[i];
		ret = side_load(&sides[i], cli->results_dir);
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
		ret = compare_one(&sides[0], &sides[i], &o, &regressed, &differs);
	}
	if (o.format == FMT_TEXT || o.format == FMT_JSON) {
		pp_print_close_array();
		if (pp_print_done() && !ret)
			ret = PP_EXIT_FAIL;
	}
	if (!ret && o.strict && differs)
		ret = PP_EXIT_NOT_COMPARABLE;
	else if (!ret && regressed)
		ret = PP_EXIT_REGRESSION;
out:
	for (i = 0; i < argc; i++)
		side_free(&sides[i]);
	free(sides);
	return ret;
}
