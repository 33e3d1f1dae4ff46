// SPDX-License-Identifier: GPL-2.0
/*
 * Importing lmbench results (import.h): years of lmbench results as
 * perfprobe runs, so that summary, compare and report
 * read them beside new runs.  Two kinds of file:
 *
 *   raw results (results/<os>/<host>.<n>): the "[lmbench3.0 results for
 *   ...]" header, "Simple syscall: 0.1994 microseconds" lines and the
 *   blocks ("mappings, "File system latency, "size=0k ovr=..., "stride=128,
 *   bw_mem's, ...): one run, every figure at its size;
 *
 *   the summary `make see` / getsummary prints (as published: three in
 *   tests/fixtures/lmbench/): one run per row name (host, or OS when
 *   there is no host column), its cells by column.
 *
 * Every result is single-valued (one sample: compare says it has no
 * interval) and carries "imported_from": "FILE:LINE".  Units become
 * perfprobe's: lat_fs's creations per second become microseconds per
 * file (and the files/s key), sizes in lmbench's MB columns become the
 * size suffixes perfprobe's keys use.  A figure the summary gives without
 * its size (the largest size tested) gets the key suffix "largest".
 * Lines and cells that map to no key are counted, and listed with -v;
 * nothing is guessed: a row whose cells cannot be placed in their columns
 * (a copy that lost the column spacing) has them listed as unplaced.
 * The command is importcmd.c; Documentation/import.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "report/import.h"
#include "util.h"

#define MIB		1048576.0

static void note(struct pp_import *im, unsigned int line, const char *fmt, ...)
	__printf(3, 4);

static void vnote(struct pp_import *im, unsigned int line, const char *fmt, va_list ap)
{
	if (im->nnotes == PP_IMPORT_NOTES)
		return;
	im->notes[im->nnotes].line = line;
	vsnprintf(im->notes[im->nnotes].text, sizeof(im->notes[0].text), fmt, ap);
	im->nnotes++;
}

/* Something not imported, and why (-v lists it). */
static void note(struct pp_import *im, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	im->unknown++;
	va_start(ap, fmt);
	vnote(im, line, fmt, ap);
	va_end(ap);
}

/* A figure given twice alike: kept once, listed too. */
static void note_twice(struct pp_import *im, unsigned int line, const char *fmt, ...)
	__printf(3, 4);

static void note_twice(struct pp_import *im, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	im->twice++;
	va_start(ap, fmt);
	vnote(im, line, fmt, ap);
	va_end(ap);
}

/*
 * Add key = v to run, in d's unit, direction and kind; 0, or -1 (a note
 * says why) when it cannot be.
 */
static int put(struct pp_import *im, struct pp_run *run, unsigned int line, const char *key,
	       const struct pp_key_decl *d, double v)
{
	const struct pp_result *old;
	struct pp_result *r;
	char src[PATH_MAX + 16];

	if (!pp_key_valid(key)) {
		note(im, line, "%s = %g: no perfprobe key", key, v);
		return -1;
	}
	if (!isfinite(v) || v <= 0) {
		note(im, line, "%s = %g: not a figure (zero or negative)", key, v);
		return -1;
	}
	old = pp_run_find(run, key);
	if (old) {
		/* the 2p/0K context switch is in two tables */
		if (fabs(old->value - v) > 1e-9 * fabs(v))
			note(im, line, "%s = %g: given again, %g kept", key, v, old->value);
		else
			note_twice(im, line, "%s = %g: given again alike, kept once", key, v);
		return 0;
	}
	r = pp_run_add(run, key, d->unit, d->dir, &v, 1);
	if (!r)
		return -ENOMEM;
	r->kind = d->kind;
	snprintf(src, sizeof(src), "%s:%u", im->file, line);
	r->imported = pp_intern(src);
	im->imported++;
	return 0;
}

/*
 * Where lmbench's files show keys is said by the key declarations
 * (keys.h): each entry of a declaration that holds what match() asks.
 */
struct place {
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
};

/* The n-th (from 0) place whose entry match() accepts; false past the last. */
static bool place_nth(unsigned int n, bool (*match)(const struct pp_key_show *, const void *),
		      const void *arg, struct place *out)
{
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
	unsigned int b;

	for (b = 0; b < pp_nbenches; b++)
		for (d = pp_benches[b]->keys; d && d->pattern; d++)
			for (s = d->show; s && !pp_show_end(s); s++)
				if (match(s, arg) && !n--) {
					*out = (struct place){ d, s };
					return true;
				}
	return false;
}

