// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled profile of a result (prof.h): frames interned once, equal
 * stacks merged, both through open-addressing hashes that grow at half
 * full; and what is read from it: the kernel's share, its functions by
 * self and inclusive samples, the most common path to one of them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"
#include "util.h"

#define EMPTY		UINT32_MAX

void pp_prof_init(struct pp_prof *p)
{
	memset(p, 0, sizeof(*p));
}

void pp_prof_free(struct pp_prof *p)
{
	size_t i;

	for (i = 0; i < p->nframes; i++)
		free(p->frames[i]);
	for (i = 0; i < p->nlines; i++)
		free(p->lines[i].src);
	free(p->lines);
	free(p->debuginfo);
	free(p->frames);
	free(p->stacks);
	free(p->pool);
	free(p->fhash);
	free(p->shash);
	pp_prof_init(p);
}

void pp_prof_destroy(struct pp_prof *p)
{
	if (!p)
		return;
	pp_prof_free(p);
	free(p);
}

/* FNV-1a */
static uint32_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *s = data;
	uint32_t h = 2166136261u;

	while (len--) {
		h ^= *s++;
		h *= 16777619u;
	}
	return h;
}

static uint32_t hash_stack(const uint32_t *f, unsigned int nuser, unsigned int nkernel)
{
	uint32_t h = hash_bytes(f, (nuser + nkernel) * sizeof(*f));

	return h ^ (nuser * 2654435761u);
}

/* Grow *v of *cap elements of size to hold want: 0 or -ENOMEM. */
static int grow(void **v, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *nv;

	if (want <= *cap)
		return 0;
	while (n < want)
		n *= 2;
	nv = realloc(*v, n * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = n;
	return 0;
}

/* A hash of indices of cap slots (a power of two), EMPTY where free. */
static uint32_t *hash_new(size_t cap)
{
	uint32_t *h = malloc(cap * sizeof(*h));

	if (h)
		memset(h, 0xff, cap * sizeof(*h));
	return h;
}

static uint32_t frame_hash(const struct pp_prof *p, uint32_t i)
{
	return hash_bytes(p->frames[i], strlen(p->frames[i]));
}

static uint32_t stack_hash(const struct pp_prof *p, uint32_t i)
{
	const struct pp_prof_stack *s = &p->stacks[i];

	return hash_stack(p->pool + s->off, s->nuser, s->nkernel);
}

/*
 * Room for one more of the n entries a table holds, at most half full:
 * rehashed into at least 4n slots when not.  0 or -ENOMEM.
 */
static int make_room(const struct pp_prof *p, uint32_t **tab, size_t *cap, size_t n,
		     uint32_t (*hash)(const struct pp_prof *, uint32_t))
{
	size_t ncap = 64, i;
	uint32_t *t;

	if (*tab && (n + 1) * 2 <= *cap)
		return 0;
	while (ncap < (n + 1) * 4)
		ncap *= 2;
	t = hash_new(ncap);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		size_t s = hash(p, (uint32_t)i) & (ncap - 1);

		while (t[s] != EMPTY)
			s = (s + 1) & (ncap - 1);
		t[s] = (uint32_t)i;
	}
	free(*tab);
	*tab = t;
	*cap = ncap;
	return 0;
}

int pp_prof_frame(struct pp_prof *p, const char *name, uint32_t *idx)
{
	size_t s;
	char *copy;

	if (make_room(p, &p->fhash, &p->fhash_cap, p->nframes, frame_hash))
		return -ENOMEM;
	s = hash_bytes(name, strlen(name)) & (p->fhash_cap - 1);
	for (; p->fhash[s] != EMPTY; s = (s + 1) & (p->fhash_cap - 1)) {
		if (!strcmp(p->frames[p->fhash[s]], name)) {
			*idx = p->fhash[s];
			return 0;
		}
	}
	if (grow((void **)&p->frames, &p->frames_cap, p->nframes + 1, sizeof(*p->frames)))
		return -ENOMEM;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	p->frames[p->nframes] = copy;
	p->fhash[s] = (uint32_t)p->nframes;
	*idx = (uint32_t)p->nframes++;
	return 0;
}

