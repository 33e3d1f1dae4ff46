// SPDX-License-Identifier: GPL-2.0
/*
 * Results: the in-memory model and its JSON form (jansson).
 * Documentation/results.rst describes the schema.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
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
	k->syscalls_per_op = NAN;
	k->faults_per_op = NAN;
	k->fault_ns_per_op = NAN;
	k->switches_per_op = NAN;
	k->offcpu_ns_per_op = NAN;
	k->copy_bytes_per_op = NAN;
	k->copy_ns_per_op = NAN;
	k->probe2_ns_per_op = NAN;
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
		&k->copy_ns_per_op, &k->probe2_ns_per_op,
	};
	unsigned int i;

	if (div == 1 || !(div > 0))
		return;
	for (i = 0; i < ARRAY_SIZE(f); i++)
		*f[i] /= div;
	for (i = 0; i < k->ntop && i < PP_KSIDE_TOP; i++) {
		k->top[i].count_per_op /= div;
		k->top[i].ns_per_op /= div;
	}
}

void pp_run_init(struct pp_run *run)
{
	memset(run, 0, sizeof(*run));
	run->meta.pin_cpu = -1;
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

void pp_run_free(struct pp_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++)
		free(run->results[i].samples);
	free(run->results);
	free(run->skips);
	free(run->fails);
	free(run->infos);
	memset(run, 0, sizeof(*run));
}

/* lmbench-style keys: prog[-variant...]: lower case, digits, '_', '.', '-'. */
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

/* Append without looking for the key: the loader checks all at once. */
static struct pp_result *run_append(struct pp_run *run, const char *key,
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
	r->samples = malloc(n * sizeof(double));
	if (!r->samples)
		return NULL;
	memcpy(r->samples, samples, n * sizeof(double));
	r->nsamples = n;
	if (pp_stats_compute(samples, n, &r->st)) {
		free(r->samples);
		return NULL;
	}
	pp_strlcpy(r->key, key, sizeof(r->key));
	pp_strlcpy(r->unit, unit, sizeof(r->unit));
	r->dir = dir;
	r->value = r->st.median;
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
	return run_append(run, key, unit, dir, samples, n);
}

static int cmp_key_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first key that appears twice, or NULL; -1 when out of memory. */
static const char *find_duplicate(const struct pp_run *run, int *oom)
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

static void add_skip(struct pp_skip **list, size_t *n, const char *name,
		     const char *reason)
{
	struct pp_skip *ns = realloc(*list, (*n + 1) * sizeof(*ns));

	if (!ns)
		return;
	*list = ns;
	pp_strlcpy(ns[*n].name, name, sizeof(ns->name));
	pp_strlcpy(ns[*n].reason, reason, sizeof(ns->reason));
	(*n)++;
}

void pp_run_skip(struct pp_run *run, const char *name, const char *reason)
{
	add_skip(&run->skips, &run->nskips, name, reason);
}

void pp_run_fail(struct pp_run *run, const char *name, const char *reason)
{
	add_skip(&run->fails, &run->nfails, name, reason);
}

void pp_run_info(struct pp_run *run, const char *name, const char *text)
{
	add_skip(&run->infos, &run->ninfos, name, text);
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
		run->results[i].noisy = run->results[i].st.cv_pct > run->meta.noise_pct;
}

/* --- writing --- */

static void set_num(json_t *o, const char *name, double v)
{
	if (isfinite(v))
		json_object_set_new(o, name, json_real(v));
}

/* Set only when recorded: an empty string is a read that failed. */
static void set_fact(json_t *o, const char *name, const char *v)
{
	if (v[0])
		json_object_set_new(o, name, json_string(v));
}

static void facts_to_json(json_t *o, const struct pp_meta *m)
{
	json_t *thp = json_object(), *mit;
	size_t i;

	set_fact(o, "cpufreq_governor", m->governor);
	set_fact(o, "kernel_cmdline", m->kcmdline);
	set_fact(thp, "enabled", m->thp_enabled);
	set_fact(thp, "defrag", m->thp_defrag);
	if (json_object_size(thp))
		json_object_set_new(o, "thp", thp);
	else
		json_decref(thp);
	if (!m->nmitig)
		return;
	mit = json_object();
	for (i = 0; i < m->nmitig; i++)
		json_object_set_new(mit, m->mitig[i].name, json_string(m->mitig[i].text));
	json_object_set_new(o, "mitigations", mit);
}