/* key = template with its conversions given vals, in order; false if it is no key. */
static bool fill(char *key, size_t size, const char *t, const char *const *vals, unsigned int n)
{
	size_t len = 0;
	unsigned int i = 0;

	for (; *t && len + 1 < size; t++) {
		if ((t[0] == '%' && (t[1] == 'u' || t[1] == 's')) || t[0] == '*') {
			if (i == n)
				return false;
			len += (size_t)snprintf(key + len, size - len, "%s", vals[i++]);
			t += t[0] == '%';
		} else {
			key[len++] = *t;
		}
	}
	if (len >= size || *t || i != n)
		return false;
	key[len] = '\0';
	return pp_key_valid(key);
}

/* "868", "143.", "32.K", "1.0K", "12M": a cell's value, or NAN. */
static double cell_value(const char *s)
{
	char *end;
	double v;

	if (!*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return NAN;
	v = strtod(s, &end);
	if (end == s)
		return NAN;
	if (*end == 'K' || *end == 'k')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	return *end ? NAN : v;
}

/* --- raw results --- */

/* lmbench's MB column (10^6 bytes) to perfprobe's "<N>mb" (MiB), or -1. */
static long mib_of(double mb)
{
	double mib = mb * 1e6 / MIB;

	/* printed with three digits: 1 MiB is "1.05" */
	return mib >= 0.99 && fabs(mib - round(mib)) < 0.01 * round(mib) ? lround(mib) : -1;
}

/* Blocks: a header line, then "x y" rows up to a blank line. */
enum block { B_NONE, B_SKIP, B_ROWS, B_MEMRD };

struct raw {
	enum block b;
	const char *head;	/* the declared header of the block */
	enum pp_lm_rows rows;	/* and how its rows are laid out */
	unsigned int ctx_kb, stride;
	const char *curve;	/* lat_mem_rd: the declared line that named the curve */
};

static bool match_line(const struct pp_key_show *s, const void *arg)
{
	return s->lm_line && !strncmp(arg, s->lm_line, strlen(s->lm_line));
}

static bool match_head(const struct pp_key_show *s, const void *arg)
{
	return s->lm_block && !strncmp(arg, s->lm_block, strlen(s->lm_block));
}

static bool match_block(const struct pp_key_show *s, const void *arg)
{
	return s->lm_block && s->lm_block == arg;
}

/* A size row's key: the template's %u is the size, in the unit after it. */
static bool size_key(char *key, size_t size, const char *t, double mb)
{
	const char *u = strstr(t, "%u");
	double bytes = mb * 1e6;
	char v[32];
	long mib;

	if (!u)
		return false;
	u += 2;
	if (!strncmp(u, "mb", 2) || (u[0] == 'm' && (!u[1] || u[1] == '-'))) {
		mib = mib_of(mb);
		if (mib < 0)
			return false;
		snprintf(v, sizeof(v), "%ld", mib);
	} else if (!strncmp(u, "kb", 2)) {
		if (fabs(bytes / 1024 - round(bytes / 1024)) >= 1e-6)
			return false;
		snprintf(v, sizeof(v), "%.0f", bytes / 1024);
	} else {
		snprintf(v, sizeof(v), "%.0f", bytes);
	}
	return fill(key, size, t, (const char *const[]){ v }, 1);
}

/* A time per operation from lmbench's figure per second, or the figure. */
static double per_second(const struct pp_key_decl *d, double v)
{
	return strcmp(d->unit, "us") ? v : 1e6 / v;
}

/* "Fri Dec  4 07:25:01 UTC 2026" -> ISO 8601, or false. */
static bool parse_date(const char *s, char *iso, size_t size)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a %b %d %H:%M:%S", &tm);
	if (!end)
		return false;
	while (*end == ' ')
		end++;
	while (*end && !isdigit((unsigned char)*end))	/* the zone's name */
		end++;
	if (sscanf(end, "%d", &tm.tm_year) != 1)
		return false;
	tm.tm_year -= 1900;
	strftime(iso, size, "%Y-%m-%dT%H:%M:%S", &tm);
	return true;
}

