// SPDX-License-Identifier: GPL-2.0
/*
 * The report page (report.h): one self-contained HTML page (inline CSS
 * and SVG, nothing fetched, no script) of the runs given: their machines
 * and kernels, the comparability warnings, the LMBench summary tables
 * with the runs as rows, the memory-latency curve, bars of bandwidths and
 * latencies with their spread, and with two or more runs each against
 * the first: the compare verdicts, a chart of the changes, the
 * kernel-view deltas and, for a changed key with sampled profiles, a
 * differential flame graph of where its kernel time went and each run's
 * profile; the copy sweep and timer lateness where given.  In
 * SVG mode the charts are files instead.  The command is reportcmd.c;
 * Documentation/report.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/compare.h"
#include "report/comparison.h"
#include "report/guide.h"
#include "report/profdiff.h"
#include "report/summary.h"
#include "report/svg.h"
#include "bench.h"
#include "keys.h"
#include "print.h"
#include "util.h"

#define MAX_CHANGE_ROWS		40	/* the chart; the table has every key */

struct report {
	const struct pp_run *runs;
	size_t n;
	const struct pp_timer_doc *timers;
	size_t ntimers;
	FILE *f;		/* the page (HTML) */
	const char *svgdir;	/* --format svg: the charts go here instead */
	struct pp_comparison *cmp;	/* each side against the first */
	size_t ncmp;
	unsigned int charts;
	int err;
};

static const char *run_name(const struct pp_run *r)
{
	return r->meta.label[0] ? r->meta.label : r->meta.release;
}

/* --- charts: inline, or a file each --- */

/* A chart written by fn into the page, or as <svgdir>/<id>.svg. */
static void chart(struct report *rp, const char *id, const char *caption,
		  int (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL, path[4096];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m) {
		rp->err = -ENOMEM;
		return;
	}
	ret = fn(m, arg);
	if (fclose(m))
		ret = -ENOMEM;
	if (ret) {		/* nothing to draw: no chart */
		if (ret != -EINVAL)
			rp->err = ret;
		goto free_buf;
	}
	rp->charts++;
	if (rp->svgdir) {
		snprintf(path, sizeof(path), "%s/%s.svg", rp->svgdir, id);
		ret = pp_write_file_atomic(path, buf, len);
		if (ret && !rp->err)
			rp->err = ret;
	} else {
		fputs("<figure>\n", rp->f);
		fwrite(buf, 1, len, rp->f);
		fputs("<figcaption>", rp->f);
		pp_html_esc(rp->f, caption);
		fputs("</figcaption>\n</figure>\n", rp->f);
	}
free_buf:
	free(buf);
}

/* --- the page --- */

static const char css[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:0 auto;max-width:1240px;"
	"padding:0 12px;color:#222;line-height:1.4}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.85em}\n"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}\n"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}\n"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	"figure{margin:1em 0}svg.chart{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.85em;color:#555}\n"
	".warn{background:#fff4e0;border-left:4px solid #E69F00;padding:4px 10px}\n"
	".regression{color:#b33c00;font-weight:bold}.improvement{color:#00734f}\n"
	".noisy{color:#a36b00}\n"
	"#runs td,table.kv td{white-space:normal}td.why{white-space:normal;min-width:12em}.counts{font-size:1.05em}\n"
	"details.warnings li{overflow-wrap:anywhere}\n"
	"@media print{body{max-width:none}figure,table{page-break-inside:avoid}"
	".scroll{overflow:visible}}\n";

static void head(struct report *rp)
{
	FILE *f = rp->f;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>perfprobe report: ", f);
	for (i = 0; i < rp->n; i++) {
		pp_html_esc(f, run_name(&rp->runs[i]));
		if (i + 1 < rp->n)
			fputs(" vs ", f);
	}
	if (!rp->n)
		fputs("timer", f);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>perfprobe report</h1>\n",
		css);
}

/*
 * At the top, before any figure: which runs an emulator ran, and what
 * their times are (Documentation/results.rst, "Emulation").
 */
static void emulation(struct report *rp)
{
	FILE *f = rp->f;
	size_t i, nwall = 0, nvirt = 0;
	int pass;

	for (i = 0; i < rp->n; i++) {
		const struct pp_emul *e = &rp->runs[i].meta.emul;

		nwall += pp_emul_wall(e);
		nvirt += e->recorded && e->virtual_clock;
	}
	if (!nwall && !nvirt)
		return;
	fputs("<div class=\"warn\" id=\"emulation\">\n", f);
	for (pass = 0; pass < 2; pass++) {
		bool first = true;

		if (!(pass ? nvirt : nwall))
			continue;
		fputs(pass ? "<p><b>Virtual clock</b>: " : "<p><b>Emulated</b>: ", f);
		for (i = 0; i < rp->n; i++) {
			const struct pp_emul *e = &rp->runs[i].meta.emul;

			if (pass ? !(e->recorded && e->virtual_clock) : !pp_emul_wall(e))
				continue;
			fputs(first ? "" : ", ", f);
			pp_html_esc(f, run_name(&rp->runs[i]));
			first = false;
		}
		fputs(pass ? " ran on QEMU's <code>-icount</code>: every time in them counts "
		      "instructions executed (one nanosecond each at <code>shift=0</code>), the "
		      "work done, not time; cache misses, memory latency, device latency and "
		      "contention are not in them, and their changes are instruction-count "
		      "changes.</p>\n" :
		      " ran under an emulator (QEMU's TCG) on the wall clock: their times are how "
		      "fast the host emulated the guest, not the kernel's, and their verdicts "
		      "gate nothing.</p>\n", f);
	}
	fputs("</div>\n", f);
}

static void td(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	pp_html_esc(f, s);
	fputs("</td>", f);
}

static void th(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<th%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	pp_html_esc(f, s);
	fputs("</th>", f);
}

