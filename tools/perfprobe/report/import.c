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

/* The declared unit and direction of a key perfprobe produces. */
static const struct pp_key_decl *decl_of(const char *key)
{
	const struct pp_key_decl *d;
	unsigned int i;

	for (i = 0; i < pp_nbenches; i++) {
		d = pp_key_decl_find(pp_benches[i]->keys, key);
		if (d)
			return d;
	}
	return NULL;
}

/*
 * Keys that are not perfprobe's own but name what lmbench's summary
 * gives: its null I/O (the mean of read and write), figures at the
 * largest size without the size, the random-walk memory latency.
 */
static const struct { const char *prefix; const char *unit; enum pp_dir dir; } extra[] = {
	{ "lat_syscall-io", "us", PP_LOWER_IS_BETTER },
	{ "lat_mmap-largest", "us", PP_LOWER_IS_BETTER },
	{ "lat_mem_rd-random-main", "ns", PP_LOWER_IS_BETTER },
	{ "bw_", "MB/s", PP_HIGHER_IS_BETTER },
};

/* Add key = v to run; 0, or -1 (a note says why) when it cannot be. */
static int put(struct pp_import *im, struct pp_run *run, unsigned int line, const char *key,
	       double v)
{
	const struct pp_key_decl *d = decl_of(key);
	const char *unit = d ? d->unit : NULL;
	enum pp_dir dir = d ? d->dir : PP_LOWER_IS_BETTER;
	const struct pp_result *old;
	struct pp_result *r;
	char src[PATH_MAX + 16];
	unsigned int i;

	for (i = 0; !unit && i < ARRAY_SIZE(extra); i++)
		if (!strncmp(key, extra[i].prefix, strlen(extra[i].prefix))) {
			unit = extra[i].unit;
			dir = extra[i].dir;
		}
	if (!unit) {
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
	r = pp_run_add(run, key, unit, dir, &v, 1);
	if (!r)
		return -ENOMEM;
	r->kind = d ? d->kind : PP_KIND_MEASURED;
	snprintf(src, sizeof(src), "%s:%u", im->file, line);
	r->imported = pp_intern(src);
	im->imported++;
	return 0;
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

static void memrd_key(char *buf, size_t size, const char *mode, unsigned int stride,
		      double bytes)
{
	double k = bytes * 1000.0 / MIB;

	if (k < 0.5)
		snprintf(buf, size, "lat_mem_rd-%sstride%u-sz%.0f", mode, stride, bytes);
	else
		snprintf(buf, size, "lat_mem_rd-%sstride%u-sz%.0fk", mode, stride, k);
}

static const struct { const char *label; const char *key; } simple[] = {
	{ "Simple syscall:", "lat_syscall-null" },
	{ "Null syscall:", "lat_syscall-null" },
	{ "Simple read:", "lat_syscall-read" },
	{ "Simple write:", "lat_syscall-write" },
	{ "Simple stat:", "lat_syscall-stat" },
	{ "Simple fstat:", "lat_syscall-fstat" },
	{ "Simple open/close:", "lat_syscall-open" },
	{ "Select on 100 fd's:", "lat_select-file" },
	{ "Select on 100 tcp fd's:", "lat_select-tcp" },
	{ "Signal handler installation:", "lat_sig-install" },
	{ "Signal handler overhead:", "lat_sig-catch" },
	{ "Protection fault:", "lat_sig-prot" },
	{ "Pipe latency:", "lat_pipe" },
	{ "AF_UNIX sock stream latency:", "lat_unix" },
	{ "UDP latency using localhost:", "lat_udp" },
	{ "TCP latency using localhost:", "lat_tcp" },
	{ "RPC/udp latency using localhost:", "lat_rpc-udp" },
	{ "RPC/tcp latency using localhost:", "lat_rpc-tcp" },
	{ "TCP/IP connection cost to localhost:", "lat_connect" },
	{ "Process fork+exit:", "lat_proc-fork" },
	{ "Process fork+execve:", "lat_proc-exec" },
	{ "Process fork+/bin/sh -c:", "lat_proc-shell" },
	{ "Pipe bandwidth:", "bw_pipe" },
	{ "AF_UNIX sock stream bandwidth:", "bw_unix" },
	{ "Pagefaults on ", "lat_pagefault" },
};

/* Blocks: a header line, then "x y" rows up to a blank line. */
enum block { B_NONE, B_SKIP, B_MMAP, B_FS, B_TCP, B_BW, B_CTX, B_MEMRD };

static const struct { const char *head; enum block b; const char *key; } blocks[] = {
	{ "\"mappings", B_MMAP, "lat_mmap" },
	{ "\"File system latency", B_FS, NULL },
	{ "Socket bandwidth using localhost", B_TCP, "bw_tcp" },
	{ "\"read bandwidth", B_BW, "bw_file_rd-io" },
	{ "\"read open2close bandwidth", B_BW, "bw_file_rd-o2c" },
	{ "\"Mmap read bandwidth", B_BW, "bw_mmap_rd-mo" },
	{ "\"Mmap read open2close bandwidth", B_BW, "bw_mmap_rd-o2c" },
	{ "\"libc bcopy unaligned", B_BW, "bw_mem-bcopy" },
	{ "\"unrolled bcopy unaligned", B_BW, "bw_mem-fcp" },
	{ "\"unrolled partial bcopy unaligned", B_BW, "bw_mem-cp" },
	{ "Memory bzero bandwidth", B_BW, "bw_mem-bzero" },
	{ "Memory read bandwidth", B_BW, "bw_mem-frd" },
	{ "Memory partial read bandwidth", B_BW, "bw_mem-rd" },
	{ "Memory write bandwidth", B_BW, "bw_mem-fwr" },
	{ "Memory partial write bandwidth", B_BW, "bw_mem-wr" },
	{ "Memory partial read/write bandwidth", B_BW, "bw_mem-rdwr" },
	{ "\"size=", B_CTX, NULL },
	{ "\"stride=", B_MEMRD, NULL },
};

struct raw {
	enum block b;
	const char *key;
	unsigned int ctx_kb, stride;
	const char *mode;	/* lat_mem_rd: "" or "random-" */
};

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

static int raw_block_row(struct pp_import *im, struct pp_run *run, struct raw *st, unsigned int ln,
			 const char *l)
{
	char key[PP_KEY_MAX], size[32];
	double x, y, y2;
	long mib;
	int n = sscanf(l, "%lf %lf %lf", &x, &y, &y2);

	switch (st->b) {
	case B_MMAP:
	case B_BW:
		if (n < 2)
			break;
		mib = mib_of(x);
		if (mib < 0) {
			note(im, ln, "%s at %g MB: perfprobe's keys name whole MiB", st->key, x);
			return 0;
		}
		snprintf(key, sizeof(key), "%s-%ld%s", st->key, mib, st->b == B_MMAP ? "m" : "mb");
		return put(im, run, ln, key, y);
	case B_FS:	/* size, files, creations/s, deletions/s */
		if (sscanf(l, "%31s %*f %lf %lf", size, &y, &y2) != 3 || !strchr(size, 'k'))
			break;
		snprintf(key, sizeof(key), "lat_fs-%s", size);
		if (put(im, run, ln, key, y) < -1)
			return -ENOMEM;
		snprintf(key, sizeof(key), "lat_fs-create-%s", size);
		if (put(im, run, ln, key, 1e6 / y) < -1)
			return -ENOMEM;
		snprintf(key, sizeof(key), "lat_fs-delete-%s", size);
		return put(im, run, ln, key, 1e6 / y2);
	case B_TCP:	/* message size in MB (10^6), MB/s */
		if (n < 2)
			break;
		if (fabs(x * 1e6 / 1024 - round(x * 1e6 / 1024)) < 1e-6)
			snprintf(key, sizeof(key), "bw_tcp-%.0fkb", x * 1e6 / 1024);
		else
			snprintf(key, sizeof(key), "bw_tcp-%.0fb", x * 1e6);
		return put(im, run, ln, key, y);
	case B_CTX:	/* processes, microseconds */
		if (n < 2)
			break;
		snprintf(key, sizeof(key), "lat_ctx-%.0f-%uk", x, st->ctx_kb);
		return put(im, run, ln, key, y);
	case B_MEMRD:	/* size in MB (2^20), ns */
		if (n < 2)
			break;
		memrd_key(key, sizeof(key), st->mode, st->stride, pp_memrd_bytes(x));
		return put(im, run, ln, key, y);
	default:
		note(im, ln, "in a block perfprobe has no key for: %.80s", l);
		return 0;
	}
	note(im, ln, "not a row of its block: %.80s", l);
	return 0;
}

static int raw_line(struct pp_import *im, struct pp_run *run, struct raw *st, unsigned int ln,
		    char *l)
{
	unsigned int i;
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
	if (!strcmp(l, "Memory load latency") || !strcmp(l, "Random load latency")) {
		st->mode = l[0] == 'R' ? "random-" : "";
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		if (strncmp(l, blocks[i].head, strlen(blocks[i].head)))
			continue;
		st->b = blocks[i].b;
		st->key = blocks[i].key;
		if (st->b == B_CTX && sscanf(l, "\"size=%uk", &st->ctx_kb) != 1)
			st->b = B_SKIP;
		if (st->b == B_MEMRD && sscanf(l, "\"stride=%u", &st->stride) != 1)
			st->b = B_SKIP;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(simple); i++) {
		if (strncmp(l, simple[i].label, strlen(simple[i].label)))
			continue;
		p = strrchr(l, ':');	/* "Pagefaults on FILE: 1.4 microseconds" */
		if (!p || sscanf(p + 1, "%lf", &v) != 1)
			break;
		return put(im, run, ln, simple[i].key, v) < -1 ? -ENOMEM : 0;
	}
	/* lat_ops: "integer add: 0.12 nanoseconds" */
	{
		char type[16], op[16];

		int end = 0;

		if (sscanf(l, "%15[a-z0-9] %15[a-z]: %lf nanoseconds%n", type, op, &v, &end) == 3 &&
		    end && !l[end] && (!strcmp(type, "integer") || !strcmp(type, "int64") ||
				       !strcmp(type, "uint64") || !strcmp(type, "float") ||
				       !strcmp(type, "double"))) {
			char key[PP_KEY_MAX];

			snprintf(key, sizeof(key), "lat_ops-%s-%s",
				 !strcmp(type, "integer") ? "int" :
				 !strcmp(type, "uint64") ? "int64" : type, op);
			return put(im, run, ln, key, v) < -1 ? -ENOMEM : 0;
		}
	}
	if (*l == '"' || strchr(l, ':') == NULL)
		st->b = B_SKIP;		/* an unknown block's header: its rows too */
	note(im, ln, "no perfprobe key: %.120s", l);
	return 0;
}

/* --- the summary tables --- */

struct scol {
	const char *key;	/* "=mhz", a key, NULL: no key (the cell is listed) */
};

struct stable {
	const char *title;	/* how it starts */
	const char *marker;	/* a header word that tells the 3.0 layout apart */
	const char *keys2[12], *keys3[12];	/* NULL-ended; "" = no key */
};

static const struct stable stables[] = {
	{ .title = "Processor, Processes", .marker = NULL,
	  .keys2 = { "=mhz", "lat_syscall-null", "lat_syscall-io", "lat_syscall-stat", "lat_syscall-open",
	    "lat_select-tcp", "lat_sig-install", "lat_sig-catch", "lat_proc-fork",
	    "lat_proc-exec", "lat_proc-shell", NULL } },
	{ .title = "Context switching", .marker = NULL,
	  .keys2 = { "lat_ctx-2-0k", "lat_ctx-2-16k", "lat_ctx-2-64k", "lat_ctx-8-16k", "lat_ctx-8-64k",
	    "lat_ctx-16-16k", "lat_ctx-16-64k", NULL } },
	{ .title = "*Local* Communication latencies", .marker = NULL,
	  .keys2 = { "lat_ctx-2-0k", "lat_pipe", "lat_unix", "lat_udp", "lat_rpc-udp", "lat_tcp",
	    "lat_rpc-tcp", "lat_connect", NULL } },
	{ .title = "File & VM system latencies", .marker = "selct",
	  .keys2 = { "lat_fs-create-0k", "lat_fs-delete-0k", "lat_fs-create-10k", "lat_fs-delete-10k",
	    "lat_mmap-largest", "lat_sig-prot", "lat_pagefault", NULL },
	  .keys3 = { "lat_fs-create-0k", "lat_fs-delete-0k", "lat_fs-create-10k", "lat_fs-delete-10k",
	    "lat_mmap-largest", "lat_sig-prot", "lat_pagefault", "lat_select-file", NULL } },
	{ .title = "*Local* Communication bandwidths", .marker = NULL,
	  .keys2 = { "bw_pipe", "bw_unix", "bw_tcp", "bw_file_rd-io-largest", "bw_mmap_rd-mo-largest",
	    "bw_mem-bcopy-largest", "bw_mem-fcp-largest", "bw_mem-frd-largest",
	    "bw_mem-fwr-largest", NULL } },
	{ .title = "Memory latencies", .marker = "Rand",
	  .keys2 = { "=mhz", "lat_mem_rd-l1", "lat_mem_rd-l2", "lat_mem_rd-main", NULL },
	  .keys3 = { "=mhz", "lat_mem_rd-l1", "lat_mem_rd-l2", "lat_mem_rd-main",
	    "lat_mem_rd-random-main", NULL } },
	{ .title = "Basic integer operations", .marker = NULL,
	  .keys2 = { "lat_ops-int-bit", "lat_ops-int-add", "lat_ops-int-mul", "lat_ops-int-div",
	    "lat_ops-int-mod", NULL } },
	{ .title = "Basic uint64 operations", .marker = NULL,
	  .keys2 = { "lat_ops-int64-bit", "lat_ops-int64-add", "lat_ops-int64-mul", "lat_ops-int64-div",
	    "lat_ops-int64-mod", NULL } },
	{ .title = "Basic float operations", .marker = NULL,
	  .keys2 = { "lat_ops-float-add", "lat_ops-float-mul", "lat_ops-float-div", "", NULL } },
	{ .title = "Basic double operations", .marker = NULL,
	  .keys2 = { "lat_ops-double-add", "lat_ops-double-mul", "lat_ops-double-div", "", NULL } },
	/* Host OS Description Mhz [tlb pages, cache line bytes, mem par, scal load] */
	{ .title = "Basic system parameters", .marker = "tlb",
	  .keys2 = { "=mhz", NULL },
	  .keys3 = { "=mhz", "", "", "", "", NULL } },
};

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

/* Set a row's run and its cells from a table row: name tokens, then values. */
static int put_row(struct pp_import *im, const struct stable *t, const char *const *keys,
		   size_t ncols, struct tok *tk, size_t ntk, const size_t *span, size_t nspan,
		   bool spaced)
{
	char name[64] = "", os[128] = "";
	size_t i, first, nv, c, ntoks;
	const char *desc = NULL;
	struct pp_run *run;

	for (i = 0; i < ntk && !(is_cell(tk[i].s) && i > 0); i++)
		;
	first = i;
	/* the system parameters' Description ("x86_64-linux-gnu") ends the name */
	if (!strcmp(t->title, "Basic system parameters") && first >= 2) {
		desc = tk[first - 1].s;
		ntoks = first - 1;
	} else {
		ntoks = first;
	}
	/* the name: Host OS (2 tokens or more) or OS */
	for (i = 0; i < ntoks; i++) {
		size_t len = strlen(name);

		snprintf(name + len, sizeof(name) - len, "%s%s", len ? " " : "", tk[i].s);
	}
	if (ntoks >= 2 && (!strcmp(tk[1].s, "Linux") ||
					  !strcmp(tk[1].s, "NetBSD") ||
					  !strcmp(tk[1].s, "FreeBSD") ||
					  !strcmp(tk[1].s, "OpenBSD") ||
					  !strcmp(tk[1].s, "Darwin") ||
					  !strcmp(tk[1].s, "SunOS"))) {
		/* "ARM610.ol NetBSD 1.6E": a host, then its OS */
		snprintf(os, sizeof(os), "%s", strchr(name, ' ') + 1);
		name[strcspn(name, " ")] = '\0';
	} else {
		snprintf(os, sizeof(os), "%s", name);
	}
	run = run_named(im, name);
	if (!run)
		return -ENOSPC;
	if (!run->meta.sysname[0]) {
		char sys[32] = "", rel[96] = "";

		sscanf(os, "%31s %95s", sys, rel);
		pp_strlcpy(run->meta.sysname, sys, sizeof(run->meta.sysname));
		pp_strlcpy(run->meta.release, rel[0] ? rel : sys, sizeof(run->meta.release));
		pp_strlcpy(run->meta.kversion, os, sizeof(run->meta.kversion));
		pp_strlcpy(run->meta.hostname, strcmp(name, os) ? name : "",
			   sizeof(run->meta.hostname));
		/* the host's name, or with no host column the release */
		pp_strlcpy(run->meta.label, strcmp(name, os) || !rel[0] ? name : rel,
			   sizeof(run->meta.label));
		/* a label is [A-Za-z0-9._+-]: the rest becomes '_' */
		for (i = 0; run->meta.label[i]; i++)
			if (!isalnum((unsigned char)run->meta.label[i]) &&
			    !strchr("._+-", run->meta.label[i]))
				run->meta.label[i] = '_';
	}
	if (desc) {
		pp_strlcpy(run->meta.machine, desc, sizeof(run->meta.machine));
		note(im, tk[first - 1].line, "%s: \"%s\": the description, as the machine", name,
		     desc);
	}
	for (nv = 0; first + nv < ntk && is_cell(tk[first + nv].s); nv++)
		;
	/* text after the values ("Bad mhz?" under Guesses): a cell of no key */
	for (i = first + nv; i < ntk; i++)
		note(im, tk[i].line, "%s: \"%s\": a text cell", name, tk[i].s);
	for (i = 0; i < nv; i++) {
		const struct tok *v = &tk[first + i];
		double x = cell_value(v->s);

		if (nv == ncols) {
			c = i;
		} else if (spaced && nspan == ncols) {
			/* the column whose dashes are under the cell's end */
			size_t end = v->col + strlen(v->s) - 1;

			for (c = 0; c < nspan && !(end >= span[2 * c] && end <= span[2 * c + 1]); c++)
				;
			if (c == nspan) {
				note(im, v->line, "%s: \"%s\" is under no column of the %s table",
				     name, v->s, t->title);
				continue;
			}
		} else {
			note(im, v->line, "%s: \"%s\": %zu of the %s table's %zu cells in the row "
			     "and no column spacing to place them by", name, v->s, nv, t->title,
			     ncols);
			continue;
		}
		if (!strcmp(v->s, "-"))
			continue;
		if (!strcmp(keys[c], "=mhz")) {
			run->meta.mhz.mhz = x;
			run->meta.mhz.trusted = true;
			pp_strlcpy(run->meta.mhz.method, "lmbench's summary",
				   sizeof(run->meta.mhz.method));
			im->imported++;
		} else if (!keys[c][0]) {
			note(im, v->line, "%s: %s in the %s table: no perfprobe key", name, v->s,
			     t->title);
		} else if (put(im, run, v->line, keys[c], x) < -1) {
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * One table: its tokens from after the title to the next title.  Header
 * words up to the dashes (the first run of them, whose positions give
 * the columns when the file kept its spacing), then rows: each a name
 * and cells, one row a line, or (a copy that joined the lines) name and
 * as many cells as there are columns.
 */
static int summary_table(struct pp_import *im, const struct stable *t, struct tok *tk, size_t ntk)
{
	const char *const *keys = t->keys2;
	size_t i = 0, ncols, span[64], nspan = 0, start, dash_line = 0;
	bool spaced = false, layout3 = false;
	int ret = 0;

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
	if (layout3 && t->keys3[0])
		keys = t->keys3;
	for (ncols = 0; keys[ncols]; ncols++)
		;
	/* the dashes: host/OS columns and one a value column */
	if (i < ntk)
		dash_line = tk[i].line;
	for (; i < ntk && is_dashes(tk[i].s); i++)
		if (tk[i].line == dash_line && nspan < ARRAY_SIZE(span) / 2) {
			span[2 * nspan] = tk[i].col;
			span[2 * nspan + 1] = tk[i].col + strlen(tk[i].s) - 1;
			nspan++;
		}
	/* value columns: the last ncols dash runs of the line */
	if (nspan >= ncols) {
		memmove(span, span + 2 * (nspan - ncols), 2 * ncols * sizeof(span[0]));
		nspan = ncols;
	}
	while (i < ntk && !is_dashes(tk[i].s) && !ret) {
		size_t j, k, nv = 0;

		start = i;
		/* the name, then cells: to the end of the line or ncols of them */
		for (j = i; j < ntk && !is_dashes(tk[j].s); j++) {
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
			break;		/* not a row: the table is over */
		/* the rest of the line: another row (a joined copy), or text */
		for (k = j; k < ntk && tk[k].line == tk[start].line && !is_dashes(tk[k].s) &&
			    !is_cell(tk[k].s); k++)
			;
		if (k == ntk || tk[k].line != tk[start].line || is_dashes(tk[k].s))
			j = k;
		spaced = false;
		for (k = start; k + 1 < j; k++)
			if (tk[k + 1].line == tk[k].line &&
			    tk[k + 1].col > tk[k].col + strlen(tk[k].s) + 1)
				spaced = true;
		ret = put_row(im, t, keys, ncols, tk + start, j - start, span, nspan, spaced);
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
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 0, i;
	char *b = NULL, **l = NULL;
	ssize_t r;

	if (!f)
		return -errno;
	r = getdelim(&b, &len, '\0', f);
	fclose(f);
	if (r < 0) {
		free(b);
		return -EIO;
	}
	if (memchr(b, '\0', (size_t)r)) {
		free(b);
		return -EILSEQ;
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
				free(l);
				free(b);
				return -ENOMEM;
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
	struct raw st = { .mode = "" };
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