static void raw_header(struct pp_run *run, const char *l)
{
	struct pp_meta *m = &run->meta;
	char a[160], b[160], c[160];
	double mhz;

	if (sscanf(l, "[lmbench%*s results for %31s %63s %127s", a, b, c) == 3) {
		pp_strlcpy(m->sysname, a, sizeof(m->sysname));
		pp_strlcpy(m->hostname, b, sizeof(m->hostname));
		pp_strlcpy(m->release, c, sizeof(m->release));
		pp_strlcpy(m->kversion, l + 1, sizeof(m->kversion));
		m->kversion[strcspn(m->kversion, "]")] = '\0';
	} else if (sscanf(l, "[MHZ: %lf", &mhz) == 1 && mhz > 0) {
		m->mhz.mhz = mhz;
		m->mhz.trusted = true;
		pp_strlcpy(m->mhz.method, "lmbench's results file", sizeof(m->mhz.method));
	} else if (sscanf(l, "[MACHINE: %31[^]]", a) == 1) {
		pp_strlcpy(m->machine, a, sizeof(m->machine));
	} else if (sscanf(l, "[RELEASE: %127[^]]", a) == 1) {
		pp_strlcpy(m->release, a, sizeof(m->release));
	} else if (sscanf(l, "[HOSTNAME: %63[^]]", a) == 1) {
		pp_strlcpy(m->hostname, a, sizeof(m->hostname));
	} else if (!m->date[0] && parse_date(l + 1, a, 24)) {
		snprintf(m->date, sizeof(m->date), "%.24sZ", a);
	}
}

/* A row that does not belong in its block: noted, not imported. */
static int not_a_row(struct pp_import *im, unsigned int ln, const char *l)
{
	note(im, ln, "not a row of its block: %.80s", l);
	return 0;
}

/* A row of lat_mem_rd's curve: the size in MB (2^20), ns. */
static int raw_memrd_row(struct pp_import *im, struct pp_run *run, const struct raw *st,
			 unsigned int ln, const char *l)
{
	char key[PP_KEY_MAX], v1[32], v2[32];
	struct place pl;
	double x, y;

	if (sscanf(l, "%lf %lf", &x, &y) != 2 || !place_nth(0, match_block, st->curve, &pl))
		return not_a_row(im, ln, l);
	snprintf(v1, sizeof(v1), "%u", st->stride);
	pp_key_size_name(v2, sizeof(v2), pp_memrd_bytes(x), pl.d->size);
	if (!fill(key, sizeof(key), pp_show_key(pl.d, pl.s), (const char *const[]){ v1, v2 }, 2))
		return not_a_row(im, ln, l);
	return put(im, run, ln, key, pl.d, y);
}

static int raw_block_row(struct pp_import *im, struct pp_run *run, struct raw *st, unsigned int ln,
			 const char *l)
{
	char key[PP_KEY_MAX], v1[32], v2[32], tok[4][32];
	struct place pl;
	unsigned int i;
	double x;
	int ret;

	if (st->b == B_MEMRD)
		return raw_memrd_row(im, run, st, ln, l);
	if (st->b != B_ROWS) {
		note(im, ln, "in a block perfprobe has no key for: %.80s", l);
		return 0;
	}
	if (sscanf(l, "%31s %31s %31s %31s", tok[0], tok[1], tok[2], tok[3]) < 2)
		return not_a_row(im, ln, l);
	x = strtod(tok[0], NULL);
	for (i = 0; place_nth(i, match_block, st->head, &pl); i++) {
		const char *t = pp_show_key(pl.d, pl.s);

		switch (st->rows) {
		case PP_LM_SIZE:	/* size in MB (10^6), the figure */
			if (!size_key(key, sizeof(key), t, x))
				continue;
			return put(im, run, ln, key, pl.d, strtod(tok[1], NULL));
		case PP_LM_CTX:		/* processes, microseconds */
			snprintf(v1, sizeof(v1), "%.0f", x);
			snprintf(v2, sizeof(v2), "%u", st->ctx_kb);
			if (!fill(key, sizeof(key), t, (const char *const[]){ v1, v2 }, 2))
				return not_a_row(im, ln, l);
			return put(im, run, ln, key, pl.d, strtod(tok[1], NULL));
		case PP_LM_RATE:	/* "Nk", files, creations/s, deletions/s */
			if (pl.s->lm_col < 2 || pl.s->lm_col > 4 || !strchr(tok[0], 'k'))
				return not_a_row(im, ln, l);
			snprintf(v1, sizeof(v1), "%.*s", (int)strcspn(tok[0], "k"), tok[0]);
			if (!fill(key, sizeof(key), t, (const char *const[]){ v1 }, 1))
				return not_a_row(im, ln, l);
			ret = put(im, run, ln, key, pl.d,
				  per_second(pl.d, strtod(tok[pl.s->lm_col - 1], NULL)));
			if (ret < -1)
				return ret;
			break;
		case PP_LM_CURVE:
			return not_a_row(im, ln, l);
		}
	}
	if (st->rows == PP_LM_RATE && i)
		return 0;
	if (st->rows == PP_LM_SIZE && place_nth(0, match_block, st->head, &pl)) {
		note(im, ln, "%s at %g MB: perfprobe's keys name whole MiB",
		     pp_show_key(pl.d, pl.s), x);
		return 0;
	}
	return not_a_row(im, ln, l);
}

