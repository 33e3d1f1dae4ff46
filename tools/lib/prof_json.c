// SPDX-License-Identifier: GPL-2.0
/*
 * A result's profile in JSON (prof_json.h): the counts and the stacks,
 * which are the profile, and what is read from them for a reader's
 * convenience (the kernel's time, the top functions with their paths),
 * which a reader of the file computes again and never takes from it.
 * A stack is one string, "COUNT NUSER FRAME...", frame indices root
 * first: a list of numbers as jansson objects would cost a result's
 * whole reading arena for a large profile.  Documentation/results.rst.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_json.h"
#include "util.h"

#define EVENT_MAX	16

static void set_num(json_t *o, const char *name, double v)
{
	if (isfinite(v))
		json_object_set_new(o, name, json_real(v));
}

static void set_u64(json_t *o, const char *name, uint64_t v)
{
	json_object_set_new(o, name, json_integer((json_int_t)v));
}

/* The first PP_PROF_TOP functions of f with samples (self or inclusive). */
static json_t *top_to_json(const struct pp_prof *p, const struct pp_prof_fn *f, size_t n,
			   bool self, double op_ns)
{
	char path[PP_PROF_PATH_MAX];
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n && i < PP_PROF_TOP; i++) {
		uint64_t c = self ? f[i].self : f[i].total;
		json_t *t;
		double se;

		if (!c)
			break;
		t = json_object();
		json_object_set_new(t, "name", json_string(p->frames[f[i].frame]));
		set_u64(t, "samples", c);
		set_num(t, "ns_per_op", pp_prof_ns(c, p->samples, op_ns, &se));
		set_num(t, "ns_err", se);
		pp_prof_path(p, f[i].frame, self, path, sizeof(path));
		json_object_set_new(t, "path", json_string(path));
		if (self && pp_prof_hot_line(p, f[i].frame))
			json_object_set_new(t, "src",
					    json_string(pp_prof_hot_line(p, f[i].frame)->src));
		json_array_append_new(a, t);
	}
	return a;
}

/* The source lines samples fell on, most samples first. */
static int cmp_line(const void *a, const void *b)
{
	const struct pp_prof_line *x = *(const struct pp_prof_line *const *)a;
	const struct pp_prof_line *y = *(const struct pp_prof_line *const *)b;

	return (x->count < y->count) - (x->count > y->count);
}

static json_t *lines_to_json(const struct pp_prof *p)
{
	const struct pp_prof_line **l = malloc(p->nlines * sizeof(*l));
	json_t *a = json_array();
	size_t i;

	if (!l)
		return a;
	for (i = 0; i < p->nlines; i++)
		l[i] = &p->lines[i];
	qsort(l, p->nlines, sizeof(*l), cmp_line);
	for (i = 0; i < p->nlines; i++) {
		json_t *t = json_object();

		json_object_set_new(t, "name", json_string(p->frames[l[i]->frame]));
		json_object_set_new(t, "src", json_string(l[i]->src));
		set_u64(t, "samples", l[i]->count);
		json_array_append_new(a, t);
	}
	free(l);
	return a;
}

static json_t *stacks_to_json(const struct pp_prof *p)
{
	json_t *a = json_array();
	char *buf = NULL;
	size_t i, j;

	for (i = 0; i < p->nstacks; i++) {
		const struct pp_prof_stack *s = &p->stacks[i];
		size_t n = (size_t)s->nuser + s->nkernel, len;
		char *nb = realloc(buf, (n + 2) * 24);

		if (!nb)
			break;
		buf = nb;
		len = (size_t)sprintf(buf, "%" PRIu64 " %u", s->count, s->nuser);
		for (j = 0; j < n; j++)
			len += (size_t)sprintf(buf + len, " %" PRIu32, p->pool[s->off + j]);
		json_array_append_new(a, json_string(buf));
	}
	free(buf);
	return a;
}