/* Open section id (once) before its first table or chart. */
static void section(struct report *rp, bool *open, const char *id, const char *title)
{
	if (*open)
		return;
	fprintf(rp->f, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
	*open = true;
}

/* A run's clock: an emulated CPU's add chain is the host's speed, not a clock. */
static void mhz_cell(char *buf, size_t size, const struct pp_meta *m)
{
	if (m->emul.recorded && m->emul.emulated == 1)
		snprintf(buf, size, m->emul.virtual_clock ? "virtual" : "emulated");
	else if (m->mhz.mhz > 0)
		snprintf(buf, size, "%.0f%s", m->mhz.mhz, m->mhz.trusted ? "" : "?");
	else
		snprintf(buf, size, "-");
}

/* A run's row of the Runs table. */
static void facts_row(FILE *f, const struct pp_run *r)
{
	const struct pp_meta *m = &r->meta;
	char buf[256];

	fputs("<tr>", f);
	td(f, "l", run_name(r));
	snprintf(buf, sizeof(buf), "%s %s (%s)", m->sysname, m->release, m->machine);
	td(f, "l", buf);
	td(f, "l", m->hostname);
	td(f, "l", m->cpu_model);
	snprintf(buf, sizeof(buf), "%d", m->online_cpus);
	td(f, NULL, buf);
	snprintf(buf, sizeof(buf), "%.1f GiB", (double)m->mem_bytes / (1 << 30));
	td(f, NULL, buf);
	mhz_cell(buf, sizeof(buf), m);
	td(f, NULL, buf);
	td(f, "l", m->date);
	if (m->pin_cpu >= 0)
		snprintf(buf, sizeof(buf), "%s, %u, CPU %d", m->mode, m->samples, m->pin_cpu);
	else
		snprintf(buf, sizeof(buf), "%s, %u, not pinned", m->mode, m->samples);
	td(f, "l", buf);
	snprintf(buf, sizeof(buf), "%zu (%zu skipped, %zu failed)", r->nresults, r->nskips,
		 r->nfails);
	td(f, NULL, buf);
	fputs("</tr>\n", f);
}

/* What a run skipped and what failed, each with its reason, folded. */
static void not_measured(FILE *f, const struct pp_run *r)
{
	size_t k;

	if (!r->nskips && !r->nfails)
		return;
	fputs("<details><summary>", f);
	pp_html_esc(f, run_name(r));
	fprintf(f, ": %zu not measured</summary>\n<ul>\n", r->nskips + r->nfails);
	for (k = 0; k < r->nskips + r->nfails; k++) {
		const struct pp_note *s = k < r->nskips ? &r->skips[k] : &r->fails[k - r->nskips];

		fputs("<li>", f);
		pp_html_esc(f, s->name);
		fputs(k < r->nskips ? " (skipped): " : " (failed): ", f);
		pp_html_esc(f, s->reason);
		fputs("</li>\n", f);
	}
	fputs("</ul></details>\n", f);
}

/* The facts r differs in from base that can change the figures, in a box. */
static void differs_box(FILE *f, const struct pp_run *base, const struct pp_run *r)
{
	struct pp_cmp_warn *w;
	size_t nw, j;

	if (pp_cmp_warnings(base, 1, r, 1, PP_CMP_MHZ_TOL_PCT, &w, &nw))
		return;
	/* emulation on the wall clock is said at the top */
	if (nw && w[nw - 1].kind == PP_CMP_WARN_EMULATED)
		nw--;
	if (nw) {
		fputs("<div class=\"warn\"><p>", f);
		pp_html_esc(f, run_name(r));
		fputs(" and ", f);
		pp_html_esc(f, run_name(base));
		fprintf(f, " differ in %zu fact%s that can change the figures:</p><ul>\n", nw,
			nw == 1 ? "" : "s");
		for (j = 0; j < nw; j++) {
			fputs("<li>", f);
			pp_html_esc(f, w[j].fact);
			fputs(": ", f);
			pp_html_esc(f, w[j].base[0] ? w[j].base : "(none)");
			fputs(" vs ", f);
			pp_html_esc(f, w[j].new[0] ? w[j].new : "(none)");
			fputs("</li>\n", f);
		}
		fputs("</ul></div>\n", f);
	}
	free(w);
}

/*
 * The runs' machines and how they ran, what they did not measure, and
 * how each differs from the first.
 */
static void facts(struct report *rp)
{
	FILE *f = rp->f;
	size_t i;

	fputs("<section id=\"runs\">\n<h2>Runs</h2>\n<div class=\"scroll\"><table>\n"
	      "<thead><tr>", f);
	th(f, "l", "run");
	th(f, "l", "kernel");
	th(f, "l", "host");
	th(f, "l", "CPU");
	th(f, NULL, "CPUs");
	th(f, NULL, "memory");
	th(f, NULL, "MHz");
	th(f, "l", "date (UTC)");
	th(f, "l", "mode, samples, pinning");
	th(f, NULL, "results");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < rp->n; i++)
		facts_row(f, &rp->runs[i]);
	fputs("</tbody></table></div>\n", f);
	for (i = 0; i < rp->n; i++)
		not_measured(f, &rp->runs[i]);
	for (i = 1; i < rp->n; i++)
		differs_box(f, &rp->runs[0], &rp->runs[i]);
	fputs("</section>\n", f);
}

/* --- the summary tables --- */

/* A matrix row's extra figure (the CPU load) and info (the driver), if it has them. */
static void matrix_extra(FILE *f, const struct pp_run *run, const struct pp_matrix *mx,
			 const char *row)
{
	const struct pp_key_matrix *m = mx->m;
	char name[2 * PP_KEY_MAX], cell[64];
	const struct pp_result *res;
	const char *info;

	if (m->extra) {
		snprintf(name, sizeof(name), "%s-%s-%s", mx->prefix, row, m->extra);
		res = pp_run_find(run, name);
		if (res)
			snprintf(cell, sizeof(cell), "%.1f", res->value);
		else
			cell[0] = '\0';
		td(f, NULL, cell);
	}
	if (m->info) {
		snprintf(name, sizeof(name), "%s-%s-%s", mx->prefix, row, m->info);
		info = pp_run_find_info(run, name);
		td(f, "l", info ? info : "");
	}
}

