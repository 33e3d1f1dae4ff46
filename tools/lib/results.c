// SPDX-License-Identifier: GPL-2.0
/*
 * Results: the in-memory model (results.h).  Its JSON form is written by
 * results_write.c and read by results_read.c; where runs are kept is
 * results_store.c.  Documentation/results.rst describes the schema.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "stats.h"
#include "util.h"

void pp_kside_clear(struct pp_kside *k)
{
	memset(k, 0, sizeof(*k));
	k->kernel_ns_per_op = NAN;
	k->window_probe_ns_per_op = NAN;
	k->kernel_ns_err = NAN;
	k->entry_exit_ns_per_op = NAN;
	k->probe_ns_per_op = NAN;
	k->traced_ns_per_op = NAN;
	k->traced_ops = NAN;
	k->syscalls_per_op = NAN;
	k->faults_per_op = NAN;
	k->fault_ns_per_op = NAN;
	k->switches_per_op = NAN;
	k->offcpu_ns_per_op = NAN;
	k->copy_bytes_per_op = NAN;
	k->copy_ns_per_op = NAN;
	k->probe2_ns_per_op = NAN;
	k->prof_op_ns = NAN;
	k->prof_ops = NAN;
	k->prof_cost_ns_per_op = NAN;
}

struct interned {
	struct interned *next;
	char s[];
};

const char *pp_intern(const char *s)
{
	static struct interned *list;
	struct interned *i;
	size_t len;

	if (!s || !*s)
		return NULL;
	for (i = list; i; i = i->next)
		if (!strcmp(i->s, s))
			return i->s;
	len = strlen(s) + 1;
	i = malloc(sizeof(*i) + len);
	if (!i)
		return NULL;
	memcpy(i->s, s, len);
	i->next = list;
	list = i;
	return i->s;
}

void pp_kside_scale(struct pp_kside *k, double div)
{
	double *f[] = {
		&k->kernel_ns_per_op, &k->entry_exit_ns_per_op, &k->probe_ns_per_op,
		&k->traced_ns_per_op, &k->window_probe_ns_per_op, &k->kernel_ns_err,
		&k->syscalls_per_op, &k->faults_per_op, &k->fault_ns_per_op,
		&k->switches_per_op, &k->offcpu_ns_per_op, &k->copy_bytes_per_op,
		&k->copy_ns_per_op, &k->probe2_ns_per_op, &k->prof_op_ns,
		&k->prof_cost_ns_per_op,
	};
	unsigned int i;

	if (div == 1 || !(div > 0))
		return;
	for (i = 0; i < ARRAY_SIZE(f); i++)
		*f[i] /= div;
	k->traced_ops *= div;
	k->prof_ops *= div;
	for (i = 0; i < k->ntop && i < PP_KSIDE_TOP; i++) {
		k->top[i].count_per_op /= div;
		k->top[i].ns_per_op /= div;
	}
}

const char *pp_emul_clock(const struct pp_emul *e)
{
	if (!e->recorded)
		return NULL;
	return e->virtual_clock ? PP_CLOCK_VIRTUAL : PP_CLOCK_WALL;
}

bool pp_emul_wall(const struct pp_emul *e)
{
	return e->recorded && e->emulated == 1 && !e->virtual_clock;
}

void pp_run_init(struct pp_run *run)
{
	memset(run, 0, sizeof(*run));
	run->meta.pin_cpu = -1;
	run->meta.emul.emulated = -1;
}

static int cmp_mitig(const void *a, const void *b)
{
	return strcmp(((const struct pp_mitig *)a)->name,
		      ((const struct pp_mitig *)b)->name);
}

void pp_mitig_sort(struct pp_meta *m)
{
	qsort(m->mitig, m->nmitig, sizeof(m->mitig[0]), cmp_mitig);
}

int pp_run_keep_prof(struct pp_run *run, struct pp_prof *prof)
{
	struct pp_prof **np;
	size_t cap;

	if (run->nprofs == run->profs_cap) {
		cap = run->profs_cap ? run->profs_cap * 2 : 16;
		np = realloc(run->profs, cap * sizeof(*np));
		if (!np) {
			pp_prof_destroy(prof);
			return -ENOMEM;
		}
		run->profs = np;
		run->profs_cap = cap;
	}
	run->profs[run->nprofs++] = prof;
	return 0;
}

void pp_run_free(struct pp_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		free(run->results[i].samples);
		free(run->results[i].rounds);
		free(run->results[i].round_cv);
	}
	for (i = 0; i < run->nprofs; i++)
		pp_prof_destroy(run->profs[i]);
	free(run->profs);
	free(run->results);
	free(run->skips);
	free(run->fails);
	free(run->infos);
	memset(run, 0, sizeof(*run));
}

/* lmbench-style keys: prog[-variant...]: lower case, digits, '_', '.', '-'. */
static const char *const kind_names[] = {
	[PP_KIND_MEASURED] = "measured",
	[PP_KIND_DERIVED] = "derived",
	[PP_KIND_FACT] = "fact",
};