static json_t *meta_to_json(const struct pp_meta *m)
{
	json_t *o = json_object(), *mhz = json_object(), *clk = json_object();
	json_t *opt = json_object();

	json_object_set_new(o, "perfprobe_version", json_string(m->version));
	json_object_set_new(o, "date", json_string(m->date));
	json_object_set_new(o, "hostname", json_string(m->hostname));
	json_object_set_new(o, "sysname", json_string(m->sysname));
	json_object_set_new(o, "kernel_release", json_string(m->release));
	if (m->label[0])
		json_object_set_new(o, "label", json_string(m->label));
	json_object_set_new(o, "kernel_version", json_string(m->kversion));
	json_object_set_new(o, "arch", json_string(m->machine));
	json_object_set_new(o, "cpu_model", json_string(m->cpu_model));
	json_object_set_new(o, "online_cpus", json_integer(m->online_cpus));
	json_object_set_new(o, "memory_bytes", json_integer((json_int_t)m->mem_bytes));

	if (m->mhz.trusted && m->mhz.mhz > 0)
		json_object_set_new(mhz, "mhz", json_real(m->mhz.mhz));
	else
		json_object_set_new(mhz, "mhz", json_null());
	set_num(mhz, "measured_mhz", m->mhz.mhz > 0 ? m->mhz.mhz : NAN);
	set_num(mhz, "system_mhz", m->mhz.system_mhz > 0 ? m->mhz.system_mhz : NAN);
	json_object_set_new(mhz, "trusted", json_boolean(m->mhz.trusted));
	json_object_set_new(mhz, "method", json_string(m->mhz.method));
	json_object_set_new(mhz, "note", json_string(m->mhz.note));
	json_object_set_new(o, "mhz", mhz);

	json_object_set_new(o, "compiler", json_string(m->compiler));
	json_object_set_new(o, "command_line", json_string(m->cmdline));

	json_object_set_new(clk, "id", json_string(m->clock.id ? m->clock.id : ""));
	json_object_set_new(clk, "clocksource", json_string(m->clock.source));
	json_object_set_new(clk, "resolution_ns", json_real(m->clock.resolution_ns));
	json_object_set_new(clk, "read_cost_ns", json_real(m->clock.read_cost_ns));
	json_object_set_new(clk, "getres_ns", json_real(m->clock.getres_ns));
	json_object_set_new(o, "clock", clk);
	json_object_set_new(o, "loop_overhead_ns", json_real(m->loop_overhead_ns));

	json_object_set_new(opt, "mode", json_string(m->mode));
	json_object_set_new(opt, "samples", json_integer(m->samples));
	json_object_set_new(opt, "target_ms", json_real(m->target_ms));
	json_object_set_new(opt, "noise_cv_pct", json_real(m->noise_pct));
	json_object_set_new(opt, "pin_cpu", m->pin_cpu >= 0 ?
			    json_integer(m->pin_cpu) : json_null());
	json_object_set_new(o, "options", opt);
	facts_to_json(o, m);
	return o;
}

