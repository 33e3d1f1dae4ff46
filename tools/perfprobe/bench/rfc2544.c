// SPDX-License-Identifier: GPL-2.0
/*
 * rfc2544: UDP throughput by frame size as RFC 2544 section 26.1 defines
 * it (the highest offered rate at which no frame is lost), as vendor
 * performance guides report it with netperf: frames of 64, 128, 256, 1024
 * and 1518 bytes, UDP payload = frame - 46 (Ethernet header 14 + FCS 4 +
 * IPv4 20 + UDP 8).
 *
 * For each frame size: one unpaced trial gives the highest rate the
 * sender reaches; a binary search on the offered rate, one fixed-length
 * trial per step, finds PDR (loss <= 0.5%) and then NDR (no loss) below
 * it.  Loss is counted by the netserver from the sequence numbers of the
 * datagrams and the count the client sent.  Kernel UDP loss is noisy and
 * not monotone in the rate, so a found rate is only reported after k of k
 * validation trials at that rate pass (k = 2 / 3 / 5 for --quick /
 * default / --full); when one fails the rate is lowered (by 20% / 10%) and
 * validated again, a few times, and the key is skipped (with how many
 * trials passed) when nothing validates.  A rate that failed validation
 * is never reported.
 *
 * Pacing: see netclient.c (bursts on CLOCK_MONOTONIC, busy-wait).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchlib/ipc.h"
#include "net/netclient.h"

#define FRAME_OVERHEAD	46
#define PDR_LOSS_PCT	0.5
#define MIN_IV		10
#define PACE_OK		0.95	/* a paced trial must offer this much of its rate */

static const unsigned int frames[] = { 64, 128, 256, 1024, 1518 };

struct mode {
	uint32_t trial_ms;
	unsigned int k;		/* validation trials that must all pass */
	double res;		/* the search stops at this relative width */
	unsigned int retries;	/* lower-and-revalidate rounds */
	double step;		/* the rate after a failed validation */
};

static const struct mode quick = { 100, 2, 0.20, 1, 0.7 };
static const struct mode normal = { 1000, 3, 0.02, 3, 0.9 };
static const struct mode full = { 1000, 5, 0.01, 4, 0.9 };

/* The passing validation trials of a rate: the reported samples. */
struct valid {
	double mbit[PP_MAX_SAMPLES], fps[PP_MAX_SAMPLES];
	double cpu_loc[PP_MAX_SAMPLES], cpu_rem[PP_MAX_SAMPLES], loss[PP_MAX_SAMPLES];
	unsigned int n;
	double offered_sum;	/* pps really sent, summed over the trials */
	int cpu_first, cpu_last;
};

struct search {
	struct pp_ctx *ctx;
	const struct pp_net_peer *peer;
	const struct mode *md;
	struct pp_net_out *o, *kvo;	/* the trials', the kernel view's */
	double kv_pps;			/* the rate the kernel view traces */
	uint32_t size;
	unsigned int frame, ivs, trials, invalid;
	double max_pps;
	double zero_pps;	/* the highest paced rate a trial lost nothing at */
	double offered;		/* what the last trial really sent, pps */
	struct valid v, ndr;
	char tried[200];
};