static int raw_line(struct pp_import *im, struct pp_run *run, struct raw *st, unsigned int ln,
		    char *l)
{
	struct place pl;
	double v;
	char *p;

	if (!*l || strspn(l, " \t") == strlen(l)) {
		st->b = B_NONE;
		return 0;
	}
	if (st->b != B_NONE && (isdigit((unsigned char)*l) || *l == '.'))
		return raw_block_row(im, run, st, ln, l);
	st->b = B_NONE;
	if (*l == '[') {
		raw_header(run, l);
		return 0;
	}
	/* lat_mem_rd: a line names the curve, its "stride=S" blocks follow */
	if (st->curve && sscanf(l, "\"stride=%u", &st->stride) == 1) {
		st->b = B_MEMRD;
		return 0;
	}
	if (place_nth(0, match_head, l, &pl)) {
		st->head = pl.s->lm_block;
		st->rows = pl.s->lm_rows;
		st->b = B_ROWS;
		if (st->rows == PP_LM_CURVE) {
			st->curve = st->head;
			st->b = B_NONE;
		}
		if (st->rows == PP_LM_CTX && sscanf(l, "\"size=%uk", &st->ctx_kb) != 1)
			st->b = B_SKIP;
		return 0;
	}
	if (place_nth(0, match_line, l, &pl)) {
		p = strrchr(l, ':');	/* "Pagefaults on FILE: 1.4 microseconds" */
		if (p && sscanf(p + 1, "%lf", &v) == 1)
			return put(im, run, ln, pp_show_key(pl.d, pl.s), pl.d, v) < -1 ?
			       -ENOMEM : 0;
	}
	if (*l == '"' || strchr(l, ':') == NULL)
		st->b = B_SKIP;		/* an unknown block's header: its rows too */
	note(im, ln, "no perfprobe key: %.120s", l);
	return 0;
}

/* --- the summary tables --- */

/*
 * lmbench's summary tables: how each starts, and how many columns its
 * 2.0 and its 3.0 layout have (3.0 adds columns at the end; a header
 * word tells it apart).  The keys of the columns are the declarations'
 * (.table, .lm_col); the clock is the run's meta; a column no key names
 * is listed, not imported.
 */
struct stable {
	const char *id;		/* as the declarations name it */
	const char *title;	/* how it starts */
	const char *marker;	/* a header word of the 3.0 layout, or NULL */
	unsigned int ncols2, ncols3;
	unsigned int mhz_col;	/* the clock's column (from 1), or 0 */
};

static const struct stable stables[] = {
	{ "proc", "Processor, Processes", NULL, 11, 11, 1 },
	{ "ctx", "Context switching", NULL, 7, 7, 0 },
	{ "ipc", "*Local* Communication latencies", NULL, 8, 8, 0 },
	{ "fsvm", "File & VM system latencies", "selct", 7, 8, 0 },
	{ "bw", "*Local* Communication bandwidths", NULL, 9, 9, 0 },
	{ "mem", "Memory latencies", "Rand", 4, 5, 1 },
	{ "ops-int", "Basic integer operations", NULL, 5, 5, 0 },
	{ "ops-int64", "Basic uint64 operations", NULL, 5, 5, 0 },
	{ "ops-float", "Basic float operations", NULL, 4, 4, 0 },
	{ "ops-double", "Basic double operations", NULL, 4, 4, 0 },
	/* Host OS Description Mhz [tlb pages, cache line bytes, mem par, scal load] */
	{ "sys", "Basic system parameters", "tlb", 1, 5, 1 },
};

#define SCOLS_MAX	16

/* A column of an lmbench table: the clock, a key (and its declaration), or none. */
struct scol {
	bool mhz;
	const struct pp_key_decl *d;
	char key[PP_KEY_MAX];
};

struct lm_col_arg {
	const char *table;
	unsigned int col;
};

static bool match_lm_col(const struct pp_key_show *s, const void *arg)
{
	const struct lm_col_arg *a = arg;

	return s->table && s->lm_col == a->col && !strcmp(s->table, a->table);
}

/* The columns of t in a layout of n: a '*' key is its prefix's "largest". */
static void stable_cols(const struct stable *t, unsigned int n, struct scol *cols)
{
	struct place pl;
	unsigned int c;

	for (c = 0; c < n; c++) {
		const char *k;

		memset(&cols[c], 0, sizeof(cols[c]));
		cols[c].mhz = c + 1 == t->mhz_col;
		if (!place_nth(0, match_lm_col, &(struct lm_col_arg){ t->id, c + 1 }, &pl))
			continue;
		k = pp_show_key(pl.d, pl.s);
		cols[c].d = pl.d;
		snprintf(cols[c].key, sizeof(cols[c].key), "%.*s%s", (int)strcspn(k, "*"), k,
			 strchr(k, '*') ? "largest" : "");
	}
}

