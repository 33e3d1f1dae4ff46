// SPDX-License-Identifier: GPL-2.0
/*
 * profdiff: which kernel functions took the time a key lost or gained.
 *
 * Each side's profiles are pooled: their kernel stacks merged into one
 * call tree of both sides, a path's samples summed over a side's runs
 * (the report draws it, report.c), a function's own samples those of the
 * paths it ends (where it is the leaf); and the operations the samples
 * were taken of summed.  A function's time per operation is the CPU time its
 * samples stand for over those operations, which the preemptions of a
 * busy machine do not inflate as they do the untraced wall time (a share
 * of that would spread its noise over every function); the interval of
 * a change is the normal one from the two Poisson errors (prof.h), the
 * sampling error alone.  The change to explain is the untraced time's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/profdiff.h"
#include "stats.h"
#include "util.h"

struct fn_count {
	const char *name;
	uint64_t base, new;
};

struct fn_list {
	struct fn_count *v;
	size_t n, cap;
};

static int fn_add(struct fn_list *l, const char *name, uint64_t base, uint64_t new)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct fn_count *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct fn_count){ name, base, new };
	return 0;
}

/* What a side pools: samples, the operations sampled, the times' medians. */
struct side {
	uint64_t samples, kernel;
	double ops, sample_ns, op_ns;
};

/* What a side's runs pool to, into *sd. */
static int side_pool(const struct pp_kside *const *k, size_t n, struct side *sd)
{
	double *v = malloc((n ? n : 1) * 2 * sizeof(*v));
	size_t i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct pp_prof *p = k[i]->prof;

		sd->samples += p->samples;
		sd->kernel += p->kernel;
		sd->ops += k[i]->prof_ops;
		v[i] = k[i]->prof_op_ns;
		v[n + i] = p->sample_ns;
	}
	sd->op_ns = n ? pp_median(v, n) : NAN;
	sd->sample_ns = n ? pp_median(v + n, n) : NAN;
	free(v);
	return 0;
}

/* --- the sides' call tree --- */

static int node_new(struct pp_pdiff_tree *t, const char *name, uint32_t parent, uint32_t *idx)
{
	struct pp_pdiff_node *v;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;

		if (cap > PP_PDIFF_NONE)
			return -ENOMEM;
		v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n] = (struct pp_pdiff_node){
		.name = name, .parent = parent, .child = PP_PDIFF_NONE, .next = PP_PDIFF_NONE,
	};
	if (parent != PP_PDIFF_NONE) {
		t->v[t->n].next = t->v[parent].child;
		t->v[parent].child = (uint32_t)t->n;
	}
	*idx = (uint32_t)t->n++;
	return 0;
}

/* The child of parent named name, made if it has none. */
static int child_of(struct pp_pdiff_tree *t, uint32_t parent, const char *name, uint32_t *idx)
{
	uint32_t c;

	for (c = t->v[parent].child; c != PP_PDIFF_NONE; c = t->v[c].next) {
		if (!strcmp(t->v[c].name, name)) {
			*idx = c;
			return 0;
		}
	}
	return node_new(t, name, parent, idx);
}

int pp_pdiff_tree_add(struct pp_pdiff_tree *t, const struct pp_prof *p, bool new)
{
	uint32_t at;
	size_t i, j;
	int err;

	if (!t->n && (err = node_new(t, NULL, PP_PDIFF_NONE, &at)))
		return err;
	for (i = 0; i < p->nstacks; i++) {
		const struct pp_prof_stack *s = &p->stacks[i];
		const uint32_t *k = p->pool + s->off + s->nuser;

		if (!s->nkernel)
			continue;
		at = 0;
		*(new ? &t->v[0].new : &t->v[0].base) += s->count;
		for (j = 0; j < s->nkernel; j++) {
			err = child_of(t, at, p->frames[k[j]], &at);
			if (err)
				return err;
			*(new ? &t->v[at].new : &t->v[at].base) += s->count;
		}
	}
	return 0;
}

int pp_pdiff_tree(const struct pp_cmp_pool *p, struct pp_pdiff_tree *t)
{
	size_t i;
	int err = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < p->nbase_prof && !err; i++)
		err = pp_pdiff_tree_add(t, p->base_prof[i]->prof, false);
	for (i = 0; i < p->nnew_prof && !err; i++)
		err = pp_pdiff_tree_add(t, p->new_prof[i]->prof, true);
	return err;
}

void pp_pdiff_tree_free(struct pp_pdiff_tree *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void pp_pdiff_self(const struct pp_pdiff_tree *t, uint32_t i, uint64_t *base, uint64_t *new)
{
	uint32_t c;

	*base = t->v[i].base;
	*new = t->v[i].new;
	for (c = t->v[i].child; c != PP_PDIFF_NONE; c = t->v[c].next) {
		*base -= t->v[c].base;
		*new -= t->v[c].new;
	}
}

/* Each kernel function's own samples on each side: its nodes' where it is the leaf. */
static int functions(const struct pp_pdiff_tree *t, struct fn_list *l)
{
	uint64_t b, n;
	size_t i;
	int err;

	for (i = 1; i < t->n; i++) {
		pp_pdiff_self(t, (uint32_t)i, &b, &n);
		if (!b && !n)
			continue;
		err = fn_add(l, t->v[i].name, b, n);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct fn_count *)a)->name, ((const struct fn_count *)b)->name);
}

