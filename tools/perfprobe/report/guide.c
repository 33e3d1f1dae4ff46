// SPDX-License-Identifier: GPL-2.0
/*
 * Vendor-guide style tables: one row per metric (or buffer size), one
 * column per run and measure, values with two decimals, the caption
 * under the table.  See guide.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guide.h"
#include "svg.h"
#include "util.h"

#define CELL_MAX	96

/* STREAM: stream.c's "Best Rate MB/s" (MB = 10^6 bytes). */
static const struct pp_guide_row stream_rows[] = {
	{ "add (MB/s)", "add", NULL },
	{ "copy (MB/s)", "copy", NULL },
	{ "scale (MB/s)", "scale", NULL },
	{ "triad (MB/s)", "triad", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col stream_cols[] = {
	{ "perf", "stream-%s-best" },
	{ NULL, NULL }
};

static const struct pp_guide_col stream_mt_cols[] = {
	{ "perf", "stream-%s-mt-best" },
	{ NULL, NULL }
};

/* Storage: the MMC/SD table's columns. */
static const struct pp_guide_row storage_rows[] = {
	{ "4k", "4k", NULL },
	{ "256k", "256k", NULL },
	{ "1m", "1m", NULL },
	{ "4m", "4m", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col storage_cols[] = {
	{ "Write Throughput (Mbytes/sec)", "storage-write-%s" },
	{ "Write CPU Load (%)", "storage-write-%s-cpu" },
	{ "Read Throughput (Mbytes/sec)", "storage-read-%s" },
	{ "Read CPU Load (%)", "storage-read-%s-cpu" },
	{ NULL, NULL }
};

static const struct pp_guide_row storage_dev_rows[] = {
	{ "cached reads, as hdparm -T (MB/s)", "cached", NULL },
	{ "device reads, as hdparm -t --direct (MB/s)", "direct", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col storage_dev_cols[] = {
	{ "perf", "storage-dev-%s" },
	{ NULL, NULL }
};

/*
 * Ethernet: netperf's TCP_STREAM and TCP_MAERTS at once (the guide's
 * "TCP Bidirectional Throughput"), RFC 2544 by frame size with the UDP
 * datagram of each (frame - 46), netperf's unpaced UDP_STREAM; the CPU
 * at both ends (netperf's LOCAL_CPU_UTIL and REMOTE_CPU_UTIL).
 */
static const struct pp_guide_row tcp_bidir_rows[] = {
	{ "TCP_STREAM; TCP_MAERTS (64 KiB, at once)", "64k", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col tcp_bidir_cols[] = {
	{ "THROUGHPUT (Mbits/sec)", "net-tcp_bidir-%s" },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "net-tcp_bidir-%s-cpu_local" },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "net-tcp_bidir-%s-cpu_remote" },
	{ NULL, NULL }
};

static const struct pp_guide_row frame_rows[] = {
	{ "64", "64", "18" },
	{ "128", "128", "82" },
	{ "256", "256", "210" },
	{ "1024", "1024", "978" },
	{ "1518", "1518", "1472" },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col udp_ndr_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL },
	{ "THROUGHPUT (Mbits/sec)", "rfc2544-ndr-%s" },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "rfc2544-ndr-%s-cpu_local" },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "rfc2544-ndr-%s-cpu_remote" },
	{ NULL, NULL }
};

static const struct pp_guide_col udp_pdr_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL },
	{ "THROUGHPUT (Mbits/sec)", "rfc2544-pdr-%s" },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "rfc2544-pdr-%s-cpu_local" },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "rfc2544-pdr-%s-cpu_remote" },
	{ "Packet Loss %", "rfc2544-pdr-%s-loss_pct" },
	{ NULL, NULL }
};

/* netperf's UDP_STREAM sizes: 18 bytes (with --full) and 1472 */
static const struct pp_guide_row udp_stream_rows[] = {
	{ "64", "18", "18" },
	{ "1518", "1472", "1472" },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col udp_stream_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL },
	{ "THROUGHPUT (Mbits/sec)", "net-udp_stream-%s" },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "net-udp_stream-%s-cpu_local" },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "net-udp_stream-%s-cpu_remote" },
	{ "Packet Loss %", "net-udp_stream-%s-loss_pct" },
	{ NULL, NULL }
};

