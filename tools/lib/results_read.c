// SPDX-License-Identifier: GPL-2.0
/*
 * A result file into a run (results.h; Documentation/results.rst),
 * checked as it is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof_json.h"
#include "results.h"
#include "util.h"

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

/* Optional: a file written before it leaves emul not recorded. */
static void load_emul(struct pp_emul *e, json_t *o)
{
	json_t *em = json_object_get(o, "emulation"), *v;
	const char *clock;

	memset(e, 0, sizeof(*e));
	e->emulated = -1;
	if (!json_is_object(em))
		return;
	e->recorded = true;
	v = json_object_get(em, "emulated");
	if (json_is_boolean(v))
		e->emulated = json_is_true(v);
	copy_str(e->accel, sizeof(e->accel), em, "accelerator");
	clock = jstr(em, "clock");
	e->virtual_clock = clock && !strcmp(clock, PP_CLOCK_VIRTUAL);
	copy_str(e->stated, sizeof(e->stated), em, "stated_by");
	copy_str(e->detected, sizeof(e->detected), em, "detected");
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
		m->rounds = (unsigned int)jnum(opt, "rounds", 1);
		m->target_ms = jnum(opt, "target_ms", 0);
		m->noise_pct = jnum(opt, "noise_cv_pct", 0);
		m->pin_cpu = (int)jnum(opt, "pin_cpu", -1);
	}
	load_facts(m, o);
	load_emul(&m->emul, o);
}

/* The kernel object o of result key into k: 0, or -1 with why (a bad profile). */
static int load_kside(struct pp_run *run, const char *key, struct pp_kside *k, json_t *o,
		      char *why, size_t len)
{
	json_t *top, *t, *prof;
	size_t i;

	pp_kside_clear(k);
	if (!json_is_object(o))
		return 0;
	copy_str(k->source, sizeof(k->source), o, "source");
	k->scope = pp_intern(jstr(o, "scope"));
	k->kernel_ns_per_op = jnum(o, "kernel_ns_per_op", NAN);
	k->kernel_ns_err = jnum(o, "kernel_ns_err", NAN);
	k->window_probe_ns_per_op = jnum(o, "window_probe_ns_per_op", NAN);
	k->entry_exit_ns_per_op = jnum(o, "entry_exit_ns_per_op", NAN);
	k->probe_ns_per_op = jnum(o, "probe_ns_per_op", NAN);
	k->traced_ns_per_op = jnum(o, "traced_ns_per_op", NAN);
	k->traced_ops = jnum(o, "traced_ops", NAN);
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
	prof = json_object_get(o, "profile");
	if (!prof)
		return 0;
	if (!json_is_object(prof)) {
		snprintf(why, len, "result %s: field kernel.profile: not an object", key);
		return -1;
	}
	return pp_prof_from_json(run, key, k, prof, why, len);
}

/* "rounds": each round's median, 2 or more, positive (run --rounds). */
static int load_rounds(struct pp_result *r, json_t *a, char *why, size_t len)
{
	size_t i, n = json_array_size(a);

	if (!a)
		return 0;
	if (!json_is_array(a) || n < 2 || n > r->nsamples) {
		snprintf(why, len, "result %s: field rounds: not 2 to %zu numbers", r->key,
			 r->nsamples);
		return -1;
	}
	r->rounds = malloc(n * sizeof(*r->rounds));
	if (!r->rounds) {
		snprintf(why, len, "result %s: out of memory", r->key);
		return -1;
	}
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i);

		r->rounds[i] = json_is_number(e) ? json_number_value(e) : NAN;
		if (!isfinite(r->rounds[i]) || r->rounds[i] < 0) {
			snprintf(why, len, "result %s: field rounds[%zu]: not a number >= 0",
				 r->key, i);
			return -1;
		}
	}
	r->nrounds = n;
	return 0;
}

