// SPDX-License-Identifier: GPL-2.0
/*
 * The vendor performance guide's document: see guidedoc.h.  Its layout
 * is the guide's (the "Linux Performance Guide" of a vendor's SDK):
 * Read This First with the machines, then System Benchmarks (LMBench,
 * Dhrystone, Whetstone, Linpack, NBench, Stream, CoreMarkPro,
 * MultiBench), Graphics, Ethernet, MMC/SD, CRYPTO (OpenSSL, IPsec).  The
 * tables are guide.c's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/guidedoc.h"
#include "report/svg.h"
#include "util.h"

#define MAX_TABLES	6

struct section {
	int level;		/* 1: a part ("System Benchmarks"), 2: a benchmark */
	const char *title;
	const char *about;	/* what perfprobe measures for it, or NULL */
	const struct pp_guide_table *tables[MAX_TABLES];	/* NULL-ended */
	const char *absent;	/* the guide's tables here that perfprobe does not make */
	const char *why;	/* no figures: why (perfprobe does not run it) */
	const char *bench;	/* the benchmark whose skip says why a run has none */
};

#define NOT_RUN(t, what) { 2, t, NULL, { NULL }, NULL, "perfprobe does not run " what, NULL }

static const struct section sections[] = {
	{ 1, "System Benchmarks", NULL, { NULL }, NULL, NULL, NULL },
	{ 2, "LMBench", "lmbench3's microbenchmarks, perfprobe's own implementation of their "
	  "definitions, under the guide's row names (most are perfprobe's key names).",
	  { &pp_guide_lmbench }, NULL, NULL, NULL },
	{ 2, "Dhrystone", "Dhrystone 2.1, the program as built, run and read by perfprobe; "
	  "DMIPS are Dhrystones per second / 1757, DMIPS/MHz over the clock perfprobe measured.",
	  { &pp_guide_dhrystone }, NULL, NULL, "dhrystone" },
	{ 2, "Whetstone", "Roy Longbottom's whets.c, the program as built: its MWIPS.",
	  { &pp_guide_whetstone }, NULL, NULL, "whetstone" },
	{ 2, "Linpack", "netlib's LINPACK in C (linpackc.new), 200 x 200, double precision: "
	  "its KFLOPS (rolled and unrolled averaged).", { &pp_guide_linpack }, NULL, NULL,
	  "linpack" },
	{ 2, "NBench", "nbench-byte (BYTEmark), the program as built: each test's iterations "
	  "per second, and its indexes.", { &pp_guide_nbench }, NULL, NULL, "nbench" },
	{ 2, "Stream", "STREAM's copy, scale, add and triad (its Best Rate, MB = 10^6 bytes), "
	  "one thread, and one per CPU.", { &pp_guide_stream, &pp_guide_stream_mt }, NULL,
	  NULL, "stream" },
	{ 2, "CoreMarkPro", "EEMBC CoreMark-Pro's certify-all in its built tree: each workload's "
	  "iterations per second and the mark, on one context and on one per CPU.",
	  { &pp_guide_coremark_pro, &pp_guide_coremark_pro_mt }, NULL, NULL, "coremark_pro" },
	NOT_RUN("MultiBench", "MultiBench"),
	{ 1, "Graphics SGX/RGX Driver", NULL, { NULL }, NULL, NULL, NULL },
	NOT_RUN("GFXBench", "graphics benchmarks"),
	{ 2, "Glmark2", "glmark2, as installed, on the display of the run: its Score.",
	  { &pp_guide_glmark2 }, NULL, NULL, "glmark2" },
	{ 1, "Ethernet", NULL, { NULL }, NULL, NULL, NULL },
	{ 2, "Ethernet Driver", "netperf's tests and RFC 2544's UDP throughput against "
	  "perfprobe's netserver (a child on the loopback, or the one PERFPROBE_NETSERVER "
	  "names); the CPU load at both ends, of all CPUs, from /proc/stat.",
	  { &pp_guide_tcp_bidir, &pp_guide_udp_ndr, &pp_guide_udp_pdr, &pp_guide_udp_stream },
	  "UDP Ingress Throughput (0% loss) and (possible loss): perfprobe sends, its netserver "
	  "receives", NULL, "netperf" },
	{ 1, "MMC/SD Driver", NULL, { NULL }, NULL, NULL, NULL },
	{ 2, "Storage", "Sequential file write (each segment ended by fsync) and read back with "
	  "the pages dropped, in the directory given (PERFPROBE_STORAGE_DIR); the CPU load is the "
	  "process's user + system time over wall time.",
	  { &pp_guide_storage, &pp_guide_storage_dev }, NULL, NULL, "storage" },
	{ 1, "CRYPTO Driver", NULL, { NULL }, NULL, NULL, NULL },
	{ 2, "OpenSSL Performance", "OpenSSL's EVP interface as \"time -v openssl speed -elapsed "
	  "-evp ALGORITHM\" times it (KBytes are 1000 bytes); the CPU load is user + system CPU "
	  "over elapsed, as time -v gives it.", { &pp_guide_openssl, &pp_guide_openssl_cpu },
	  NULL, NULL, "crypto_evp" },
	{ 2, "Kernel Crypto API", "The same algorithms through the kernel's crypto API (AF_ALG): "
	  "the driver the kernel chose, where the SoC's engine would be.",
	  { &pp_guide_kcapi, &pp_guide_kcapi_cpu }, NULL, NULL, "crypto_kcapi" },
	{ 2, "IPSec Software Performance", "ESP through the kernel's xfrm between two network "
	  "namespaces over a veth pair, per algorithm, mode and protocol; the CPU load of all "
	  "CPUs (both ends are this machine).",
	  { &pp_guide_ipsec[0], &pp_guide_ipsec[1], &pp_guide_ipsec[2], &pp_guide_ipsec[3] },
	  NULL, NULL, "ipsec" },
};