/* IPsec: the guide's rows first (3des, aes128, aes192, aes256), then ours. */
static const struct pp_guide_row ipsec_rows[] = {
	{ "3des", "3des", NULL },
	{ "aes128", "aes128", NULL },
	{ "aes192", "aes192", NULL },
	{ "aes256", "aes256", NULL },
	{ "aes128_sha256", "aes128_sha256", NULL },
	{ "aes192_sha256", "aes192_sha256", NULL },
	{ "aes256_sha256", "aes256_sha256", NULL },
	{ "aes128_gcm", "aes128_gcm", NULL },
	{ "aes256_gcm", "aes256_gcm", NULL },
	{ NULL, NULL, NULL }
};

#define IPSEC_COLS(m, p)							\
	{ "Throughput (Mbps)", "ipsec-%s-" m "-" p },				\
	{ "Packets/Sec", "ipsec-%s-" m "-" p "-pps" },				\
	{ "CPU Load", "ipsec-%s-" m "-" p "-cpu" },				\
	{ NULL, NULL }

static const struct pp_guide_col ipsec_tun_tcp[] = { IPSEC_COLS("tunnel", "tcp") };
static const struct pp_guide_col ipsec_tun_udp[] = { IPSEC_COLS("tunnel", "udp") };
static const struct pp_guide_col ipsec_tra_tcp[] = { IPSEC_COLS("transport", "tcp") };
static const struct pp_guide_col ipsec_tra_udp[] = { IPSEC_COLS("transport", "udp") };

const struct pp_guide_table pp_guide_tables[] = {
	{ "Stream", "Benchmarks", stream_rows, stream_cols },
	{ "Stream for All CPUs (one thread per CPU)", "Benchmarks", stream_rows, stream_mt_cols },
	{ "Storage: sequential file write (with fsync) and read", "Buffer size (bytes)",
	  storage_rows, storage_cols },
	{ "Storage: block device reads", "Benchmarks", storage_dev_rows, storage_dev_cols },
	{ "TCP Bidirectional Throughput", "Command Used", tcp_bidir_rows, tcp_bidir_cols },
	{ "UDP Egress Throughput (0% loss, RFC 2544 NDR)", "Frame Size(bytes)", frame_rows,
	  udp_ndr_cols },
	{ "UDP Egress Throughput (RFC 2544 PDR, <= 0.5% loss)", "Frame Size(bytes)", frame_rows,
	  udp_pdr_cols },
	{ "UDP Egress Throughput (possible loss, unpaced)", "Frame Size(bytes)", udp_stream_rows,
	  udp_stream_cols },
	{ "IPSec Software Performance (ESP tunnel mode, TCP)", "Algorithm", ipsec_rows,
	  ipsec_tun_tcp },
	{ "IPSec Software Performance (ESP tunnel mode, UDP)", "Algorithm", ipsec_rows,
	  ipsec_tun_udp },
	{ "IPSec Software Performance (ESP transport mode, TCP)", "Algorithm", ipsec_rows,
	  ipsec_tra_tcp },
	{ "IPSec Software Performance (ESP transport mode, UDP)", "Algorithm", ipsec_rows,
	  ipsec_tra_udp },
};

const unsigned int pp_guide_ntables = ARRAY_SIZE(pp_guide_tables);

static double cell_value(const struct pp_run *run, const struct pp_guide_col *c,
			 const struct pp_guide_row *r)
{
	const struct pp_result *res;
	char key[PP_KEY_MAX];

	if (!c->key)
		return NAN;
	snprintf(key, sizeof(key), c->key, r->part);
	res = pp_run_find(run, key);
	return res ? res->value : NAN;
}

static bool guide_has_data(const struct pp_guide_table *t, const struct pp_run *runs,
			   size_t nruns)
{
	const struct pp_guide_row *r;
	const struct pp_guide_col *c;
	size_t i;

	for (i = 0; i < nruns; i++)
		for (r = t->rows; r->label; r++)
			for (c = t->cols; c->head; c++)
				if (isfinite(cell_value(&runs[i], c, r)))
					return true;
	return false;
}