static json_t *kside_to_json(const struct pp_kside *k)
{
	json_t *o, *top;
	unsigned int i;

	if (!k->source[0])
		return NULL;
	o = json_object();
	json_object_set_new(o, "source", json_string(k->source));
	if (k->scope)
		json_object_set_new(o, "scope", json_string(k->scope));
	set_num(o, "kernel_ns_per_op", k->kernel_ns_per_op);
	set_num(o, "kernel_ns_err", k->kernel_ns_err);
	set_num(o, "window_probe_ns_per_op", k->window_probe_ns_per_op);
	set_num(o, "entry_exit_ns_per_op", k->entry_exit_ns_per_op);
	set_num(o, "probe_ns_per_op", k->probe_ns_per_op);
	set_num(o, "traced_ns_per_op", k->traced_ns_per_op);
	set_num(o, "syscalls_per_op", k->syscalls_per_op);
	set_num(o, "faults_per_op", k->faults_per_op);
	set_num(o, "fault_ns_per_op", k->fault_ns_per_op);
	set_num(o, "switches_per_op", k->switches_per_op);
	set_num(o, "offcpu_ns_per_op", k->offcpu_ns_per_op);
	set_num(o, "copy_bytes_per_op", k->copy_bytes_per_op);
	set_num(o, "copy_ns_per_op", k->copy_ns_per_op);
	set_num(o, "probe2_ns_per_op", k->probe2_ns_per_op);
	if (k->ntop) {
		top = json_array();
		for (i = 0; i < k->ntop && i < PP_KSIDE_TOP; i++) {
			json_t *t = json_object();

			json_object_set_new(t, "name", json_string(k->top[i].name));
			set_num(t, "count_per_op", k->top[i].count_per_op);
			set_num(t, "ns_per_op", k->top[i].ns_per_op);
			json_array_append_new(top, t);
		}
		json_object_set_new(o, "top_syscalls", top);
	}
	if (k->missing)
		json_object_set_new(o, "missing", json_string(k->missing));
	return o;
}

static json_t *result_to_json(const struct pp_result *r)
{
	json_t *o = json_object(), *s = json_array(), *st = json_object();
	json_t *cpus = json_object(), *k;
	size_t i;

	json_object_set_new(o, "key", json_string(r->key));
	json_object_set_new(o, "value", json_real(r->value));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "direction", json_string(r->dir == PP_HIGHER_IS_BETTER ?
							 "higher" : "lower"));
	for (i = 0; i < r->nsamples; i++)
		json_array_append_new(s, json_real(r->samples[i]));
	json_object_set_new(o, "samples", s);
	json_object_set_new(st, "n", json_integer((json_int_t)r->st.n));
	json_object_set_new(st, "min", json_real(r->st.min));
	json_object_set_new(st, "max", json_real(r->st.max));
	json_object_set_new(st, "mean", json_real(r->st.mean));
	json_object_set_new(st, "median", json_real(r->st.median));
	json_object_set_new(st, "stddev", json_real(r->st.stddev));
	json_object_set_new(st, "cv_pct", json_real(r->st.cv_pct));
	json_object_set_new(o, "stats", st);
	json_object_set_new(o, "noisy", json_boolean(r->noisy));
	json_object_set_new(o, "iterations", json_integer((json_int_t)r->iterations));
	json_object_set_new(cpus, "first", r->cpu_first >= 0 ?
			    json_integer(r->cpu_first) : json_null());
	json_object_set_new(cpus, "last", r->cpu_last >= 0 ?
			    json_integer(r->cpu_last) : json_null());
	json_object_set_new(o, "cpu", cpus);
	k = kside_to_json(&r->k);
	if (k)
		json_object_set_new(o, "kernel", k);
	if (r->imported)
		json_object_set_new(o, "imported_from", json_string(r->imported));
	return o;
}

static json_t *skips_to_json(const struct pp_skip *s, size_t n, const char *field)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(s[i].name));
		json_object_set_new(o, field, json_string(s[i].reason));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *run_to_json(const struct pp_run *run)
{
	json_t *o = json_object(), *res = json_array();
	size_t i;

	json_object_set_new(o, "format", json_string(PP_FORMAT_NAME));
	json_object_set_new(o, "schema_version", json_integer(PP_SCHEMA_VERSION));
	json_object_set_new(o, "meta", meta_to_json(&run->meta));
	for (i = 0; i < run->nresults; i++)
		json_array_append_new(res, result_to_json(&run->results[i]));
	json_object_set_new(o, "results", res);
	json_object_set_new(o, "skipped", skips_to_json(run->skips, run->nskips, "reason"));
	json_object_set_new(o, "failed", skips_to_json(run->fails, run->nfails, "reason"));
	if (run->ninfos)
		json_object_set_new(o, "info", skips_to_json(run->infos, run->ninfos, "text"));
	if (run->interrupted)
		json_object_set_new(o, "interrupted", json_true());
	return o;
}

char *pp_run_to_string(const struct pp_run *run)
{
	json_t *o = run_to_json(run);
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	json_decref(o);
	return s;
}

