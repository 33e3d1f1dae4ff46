// SPDX-License-Identifier: GPL-2.0
/*
 * netperf: network throughput and transaction rates as netperf's tests
 * measure them, against perfprobe's own netserver (a child on the
 * loopback unless PERFPROBE_NETSERVER names a remote one), over IPv4
 * ("net-" keys) and IPv6 ("net6-" keys):
 *
 *   tcp_stream   perfprobe sends, throughput as received by the server
 *   tcp_maerts   the server sends, throughput as received by perfprobe
 *   tcp_bidir    both at once on two connections (the seed's bidirectional
 *                figure, TCP_STREAM & TCP_MAERTS side by side): the sum
 *   tcp_rr       1-byte request/response: transactions/s, p50/p90/p99
 *   tcp_crr      connect, request/response, close: transactions/s
 *   udp_stream   unpaced numbered datagrams: throughput as received by the
 *                server, what was sent, loss from sequence-number gaps
 *   udp_rr       1-byte datagram request/response: transactions/s, p50..p99
 *
 * Each test lasts 2 s (300 ms with --quick, 10 s with --full; the
 * environment's PERFPROBE_NET_DURATION_MS overrides) split into
 * max(10, samples) intervals (max(5, samples) with --quick): the
 * result's samples are the intervals.
 * PERFPROBE_NET_TESTS=tcp_stream,udp_rr runs only the tests named.
 * CPU utilisation at both ends comes from /proc/stat over each interval,
 * service demand is CPU time (us) per KB (1024 bytes) moved.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "print.h"
#include "benchlib/ipc.h"
#include "net/netclient.h"

#define DUR_MS		2000
#define DUR_MS_QUICK	300
#define DUR_MS_FULL	10000
#define MIN_IV		10
#define MIN_IV_QUICK	5	/* longer intervals ride out a stall */

enum kind { K_STREAM, K_MAERTS, K_BIDIR, K_RR, K_CRR, K_UDP_STREAM, K_UDP_RR };

struct net_test {
	const char *name;
	enum kind kind;
	uint32_t size, size6;	/* IPv6: room for the larger header */
	const char *label, *label6;
	bool full_only;
};

static const struct net_test tests[] = {
	{ "tcp_stream", K_STREAM, 1448, 1448, "1448", "1448", false },
	{ "tcp_stream", K_STREAM, 65536, 65536, "64k", "64k", false },
	{ "tcp_maerts", K_MAERTS, 65536, 65536, "64k", "64k", false },
	{ "tcp_maerts", K_MAERTS, 1448, 1448, "1448", "1448", true },
	{ "tcp_bidir", K_BIDIR, 65536, 65536, "64k", "64k", false },
	{ "tcp_rr", K_RR, 1, 1, "1", "1", false },
	{ "tcp_crr", K_CRR, 1, 1, "1", "1", false },
	{ "udp_stream", K_UDP_STREAM, 1472, 1452, "1472", "1452", false },
	{ "udp_stream", K_UDP_STREAM, 18, 18, "18", "18", true },
	{ "udp_rr", K_UDP_RR, 1, 1, "1", "1", false },
};

struct net_run {
	struct pp_ctx *ctx;
	const struct pp_net_peer *peer;
	const char *prefix;	/* "net", "net6" */
	unsigned int n;
	uint32_t dur_ms;
	double tick_us;		/* one /proc/stat tick */
};

static enum pp_net_type type_of(enum kind k)
{
	static const enum pp_net_type t[] = {
		[K_STREAM] = PP_NET_TCP_STREAM, [K_MAERTS] = PP_NET_TCP_MAERTS,
		[K_BIDIR] = PP_NET_TCP_STREAM, [K_RR] = PP_NET_TCP_RR, [K_CRR] = PP_NET_TCP_CRR,
		[K_UDP_STREAM] = PP_NET_UDP_STREAM, [K_UDP_RR] = PP_NET_UDP_RR,
	};

	return t[k];
}