/* Equal names summed into one entry each. */
static void merge(struct fn_list *l)
{
	size_t i, n = 0;

	if (!l->n)
		return;		/* l->v is NULL: no function sampled */
	qsort(l->v, l->n, sizeof(*l->v), cmp_name);
	for (i = 0; i < l->n; i++) {
		if (n && !strcmp(l->v[n - 1].name, l->v[i].name)) {
			l->v[n - 1].base += l->v[i].base;
			l->v[n - 1].new += l->v[i].new;
		} else {
			l->v[n++] = l->v[i];
		}
	}
	l->n = n;
}

void pp_pdiff_change(const struct pp_pdiff *d, uint64_t cb, uint64_t cn, struct pp_pdiff_fn *f)
{
	double sb, sn, half;

	f->base_ns = pp_prof_cpu_ns((double)cb, d->base_sample_ns, d->base_ops, &sb);
	f->new_ns = pp_prof_cpu_ns((double)cn, d->new_sample_ns, d->new_ops, &sn);
	f->delta = f->new_ns - f->base_ns;
	half = PP_PROF_Z95 * sqrt(sb * sb + sn * sn);
	f->lo = f->delta - half;
	f->hi = f->delta + half;
	f->beyond = f->lo > 0 || f->hi < 0;
}

/* The path of name on the side it grew on: from the run with most of it. */
static void path_of(const struct pp_cmp_pool *p, struct pp_pdiff_fn *f)
{
	const struct pp_kside *const *k = f->delta > 0 ? p->new_prof : p->base_prof;
	size_t n = f->delta > 0 ? p->nnew_prof : p->nbase_prof, i, j;
	const struct pp_prof *best = NULL;
	uint64_t most = 0;
	long bi = -1;

	for (i = 0; i < n; i++) {
		const struct pp_prof *pr = k[i]->prof;
		long idx = pp_prof_find(pr, f->name);
		uint64_t c = 0;

		for (j = 0; idx >= 0 && j < pr->nstacks; j++) {
			const struct pp_prof_stack *s = &pr->stacks[j];

			if (s->nkernel && pr->pool[s->off + s->nuser + s->nkernel - 1] == (uint32_t)idx)
				c += s->count;
		}
		if (c > most) {
			most = c;
			best = pr;
			bi = idx;
		}
	}
	if (best)
		pp_prof_path(best, (uint32_t)bi, true, f->path, sizeof(f->path));
	else
		pp_strlcpy(f->path, f->name, sizeof(f->path));
}

/* Keep f if it is among the PP_PDIFF_FNS largest changes yet. */
static void keep(struct pp_pdiff *d, const struct pp_pdiff_fn *f)
{
	size_t i;

	if (d->nfn == PP_PDIFF_FNS && fabs(f->delta) <= fabs(d->fn[d->nfn - 1].delta))
		return;
	i = d->nfn < PP_PDIFF_FNS ? d->nfn++ : d->nfn - 1;
	for (; i > 0 && fabs(d->fn[i - 1].delta) < fabs(f->delta); i--)
		d->fn[i] = d->fn[i - 1];
	d->fn[i] = *f;
}

int pp_pdiff(const struct pp_cmp_pool *p, struct pp_pdiff *d)
{
	struct side b = { 0 }, n = { 0 };
	struct pp_pdiff_tree t = { 0 };
	struct pp_pdiff_fn k;
	struct fn_list l = { 0 };
	double sum = 0;
	size_t i;
	int err;

	memset(d, 0, sizeof(*d));
	if (!p->nbase_prof || !p->nnew_prof)
		return -ENOENT;
	err = side_pool(p->base_prof, p->nbase_prof, &b);
	if (!err)
		err = side_pool(p->new_prof, p->nnew_prof, &n);
	if (!err)
		err = pp_pdiff_tree(p, &t);
	if (!err)
		err = functions(&t, &l);
	if (err)
		goto out;
	if (!b.samples || !n.samples || !(b.ops > 0) || !(n.ops > 0)) {
		err = -ENOENT;
		goto out;
	}
	d->base_samples = b.samples;
	d->new_samples = n.samples;
	d->base_ops = b.ops;
	d->new_ops = n.ops;
	d->base_sample_ns = b.sample_ns;
	d->new_sample_ns = n.sample_ns;
	d->base_op_ns = b.op_ns;
	d->new_op_ns = n.op_ns;
	d->op_delta = d->new_op_ns - d->base_op_ns;
	pp_pdiff_change(d, b.kernel, n.kernel, &k);
	d->kernel_base = k.base_ns;
	d->kernel_new = k.new_ns;
	d->kernel_delta = k.delta;
	d->kernel_lo = k.lo;
	d->kernel_hi = k.hi;
	merge(&l);
	for (i = 0; i < l.n; i++) {
		struct pp_pdiff_fn f = { .name = l.v[i].name };

		pp_pdiff_change(d, l.v[i].base, l.v[i].new, &f);
		keep(d, &f);
	}
	for (i = 0; i < d->nfn; i++) {
		path_of(p, &d->fn[i]);
		sum += d->fn[i].delta;
		d->nbeyond += d->fn[i].beyond;
	}
	d->explained_pct = d->op_delta != 0 ? 100 * sum / d->op_delta : NAN;
out:
	pp_pdiff_tree_free(&t);
	free(l.v);
	return err;
}

bool pp_pdiff_code_changed(const struct pp_pdiff *d, double threshold_pct)
{
	double op = fmax(d->base_op_ns, d->new_op_ns);
	size_t i;

	for (i = 0; i < d->nfn; i++)
		if (d->fn[i].beyond && fabs(d->fn[i].delta) >= op * threshold_pct / 100)
			return true;
	return false;
}