/* Summary table t of the runs, a row each, as the text summary has it. */
static void key_table(struct report *rp, unsigned int t, const struct pp_key_table *tb)
{
	FILE *f = rp->f;
	char cell[64], name[160], h[64];
	struct pp_col cols[PP_TABLE_COLS];
	unsigned int n, c;
	size_t i;

	n = pp_table_cols(tb, cols, ARRAY_SIZE(cols));
	fprintf(f, "<div class=\"scroll\"><table id=\"table-%u\">\n<caption>", t);
	pp_html_esc(f, tb->title);
	fputs("</caption>\n<thead><tr>", f);
	th(f, "l", "Host");
	th(f, "l", "OS");
	for (c = 0; c < n; c++) {
		snprintf(h, sizeof(h), "%s %s", cols[c].h1, cols[c].h2);
		th(f, NULL, h);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < rp->n; i++) {
		fputs("<tr>", f);
		td(f, "l", rp->runs[i].meta.hostname);
		pp_row_name(rp->runs, rp->n, i, name, sizeof(name));
		td(f, "l", name);
		for (c = 0; c < n; c++) {
			double v = pp_col_value(&rp->runs[i], &cols[c]);

			pp_fmt_cell(cell, sizeof(cell), v, cols[c].width + 2, cols[c].prec);
			td(f, NULL, cell);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* A row of a matrix (a key per row and column), when the run has any of its keys. */
static void matrix_row(FILE *f, const struct pp_run *run, const struct pp_matrix *mx,
		       const char *row)
{
	const struct pp_key_matrix *m = mx->m;
	const char *const *col;
	char cell[64], name[160];
	bool have = false;

	for (col = m->cols; *col; col++) {
		snprintf(name, sizeof(name), "%s-%s-%s", mx->prefix, row, *col);
		have |= pp_run_find(run, name) != NULL;
	}
	if (!have)
		return;
	fputs("<tr>", f);
	td(f, "l", row);
	for (col = m->cols; *col; col++) {
		const struct pp_result *res;

		snprintf(name, sizeof(name), "%s-%s-%s", mx->prefix, row, *col);
		res = pp_run_find(run, name);
		if (res)
			snprintf(cell, sizeof(cell), "%.*f", m->prec, res->value);
		else
			cell[0] = '\0';
		td(f, NULL, cell);
	}
	matrix_extra(f, run, mx, row);
	fputs("</tr>\n", f);
}

/* A matrix of one run, its rows that have a figure. */
static void matrix_table(FILE *f, const struct pp_run *run, const struct pp_matrix *mx)
{
	const struct pp_key_matrix *m = mx->m;
	const char *const *row, *const *col;
	char h[64];

	fputs("<div class=\"scroll\"><table>\n<caption>", f);
	pp_html_esc(f, m->title);
	fputs(": ", f);
	pp_html_esc(f, run_name(run));
	fputs("</caption>\n<thead><tr>", f);
	th(f, "l", "");
	for (col = m->cols; *col; col++) {
		snprintf(h, sizeof(h), m->col_head, *col);
		th(f, NULL, h);
	}
	if (m->extra)
		th(f, NULL, m->extra_head);
	if (m->info)
		th(f, "l", m->info_head);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (row = m->rows; *row; row++)
		matrix_row(f, run, mx, *row);
	fputs("</tbody></table></div>\n", f);
}

/* The summary tables with data, the runs as rows; the matrices, one a run. */
static void summary_tables(struct report *rp)
{
	const struct pp_key_table *tb;
	struct pp_matrix mx;
	bool open = false;
	unsigned int t;
	size_t i;

	for (t = 0; (tb = pp_table(t)); t++) {
		if (!pp_table_has_data(tb, rp->runs, rp->n))
			continue;
		section(rp, &open, "summary", "Summary tables");
		key_table(rp, t, tb);
	}
	for (t = 0; pp_matrix_get(t, &mx); t++)
		for (i = 0; i < rp->n; i++) {
			if (!pp_matrix_has_data(&rp->runs[i], &mx))
				continue;
			section(rp, &open, "summary", "Summary tables");
			matrix_table(rp->f, &rp->runs[i], &mx);
		}
	if (open)
		fputs("</section>\n", rp->f);
}

/* The vendor-guide tables (guide.c), the CPU loads beside the throughputs. */
static void guide_tables(struct report *rp)
{
	if (!pp_guide_tables_with_data(rp->runs, rp->n))
		return;
	fputs("<section id=\"guide\">\n<h2>Vendor-guide tables</h2>\n", rp->f);
	pp_html_guide_tables(rp->f, rp->runs, rp->n);
	fputs("</section>\n", rp->f);
}

/* --- the memory-latency curve --- */

#define MAX_CURVES	16
#define MAX_POINTS	128

struct curve {
	char name[96];
	bool dashed;
	double x[MAX_POINTS], y[MAX_POINTS];
	size_t n;
};

struct memlat {
	char title[200], id[32];
	struct curve c[MAX_CURVES];
	size_t nc;
	struct pp_svg_mark mark[16];
	char label[16][48];
	size_t nm;
};

static int cmp_point(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static void curve_sort(struct curve *c)
{
	double p[MAX_POINTS][2];
	size_t i;

	for (i = 0; i < c->n; i++) {
		p[i][0] = c->x[i];
		p[i][1] = c->y[i];
	}
	qsort(p, c->n, sizeof(p[0]), cmp_point);
	for (i = 0; i < c->n; i++) {
		c->x[i] = p[i][0];
		c->y[i] = p[i][1];
	}
}

static int memlat_draw(FILE *f, const void *arg)
{
	const struct memlat *ml = arg;
	struct pp_svg_series s[MAX_CURVES];
	struct pp_svg_axes a = {
		.id = ml->id, .title = ml->title, .xlabel = "array size (bytes, log scale)",
		.ylabel = "load latency, ns (log scale)", .xbytes = true, .ylog = true,
	};
	size_t i;

	for (i = 0; i < ml->nc; i++)
		s[i] = (struct pp_svg_series){ ml->c[i].name, ml->c[i].x, ml->c[i].y, ml->c[i].n,
					       ml->c[i].dashed };
	return pp_svg_lines(f, &a, s, ml->nc, ml->mark, ml->nm);
}

/* 49152 -> "48K", 16777216 -> "16M" */
static void size_name(char *buf, size_t size, double b)
{
	if (b >= 1 << 20 && fmod(b, 1 << 20) == 0)
		snprintf(buf, size, "%.0fM", b / (1 << 20));
	else if (b >= 1 << 10)
		snprintf(buf, size, "%.0fK", b / (1 << 10));
	else
		snprintf(buf, size, "%.0f", b);
}

/*
 * A curve's point: the pattern ends with a conversion, the point's size;
 * what is before the literal text ahead of it ("-sz" in
 * lat_mem_rd-stride%u-sz%s) names the line, less the benchmark's name.
 */
static void curve_point(struct memlat *ml, const struct pp_key_decl *d,
			const struct pp_key_show *s, const struct pp_result *r)
{
	const char *pat = pp_show_key(d, s), *conv = strrchr(pat, '%'), *start, *at, *p;
	char name[96], text[PP_KEY_MAX], lit[PP_KEY_MAX];
	size_t c;
	double x;

	if (!conv || conv[2])
		return;
	/* the literal text between the conversion before it (or the start) and it */
	for (start = conv; start > pat && start[-1] != '*' &&
	     !(start - pat >= 2 && start[-2] == '%'); start--)
		;
	snprintf(lit, sizeof(lit), "%.*s", (int)(conv - start), start);
	for (at = NULL, p = strstr(r->key, lit); lit[0] && p; p = strstr(p + 1, lit))
		at = p;
	if (!at)
		return;
	x = pp_key_size(at + strlen(lit), d->size);
	if (x <= 0)
		return;
	snprintf(text, sizeof(text), "%.*s", (int)(at - r->key), r->key);
	snprintf(name, sizeof(name), "%s", text + strcspn(text, "-") + (strchr(text, '-') != NULL));
	for (c = 0; c < ml->nc && strcmp(ml->c[c].name, name); c++)
		;
	if (c == ml->nc) {
		if (ml->nc == MAX_CURVES)
			return;
		snprintf(ml->c[ml->nc].name, sizeof(ml->c[0].name), "%s", name);
		ml->c[ml->nc++].dashed = s->dashed;
	}
	if (ml->c[c].n < MAX_POINTS) {
		ml->c[c].x[ml->c[c].n] = x;
		ml->c[c].y[ml->c[c].n++] = r->value;
	}
}

/* A mark at the size a key gives, named by the word of its first conversion ("L1"). */
static void curve_mark(struct memlat *ml, const struct pp_key_decl *d, const struct pp_result *r)
{
	const char *conv = strchr(d->pattern, '%'), *p, *w = r->key;
	char word[16], sz[24];
	size_t i;

	if (!(r->value > 0) || ml->nm == ARRAY_SIZE(ml->mark))
		return;
	for (p = d->pattern; conv && p < conv; p++)
		if (*p == '-' && (w = strchr(w, '-')))
			w++;
	if (!w)
		return;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(w, "-"), w);
	for (i = 0; word[i]; i++)
		word[i] = (char)toupper((unsigned char)word[i]);
	size_name(sz, sizeof(sz), r->value);
	snprintf(ml->label[ml->nm], sizeof(ml->label[0]), "%s %s", word, sz);
	ml->mark[ml->nm] = (struct pp_svg_mark){ r->value, ml->label[ml->nm], false };
	ml->nm++;
}

/* An info's "L1 49152 L2 1310720 ... (bytes, from sysfs)": marked, dotted. */
static void curve_info_marks(struct memlat *ml, const char *info)
{
	const char *p;
	char sz[32];

	for (p = info; p && (p = strchr(p, 'L')) && ml->nm < ARRAY_SIZE(ml->mark); p++) {
		unsigned int lv;
		double b;

		if (sscanf(p, "L%u %lf", &lv, &b) != 2 || !(b > 0))
			continue;
		size_name(sz, sizeof(sz), b);
		snprintf(ml->label[ml->nm], sizeof(ml->label[0]), "sys L%u %s", lv, sz);
		ml->mark[ml->nm] = (struct pp_svg_mark){ b, ml->label[ml->nm], true };
		ml->nm++;
	}
}

/* The points and marks of chart in run, from what the declarations say. */
static void curve_fill(struct memlat *ml, const struct pp_run *run, const char *chart)
{
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
	unsigned int b;
	size_t k;

	for (k = 0; k < run->nresults; k++) {
		const struct pp_result *r = &run->results[k];

		d = pp_decl_of(r->key);
		for (s = d ? d->show : NULL; s && !pp_show_end(s); s++) {
			if (!s->chart || strcmp(s->chart, chart) ||
			    !pp_key_match(pp_show_key(d, s), r->key))
				continue;
			if (s->role == PP_CHART_POINT)
				curve_point(ml, d, s, r);
			else if (s->role == PP_CHART_MARK)
				curve_mark(ml, d, r);
		}
	}
	if (!ml->nc)
		return;
	for (b = 0; b < pp_nbenches; b++)
		for (d = pp_benches[b]->keys; d && d->pattern; d++)
			for (s = d->show; s && !pp_show_end(s); s++)
				if (s->chart && !strcmp(s->chart, chart) &&
				    s->role == PP_CHART_INFO_MARKS)
					curve_info_marks(ml, pp_run_find_info(run, s->key));
}

static void memlat(struct report *rp)
{
	struct memlat *ml = calloc(1, sizeof(*ml));
	bool any = false;
	size_t i, k;

	if (!ml) {
		rp->err = -ENOMEM;
		return;
	}
	for (i = 0; i < rp->n; i++) {
		const struct pp_run *run = &rp->runs[i];

		memset(ml, 0, sizeof(*ml));
		curve_fill(ml, run, "memlat");
		if (!ml->nc)
			continue;
		for (k = 0; k < ml->nc; k++)
			curve_sort(&ml->c[k]);
		if (!any)
			fputs("<section id=\"memlat\">\n<h2>Memory latency</h2>\n", rp->f);
		any = true;
		snprintf(ml->title, sizeof(ml->title), "Load latency: %s", run_name(run));
		snprintf(ml->id, sizeof(ml->id), "memlat-%zu", i);
		chart(rp, ml->id, "Load latency against the array size, one line per stride (random: "
		      "a random walk of the lines); the plateaus are the cache levels, the "
		      "dashed lines where the curve's plateaus end, the dotted ones the cache "
		      "sizes the system reports.", memlat_draw, ml);
	}
	if (any)
		fputs("</section>\n", rp->f);
	free(ml);
}

/* --- bars: a key per category, a run per series --- */

struct bars {
	const char *title, *unit;
	const char *cats[64];
	char catbuf[64][PP_KEY_MAX];
	size_t ncat;
	const char *ser[16];
	double v[64 * 16], lo[64 * 16], hi[64 * 16];
	size_t nser;
	char id[48];
};

static int bars_draw(FILE *f, const void *arg)
{
	const struct bars *b = arg;
	struct pp_svg_bars sb = {
		.id = b->id, .title = b->title, .unit = b->unit, .cats = b->cats,
		.ncat = b->ncat, .series = b->ser, .nser = b->nser, .v = b->v, .lo = b->lo,
		.hi = b->hi,
	};

	return pp_svg_bars(f, &sb);
}

/* A category of the keys (a "prefix*" takes the largest size) in unit. */
static void bars_add(struct bars *b, const struct report *rp, const char *key,
		     const char *label, const char *unit)
{
	size_t i, c = b->ncat;
	bool any = false;

	if (c == ARRAY_SIZE(b->cats))
		return;
	for (i = 0; i < b->nser; i++) {
		const struct pp_result *r = pp_find_key(&rp->runs[i], key);
		size_t k = c * b->nser + i;

		b->v[k] = b->lo[k] = b->hi[k] = NAN;
		if (!r || strcmp(r->unit, unit) || !isfinite(r->value))
			continue;
		b->v[k] = r->value;
		if (r->nsamples > 1) {
			b->lo[k] = r->st.min;
			b->hi[k] = r->st.max;
		}
		any = true;
		if (!label && key[strlen(key) - 1] == '*')
			label = r->key;
	}
	if (!any)
		return;
	snprintf(b->catbuf[c], sizeof(b->catbuf[0]), "%s", label ? label : key);
	b->cats[c] = b->catbuf[c];
	b->ncat++;
}

static void bars_chart(struct report *rp, struct bars *b, const char *id, const char *caption)
{
	if (!b->ncat)
		return;
	snprintf(b->id, sizeof(b->id), "%s", id);
	chart(rp, id, caption, bars_draw, b);
}

static struct bars *bars_new(struct report *rp, const char *title, const char *unit)
{
	struct bars *b = calloc(1, sizeof(*b));
	size_t i;

	if (!b) {
		rp->err = -ENOMEM;
		return NULL;
	}
	b->title = title;
	b->unit = unit;
	b->nser = rp->n < ARRAY_SIZE(b->ser) ? rp->n : ARRAY_SIZE(b->ser);
	for (i = 0; i < b->nser; i++)
		b->ser[i] = run_name(&rp->runs[i]);
	return b;
}

/*
 * The bar charts whose bars the key declarations name (.chart), in the
 * order of the registry and the declarations.
 */
static const struct {
	const char *id, *title, *caption;
} bar_charts[] = {
	{ "bw-mem", "bw_mem: memory bandwidth by kind (largest size)",
	  "MB/s (10^6 bytes a second) of each kind at its largest size; whiskers: the "
	  "samples' min..max." },
	{ "stream", "STREAM (one thread; -mt: one per CPU)",
	  "The median of the counted passes; whiskers: min..max (STREAM's own headline is "
	  "the best, the _best keys)." },
	{ "bw-ipc", "Local communication and file bandwidth",
	  "Pipe, AF_UNIX and TCP stream bandwidth, file and mmap reread; whiskers: min..max." },
};

static void bandwidth(struct report *rp)
{
	const struct pp_key_decl *d;
	const struct pp_key_show *s;
	unsigned int i, k;
	struct bars *b;
	bool open = false;

	if (!rp->n)
		return;
	for (i = 0; i < ARRAY_SIZE(bar_charts); i++) {
		b = bars_new(rp, bar_charts[i].title, "MB/s");
		if (!b)
			return;
		for (k = 0; k < pp_nbenches; k++)
			for (d = pp_benches[k]->keys; d && d->pattern; d++)
				for (s = d->show; s && !pp_show_end(s); s++)
					if (s->chart && !strcmp(s->chart, bar_charts[i].id) &&
					    s->role == PP_CHART_BAR)
						bars_add(b, rp, pp_show_key(d, s), NULL, d->unit);
		if (b->ncat)
			section(rp, &open, "bandwidth", "Bandwidth");
		bars_chart(rp, b, bar_charts[i].id, bar_charts[i].caption);
		free(b);
	}
	if (open)
		fputs("</section>\n", rp->f);
}

/* Each of the first four summary tables, as bars of its keys. */
static void latency(struct report *rp)
{
	static const char *const ids[] = { "lat-proc", "lat-ctx", "lat-ipc", "lat-fsvm" };
	struct pp_col cols[PP_TABLE_COLS];
	const struct pp_key_table *tb;
	unsigned int t, n, c, k;
	bool open = false;

	for (t = 0; t < ARRAY_SIZE(ids) && (tb = pp_table(t)); t++) {
		struct bars *b = bars_new(rp, tb->title, "microseconds");

		if (!b)
			return;
		n = pp_table_cols(tb, cols, ARRAY_SIZE(cols));
		for (c = 0; c < n; c++)
			for (k = 0; k < cols[c].nkeys; k++)
				bars_add(b, rp, cols[c].keys[k], NULL, "us");
		if (b->ncat)
			section(rp, &open, "latency", "Latency");
		bars_chart(rp, b, ids[t], "The median; whiskers: the samples' min..max.  Shorter "
			   "is better.");
		free(b);
	}
	if (open)
		fputs("</section>\n", rp->f);
}

/* --- compare: each run against the first --- */

struct changes {
	char title[320], id[32];
	struct pp_svg_change rows[MAX_CHANGE_ROWS];
	size_t n;
	bool more;		/* keys compared beyond the chart's */
};

static int changes_draw(FILE *f, const void *arg)
{
	const struct changes *c = arg;
	struct pp_svg_changes sc = { c->id, c->title, c->rows, c->n };

	return pp_svg_changes(f, &sc);
}

static char verdict_cls(enum pp_verdict v)
{
	return v == PP_VERDICT_REGRESSION ? 'r' : v == PP_VERDICT_IMPROVEMENT ? 'i' :
	       v == PP_VERDICT_NOISY ? 'n' : 's';
}

static const char *verdict_css(const struct pp_cmp_row *r)
{
	if (!r->ok || !r->gates)
		return "";
	return r->st.verdict == PP_VERDICT_REGRESSION ? "regression" :
	       r->st.verdict == PP_VERDICT_IMPROVEMENT ? "improvement" :
	       r->st.verdict == PP_VERDICT_NOISY ? "noisy" : "";
}

/* A side by the label all its runs share, else as its argument names it. */
static const char *side_name(const struct pp_side *s)
{
	size_t i;

	for (i = 0; i < s->npaths; i++)
		if (!s->runs[i].meta.label[0] ||
		    strcmp(s->runs[i].meta.label, s->runs[0].meta.label))
			return s->arg;
	return s->npaths ? s->runs[0].meta.label : s->arg;
}

/* "NEW against BASE (N runs against M)" */
static void cmp_title(FILE *f, const char *tag, const struct pp_comparison *c)
{
	fprintf(f, "<%s>", tag);
	pp_html_esc(f, side_name(c->new));
	fputs(" against ", f);
	pp_html_esc(f, side_name(c->base));
	fprintf(f, " <small>(%zu run%s against %zu)</small></%s>\n", c->new->npaths,
		c->new->npaths == 1 ? "" : "s", c->base->npaths, tag);
}

/* The kernel view of a key on both sides, where both have one. */
static void kernel_deltas(FILE *f, const struct pp_cmp_row *rows, size_t n)
{
	static const struct { const char *name; size_t off; } fld[] = {
		{ "syscalls/op", offsetof(struct pp_kside, syscalls_per_op) },
		{ "kernel ns/op", offsetof(struct pp_kside, kernel_ns_per_op) },
		{ "faults/op", offsetof(struct pp_kside, faults_per_op) },
		{ "switches/op", offsetof(struct pp_kside, switches_per_op) },
		{ "bytes copied/op", offsetof(struct pp_kside, copy_bytes_per_op) },
	};
	char buf[2 * PP_NUM_LEN + 8];
	size_t i, k, shown = 0;

	for (i = 0; i < n; i++) {
		const struct pp_kside *a = &rows[i].pool->base_k, *b = &rows[i].pool->new_k;

		if (!rows[i].ok || !a->source[0] || !b->source[0])
			continue;
		if (!shown++) {
			fputs("<div class=\"scroll detail\"><table class=\"kv\">\n<caption>Kernel view, base &#8594; "
			      "new (per operation; traced passes after the samples)</caption>\n"
			      "<thead><tr>", f);
			th(f, "l", "key");
			for (k = 0; k < ARRAY_SIZE(fld); k++)
				th(f, NULL, fld[k].name);
			fputs("</tr></thead>\n<tbody>\n", f);
		}
		fputs("<tr>", f);
		td(f, "l", rows[i].pool->key);
		for (k = 0; k < ARRAY_SIZE(fld); k++) {
			double x = *(const double *)((const char *)a + fld[k].off);
			double y = *(const double *)((const char *)b + fld[k].off);
			char bx[PP_NUM_LEN], by[PP_NUM_LEN];

			pp_fmt_num(bx, sizeof(bx), x);
			pp_fmt_num(by, sizeof(by), y);
			snprintf(buf, sizeof(buf), "%s \xe2\x86\x92 %s", bx, by);
			td(f, NULL, buf);
		}
		fputs("</tr>\n", f);
	}
	if (shown)
		fputs("</tbody></table></div>\n", f);
}

/* --- the verdict, first: what compare would say of the same sides --- */

/* Counts per verdict of the gating keys, as one sentence. */
static void verdict_counts(FILE *f, const struct pp_comparison *c)
{
	size_t counts[PP_VERDICT_NOISY + 1] = { 0 }, apart = 0, notcmp = 0, i;

	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];

		if (!r->gates)
			apart++;
		else if (!r->ok)
			notcmp++;
		else
			counts[r->st.verdict]++;
	}
	fprintf(f, "<p class=\"counts\"><span class=\"regression\">%zu regression%s</span> "
		"(%zu failing), <span class=\"improvement\">%zu improvement%s</span>, "
		"<span class=\"noisy\">%zu too noisy to tell</span>, %zu the same; %zu not "
		"compared; %zu derived figures and facts, never gating.</p>\n",
		counts[PP_VERDICT_REGRESSION], counts[PP_VERDICT_REGRESSION] == 1 ? "" : "s",
		c->fd.nfail, counts[PP_VERDICT_IMPROVEMENT],
		counts[PP_VERDICT_IMPROVEMENT] == 1 ? "" : "s", counts[PP_VERDICT_NOISY],
		counts[PP_VERDICT_SAME], notcmp, apart);
}

/* The regressions, worst first (the rows' order), with the kernel's why. */
static void verdict_regressions(FILE *f, const struct pp_comparison *c)
{
	char buf[PP_CMP_WHY_MAX];
	size_t i, shown = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];

		if (!r->ok || !r->gates || r->st.verdict != PP_VERDICT_REGRESSION)
			continue;
		if (!shown++) {
			fputs("<div class=\"scroll\"><table class=\"verdict\">\n<caption>"
			      "Regressions, worst first</caption>\n<thead><tr>", f);
			th(f, "l", "key");
			th(f, NULL, "base");
			th(f, NULL, "new");
			th(f, NULL, "change [95% interval]");
			th(f, "l", "the kernel's side");
			fputs("</tr></thead>\n<tbody>\n", f);
		}
		fputs("<tr>", f);
		td(f, "l", r->pool->key);
		pp_fmt_num(buf, sizeof(buf), r->st.base_median);
		strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, r->pool->unit, sizeof(buf) - strlen(buf) - 1);
		td(f, NULL, buf);
		pp_fmt_num(buf, sizeof(buf), r->st.new_median);
		td(f, NULL, buf);
		snprintf(buf, sizeof(buf), "%+.1f%% [%+.1f..%+.1f]%s", r->st.change_pct,
			 r->st.lo_pct, r->st.hi_pct, r->fails ? "" : " (not failing)");
		td(f, "regression", buf);
		if (!pp_cmp_kernel_why(buf, sizeof(buf), r, c->o->threshold))
			snprintf(buf, sizeof(buf), "no kernel view");
		td(f, "l why", buf);
		fputs("</tr>\n", f);
	}
	if (shown)
		fputs("</tbody></table></div>\n", f);
	else
		fprintf(f, "<p>No regression beyond %.0f%% at 95%% confidence.</p>\n",
			c->o->threshold);
}