static int report_n(struct net_run *nr, const char *base, const char *suffix, const double *v,
		    unsigned int n, const struct pp_net_out *o)
{
	char key[PP_KEY_MAX];
	struct pp_result *r;

	snprintf(key, sizeof(key), "%s%s%s", base, suffix ? "-" : "", suffix ? suffix : "");
	if (pp_report(nr->ctx, key, v, n, 1))
		return -1;
	r = pp_run_find_mut(nr->ctx->run, key);
	if (r) {
		r->cpu_first = o->cpu_first;
		r->cpu_last = o->cpu_last;
		/* the kernel view is the test's, shown once: with its main figure */
		if (suffix)
			pp_kside_clear(&r->k);
	}
	return 0;
}

/* One sample an interval. */
static int report(struct net_run *nr, const char *base, const char *suffix, const double *v,
		  const struct pp_net_out *o)
{
	return report_n(nr, base, suffix, v, nr->n, o);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* CPU at both ends; service demand when bytes[] is given. */
static int report_cpu(struct net_run *nr, const char *base, const struct pp_net_out *o,
		      const double *bytes)
{
	double loc[PP_NET_MAX_IV], rem[PP_NET_MAX_IV], sdl[PP_NET_MAX_IV], sdr[PP_NET_MAX_IV];
	unsigned int i;
	int ret;

	for (i = 0; i < nr->n; i++) {
		const struct pp_net_iv *l = &o->loc[i], *s = &o->srv.iv[i];
		double kb = bytes ? bytes[i] / 1024.0 : 0;

		loc[i] = pct(l->busy, l->total);
		rem[i] = pct(s->busy, s->total);
		sdl[i] = kb > 0 ? (double)l->busy * nr->tick_us / kb : 0;
		sdr[i] = kb > 0 ? (double)s->busy * nr->tick_us / kb : 0;
	}
	ret = report(nr, base, "cpu_local", loc, o);
	if (!ret)
		ret = report(nr, base, "cpu_remote", rem, o);
	if (!ret && bytes)
		ret = report(nr, base, "sd_local", sdl, o);
	if (!ret && bytes)
		ret = report(nr, base, "sd_remote", sdr, o);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile q (0..1] of sorted v, in us. */
static double percentile_us(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);

	if (!n)
		return 0;
	return v[k ? k - 1 : 0] / 1000.0;
}

/*
 * A percentile of transactions timed one at a time.  Each is the
 * difference of two clock reads, so none can take less than one read:
 * a figure below the clock's read cost is impossible and is skipped with
 * the reason (measuring again cannot help: it would be a fault in the
 * timing), as is a test in which no interval completed a transaction.
 */
static int report_pct(struct net_run *nr, const char *base, const char *name,
		      const double *v, unsigned int n, const struct pp_net_out *o)
{
	double floor_us = nr->ctx->run->meta.clock.read_cost_ns / 1000.0;
	char key[PP_KEY_MAX], a[PP_NUM_LEN], b[PP_NUM_LEN];
	unsigned int i;

	snprintf(key, sizeof(key), "%s-%s", base, name);
	if (!n) {
		pp_skip(nr->ctx, key, "no transaction completed in any interval");
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (v[i] < floor_us) {
			pp_fmt_num(a, sizeof(a), v[i]);
			pp_fmt_num(b, sizeof(b), floor_us * 1000.0);
			pp_skip(nr->ctx, key, "%s us is below the clock's read cost (%s ns): "
				"impossible, not reported", a, b);
			return 0;
		}
	}
	return report_n(nr, base, name, v, n, o);
}

static int report_rr(struct net_run *nr, const char *base, struct pp_net_out *o)
{
	static const struct { const char *name; double q; } qs[] = {
		{ "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 },
	};
	double tps[PP_NET_MAX_IV], p[3][PP_NET_MAX_IV], secs = (double)o->iv_ns * 1e-9;
	unsigned int i, j, n = 0;
	int ret;

	for (i = 0; i < nr->n; i++) {
		struct pp_net_lat *l = &o->lat[i];

		tps[i] = (double)o->loc[i].pkts / secs;
		/* an interval without a transaction has no percentile */
		if (!l->n)
			continue;
		qsort(l->ns, l->n, sizeof(*l->ns), cmp_double);
		for (j = 0; j < 3; j++)
			p[j][n] = percentile_us(l->ns, l->n, qs[j].q);
		n++;
	}
	ret = report(nr, base, NULL, tps, o);
	for (j = 0; !ret && j < 3; j++)
		ret = report_pct(nr, base, qs[j].name, p[j], n, o);
	return ret ? ret : report_cpu(nr, base, o, NULL);
}

static double mbit(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8.0 / ((double)ns * 1e-9) / 1e6 : 0;
}

static int report_stream(struct net_run *nr, const char *base, const struct pp_net_out *o,
			 const struct pp_net_out *o2, enum kind k)
{
	double v[PP_NET_MAX_IV], bytes[PP_NET_MAX_IV];
	uint64_t srv_ns = o->srv.window_ns / nr->n;
	unsigned int i;

	for (i = 0; i < nr->n; i++) {
		uint64_t b = k == K_MAERTS ? o->loc[i].rx : o->srv.iv[i].rx;

		if (k == K_BIDIR)
			b += o2->loc[i].rx;
		bytes[i] = (double)b;
		v[i] = mbit(b, k == K_MAERTS ? o->iv_ns : srv_ns);
	}
	if (report(nr, base, NULL, v, o))
		return -1;
	return report_cpu(nr, base, o, bytes);
}

static int report_udp_stream(struct net_run *nr, const char *base, const struct pp_net_out *o)
{
	double sent[PP_NET_MAX_IV], loss[PP_NET_MAX_IV];
	unsigned int i;
	int ret;

	for (i = 0; i < nr->n; i++) {
		const struct pp_net_iv *s = &o->srv.iv[i];

		sent[i] = mbit(o->loc[i].tx, o->iv_ns);
		loss[i] = pct(s->gaps, s->pkts + s->gaps);
	}
	ret = report_stream(nr, base, o, NULL, K_UDP_STREAM);
	if (!ret)
		ret = report(nr, base, "sent", sent, o);
	if (!ret)
		ret = report(nr, base, "loss_pct", loss, o);
	if (!ret)
		pp_progress(nr->ctx, "%s: %llu of %llu datagrams lost (%.2f%%); socket buffers: "
			    "ours sndbuf %u, netserver rcvbuf %u", base,
			    (unsigned long long)o->srv.lost, (unsigned long long)o->sent_pkts,
			    pct(o->srv.lost, o->sent_pkts), o->sndbuf, o->srv.rcvbuf);
	return ret;
}

/* TCP_MAERTS in a child, its result through a pipe: the other direction. */
static pid_t bidir_start(struct net_run *nr, const struct pp_net_req *rq, int *rfd)
{
	struct pp_net_req req = *rq;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = pp_child_fork();
	if (pid == 0) {
		struct pp_net_out *o = calloc(1, sizeof(*o));

		close(p[0]);
		req.type = PP_NET_TCP_MAERTS;
		if (!o || pp_net_run(nr->peer, &req, o))
			_exit(1);
		_exit(pp_write_full(p[1], o, sizeof(*o)) ? 1 : 0);
	}
	close(p[1]);
	*rfd = p[0];
	if (pid < 0)
		close(p[0]);
	return pid;
}

static int bidir_finish(struct net_run *nr, pid_t pid, int rfd, struct pp_net_out *o2)
{
	struct pollfd p = { .fd = rfd, .events = POLLIN };
	int ret = -ETIMEDOUT;

	if (poll(&p, 1, (int)nr->dur_ms + 2 * PP_NET_CTL_TIMEOUT_MS) > 0)
		ret = pp_read_full(rfd, o2, sizeof(*o2));
	memset(o2->lat, 0, sizeof(o2->lat));	/* the child's pointers */
	close(rfd);
	pp_child_stop(pid);
	return ret;
}

static void note(struct net_run *nr, const char *base, const struct pp_net_out *o)
{
	char how[32];

	if (nr->ctx->opts.pin_cpu >= 0)
		snprintf(how, sizeof(how), "pinned to CPU %d", nr->ctx->opts.pin_cpu);
	else
		snprintf(how, sizeof(how), "scheduler's choice");
	pp_progress(nr->ctx, "%s: placement (%s): perfprobe CPU %d->%d, netserver CPU %d->%d (%s)",
		    base, how, o->cpu_first, o->cpu_last, o->srv.cpu_first, o->srv.cpu_last,
		    nr->peer->name);
}

/* Sum of one field over the intervals of o. */
static uint64_t iv_sum(const struct pp_net_out *o, size_t off)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < o->n; i++)
		n += *(const uint64_t *)((const char *)&o->loc[i] + off);
	return n;
}

