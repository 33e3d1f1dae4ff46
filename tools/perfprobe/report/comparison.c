// SPDX-License-Identifier: GPL-2.0
/*
 * One comparison of two sides, as compare decides it (comparison.h):
 * the sides and their history, a row per key, the warnings, what sets
 * the exit.  Printing is the commands' (comparecmd.c, report.c).
 * Documentation/compare.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "exitcode.h"
#include "print.h"
#include "report/comparison.h"
#include "report/runsel.h"
#include "util.h"

static const char *const pp_cmp_problem_names[] = {
	[PP_PB_NONE] = "", [PP_PB_FAILED] = "failed", [PP_PB_SKIPPED] = "skipped",
	[PP_PB_INTERRUPTED] = "interrupted", [PP_PB_MISSING] = "missing",
	[PP_PB_CONFLICT] = "conflict", [PP_PB_CLOCK] = "not-comparable",
};

const char *pp_cmp_problem_name(enum pp_cmp_problem p)
{
	return pp_cmp_problem_names[p];
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
static int side_files(struct pp_side *s, const char *results_dir)
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
static int side_history(struct pp_side *s, const char *results_dir)
{
	const struct pp_meta *m = &s->runs[0].meta;
	struct pp_runsel all = { 0 };
	char dir[PATH_MAX], err[512];
	struct stat *own;
	size_t i, j;
	int ret = 0;

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
		ret = PP_EXIT_FAIL;
		goto free_all;
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
free_all:
	free(own);
	pp_runsel_free(&all);
	return ret;
}

void pp_side_free(struct pp_side *s)
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
	const struct pp_cmp_row *a = pa, *b = pb;
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

const char *pp_cmp_row_verdict(const struct pp_cmp_row *r)
{
	if (r->problem == PP_PB_CLOCK)
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
static void row_problem(struct pp_cmp_row *r, const struct pp_side *base, const struct pp_side *new)
{
	const struct pp_side *s;
	const struct pp_note *k;
	size_t i;

	r->on_new = !r->pool->nnew || r->pool->conflict || r->problem == PP_PB_CLOCK;
	s = r->on_new ? new : base;
	if (r->problem == PP_PB_CLOCK) {
		snprintf(r->why, sizeof(r->why),
			 "one side counted instructions (QEMU -icount), the other time");
		return;
	}
	if (r->pool->conflict) {
		r->problem = PP_PB_CONFLICT;
		snprintf(r->why, sizeof(r->why), "the runs give it different units or directions");
		return;
	}
	for (i = 0; i < s->npaths; i++) {
		const struct pp_run *run = &s->runs[i];

		k = run_says(run->fails, run->nfails, r->pool->key);
		if (k) {
			r->problem = PP_PB_FAILED;
			snprintf(r->why, sizeof(r->why), "%s failed: %.150s", k->name, k->reason);
			return;
		}
		k = run_says(run->skips, run->nskips, r->pool->key);
		if (k) {
			r->problem = PP_PB_SKIPPED;
			snprintf(r->why, sizeof(r->why), "%s skipped: %.150s", k->name, k->reason);
			return;
		}
	}
	for (i = 0; i < s->npaths; i++) {
		if (s->runs[i].interrupted) {
			r->problem = PP_PB_INTERRUPTED;
			snprintf(r->why, sizeof(r->why), "the run was interrupted before it (%s)",
				 s->paths[i]);
			return;
		}
	}
	r->problem = PP_PB_MISSING;
	snprintf(r->why, sizeof(r->why), "not in its results");
}


const char *pp_cmp_warn_note(const struct pp_cmp_warn *w, const struct pp_cmp_opts *o)
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

bool pp_cmp_warn_counts(const struct pp_cmp_warn *w, const struct pp_cmp_opts *o)
{
	return w->kind != PP_CMP_WARN_EMULATED || !o->gate_emulated;
}

void pp_cmp_warn_line(char *buf, size_t size, const struct pp_cmp_warn *w,
		      const struct pp_cmp_opts *o)
{
	const char *note = pp_cmp_warn_note(w, o);

	snprintf(buf, size, "%s%s: base '%s', new '%s'%s%s", w->fact,
		 w->kind == PP_CMP_WARN_EMULATED ? "" : " differs", w->base, w->new,
		 note ? ": " : "", note ? note : "");
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


size_t pp_kd_count(void)
{
	return ARRAY_SIZE(kd_fields);
}

const char *pp_kd_name(size_t i)
{
	return kd_fields[i].name;
}

double pp_kd_value(const struct pp_kside *k, size_t i)
{
	return kd_value(k, i);
}

size_t pp_cmp_kernel_why(char *buf, size_t size, const struct pp_cmp_row *r, double threshold)
{
	const struct pp_kside *b = &r->pool->base_k, *n = &r->pool->new_k;
	char v[PP_NUM_LEN + 4];
	size_t i, len = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (!r->ok || !b->source[0] || !n->source[0])
		return 0;
	for (i = 0; i < ARRAY_SIZE(kd_fields) && len < size; i++) {
		double d = kd_value(n, i) - kd_value(b, i);

		if (isnan(d) || !kd_changed(b, n, i, threshold))
			continue;
		if (kd_fields[i].kind == KD_NS)
			pp_fmt_ns(v, sizeof(v), d);
		else
			pp_fmt_num(v, sizeof(v), d);
		len += snprintf(buf + len, size - len, "%s%s/op %s%s", len ? ", " : "",
				kd_fields[i].label, d > 0 ? "+" : "", v);
	}
	if (!len)
		len = snprintf(buf, size, "kernel view unchanged");
	return len < size ? len : size - 1;
}

bool pp_cmp_names_a_key(const char *glob, const struct pp_cmp_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (!fnmatch(glob, rows[i].pool->key, 0))
			return true;
	return false;
}


/* Pool r's key over the sides' runs and their history, and judge it. */
static void judge_row(struct pp_comparison *c, struct pp_cmp_row *r, struct pp_cmp_pool *p)
{
	const struct pp_side *base = c->base, *new = c->new;
	const struct pp_cmp_opts *o = c->o;
	struct pp_cmp_findings *fd = &c->fd;
	bool named = !o->nfail_on || matches(o->fail_on, o->nfail_on, p->key);

	r->pool = p;
	r->group = key_group(p->key);
	pp_cmp_history(p, base->hist, base->nhist);
	/* the same setup on both sides: one history, counted once */
	if (!base->nhist || !same_setup(&base->runs[0].meta, &new->runs[0].meta))
		pp_cmp_history(p, new->hist, new->nhist);
	r->gates = pp_cmp_gates(p);
	/* instructions against time: no figure is compared */
	if (c->k.clock == PP_CMP_CLOCK_MIXED)
		r->problem = PP_PB_CLOCK;
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
		r->fails = c->k.gates && named && (!r->unreliable || o->strict);
		fd->nfail += r->fails;
	}
}