int pp_run_save(const struct pp_run *run, const char *path)
{
	char *s = pp_run_to_string(run);
	size_t len;
	int err;

	if (!s)
		return -ENOMEM;
	len = strlen(s);
	s[len++] = '\n';	/* json_dumps leaves room: replaces the NUL */
	err = pp_write_file_atomic(path, s, len);
	free(s);
	return err;
}

/* --- reading --- */

static const char *jstr(json_t *o, const char *name)
{
	json_t *v = json_object_get(o, name);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double jnum(json_t *o, const char *name, double dflt)
{
	json_t *v = json_object_get(o, name);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static void copy_str(char *dst, size_t size, json_t *o, const char *name)
{
	const char *s = jstr(o, name);

	pp_strlcpy(dst, s ? s : "", size);
}

/* Optional (schema 1 files before them lack them): absent stays empty. */
static void load_facts(struct pp_meta *m, json_t *o)
{
	json_t *thp = json_object_get(o, "thp"), *mit = json_object_get(o, "mitigations");
	const char *name;
	json_t *v;

	copy_str(m->governor, sizeof(m->governor), o, "cpufreq_governor");
	copy_str(m->kcmdline, sizeof(m->kcmdline), o, "kernel_cmdline");
	copy_str(m->thp_enabled, sizeof(m->thp_enabled), thp, "enabled");
	copy_str(m->thp_defrag, sizeof(m->thp_defrag), thp, "defrag");
	m->nmitig = 0;
	json_object_foreach(mit, name, v) {
		struct pp_mitig *mi = &m->mitig[m->nmitig];

		if (m->nmitig == PP_MITIG_MAX)
			break;
		if (!json_is_string(v) || !json_string_length(v) ||
		    !pp_strlcpy(mi->name, name, sizeof(mi->name)))
			continue;
		pp_strlcpy(mi->text, json_string_value(v), sizeof(mi->text));
		m->nmitig++;
	}
	pp_mitig_sort(m);
}

static void load_meta(struct pp_meta *m, json_t *o)
{
	json_t *mhz = json_object_get(o, "mhz");
	json_t *clk = json_object_get(o, "clock");
	json_t *opt = json_object_get(o, "options");

	copy_str(m->version, sizeof(m->version), o, "perfprobe_version");
	copy_str(m->date, sizeof(m->date), o, "date");
	copy_str(m->hostname, sizeof(m->hostname), o, "hostname");
	copy_str(m->sysname, sizeof(m->sysname), o, "sysname");
	copy_str(m->release, sizeof(m->release), o, "kernel_release");
	copy_str(m->label, sizeof(m->label), o, "label");
	if (!m->label[0])	/* runs before labels: the release */
		pp_strlcpy(m->label, m->release, sizeof(m->label));
	copy_str(m->kversion, sizeof(m->kversion), o, "kernel_version");
	copy_str(m->machine, sizeof(m->machine), o, "arch");
	copy_str(m->cpu_model, sizeof(m->cpu_model), o, "cpu_model");
	copy_str(m->compiler, sizeof(m->compiler), o, "compiler");
	copy_str(m->cmdline, sizeof(m->cmdline), o, "command_line");
	m->online_cpus = (int)jnum(o, "online_cpus", 0);
	m->mem_bytes = (uint64_t)jnum(o, "memory_bytes", 0);
	m->loop_overhead_ns = jnum(o, "loop_overhead_ns", 0);
	if (json_is_object(mhz)) {
		m->mhz.mhz = jnum(mhz, "measured_mhz", 0);
		m->mhz.system_mhz = jnum(mhz, "system_mhz", 0);
		m->mhz.trusted = json_is_true(json_object_get(mhz, "trusted"));
		copy_str(m->mhz.method, sizeof(m->mhz.method), mhz, "method");
		copy_str(m->mhz.note, sizeof(m->mhz.note), mhz, "note");
	}
	if (json_is_object(clk)) {
		m->clock.id = "CLOCK_MONOTONIC";
		copy_str(m->clock.source, sizeof(m->clock.source), clk, "clocksource");
		m->clock.resolution_ns = jnum(clk, "resolution_ns", 0);
		m->clock.read_cost_ns = jnum(clk, "read_cost_ns", 0);
		m->clock.getres_ns = jnum(clk, "getres_ns", 0);
	}
	if (json_is_object(opt)) {
		copy_str(m->mode, sizeof(m->mode), opt, "mode");
		m->samples = (unsigned int)jnum(opt, "samples", 0);
		m->target_ms = jnum(opt, "target_ms", 0);
		m->noise_pct = jnum(opt, "noise_cv_pct", 0);
		m->pin_cpu = (int)jnum(opt, "pin_cpu", -1);
	}
	load_facts(m, o);
}

static void load_kside(struct pp_kside *k, json_t *o)
{
	json_t *top, *t;
	size_t i;

	pp_kside_clear(k);
	if (!json_is_object(o))
		return;
	copy_str(k->source, sizeof(k->source), o, "source");
	k->scope = pp_intern(jstr(o, "scope"));
	k->kernel_ns_per_op = jnum(o, "kernel_ns_per_op", NAN);
	k->kernel_ns_err = jnum(o, "kernel_ns_err", NAN);
	k->window_probe_ns_per_op = jnum(o, "window_probe_ns_per_op", NAN);
	k->entry_exit_ns_per_op = jnum(o, "entry_exit_ns_per_op", NAN);
	k->probe_ns_per_op = jnum(o, "probe_ns_per_op", NAN);
	k->traced_ns_per_op = jnum(o, "traced_ns_per_op", NAN);
	k->syscalls_per_op = jnum(o, "syscalls_per_op", NAN);
	k->faults_per_op = jnum(o, "faults_per_op", NAN);
	k->fault_ns_per_op = jnum(o, "fault_ns_per_op", NAN);
	k->switches_per_op = jnum(o, "switches_per_op", NAN);
	k->offcpu_ns_per_op = jnum(o, "offcpu_ns_per_op", NAN);
	k->copy_bytes_per_op = jnum(o, "copy_bytes_per_op", NAN);
	k->copy_ns_per_op = jnum(o, "copy_ns_per_op", NAN);
	k->probe2_ns_per_op = jnum(o, "probe2_ns_per_op", NAN);
	k->missing = pp_intern(jstr(o, "missing"));
	top = json_object_get(o, "top_syscalls");
	json_array_foreach(top, i, t) {
		struct pp_kside_sys *s;

		if (k->ntop >= PP_KSIDE_TOP)
			break;
		if (!json_is_object(t))
			continue;
		s = &k->top[k->ntop++];
		copy_str(s->name, sizeof(s->name), t, "name");
		s->count_per_op = jnum(t, "count_per_op", NAN);
		s->ns_per_op = jnum(t, "ns_per_op", NAN);
	}
}

static int load_result(struct pp_run *run, json_t *o, char *why, size_t len)
{
	const char *key = jstr(o, "key"), *unit = jstr(o, "unit");
	const char *dir = jstr(o, "direction");
	json_t *samples = json_object_get(o, "samples");
	json_t *cpu = json_object_get(o, "cpu");
	struct pp_result *r;
	double *v;
	size_t i, n;

	json_t *value = json_object_get(o, "value");
	json_t *stats_n = json_object_get(json_object_get(o, "stats"), "n");

	if (!key || !pp_key_valid(key) || !unit || !dir) {
		snprintf(why, len, "a result has no valid key, unit or direction");
		return -1;
	}
	if (strcmp(dir, "lower") && strcmp(dir, "higher")) {
		snprintf(why, len, "result %s: field direction: '%s' is neither lower nor higher",
			 key, dir);
		return -1;
	}
	if (value && !json_is_number(value)) {
		snprintf(why, len, "result %s: field value: not a number", key);
		return -1;
	}
	if (!json_is_array(samples) || !json_array_size(samples)) {
		snprintf(why, len, "result %s has no samples", key);
		return -1;
	}
	n = json_array_size(samples);
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(samples, i);

		if (!json_is_number(e)) {
			snprintf(why, len, "result %s: field samples[%zu]: not a number", key, i);
			free(v);
			return -1;
		}
		v[i] = json_number_value(e);
		if (!isfinite(v[i]) || v[i] < 0) {
			snprintf(why, len, "result %s: field samples[%zu]: %g is negative or not finite",
				 key, i, v[i]);
			free(v);
			return -1;
		}
	}
	if (stats_n && (!json_is_integer(stats_n) ||
			json_integer_value(stats_n) != (json_int_t)n)) {
		snprintf(why, len, "result %s: field stats.n: does not match the %zu samples",
			 key, n);
		free(v);
		return -1;
	}
	r = run_append(run, key, unit, strcmp(dir, "higher") ? PP_LOWER_IS_BETTER :
		       PP_HIGHER_IS_BETTER, v, n);
	free(v);
	if (!r) {
		snprintf(why, len, "result %s is invalid", key);
		return -1;
	}
	r->value = jnum(o, "value", r->st.median);
	r->noisy = json_is_true(json_object_get(o, "noisy"));
	r->iterations = (uint64_t)jnum(o, "iterations", 0);
	if (json_is_object(cpu)) {
		r->cpu_first = (int)jnum(cpu, "first", -1);
		r->cpu_last = (int)jnum(cpu, "last", -1);
	}
	load_kside(&r->k, json_object_get(o, "kernel"));
	r->imported = pp_intern(jstr(o, "imported_from"));
	return 0;
}

static void load_skips(struct pp_run *run, json_t *a, const char *field,
		       void (*add)(struct pp_run *, const char *, const char *))
{
	size_t i;

	for (i = 0; json_is_array(a) && i < json_array_size(a); i++) {
		json_t *s = json_array_get(a, i);
		const char *name = jstr(s, "name"), *reason = jstr(s, field);

		if (name && reason)
			add(run, name, reason);
	}
}

/*
 * Reading a file.  The document's outer object is walked here, jansson
 * parsing each member's value (JSON_DISABLE_EOF_CHECK says where the
 * value ended); the "results" array is parsed one result at a time and
 * each is dropped once converted, so an 80,000-result file is never a
 * 300 MB document in memory.  Only the punctuation of the two outer
 * levels ({ "name" : value , ... } and [ value , ... ]) is read by hand.
 *
 * One result's objects come from an arena that is reset after it: the
 * same few kilobytes, hot in the cache, instead of malloc and free of
 * every small object (jansson's allocator is process-wide: switched for
 * the parse of a result only, and back).
 */
#define ARENA_SIZE		(1u << 20)

static struct {
	char *base;
	size_t used;
	bool overflow;			/* a result larger than the arena */
} arena;

static void *arena_malloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (arena.used + n > ARENA_SIZE) {
		arena.overflow = true;
		return NULL;
	}
	p = arena.base + arena.used;
	arena.used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;	/* all of it at once, in arena_reset() */
}