#define IV_SUM(o, field)	iv_sum(o, offsetof(struct pp_net_iv, field))

/*
 * What the kernel view counts per: a message of the test's size sent
 * (TCP_STREAM, UDP_STREAM) or received (TCP_MAERTS; bidir: both ways),
 * a transaction (RR, CRR).  All of a run's (what its trace sees), or
 * those of its measurement window (window).
 */
static uint64_t ops_of(enum kind k, uint32_t size, const struct pp_net_out *o,
		       const struct pp_net_out *o2, bool window)
{
	switch (k) {
	case K_STREAM:
		return (window ? IV_SUM(o, tx) : o->sent_bytes) / size;
	case K_MAERTS:
		return IV_SUM(o, rx) / size;
	case K_BIDIR:
		return ((window ? IV_SUM(o, tx) : o->sent_bytes) + IV_SUM(o2, rx)) / size;
	case K_RR:
		return IV_SUM(o, pkts);
	case K_UDP_STREAM:
		return window ? IV_SUM(o, pkts) : o->sent_pkts;
	default:	/* UDP_RR, CRR: every request is in the window */
		return o->sent_pkts;
	}
}

/* A test, and where its outputs go (the bidir test's TCP_MAERTS half in o2). */
struct net_job {
	struct net_run *nr;
	const struct net_test *t;
	struct pp_net_out *o, *o2;
};