unsigned int pp_import_table_cols(const char *id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stables); i++)
		if (!strcmp(stables[i].id, id))
			return stables[i].ncols3;
	return 0;
}

static struct pp_run *run_named(struct pp_import *im, const char *name)
{
	size_t i;

	for (i = 0; i < im->nruns; i++)
		if (!strcmp(im->names[i], name))
			return &im->runs[i];
	if (im->nruns == PP_IMPORT_RUNS)
		return NULL;
	pp_strlcpy(im->names[im->nruns], name, sizeof(im->names[0]));
	pp_run_init(&im->runs[im->nruns]);
	return &im->runs[im->nruns++];
}

static bool is_dashes(const char *t)
{
	return *t == '-' && strspn(t, "-") == strlen(t) && strlen(t) >= 3;
}

/* A token of a value column: a number, or "-" (lmbench's "no figure"). */
static bool is_cell(const char *t)
{
	return !strcmp(t, "-") || isfinite(cell_value(t));
}

struct tok {
	char *s;
	unsigned int line;
	size_t col;	/* its column in its line */
	bool bol;	/* first on its line */
};

/*
 * A table's layout: its columns, and where each value column's dashes
 * are (the first and last character of each) when the file kept its
 * spacing.
 */
struct layout {
	const struct stable *t;
	struct scol cols[SCOLS_MAX];
	size_t ncols;
	size_t span[64];
	size_t nspan;
};

/* Do a row's tokens keep the file's spacing (two blanks or more between two)? */
static bool row_spaced(const struct tok *tk, size_t n)
{
	size_t k;

	for (k = 0; k + 1 < n; k++)
		if (tk[k + 1].line == tk[k].line && tk[k + 1].col > tk[k].col + strlen(tk[k].s) + 1)
			return true;
	return false;
}

/* Is w an OS's name, the second word of "ARM610.ol NetBSD 1.6E" (a host, then its OS)? */
static bool is_os(const char *w)
{
	static const char *const oses[] = {
		"Linux", "NetBSD", "FreeBSD", "OpenBSD", "Darwin", "SunOS",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(oses); i++)
		if (!strcmp(w, oses[i]))
			return true;
	return false;
}

/* A row's name, Host OS (2 tokens or more) or OS, and where its values start. */
struct row_name {
	char name[64], os[128];
	size_t first;
	const struct tok *desc;	/* the system parameters' Description, or NULL */
};

static void parse_row_name(struct row_name *rn, const struct stable *t, const struct tok *tk,
			   size_t ntk)
{
	size_t i, ntoks;

	rn->name[0] = rn->os[0] = '\0';
	for (i = 0; i < ntk && !(is_cell(tk[i].s) && i > 0); i++)
		;
	rn->first = i;
	/* the system parameters' Description ("x86_64-linux-gnu") ends the name */
	if (!strcmp(t->title, "Basic system parameters") && rn->first >= 2) {
		rn->desc = &tk[rn->first - 1];
		ntoks = rn->first - 1;
	} else {
		rn->desc = NULL;
		ntoks = rn->first;
	}
	for (i = 0; i < ntoks; i++) {
		size_t len = strlen(rn->name);

		snprintf(rn->name + len, sizeof(rn->name) - len, "%s%s", len ? " " : "", tk[i].s);
	}
	if (ntoks >= 2 && is_os(tk[1].s)) {
		snprintf(rn->os, sizeof(rn->os), "%s", strchr(rn->name, ' ') + 1);
		rn->name[strcspn(rn->name, " ")] = '\0';
	} else {
		snprintf(rn->os, sizeof(rn->os), "%s", rn->name);
	}
}

/* A new run's meta from its row's name: its system, release and host, and a label. */
static void row_meta(struct pp_meta *m, const char *name, const char *os)
{
	char sys[32] = "", rel[96] = "";
	size_t i;

	sscanf(os, "%31s %95s", sys, rel);
	pp_strlcpy(m->sysname, sys, sizeof(m->sysname));
	pp_strlcpy(m->release, rel[0] ? rel : sys, sizeof(m->release));
	pp_strlcpy(m->kversion, os, sizeof(m->kversion));
	pp_strlcpy(m->hostname, strcmp(name, os) ? name : "", sizeof(m->hostname));
	/* the host's name, or with no host column the release */
	pp_strlcpy(m->label, strcmp(name, os) || !rel[0] ? name : rel, sizeof(m->label));
	/* a label is [A-Za-z0-9._+-]: the rest becomes '_' */
	for (i = 0; m->label[i]; i++)
		if (!isalnum((unsigned char)m->label[i]) && !strchr("._+-", m->label[i]))
			m->label[i] = '_';
}

