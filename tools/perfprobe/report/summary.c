// SPDX-License-Identifier: GPL-2.0
/*
 * lmbench's summary tables.  Layout and number formatting follow
 * lmbench's scripts/getsummary, so rows can be read beside published
 * results.  The tables are lmbench_tables[] and the benchmarks' own; a
 * column is there because a key declaration names it (keys.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "guide.h"
#include "print.h"
#include "summary.h"
#include "util.h"

#define OS_WIDTH	13	/* lmbench's OS column */

/*
 * lmbench's tables, as getsummary prints them; their columns are the
 * keys whose declarations name the table (keys.h).
 */
static const struct pp_key_table lmbench_tables[] = {
	{ "proc", "Processor, Processes - times in microseconds - smaller is better", 1 },
	{ "ctx", "Context switching - times in microseconds - smaller is better", 0 },
	{ "ipc", "*Local* Communication latencies in microseconds - smaller is better", 0 },
	{ "fsvm", "File & VM system latencies in microseconds - smaller is better", 0 },
	{ "bw", "*Local* Communication bandwidths in MB/s - bigger is better", 0 },
	{ "mem", "Memory latencies in nanoseconds - smaller is better", 1 },
};

const struct pp_key_table *pp_table(unsigned int i)
{
	const struct pp_key_table *t;
	unsigned int b;

	if (i < ARRAY_SIZE(lmbench_tables))
		return &lmbench_tables[i];
	i -= ARRAY_SIZE(lmbench_tables);
	for (b = 0; b < pp_nbenches; b++)
		for (t = pp_benches[b]->tables; t && t->id; t++)
			if (!i--)
				return t;
	return NULL;
}

/* Column n of t from the declarations: false when none names it. */
static bool table_col(const struct pp_key_table *t, unsigned int n, struct pp_col *c)
{
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
	unsigned int b;

	memset(c, 0, sizeof(*c));
	if (n == t->mhz_col) {
		*c = (struct pp_col){ .h1 = " Mhz", .h2 = "    ", .width = 4, .mhz = true };
		return true;
	}
	for (b = 0; b < pp_nbenches; b++)
		for (d = pp_benches[b]->keys; d && d->pattern; d++)
			for (s = d->show; s && !pp_show_end(s); s++) {
				if (!s->table || strcmp(s->table, t->id) || s->col != n)
					continue;
				if (s->width) {
					c->h1 = s->h1;
					c->h2 = s->h2;
					c->width = s->width;
					c->prec = s->prec;
				}
				if (c->nkeys < PP_COL_KEYS)
					c->keys[c->nkeys++] = pp_show_key(d, s);
			}
	return c->nkeys;
}

unsigned int pp_table_cols(const struct pp_key_table *t, struct pp_col *cols,
			   unsigned int max)
{
	unsigned int n;

	for (n = 0; n < max && table_col(t, n + 1, &cols[n]); n++)
		;
	return n;
}

bool pp_matrix_get(unsigned int i, struct pp_matrix *out)
{
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
	unsigned int b;

	for (b = 0; b < pp_nbenches; b++)
		for (d = pp_benches[b]->keys; d && d->pattern; d++)
			for (s = d->show; s && !pp_show_end(s); s++) {
				if (!s->matrix || i--)
					continue;
				out->m = s->matrix;
				pp_strlcpy(out->prefix, d->pattern, sizeof(out->prefix));
				out->prefix[strcspn(out->prefix, "*")] = '\0';
				/* "crypto-evp-*-%u": "crypto-evp" */
				if (out->prefix[0])
					out->prefix[strlen(out->prefix) - 1] = '\0';
				return true;
			}
	return false;
}

bool pp_fmt_cell(char *out, size_t size, double v, int width, int prec)
{
	static const char *const suffix[] = { "", "K", "M", "G" };
	char buf[64];
	unsigned int s = 0;
	int ilen;

	if (size < (size_t)width + 1)
		return false;
	if (!isfinite(v) || v <= 0) {
		snprintf(out, size, "%*s", width, "");
		return false;
	}
	for (;;) {
		double x = v;
		int w = width - (s ? 1 : 0);
		unsigned int i;

		for (i = 0; i < s; i++)
			x /= 1000.0;
		snprintf(buf, sizeof(buf), "%.*f", s ? 0 : prec, x);
		ilen = (int)strcspn(buf, ".");
		if (ilen <= w || s + 1 >= ARRAY_SIZE(suffix)) {
			buf[w] = '\0';	/* lmbench's %4.4s: cut, not round */
			snprintf(out, size, "%*s%s", w, buf, suffix[s]);
			return true;
		}
		s++;
	}
}