/*
 * Run req once, and its TCP_MAERTS half in a child for bidir: 0, or
 * -errno with why filled.  *ops: all its operations (ops_of()); *ns:
 * the time of one in its measurement window.
 */
static int run_once(const struct net_job *j, const struct pp_net_req *req, uint64_t *ops,
		    double *ns, char *why, size_t whylen)
{
	struct pp_net_out *o = j->o, *o2 = j->o2;
	int rfd = -1, ret, r2;
	pid_t pid = -1;
	uint64_t w;

	if (j->t->kind == K_BIDIR) {
		pid = bidir_start(j->nr, req, &rfd);
		if (pid < 0) {
			ret = -errno;
			snprintf(why, whylen, "fork: %s", strerror(errno));
			return ret;
		}
	}
	ret = pp_net_run(j->nr->peer, req, o);
	if (pid > 0) {
		r2 = bidir_finish(j->nr, pid, rfd, o2);
		if (!ret && r2) {
			snprintf(why, whylen, "the TCP_MAERTS half failed: %s", strerror(-r2));
			return r2;
		}
	}
	if (ret) {
		snprintf(why, whylen, "%s", o->err);
		return ret;
	}
	*ops = ops_of(j->t->kind, req->size, o, o2, false);
	w = ops_of(j->t->kind, req->size, o, o2, true);
	*ns = w ? (double)(o->iv_ns * o->n) / (double)w : 0;
	return 0;
}

static struct pp_net_req test_req(const struct net_run *nr, const struct net_test *t)
{
	bool v6 = nr->peer->af == AF_INET6;
	struct pp_net_req req = {
		.type = type_of(t->kind), .family = v6 ? 6 : 4, .size = v6 ? t->size6 : t->size,
		.duration_ms = nr->dur_ms, .intervals = nr->n, .id = (uint32_t)random(),
		.rcvbuf = t->kind == K_UDP_STREAM ? PP_NET_UDP_SOCKBUF : 0,
	};