struct reader {
	const char *buf, *path;
	size_t len, pos;
	json_error_t je;
	char *err;
	size_t errlen;
};

static void skip_ws(struct reader *rd)
{
	while (rd->pos < rd->len && strchr(" \t\r\n", rd->buf[rd->pos]))
		rd->pos++;
}

static bool punct(struct reader *rd, char c)
{
	skip_ws(rd);
	if (rd->pos < rd->len && rd->buf[rd->pos] == c) {
		rd->pos++;
		return true;
	}
	return false;
}

/* The line of buf[pos] (1-based), for messages. */
static int line_at(const struct reader *rd, size_t pos)
{
	size_t i;
	int line = 1;

	for (i = 0; i < pos && i < rd->len; i++)
		line += rd->buf[i] == '\n';
	return line;
}

static int syntax(struct reader *rd, const char *what)
{
	snprintf(rd->err, rd->errlen, "%s: not valid JSON (truncated?): line %d: %s",
		 rd->path, line_at(rd, rd->pos), what);
	return -EINVAL;
}

/* The next value, by jansson; NULL after syntax() filled the message. */
static json_t *next_value(struct reader *rd)
{
	json_t *v;

	v = json_loadb(rd->buf + rd->pos, rd->len - rd->pos,
		       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &rd->je);
	if (v) {
		rd->pos += (size_t)rd->je.position;
		return v;
	}
	if (arena.overflow)
		snprintf(rd->err, rd->errlen, "%s: a result larger than %u KiB", rd->path,
			 ARENA_SIZE >> 10);
	else
		snprintf(rd->err, rd->errlen, "%s: not valid JSON (truncated?): line %d: %s",
			 rd->path, line_at(rd, rd->pos) + (rd->je.line > 0 ? rd->je.line - 1 : 0),
			 rd->je.text);
	return NULL;
}