/* A result's key, unit, direction, kind and value, checked: 0, or -1 with why said. */
static int check_result(json_t *o, enum pp_kind *k, char *why, size_t len)
{
	const char *key = jstr(o, "key"), *unit = jstr(o, "unit");
	const char *dir = jstr(o, "direction"), *kind = jstr(o, "kind");
	json_t *value = json_object_get(o, "value");

	if (!key || !pp_key_valid(key) || !unit || !dir) {
		snprintf(why, len, "a result has no valid key, unit or direction");
		return -1;
	}
	if (strcmp(dir, "lower") && strcmp(dir, "higher")) {
		snprintf(why, len, "result %s: field direction: '%s' is neither lower nor higher",
			 key, dir);
		return -1;
	}
	if (kind && pp_kind_parse(kind, k)) {
		snprintf(why, len, "result %s: field kind: '%s' is none of measured, derived, fact",
			 key, kind);
		return -1;
	}
	if (json_object_get(o, "spread_pct") &&
	    !(jnum(o, "spread_pct", -1) >= 0 && isfinite(jnum(o, "spread_pct", -1)))) {
		snprintf(why, len, "result %s: field spread_pct: not a number from 0 up", key);
		return -1;
	}
	if (value && !json_is_number(value)) {
		snprintf(why, len, "result %s: field value: not a number", key);
		return -1;
	}
	return 0;
}

/*
 * A result's samples, each a number >= 0, as many as its stats.n says:
 * an array of *n (malloc'ed), or NULL with why said (why untouched: out
 * of memory).
 */
static double *load_samples(json_t *o, const char *key, size_t *n, char *why, size_t len)
{
	json_t *samples = json_object_get(o, "samples");
	json_t *stats_n = json_object_get(json_object_get(o, "stats"), "n");
	double *v;
	size_t i;

	if (!json_is_array(samples) || !json_array_size(samples)) {
		snprintf(why, len, "result %s has no samples", key);
		return NULL;
	}
	*n = json_array_size(samples);
	v = malloc(*n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < *n; i++) {
		json_t *e = json_array_get(samples, i);

		if (!json_is_number(e)) {
			snprintf(why, len, "result %s: field samples[%zu]: not a number", key, i);
			goto free_v;
		}
		v[i] = json_number_value(e);
		if (!isfinite(v[i]) || v[i] < 0) {
			snprintf(why, len, "result %s: field samples[%zu]: %g is negative or not finite",
				 key, i, v[i]);
			goto free_v;
		}
	}
	if (stats_n && (!json_is_integer(stats_n) ||
			json_integer_value(stats_n) != (json_int_t)*n)) {
		snprintf(why, len, "result %s: field stats.n: does not match the %zu samples",
			 key, *n);
		goto free_v;
	}
	return v;

free_v:
	free(v);
	return NULL;
}

static int load_result(struct pp_run *run, json_t *o, char *why, size_t len)
{
	const char *key = jstr(o, "key"), *unit = jstr(o, "unit"), *dir = jstr(o, "direction");
	enum pp_kind k = PP_KIND_MEASURED;
	json_t *cpu = json_object_get(o, "cpu");
	struct pp_result *r;
	double *v;
	size_t n;

	if (check_result(o, &k, why, len))
		return -1;
	v = load_samples(o, key, &n, why, len);
	if (!v)
		return -1;
	r = pp_run_append(run, key, unit, strcmp(dir, "higher") ? PP_LOWER_IS_BETTER :
			  PP_HIGHER_IS_BETTER, v, n);
	free(v);
	if (!r) {
		snprintf(why, len, "result %s is invalid", key);
		return -1;
	}
	if (load_rounds(r, json_object_get(o, "rounds"), why, len))
		return -1;
	r->kind = k;
	r->spread_pct = jnum(o, "spread_pct", 0);
	r->value = jnum(o, "value", r->st.median);
	r->noisy = json_is_true(json_object_get(o, "noisy"));
	r->iterations = (uint64_t)jnum(o, "iterations", 0);
	if (json_is_object(cpu)) {
		r->cpu_first = (int)jnum(cpu, "first", -1);
		r->cpu_last = (int)jnum(cpu, "last", -1);
	}
	if (load_kside(run, key, &r->k, json_object_get(o, "kernel"), why, len))
		return -1;
	r->imported = pp_intern(jstr(o, "imported_from"));
	return 0;
}