	return req;
}

/*
 * The kernel view (kernel/kview.c) of a test: each traced chunk is the
 * test again in one interval of a twentieth of its length (50 ms at
 * least), so two passes of three chunks add about 30% to its time.
 */
#define KV_DIV		20
#define KV_MIN_MS	50

static int net_kv_work(void *arg, uint64_t *ops, double *ns)
{
	struct net_job *kv = arg;	/* scratch outputs: the test's own are reported after */
	struct pp_net_req req = test_req(kv->nr, kv->t);
	char why[200];
	int ret;

	req.duration_ms = kv->nr->dur_ms / KV_DIV;
	if (req.duration_ms < KV_MIN_MS)
		req.duration_ms = KV_MIN_MS;
	req.intervals = 1;
	ret = run_once(kv, &req, ops, ns, why, sizeof(why));
	if (ret)
		pp_dbg("netperf: a traced run: %s", why);
	return ret;
}

/* A netserver that answered "ERR busy" before the test ran: say so. */
static void busy_note(struct net_run *nr, const char *base, const struct pp_net_out *o,
		      const struct pp_net_out *o2)
{
	unsigned int tries = o->busy_tries + (o2 ? o2->busy_tries : 0);
	uint64_t ms = o2 && o2->busy_ms > o->busy_ms ? o2->busy_ms : o->busy_ms;

	if (tries)
		pp_progress(nr->ctx, "%s: the netserver was busy: the test ran after %u tries, "
			    "%llu ms", base, tries, (unsigned long long)ms);
}

static int one_test(struct net_run *nr, const struct net_test *t, struct pp_net_out *o,
		    struct pp_net_out *o2)
{
	struct pp_net_req req = test_req(nr, t);
	struct net_job job = { nr, t, o, o2 }, kv = { nr, t, o + 1, o2 + 1 };
	char base[PP_KEY_MAX], why[200];
	uint64_t ops = 0;
	double ns = 0;
	int ret;

	snprintf(base, sizeof(base), "%s-%s-%s", nr->prefix, t->name,
		 nr->peer->af == AF_INET6 ? t->label6 : t->label);
	ret = run_once(&job, &req, &ops, &ns, why, sizeof(why));
	if (ret)
		return pp_fail(nr->ctx, "%s (%s): %s", base, nr->peer->name, why);
	busy_note(nr, base, o, t->kind == K_BIDIR ? o2 : NULL);
	note(nr, base, o);
	pp_kview_work(nr->ctx, net_kv_work, &kv, ns);
	switch (t->kind) {
	case K_RR:
	case K_UDP_RR:
		if (o->rr_lost)
			pp_progress(nr->ctx, "%s: %llu requests unanswered within 50 ms", base,
				    (unsigned long long)o->rr_lost);
		return report_rr(nr, base, o);
	case K_CRR:
		return report_rr(nr, base, o);
	case K_UDP_STREAM:
		return report_udp_stream(nr, base, o);
	default:
		return report_stream(nr, base, o, o2, t->kind);
	}
}