int pp_prof_add(struct pp_prof *p, const uint32_t *frames, unsigned int nuser,
		unsigned int nkernel, uint64_t count)
{
	size_t n = (size_t)nuser + nkernel, s, i;
	struct pp_prof_stack *st;

	if (nuser > UINT16_MAX || nkernel > UINT16_MAX || !count)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (frames[i] >= p->nframes)
			return -EINVAL;
	if (make_room(p, &p->shash, &p->shash_cap, p->nstacks, stack_hash))
		return -ENOMEM;
	s = hash_stack(frames, nuser, nkernel) & (p->shash_cap - 1);
	for (; p->shash[s] != EMPTY; s = (s + 1) & (p->shash_cap - 1)) {
		st = &p->stacks[p->shash[s]];
		if (st->nuser == nuser && st->nkernel == nkernel &&
		    !memcmp(p->pool + st->off, frames, n * sizeof(*frames))) {
			st->count += count;
			return 0;
		}
	}
	if (p->npool + n > UINT32_MAX ||
	    grow((void **)&p->stacks, &p->stacks_cap, p->nstacks + 1, sizeof(*p->stacks)) ||
	    grow((void **)&p->pool, &p->pool_cap, p->npool + n, sizeof(*p->pool)))
		return -ENOMEM;
	st = &p->stacks[p->nstacks];
	st->count = count;
	st->off = (uint32_t)p->npool;
	st->nuser = (uint16_t)nuser;
	st->nkernel = (uint16_t)nkernel;
	if (n)
		memcpy(p->pool + p->npool, frames, n * sizeof(*frames));
	p->npool += n;
	p->shash[s] = (uint32_t)p->nstacks++;
	return 0;
}

double pp_prof_ns(uint64_t count, uint64_t total, double op_ns, double *se)
{
	double q;

	if (!total) {
		*se = NAN;
		return NAN;
	}
	/*
	 * The binomial error, of the share one sample more on each side
	 * would give: all or none of a few samples is not exact.
	 */
	q = ((double)count + 1) / ((double)total + 2);
	*se = sqrt(q * (1 - q) / (double)total) * op_ns;
	return (double)count / (double)total * op_ns;
}

double pp_prof_cpu_ns(double count, double sample_ns, double ops, double *se)
{
	if (!(ops > 0) || !(sample_ns > 0)) {
		*se = NAN;
		return NAN;
	}
	*se = sqrt(count + 1) * sample_ns / ops;
	return count * sample_ns / ops;
}

int pp_prof_line(struct pp_prof *p, uint32_t frame, const char *src, uint64_t count)
{
	struct pp_prof_line *l;
	size_t i;

	if (frame >= p->nframes || !src || !src[0])
		return -EINVAL;
	for (i = 0; i < p->nlines; i++) {
		if (p->lines[i].frame == frame && !strcmp(p->lines[i].src, src)) {
			p->lines[i].count += count;
			return 0;
		}
	}
	if (grow((void **)&p->lines, &p->lines_cap, p->nlines + 1, sizeof(*p->lines)))
		return -ENOMEM;
	l = &p->lines[p->nlines];
	l->src = strdup(src);
	if (!l->src)
		return -ENOMEM;
	l->frame = frame;
	l->count = count;
	p->nlines++;
	return 0;
}

const struct pp_prof_line *pp_prof_hot_line(const struct pp_prof *p, uint32_t frame)
{
	const struct pp_prof_line *best = NULL;
	size_t i;

	for (i = 0; i < p->nlines; i++)
		if (p->lines[i].frame == frame && (!best || p->lines[i].count > best->count))
			best = &p->lines[i];
	return best;
}

int pp_prof_set_debuginfo(struct pp_prof *p, const char *path)
{
	char *s = strdup(path);

	if (!s)
		return -ENOMEM;
	free(p->debuginfo);
	p->debuginfo = s;
	return 0;
}

double pp_prof_kernel_share(const struct pp_prof *p, double *se)
{
	return pp_prof_ns(p->kernel, p->samples, 1, se);
}

