// SPDX-License-Identifier: GPL-2.0
/*
 * ppnl: the generic netlink session with perfprobe.ko.
 *
 * libnl 3.7 (Debian 12) has no extended-ACK API: the error callback gets
 * a pointer to the struct nlmsgerr inside the received buffer, and the
 * TLVs that follow it are parsed here (ppnl_parse_extack()).  Dump errors
 * arrive in NLMSG_DONE (an int errno, then the TLVs), which libnl hands
 * to the FINISH callback without looking at it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "clock.h"
#include "ppnl.h"
#include "util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* --- syscall names --- */

static const char *const syscall_names[] = {
#include "pp_syscalls.h"
};

const char *ppnl_syscall_name(uint32_t nr)
{
	if (nr < ARRAY_SIZE(syscall_names))
		return syscall_names[nr];
	return NULL;
}

int ppnl_syscall_nr(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(syscall_names); i++)
		if (syscall_names[i] && !strcmp(syscall_names[i], name))
			return (int)i;
	return -1;
}

uint64_t ppnl_fnv1a64(const void *buf, size_t size)
{
	const unsigned char *p = buf;
	uint64_t h = PERFPROBE_FNV1A64_OFFSET;
	size_t i;

	for (i = 0; i < size; i++) {
		h ^= p[i];
		h *= PERFPROBE_FNV1A64_PRIME;
	}
	return h;
}

/* --- parsing --- */

static struct nla_policy stats_policy[PERFPROBE_STATS_A_MAX + 1] = {
	[PERFPROBE_STATS_A_COUNT] = { .type = NLA_U64 },
	[PERFPROBE_STATS_A_SUM_NS] = { .type = NLA_U64 },
	[PERFPROBE_STATS_A_MIN_NS] = { .type = NLA_U64 },
	[PERFPROBE_STATS_A_MAX_NS] = { .type = NLA_U64 },
	[PERFPROBE_STATS_A_MEAN_NS] = { .type = NLA_U64 },
	[PERFPROBE_STATS_A_HIST] = { .type = NLA_NESTED },
};

static struct nla_policy bucket_policy[PERFPROBE_BUCKET_A_MAX + 1] = {
	[PERFPROBE_BUCKET_A_LOG2] = { .type = NLA_U32 },
	[PERFPROBE_BUCKET_A_COUNT] = { .type = NLA_U64 },
};

static struct nla_policy top_policy[PERFPROBE_A_MAX + 1] = {
	[PERFPROBE_A_ABI_VERSION] = { .type = NLA_U32 },
	[PERFPROBE_A_MODULE_VERSION] = { .type = NLA_STRING },
	[PERFPROBE_A_CLOCK_RES_NS] = { .type = NLA_U64 },
	[PERFPROBE_A_KTIME_COST_PS] = { .type = NLA_U64 },
	[PERFPROBE_A_CYCLES_COST_PS] = { .type = NLA_U64 },
	[PERFPROBE_A_CYCLES_KHZ] = { .type = NLA_U64 },
	[PERFPROBE_A_CYCLES_CALIB] = { .type = NLA_U32 },
	[PERFPROBE_A_CAPS] = { .type = NLA_U32 },
	[PERFPROBE_A_SYSCALL_MAX] = { .type = NLA_U32 },
	[PERFPROBE_A_COPY_SYMBOL] = { .type = NLA_STRING },
	[PERFPROBE_A_COPY_REASON] = { .type = NLA_STRING },
	[PERFPROBE_A_PGFAULT_REASON] = { .type = NLA_STRING },
	[PERFPROBE_A_TIMER_PERIOD_NS] = { .type = NLA_U64 },
	[PERFPROBE_A_TIMER_COUNT] = { .type = NLA_U32 },
	[PERFPROBE_A_STATS] = { .type = NLA_NESTED },
	[PERFPROBE_A_COPY_DIR] = { .type = NLA_U32 },
	[PERFPROBE_A_COPY_ADDR] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_BUFLEN] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_SIZE] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_OFFSET] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_ITERATIONS] = { .type = NLA_U32 },
	[PERFPROBE_A_COPY_TOTAL_NS] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_BYTES] = { .type = NLA_U64 },
	[PERFPROBE_A_COPY_CHECKSUM] = { .type = NLA_U64 },
	[PERFPROBE_A_TRACE_TGID] = { .type = NLA_U32 },
	[PERFPROBE_A_TRACE_FEATURES] = { .type = NLA_U32 },
	[PERFPROBE_A_TRACE_ACTIVE] = { .type = NLA_U8 },
	[PERFPROBE_A_TRACE_DURATION_NS] = { .type = NLA_U64 },
	[PERFPROBE_A_TRACE_DROPPED] = { .type = NLA_U64 },
	[PERFPROBE_A_PGFAULT] = { .type = NLA_NESTED },
	[PERFPROBE_A_UCOPY_CALLS] = { .type = NLA_U64 },
	[PERFPROBE_A_UCOPY_BYTES] = { .type = NLA_U64 },
	[PERFPROBE_A_SYSCALL] = { .type = NLA_NESTED },
};