/* PERFPROBE_NET_TESTS=tcp_stream,tcp_rr: only those tests (unset: all). */
static bool wanted(const char *name)
{
	const char *list = getenv("PERFPROBE_NET_TESTS"), *p;
	size_t len = strlen(name);

	if (!list || !*list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
			return true;
	return false;
}

/* Everything for one address family; 0, 1 (skipped) or -1. */
static int one_family(struct pp_ctx *ctx, int af, struct pp_net_out *o, struct pp_net_out *o2)
{
	struct net_run nr = { .ctx = ctx, .prefix = af == AF_INET6 ? "net6" : "net" };
	struct pp_net_peer peer;
	const char *env = getenv("PERFPROBE_NET_DURATION_MS");
	char why[200];
	unsigned int i;
	uint64_t d;
	int ret = 0;

	ret = pp_net_peer_get(&peer, af, why, sizeof(why));
	if (ret > 0)
		return pp_skip(ctx, nr.prefix, "%s", why);
	if (ret < 0)
		return pp_fail(ctx, "%s: %s", nr.prefix, why);
	nr.peer = &peer;
	d = ctx->opts.quick ? MIN_IV_QUICK : MIN_IV;
	nr.n = ctx->opts.samples > d ? ctx->opts.samples : (unsigned int)d;
	if (nr.n > PP_NET_MAX_IV)
		nr.n = PP_NET_MAX_IV;
	nr.dur_ms = ctx->opts.quick ? DUR_MS_QUICK : ctx->opts.full ? DUR_MS_FULL : DUR_MS;
	if (env && !pp_parse_u64(env, PP_NET_MIN_MS, PP_NET_MAX_MS, &d))
		nr.dur_ms = (uint32_t)d;
	nr.tick_us = 1e6 / (double)sysconf(_SC_CLK_TCK);
	pp_progress(ctx, "%s: netserver %s%s, %u ms per test in %u intervals", nr.prefix,
		    peer.name, peer.pid > 0 ? " (ours)" : "", nr.dur_ms, nr.n);
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].full_only && !ctx->opts.full)
			continue;
		if (!wanted(tests[i].name))
			continue;
		if (one_test(&nr, &tests[i], o, o2) < 0)
			ret = -1;
	}
	pp_net_peer_stop(&peer);
	return ret;
}

static int netperf_run(struct pp_ctx *ctx)
{
	/* [0] the test's, [1] the kernel view's scratch */
	struct pp_net_out *o = calloc(2, sizeof(*o)), *o2 = calloc(2, sizeof(*o2));
	unsigned int i;
	struct sigaction old;
	int r4 = -1, r6 = -1, ret;

	if (!o || !o2) {
		ret = pp_fail(ctx, "out of memory");
		goto free_outs;
	}
	pp_sigpipe_ignore(&old);
	r4 = one_family(ctx, AF_INET, o, o2);
	r6 = one_family(ctx, AF_INET6, o, o2);
	pp_sigpipe_restore(&old);
	for (i = 0; i < 2; i++) {
		pp_net_out_free(&o[i]);
		pp_net_out_free(&o2[i]);
	}
	ret = r4 < 0 || r6 < 0 ? -1 : r4 || r6;
free_outs:
	free(o);
	free(o2);
	return ret;
}

