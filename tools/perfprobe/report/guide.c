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
#include "util.h"

#define CELL_MAX	96

/* STREAM: stream.c's "Best Rate MB/s" (MB = 10^6 bytes). */
static const struct pp_guide_row stream_rows[] = {
	{ "add (MB/s)", "add" },
	{ "copy (MB/s)", "copy" },
	{ "scale (MB/s)", "scale" },
	{ "triad (MB/s)", "triad" },
	{ NULL, NULL }
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
	{ "4k", "4k" },
	{ "256k", "256k" },
	{ "1m", "1m" },
	{ "4m", "4m" },
	{ NULL, NULL }
};

static const struct pp_guide_col storage_cols[] = {
	{ "Write Throughput (Mbytes/sec)", "storage-write-%s" },
	{ "Write CPU Load (%)", "storage-write-%s-cpu" },
	{ "Read Throughput (Mbytes/sec)", "storage-read-%s" },
	{ "Read CPU Load (%)", "storage-read-%s-cpu" },
	{ NULL, NULL }
};

static const struct pp_guide_row storage_dev_rows[] = {
	{ "cached reads, as hdparm -T (MB/s)", "cached" },
	{ "device reads, as hdparm -t --direct (MB/s)", "direct" },
	{ NULL, NULL }
};

static const struct pp_guide_col storage_dev_cols[] = {
	{ "perf", "storage-dev-%s" },
	{ NULL, NULL }
};

/* IPsec: the guide's rows first (3des, aes128, aes192, aes256), then ours. */
static const struct pp_guide_row ipsec_rows[] = {
	{ "3des", "3des" },
	{ "aes128", "aes128" },
	{ "aes192", "aes192" },
	{ "aes256", "aes256" },
	{ "aes128_sha256", "aes128_sha256" },
	{ "aes192_sha256", "aes192_sha256" },
	{ "aes256_sha256", "aes256_sha256" },
	{ "aes128_gcm", "aes128_gcm" },
	{ "aes256_gcm", "aes256_gcm" },
	{ NULL, NULL }
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
	char head[CELL_MAX];
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
				double v = cell_value(&runs[i], c, r);
				int w;

				col_head(head, sizeof(head), runs, nruns, i, c);
				w = (int)strlen(head);
				if (isfinite(v))
					fprintf(f, "  %*.2f", w, v);
				else
					fprintf(f, "  %*s", w, "-");
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