static struct nla_policy pgfault_policy[PERFPROBE_PGFAULT_A_MAX + 1] = {
	[PERFPROBE_PGFAULT_A_MINOR] = { .type = NLA_NESTED },
	[PERFPROBE_PGFAULT_A_MAJOR] = { .type = NLA_NESTED },
	[PERFPROBE_PGFAULT_A_RETRY] = { .type = NLA_U64 },
	[PERFPROBE_PGFAULT_A_ERROR] = { .type = NLA_U64 },
	[PERFPROBE_PGFAULT_A_MISSED] = { .type = NLA_U64 },
	[PERFPROBE_PGFAULT_A_TP_COUNT] = { .type = NLA_U64 },
};

static struct nla_policy syscall_policy[PERFPROBE_SYSCALL_A_MAX + 1] = {
	[PERFPROBE_SYSCALL_A_NR] = { .type = NLA_U32 },
	[PERFPROBE_SYSCALL_A_STATS] = { .type = NLA_NESTED },
	[PERFPROBE_SYSCALL_A_UCOPY_CALLS] = { .type = NLA_U64 },
	[PERFPROBE_SYSCALL_A_UCOPY_BYTES] = { .type = NLA_U64 },
};

static uint64_t get_u64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint32_t get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static void get_str(char *dst, size_t size, struct nlattr *a)
{
	if (a)
		nla_strlcpy(dst, a, size);
	else if (size)
		dst[0] = '\0';
}