static void load_notes(struct pp_run *run, json_t *a, const char *field,
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
 * A member of the outer object: "results" into run, any other into
 * rest.  0, or as read_document() returns.
 */
static int read_member(struct reader *rd, struct pp_run *run, json_t *rest, bool *have_results)
{
	json_t *key, *v;
	const char *k;
	int ret = 0;

	skip_ws(rd);
	if (rd->pos >= rd->len || rd->buf[rd->pos] != '"')
		return syntax(rd, "a member name expected");
	key = next_value(rd);
	if (!key)
		return -EINVAL;
	k = json_string_value(key);
	if (!punct(rd, ':')) {
		ret = syntax(rd, "':' expected");
		goto put_key;
	}
	if (json_object_get(rest, k) || (*have_results && !strcmp(k, "results"))) {
		snprintf(rd->err, rd->errlen, "%s: not valid JSON (truncated?): line %d: duplicate object key",
			 rd->path, line_at(rd, rd->pos));
		ret = -EINVAL;
		goto put_key;
	}
	if (!strcmp(k, "results")) {
		*have_results = true;
		ret = read_results(rd, run);
		goto put_key;
	}
	v = next_value(rd);
	if (!v) {
		ret = -EINVAL;
		goto put_key;
	}
	json_object_set_new(rest, k, v);
put_key:
	json_decref(key);
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
			ret = read_member(rd, run, *rest, &have_results);
			if (ret)
				return ret;
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

/* The file, checked for size and mapped: 0, or -errno with err said. */
static int map_file(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int rc;

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
	*len = (size_t)st.st_size;
	rc = map_whole(path, *len, buf);
	if (rc)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
	return rc;
}

/*
 * What read_document() found (rc) is a perfprobe result file of a schema
 * this reads, with its metadata: 0, or -EINVAL with err said.
 */
static int check_document(json_t *root, int rc, const char *path, char *err, size_t errlen)
{
	const char *format = root ? jstr(root, "format") : NULL;
	json_t *ver = json_object_get(root, "schema_version");

	if (rc == DOC_NOT_OURS || !format || strcmp(format, PP_FORMAT_NAME)) {
		snprintf(err, errlen, "%s: not a perfprobe result file (no \"format\": \"%s\")",
			 path, PP_FORMAT_NAME);
		return -EINVAL;
	}
	if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
		snprintf(err, errlen, "%s: invalid schema_version", path);
		return -EINVAL;
	}
	if (json_integer_value(ver) > PP_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "%s: schema version %lld is newer than this perfprobe reads (%d): upgrade perfprobe",
			 path, (long long)json_integer_value(ver), PP_SCHEMA_VERSION);
		return -EINVAL;
	}
	if (!json_is_object(json_object_get(root, "meta")) || rc == DOC_NO_RESULTS) {
		snprintf(err, errlen, "%s: missing \"meta\" or \"results\"", path);
		return -EINVAL;
	}
	return 0;
}

/* The metadata and the lists beside the results: 0, or -errno with err said. */
static int load_rest(struct pp_run *run, json_t *root, const char *path, char *err,
		     size_t errlen)
{
	const char *dup;
	int oom;

	load_meta(&run->meta, json_object_get(root, "meta"));
	dup = pp_run_find_duplicate(run, &oom);
	if (dup || oom) {
		snprintf(err, errlen, "%s: %s%s", path, dup ? "result duplicated: " : "out of memory",
			 dup ? dup : "");
		return dup ? -EINVAL : -ENOMEM;
	}
	load_notes(run, json_object_get(root, "skipped"), "reason", pp_run_skip);
	load_notes(run, json_object_get(root, "failed"), "reason", pp_run_fail);
	load_notes(run, json_object_get(root, "info"), "text", pp_run_info);
	run->interrupted = json_is_true(json_object_get(root, "interrupted"));
	return 0;
}

int pp_run_load(struct pp_run *run, const char *path, char *err, size_t errlen)
{
	struct reader rd = { .path = path, .err = err, .errlen = errlen };
	json_t *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	pp_run_init(run);
	ret = map_file(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	rd.buf = buf;
	rd.len = len;
	ret = read_document(&rd, run, &root);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	if (ret >= 0)	/* else err says why */
		ret = check_document(root, ret, path, err, errlen);
	if (!ret)
		ret = load_rest(run, root, path, err, errlen);
	json_decref(root);
	if (buf)
		munmap(buf, len);
	if (ret)
		pp_run_free(run);
	return ret;
}