/* The columns: the runs grouped by host, kernel and label, in order. */
struct cols {
	struct pp_guide_colset cs[PP_GUIDE_MAX_COLS];
	char name[PP_GUIDE_MAX_COLS][136];	/* host (label) */
	const struct pp_run **runs;	/* grouped: a column's runs together */
	size_t n;
};

struct doc {
	FILE *f;
	enum pp_guide_fmt fmt;
	struct cols c;
	unsigned int part, sub;		/* section numbers */
};

static bool same_col(const struct pp_run *a, const struct pp_run *b)
{
	return !strcmp(a->meta.hostname, b->meta.hostname) &&
	       !strcmp(a->meta.release, b->meta.release) && !strcmp(a->meta.label, b->meta.label);
}

/* 0, or -ENOMEM; runs beyond PP_GUIDE_MAX_COLS columns are left out. */
static int cols_make(struct cols *c, const struct pp_run *runs, size_t nruns)
{
	size_t i, j, k, at = 0;

	c->runs = calloc(nruns ? nruns : 1, sizeof(*c->runs));
	if (!c->runs)
		return -ENOMEM;
	c->n = 0;
	for (i = 0; i < nruns; i++) {
		for (j = 0; j < i && !same_col(&runs[j], &runs[i]); j++)
			;
		if (j < i || c->n == PP_GUIDE_MAX_COLS)
			continue;	/* grouped with an earlier one, or no room */
		c->cs[c->n].runs = c->runs + at;
		for (k = i; k < nruns; k++)
			if (same_col(&runs[k], &runs[i]))
				c->runs[at++] = &runs[k];
		c->cs[c->n].n = (size_t)(c->runs + at - c->cs[c->n].runs);
		c->n++;
	}
	/* named by the host; by the host and the label where a host has several */
	for (i = 0; i < c->n; i++) {
		const struct pp_meta *m = &c->cs[i].runs[0]->meta;
		bool twice = false;

		for (j = 0; j < c->n; j++)
			twice |= j != i && !strcmp(c->cs[j].runs[0]->meta.hostname, m->hostname);
		if (twice)
			snprintf(c->name[i], sizeof(c->name[i]), "%s (%s)", m->hostname, m->label);
		else
			snprintf(c->name[i], sizeof(c->name[i]), "%s", m->hostname);
		c->cs[i].name = c->name[i];
	}
	return 0;
}

/* --- output --- */

static void heading(struct doc *d, int level, const char *num, const char *title)
{
	if (d->fmt == PP_GUIDE_HTML) {
		fprintf(d->f, "<h%d>", level);
		if (num)
			fprintf(d->f, "%s ", num);
		pp_html_esc(d->f, title);
		fprintf(d->f, "</h%d>\n", level);
	} else {
		fprintf(d->f, "\n%.*s %s%s%s\n", level, "####", num ? num : "", num ? " " : "",
			title);
	}
}