void ppnl_parse_ack(const struct nlmsghdr *hdr, struct ppnl_reply *r)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	const char *data = (const char *)hdr + NLMSG_HDRLEN;
	size_t off, len;

	if (hdr->nlmsg_len < NLMSG_HDRLEN || !(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	len = hdr->nlmsg_len - NLMSG_HDRLEN;
	if (hdr->nlmsg_type == NLMSG_DONE) {
		off = NLMSG_ALIGN(sizeof(int));
	} else if (hdr->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = (const struct nlmsgerr *)data;

		if (len < sizeof(*e))
			return;
		off = sizeof(*e);
		/* without NLM_F_CAPPED the whole request is echoed */
		if (!(hdr->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		off = NLMSG_ALIGN(off);
	} else {
		return;
	}
	if (off >= len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(data + off),
		      (int)(len - off), NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0) {
		nla_strlcpy(r->msg, tb[NLMSGERR_ATTR_MSG], sizeof(r->msg));
		/* the kernel's messages never end with a newline, but be sure */
		r->msg[strcspn(r->msg, "\n")] = '\0';
		r->has_msg = r->msg[0] != '\0';
	}
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4) {
		r->offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		r->has_offs = true;
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE] && nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4) {
		r->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		r->has_miss = true;
	}
}

void ppnl_parse_extack(const struct nlmsghdr *hdr, char *buf, size_t size)
{
	struct ppnl_reply r = { 0 };

	ppnl_parse_ack(hdr, &r);
	snprintf(buf, size, "%s", r.msg);
}

static int parse_hist(struct nlattr *hist, struct ppnl_stats *st)
{
	struct nlattr *b, *tb[PERFPROBE_BUCKET_A_MAX + 1];
	int rem;

	nla_for_each_nested(b, hist, rem) {
		uint32_t k;

		if (nla_type(b) != PERFPROBE_HIST_A_BUCKET)
			continue;
		if (nla_parse_nested(tb, PERFPROBE_BUCKET_A_MAX, b, bucket_policy))
			return -EBADMSG;
		if (!tb[PERFPROBE_BUCKET_A_LOG2] || !tb[PERFPROBE_BUCKET_A_COUNT])
			return -EBADMSG;
		k = nla_get_u32(tb[PERFPROBE_BUCKET_A_LOG2]);
		if (k >= PERFPROBE_HIST_BUCKETS)
			return -EBADMSG;
		st->hist[k] = nla_get_u64(tb[PERFPROBE_BUCKET_A_COUNT]);
	}
	return 0;
}

int ppnl_parse_stats(struct nlattr *nest, struct ppnl_stats *st)
{
	struct nlattr *tb[PERFPROBE_STATS_A_MAX + 1];

	memset(st, 0, sizeof(*st));
	if (!nest)
		return 0;
	if (nla_parse_nested(tb, PERFPROBE_STATS_A_MAX, nest, stats_policy))
		return -EBADMSG;
	if (!tb[PERFPROBE_STATS_A_COUNT] || !tb[PERFPROBE_STATS_A_SUM_NS])
		return -EBADMSG;
	st->present = true;
	st->count = get_u64(tb[PERFPROBE_STATS_A_COUNT]);
	st->sum_ns = get_u64(tb[PERFPROBE_STATS_A_SUM_NS]);
	st->min_ns = get_u64(tb[PERFPROBE_STATS_A_MIN_NS]);
	st->max_ns = get_u64(tb[PERFPROBE_STATS_A_MAX_NS]);
	st->mean_ns = get_u64(tb[PERFPROBE_STATS_A_MEAN_NS]);
	if (tb[PERFPROBE_STATS_A_HIST])
		return parse_hist(tb[PERFPROBE_STATS_A_HIST], st);
	return 0;
}

static int parse_top(struct nlmsghdr *hdr, struct nlattr **tb)
{
	if (genlmsg_parse(hdr, 0, tb, PERFPROBE_A_MAX, top_policy))
		return -EBADMSG;
	return 0;
}

static void parse_copy_syms(struct nlmsghdr *hdr, struct ppnl_info *info)
{
	struct genlmsghdr *g = nlmsg_data(hdr);
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) != PERFPROBE_A_COPY_SYMBOL ||
		    info->ncopy_syms >= PPNL_MAX_COPY_SYMS || nla_len(a) < 1)
			continue;
		nla_strlcpy(info->copy_syms[info->ncopy_syms++], a, PPNL_STR_MAX);
	}
}