/* The keys pooled, each not --ignore'd a row, judged and sorted: 0 or -errno. */
static int build_rows(struct pp_comparison *c)
{
	const struct pp_side *base = c->base, *new = c->new;
	size_t i;
	int ret;

	ret = pp_cmp_pool(base->runs, base->npaths, new->runs, new->npaths, &c->pool, &c->npool);
	if (ret)
		return ret;
	c->rows = calloc(c->npool ? c->npool : 1, sizeof(*c->rows));
	if (!c->rows)
		return -ENOMEM;
	for (i = 0; i < c->npool; i++) {
		if (matches(c->o->ignore, c->o->nignore, c->pool[i].key))
			continue;
		judge_row(c, &c->rows[c->nrows++], &c->pool[i]);
	}
	sort_by_verdict = c->o->sort;
	qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_rows);
	return 0;
}

/*
 * What the comparison found beyond its verdicts, counted for the exit:
 * the warnings and why nothing can pass when that is so.
 */
static void find_more(struct pp_comparison *c)
{
	const struct pp_side *base = c->base, *new = c->new;
	const struct pp_cmp_opts *o = c->o;
	struct pp_cmp_findings *fd = &c->fd;
	size_t i;
	int g;

	fd->nwarn += c->nw;
	for (i = 0; i < base->npaths; i++)
		fd->nwarn += base->runs[i].interrupted;
	for (i = 0; i < new->npaths; i++)
		fd->nwarn += new->runs[i].interrupted;
	for (g = 0; g < o->nfail_on; g++) {
		if (!pp_cmp_names_a_key(o->fail_on[g], c->rows, c->nrows)) {
			fd->nwarn++;
			if (!fd->incomplete[0])
				snprintf(fd->incomplete, sizeof(fd->incomplete),
					 "--fail-on '%s' names no key of either side", o->fail_on[g]);
		}
	}
	if (!fd->nok)
		snprintf(fd->incomplete, sizeof(fd->incomplete),
			 "no key of '%.120s' has samples on both sides (%zu keys seen)", new->arg,
			 c->nrows);
}


int pp_side_load(struct pp_side *s, const char *results_dir, bool history)
{
	int ret = side_files(s, results_dir);

	if (!ret && history)
		ret = side_history(s, results_dir);
	return ret;
}

int pp_comparison_build(struct pp_comparison *c, const struct pp_side *base,
			const struct pp_side *new, const struct pp_cmp_opts *o)
{
	size_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->base = base;
	c->new = new;
	c->o = o;
	ret = pp_cmp_warnings(base->runs, base->npaths, new->runs, new->npaths,
			      PP_CMP_MHZ_TOL_PCT, &c->w, &c->nw);
	if (ret)
		return ret;
	c->k.clock = pp_cmp_clock(base->runs, base->npaths, new->runs, new->npaths);
	for (i = 0; i < c->nw; i++)
		c->k.emulated_wall |= c->w[i].kind == PP_CMP_WARN_EMULATED;
	c->k.gates = !c->k.emulated_wall || o->gate_emulated;
	ret = build_rows(c);
	if (ret)
		return ret;
	find_more(c);
	return 0;
}

void pp_comparison_free(struct pp_comparison *c)
{
	free(c->rows);
	pp_cmp_pool_free(c->pool, c->npool);
	free(c->w);
	memset(c, 0, sizeof(*c));
}