/* Everything that is not a verdict: as compare's warnings, one a line. */
static void verdict_warnings(FILE *f, const struct pp_comparison *c)
{
	char line[PP_CMP_VALUE_MAX * 2 + 512];
	size_t i, n = 0;

	if (!c->fd.nwarn && !c->fd.incomplete[0])
		return;
	fprintf(f, "<details class=\"warnings\"%s><summary>%zu warning%s</summary>\n<ul>\n",
		c->fd.nwarn <= 8 ? " open" : "", c->fd.nwarn, c->fd.nwarn == 1 ? "" : "s");
	if (c->fd.incomplete[0]) {
		fputs("<li class=\"warn\">not comparable: ", f);
		pp_html_esc(f, c->fd.incomplete);
		fputs("</li>\n", f);
	}
	for (i = 0; i < c->nw; i++, n++) {
		pp_cmp_warn_line(line, sizeof(line), &c->w[i], c->o);
		fputs("<li>", f);
		pp_html_esc(f, line);
		fputs("</li>\n", f);
	}
	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];

		if (r->ok && !r->unreliable)
			continue;
		fputs("<li>", f);
		pp_html_esc(f, r->pool->key);
		if (!r->ok) {
			fprintf(f, ": not compared, %s: ", r->on_new ? "new" : "base");
			pp_html_esc(f, r->why);
		} else {
			fputs(": unreliable, ", f);
			pp_html_esc(f, r->pool->unreliable);
			fputs(" (does not gate)", f);
		}
		fputs("</li>\n", f);
	}
	fputs("</ul></details>\n", f);
}