int ppnl_parse_info(struct nlmsghdr *hdr, struct ppnl_info *info)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	memset(info, 0, sizeof(*info));
	if (parse_top(hdr, tb) || !tb[PERFPROBE_A_ABI_VERSION])
		return -EBADMSG;
	info->abi_version = get_u32(tb[PERFPROBE_A_ABI_VERSION]);
	get_str(info->module_version, PPNL_STR_MAX, tb[PERFPROBE_A_MODULE_VERSION]);
	info->clock_res_ns = get_u64(tb[PERFPROBE_A_CLOCK_RES_NS]);
	info->ktime_cost_ps = get_u64(tb[PERFPROBE_A_KTIME_COST_PS]);
	info->cycles_cost_ps = get_u64(tb[PERFPROBE_A_CYCLES_COST_PS]);
	info->cycles_khz = get_u64(tb[PERFPROBE_A_CYCLES_KHZ]);
	info->cycles_calib = get_u32(tb[PERFPROBE_A_CYCLES_CALIB]);
	info->caps = get_u32(tb[PERFPROBE_A_CAPS]);
	info->syscall_max = get_u32(tb[PERFPROBE_A_SYSCALL_MAX]);
	get_str(info->copy_reason, PPNL_MSG_MAX, tb[PERFPROBE_A_COPY_REASON]);
	get_str(info->pgfault_reason, PPNL_MSG_MAX, tb[PERFPROBE_A_PGFAULT_REASON]);
	info->trace_active = tb[PERFPROBE_A_TRACE_ACTIVE] &&
			     nla_get_u8(tb[PERFPROBE_A_TRACE_ACTIVE]);
	info->trace_tgid = get_u32(tb[PERFPROBE_A_TRACE_TGID]);
	parse_copy_syms(hdr, info);
	return 0;
}

int ppnl_parse_timer(struct nlmsghdr *hdr, struct ppnl_timer *t)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	memset(t, 0, sizeof(*t));
	if (parse_top(hdr, tb) || !tb[PERFPROBE_A_STATS] ||
	    !tb[PERFPROBE_A_TIMER_COUNT])
		return -EBADMSG;
	t->period_ns = get_u64(tb[PERFPROBE_A_TIMER_PERIOD_NS]);
	t->count = get_u32(tb[PERFPROBE_A_TIMER_COUNT]);
	return ppnl_parse_stats(tb[PERFPROBE_A_STATS], &t->late);
}

int ppnl_parse_copy(struct nlmsghdr *hdr, struct ppnl_copy *c)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	if (parse_top(hdr, tb) || !tb[PERFPROBE_A_COPY_ITERATIONS] ||
	    !tb[PERFPROBE_A_COPY_TOTAL_NS])
		return -EBADMSG;
	/* the module echoes what it did: the request's fields */
	if (tb[PERFPROBE_A_COPY_DIR])
		c->dir = get_u32(tb[PERFPROBE_A_COPY_DIR]);
	if (tb[PERFPROBE_A_COPY_SIZE])
		c->size = get_u64(tb[PERFPROBE_A_COPY_SIZE]);
	if (tb[PERFPROBE_A_COPY_OFFSET])
		c->offset = get_u64(tb[PERFPROBE_A_COPY_OFFSET]);
	c->done = get_u32(tb[PERFPROBE_A_COPY_ITERATIONS]);
	c->total_ns = get_u64(tb[PERFPROBE_A_COPY_TOTAL_NS]);
	c->bytes = get_u64(tb[PERFPROBE_A_COPY_BYTES]);
	c->has_checksum = tb[PERFPROBE_A_COPY_CHECKSUM] != NULL;
	c->checksum = get_u64(tb[PERFPROBE_A_COPY_CHECKSUM]);
	return 0;
}

static int parse_pgfault(struct nlattr *nest, struct ppnl_trace *t)
{
	struct nlattr *tb[PERFPROBE_PGFAULT_A_MAX + 1];

	if (nla_parse_nested(tb, PERFPROBE_PGFAULT_A_MAX, nest, pgfault_policy))
		return -EBADMSG;
	t->pf_retry = get_u64(tb[PERFPROBE_PGFAULT_A_RETRY]);
	t->pf_error = get_u64(tb[PERFPROBE_PGFAULT_A_ERROR]);
	t->pf_missed = get_u64(tb[PERFPROBE_PGFAULT_A_MISSED]);
	t->pf_tp = get_u64(tb[PERFPROBE_PGFAULT_A_TP_COUNT]);
	if (ppnl_parse_stats(tb[PERFPROBE_PGFAULT_A_MINOR], &t->pf_minor) ||
	    ppnl_parse_stats(tb[PERFPROBE_PGFAULT_A_MAJOR], &t->pf_major))
		return -EBADMSG;
	return 0;
}