/* "16mb" -> 16 << 20, "31k" -> 31 << 10, "sz512" -> 512; -1 if none. */
static double size_of_suffix(const char *s)
{
	double v;
	char *end;

	while (*s && !(*s >= '0' && *s <= '9'))
		s++;
	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end == 'k')
		v *= 1024;
	else if (*end == 'm')
		v *= 1024 * 1024;
	else if (*end == 'g')
		v *= 1024.0 * 1024 * 1024;
	return v;
}

/* The result for key, or for "prefix*" the one with the largest size. */
const struct pp_result *pp_find_key(const struct pp_run *run, const char *key)
{
	const struct pp_result *best = NULL;
	size_t len = strlen(key), i;
	double best_size = -2;

	if (!len || key[len - 1] != '*')
		return pp_run_find(run, key);
	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];
		double sz;

		if (strncmp(r->key, key, len - 1))
			continue;
		sz = size_of_suffix(r->key + len - 1);
		if (sz > best_size) {
			best_size = sz;
			best = r;
		}
	}
	return best;
}

double pp_col_value(const struct pp_run *run, const struct pp_col *c)
{
	double sum = 0;
	unsigned int i, n = 0;

	if (c->mhz)
		return run->meta.mhz.trusted ? run->meta.mhz.mhz : NAN;
	/*
	 * The mean of the column's keys the run has: lmbench's null I/O,
	 * "If they have no /dev/zero, use /dev/null, else average".
	 */
	for (i = 0; i < c->nkeys; i++) {
		const struct pp_result *r = pp_find_key(run, c->keys[i]);

		if (r) {
			sum += r->value;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

bool pp_table_has_data(const struct pp_key_table *t, const struct pp_run *runs,
			   size_t nruns)
{
	struct pp_col cols[PP_TABLE_COLS];
	unsigned int n = pp_table_cols(t, cols, ARRAY_SIZE(cols)), c;
	size_t i;

	for (i = 0; i < nruns; i++)
		for (c = 0; c < n; c++)
			if (!cols[c].mhz && isfinite(pp_col_value(&runs[i], &cols[c])))
				return true;
	return false;
}

static void rule(FILE *f, int len)
{
	while (len-- > 0)
		fputc('-', f);
	fputc('\n', f);
}

/* A run's label, else its release (lmbench's "Linux 2.4.19" if it fits). */
static void full_name(const struct pp_meta *m, char *buf, size_t size)
{
	if (m->label[0] && strcmp(m->label, m->release))
		snprintf(buf, size, "%s", m->label);
	else if (strlen(m->sysname) + 1 + strlen(m->release) <= OS_WIDTH)
		snprintf(buf, size, "%s %s", m->sysname, m->release);
	else
		snprintf(buf, size, "%s", m->release);
}

/*
 * The OS column: the name, or when it is too long and another row's
 * begins the same (6.8.0-rc3-00123-g1a2b vs 6.8.0-rc3-00124-g3c4d), its
 * end, after a '~', so that the rows still differ.
 */
void pp_row_name(const struct pp_run *runs, size_t nruns, size_t i,
		 char *buf, size_t size)
{
	char other[160];
	size_t j, n;

	full_name(&runs[i].meta, buf, size);
	n = strlen(buf);
	if (n <= OS_WIDTH)
		return;
	for (j = 0; j < nruns; j++) {
		if (j == i)
			continue;
		full_name(&runs[j].meta, other, sizeof(other));
		if (!strncmp(buf, other, OS_WIDTH) && strcmp(buf, other)) {
			memmove(buf + 1, buf + n - (OS_WIDTH - 1), OS_WIDTH);
			buf[0] = '~';
			return;
		}
	}
}

static void print_table(FILE *f, const struct pp_key_table *t,
			const struct pp_run *runs, size_t nruns)
{
	struct pp_col cols[PP_TABLE_COLS];
	unsigned int n = pp_table_cols(t, cols, ARRAY_SIZE(cols)), c;
	int len = 23;
	size_t i;

	for (c = 0; c < n; c++)
		len += 1 + cols[c].width;
	fprintf(f, "\n%s\n", t->title);
	rule(f, len);
	fprintf(f, "%-9s %13s", "Host", "OS");
	for (c = 0; c < n; c++)
		fprintf(f, " %-*.*s", cols[c].width, cols[c].width, cols[c].h1);
	fprintf(f, "\n%-9s %13s", "", "");
	for (c = 0; c < n; c++)
		fprintf(f, " %-*.*s", cols[c].width, cols[c].width, cols[c].h2);
	fprintf(f, "\n--------- -------------");
	for (c = 0; c < n; c++) {
		fputc(' ', f);
		for (int k = 0; k < cols[c].width; k++)
			fputc('-', f);
	}
	fputc('\n', f);

	for (i = 0; i < nruns; i++) {
		const struct pp_meta *m = &runs[i].meta;
		char os[160], cell[32];

		/*
		 * lmbench's "Linux 2.4.19"; a release too long for the
		 * column goes without the system name, so that rows of
		 * 6.1.0-57-amd64 and 6.1.0-58-amd64 still differ.
		 */
		pp_row_name(runs, nruns, i, os, sizeof(os));
		fprintf(f, "%-9.9s %*.*s", m->hostname, OS_WIDTH, OS_WIDTH, os);
		for (c = 0; c < n; c++) {
			double v = pp_col_value(&runs[i], &cols[c]);

			if (cols[c].mhz && !m->mhz.trusted)
				snprintf(cell, sizeof(cell), "%*s", cols[c].width, "?");
			else
				pp_fmt_cell(cell, sizeof(cell), v, cols[c].width, cols[c].prec);
			fprintf(f, " %s", cell);
		}
		fputc('\n', f);
	}
}

static const struct pp_result *matrix_find(const struct pp_run *run,
					    const struct pp_matrix *m, const char *row,
					    const char *col)
{
	char key[2 * PP_KEY_MAX];

	snprintf(key, sizeof(key), "%s-%s-%s", m->prefix, row, col);
	return pp_run_find(run, key);
}

static bool matrix_row_has_data(const struct pp_run *run, const struct pp_matrix *m,
				const char *row)
{
	const char *const *c;

	for (c = m->m->cols; *c; c++)
		if (matrix_find(run, m, row, *c))
			return true;
	return m->m->extra && matrix_find(run, m, row, m->m->extra);
}

bool pp_matrix_has_data(const struct pp_run *run, const struct pp_matrix *m)
{
	const char *const *r;

	for (r = m->m->rows; *r; r++)
		if (matrix_row_has_data(run, m, *r))
			return true;
	return false;
}

static void matrix_cell(FILE *f, const struct pp_result *r, int width, int prec)
{
	if (r)
		fprintf(f, " %*.*f", width, prec, r->value);
	else
		fprintf(f, " %*s", width, "");
}

/* A column's head, and its width: 12, or the head's when longer. */
static int matrix_col_head(char *buf, size_t size, const struct pp_key_matrix *x,
			   const char *col)
{
	int len = snprintf(buf, size, x->col_head, col);

	return len > 12 ? len : 12;
}

static void print_matrix_row(FILE *f, const struct pp_run *run, const struct pp_matrix *m,
			     const char *row)
{
	const struct pp_key_matrix *x = m->m;
	char key[2 * PP_KEY_MAX], head[32];
	const char *const *c, *info = NULL;

	fprintf(f, "%-13s", row);
	for (c = x->cols; *c; c++)
		matrix_cell(f, matrix_find(run, m, row, *c),
			    matrix_col_head(head, sizeof(head), x, *c), x->prec);
	if (x->extra)
		matrix_cell(f, matrix_find(run, m, row, x->extra), (int)strlen(x->extra_head), 1);
	if (x->info) {
		snprintf(key, sizeof(key), "%s-%s-%s", m->prefix, row, x->info);
		info = pp_run_find_info(run, key);
	}
	fprintf(f, "%s%s\n", info ? "  " : "", info ? info : "");
}

static void print_matrix(FILE *f, const struct pp_run *run, const struct pp_matrix *m)
{
	const struct pp_key_matrix *x = m->m;
	const char *const *c, *const *r;
	char head[32];

	fprintf(f, "\n%s\n", x->title);
	fprintf(f, "%s: %s %s\n", run->meta.hostname, run->meta.sysname, run->meta.release);
	fprintf(f, "%-13s", "type");
	for (c = x->cols; *c; c++) {
		int w = matrix_col_head(head, sizeof(head), x, *c);

		fprintf(f, " %*s", w, head);
	}
	if (x->extra)
		fprintf(f, " %s", x->extra_head);
	fprintf(f, "%s%s\n", x->info ? "  " : "", x->info ? x->info_head : "");
	for (r = x->rows; *r; r++)
		if (matrix_row_has_data(run, m, *r))
			print_matrix_row(f, run, m, *r);
}

int pp_print_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	const struct pp_key_table *t;
	struct pp_matrix m;
	unsigned int k;
	int printed = 0;
	size_t i;

	for (k = 0; (t = pp_table(k)); k++) {
		if (!pp_table_has_data(t, runs, nruns))
			continue;
		print_table(f, t, runs, nruns);
		printed++;
	}
	/* Rows are items, not runs: one matrix per run. */
	for (k = 0; pp_matrix_get(k, &m); k++)
		for (i = 0; i < nruns; i++) {
			if (!pp_matrix_has_data(&runs[i], &m))
				continue;
			print_matrix(f, &runs[i], &m);
			printed++;
		}
	/* Beyond lmbench: the vendor guide's tables (guide.c). */
	return printed + pp_print_guide_tables(f, runs, nruns);
}

/*
 * Rows of runs pinned differently (or not at all) may differ by where they
 * ran rather than by the kernel: on a small VM one CPU's null call can be
 * 20% slower than the other's.  Say so under the table.
 */
static void placement_note(FILE *f, const struct pp_run *runs, size_t nruns)
{
	size_t i;

	if (nruns < 2)
		return;
	for (i = 0; i < nruns; i++)
		if (runs[i].meta.pin_cpu != runs[0].meta.pin_cpu)
			break;
	if (i == nruns) {
		if (runs[0].meta.pin_cpu < 0)
			fprintf(f, "no run was pinned: where the scheduler put them may differ; use --cpu N\n");
		return;
	}
	fprintf(f, "placement differs: ");
	for (i = 0; i < nruns; i++) {
		if (runs[i].meta.pin_cpu < 0)
			fprintf(f, "%s%s not pinned", i ? ", " : "", runs[i].meta.label);
		else
			fprintf(f, "%s%s on CPU %d", i ? ", " : "", runs[i].meta.label,
				runs[i].meta.pin_cpu);
	}
	fprintf(f, "; compare runs made with the same --cpu N\n");
}

void pp_print_notes(FILE *f, const struct pp_run *runs, size_t nruns)
{
	size_t i, j;

	placement_note(f, runs, nruns);
	for (i = 0; i < nruns; i++) {
		const struct pp_run *r = &runs[i];
		const char *who = nruns > 1 ? r->meta.label : NULL;
		bool first = true;

		if (r->interrupted)
			fprintf(f, "%s%sinterrupted: stopped by a signal, its results are partial\n",
				who ? who : "", who ? ": " : "");
		if (!r->meta.mhz.trusted)
			fprintf(f, "%s%sMhz not shown: %s\n", who ? who : "",
				who ? ": " : "", r->meta.mhz.note);
		for (j = 0; j < r->nresults; j++) {
			const struct pp_result *p = &r->results[j];
			size_t plen = strcspn(p->key, "-"), k, n = 0, nn = 0;
			double worst = 0;

			if (!p->noisy)
				continue;
			/* Skip keys of a benchmark already summarised. */
			for (k = 0; k < j; k++)
				if (r->results[k].noisy &&
				    !strncmp(r->results[k].key, p->key, plen + 1))
					break;
			if (k < j)
				continue;
			for (k = 0; k < r->nresults; k++) {
				if (strncmp(r->results[k].key, p->key, plen + 1))
					continue;
				n++;
				if (r->results[k].noisy) {
					nn++;
					if (r->results[k].st.cv_pct > worst)
						worst = r->results[k].st.cv_pct;
				}
			}
			if (first)
				fprintf(f, "%s%snoisy (cv > %.0f%%):", who ? who : "",
					who ? ": " : "", r->meta.noise_pct);
			first = false;
			/* A curve of many points: one line, not a hundred keys. */
			if (nn > 4)
				fprintf(f, " %.*s: %zu of %zu (worst %.1f%%)", (int)plen, p->key,
					nn, n, worst);
			else
				for (k = j; k < r->nresults; k++)
					if (r->results[k].noisy &&
					    !strncmp(r->results[k].key, p->key, plen + 1))
						fprintf(f, " %s (%.1f%%)", r->results[k].key,
							r->results[k].st.cv_pct);
		}
		if (!first)
			fputc('\n', f);
		for (j = 0; j < r->nskips; j++)
			fprintf(f, "%s%sskipped %s: %s\n", who ? who : "", who ? ": " : "",
				r->skips[j].name, r->skips[j].reason);
	}
}

void pp_print_flat(FILE *f, const struct pp_run *run, bool stats)
{
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		const struct pp_result *r = &run->results[i];
		char name[PP_KEY_MAX + PP_UNIT_MAX + 4];
		char v[PP_NUM_LEN], lo[PP_NUM_LEN], hi[PP_NUM_LEN];

		snprintf(name, sizeof(name), "%s (%s)", r->key, r->unit);
		pp_fmt_num(v, sizeof(v), r->value);
		fprintf(f, "%-40s %s", name, v);
		pp_fmt_num(lo, sizeof(lo), r->st.min);
		pp_fmt_num(hi, sizeof(hi), r->st.max);
		if (stats)
			fprintf(f, "  (min %s, max %s, cv %.1f%%, n %zu%s)", lo, hi,
				r->st.cv_pct, r->nsamples, r->noisy ? ", noisy" : "");
		if (r->kind != PP_KIND_MEASURED)
			fprintf(f, "  [%s, not gating]", pp_kind_name(r->kind));
		fputc('\n', f);
	}
}