/*
 * What read_document() finds besides an error: a document that is not
 * an object (not ours), or one without a "results" array.
 */
enum { DOC_NOT_OURS = 1, DOC_NO_RESULTS = 2 };

/*
 * The results array, one result at a time into run: 0, DOC_NO_RESULTS
 * (said by the caller), or -errno with the message in rd->err.
 */
static int read_results(struct reader *rd, struct pp_run *run)
{
	char why[256] = "";
	json_t *o;
	int ret = 0;

	if (!punct(rd, '['))
		return DOC_NO_RESULTS;
	if (punct(rd, ']'))
		return 0;
	arena.base = malloc(ARENA_SIZE);
	if (!arena.base) {
		snprintf(rd->err, rd->errlen, "%s: out of memory", rd->path);
		return -ENOMEM;
	}
	do {
		arena.used = 0;
		arena.overflow = false;
		json_set_alloc_funcs(arena_malloc, arena_free);
		o = next_value(rd);
		if (o && load_result(run, o, why, sizeof(why))) {
			snprintf(rd->err, rd->errlen, "%s: %s", rd->path, why[0] ? why : "out of memory");
			ret = why[0] ? -EINVAL : -ENOMEM;
		}
		json_decref(o);
		json_set_alloc_funcs(malloc, free);
		if (!o)
			ret = -EINVAL;
	} while (!ret && punct(rd, ','));
	free(arena.base);
	arena.base = NULL;
	if (!ret && !punct(rd, ']'))
		ret = syntax(rd, "',' or ']' expected in \"results\"");
	return ret;
}