static int parse_summary(struct nlattr **tb, struct ppnl_trace *t)
{
	t->have_summary = true;
	t->active = nla_get_u8(tb[PERFPROBE_A_TRACE_ACTIVE]);
	t->tgid = get_u32(tb[PERFPROBE_A_TRACE_TGID]);
	t->features = get_u32(tb[PERFPROBE_A_TRACE_FEATURES]);
	t->duration_ns = get_u64(tb[PERFPROBE_A_TRACE_DURATION_NS]);
	t->dropped = get_u64(tb[PERFPROBE_A_TRACE_DROPPED]);
	t->ucopy_calls = get_u64(tb[PERFPROBE_A_UCOPY_CALLS]);
	t->ucopy_bytes = get_u64(tb[PERFPROBE_A_UCOPY_BYTES]);
	t->have_pgfault = tb[PERFPROBE_A_PGFAULT] != NULL;
	if (t->have_pgfault)
		return parse_pgfault(tb[PERFPROBE_A_PGFAULT], t);
	return 0;
}

static int add_syscall(struct nlattr *nest, struct ppnl_trace *t)
{
	struct nlattr *tb[PERFPROBE_SYSCALL_A_MAX + 1];
	struct ppnl_sys *sc;

	if (nla_parse_nested(tb, PERFPROBE_SYSCALL_A_MAX, nest, syscall_policy) ||
	    !tb[PERFPROBE_SYSCALL_A_NR] || !tb[PERFPROBE_SYSCALL_A_STATS])
		return -EBADMSG;
	if (t->nsys == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct ppnl_sys *n = realloc(t->sys, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->sys = n;
		t->cap = cap;
	}
	sc = &t->sys[t->nsys];
	sc->nr = nla_get_u32(tb[PERFPROBE_SYSCALL_A_NR]);
	sc->ucopy_calls = get_u64(tb[PERFPROBE_SYSCALL_A_UCOPY_CALLS]);
	sc->ucopy_bytes = get_u64(tb[PERFPROBE_SYSCALL_A_UCOPY_BYTES]);
	if (ppnl_parse_stats(tb[PERFPROBE_SYSCALL_A_STATS], &sc->st))
		return -EBADMSG;
	t->nsys++;
	return 0;
}

int ppnl_parse_trace(struct nlmsghdr *hdr, struct ppnl_trace *t)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1], *a;
	struct genlmsghdr *g;
	int rem, err;

	if (parse_top(hdr, tb))
		return -EBADMSG;
	if (tb[PERFPROBE_A_TRACE_ACTIVE]) {
		err = parse_summary(tb, t);
		if (err)
			return err;
	}
	g = nlmsg_data(hdr);
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) != PERFPROBE_A_SYSCALL)
			continue;
		err = add_syscall(a, t);
		if (err)
			return err;
	}
	return 0;
}

void ppnl_trace_free(struct ppnl_trace *t)
{
	free(t->sys);
	memset(t, 0, sizeof(*t));
}

/* --- the session --- */

static int local_error(struct ppnl_reply *r, int err, const char *what,
		       const char *why)
{
	snprintf(r->msg, sizeof(r->msg), "%s: %s", what, why);
	r->err = err;
	return err;
}

/* The answer to a request: its sequence number, what is done with each message, the reply. */
struct answer {
	uint32_t seq;
	ppnl_cb cb;
	void *arg;
	struct ppnl_reply *r;
};

/* The messages of one datagram; true when the answer is complete. */
static bool read_answer(struct ppnl *s, const struct answer *a, struct nlmsghdr *h, int n)
{
	struct ppnl_reply *r = a->r;

	for (; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
		if (h->nlmsg_seq != a->seq) {
			s->stale++;
			continue;
		}
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = nlmsg_data(h);

			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				r->err = PPNL_E_PARSE;
			} else {
				r->err = e->error;
				ppnl_parse_ack(h, r);
			}
			return true;
		}
		if (h->nlmsg_type == NLMSG_DONE) {
			int e = 0;

			if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
				memcpy(&e, nlmsg_data(h), sizeof(e));
			r->err = e;
			ppnl_parse_ack(h, r);
			return true;
		}
		if (h->nlmsg_type == NLMSG_NOOP || h->nlmsg_type == NLMSG_OVERRUN)
			continue;
		r->nmsgs++;
		if (a->cb) {
			int err = a->cb(h, a->arg);

			if (err < 0 && !r->cb_err)
				r->cb_err = err;
		}
	}
	return false;
}