static void verdict(struct report *rp)
{
	size_t j;

	if (!rp->ncmp)
		return;
	fputs("<section id=\"verdict\">\n<h2>Verdict</h2>\n<p>Each side against the first, as "
	      "<code>perfprobe compare</code> judges them: a side's runs pooled, its label's "
	      "earlier runs measuring the run-to-run noise (Documentation/compare.rst).</p>\n",
	      rp->f);
	for (j = 0; j < rp->ncmp; j++) {
		const struct pp_comparison *c = &rp->cmp[j];

		cmp_title(rp->f, "h3", c);
		if (c->k.clock == PP_CMP_CLOCK_MIXED) {
			fputs("<p class=\"warn\">Not compared: one counted instructions "
			      "(virtual clock), the other time.</p>\n", rp->f);
			continue;
		}
		verdict_counts(rp->f, c);
		if (!c->k.gates)
			fputs("<p class=\"warn\">Emulated on the wall clock: the verdicts gate "
			      "nothing.</p>\n", rp->f);
		verdict_regressions(rp->f, c);
		verdict_warnings(rp->f, c);
	}
	fputs("</section>\n", rp->f);
}

/* --- compare: every key of each side against the first --- */

/* The chart's rows: the gating keys compared, the most changed first. */
static void changes_fill(struct changes *ch, const struct pp_comparison *c, size_t j)
{
	size_t i, nok = 0;

	memset(ch, 0, sizeof(*ch));
	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];

		if (!r->ok || !r->gates)
			continue;
		nok++;
		if (ch->n == MAX_CHANGE_ROWS)
			continue;
		ch->rows[ch->n++] = (struct pp_svg_change){
			.key = r->pool->key, .pct = r->st.change_pct,
			.lo = r->st.lo_pct, .hi = r->st.hi_pct,
			.cls = verdict_cls(r->st.verdict),
		};
	}
	snprintf(ch->title, sizeof(ch->title), "%s vs %s: change per key", side_name(c->new),
		 side_name(c->base));
	snprintf(ch->id, sizeof(ch->id), "changes-%zu", j);
	ch->more = nok > ch->n;
}