/* Beyond lmbench: tables of netperf's figures, in its Mbit/s. */
static const struct pp_key_table tables[] = {
	{ "net", "Network throughput (netperf) in Mbit/s - bigger is better", 0 },
	{ "net-rr", "Network transactions/s (netperf; p99 in microseconds) - bigger is better", 0 },
	{ NULL, NULL, 0 }
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "net-tcp_stream-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_STREAM: perfprobe sends, message size",
	  .show = PP_SHOW({ .key = "net-tcp_stream-1448", PP_COL("net", 1, " TCP  ", " 1448 ", 6, 0) },
		  { .key = "net-tcp_stream-64k", PP_COL("net", 2, " TCP  ", " 64K  ", 6, 0) }) },
	{ .pattern = "net-tcp_maerts-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_MAERTS: the server sends",
	  .show = PP_SHOW({ .key = "net-tcp_maerts-64k", PP_COL("net", 3, "MAERTS", " 64K  ", 6, 0) }) },
	{ .pattern = "net-tcp_bidir-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "both directions at once: the sum",
	  .show = PP_SHOW({ .key = "net-tcp_bidir-64k", PP_COL("net", 4, "Bidir ", " 64K  ", 6, 0) }) },
	{ .pattern = "net-udp_stream-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_STREAM: as received by the server",
	  .show = PP_SHOW({ .key = "net-udp_stream-1472", PP_COL("net", 5, " UDP  ", " 1472 ", 6, 0) }) },
	{ .pattern = "net-udp_stream-%s-sent", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_STREAM: as sent" },
	{ .pattern = "net-udp_stream-%s-loss_pct", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "UDP_STREAM: datagrams lost" },
	{ .pattern = "net-%s-%s-cpu_local", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy here during a test" },
	{ .pattern = "net-%s-%s-cpu_remote", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy at the server during a test" },
	{ .pattern = "net-%s-%s-sd_local", .unit = "us/KB", .dir = PP_LOWER_IS_BETTER,
	  .desc = "service demand here: CPU us per KB moved" },
	{ .pattern = "net-%s-%s-sd_remote", .unit = "us/KB", .dir = PP_LOWER_IS_BETTER,
	  .desc = "service demand at the server" },
	{ .pattern = "net-tcp_rr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_RR: request/response transactions, size",
	  .show = PP_SHOW({ .key = "net-tcp_rr-1", PP_COL("net-rr", 1, "TCP_RR", "      ", 6, 0) }) },
	{ .pattern = "net-tcp_crr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_CRR: connect, request/response, close",
	  .show = PP_SHOW({ .key = "net-tcp_crr-1", PP_COL("net-rr", 3, "TCP_CRR", "       ", 7, 0) }) },
	{ .pattern = "net-udp_rr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_RR: datagram request/response",
	  .show = PP_SHOW({ .key = "net-udp_rr-1", PP_COL("net-rr", 4, "UDP_RR", "      ", 6, 0) }) },
	{ .pattern = "net-%s-%u-p%u", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a request/response test's latency percentile (p50 p90 p99)",
	  .show = PP_SHOW({ .key = "net-tcp_rr-1-p99", PP_COL("net-rr", 2, " RR  ", " p99 ", 5, 1) }) },
	{ .pattern = "net6-tcp_stream-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_STREAM over IPv6: perfprobe sends, message size",
	  .show = PP_SHOW({ .key = "net6-tcp_stream-64k", PP_COL("net", 6, " TCP6 ", " 64K  ", 6, 0) }) },
	{ .pattern = "net6-tcp_maerts-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_MAERTS over IPv6: the server sends" },
	{ .pattern = "net6-tcp_bidir-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "both directions at once over IPv6: the sum" },
	{ .pattern = "net6-udp_stream-%s", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_STREAM over IPv6: as received by the server",
	  .show = PP_SHOW({ .key = "net6-udp_stream-1452", PP_COL("net", 7, " UDP6 ", " 1452 ", 6, 0) }) },
	{ .pattern = "net6-udp_stream-%s-sent", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_STREAM over IPv6: as sent" },
	{ .pattern = "net6-udp_stream-%s-loss_pct", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "UDP_STREAM over IPv6: datagrams lost" },
	{ .pattern = "net6-%s-%s-cpu_local", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy here during a test over IPv6" },
	{ .pattern = "net6-%s-%s-cpu_remote", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy at the server during a test over IPv6" },
	{ .pattern = "net6-%s-%s-sd_local", .unit = "us/KB", .dir = PP_LOWER_IS_BETTER,
	  .desc = "service demand here: CPU us per KB moved over IPv6" },
	{ .pattern = "net6-%s-%s-sd_remote", .unit = "us/KB", .dir = PP_LOWER_IS_BETTER,
	  .desc = "service demand at the server over IPv6" },
	{ .pattern = "net6-tcp_rr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_RR over IPv6: request/response transactions, size",
	  .show = PP_SHOW({ .key = "net6-tcp_rr-1", PP_COL("net-rr", 5, "RR6   ", "      ", 6, 0) }) },
	{ .pattern = "net6-tcp_crr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP_CRR over IPv6: connect, request/response, close" },
	{ .pattern = "net6-udp_rr-%u", .unit = "trans/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP_RR over IPv6: datagram request/response" },
	{ .pattern = "net6-%s-%u-p%u", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a request/response test's latency percentile (p50 p90 p99) over IPv6" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_netperf = {
	.name = "netperf",
	.group = "net",
	.summary = "netperf tests (TCP_STREAM, MAERTS, bidir, RR, CRR, UDP) IPv4+IPv6 (Mbit/s)",
	.keys = keys,
	.tables = tables,
	.run = netperf_run,
	.by_name = true,
};