/* Read until the answer is complete, or the time is up. */
static int wait_answer(struct ppnl *s, const struct answer *a)
{
	struct ppnl_reply *r = a->r;
	int64_t deadline = (int64_t)pp_now_ns() + (int64_t)s->timeout_ms * 1000000;
	int fd = nl_socket_get_fd(s->sk);

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		unsigned char *buf = NULL;
		struct sockaddr_nl nla;
		int timeout = -1;
		bool done;
		int n;

		if (s->timeout_ms > 0) {
			int64_t left = deadline - (int64_t)pp_now_ns();

			if (left <= 0)
				return local_error(r, PPNL_E_TIMEOUT, "netlink",
						   "no answer from perfprobe.ko");
			timeout = (int)(left / 1000000) + 1;
		}
		n = poll(&pfd, 1, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return local_error(r, PPNL_E_LOCAL, "poll", strerror(errno));
		if (n == 0)
			continue;
		n = nl_recv(s->sk, &nla, &buf, NULL);
		done = n >= 0 && read_answer(s, a, (struct nlmsghdr *)buf, n);
		free(buf);
		if (n < 0)
			return local_error(r, PPNL_E_LOCAL, "netlink", nl_geterror(n));
		if (done)
			return r->err;
	}
}

struct nl_msg *ppnl_msg(struct ppnl *s, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(1 << 16);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, s->family, 0, flags,
			 cmd, PERFPROBE_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int ppnl_xfer(struct ppnl *s, struct nl_msg *msg, ppnl_cb cb, void *arg,
	      struct ppnl_reply *r)
{
	uint32_t seq;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!msg)
		return local_error(r, PPNL_E_LOCAL, "netlink", strerror(ENOMEM));
	nl_complete_msg(s->sk, msg);	/* port, seq, NLM_F_REQUEST | NLM_F_ACK */
	seq = nlmsg_hdr(msg)->nlmsg_seq;
	ret = nl_send(s->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return local_error(r, PPNL_E_LOCAL, "netlink send", nl_geterror(ret));
	return wait_answer(s, &(struct answer){ seq, cb, arg, r });
}

int ppnl_xfer_raw(struct ppnl *s, void *buf, size_t len, ppnl_cb cb,
		  void *arg, struct ppnl_reply *r)
{
	struct nlmsghdr *h = buf;
	int ret;

	memset(r, 0, sizeof(*r));
	h->nlmsg_seq = nl_socket_use_seq(s->sk);
	h->nlmsg_pid = 0;
	ret = nl_sendto(s->sk, buf, len);
	if (ret < 0)
		return local_error(r, PPNL_E_LOCAL, "netlink send", nl_geterror(ret));
	return wait_answer(s, &(struct answer){ h->nlmsg_seq, cb, arg, r });
}

/*
 * -ENOENT with no extack message comes from the generic netlink core: the
 * family id is unknown, so perfprobe.ko was removed (and maybe loaded
 * again under another id).  The module's own -ENOENT always has a
 * message.  Ask the controller to tell the two apart.
 */
static bool family_gone(struct ppnl *s)
{
	int id = genl_ctrl_resolve(s->sk, PERFPROBE_GENL_NAME);

	return id == -NLE_OBJ_NOTFOUND || (id >= 0 && id != s->family);
}

/* ppnl_xfer() with the tools' errors: 0 or a negative errno, s->msg. */
static int transact(struct ppnl *s, struct nl_msg *msg, ppnl_cb parse,
		    void *arg)
{
	struct ppnl_reply r;
	int ret;

	s->err = 0;
	s->msg[0] = '\0';
	ret = ppnl_xfer(s, msg, parse, arg, &r);
	if (ret <= PPNL_E_TIMEOUT) {
		snprintf(s->msg, sizeof(s->msg), "%s", r.msg);
		return ret == PPNL_E_TIMEOUT ? -ETIMEDOUT : -EIO;
	}
	if (ret) {
		s->err = -ret;
		snprintf(s->msg, sizeof(s->msg), "%s", r.msg);
		if (ret == -ENOENT && !s->msg[0] && family_gone(s)) {
			s->gone = true;
			snprintf(s->msg, sizeof(s->msg), "perfprobe.ko was unloaded%s",
				 s->tracing ? " during the trace" : "");
		} else if (ret == -EPERM && !s->msg[0]) {
			/* the core's GENL_ADMIN_PERM check says nothing more */
			s->err = 0;
			snprintf(s->msg, sizeof(s->msg), "%s", PPNL_PRIVS);
		}
		return ret;
	}
	return r.cb_err;
}

int ppnl_open(struct ppnl *s)
{
	int one = 1, ret;

	memset(s, 0, sizeof(*s));
	s->sk = nl_socket_alloc();
	if (!s->sk)
		return -ENOMEM;
	ret = genl_connect(s->sk);
	if (ret < 0) {
		snprintf(s->msg, sizeof(s->msg), "netlink: %s", nl_geterror(ret));
		ret = -EIO;
		goto free_sock;
	}
	/* Error messages (extack) and no echo of the request in errors. */
	setsockopt(nl_socket_get_fd(s->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(s->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* a TRACE_GET dump of every syscall does not fit a page */
	nl_socket_set_buffer_size(s->sk, 1 << 20, 1 << 20);
	nl_socket_enable_msg_peek(s->sk);
	s->family = genl_ctrl_resolve(s->sk, PERFPROBE_GENL_NAME);
	if (s->family < 0) {
		ret = s->family == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
		if (ret == -EIO)
			snprintf(s->msg, sizeof(s->msg), "netlink: %s",
				 nl_geterror(s->family));
		goto free_sock;
	}
	return 0;

free_sock:
	nl_socket_free(s->sk);
	s->sk = NULL;
	return ret;
}

void ppnl_close(struct ppnl *s)
{
	if (s->sk)
		nl_socket_free(s->sk);
	s->sk = NULL;
}

static int parse_info_cb(struct nlmsghdr *hdr, void *arg)
{
	return ppnl_parse_info(hdr, arg);
}

int ppnl_get_info(struct ppnl *s, struct ppnl_info *info)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_GET_INFO, 0);
	int ret;

	if (!msg)
		return -ENOMEM;
	memset(info, 0, sizeof(*info));
	ret = transact(s, msg, parse_info_cb, info);
	/* The module has no clocksource accessor; its clock is this one. */
	if (!ret)
		pp_clocksource(info->clocksource, sizeof(info->clocksource));
	return ret;
}

int ppnl_connect(struct ppnl *s, struct ppnl_info *info)
{
	int ret = ppnl_open(s);

	if (ret)
		return ret;
	ret = ppnl_get_info(s, info);
	if (!ret && info->abi_version != PERFPROBE_GENL_VERSION) {
		snprintf(s->msg, sizeof(s->msg),
			 "perfprobe.ko speaks ABI %u, this perfprobe ABI %d: module too %s: rebuild with make kmod",
			 info->abi_version, PERFPROBE_GENL_VERSION,
			 info->abi_version < PERFPROBE_GENL_VERSION ? "old" : "new");
		ret = -EPROTO;
	}
	if (ret)
		ppnl_close(s);
	return ret;
}

static int parse_timer_cb(struct nlmsghdr *hdr, void *arg)
{
	return ppnl_parse_timer(hdr, arg);
}

int ppnl_timer(struct ppnl *s, uint64_t period_ns, uint32_t count,
	       struct ppnl_timer *t)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_TIMER, 0);

	if (!msg)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	if (nla_put_u64(msg, PERFPROBE_A_TIMER_PERIOD_NS, period_ns) ||
	    nla_put_u32(msg, PERFPROBE_A_TIMER_COUNT, count)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return transact(s, msg, parse_timer_cb, t);
}

static int parse_copy_cb(struct nlmsghdr *hdr, void *arg)
{
	return ppnl_parse_copy(hdr, arg);
}

int ppnl_copy(struct ppnl *s, struct ppnl_copy *c)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_COPY, 0);

	if (!msg)
		return -ENOMEM;
	c->done = 0;
	c->total_ns = c->bytes = c->checksum = 0;
	c->has_checksum = false;
	if (nla_put_u32(msg, PERFPROBE_A_COPY_DIR, c->dir) ||
	    nla_put_u64(msg, PERFPROBE_A_COPY_ADDR, c->addr) ||
	    nla_put_u64(msg, PERFPROBE_A_COPY_BUFLEN, c->buflen) ||
	    nla_put_u64(msg, PERFPROBE_A_COPY_SIZE, c->size) ||
	    nla_put_u64(msg, PERFPROBE_A_COPY_OFFSET, c->offset) ||
	    nla_put_u32(msg, PERFPROBE_A_COPY_ITERATIONS, c->iterations)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return transact(s, msg, parse_copy_cb, c);
}