static void compare_table(FILE *f, const struct pp_comparison *c)
{
	char buf[96];
	size_t i;

	fputs("<details><summary>every key</summary>\n<div class=\"scroll\"><table>\n<thead><tr>",
	      f);
	th(f, "l", "key");
	th(f, "l", "unit");
	th(f, NULL, "base");
	th(f, NULL, "new");
	th(f, NULL, "change");
	th(f, NULL, "95% interval");
	th(f, "l", "verdict");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];
		const struct pp_cmp_stat *s = &r->st;

		fputs("<tr>", f);
		td(f, "l", r->pool->key);
		td(f, "l", r->pool->unit);
		pp_fmt_num(buf, sizeof(buf), r->ok ? s->base_median : NAN);
		td(f, NULL, buf);
		pp_fmt_num(buf, sizeof(buf), r->ok ? s->new_median : NAN);
		td(f, NULL, buf);
		if (r->ok)
			snprintf(buf, sizeof(buf), "%+.1f%%", s->change_pct);
		td(f, NULL, r->ok ? buf : "-");
		if (r->ok)
			snprintf(buf, sizeof(buf), "%+.1f%% .. %+.1f%%", s->lo_pct, s->hi_pct);
		td(f, NULL, r->ok ? buf : "-");
		fprintf(f, "<td class=\"l %s\">", verdict_css(r));
		pp_html_esc(f, r->ok ? pp_verdict_name(s->verdict) : pp_cmp_row_verdict(r));
		if (!r->gates)
			fprintf(f, " (%s, not gating)", pp_kind_name(r->pool->kind));
		if (r->pool->spread_pct > 0)
			fprintf(f, " (spread by nature %.0f%%%s)", r->pool->spread_pct,
				r->ok && fabs(s->change_pct) < r->pool->spread_pct ?
				": the change is within it" : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div></details>\n", f);
}

/* --- where in the kernel a changed key's time went: flame graphs --- */

/* "+600 ns", "-1.2 us" */
static void signed_ns(char *buf, size_t size, double ns)
{
	char t[PP_NUM_LEN + 4];

	pp_fmt_ns(t, sizeof(t), ns);
	snprintf(buf, size, "%s%s", ns >= 0 ? "+" : "", t);
}

/*
 * A flame graph of a call tree t: the differential one of both sides
 * (d set: each node's change as compare's figures have it), or one run's
 * (k: the run's profile).  A frame a node, its index the node's.
 */
struct flame {
	char title[320], id[72];
	const struct pp_pdiff_tree *t;
	const struct pp_pdiff *d;
	struct pp_pdiff_fn *ch;		/* d: each node's times and change */
	const struct pp_kside *k;	/* else: the run's */
	struct pp_svg_frame *f;
};

static const char *node_name(const struct pp_pdiff_tree *t, size_t i)
{
	return t->v[i].name ? t->v[i].name : "all kernel time";
}

static void flame_tip(FILE *f, size_t i, const void *arg)
{
	const struct flame *fl = arg;
	const struct pp_pdiff_tree *t = fl->t;
	char a[PP_NUM_LEN + 8], b[PP_NUM_LEN + 8], c[PP_NUM_LEN + 8], e[PP_NUM_LEN + 8];
	uint64_t sb, sn;
	double se;

	pp_html_esc(f, node_name(t, i));
	pp_pdiff_self(t, (uint32_t)i, &sb, &sn);
	if (fl->d) {
		const struct pp_pdiff_fn *x = &fl->ch[i];

		pp_fmt_ns(a, sizeof(a), x->base_ns);
		pp_fmt_ns(b, sizeof(b), x->new_ns);
		signed_ns(c, sizeof(c), x->delta);
		fprintf(f, "\nbase %s/op, new %s/op: %s/op", a, b, c);
		signed_ns(a, sizeof(a), x->lo);
		signed_ns(b, sizeof(b), x->hi);
		fprintf(f, " [%s..%s]%s\n%llu and %llu samples, %llu and %llu its own", a, b,
			x->beyond ? "" : ", within the sampling error",
			(unsigned long long)t->v[i].base, (unsigned long long)t->v[i].new,
			(unsigned long long)sb, (unsigned long long)sn);
		return;
	}
	pp_fmt_ns(a, sizeof(a), pp_prof_cpu_ns((double)t->v[i].new, fl->k->prof->sample_ns,
					       fl->k->prof_ops, &se));
	pp_fmt_ns(e, sizeof(e), pp_prof_cpu_ns((double)sn, fl->k->prof->sample_ns,
					       fl->k->prof_ops, &se));
	fprintf(f, "\n%s/op, %s/op its own (%llu samples, %llu its own)", a, e,
		(unsigned long long)t->v[i].new, (unsigned long long)sn);
}

static int flame_draw(FILE *f, const void *arg)
{
	const struct flame *fl = arg;
	struct pp_svg_flame g = {
		.id = fl->id, .title = fl->title, .f = fl->f, .n = fl->t->n, .diff = !!fl->d,
		.legend = "width: CPU time per operation; colours tell frames apart",
		.tip = flame_tip, .arg = fl,
	};

	return pp_svg_flame(f, &g);
}

/*
 * The frames of fl's tree: a node's width its CPU time per operation,
 * the mean of the two sides' in a differential graph (so that what one
 * side lacks still shows), coloured by its change against the key's;
 * grey where the change is within its sampling error or under 2% of
 * the key's.  0 or -ENOMEM.
 */
static int flame_frames(struct flame *fl)
{
	const struct pp_pdiff_tree *t = fl->t;
	const struct pp_pdiff *d = fl->d;
	double scale = d ? fabs(d->op_delta) : 0, se;
	size_t i;

	fl->f = calloc(t->n ? t->n : 1, sizeof(*fl->f));
	fl->ch = d ? calloc(t->n ? t->n : 1, sizeof(*fl->ch)) : NULL;
	if (!fl->f || (d && !fl->ch))
		return -ENOMEM;
	for (i = 0; d && i < t->n; i++)
		pp_pdiff_change(d, t->v[i].base, t->v[i].new, &fl->ch[i]);
	/* no change of the key to measure against: the largest of a frame's */
	for (i = 0; d && !(scale > 0) && i < t->n; i++)
		scale = fmax(scale, fabs(fl->ch[i].delta));
	for (i = 0; i < t->n; i++) {
		struct pp_svg_frame *fr = &fl->f[i];

		fr->name = node_name(t, i);
		fr->parent = i ? t->v[i].parent : PP_SVG_ROOT;
		if (d) {
			const struct pp_pdiff_fn *x = &fl->ch[i];
			double rel = scale > 0 ? x->delta / scale : 0;

			fr->w = (x->base_ns + x->new_ns) / 2;
			pp_svg_diff_fill(fr->fill, x->beyond && fabs(rel) >= 0.02 ? rel : 0);
		} else {
			fr->w = pp_prof_cpu_ns((double)t->v[i].new, fl->k->prof->sample_ns,
					       fl->k->prof_ops, &se);
			pp_svg_name_fill(fr->fill, fr->name);
		}
		if (!isfinite(fr->w))
			fr->w = 0;
	}
	return 0;
}

static void flame_free(struct flame *fl)
{
	free(fl->f);
	free(fl->ch);
	fl->f = NULL;
	fl->ch = NULL;
}