/* A row's run and its values. */
struct row {
	struct pp_run *run;
	const char *name;
	const struct tok *vals;
	size_t nv;
	bool spaced;		/* it kept the file's spacing */
};

/*
 * The column of the row's value i: its place when the row has a value
 * for each column, else the column whose dashes are under its end when
 * the file kept its spacing; false (a note says why) when neither.
 */
static bool value_col(struct pp_import *im, const struct layout *lt, const struct row *row,
		      size_t i, size_t *c)
{
	const struct tok *v = &row->vals[i];
	size_t end;

	if (row->nv == lt->ncols) {
		*c = i;
		return true;
	}
	if (!row->spaced || lt->nspan != lt->ncols) {
		note(im, v->line, "%s: \"%s\": %zu of the %s table's %zu cells in the row "
		     "and no column spacing to place them by", row->name, v->s, row->nv,
		     lt->t->title, lt->ncols);
		return false;
	}
	end = v->col + strlen(v->s) - 1;
	for (*c = 0; *c < lt->nspan && !(end >= lt->span[2 * *c] && end <= lt->span[2 * *c + 1]);
	     (*c)++)
		;
	if (*c == lt->nspan) {
		note(im, v->line, "%s: \"%s\" is under no column of the %s table", row->name, v->s,
		     lt->t->title);
		return false;
	}
	return true;
}

/* The row's value i in column c: the clock, a key's figure, or a note that it is none. */
static int put_cell(struct pp_import *im, const struct layout *lt, const struct row *row,
		    size_t i, size_t c)
{
	const struct tok *v = &row->vals[i];
	const struct scol *col = &lt->cols[c];
	struct pp_meta *m = &row->run->meta;

	if (col->mhz) {
		m->mhz.mhz = cell_value(v->s);
		m->mhz.trusted = true;
		pp_strlcpy(m->mhz.method, "lmbench's summary", sizeof(m->mhz.method));
		im->imported++;
	} else if (!col->d) {
		note(im, v->line, "%s: %s in the %s table: no perfprobe key", row->name, v->s,
		     lt->t->title);
	} else if (put(im, row->run, v->line, col->key, col->d, cell_value(v->s)) < -1) {
		return -ENOMEM;
	}
	return 0;
}