static double mbit_of(const struct search *s, double pps)
{
	return pps * s->size * 8.0 / 1e6;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static int trial_once(struct search *s, double pps, double *loss)
{
	struct pp_net_req req = {
		.type = PP_NET_UDP_STREAM, .family = 4, .size = s->size,
		.duration_ms = s->md->trial_ms, .intervals = s->ivs,
		.rate_pps = (uint64_t)pps, .id = (uint32_t)random(), .rcvbuf = PP_NET_UDP_SOCKBUF,
	};
	struct pp_net_out *o = s->o;

	s->trials++;
	if (pp_net_run(s->peer, &req, o))
		return pp_fail(s->ctx, "rfc2544-%u: trial at %.0f pps: %s", s->frame, pps, o->err);
	if (o->busy_tries)
		pp_progress(s->ctx, "rfc2544-%u: the netserver was busy: the trial ran after %u "
			    "tries, %llu ms", s->frame, o->busy_tries,
			    (unsigned long long)o->busy_ms);
	*loss = o->sent_pkts ? 100.0 * (double)o->srv.lost / (double)o->sent_pkts : 100;
	s->offered = (double)o->sent_pkts * 1e3 / s->md->trial_ms;
	pp_dbg("rfc2544-%u: %.0f pps asked (%.1f Mbit/s, bursts of %u): %.0f pps sent, %llu "
	       "lost (%.3f%%)", s->frame, pps, mbit_of(s, pps), o->burst, s->offered,
	       (unsigned long long)o->srv.lost, *loss);
	return 0;
}

/*
 * One trial at pps (0: unpaced); its loss in percent, or < 0 on failure.
 * A paced trial whose sender did not offer PACE_OK of the rate (it was
 * descheduled too long to catch up) did not show the rate can be carried:
 * it fails, as a trial with loss does.
 */
static double trial(struct search *s, double pps)
{
	double loss = 100;

	if (trial_once(s, pps, &loss))
		return -1;
	if (pps && s->offered < pps * PACE_OK) {
		s->invalid++;
		return 100;
	}
	if (loss == 0 && pps > s->zero_pps)
		s->zero_pps = pps;
	return loss;
}

/* Binary search in [lo, hi] pps for the highest rate whose trial loses <= max. */
static int bisect(struct search *s, double max_loss, double *lo, double *hi)
{
	while (*hi - *lo > *hi * s->md->res) {
		double mid = (*lo + *hi) / 2, loss = trial(s, mid);

		if (loss < 0)
			return -1;
		if (loss <= max_loss)
			*lo = mid;
		else
			*hi = mid;
	}
	return 0;
}

/* k trials at pps; how many passed, the passing ones kept in s->v. */
static int validate(struct search *s, double pps, double max_loss)
{
	double iv_s = (double)s->md->trial_ms / 1e3 / s->ivs;
	struct valid *v = &s->v;
	unsigned int i, j, passed = 0;

	memset(v, 0, sizeof(*v));
	v->cpu_first = -1;
	for (i = 0; i < s->md->k; i++) {
		double loss = trial(s, pps);

		if (loss < 0)
			return -1;
		if (loss > max_loss)
			continue;
		passed++;
		v->offered_sum += s->offered;
		if (v->cpu_first < 0)
			v->cpu_first = s->o->cpu_first;
		v->cpu_last = s->o->cpu_last;
		for (j = 0; j < s->ivs && v->n < PP_MAX_SAMPLES; j++, v->n++) {
			const struct pp_net_iv *sv = &s->o->srv.iv[j], *lv = &s->o->loc[j];

			v->mbit[v->n] = (double)sv->rx * 8 / iv_s / 1e6;
			v->fps[v->n] = (double)sv->pkts / iv_s;
			v->cpu_loc[v->n] = pct(lv->busy, lv->total);
			v->cpu_rem[v->n] = pct(sv->busy, sv->total);
			v->loss[v->n] = pct(sv->gaps, sv->pkts + sv->gaps);
		}
	}
	return (int)passed;
}

/*
 * The kernel view (kernel/kview.c) of a reported rate, per frame sent: a
 * trial at that rate of a twentieth of a trial's length (50 ms at least)
 * a traced chunk.  The sender is paced: the probes' cost goes into its
 * waits, so the time per frame stays the rate's while it keeps up.
 */
#define KV_DIV		20
#define KV_MIN_MS	50

static int kv_trial(void *arg, uint64_t *ops, double *ns)
{
	struct search *s = arg;
	struct pp_net_req req = {
		.type = PP_NET_UDP_STREAM, .family = 4, .size = s->size,
		.duration_ms = s->md->trial_ms / KV_DIV, .intervals = 1,
		.rate_pps = (uint64_t)s->kv_pps, .id = (uint32_t)random(),
		.rcvbuf = PP_NET_UDP_SOCKBUF,
	};
	int ret;

	if (req.duration_ms < KV_MIN_MS)
		req.duration_ms = KV_MIN_MS;
	ret = pp_net_run(s->peer, &req, s->kvo);
	if (ret)
		pp_dbg("rfc2544-%u: a traced trial: %s", s->frame, s->kvo->err);
	*ops = s->kvo->sent_pkts;
	/* the sender's window: the trial's set-up is not a frame's time */
	if (*ops)
		*ns = (double)req.duration_ms * 1e6 / (double)*ops;
	return ret;
}

/* A figure beside a rate's Mbit/s: the same view, shown once, with the Mbit/s. */
static int report_more(struct search *s, const char *what, const char *name, const double *v,
		       unsigned int n)
{
	char key[PP_KEY_MAX];
	struct pp_result *r;

	snprintf(key, sizeof(key), "rfc2544-%s-%u-%s", what, s->frame, name);
	if (pp_report(s->ctx, key, v, n, 1))
		return -1;
	r = pp_run_find_mut(s->ctx->run, key);
	if (r)
		pp_kside_clear(&r->k);
	return 0;
}

static int report(struct search *s, const char *what, double pps, double max_loss,
		  const struct valid *v)
{
	double conf = 1 - pow(0.05, 1.0 / s->md->k), offered = v->offered_sum / s->md->k;
	char key[PP_KEY_MAX];
	struct pp_result *r;

	s->kv_pps = pps;
	pp_kview_work(s->ctx, kv_trial, s, offered > 0 ? 1e9 / offered : 0);
	snprintf(key, sizeof(key), "rfc2544-%s-%u", what, s->frame);
	if (pp_report(s->ctx, key, v->mbit, v->n, 1))
		return -1;
	r = pp_run_find_mut(s->ctx->run, key);
	if (r) {
		r->cpu_first = v->cpu_first;
		r->cpu_last = v->cpu_last;
	}
	if (report_more(s, what, "fps", v->fps, v->n) ||
	    report_more(s, what, "cpu_local", v->cpu_loc, v->n) ||
	    report_more(s, what, "cpu_remote", v->cpu_rem, v->n) ||
	    (max_loss > 0 && report_more(s, what, "loss_pct", v->loss, v->n)))
		return -1;
	snprintf(key, sizeof(key), "rfc2544-%s-%u-validation", what, s->frame);
	pp_info(s->ctx, key, "%.1f Mbit/s asked, %.1f offered (%.0f frames/s of %u bytes, "
		"UDP payload %u): loss <= %.1f%% in %u of %u validation trials; with 95%% "
		"confidence a trial at this rate exceeds it with probability < %.0f%%",
		mbit_of(s, pps), mbit_of(s, offered), offered, s->frame, s->size, max_loss,
		s->md->k, s->md->k, conf * 100);
	return 0;
}

/*
 * Validate pps, lowering it after each failure while above floor:
 * the rate that passed k of k (its trials in s->v), 0 if none, < 0 on error.
 */
static double confirm(struct search *s, const char *what, double pps, double floor,
		      double max_loss)
{
	size_t len = 0;
	unsigned int i;

	s->tried[0] = '\0';
	for (i = 0; i <= s->md->retries && pps >= 1 && pps > floor * 1.001;
	     i++, pps *= s->md->step) {
		int passed = validate(s, pps, max_loss);

		if (passed < 0)
			return -1;
		if ((unsigned int)passed == s->md->k)
			return pps;
		if (len < sizeof(s->tried))
			len += snprintf(s->tried + len, sizeof(s->tried) - len,
					"%s%.1f Mbit/s %d/%u", len ? ", " : "", mbit_of(s, pps),
					passed, s->md->k);
		pp_progress(s->ctx, "rfc2544-%s-%u: %.1f Mbit/s passed only %d of %u validation "
			    "trials", what, s->frame, mbit_of(s, pps), passed, s->md->k);
	}
	return 0;
}

static int skip(struct search *s, const char *what)
{
	char key[PP_KEY_MAX];

	snprintf(key, sizeof(key), "rfc2544-%s-%u", what, s->frame);
	return pp_skip(s->ctx, key, "no rate passed %u of %u validation trials (%s)", s->md->k,
		       s->md->k, s->tried[0] ? s->tried : "no rate left");
}

/*
 * NDR first; PDR above it.  The NDR rate's trials lost nothing, so they
 * pass PDR's test too: when no higher rate validates, PDR is NDR's rate.
 */
static int confirm_both(struct search *s, double ndr_pps, double pdr_pps)
{
	double ndr = confirm(s, "ndr", ndr_pps, 0, 0), pdr;
	int r1, r2;

	if (ndr < 0)
		return -1;
	r1 = ndr > 0 ? report(s, "ndr", ndr, 0, &s->v) : skip(s, "ndr");
	s->ndr = s->v;
	pdr = pdr_pps > ndr ? confirm(s, "pdr", pdr_pps, ndr, PDR_LOSS_PCT) : 0;
	if (pdr < 0)
		return -1;
	if (pdr > 0)
		r2 = report(s, "pdr", pdr, PDR_LOSS_PCT, &s->v);
	else if (ndr > 0)
		r2 = report(s, "pdr", ndr, PDR_LOSS_PCT, &s->ndr);
	else
		r2 = skip(s, "pdr");
	if (r1 < 0 || r2 < 0)
		return -1;
	return r1 || r2;
}

static int one_frame(struct search *s, unsigned int frame)
{
	double lo = 0, hi, loss, pdr_lo, pdr_hi;
	char name[PP_KEY_MAX];
	int ret;

	s->frame = frame;
	s->size = frame - FRAME_OVERHEAD;
	s->trials = s->invalid = 0;
	s->zero_pps = 0;
	loss = trial(s, 0);
	if (loss < 0)
		return -1;
	/* The sender's own limit, and a first point of the search. */
	s->max_pps = (double)s->o->sent_pkts * 1e3 / s->md->trial_ms;
	hi = s->max_pps;
	if (bisect(s, PDR_LOSS_PCT, &lo, &hi))
		return -1;
	pdr_lo = lo;
	pdr_hi = hi;
	/* NDR: at or below PDR's failing bound, above any loss-free trial. */
	lo = s->zero_pps < pdr_hi ? s->zero_pps : 0;
	hi = pdr_hi;
	if (bisect(s, 0, &lo, &hi))
		return -1;
	ret = confirm_both(s, lo > 0 ? lo : hi / 2, pdr_lo > 0 ? pdr_lo : pdr_hi / 2);
	snprintf(name, sizeof(name), "rfc2544-%u-search", frame);
	pp_info(s->ctx, name, "%u trials of %u ms (%u failed as the sender fell behind), "
		"unpaced sender %.1f Mbit/s; socket buffers: sndbuf %u, netserver rcvbuf %u",
		s->trials, s->md->trial_ms, s->invalid, mbit_of(s, s->max_pps), s->o->sndbuf,
		s->o->srv.rcvbuf);
	return ret;
}

static int rfc2544_run(struct pp_ctx *ctx)
{
	struct search s = { .ctx = ctx };
	struct pp_net_peer peer;
	struct sigaction old;
	char why[200];
	unsigned int i;
	int ret, r, any = 0;

	s.md = ctx->opts.quick ? &quick : ctx->opts.full ? &full : &normal;
	s.ivs = (ctx->opts.samples + s.md->k - 1) / s.md->k;
	if (s.ivs < MIN_IV)
		s.ivs = MIN_IV;
	if (s.ivs > PP_NET_MAX_IV)
		s.ivs = PP_NET_MAX_IV;
	ret = pp_net_peer_get(&peer, AF_INET, why, sizeof(why));
	if (ret > 0)
		return pp_skip(ctx, NULL, "%s", why);
	if (ret < 0)
		return pp_fail(ctx, "%s", why);
	s.peer = &peer;
	s.o = calloc(2, sizeof(*s.o));
	if (!s.o) {
		pp_net_peer_stop(&peer);
		return pp_fail(ctx, "out of memory");
	}
	s.kvo = s.o + 1;
	pp_progress(ctx, "rfc2544: netserver %s%s; trials of %u ms, %u validation trials, search "
		    "to %.0f%%", peer.name, peer.pid > 0 ? " (ours)" : "", s.md->trial_ms, s.md->k,
		    s.md->res * 100);
	pp_sigpipe_ignore(&old);
	for (i = 0, ret = 0; i < ARRAY_SIZE(frames) && ret >= 0; i++) {
		r = one_frame(&s, frames[i]);
		if (r < 0)
			ret = -1;
		else if (r)
			any = 1;
	}
	pp_sigpipe_restore(&old);
	pp_net_out_free(s.o);
	pp_net_out_free(s.kvo);
	free(s.o);
	pp_net_peer_stop(&peer);
	return ret < 0 ? -1 : any;
}

static const struct pp_key_table tables[] = {
	{ "rfc2544", "RFC 2544 UDP throughput in Mbit/s by frame size (bytes) - bigger is better",
	  0 },
	{ NULL, NULL, 0 }
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "rfc2544-%s-%u", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP throughput at no drop (ndr) or partial drop (pdr), frame size",
	  .show = PP_SHOW({ .key = "rfc2544-ndr-64", PP_COL("rfc2544", 1, "NDR   ", "  64  ", 6, 1) },
		  { .key = "rfc2544-ndr-128", PP_COL("rfc2544", 2, "NDR   ", " 128  ", 6, 1) },
		  { .key = "rfc2544-ndr-256", PP_COL("rfc2544", 3, "NDR   ", " 256  ", 6, 1) },
		  { .key = "rfc2544-ndr-1024", PP_COL("rfc2544", 4, "NDR   ", " 1024 ", 6, 1) },
		  { .key = "rfc2544-ndr-1518", PP_COL("rfc2544", 5, "NDR   ", " 1518 ", 6, 1) },
		  { .key = "rfc2544-pdr-64", PP_COL("rfc2544", 6, "PDR   ", "  64  ", 6, 1) },
		  { .key = "rfc2544-pdr-128", PP_COL("rfc2544", 7, "PDR   ", " 128  ", 6, 1) },
		  { .key = "rfc2544-pdr-256", PP_COL("rfc2544", 8, "PDR   ", " 256  ", 6, 1) },
		  { .key = "rfc2544-pdr-1024", PP_COL("rfc2544", 9, "PDR   ", " 1024 ", 6, 1) },
		  { .key = "rfc2544-pdr-1518", PP_COL("rfc2544", 10, "PDR   ", " 1518 ", 6, 1) }) },
	{ .pattern = "rfc2544-%s-%u-fps", .unit = "frames/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "the same rate in frames per second" },
	{ .pattern = "rfc2544-%s-%u-cpu_local", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy here (all CPUs) during the rate's validation trials" },
	{ .pattern = "rfc2544-%s-%u-cpu_remote", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU busy at the netserver during the rate's validation trials" },
	{ .pattern = "rfc2544-pdr-%u-loss_pct", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "frames lost at PDR's rate, interval by interval" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_rfc2544 = {
	.name = "rfc2544",
	.group = "net",
	.summary = "RFC 2544 UDP throughput, 0% (NDR) and 0.5% (PDR) loss, 64..1518-byte frames",
	.keys = keys,
	.tables = tables,
	.run = rfc2544_run,
	.by_name = true,
};