/* compare's functions whose own time changed most, under the graph. */
static void pdiff_table(FILE *f, const struct pp_pdiff *d)
{
	char a[PP_NUM_LEN + 8], b[PP_NUM_LEN + 8], c[3 * PP_NUM_LEN + 64];
	size_t i;

	if (!d->nfn)
		return;
	fputs("<div class=\"scroll detail\"><table class=\"kv pdiff\">\n<caption>The kernel "
	      "functions whose own time changed most (as compare lists them)</caption>\n"
	      "<thead><tr>", f);
	th(f, "l", "function");
	th(f, NULL, "base /op");
	th(f, NULL, "new /op");
	th(f, NULL, "change [95% interval]");
	th(f, "l", "path where it took longer");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < d->nfn; i++) {
		const struct pp_pdiff_fn *x = &d->fn[i];
		char lo[PP_NUM_LEN + 8], hi[PP_NUM_LEN + 8];

		fputs("<tr>", f);
		td(f, "l", x->name);
		pp_fmt_ns(a, sizeof(a), x->base_ns);
		td(f, NULL, a);
		pp_fmt_ns(b, sizeof(b), x->new_ns);
		td(f, NULL, b);
		signed_ns(a, sizeof(a), x->delta);
		signed_ns(lo, sizeof(lo), x->lo);
		signed_ns(hi, sizeof(hi), x->hi);
		snprintf(c, sizeof(c), "%s [%s..%s]%s", a, lo, hi, x->beyond ? "" : " (noise)");
		td(f, !x->beyond ? NULL : x->delta > 0 ? "regression" : "improvement", c);
		td(f, "l why", x->path);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The run of side s whose result k is, or NULL. */
static const struct pp_run *run_of(const struct pp_side *s, const char *key,
				   const struct pp_kside *k)
{
	size_t i;

	for (i = 0; i < s->npaths; i++) {
		const struct pp_result *r = pp_run_find(&s->runs[i], key);

		if (r && &r->k == k)
			return &s->runs[i];
	}
	return NULL;
}

/* One run's profile: its top functions by own time, with their paths. */
static void prof_table(FILE *f, const struct pp_kside *k)
{
	const struct pp_prof *p = k->prof;
	char buf[PP_NUM_LEN + 8], path[PP_PROF_PATH_MAX];
	struct pp_prof_fn *fn;
	size_t n, i;
	double se;

	if (pp_prof_functions(p, &fn, &n))
		return;
	fputs("<div class=\"scroll detail\"><table class=\"kv\">\n<caption>Top kernel functions "
	      "by own time</caption>\n<thead><tr>", f);
	th(f, "l", "function");
	th(f, NULL, "own /op");
	th(f, NULL, "with callees /op");
	th(f, "l", "most common path");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < n && i < PP_PROF_TOP && fn[i].self; i++) {
		fputs("<tr>", f);
		td(f, "l", p->frames[fn[i].frame]);
		pp_fmt_ns(buf, sizeof(buf), pp_prof_cpu_ns((double)fn[i].self, p->sample_ns,
							   k->prof_ops, &se));
		td(f, NULL, buf);
		pp_fmt_ns(buf, sizeof(buf), pp_prof_cpu_ns((double)fn[i].total, p->sample_ns,
							   k->prof_ops, &se));
		td(f, NULL, buf);
		pp_prof_path(p, fn[i].frame, true, path, sizeof(path));
		td(f, "l why", path);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	free(fn);
}

/* Run i of a side's profiles of key, k: its flame graph and its top functions. */
static void run_profile(struct report *rp, const struct pp_side *s, bool new, size_t i,
			const char *key, const struct pp_kside *k, const char *id)
{
	const struct pp_run *run = run_of(s, key, k);
	struct pp_pdiff_tree t = { 0 };
	struct flame fl = { .t = &t, .k = k };
	int err;

	err = pp_pdiff_tree_add(&t, k->prof, true);
	if (!err)
		err = flame_frames(&fl);
	if (err) {
		rp->err = err;
		goto out;
	}
	snprintf(fl.title, sizeof(fl.title), "%s, %s run %zu: %s %s", key, new ? "new" : "base",
		 i + 1, run ? run_name(run) : "?", run ? run->meta.date : "");
	snprintf(fl.id, sizeof(fl.id), "%s", id);
	chart(rp, fl.id, "The run's kernel call stacks, root at the bottom, a frame as wide as "
	      "its CPU time per operation.", flame_draw, &fl);
	prof_table(rp->f, k);
out:
	flame_free(&fl);
	pp_pdiff_tree_free(&t);
}

/* Each run's profile of the key, folded: its flame graph and its top functions. */
static void run_profiles(struct report *rp, const struct pp_comparison *c, size_t j, size_t row)
{
	const struct pp_cmp_pool *p = c->rows[row].pool;
	size_t side, i, n = 0;
	char id[72];

	fprintf(rp->f, "<details class=\"profiles\"><summary>The profile of each run: %zu base, "
		"%zu new</summary>\n", p->nbase_prof, p->nnew_prof);
	for (side = 0; side < 2; side++) {
		const struct pp_kside *const *k = side ? p->new_prof : p->base_prof;

		for (i = 0; i < (side ? p->nnew_prof : p->nbase_prof); i++, n++) {
			snprintf(id, sizeof(id), "prof-%zu-%zu-%zu", j, row, n);
			run_profile(rp, side ? c->new : c->base, side, i, p->key, k[i], id);
		}
	}
	fputs("</details>\n", rp->f);
}

/* A key with profiles on both sides, d their difference: its differential flame graph. */
static void key_flame(struct report *rp, const struct pp_comparison *c, size_t j, size_t row,
		      const struct pp_pdiff *d)
{
	const struct pp_cmp_row *r = &c->rows[row];
	char delta[PP_NUM_LEN + 8], cap[512];
	struct pp_pdiff_tree t;
	struct flame fl = { .t = &t, .d = d };
	int err;

	err = pp_pdiff_tree(r->pool, &t);
	if (!err)
		err = flame_frames(&fl);
	if (err) {
		rp->err = err;
		goto out;
	}
	fprintf(rp->f, "<h4 id=\"flame-%zu-%zu\">", j, row);
	pp_html_esc(rp->f, r->pool->key);
	fprintf(rp->f, ": <span class=\"%s\">%s, %+.1f%%</span></h4>\n", verdict_css(r),
		pp_verdict_name(r->st.verdict), r->st.change_pct);
	snprintf(fl.title, sizeof(fl.title), "%s: where the kernel time changed", r->pool->key);
	snprintf(fl.id, sizeof(fl.id), "flame-%zu-%zu-g", j, row);
	signed_ns(delta, sizeof(delta), d->op_delta);
	snprintf(cap, sizeof(cap), "Both sides' kernel call stacks, root at the bottom, a "
		 "frame as wide as its CPU time per operation averaged over the sides; red "
		 "grew, blue shrank, the deeper the more of the key's %s/op change; grey: "
		 "within the sampling error.  %llu and %llu samples; a frame's tooltip has its "
		 "figures.", delta, (unsigned long long)d->base_samples,
		 (unsigned long long)d->new_samples);
	chart(rp, fl.id, cap, flame_draw, &fl);
	pdiff_table(rp->f, d);
	run_profiles(rp, c, j, row);
out:
	flame_free(&fl);
	pp_pdiff_tree_free(&t);
}

/*
 * Every key whose both sides have profiles and that compare calls
 * changed, or whose kernel code changed though its time may not have
 * (pp_pdiff_code_changed()).
 */
static void flames(struct report *rp, const struct pp_comparison *c, size_t j)
{
	bool intro = false;
	struct pp_pdiff d;
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct pp_cmp_row *r = &c->rows[i];

		if (!r->ok || !r->pool->nbase_prof || !r->pool->nnew_prof || pp_pdiff(r->pool, &d))
			continue;
		if (r->st.verdict != PP_VERDICT_REGRESSION &&
		    r->st.verdict != PP_VERDICT_IMPROVEMENT &&
		    !pp_pdiff_code_changed(&d, c->o->threshold))
			continue;
		if (!intro)
			fputs("<p>Where in the kernel the changed keys' time went, and which keys' "
			      "kernel code changed though their time may not have: a differential "
			      "flame graph of each, from the sampled profiles pooled as "
			      "<code>compare</code> pools them (Documentation/report.rst).</p>\n",
			      rp->f);
		intro = true;
		key_flame(rp, c, j, i, &d);
	}
}

static void compare(struct report *rp)
{
	struct changes *ch;
	char buf[96];
	size_t j;

	if (!rp->ncmp)
		return;
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		rp->err = -ENOMEM;
		return;
	}
	fputs("<section id=\"compare\">\n<h2>Compare</h2>\n<p>Every key of each side against "
	      "the first, with the chart of the changes.</p>\n", rp->f);
	for (j = 0; j < rp->ncmp; j++) {
		const struct pp_comparison *c = &rp->cmp[j];

		if (c->k.clock == PP_CMP_CLOCK_MIXED)
			continue;
		cmp_title(rp->f, "h3", c);
		changes_fill(ch, c, j + 1);
		snprintf(buf, sizeof(buf), "The %zu keys that changed most, regressions first%s.",
			 ch->n, ch->more ? "; every key is in the table below" : "");
		chart(rp, ch->id, buf, changes_draw, ch);
		compare_table(rp->f, c);
		kernel_deltas(rp->f, c->rows, c->nrows);
		flames(rp, c, j + 1);
	}
	fputs("</section>\n", rp->f);
	free(ch);
}