json_t *pp_prof_to_json(const struct pp_kside *k)
{
	const struct pp_prof *p = k->prof;
	struct pp_prof_fn *f = NULL;
	json_t *o, *frames;
	size_t nf = 0, i;
	double se, ns;

	if (!p)
		return NULL;
	o = json_object();
	json_object_set_new(o, "event", json_string(p->event));
	set_u64(o, "period", p->period);
	set_u64(o, "samples", p->samples);
	set_u64(o, "kernel_samples", p->kernel);
	set_u64(o, "user_samples", p->user);
	set_u64(o, "lost", p->lost);
	set_num(o, "sample_ns", p->sample_ns);
	set_num(o, "ops", k->prof_ops);
	set_num(o, "op_ns", k->prof_op_ns);
	ns = pp_prof_ns(p->kernel, p->samples, k->prof_op_ns, &se);
	set_num(o, "kernel_ns_per_op", ns);
	set_num(o, "kernel_ns_err", se);
	set_num(o, "cost_ns_per_op", k->prof_cost_ns_per_op);
	if (!pp_prof_functions(p, &f, &nf)) {
		json_object_set_new(o, "top_self", top_to_json(p, f, nf, true, k->prof_op_ns));
		pp_prof_sort_total(f, nf);
		json_object_set_new(o, "top_total", top_to_json(p, f, nf, false, k->prof_op_ns));
		free(f);
	}
	frames = json_array();
	for (i = 0; i < p->nframes; i++)
		json_array_append_new(frames, json_string(p->frames[i]));
	json_object_set_new(o, "frames", frames);
	json_object_set_new(o, "stacks", stacks_to_json(p));
	if (p->debuginfo) {
		json_object_set_new(o, "debuginfo", json_string(p->debuginfo));
		json_object_set_new(o, "lines", lines_to_json(p));
	}
	return o;
}

/* A count field: a non-negative integer. */
static int get_u64(json_t *o, const char *name, uint64_t *v)
{
	json_t *j = json_object_get(o, name);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(j);
	return 0;
}

/* "COUNT NUSER FRAME..." into p: 0, or -1 with why. */
static int stack_from_str(struct pp_prof *p, const char *s, uint32_t **buf, size_t *cap,
			  char *why, size_t len)
{
	unsigned long long count, nuser;
	size_t n = 0;
	char *end;
	int ret;

	count = strtoull(s, &end, 10);
	if (end == s || *end != ' ' || !count) {
		snprintf(why, len, "no count above 0");
		return -1;
	}
	s = end;
	nuser = strtoull(s, &end, 10);
	if (end == s) {
		snprintf(why, len, "no number of user frames");
		return -1;
	}
	for (s = end; *s; s = end) {
		unsigned long long fr = strtoull(s, &end, 10);

		if (end == s || (*end && *end != ' ') || fr >= p->nframes) {
			snprintf(why, len, "frame %zu is not one of the %zu frames", n, p->nframes);
			return -1;
		}
		if (n == *cap) {
			uint32_t *nb = realloc(*buf, (*cap ? *cap * 2 : 64) * sizeof(**buf));

			if (!nb) {
				snprintf(why, len, "out of memory");
				return -1;
			}
			*buf = nb;
			*cap = *cap ? *cap * 2 : 64;
		}
		(*buf)[n++] = (uint32_t)fr;
	}
	if (nuser > n) {
		snprintf(why, len, "%llu user frames of %zu", nuser, n);
		return -1;
	}
	ret = pp_prof_add(p, *buf, (unsigned int)nuser, (unsigned int)(n - nuser), count);
	if (ret)
		snprintf(why, len, "%s", ret == -ENOMEM ? "out of memory" : "too many frames");
	return ret ? -1 : 0;
}