/* Set a row's run and its cells from a table row: name tokens, then values. */
static int put_row(struct pp_import *im, const struct layout *lt, const struct tok *tk, size_t ntk)
{
	struct row row = { .spaced = row_spaced(tk, ntk) };
	struct row_name rn;
	size_t i, c;

	parse_row_name(&rn, lt->t, tk, ntk);
	row.name = rn.name;
	row.run = run_named(im, rn.name);
	if (!row.run)
		return -ENOSPC;
	if (!row.run->meta.sysname[0])
		row_meta(&row.run->meta, rn.name, rn.os);
	if (rn.desc) {
		pp_strlcpy(row.run->meta.machine, rn.desc->s, sizeof(row.run->meta.machine));
		note(im, rn.desc->line, "%s: \"%s\": the description, as the machine", rn.name,
		     rn.desc->s);
	}
	row.vals = &tk[rn.first];
	for (row.nv = 0; rn.first + row.nv < ntk && is_cell(row.vals[row.nv].s); row.nv++)
		;
	/* text after the values ("Bad mhz?" under Guesses): a cell of no key */
	for (i = rn.first + row.nv; i < ntk; i++)
		note(im, tk[i].line, "%s: \"%s\": a text cell", rn.name, tk[i].s);
	for (i = 0; i < row.nv; i++) {
		if (!value_col(im, lt, &row, i, &c) || !strcmp(row.vals[i].s, "-"))
			continue;
		if (put_cell(im, lt, &row, i, c))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Table t's layout from its head: header words up to the dashes (the
 * first run of them, whose positions give the columns when the file
 * kept its spacing).  Returns where the rows start.
 */
static size_t table_layout(struct layout *lt, const struct tok *tk, size_t ntk)
{
	const struct stable *t = lt->t;
	size_t i = 0, dash_line = 0;
	bool layout3 = false;

	for (; i < ntk && !is_dashes(tk[i].s); i++)
		if (t->marker && strstr(tk[i].s, t->marker))
			layout3 = true;
	/*
	 * A rule under the title, then the column heads ("Host OS ..." or
	 * "OS MHz ...") and their dashes; or the heads right after the title.
	 */
	while (i < ntk && is_dashes(tk[i].s))
		i++;
	if (i < ntk && (!strcmp(tk[i].s, "Host") || !strcmp(tk[i].s, "OS"))) {
		for (; i < ntk && !is_dashes(tk[i].s); i++)
			if (t->marker && strstr(tk[i].s, t->marker))
				layout3 = true;
	} else {
		/* no heads after the rule: its dashes were the columns' */
		while (i > 0 && is_dashes(tk[i - 1].s))
			i--;
	}
	lt->ncols = layout3 ? t->ncols3 : t->ncols2;
	stable_cols(t, lt->ncols, lt->cols);
	/* the dashes: host/OS columns and one a value column */
	lt->nspan = 0;
	if (i < ntk)
		dash_line = tk[i].line;
	for (; i < ntk && is_dashes(tk[i].s); i++)
		if (tk[i].line == dash_line && lt->nspan < ARRAY_SIZE(lt->span) / 2) {
			lt->span[2 * lt->nspan] = tk[i].col;
			lt->span[2 * lt->nspan + 1] = tk[i].col + strlen(tk[i].s) - 1;
			lt->nspan++;
		}
	/* value columns: the last ncols dash runs of the line */
	if (lt->nspan >= lt->ncols) {
		memmove(lt->span, lt->span + 2 * (lt->nspan - lt->ncols),
			2 * lt->ncols * sizeof(lt->span[0]));
		lt->nspan = lt->ncols;
	}
	return i;
}

/*
 * Where the row at tk[start] ends: its name, then cells to the end of
 * the line or ncols of them; the rest of the line too unless it is
 * another row (a copy that joined the lines).  start when it has no
 * cell: not a row, the table is over.
 */
static size_t row_end(const struct tok *tk, size_t ntk, size_t start, size_t ncols)
{
	size_t j, k, nv = 0;

	for (j = start; j < ntk && !is_dashes(tk[j].s); j++) {
		if (j > start && tk[j].line != tk[start].line)
			break;
		if (j > start && is_cell(tk[j].s)) {
			nv++;
		} else if (nv) {
			break;
		}
		if (nv == ncols) {
			j++;
			break;
		}
	}
	if (!nv)
		return start;
	/* the rest of the line: another row (a joined copy), or text */
	for (k = j; k < ntk && tk[k].line == tk[start].line && !is_dashes(tk[k].s) &&
		    !is_cell(tk[k].s); k++)
		;
	if (k == ntk || tk[k].line != tk[start].line || is_dashes(tk[k].s))
		j = k;
	return j;
}

/*
 * One table: its tokens from after the title to the next title.  Its
 * layout from its head, then rows: each a name and cells, one row a
 * line, or (a copy that joined the lines) name and as many cells as
 * there are columns.
 */
static int summary_table(struct pp_import *im, const struct stable *t, struct tok *tk, size_t ntk)
{
	struct layout lt = { .t = t };
	size_t i, j;
	int ret = 0;

	i = table_layout(&lt, tk, ntk);
	while (i < ntk && !is_dashes(tk[i].s) && !ret) {
		j = row_end(tk, ntk, i, lt.ncols);
		if (j == i)
			break;
		ret = put_row(im, &lt, tk + i, j - i);
		i = j;
	}
	return ret;
}

static bool summary_title(const char *s, const struct stable **t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stables); i++)
		if (!strncmp(s, stables[i].title, strlen(stables[i].title))) {
			*t = &stables[i];
			return true;
		}
	return false;
}

/* Tokens of every line, with where each begins. */
static int tokenize(char **lines, size_t nlines, struct tok **out, size_t *nout)
{
	struct tok *tk = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < nlines; i++) {
		char *p = lines[i], *s;
		bool bol = true;

		while ((s = strtok_r(p, " \t", &p))) {
			if (n == cap) {
				struct tok *m = realloc(tk, (cap = cap ? 2 * cap : 1024) * sizeof(*tk));

				if (!m) {
					free(tk);
					return -ENOMEM;
				}
				tk = m;
			}
			tk[n++] = (struct tok){ s, (unsigned int)i + 1, (size_t)(s - lines[i]), bol };
			bol = false;
		}
	}
	*out = tk;
	*nout = n;
	return 0;
}

/*
 * The summary: a title starts each table, wherever it is (a copy may
 * have joined a table's lines into one); the text up to the next title
 * or the end is the table.
 */