/* --- the copy sweep (perfprobe copy) --- */

static const char *const copy_kinds[][2] = {
	{ "kcopy-in-", "copy_from_user" },
	{ "kcopy-out-", "copy_to_user" },
	{ "kcopy-clear-", "clear_user" },
	{ "memcpy-", "memcpy" },
};

struct sweep {
	char title[200], id[32];
	struct curve c[ARRAY_SIZE(copy_kinds)];
	size_t nc;
};

static int sweep_draw(FILE *f, const void *arg)
{
	const struct sweep *sw = arg;
	struct pp_svg_series s[ARRAY_SIZE(copy_kinds)];
	struct pp_svg_axes a = {
		.id = sw->id, .title = sw->title, .xlabel = "size of one copy (bytes, log scale)",
		.ylabel = "MB/s (2^20 bytes a second)", .xbytes = true,
	};
	size_t i;

	for (i = 0; i < sw->nc; i++)
		s[i] = (struct pp_svg_series){ sw->c[i].name, sw->c[i].x, sw->c[i].y, sw->c[i].n,
					       false };
	return pp_svg_lines(f, &a, s, sw->nc, NULL, 0);
}

static void copy_sweep(struct report *rp)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	bool open = false;
	size_t i, k, t;

	if (!sw) {
		rp->err = -ENOMEM;
		return;
	}
	for (i = 0; i < rp->n; i++) {
		const struct pp_run *run = &rp->runs[i];

		memset(sw, 0, sizeof(*sw));
		for (t = 0; t < ARRAY_SIZE(copy_kinds); t++) {
			struct curve *c = &sw->c[sw->nc];
			size_t plen = strlen(copy_kinds[t][0]);

			c->n = 0;
			for (k = 0; k < run->nresults; k++) {
				const struct pp_result *r = &run->results[k];
				char sz[32], *dash;
				double x;

				if (strncmp(r->key, copy_kinds[t][0], plen) || strcmp(r->unit, "MB/s"))
					continue;
				snprintf(sz, sizeof(sz), "%s", r->key + plen);
				dash = strrchr(sz, '-');
				if (!dash || strcmp(dash, "-a0"))
					continue;	/* aligned copies only */
				*dash = '\0';
				x = pp_key_size(sz, PP_SIZE_BYTES);
				if (x > 0 && c->n < MAX_POINTS) {
					c->x[c->n] = x;
					c->y[c->n++] = r->value;
				}
			}
			if (c->n) {
				snprintf(c->name, sizeof(c->name), "%s", copy_kinds[t][1]);
				curve_sort(c);
				sw->nc++;
			}
		}
		if (!sw->nc)
			continue;
		if (!open)
			fputs("<section id=\"copy\">\n<h2>User copies</h2>\n", rp->f);
		open = true;
		snprintf(sw->title, sizeof(sw->title), "perfprobe copy: %s", run_name(run));
		snprintf(sw->id, sizeof(sw->id), "copy-%zu", i);
		chart(rp, sw->id, "Bandwidth of copy_from_user, copy_to_user and clear_user "
		      "(perfprobe.ko) beside user-space memcpy of the same buffer, by the size "
		      "of one copy (aligned).", sweep_draw, sw);
	}
	if (open)
		fputs("</section>\n", rp->f);
	free(sw);
}

/* --- timer lateness --- */

static void timers(struct report *rp)
{
	struct bars *b;
	size_t i, k;

	if (!rp->ntimers)
		return;
	b = calloc(1, sizeof(*b));
	if (!b) {
		rp->err = -ENOMEM;
		return;
	}
	fputs("<section id=\"timer\">\n<h2>Timer lateness</h2>\n", rp->f);
	for (i = 0; i < rp->ntimers; i++) {
		const struct pp_timer_doc *t = &rp->timers[i];
		char title[300], id[32];

		memset(b, 0, sizeof(*b));
		snprintf(title, sizeof(title), "hrtimer lateness, %s (%.0f expiries every %.0f ns)",
			 t->name, t->count, t->period_ns);
		b->title = title;
		b->unit = "expiries";
		b->ser[0] = "expiries";
		b->nser = 1;
		for (k = 0; k < t->nb && k < ARRAY_SIZE(b->cats); k++) {
			char lo[32], hi[32];

			snprintf(lo, sizeof(lo), "%.0f", t->from[k]);
			snprintf(hi, sizeof(hi), "%.0f", t->to[k]);
			snprintf(b->catbuf[k], sizeof(b->catbuf[0]), "%s..%s ns", lo, hi);
			b->cats[k] = b->catbuf[k];
			b->v[k] = t->n[k];
			b->lo[k] = b->hi[k] = NAN;
		}
		b->ncat = k;
		snprintf(id, sizeof(id), "timer-%zu", i);
		bars_chart(rp, b, id, "How late each expiry ran (actual minus programmed "
			   "expiry), log2 buckets: the count in each.");
	}
	fputs("</section>\n", rp->f);
	free(b);
}

/* --- the page --- */

int pp_report_write(FILE *f, const struct pp_report_in *in, unsigned int *charts)
{
	struct report rp = {
		.runs = in->runs, .n = in->nruns, .timers = in->timers,
		.ntimers = in->ntimers, .f = f, .svgdir = in->svgdir,
	};
	static const struct pp_cmp_opts opts = {
		.threshold = PP_CMP_THRESHOLD_PCT, .run_noise = PP_CMP_RUN_NOISE_PCT,
		.sort = true,
	};
	size_t j;
	int err;

	if (in->nsides > 1) {
		rp.cmp = calloc(in->nsides - 1, sizeof(*rp.cmp));
		if (!rp.cmp)
			return -ENOMEM;
	}
	for (j = 1; j < in->nsides; j++, rp.ncmp++) {
		err = pp_comparison_build(&rp.cmp[j - 1], &in->sides[0], &in->sides[j], &opts);
		if (err) {
			rp.ncmp++;
			goto out;
		}
	}
	head(&rp);
	emulation(&rp);
	verdict(&rp);
	if (rp.n)
		facts(&rp);
	summary_tables(&rp);
	guide_tables(&rp);
	memlat(&rp);
	bandwidth(&rp);
	latency(&rp);
	compare(&rp);
	copy_sweep(&rp);
	timers(&rp);
	fprintf(rp.f, "<footer><p>perfprobe %s; %zu run%s, %zu timer document%s, %u "
		"chart%s.  Self-contained: no script, nothing fetched.</p></footer>\n"
		"</body>\n</html>\n", PP_VERSION, rp.n, rp.n == 1 ? "" : "s", rp.ntimers,
		rp.ntimers == 1 ? "" : "s", rp.charts, rp.charts == 1 ? "" : "s");
	*charts = rp.charts;
	err = rp.err;
out:
	for (j = 0; j < rp.ncmp; j++)
		pp_comparison_free(&rp.cmp[j]);
	free(rp.cmp);
	return err;
}

/* --- input --- */

int pp_timer_doc_load(const char *path, struct pp_timer_doc *t)
{
	json_t *root = json_load_file(path, 0, NULL), *lat, *h, *e;
	const char *fmt;
	size_t i;
	int ret = 0;

	if (!root)
		return 0;
	fmt = json_string_value(json_object_get(root, "format"));
	if (!fmt || strcmp(fmt, "perfprobe-timer"))
		goto put_root;
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", path);
	t->period_ns = json_number_value(json_object_get(root, "period_ns"));
	t->count = json_number_value(json_object_get(root, "count"));
	lat = json_object_get(root, "lateness");
	h = json_object_get(lat, "histogram");
	if (!json_is_array(h)) {
		ret = -EINVAL;
		goto put_root;
	}
	json_array_foreach(h, i, e) {
		if (t->nb == PP_TIMER_BUCKETS)
			break;
		t->from[t->nb] = json_number_value(json_object_get(e, "from_ns"));
		t->to[t->nb] = json_number_value(json_object_get(e, "to_ns"));
		t->n[t->nb] = json_number_value(json_object_get(e, "count"));
		t->nb++;
	}
	ret = 1;
put_root:
	json_decref(root);
	return ret;
}