const char *pp_kind_name(enum pp_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "measured";
}

int pp_kind_parse(const char *name, enum pp_kind *kind)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (!strcmp(name, kind_names[i])) {
			*kind = i;
			return 0;
		}
	return -EINVAL;
}

bool pp_key_valid(const char *key)
{
	const char *p;

	if (!key || !islower((unsigned char)key[0]) || strlen(key) >= PP_KEY_MAX)
		return false;
	for (p = key; *p; p++) {
		if (*p == '-') {
			if (p[1] == '\0' || p[1] == '-')
				return false;
			continue;
		}
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    *p != '_' && *p != '.')
			return false;
	}
	return true;
}

bool pp_label_valid(const char *label)
{
	size_t n = strlen(label), i;

	if (!n || n >= sizeof(((struct pp_meta *)0)->label) || !strcmp(label, "latest"))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)label[i]) && !strchr("._+-", label[i]))
			return false;
	return true;
}

const struct pp_result *pp_run_find(const struct pp_run *run, const char *key)
{
	size_t i;

	for (i = 0; i < run->nresults; i++)
		if (!strcmp(run->results[i].key, key))
			return &run->results[i];
	return NULL;
}

struct pp_result *pp_run_find_mut(struct pp_run *run, const char *key)
{
	return (struct pp_result *)pp_run_find(run, key);
}

int pp_result_set_samples(struct pp_result *r, const double *samples, size_t n)
{
	struct pp_stats st;
	double *v;

	if (!n || pp_stats_compute(samples, n, &st))
		return -EINVAL;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, samples, n * sizeof(*v));
	free(r->samples);
	r->samples = v;
	r->nsamples = n;
	r->st = st;
	r->value = st.median;
	return 0;
}

int pp_result_add_round(struct pp_result *r, const double *samples, size_t n)
{
	size_t first = r->nrounds ? 0 : 1;
	double *all, *rounds, m0 = r->st.median, cv0 = r->st.cv_pct;
	int err;

	if (!n || !r->nsamples)
		return -EINVAL;
	rounds = realloc(r->rounds, (r->nrounds + first + 1) * sizeof(*rounds));
	if (!rounds)
		return -ENOMEM;
	r->rounds = rounds;
	rounds = realloc(r->round_cv, (r->nrounds + first + 1) * sizeof(*rounds));
	if (!rounds)
		return -ENOMEM;
	r->round_cv = rounds;
	all = malloc((r->nsamples + n) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, r->samples, r->nsamples * sizeof(*all));
	memcpy(all + r->nsamples, samples, n * sizeof(*all));
	err = pp_result_set_samples(r, all, r->nsamples + n);
	free(all);
	if (err)
		return err;
	if (first) {
		r->round_cv[r->nrounds] = cv0;
		r->rounds[r->nrounds++] = m0;
	}
	r->round_cv[r->nrounds] = pp_cv_pct(samples, n);
	r->rounds[r->nrounds++] = pp_median(samples, n);
	return 0;
}