static void col_head(char *buf, size_t size, const struct pp_run *runs, size_t nruns,
		     size_t i, const struct pp_guide_col *c)
{
	if (nruns > 1)
		snprintf(buf, size, "%s #%zu: %s", runs[i].meta.hostname, i + 1, c->head);
	else
		snprintf(buf, size, "%s: %s", runs[i].meta.hostname, c->head);
}

/* A cell's text: two decimals, the row's fixed text, or "-". */
static void cell_text(char *buf, size_t size, const struct pp_run *run,
		      const struct pp_guide_col *c, const struct pp_guide_row *r)
{
	double v = cell_value(run, c, r);

	if (!c->key)
		snprintf(buf, size, "%s", r->fixed ? r->fixed : "-");
	else if (isfinite(v))
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "-");
}

static int label_width(const struct pp_guide_table *t)
{
	const struct pp_guide_row *r;
	int w = (int)strlen(t->row_head);

	for (r = t->rows; r->label; r++)
		if ((int)strlen(r->label) > w)
			w = (int)strlen(r->label);
	return w;
}

static void print_guide_table(FILE *f, const struct pp_guide_table *t,
			      const struct pp_run *runs, size_t nruns)
{
	const struct pp_guide_row *r;
	const struct pp_guide_col *c;
	int lw = label_width(t);
	char head[CELL_MAX], cell[CELL_MAX];
	size_t i;

	fprintf(f, "\n%-*s", lw, t->row_head);
	for (i = 0; i < nruns; i++)
		for (c = t->cols; c->head; c++) {
			col_head(head, sizeof(head), runs, nruns, i, c);
			fprintf(f, "  %s", head);
		}
	fputc('\n', f);
	for (r = t->rows; r->label; r++) {
		fprintf(f, "%-*s", lw, r->label);
		for (i = 0; i < nruns; i++)
			for (c = t->cols; c->head; c++) {
				col_head(head, sizeof(head), runs, nruns, i, c);
				cell_text(cell, sizeof(cell), &runs[i], c, r);
				fprintf(f, "  %*s", (int)strlen(head), cell);
			}
		fputc('\n', f);
	}
	fprintf(f, "\nTable: %s\n", t->caption);
}

int pp_print_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	unsigned int t;
	int printed = 0;

	for (t = 0; t < pp_guide_ntables; t++) {
		if (!guide_has_data(&pp_guide_tables[t], runs, nruns))
			continue;
		print_guide_table(f, &pp_guide_tables[t], runs, nruns);
		printed++;
	}
	return printed;
}

int pp_guide_tables_with_data(const struct pp_run *runs, size_t nruns)
{
	unsigned int t;
	int n = 0;

	for (t = 0; t < pp_guide_ntables; t++)
		n += guide_has_data(&pp_guide_tables[t], runs, nruns);
	return n;
}

static void html_cell(FILE *f, const char *tag, const char *cls, const char *text)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	pp_html_esc(f, text);
	fprintf(f, "</%s>", tag);
}

static void html_guide_table(FILE *f, const struct pp_guide_table *t,
			     const struct pp_run *runs, size_t nruns)
{
	const struct pp_guide_row *r;
	const struct pp_guide_col *c;
	char head[CELL_MAX], cell[CELL_MAX];
	size_t i;

	fputs("<div class=\"scroll\"><table class=\"guide\">\n<caption>Table: ", f);
	pp_html_esc(f, t->caption);
	fputs("</caption>\n<thead><tr>", f);
	html_cell(f, "th", "l", t->row_head);
	for (i = 0; i < nruns; i++)
		for (c = t->cols; c->head; c++) {
			col_head(head, sizeof(head), runs, nruns, i, c);
			html_cell(f, "th", NULL, head);
		}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (r = t->rows; r->label; r++) {
		fputs("<tr>", f);
		html_cell(f, "td", "l", r->label);
		for (i = 0; i < nruns; i++)
			for (c = t->cols; c->head; c++) {
				cell_text(cell, sizeof(cell), &runs[i], c, r);
				html_cell(f, "td", NULL, cell);
			}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

int pp_html_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	unsigned int t;
	int printed = 0;

	for (t = 0; t < pp_guide_ntables; t++) {
		if (!guide_has_data(&pp_guide_tables[t], runs, nruns))
			continue;
		html_guide_table(f, &pp_guide_tables[t], runs, nruns);
		printed++;
	}
	return printed;
}