/* Frames and stacks into p, the counts checked against its totals. */
static int stacks_from_json(struct pp_prof *p, json_t *o, char *why, size_t len)
{
	json_t *frames = json_object_get(o, "frames"), *stacks = json_object_get(o, "stacks"), *v;
	char sub[128];
	uint32_t *buf = NULL, idx;
	uint64_t sum = 0;
	size_t i, cap = 0;
	int ret = -1;

	if (!json_is_array(frames) || !json_is_array(stacks)) {
		snprintf(why, len, "frames, stacks: not lists");
		return -1;
	}
	json_array_foreach(frames, i, v) {
		if (!json_is_string(v) || pp_prof_frame(p, json_string_value(v), &idx) || idx != i) {
			snprintf(why, len, "frames[%zu]: not a name, or a name given twice", i);
			goto out;
		}
	}
	json_array_foreach(stacks, i, v) {
		if (!json_is_string(v)) {
			snprintf(why, len, "stacks[%zu]: not a string", i);
			goto out;
		}
		if (stack_from_str(p, json_string_value(v), &buf, &cap, sub, sizeof(sub))) {
			snprintf(why, len, "stacks[%zu]: %s", i, sub);
			goto out;
		}
	}
	for (i = 0; i < p->nstacks; i++)
		sum += p->stacks[i].count;
	if (sum != p->samples) {
		snprintf(why, len, "stacks: %" PRIu64 " samples, not samples' %" PRIu64,
			 sum, p->samples);
		goto out;
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/*
 * The debug info's source lines into p: each a leaf's, of a frame p
 * has, their samples at most the kernel's.  0, or -1 with why.
 */
static int lines_from_json(struct pp_prof *p, json_t *o, char *why, size_t len)
{
	json_t *di = json_object_get(o, "debuginfo"), *lines = json_object_get(o, "lines"), *v;
	uint64_t sum = 0;
	size_t i;

	if (!di && !lines)
		return 0;
	if (!json_is_string(di) || !json_string_length(di) || !json_is_array(lines)) {
		snprintf(why, len, "debuginfo, lines: not a file name and a list");
		return -1;
	}
	if (pp_prof_set_debuginfo(p, json_string_value(di))) {
		snprintf(why, len, "debuginfo: out of memory");
		return -1;
	}
	json_array_foreach(lines, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		const char *src = json_string_value(json_object_get(v, "src"));
		long fr = name ? pp_prof_find(p, name) : -1;
		uint64_t n;

		if (fr < 0 || !src || !src[0] || get_u64(v, "samples", &n) || !n ||
		    pp_prof_line(p, (uint32_t)fr, src, n)) {
			snprintf(why, len, "lines[%zu]: not a frame's name, a source line and "
				 "samples above 0", i);
			return -1;
		}
		sum += n;
	}
	if (sum > p->kernel) {
		snprintf(why, len, "lines: %" PRIu64 " samples, more than kernel_samples' %" PRIu64,
			 sum, p->kernel);
		return -1;
	}
	return 0;
}

int pp_prof_from_json(struct pp_run *run, const char *key, struct pp_kside *k, json_t *o,
		      char *why, size_t len)
{
	const char *event = json_string_value(json_object_get(o, "event"));
	json_t *op = json_object_get(o, "op_ns"), *ops = json_object_get(o, "ops");
	json_t *sns = json_object_get(o, "sample_ns");
	struct pp_prof *p = calloc(1, sizeof(*p));
	char sub[192];

	if (!p) {
		snprintf(why, len, "result %s: out of memory", key);
		return -1;
	}
	if (!event || !event[0] || strlen(event) >= EVENT_MAX) {
		snprintf(sub, sizeof(sub), "event: not a name of 1 to %d characters", EVENT_MAX - 1);
		goto bad;
	}
	pp_strlcpy(p->event, event, sizeof(p->event));
	if (get_u64(o, "period", &p->period) || get_u64(o, "samples", &p->samples) ||
	    get_u64(o, "kernel_samples", &p->kernel) || get_u64(o, "user_samples", &p->user) ||
	    get_u64(o, "lost", &p->lost)) {
		snprintf(sub, sizeof(sub),
			 "period, samples, kernel_samples, user_samples, lost: not all counts");
		goto bad;
	}
	if (p->kernel + p->user != p->samples) {
		snprintf(sub, sizeof(sub), "kernel_samples + user_samples is not samples");
		goto bad;
	}
	if (!json_is_number(op) || !(json_number_value(op) > 0)) {
		snprintf(sub, sizeof(sub), "op_ns: not a time above 0");
		goto bad;
	}
	if (!json_is_number(ops) || !(json_number_value(ops) > 0) ||
	    !json_is_number(sns) || !(json_number_value(sns) > 0)) {
		snprintf(sub, sizeof(sub), "ops, sample_ns: not numbers above 0");
		goto bad;
	}
	p->sample_ns = json_number_value(sns);
	if (stacks_from_json(p, o, sub, sizeof(sub)) || lines_from_json(p, o, sub, sizeof(sub)))
		goto bad;
	k->prof_op_ns = json_number_value(op);
	k->prof_ops = json_number_value(ops);
	k->prof_cost_ns_per_op = json_is_number(json_object_get(o, "cost_ns_per_op")) ?
		json_number_value(json_object_get(o, "cost_ns_per_op")) : NAN;
	if (pp_run_keep_prof(run, p)) {
		snprintf(why, len, "result %s: out of memory", key);
		return -1;
	}
	k->prof = p;
	return 0;
bad:
	snprintf(why, len, "result %s: field kernel.profile.%s", key, sub);
	pp_prof_destroy(p);
	return -1;
}