int pp_result_redo_round(struct pp_result *r, const double *samples, size_t n)
{
	size_t keep;
	double *all;
	int err;

	if (r->nrounds < 2)
		return pp_result_set_samples(r, samples, n);
	if (!n || n > r->nsamples)
		return -EINVAL;
	keep = r->nsamples - n;
	all = malloc(r->nsamples * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, r->samples, keep * sizeof(*all));
	memcpy(all + keep, samples, n * sizeof(*all));
	err = pp_result_set_samples(r, all, r->nsamples);
	free(all);
	if (!err) {
		r->rounds[r->nrounds - 1] = pp_median(samples, n);
		if (r->round_cv)
			r->round_cv[r->nrounds - 1] = pp_cv_pct(samples, n);
	}
	return err;
}

bool pp_result_noisy(const struct pp_result *r, double noise_pct)
{
	size_t i, k = 0;

	if (r->nrounds < 2 || !r->round_cv)
		return r->st.cv_pct > noise_pct;
	for (i = 0; i < r->nrounds; i++)
		k += r->round_cv[i] > noise_pct;
	return 2 * k > r->nrounds;
}

struct pp_result *pp_run_append(struct pp_run *run, const char *key,
				const char *unit, enum pp_dir dir,
				const double *samples, size_t n)
{
	struct pp_result *r;

	if (!pp_key_valid(key) || !n)
		return NULL;
	if (run->nresults == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 32;
		struct pp_result *nr = realloc(run->results, cap * sizeof(*nr));

		if (!nr)
			return NULL;
		run->results = nr;
		run->cap = cap;
	}
	r = &run->results[run->nresults];
	memset(r, 0, sizeof(*r));
	if (pp_result_set_samples(r, samples, n))
		return NULL;
	pp_strlcpy(r->key, key, sizeof(r->key));
	pp_strlcpy(r->unit, unit, sizeof(r->unit));
	r->dir = dir;
	r->cpu_first = r->cpu_last = -1;
	pp_kside_clear(&r->k);
	run->nresults++;
	return r;
}

struct pp_result *pp_run_add(struct pp_run *run, const char *key,
			     const char *unit, enum pp_dir dir,
			     const double *samples, size_t n)
{
	if (pp_run_find(run, key))
		return NULL;
	return pp_run_append(run, key, unit, dir, samples, n);
}

static int cmp_key_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *pp_run_find_duplicate(const struct pp_run *run, int *oom)
{
	const char **keys = malloc((run->nresults + 1) * sizeof(*keys));
	const char *dup = NULL;
	size_t i;

	*oom = !keys;
	if (!keys)
		return NULL;
	for (i = 0; i < run->nresults; i++)
		keys[i] = run->results[i].key;
	qsort(keys, run->nresults, sizeof(*keys), cmp_key_ptr);
	for (i = 1; i < run->nresults && !dup; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			dup = keys[i];
	free(keys);
	return dup;
}

static void add_note(struct pp_note **list, size_t *n, const char *name,
		     const char *reason)
{
	struct pp_note *ns = realloc(*list, (*n + 1) * sizeof(*ns));

	if (!ns)
		return;
	*list = ns;
	pp_strlcpy(ns[*n].name, name, sizeof(ns->name));
	pp_strlcpy(ns[*n].reason, reason, sizeof(ns->reason));
	(*n)++;
}

void pp_run_skip(struct pp_run *run, const char *name, const char *reason)
{
	add_note(&run->skips, &run->nskips, name, reason);
}

void pp_run_fail(struct pp_run *run, const char *name, const char *reason)
{
	add_note(&run->fails, &run->nfails, name, reason);
}

/* One note a name: a result measured again says the latest. */
void pp_run_info(struct pp_run *run, const char *name, const char *text)
{
	size_t i;

	for (i = 0; i < run->ninfos; i++)
		if (!strcmp(run->infos[i].name, name)) {
			pp_strlcpy(run->infos[i].reason, text, sizeof(run->infos[i].reason));
			return;
		}
	add_note(&run->infos, &run->ninfos, name, text);
}

const char *pp_run_find_info(const struct pp_run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->ninfos; i++)
		if (!strcmp(run->infos[i].name, name))
			return run->infos[i].reason;
	return NULL;
}

void pp_run_mark_noise(struct pp_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++)
		run->results[i].noisy = pp_result_noisy(&run->results[i], run->meta.noise_pct);
}