static void para(struct doc *d, const char *cls, const char *s)
{
	if (d->fmt == PP_GUIDE_HTML) {
		fprintf(d->f, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
		pp_html_esc(d->f, s);
		fputs("</p>\n", d->f);
	} else {
		fprintf(d->f, "\n%s%s\n", cls ? "> " : "", s);
	}
}

static void command(struct doc *d, const char *cmd)
{
	para(d, NULL, "Execute the benchmark with the following:");
	if (d->fmt == PP_GUIDE_HTML) {
		fputs("<pre class=\"cmd\">", d->f);
		pp_html_esc(d->f, cmd);
		fputs("</pre>\n", d->f);
	} else {
		fprintf(d->f, "\n    %s\n", cmd);
	}
}

static const char css[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:0 auto;max-width:980px;"
	"padding:0 12px;color:#222;line-height:1.4}\n"
	"h1{font-size:1.5em}h2{font-size:1.3em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
	"h3{font-size:1.1em}.scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.85em}\n"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}\n"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}td.w{white-space:normal}\n"
	"caption{caption-side:bottom;text-align:left;font-style:italic;padding:4px 0}\n"
	"pre.cmd{background:#f6f6f6;padding:4px 8px;overflow-x:auto}\n"
	".note{color:#555;border-left:4px solid #ccc;padding:2px 10px}\n"
	"@media print{body{max-width:none}table{page-break-inside:avoid}"
	".scroll{overflow:visible}}\n";

/* --- the parts --- */

static void facts(struct doc *d)
{
	char desc[1024], mhz[64], line[1200];
	size_t i, j;

	heading(d, 2, NULL, "Read This First");
	para(d, NULL, "All performance numbers provided in this document were measured by "
	     "perfprobe on the following machines, a column each in every table.");
	if (d->fmt == PP_GUIDE_HTML)
		fputs("<div class=\"scroll\"><table>\n<thead><tr><th class=\"l\">Name</th>"
		      "<th class=\"l\">Description</th></tr></thead>\n<tbody>\n", d->f);
	else
		fputs("\n| Name | Description |\n| :--- | :--- |\n", d->f);
	for (i = 0; i < d->c.n; i++) {
		const struct pp_meta *m = &d->c.cs[i].runs[0]->meta;

		if (m->mhz.mhz > 0 && m->mhz.trusted)
			snprintf(mhz, sizeof(mhz), " at %.0f MHz", m->mhz.mhz);
		else
			mhz[0] = '\0';
		snprintf(desc, sizeof(desc), "%s, %d CPUs%s, %.1f GiB, %s, Linux %s %s",
			 m->cpu_model[0] ? m->cpu_model : "unknown CPU", m->online_cpus, mhz,
			 (double)m->mem_bytes / (1u << 30), m->machine, m->release, m->kversion);
		if (d->fmt == PP_GUIDE_HTML) {
			fputs("<tr><td class=\"l\">", d->f);
			pp_html_esc(d->f, d->c.cs[i].name);
			fputs("</td><td class=\"l w\">", d->f);
			pp_html_esc(d->f, desc);
			fputs("</td></tr>\n", d->f);
		} else {
			fprintf(d->f, "| %s | %s |\n", d->c.cs[i].name, desc);
		}
	}
	if (d->fmt == PP_GUIDE_HTML)
		fputs("</tbody></table></div>\n<p><i>Table: Evaluation Modules</i></p>\n", d->f);
	else
		fputs("\nTable: Evaluation Modules\n", d->f);
	for (i = 0; i < d->c.n; i++)
		for (j = 0; j < d->c.cs[i].n; j++) {
			const struct pp_meta *m = &d->c.cs[i].runs[j]->meta;

			snprintf(line, sizeof(line), "%s: run of %s, %s mode: %s", d->c.cs[i].name,
				 m->date, m->mode, m->cmdline[0] ? m->cmdline : "(command not recorded)");
			para(d, "note", line);
		}
}

static bool section_has_data(struct doc *d, const struct section *s)
{
	unsigned int t;

	for (t = 0; t < MAX_TABLES && s->tables[t]; t++)
		if (pp_guide_table_has_data(s->tables[t], d->c.cs, d->c.n))
			return true;
	return false;
}

/* A part has figures when one of its sections does. */
static bool part_has_data(struct doc *d, size_t i)
{
	for (i++; i < ARRAY_SIZE(sections) && sections[i].level > 1; i++)
		if (section_has_data(d, &sections[i]))
			return true;
	return false;
}

/* The rows a table leaves out, those no column has a figure for, each quoted. */
static void rows_left_out(struct doc *d, const struct pp_guide_table *t)
{
	const struct pp_guide_row *r;
	bool html = d->fmt == PP_GUIDE_HTML;
	int n = 0, i = 0;

	for (r = t->rows; r->label; r++)
		n += !pp_guide_row_has_data(r, t, d->c.cs, d->c.n);
	if (!n)
		return;
	fprintf(d->f, html ? "<p class=\"note\">Not in these runs (%d row%s): " :
		"\n> Not in these runs (%d row%s): ", n, n == 1 ? "" : "s");
	for (r = t->rows; r->label; r++) {
		if (pp_guide_row_has_data(r, t, d->c.cs, d->c.n))
			continue;
		fputs(i++ ? ", " : "", d->f);
		fputs(html ? "<code>" : "`", d->f);
		if (html)
			pp_html_esc(d->f, r->label);
		else
			fputs(r->label, d->f);
		if (r->fixed) {
			fputs(" | ", d->f);
			if (html)
				pp_html_esc(d->f, r->fixed);
			else
				fputs(r->fixed, d->f);
		}
		fputs(html ? "</code>" : "`", d->f);
	}
	fputs(html ? ".</p>\n" : ".\n", d->f);
}

/* Why a run skipped the benchmark, if one did. */
static const char *skip_reason(struct doc *d, const char *bench)
{
	size_t i, j, k;

	for (i = 0; bench && i < d->c.n; i++)
		for (j = 0; j < d->c.cs[i].n; j++) {
			const struct pp_run *r = d->c.cs[i].runs[j];

			for (k = 0; k < r->nskips; k++)
				if (!strcmp(r->skips[k].name, bench))
					return r->skips[k].reason;
		}
	return NULL;
}

static void section(struct doc *d, const struct section *s)
{
	char num[32], note[512];
	unsigned int t;

	if (!section_has_data(d, s)) {
		const char *skip = skip_reason(d, s->bench);

		if (skip)
			snprintf(note, sizeof(note), "%s: left out, no run has its figures: %s was "
				 "skipped: %s.", s->title, s->bench, skip);
		else if (s->why)
			snprintf(note, sizeof(note), "%s: left out, no run has its figures: %s.",
				 s->title, s->why);
		else
			snprintf(note, sizeof(note), "%s: left out, no run has its figures; "
				 "\"%s\" measures them.", s->title, s->tables[0]->command);
		para(d, "note", note);
		return;
	}
	snprintf(num, sizeof(num), "%u.%u.", d->part, ++d->sub);
	heading(d, 3, num, s->title);
	if (s->about)
		para(d, NULL, s->about);
	for (t = 0; t < MAX_TABLES && s->tables[t]; t++) {
		const struct pp_guide_table *tb = s->tables[t];

		if (!pp_guide_table_has_data(tb, d->c.cs, d->c.n)) {
			snprintf(note, sizeof(note), "Table: %s: not in these runs; \"%s\" "
				 "measures it.", tb->caption, tb->command);
			para(d, "note", note);
			continue;
		}
		command(d, tb->command);
		pp_guide_table_write(d->f, d->fmt, tb, d->c.cs, d->c.n, true);
		rows_left_out(d, tb);
	}
	if (s->absent) {
		snprintf(note, sizeof(note), "Not measured by perfprobe: %s.", s->absent);
		para(d, "note", note);
	}
}

int pp_guide_doc_write(FILE *f, enum pp_guide_fmt fmt, const struct pp_run *runs,
		       size_t nruns)
{
	struct doc d = { .f = f, .fmt = fmt };
	char num[16], note[256];
	size_t i, j;

	if (cols_make(&d.c, runs, nruns))
		return -ENOMEM;
	if (fmt == PP_GUIDE_HTML)
		fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<title>Linux Performance Guide</title>\n<style>\n%s</style>\n</head>\n"
			"<body>\n<h1>Linux Performance Guide</h1>\n", css);
	else
		fputs("# Linux Performance Guide\n", f);
	facts(&d);
	heading(&d, 2, NULL, "About This Manual");
	snprintf(note, sizeof(note), "The vendor performance guides' document, made by "
		 "perfprobe %s of %zu run%s: their sections in their order, their tables under "
		 "their metric names and units, the command that measures each beside it.",
		 PP_VERSION, nruns, nruns == 1 ? "" : "s");
	para(&d, NULL, note);
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		const struct section *s = &sections[i];

		if (s->level > 1)
			continue;	/* with its part */
		if (part_has_data(&d, i)) {
			snprintf(num, sizeof(num), "%u.", ++d.part);
			d.sub = 0;
			heading(&d, 2, num, s->title);
		} else {
			snprintf(note, sizeof(note), "%s: left out, no run has its figures.",
				 s->title);
			para(&d, "note", note);
		}
		/* its sections, or the notes that say why each is left out */
		for (j = i + 1; j < ARRAY_SIZE(sections) && sections[j].level > 1; j++)
			section(&d, &sections[j]);
	}
	if (fmt == PP_GUIDE_HTML)
		fprintf(f, "<footer><p>perfprobe %s.  Self-contained: no script, nothing "
			"fetched.</p></footer>\n</body>\n</html>\n", PP_VERSION);
	free(d.c.runs);
	return 0;
}