static int summary_parse(struct pp_import *im, char **lines, size_t nlines)
{
	const struct stable *t = NULL, *u;
	size_t ntk, i, start = 0;
	struct tok *tk;
	int ret = tokenize(lines, nlines, &tk, &ntk);

	if (ret)
		return ret;
	for (i = 0; i <= ntk && !ret; i++) {
		char words[160];

		if (i < ntk) {
			size_t w, len = 0;

			/* the title's words, from this token (the longest has five) */
			words[0] = '\0';
			for (w = i; w < ntk && w < i + 5; w++)
				len += (size_t)snprintf(words + len, sizeof(words) - len, "%s%s",
							w > i ? " " : "", tk[w].s);
			if (len >= sizeof(words) || !summary_title(words, &u))
				continue;
		}
		if (t)
			ret = summary_table(im, t, tk + start, i - start);
		if (i < ntk) {
			t = u;
			start = i;
		}
	}
	free(tk);
	return ret;
}

/* --- files --- */

static int read_lines(const char *path, char **buf, char ***lines, size_t *n)
{
	size_t len, cap = 0, i;
	char *b, **l = NULL;
	ssize_t r;
	int ret = pp_read_text(path, 0, &b, &len);

	if (ret)
		return ret;
	r = (ssize_t)len;
	if (!r) {
		ret = -EIO;	/* empty */
		goto free_buf;
	}
	*n = 0;
	for (i = 0; i <= (size_t)r; i++) {
		if (i && b[i - 1] != '\0' && i < (size_t)r && b[i - 1] != '\n')
			continue;
		if (i == (size_t)r)
			break;
		if (*n == cap) {
			char **m = realloc(l, (cap = cap ? 2 * cap : 256) * sizeof(*l));

			if (!m) {
				ret = -ENOMEM;
				goto free_lines;
			}
			l = m;
		}
		l[(*n)++] = b + i;
	}
	for (i = 0; i < (size_t)r; i++)
		if (b[i] == '\n' || b[i] == '\r')
			b[i] = '\0';
	*buf = b;
	*lines = l;
	return 0;

free_lines:
	free(l);
free_buf:
	free(b);
	return ret;
}

void pp_import_finish_meta(struct pp_run *run, const char *file, const char *kind)
{
	struct pp_meta *m = &run->meta;

	pp_strlcpy(m->version, PP_VERSION, sizeof(m->version));
	if (!m->date[0])
		snprintf(m->date, sizeof(m->date), "1970-01-01T00:00:00Z");
	if (!m->label[0])
		pp_strlcpy(m->label, m->hostname[0] ? m->hostname : "lmbench", sizeof(m->label));
	snprintf(m->cmdline, sizeof(m->cmdline), "imported from %s (%s)", file, kind);
	pp_strlcpy(m->mode, "imported", sizeof(m->mode));
	m->samples = 1;
	m->pin_cpu = -1;
	if (!m->mhz.mhz)
		pp_strlcpy(m->mhz.note, "not in the lmbench file", sizeof(m->mhz.note));
}

int pp_import_init(struct pp_import *im)
{
	memset(im, 0, sizeof(*im));
	im->runs = calloc(PP_IMPORT_RUNS, sizeof(*im->runs));
	im->names = calloc(PP_IMPORT_RUNS, sizeof(*im->names));
	im->notes = calloc(PP_IMPORT_NOTES, sizeof(*im->notes));
	if (im->runs && im->names && im->notes)
		return 0;
	pp_import_free(im);
	return -ENOMEM;
}

void pp_import_free(struct pp_import *im)
{
	size_t i;

	for (i = 0; im->runs && i < im->nruns; i++)
		pp_run_free(&im->runs[i]);
	free(im->runs);
	free(im->names);
	free(im->notes);
	memset(im, 0, sizeof(*im));
}

int pp_import_file(struct pp_import *im, const char *path, bool *summary)
{
	char *buf = NULL, **lines = NULL;
	size_t n = 0, i;
	struct raw st = { .b = B_NONE };
	const struct stable *t;
	int ret;

	im->file = path;
	im->imported = im->unknown = im->twice = 0;
	im->nnotes = 0;
	ret = read_lines(path, &buf, &lines, &n);
	if (ret)
		return ret;
	*summary = false;
	for (i = 0; i < n && !lines[i][strspn(lines[i], " \t")]; i++)
		;
	if (i < n && !strncmp(lines[i], "[lmbench", 8)) {
		struct pp_run *run = run_named(im, path);

		for (; i < n && !ret; i++)
			ret = raw_line(im, run, &st, (unsigned int)i + 1, lines[i]);
	} else {
		/* a summary: a table title or the banner somewhere */
		bool any = false;

		for (i = 0; i < n && !any; i++) {
			const char *p;

			for (p = lines[i]; *p && !any; p++)
				any = summary_title(p, &t) ||
				      !strncmp(p, "L M B E N C H", 13);
		}
		*summary = any;
		ret = any ? summary_parse(im, lines, n) : -EPROTO;
	}
	free(lines);
	free(buf);
	return ret;
}