/*
 * The outer object: every member but "results" into *rest, the results
 * into run.  0, DOC_NOT_OURS, DOC_NO_RESULTS when "results" is missing
 * or not an array, -ENOMEM with no message, else -errno with the
 * message in rd->err.
 */
static int read_document(struct reader *rd, struct pp_run *run, json_t **rest)
{
	bool have_results = false;
	int ret;

	*rest = json_object();
	if (!*rest)
		return -ENOMEM;
	if (!punct(rd, '{')) {
		skip_ws(rd);
		if (rd->pos < rd->len && strchr("[\"-0123456789tfn", rd->buf[rd->pos]))
			return DOC_NOT_OURS;	/* JSON, not an object */
		return syntax(rd, "'{' expected");
	}
	if (!punct(rd, '}')) {
		do {
			json_t *key, *v;
			const char *k;

			skip_ws(rd);
			if (rd->pos >= rd->len || rd->buf[rd->pos] != '"')
				return syntax(rd, "a member name expected");
			key = next_value(rd);
			if (!key)
				return -EINVAL;
			k = json_string_value(key);
			if (!punct(rd, ':')) {
				json_decref(key);
				return syntax(rd, "':' expected");
			}
			if (json_object_get(*rest, k) || (have_results && !strcmp(k, "results"))) {
				snprintf(rd->err, rd->errlen, "%s: not valid JSON (truncated?): line %d: duplicate object key",
					 rd->path, line_at(rd, rd->pos));
				json_decref(key);
				return -EINVAL;
			}
			if (!strcmp(k, "results")) {
				json_decref(key);
				have_results = true;
				ret = read_results(rd, run);
				if (ret)
					return ret;
				continue;
			}
			v = next_value(rd);
			if (!v) {
				json_decref(key);
				return -EINVAL;
			}
			json_object_set_new(*rest, k, v);
			json_decref(key);
		} while (punct(rd, ','));
		if (!punct(rd, '}'))
			return syntax(rd, "',' or '}' expected");
	}
	skip_ws(rd);
	if (rd->pos != rd->len)
		return syntax(rd, "end of file expected");
	return have_results ? 0 : DOC_NO_RESULTS;
}