int ppnl_parse_start(struct nlmsghdr *hdr, uint32_t *features)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	if (parse_top(hdr, tb))
		return -EBADMSG;
	*features = get_u32(tb[PERFPROBE_A_TRACE_FEATURES]);
	return 0;
}

static int parse_start_cb(struct nlmsghdr *hdr, void *arg)
{
	return ppnl_parse_start(hdr, arg);
}

int ppnl_trace_start(struct ppnl *s, uint32_t tgid, uint32_t features,
		     uint32_t *enabled)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_TRACE_START, 0);
	uint32_t dummy;
	int ret;

	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, PERFPROBE_A_TRACE_TGID, tgid) ||
	    (features && nla_put_u32(msg, PERFPROBE_A_TRACE_FEATURES, features))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = transact(s, msg, parse_start_cb, enabled ? enabled : &dummy);
	if (!ret)
		s->tracing = true;
	return ret;
}

int ppnl_trace_stop(struct ppnl *s)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_TRACE_STOP, 0);
	int ret;

	if (!msg)
		return -ENOMEM;
	ret = transact(s, msg, NULL, NULL);
	if (!ret)
		s->tracing = false;
	return ret;
}

static int parse_trace_cb(struct nlmsghdr *hdr, void *arg)
{
	return ppnl_parse_trace(hdr, arg);
}

int ppnl_trace_get(struct ppnl *s, struct ppnl_trace *t)
{
	struct nl_msg *msg = ppnl_msg(s, PERFPROBE_CMD_TRACE_GET, NLM_F_DUMP);
	int ret;

	memset(t, 0, sizeof(*t));
	if (!msg)
		return -ENOMEM;
	ret = transact(s, msg, parse_trace_cb, t);
	if (!ret && !t->have_summary)
		ret = -EBADMSG;
	if (ret)
		ppnl_trace_free(t);
	return ret;
}

void ppnl_strerror(const struct ppnl *s, int err, char *buf, size_t size)
{
	if (s->gone)
		snprintf(buf, size, "%s", s->msg);
	else if (s->msg[0] && s->err)
		snprintf(buf, size, "%s: kernel reports: %s", strerror(-err), s->msg);
	else if (s->msg[0])
		snprintf(buf, size, "%s: %s", strerror(-err), s->msg);
	else
		snprintf(buf, size, "%s", strerror(-err));
}

void ppnl_perror(const struct ppnl *s, const char *what, int err)
{
	char why[PPNL_MSG_MAX + 64];

	ppnl_strerror(s, err, why, sizeof(why));
	pp_err("%s: %s", what, why);
}
