// SPDX-License-Identifier: GPL-2.0
/*
 * lmbench's summary tables.  Layout and number formatting follow
 * lmbench's scripts/getsummary, so rows can be read beside published
 * results.  To add a table, add its columns and one line in pp_tables[].
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "summary.h"
#include "util.h"

#define OS_WIDTH	13	/* lmbench's OS column */

static const struct pp_col proc_cols[] = {
	{ " Mhz", "    ", 4, 0, "=mhz", NULL, 0 },
	{ "null", "call", 4, 2, "lat_syscall-null", NULL, 0 },
	{ "null", " I/O", 4, 1, "lat_syscall-read", "lat_syscall-write", 0 },
	{ "    ", "stat", 4, 1, "lat_syscall-stat", NULL, 0 },
	{ "open", "clos", 4, 1, "lat_syscall-open", NULL, 0 },
	{ "slct", "TCP ", 4, 1, "lat_select-tcp", NULL, 0 },
	{ "sig ", "inst", 4, 1, "lat_sig-install", NULL, 0 },
	{ "sig ", "hndl", 4, 1, "lat_sig-catch", NULL, 0 },
	{ "fork", "proc", 4, 2, "lat_proc-fork", NULL, 0 },
	{ "exec", "proc", 4, 2, "lat_proc-exec", NULL, 0 },
	{ "sh  ", "proc", 4, 2, "lat_proc-shell", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

/*
 * The other five tables.  A key ending in '*' stands for the result with
 * that prefix and the largest size suffix (lmbench's "biggest" figure).
 */
static const struct pp_col ctx_cols[] = {
	{ "2p/0K", "ctxsw", 5, 2, "lat_ctx-2-0k", NULL, 0 },
	{ "2p/16K", "ctxsw ", 6, 2, "lat_ctx-2-16k", NULL, 0 },
	{ "2p/64K", "ctxsw ", 6, 2, "lat_ctx-2-64k", NULL, 0 },
	{ "8p/16K", "ctxsw ", 6, 2, "lat_ctx-8-16k", NULL, 0 },
	{ "8p/64K", "ctxsw ", 6, 2, "lat_ctx-8-64k", NULL, 0 },
	{ "16p/16K", "ctxsw  ", 7, 2, "lat_ctx-16-16k", NULL, 0 },
	{ "16p/64K", "ctxsw  ", 7, 2, "lat_ctx-16-64k", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col ipc_cols[] = {
	{ "2p/0K", "ctxsw", 5, 2, "lat_ctx-2-0k", NULL, 0 },
	{ " Pipe", "     ", 5, 2, "lat_pipe", NULL, 0 },
	{ "AF  ", "UNIX", 4, 2, "lat_unix", NULL, 0 },
	{ "  UDP", "     ", 5, 2, "lat_udp", NULL, 0 },
	{ "RPC/ ", " UDP ", 5, 2, "lat_rpc-udp", NULL, 0 },
	{ "  TCP", "     ", 5, 2, "lat_tcp", NULL, 0 },
	{ "RPC/ ", " TCP ", 5, 2, "lat_rpc-tcp", NULL, 0 },
	{ "TCP ", "conn", 4, 1, "lat_connect", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col fsvm_cols[] = {
	{ "  0K  ", "Create", 6, 2, "lat_fs-create-0k", NULL, 0 },
	{ "  0K  ", "Delete", 6, 2, "lat_fs-delete-0k", NULL, 0 },
	{ " 10K  ", "Create", 6, 2, "lat_fs-create-10k", NULL, 0 },
	{ " 10K  ", "Delete", 6, 2, "lat_fs-delete-10k", NULL, 0 },
	{ "  Mmap ", "Latency", 7, 1, "lat_mmap-*", NULL, 0 },
	{ " Prot", "Fault", 5, 2, "lat_sig-prot", NULL, 0 },
	{ " Page", "Fault", 5, 2, "lat_pagefault", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col bw_cols[] = {
	{ "Pipe", "    ", 4, 0, "bw_pipe", NULL, 0 },
	{ "AF  ", "UNIX", 4, 0, "bw_unix", NULL, 0 },
	{ " TCP", "    ", 4, 0, "bw_tcp", NULL, 0 },
	{ " File ", "reread", 6, 0, "bw_file_rd-io-*", NULL, 0 },
	{ " Mmap ", "reread", 6, 0, "bw_mmap_rd-mo-*", NULL, 0 },
	{ " Bcopy", "(libc)", 6, 0, "bw_mem-bcopy-*", NULL, 0 },
	{ " Bcopy", "(hand)", 6, 0, "bw_mem-fcp-*", NULL, 0 },
	{ " Mem", "read", 4, 0, "bw_mem-frd-*", NULL, 0 },
	{ "  Mem", "write", 5, 0, "bw_mem-fwr-*", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col mem_cols[] = {
	{ " Mhz", "    ", 4, 0, "=mhz", NULL, 0 },
	{ "  L1 $", "      ", 6, 3, "lat_mem_rd-l1", NULL, 0 },
	{ "  L2 $", "      ", 6, 3, "lat_mem_rd-l2", NULL, 0 },
	{ "  L3 $", "      ", 6, 3, "lat_mem_rd-l3", NULL, 0 },
	{ "Main mem", "        ", 8, 1, "lat_mem_rd-main", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

/* Beyond lmbench: the net group (netperf, rfc2544), in netperf's Mbit/s. */
static const struct pp_col net_cols[] = {
	{ " TCP  ", " 1448 ", 6, 0, "net-tcp_stream-1448", NULL, 0 },
	{ " TCP  ", " 64K  ", 6, 0, "net-tcp_stream-64k", NULL, 0 },
	{ "MAERTS", " 64K  ", 6, 0, "net-tcp_maerts-64k", NULL, 0 },
	{ "Bidir ", " 64K  ", 6, 0, "net-tcp_bidir-64k", NULL, 0 },
	{ " UDP  ", " 1472 ", 6, 0, "net-udp_stream-1472", NULL, 0 },
	{ " TCP6 ", " 64K  ", 6, 0, "net6-tcp_stream-64k", NULL, 0 },
	{ " UDP6 ", " 1452 ", 6, 0, "net6-udp_stream-1452", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col net_rr_cols[] = {
	{ "TCP_RR", "      ", 6, 0, "net-tcp_rr-1", NULL, 0 },
	{ " RR  ", " p99 ", 5, 1, "net-tcp_rr-1-p99", NULL, 0 },
	{ "TCP_CRR", "       ", 7, 0, "net-tcp_crr-1", NULL, 0 },
	{ "UDP_RR", "      ", 6, 0, "net-udp_rr-1", NULL, 0 },
	{ "RR6   ", "      ", 6, 0, "net6-tcp_rr-1", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

static const struct pp_col rfc2544_cols[] = {
	{ "NDR   ", "  64  ", 6, 1, "rfc2544-ndr-64", NULL, 0 },
	{ "NDR   ", " 128  ", 6, 1, "rfc2544-ndr-128", NULL, 0 },
	{ "NDR   ", " 256  ", 6, 1, "rfc2544-ndr-256", NULL, 0 },
	{ "NDR   ", " 1024 ", 6, 1, "rfc2544-ndr-1024", NULL, 0 },
	{ "NDR   ", " 1518 ", 6, 1, "rfc2544-ndr-1518", NULL, 0 },
	{ "PDR   ", "  64  ", 6, 1, "rfc2544-pdr-64", NULL, 0 },
	{ "PDR   ", " 128  ", 6, 1, "rfc2544-pdr-128", NULL, 0 },
	{ "PDR   ", " 256  ", 6, 1, "rfc2544-pdr-256", NULL, 0 },
	{ "PDR   ", " 1024 ", 6, 1, "rfc2544-pdr-1024", NULL, 0 },
	{ "PDR   ", " 1518 ", 6, 1, "rfc2544-pdr-1518", NULL, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, 0 }
};

const struct pp_table pp_tables[] = {
	{ "Processor, Processes - times in microseconds - smaller is better", proc_cols },
	{ "Context switching - times in microseconds - smaller is better", ctx_cols },
	{ "*Local* Communication latencies in microseconds - smaller is better", ipc_cols },
	{ "File & VM system latencies in microseconds - smaller is better", fsvm_cols },
	{ "*Local* Communication bandwidths in MB/s - bigger is better", bw_cols },
	{ "Memory latencies in nanoseconds - smaller is better", mem_cols },
	{ "Network throughput (netperf) in Mbit/s - bigger is better", net_cols },
	{ "Network transactions/s (netperf; p99 in microseconds) - bigger is better",
	  net_rr_cols },
	{ "RFC 2544 UDP throughput in Mbit/s by frame size (bytes) - bigger is better",
	  rfc2544_cols },
};

const unsigned int pp_ntables = ARRAY_SIZE(pp_tables);

/* The crypto group: openssl speed's algorithms and block sizes. */
static const char *const crypto_rows[] = {
	"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "des-cbc", "des3", "md5",
	"sha1", "sha224", "sha256", "sha384", "sha512", NULL
};

static const char *const crypto_cols[] = {
	"16", "64", "256", "1024", "8192", "16384", NULL
};

const struct pp_matrix pp_matrices[] = {
	{ "OpenSSL EVP (openssl speed -evp) in 1000s of bytes per second - bigger is better",
	  "crypto-evp", crypto_rows, crypto_cols, "%s bytes", 2,
	  "cpu_load", "CPU load %", NULL, NULL },
	{ "Kernel crypto API (AF_ALG) in 1000s of bytes per second - bigger is better",
	  "crypto-kcapi", crypto_rows, crypto_cols, "%s bytes", 2,
	  "cpu_load", "CPU load %", "driver", "driver" },
};

const unsigned int pp_nmatrices = ARRAY_SIZE(pp_matrices);

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
	const struct pp_result *a, *b;
	double scale = c->scale ? c->scale : 1.0;

	if (!strcmp(c->key, "=mhz"))
		return run->meta.mhz.trusted ? run->meta.mhz.mhz : NAN;
	a = pp_find_key(run, c->key);
	if (!c->key2)
		return a ? a->value * scale : NAN;
	b = pp_find_key(run, c->key2);
	/* lmbench: "If they have no /dev/zero, use /dev/null, else average" */
	if (a && b)
		return (a->value + b->value) / 2.0 * scale;
	if (a || b)
		return (a ? a->value : b->value) * scale;
	/* an imported summary's null I/O: the mean already (import.c) */
	if (!strcmp(c->key, "lat_syscall-read")) {
		a = pp_find_key(run, "lat_syscall-io");
		if (a)
			return a->value * scale;
	}
	return NAN;
}

bool pp_table_has_data(const struct pp_table *t, const struct pp_run *runs,
			   size_t nruns)
{
	const struct pp_col *c;
	size_t i;

	for (i = 0; i < nruns; i++)
		for (c = t->cols; c->width; c++)
			if (strcmp(c->key, "=mhz") && isfinite(pp_col_value(&runs[i], c)))
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

static void print_table(FILE *f, const struct pp_table *t,
			const struct pp_run *runs, size_t nruns)
{
	const struct pp_col *c;
	int len = 23;
	size_t i;

	for (c = t->cols; c->width; c++)
		len += 1 + c->width;
	fprintf(f, "\n%s\n", t->title);
	rule(f, len);
	fprintf(f, "%-9s %13s", "Host", "OS");
	for (c = t->cols; c->width; c++)
		fprintf(f, " %-*.*s", c->width, c->width, c->h1);
	fprintf(f, "\n%-9s %13s", "", "");
	for (c = t->cols; c->width; c++)
		fprintf(f, " %-*.*s", c->width, c->width, c->h2);
	fprintf(f, "\n--------- -------------");
	for (c = t->cols; c->width; c++) {
		fputc(' ', f);
		for (int k = 0; k < c->width; k++)
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
		for (c = t->cols; c->width; c++) {
			double v = pp_col_value(&runs[i], c);

			if (!strcmp(c->key, "=mhz") && !m->mhz.trusted)
				snprintf(cell, sizeof(cell), "%*s", c->width, "?");
			else
				pp_fmt_cell(cell, sizeof(cell), v, c->width, c->prec);
			fprintf(f, " %s", cell);
		}
		fputc('\n', f);
	}
}

static const struct pp_result *matrix_find(const struct pp_run *run,
					    const struct pp_matrix *m, const char *row,
					    const char *col)
{
	char key[PP_KEY_MAX];

	snprintf(key, sizeof(key), "%s-%s-%s", m->prefix, row, col);
	return pp_run_find(run, key);
}

static bool matrix_row_has_data(const struct pp_run *run, const struct pp_matrix *m,
				const char *row)
{
	const char *const *c;

	for (c = m->cols; *c; c++)
		if (matrix_find(run, m, row, *c))
			return true;
	return m->extra && matrix_find(run, m, row, m->extra);
}

bool pp_matrix_has_data(const struct pp_run *run, const struct pp_matrix *m)
{
	const char *const *r;

	for (r = m->rows; *r; r++)
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

static void print_matrix_row(FILE *f, const struct pp_run *run, const struct pp_matrix *m,
			     const char *row)
{
	char key[PP_KEY_MAX];
	const char *const *c, *info = NULL;

	fprintf(f, "%-13s", row);
	for (c = m->cols; *c; c++)
		matrix_cell(f, matrix_find(run, m, row, *c), 12, m->prec);
	if (m->extra)
		matrix_cell(f, matrix_find(run, m, row, m->extra), (int)strlen(m->extra_head), 1);
	if (m->info) {
		snprintf(key, sizeof(key), "%s-%s-%s", m->prefix, row, m->info);
		info = pp_run_find_info(run, key);
	}
	fprintf(f, "%s%s\n", info ? "  " : "", info ? info : "");
}

static void print_matrix(FILE *f, const struct pp_run *run, const struct pp_matrix *m)
{
	const char *const *c, *const *r;
	char head[32];

	fprintf(f, "\n%s\n", m->title);
	fprintf(f, "%s: %s %s\n", run->meta.hostname, run->meta.sysname, run->meta.release);
	fprintf(f, "%-13s", "type");
	for (c = m->cols; *c; c++) {
		snprintf(head, sizeof(head), m->col_head, *c);
		fprintf(f, " %12s", head);
	}
	if (m->extra)
		fprintf(f, " %s", m->extra_head);
	fprintf(f, "%s%s\n", m->info ? "  " : "", m->info ? m->info_head : "");
	for (r = m->rows; *r; r++)
		if (matrix_row_has_data(run, m, *r))
			print_matrix_row(f, run, m, *r);
}

int pp_print_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	unsigned int t;
	int printed = 0;
	size_t i;

	for (t = 0; t < pp_ntables; t++) {
		if (!pp_table_has_data(&pp_tables[t], runs, nruns))
			continue;
		print_table(f, &pp_tables[t], runs, nruns);
		printed++;
	}
	/* Rows are items, not runs: one matrix per run. */
	for (t = 0; t < pp_nmatrices; t++)
		for (i = 0; i < nruns; i++) {
			if (!pp_matrix_has_data(&runs[i], &pp_matrices[t]))
				continue;
			print_matrix(f, &runs[i], &pp_matrices[t]);
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

		snprintf(name, sizeof(name), "%s (%s)", r->key, r->unit);
		fprintf(f, "%-40s %.4g", name, r->value);
		if (stats)
			fprintf(f, "  (min %.4g, max %.4g, cv %.1f%%, n %zu%s)",
				r->st.min, r->st.max, r->st.cv_pct, r->nsamples,
				r->noisy ? ", noisy" : "");
		if (r->kind != PP_KIND_MEASURED)
			fprintf(f, "  [%s, not gating]", pp_kind_name(r->kind));
		fputc('\n', f);
	}
}