/* The whole file, mapped (no copy of it is made): 0, or -errno. */
static int map_whole(const char *path, size_t size, char **out)
{
	void *p;
	int fd;

	*out = NULL;
	if (!size)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	*out = p;
	return 0;
}

int pp_run_load(struct pp_run *run, const char *path, char *err, size_t errlen)
{
	struct reader rd = { .path = path, .err = err, .errlen = errlen };
	json_t *root = NULL, *meta, *ver;
	const char *dup;
	char *buf = NULL;
	struct stat st;
	int oom, ret = -EINVAL, rc;

	pp_run_init(run);
	if (stat(path, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -EISDIR;
	}
	if (st.st_size > PP_RESULTS_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes: larger than a result file may be (%d MiB)",
			 path, (long long)st.st_size, PP_RESULTS_MAX_BYTES >> 20);
		return -EFBIG;
	}
	rc = map_whole(path, (size_t)st.st_size, &buf);
	if (rc) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	rd.buf = buf;
	rd.len = (size_t)st.st_size;
	rc = read_document(&rd, run, &root);
	if (rc == -ENOMEM) {
		snprintf(err, errlen, "%s: out of memory", path);
		ret = rc;
		goto out;
	}
	if (rc < 0) {
		ret = rc;	/* err says why */
		goto out;
	}
	if (rc == DOC_NOT_OURS || !jstr(root, "format") || strcmp(jstr(root, "format"), PP_FORMAT_NAME)) {
		snprintf(err, errlen, "%s: not a perfprobe result file (no \"format\": \"%s\")",
			 path, PP_FORMAT_NAME);
		goto out;
	}
	ver = json_object_get(root, "schema_version");
	if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
		snprintf(err, errlen, "%s: invalid schema_version", path);
		goto out;
	}
	if (json_integer_value(ver) > PP_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "%s: schema version %lld is newer than this perfprobe reads (%d): upgrade perfprobe",
			 path, (long long)json_integer_value(ver), PP_SCHEMA_VERSION);
		goto out;
	}
	meta = json_object_get(root, "meta");
	if (!json_is_object(meta) || rc == DOC_NO_RESULTS) {
		snprintf(err, errlen, "%s: missing \"meta\" or \"results\"", path);
		goto out;
	}
	load_meta(&run->meta, meta);
	dup = find_duplicate(run, &oom);
	if (dup || oom) {
		snprintf(err, errlen, "%s: %s%s", path, dup ? "result duplicated: " : "out of memory",
			 dup ? dup : "");
		ret = dup ? -EINVAL : -ENOMEM;
		goto out;
	}
	load_skips(run, json_object_get(root, "skipped"), "reason", pp_run_skip);
	load_skips(run, json_object_get(root, "failed"), "reason", pp_run_fail);
	load_skips(run, json_object_get(root, "info"), "text", pp_run_info);
	run->interrupted = json_is_true(json_object_get(root, "interrupted"));
	ret = 0;
out:
	json_decref(root);
	if (buf)
		munmap(buf, (size_t)st.st_size);
	if (ret)
		pp_run_free(run);
	return ret;
}

/* --- where results are kept --- */

int pp_results_default_dir(char *buf, size_t size)
{
	const char *env = getenv("PERFPROBE_RESULTS_DIR");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, size, "%s/perfprobe/results", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.local/share/perfprobe/results", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int pp_results_path(const char *dir, const struct pp_meta *m, const char *tag,
		    char *buf, size_t size)
{
	char day[16], hms[16], sub[PATH_MAX];
	int n, err;

	/* meta.date is "YYYY-MM-DDTHH:MM:SSZ" */
	if (strlen(m->date) < 19)
		return -EINVAL;
	snprintf(day, sizeof(day), "%.10s", m->date);
	snprintf(hms, sizeof(hms), "%.2s%.2s%.2s", m->date + 11, m->date + 14,
		 m->date + 17);
	n = snprintf(sub, sizeof(sub), "%s/%s/%s", dir, m->hostname, day);
	if (n < 0 || (size_t)n >= sizeof(sub))
		return -ENAMETOOLONG;
	err = pp_mkdirs(sub, 0755);
	if (err)
		return err;
	n = snprintf(buf, size, "%s/%s-%s-%d.json", sub, hms, tag, (int)getpid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}