static int cmp_self(const void *a, const void *b)
{
	const struct pp_prof_fn *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static int cmp_total(const void *a, const void *b)
{
	const struct pp_prof_fn *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return cmp_self(a, b);
}

void pp_prof_sort_total(struct pp_prof_fn *f, size_t n)
{
	qsort(f, n, sizeof(*f), cmp_total);
}

int pp_prof_functions(const struct pp_prof *p, struct pp_prof_fn **out, size_t *n)
{
	uint32_t *slot = malloc((p->nframes ? p->nframes : 1) * sizeof(*slot));
	uint64_t *seen = calloc(p->nframes ? p->nframes : 1, sizeof(*seen));
	struct pp_prof_fn *f = NULL;
	size_t i, j, nf = 0;
	int ret = -ENOMEM;

	if (!slot || !seen)
		goto out;
	f = calloc(p->nframes ? p->nframes : 1, sizeof(*f));
	if (!f)
		goto out;
	memset(slot, 0xff, p->nframes * sizeof(*slot));
	for (i = 0; i < p->nstacks; i++) {
		const struct pp_prof_stack *s = &p->stacks[i];
		const uint32_t *k = p->pool + s->off + s->nuser;

		for (j = 0; j < s->nkernel; j++) {
			uint32_t fr = k[j];

			if (slot[fr] == EMPTY) {
				slot[fr] = (uint32_t)nf;
				f[nf++].frame = fr;
			}
			/* once a stack, however often it recurses */
			if (seen[fr] != i + 1) {
				seen[fr] = i + 1;
				f[slot[fr]].total += s->count;
			}
			if (j + 1 == s->nkernel)
				f[slot[fr]].self += s->count;
		}
	}
	qsort(f, nf, sizeof(*f), cmp_self);
	*out = f;
	*n = nf;
	f = NULL;
	ret = 0;
out:
	free(f);
	free(seen);
	free(slot);
	return ret;
}

/*
 * The kernel frames of stack s from its root to the outermost fn (its
 * leaf, for self), or -1 when it has none there: the path's length.
 */
static long path_end(const struct pp_prof *p, const struct pp_prof_stack *s, uint32_t fn,
		     bool self)
{
	const uint32_t *k = p->pool + s->off + s->nuser;
	unsigned int j;

	if (self)
		return s->nkernel && k[s->nkernel - 1] == fn ? (long)s->nkernel : -1;
	for (j = 0; j < s->nkernel; j++)
		if (k[j] == fn)
			return (long)j + 1;
	return -1;
}

/* Has stack t the same path to fn as k[0..n)? */
static bool same_path(const struct pp_prof *p, const struct pp_prof_stack *t, uint32_t fn,
		      bool self, const uint32_t *k, long n)
{
	return path_end(p, t, fn, self) == n &&
	       !memcmp(p->pool + t->off + t->nuser, k, (size_t)n * sizeof(*k));
}

/*
 * The path to fn with the most samples, of those at least min frames
 * long; of equals, the first seen.  Its frames in *bk, NULL if none.
 */
static long best_path(const struct pp_prof *p, uint32_t fn, bool self, long min,
		      const uint32_t **bk)
{
	uint64_t best = 0;
	long blen = 0;
	size_t i, j;

	*bk = NULL;
	for (i = 0; i < p->nstacks; i++) {
		const struct pp_prof_stack *s = &p->stacks[i];
		const uint32_t *k = p->pool + s->off + s->nuser;
		long n = path_end(p, s, fn, self);
		uint64_t c = 0;

		if (n < min)
			continue;
		for (j = 0; j < i && !same_path(p, &p->stacks[j], fn, self, k, n); j++)
			;
		if (j < i)
			continue;	/* counted with the first that has it */
		for (j = i; j < p->nstacks; j++)
			if (same_path(p, &p->stacks[j], fn, self, k, n))
				c += p->stacks[j].count;
		if (c > best) {
			best = c;
			*bk = k;
			blen = n;
		}
	}
	return blen;
}

void pp_prof_path(const struct pp_prof *p, uint32_t fn, bool self, char *buf, size_t size)
{
	const uint32_t *bk;
	long blen;
	size_t j, len;

	/*
	 * A function alone is where the unwinder stopped (JIT code has no
	 * unwind data) unless it is where the kernel was entered: the
	 * paths that reach its callers, where there are any.
	 */
	blen = best_path(p, fn, self, 2, &bk);
	if (!bk)
		blen = best_path(p, fn, self, 1, &bk);
	buf[0] = '\0';
	if (!bk) {
		if (fn < p->nframes)
			snprintf(buf, size, "%s", p->frames[fn]);
		return;
	}
	for (len = 0, j = 0; j < (size_t)blen && j < PP_PROF_PATH_FRAMES; j++) {
		int w = snprintf(buf + len, size - len, "%s%s", j ? " <- " : "",
				 p->frames[bk[blen - 1 - j]]);

		if (w < 0 || (size_t)w >= size - len) {
			buf[len] = '\0';	/* whole frames only */
			break;
		}
		len += (size_t)w;
	}
}

long pp_prof_find(const struct pp_prof *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nframes; i++)
		if (!strcmp(p->frames[i], name))
			return (long)i;
	return -1;
}
