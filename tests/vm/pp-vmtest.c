// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest - perfprobe VM test client (generic netlink, libnl-genl-3).
 *
 * Runs inside the test VM built by scripts/vmtest.sh and prints TAP
 * ("ok - ..." / "not ok - ..." lines without numbers, "# ..." diagnostics);
 * the host numbers the lines of all test programs and adds the plan.
 * Exit status: 0 all checks passed, 1 a check failed, 2 the perfprobe
 * family could not be resolved (module not loaded), 3 usage error.
 *
 * usage: pp-vmtest [-u UID[:GID]] [-C CAP] [-q] COMMAND [options]
 *   -u UID[:GID]  drop to this uid/gid (and no supplementary groups)
 *                 before doing anything; all capabilities are dropped
 *   -C CAP[,CAP]  ... except these capability numbers (12 = CAP_NET_ADMIN,
 *                 38 = CAP_PERFMON)
 *   -q            quiet: no TAP output, exit status only (info)
 *
 * commands (see Documentation/vmtest.rst):
 *   info [--expect-idle]      GET_INFO answers with the ABI version
 *   timer                     TIMER sanity
 *   copy                      COPY data/checksum matrix
 *   bad [--fresh]             malformed and invalid requests
 *   trace-syscalls [-n N]     exact getppid() counting
 *   trace-faults [-n PAGES]   minor fault counting
 *   privs --expect-eperm|--perfmon|--net-admin|--allowed
 *   concurrent [-n ITER]      two clients at once
 *   copy-budget               concurrent COPY requests over the buffer budget
 *   fuzz [-n COUNT] [-s SEED] [-t SECONDS]
 *   trace-hold [-t TGID] [-f FEATURES] [-r READYFILE]
 *   fault-storm               page-fault hard until killed
 *   rmmod-race [-n ITER] -k MODULE.ko
 *   touch-child               helper spawned by trace-faults
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/userfaultfd.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <linux/perfprobe.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED 0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS 0x200
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE 15
#endif

#define KERNEL_ADDR	0xffffffff81000000ULL
#define PAGE		4096UL

/* errors that did not come from the kernel */
#define PP_ERR_TIMEOUT	(-100000)
#define PP_ERR_LOCAL	(-100001)
#define PP_ERR_PARSE	(-100002)

extern char **environ;

/* ------------------------------------------------------------------ TAP */

static bool quiet;
static int n_fail;
static const char *tag = "";	/* prefix of every test description */

static void tap(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (!ok)
		n_fail++;
	if (quiet)
		return;
	printf("%s - %s", ok ? "ok" : "not ok", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void tap_skip(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	printf("ok - %s", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
	fflush(stdout);
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const char *errname(int err)
{
	static char buf[64];

	switch (err) {
	case 0: return "0";
	case PP_ERR_TIMEOUT: return "TIMEOUT(no answer)";
	case PP_ERR_LOCAL: return "LOCAL-ERROR";
	case PP_ERR_PARSE: return "BAD-REPLY";
	case -EPERM: return "-EPERM";
	case -ENOENT: return "-ENOENT";
	case -ESRCH: return "-ESRCH";
	case -EINTR: return "-EINTR";
	case -EFAULT: return "-EFAULT";
	case -EBUSY: return "-EBUSY";
	case -EINVAL: return "-EINVAL";
	case -ERANGE: return "-ERANGE";
	case -E2BIG: return "-E2BIG";
	case -EMSGSIZE: return "-EMSGSIZE";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -EOVERFLOW: return "-EOVERFLOW";
	case -ENOMEM: return "-ENOMEM";
	case -EAGAIN: return "-EAGAIN";
	case -EACCES: return "-EACCES";
	case -ENODEV: return "-ENODEV";
	case -ENOBUFS: return "-ENOBUFS";
	}
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

/* ------------------------------------------------------------- netlink */

struct pp {
	struct nl_sock *sk;
	int fd;
	int family;
	int timeout_ms;
	unsigned long stale;	/* messages with a foreign sequence number */
};

struct reply {
	int err;		/* 0, -errno from the kernel, or PP_ERR_* */
	bool has_ext;
	char ext[256];		/* extack message */
	bool has_offs;
	uint32_t offs;
	int nmsgs;		/* data messages received */
	int cb_err;		/* first error returned by the callback */
};

typedef int (*pp_cb)(struct nlmsghdr *nlh, void *arg);

static void pp_close(struct pp *p)
{
	if (p->sk)
		nl_socket_free(p->sk);
	p->sk = NULL;
}

/* Returns 0, -ENOENT when the family does not exist, or another -errno. */
static int pp_open(struct pp *p)
{
	int one = 1, r;

	memset(p, 0, sizeof(*p));
	p->timeout_ms = 30000;
	p->sk = nl_socket_alloc();
	if (!p->sk)
		return -ENOMEM;
	r = genl_connect(p->sk);
	if (r < 0) {
		pp_close(p);
		return -ECONNREFUSED;
	}
	p->fd = nl_socket_get_fd(p->sk);
	nl_socket_set_buffer_size(p->sk, 1 << 20, 1 << 20);
	r = genl_ctrl_resolve(p->sk, PERFPROBE_GENL_NAME);
	if (r < 0) {
		pp_close(p);
		return r == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
	}
	p->family = r;
	/* After the resolve: from now on we read all replies ourselves. */
	if (setsockopt(p->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)))
		diag("setsockopt(NETLINK_EXT_ACK): %s", strerror(errno));
	if (setsockopt(p->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)))
		diag("setsockopt(NETLINK_CAP_ACK): %s", strerror(errno));
	nl_socket_enable_msg_peek(p->sk);
	return 0;
}

static void parse_extack(struct nlmsghdr *h, struct reply *r)
{
	struct nlattr *pos, *head;
	size_t off;
	int rem;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = nlmsg_data(h);

		off = sizeof(*e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	} else {
		off = sizeof(int);
	}
	off = NLMSG_ALIGN(off);
	if (h->nlmsg_len < NLMSG_HDRLEN + off)
		return;
	head = (struct nlattr *)((char *)nlmsg_data(h) + off);
	rem = h->nlmsg_len - NLMSG_HDRLEN - off;
	nla_for_each_attr(pos, head, rem, rem) {
		switch (nla_type(pos)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(r->ext, sizeof(r->ext), "%.*s", nla_len(pos),
				 (char *)nla_data(pos));
			r->has_ext = r->ext[0] != 0;
			break;
		case NLMSGERR_ATTR_OFFS:
			if (nla_len(pos) >= 4) {
				r->offs = nla_get_u32(pos);
				r->has_offs = true;
			}
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			/* NL_REQ_ATTR_CHECK()/GENL_REQ_ATTR_CHECK(): the
			 * missing attribute is named by type, without text */
			if (nla_len(pos) >= 4 && !r->has_ext) {
				snprintf(r->ext, sizeof(r->ext),
					 "missing attribute type %u",
					 nla_get_u32(pos));
				r->has_ext = true;
			}
			break;
		}
	}
}

/*
 * Read until the answer to request `seq` is complete: the ACK or error
 * (every request carries NLM_F_ACK, so a doit reply is followed by an ACK),
 * or NLMSG_DONE for a dump.  Messages with other sequence numbers are
 * left-overs of earlier requests and are skipped.
 */
static int pp_wait(struct pp *p, uint32_t seq, pp_cb cb, void *arg,
		   struct reply *r)
{
	int64_t deadline = now_ns() + (int64_t)p->timeout_ms * 1000000;

	for (;;) {
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		struct sockaddr_nl nla;
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		int64_t left = deadline - now_ns();
		bool done = false;
		int n, pr;

		if (left <= 0) {
			r->err = PP_ERR_TIMEOUT;
			return r->err;
		}
		pr = poll(&pfd, 1, (int)(left / 1000000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0) {
			snprintf(r->ext, sizeof(r->ext), "poll: %s", strerror(errno));
			r->err = PP_ERR_LOCAL;
			return r->err;
		}
		if (pr == 0)
			continue;
		n = nl_recv(p->sk, &nla, &buf, NULL);
		if (n == 0) {
			free(buf);
			continue;
		}
		if (n < 0) {
			free(buf);
			snprintf(r->ext, sizeof(r->ext), "nl_recv: %s", nl_geterror(n));
			r->err = PP_ERR_LOCAL;
			return r->err;
		}
		h = (struct nlmsghdr *)buf;
		for (; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq) {
				p->stale++;
				continue;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = nlmsg_data(h);

				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
					r->err = PP_ERR_PARSE;
				} else {
					r->err = e->error;
					parse_extack(h, r);
				}
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					r->err = *(int *)nlmsg_data(h);
				parse_extack(h, r);
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_NOOP ||
			    h->nlmsg_type == NLMSG_OVERRUN)
				continue;
			r->nmsgs++;
			if (cb) {
				int cr = cb(h, arg);

				if (cr < 0 && !r->cb_err)
					r->cb_err = cr;
			}
		}
		free(buf);
		if (done)
			return r->err;
	}
}

static struct nl_msg *pp_msg(struct pp *p, int cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc_size(1 << 16);

	if (!m) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	if (!genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, p->family, 0, flags,
			 cmd, PERFPROBE_GENL_VERSION)) {
		fprintf(stderr, "genlmsg_put failed\n");
		exit(1);
	}
	return m;
}

/* Send `m` (consumed) and wait for the complete answer. */
static int pp_xfer(struct pp *p, struct nl_msg *m, pp_cb cb, void *arg,
		   struct reply *r)
{
	uint32_t seq;
	int s;

	memset(r, 0, sizeof(*r));
	nl_complete_msg(p->sk, m);	/* port, seq, NLM_F_REQUEST|NLM_F_ACK */
	seq = nlmsg_hdr(m)->nlmsg_seq;
	s = nl_send(p->sk, m);
	nlmsg_free(m);
	if (s < 0) {
		snprintf(r->ext, sizeof(r->ext), "send: %s", nl_geterror(s));
		r->err = PP_ERR_LOCAL;
		return r->err;
	}
	return pp_wait(p, seq, cb, arg, r);
}

/* Send a hand-made message (buf starts with its nlmsghdr; seq is set here). */
static int pp_xfer_raw(struct pp *p, void *buf, size_t len, pp_cb cb,
		       void *arg, struct reply *r)
{
	struct nlmsghdr *h = buf;
	int s;

	memset(r, 0, sizeof(*r));
	h->nlmsg_seq = nl_socket_use_seq(p->sk);
	h->nlmsg_pid = 0;
	s = nl_sendto(p->sk, buf, len);
	if (s < 0) {
		snprintf(r->ext, sizeof(r->ext), "send: %s", nl_geterror(s));
		r->err = PP_ERR_LOCAL;
		return r->err;
	}
	return pp_wait(p, h->nlmsg_seq, cb, arg, r);
}

/* diagnostic line for a finished request */
static void report(const char *what, const struct reply *r)
{
	if (r->err == 0 && !r->has_ext)
		return;
	diag("%s: %s%s%s", what, errname(r->err),
	     r->has_ext ? ", kernel reports: " : "",
	     r->has_ext ? r->ext : (r->err && r->err > -4096 ? " (no extack message)" : ""));
	if (r->err <= PP_ERR_TIMEOUT && r->ext[0] && !r->has_ext)
		diag("  %s", r->ext);
}

static struct nlattr **parse_reply(struct nlmsghdr *h, struct nlattr **tb)
{
	if (!genlmsg_valid_hdr(h, 0))
		return NULL;
	if (genlmsg_parse(h, 0, tb, PERFPROBE_A_MAX, NULL) < 0)
		return NULL;
	return tb;
}

static uint64_t get_u64(struct nlattr *a)
{
	if (!a)
		return 0;
	if (nla_len(a) == 8)
		return nla_get_u64(a);
	if (nla_len(a) == 4)
		return nla_get_u32(a);
	if (nla_len(a) == 1)
		return nla_get_u8(a);
	return 0;
}

/* ------------------------------------------------------------- commands */

struct info {
	bool got;
	uint32_t abi;
	char modver[64], clocksource[64], copy_reason[160], pgfault_reason[160];
	uint32_t caps, syscall_max, cycles_calib;
	uint64_t clock_res, ktime_cost, cycles_cost, cycles_khz;
	int ncopy;
	char copy_syms[256];
	bool trace_active;
	uint32_t trace_tgid;
};

static int info_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];
	struct info *in = arg;
	struct nlattr *pos;
	int rem;

	if (!parse_reply(h, tb))
		return PP_ERR_PARSE;
	in->got = true;
	if (!tb[PERFPROBE_A_ABI_VERSION])
		return PP_ERR_PARSE;
	in->abi = nla_get_u32(tb[PERFPROBE_A_ABI_VERSION]);
#define STR(a, f) if (tb[a]) snprintf(in->f, sizeof(in->f), "%.*s", nla_len(tb[a]), (char *)nla_data(tb[a]))
	STR(PERFPROBE_A_MODULE_VERSION, modver);
	STR(PERFPROBE_A_CLOCKSOURCE, clocksource);
	STR(PERFPROBE_A_COPY_REASON, copy_reason);
	STR(PERFPROBE_A_PGFAULT_REASON, pgfault_reason);
#undef STR
	in->caps = get_u64(tb[PERFPROBE_A_CAPS]);
	in->syscall_max = get_u64(tb[PERFPROBE_A_SYSCALL_MAX]);
	in->cycles_calib = get_u64(tb[PERFPROBE_A_CYCLES_CALIB]);
	in->clock_res = get_u64(tb[PERFPROBE_A_CLOCK_RES_NS]);
	in->ktime_cost = get_u64(tb[PERFPROBE_A_KTIME_COST_PS]);
	in->cycles_cost = get_u64(tb[PERFPROBE_A_CYCLES_COST_PS]);
	in->cycles_khz = get_u64(tb[PERFPROBE_A_CYCLES_KHZ]);
	in->trace_active = get_u64(tb[PERFPROBE_A_TRACE_ACTIVE]) != 0;
	in->trace_tgid = get_u64(tb[PERFPROBE_A_TRACE_TGID]);
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(h), 0),
			  genlmsg_attrlen(nlmsg_data(h), 0), rem) {
		if (nla_type(pos) == PERFPROBE_A_COPY_SYMBOL) {
			size_t l = strlen(in->copy_syms);

			snprintf(in->copy_syms + l, sizeof(in->copy_syms) - l,
				 "%s%.*s", l ? " " : "", nla_len(pos),
				 (char *)nla_data(pos));
			in->ncopy++;
		}
	}
	return 0;
}

static int pp_get_info(struct pp *p, struct info *in, struct reply *r)
{
	memset(in, 0, sizeof(*in));
	pp_xfer(p, pp_msg(p, PERFPROBE_CMD_GET_INFO, 0), info_cb, in, r);
	if (r->err == 0 && (!in->got || r->cb_err))
		r->err = PP_ERR_PARSE;
	return r->err;
}

struct copy_req {
	uint32_t dir;
	uint64_t addr, buflen, size;
	int64_t offset;		/* < 0: omitted */
	int64_t iters;		/* < 0: omitted */
};

struct copy_res {
	bool got, has_checksum;
	uint32_t dir, iters;
	uint64_t size, offset, bytes, checksum, total_ns;
};

static int copy_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];
	struct copy_res *c = arg;

	if (!parse_reply(h, tb))
		return PP_ERR_PARSE;
	c->got = true;
	c->dir = get_u64(tb[PERFPROBE_A_COPY_DIR]);
	c->size = get_u64(tb[PERFPROBE_A_COPY_SIZE]);
	c->offset = get_u64(tb[PERFPROBE_A_COPY_OFFSET]);
	c->iters = get_u64(tb[PERFPROBE_A_COPY_ITERATIONS]);
	c->bytes = get_u64(tb[PERFPROBE_A_COPY_BYTES]);
	c->total_ns = get_u64(tb[PERFPROBE_A_COPY_TOTAL_NS]);
	c->has_checksum = tb[PERFPROBE_A_COPY_CHECKSUM] != NULL;
	c->checksum = get_u64(tb[PERFPROBE_A_COPY_CHECKSUM]);
	return 0;
}

static int pp_copy(struct pp *p, const struct copy_req *q, struct copy_res *c,
		   struct reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_COPY, 0);

	memset(c, 0, sizeof(*c));
	nla_put_u32(m, PERFPROBE_A_COPY_DIR, q->dir);
	nla_put_u64(m, PERFPROBE_A_COPY_ADDR, q->addr);
	nla_put_u64(m, PERFPROBE_A_COPY_BUFLEN, q->buflen);
	nla_put_u64(m, PERFPROBE_A_COPY_SIZE, q->size);
	if (q->offset >= 0)
		nla_put_u64(m, PERFPROBE_A_COPY_OFFSET, q->offset);
	if (q->iters >= 0)
		nla_put_u32(m, PERFPROBE_A_COPY_ITERATIONS, q->iters);
	pp_xfer(p, m, copy_cb, c, r);
	if (r->err == 0 && (!c->got || r->cb_err))
		r->err = PP_ERR_PARSE;
	return r->err;
}

static int pp_trace_start(struct pp *p, uint32_t tgid, int64_t features,
			  uint32_t *enabled, struct reply *r);

struct stats {
	bool present, hist_ok;
	uint64_t count, sum, min, max, mean, histsum;
	int nbuckets;
};

struct sc_entry {
	uint32_t nr;
	struct stats st;
	uint64_t ucopy_calls, ucopy_bytes;
};

struct trace {
	bool got_summary;
	bool active;
	uint32_t tgid, features;
	uint64_t duration, dropped, ucopy_calls, ucopy_bytes;
	bool has_pgfault;
	struct stats minor, major;
	uint64_t retry, error, missed, tp_count;
	int nsc;
	struct sc_entry sc[1024];
	int bad;		/* malformed parts */
};

static void parse_stats(struct nlattr *a, struct stats *s)
{
	struct nlattr *tb[PERFPROBE_STATS_A_MAX + 1];
	struct nlattr *pos;
	int rem;

	memset(s, 0, sizeof(*s));
	if (!a || nla_parse_nested(tb, PERFPROBE_STATS_A_MAX, a, NULL) < 0)
		return;
	s->present = true;
	s->count = get_u64(tb[PERFPROBE_STATS_A_COUNT]);
	s->sum = get_u64(tb[PERFPROBE_STATS_A_SUM_NS]);
	s->min = get_u64(tb[PERFPROBE_STATS_A_MIN_NS]);
	s->max = get_u64(tb[PERFPROBE_STATS_A_MAX_NS]);
	s->mean = get_u64(tb[PERFPROBE_STATS_A_MEAN_NS]);
	s->hist_ok = true;
	if (!tb[PERFPROBE_STATS_A_HIST]) {
		s->hist_ok = s->count == 0;
		return;
	}
	nla_for_each_nested(pos, tb[PERFPROBE_STATS_A_HIST], rem) {
		struct nlattr *bt[PERFPROBE_BUCKET_A_MAX + 1];

		if (nla_type(pos) != PERFPROBE_HIST_A_BUCKET ||
		    nla_parse_nested(bt, PERFPROBE_BUCKET_A_MAX, pos, NULL) < 0 ||
		    !bt[PERFPROBE_BUCKET_A_LOG2] || !bt[PERFPROBE_BUCKET_A_COUNT] ||
		    nla_get_u32(bt[PERFPROBE_BUCKET_A_LOG2]) >= PERFPROBE_HIST_BUCKETS) {
			s->hist_ok = false;
			continue;
		}
		s->histsum += get_u64(bt[PERFPROBE_BUCKET_A_COUNT]);
		s->nbuckets++;
	}
}

/* Internal consistency of a stats nest; returns NULL or what is wrong. */
static const char *stats_bad(const struct stats *s)
{
	if (!s->present)
		return "missing";
	if (!s->hist_ok)
		return "malformed histogram";
	if (s->histsum != s->count)
		return "histogram total != count";
	if (s->count == 0)
		return s->min == 0 && s->sum == 0 ? NULL : "count 0 but min/sum != 0";
	if (s->min > s->max)
		return "min > max";
	if (s->mean < s->min || s->mean > s->max)
		return "mean outside [min, max]";
	if (s->mean != s->sum / s->count)
		return "mean != sum / count";
	return NULL;
}

static int trace_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];
	struct trace *t = arg;
	struct nlattr *pos;
	int rem;

	if (!parse_reply(h, tb)) {
		t->bad++;
		return PP_ERR_PARSE;
	}
	if (tb[PERFPROBE_A_TRACE_ACTIVE] || tb[PERFPROBE_A_TRACE_TGID]) {
		t->got_summary = true;
		t->active = get_u64(tb[PERFPROBE_A_TRACE_ACTIVE]) != 0;
		t->tgid = get_u64(tb[PERFPROBE_A_TRACE_TGID]);
		t->features = get_u64(tb[PERFPROBE_A_TRACE_FEATURES]);
		t->duration = get_u64(tb[PERFPROBE_A_TRACE_DURATION_NS]);
		t->dropped = get_u64(tb[PERFPROBE_A_TRACE_DROPPED]);
		t->ucopy_calls = get_u64(tb[PERFPROBE_A_UCOPY_CALLS]);
		t->ucopy_bytes = get_u64(tb[PERFPROBE_A_UCOPY_BYTES]);
		if (tb[PERFPROBE_A_PGFAULT]) {
			struct nlattr *pt[PERFPROBE_PGFAULT_A_MAX + 1];

			if (nla_parse_nested(pt, PERFPROBE_PGFAULT_A_MAX,
					     tb[PERFPROBE_A_PGFAULT], NULL) < 0) {
				t->bad++;
			} else {
				t->has_pgfault = true;
				parse_stats(pt[PERFPROBE_PGFAULT_A_MINOR], &t->minor);
				parse_stats(pt[PERFPROBE_PGFAULT_A_MAJOR], &t->major);
				t->retry = get_u64(pt[PERFPROBE_PGFAULT_A_RETRY]);
				t->error = get_u64(pt[PERFPROBE_PGFAULT_A_ERROR]);
				t->missed = get_u64(pt[PERFPROBE_PGFAULT_A_MISSED]);
				t->tp_count = get_u64(pt[PERFPROBE_PGFAULT_A_TP_COUNT]);
			}
		}
	}
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(h), 0),
			  genlmsg_attrlen(nlmsg_data(h), 0), rem) {
		struct nlattr *st[PERFPROBE_SYSCALL_A_MAX + 1];
		struct sc_entry *e;

		if (nla_type(pos) != PERFPROBE_A_SYSCALL)
			continue;
		if (nla_parse_nested(st, PERFPROBE_SYSCALL_A_MAX, pos, NULL) < 0 ||
		    !st[PERFPROBE_SYSCALL_A_NR]) {
			t->bad++;
			continue;
		}
		if (t->nsc >= (int)(sizeof(t->sc) / sizeof(t->sc[0]))) {
			t->bad++;
			continue;
		}
		e = &t->sc[t->nsc++];
		e->nr = nla_get_u32(st[PERFPROBE_SYSCALL_A_NR]);
		parse_stats(st[PERFPROBE_SYSCALL_A_STATS], &e->st);
		e->ucopy_calls = get_u64(st[PERFPROBE_SYSCALL_A_UCOPY_CALLS]);
		e->ucopy_bytes = get_u64(st[PERFPROBE_SYSCALL_A_UCOPY_BYTES]);
	}
	return 0;
}

static int pp_trace_get(struct pp *p, bool dump, struct trace *t, struct reply *r)
{
	memset(t, 0, sizeof(*t));
	pp_xfer(p, pp_msg(p, PERFPROBE_CMD_TRACE_GET, dump ? NLM_F_DUMP : 0),
		trace_cb, t, r);
	if (r->err == 0 && (!t->got_summary || t->bad))
		r->err = PP_ERR_PARSE;
	return r->err;
}

static const struct sc_entry *find_sc(const struct trace *t, uint32_t nr)
{
	for (int i = 0; i < t->nsc; i++)
		if (t->sc[i].nr == nr)
			return &t->sc[i];
	return NULL;
}

struct start_res {
	bool got;
	uint32_t tgid, features;
};

static int start_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];
	struct start_res *s = arg;

	if (!parse_reply(h, tb))
		return PP_ERR_PARSE;
	s->got = true;
	s->tgid = get_u64(tb[PERFPROBE_A_TRACE_TGID]);
	s->features = get_u64(tb[PERFPROBE_A_TRACE_FEATURES]);
	return 0;
}

static int pp_trace_start(struct pp *p, uint32_t tgid, int64_t features,
			  uint32_t *enabled, struct reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_TRACE_START, 0);
	struct start_res s = { 0 };

	nla_put_u32(m, PERFPROBE_A_TRACE_TGID, tgid);
	if (features >= 0)
		nla_put_u32(m, PERFPROBE_A_TRACE_FEATURES, (uint32_t)features);
	pp_xfer(p, m, start_cb, &s, r);
	if (r->err == 0 && !s.got)
		r->err = PP_ERR_PARSE;
	if (enabled)
		*enabled = s.features;
	return r->err;
}

static int pp_trace_stop(struct pp *p, struct reply *r)
{
	return pp_xfer(p, pp_msg(p, PERFPROBE_CMD_TRACE_STOP, 0), NULL, NULL, r);
}

struct timer_res {
	bool got;
	uint64_t period;
	uint32_t count;
	struct stats st;
};

static int timer_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];
	struct timer_res *t = arg;

	if (!parse_reply(h, tb))
		return PP_ERR_PARSE;
	t->got = true;
	t->period = get_u64(tb[PERFPROBE_A_TIMER_PERIOD_NS]);
	t->count = get_u64(tb[PERFPROBE_A_TIMER_COUNT]);
	parse_stats(tb[PERFPROBE_A_STATS], &t->st);
	return 0;
}

static int pp_timer(struct pp *p, uint64_t period, uint32_t count,
		    struct timer_res *t, struct reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_TIMER, 0);

	memset(t, 0, sizeof(*t));
	nla_put_u64(m, PERFPROBE_A_TIMER_PERIOD_NS, period);
	nla_put_u32(m, PERFPROBE_A_TIMER_COUNT, count);
	pp_xfer(p, m, timer_cb, t, r);
	if (r->err == 0 && !t->got)
		r->err = PP_ERR_PARSE;
	return r->err;
}

/* ---------------------------------------------------------------- misc */

static uint64_t fnv1a(const uint8_t *d, size_t n)
{
	uint64_t h = PERFPROBE_FNV1A64_OFFSET;

	for (size_t i = 0; i < n; i++) {
		h ^= d[i];
		h *= PERFPROBE_FNV1A64_PRIME;
	}
	return h;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void fill_random(uint8_t *d, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = rnd();

		memcpy(d + i, &v, 8);
	}
	for (; i < n; i++)
		d[i] = (uint8_t)rnd();
}

/* anonymous mapping of `len` bytes with PROT_NONE guard pages around it */
static uint8_t *map_guarded(size_t len)
{
	size_t full = len + 2 * PAGE;
	uint8_t *m = mmap(NULL, full, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + PAGE, len, PROT_READ | PROT_WRITE)) {
		munmap(m, full);
		return NULL;
	}
	return m + PAGE;
}

static int open_or_fail(struct pp *p)
{
	int r = pp_open(p);

	if (r) {
		tap(false, "open a generic netlink socket and resolve family '%s': %s",
		    PERFPROBE_GENL_NAME, strerror(-r));
		return -1;
	}
	return 0;
}

static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

/* The module's model: CAP_NET_ADMIN and (CAP_PERFMON or CAP_SYS_ADMIN). */
static bool privileged(void)
{
	return have_cap(CAP_NET_ADMIN) &&
	       (have_cap(CAP_SYS_ADMIN) || have_cap(CAP_PERFMON));
}

/* keep_caps: bit n keeps capability n */
static int drop_privs(uid_t uid, gid_t gid, uint64_t keep_caps)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (keep_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		return -1;
	for (int c = 0; c < 64; c++) {
		if (!(keep_caps >> c & 1))
			continue;
		d[c / 32].effective |= 1U << (c % 32);
		d[c / 32].permitted |= 1U << (c % 32);
	}
	if (syscall(SYS_capset, &h, d))
		return -1;
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	return 0;
}

static const char *self_exe(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return "/proc/self/exe";
	path[n] = 0;
	return path;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ----------------------------------------------------------- test: info */

static int cmd_info(int argc, char **argv)
{
	bool expect_idle = argc > 1 && !strcmp(argv[1], "--expect-idle");
	struct reply r;
	struct info in;
	struct pp p;
	int e = pp_open(&p);

	if (e) {
		if (!quiet)
			tap(false, "GET_INFO: resolve family '%s': %s",
			    PERFPROBE_GENL_NAME, strerror(-e));
		return e == -ENOENT ? 2 : 1;
	}
	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	tap(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
	    "GET_INFO answers with ABI version %u (expected %u)", in.abi,
	    PERFPROBE_GENL_VERSION);
	if (r.err == 0) {
		diag("module %s, clocksource %s, clock res %" PRIu64
		     " ns, ktime cost %" PRIu64 " ps, cycles %" PRIu64
		     " kHz (calib %u, cost %" PRIu64 " ps)",
		     in.modver, in.clocksource, in.clock_res, in.ktime_cost,
		     in.cycles_khz, in.cycles_calib, in.cycles_cost);
		diag("caps 0x%x:%s%s%s%s%s, syscall_max %u", in.caps,
		     in.caps & PERFPROBE_CAP_SYSCALL_TRACE ? " syscall-trace" : "",
		     in.caps & PERFPROBE_CAP_PGFAULT_KRETPROBE ? " pgfault-kretprobe" : "",
		     in.caps & PERFPROBE_CAP_PGFAULT_TP ? " pgfault-tp" : "",
		     in.caps & PERFPROBE_CAP_COPY_KPROBES ? " copy-kprobes" : "",
		     in.caps & PERFPROBE_CAP_CYCLE_COUNTER ? " cycle-counter" : "",
		     in.syscall_max);
		diag("copy symbols (%d): %s%s%s", in.ncopy, in.copy_syms,
		     in.copy_reason[0] ? "; copy reason: " : "", in.copy_reason);
		if (in.pgfault_reason[0])
			diag("pgfault reason: %s", in.pgfault_reason);
		if (expect_idle)
			tap(!in.trace_active,
			    "no trace left active (TRACE_ACTIVE=%d, tgid %u)",
			    in.trace_active, in.trace_tgid);
	}
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ---------------------------------------------------------- test: timer */

static int cmd_timer(int argc, char **argv)
{
	struct timer_res t;
	struct reply r;
	struct pp p;
	const char *why;

	if (open_or_fail(&p))
		return 1;
	pp_timer(&p, 100000, 50, &t, &r);
	report("TIMER 100us x 50", &r);
	why = r.err ? errname(r.err) : t.count != 50 ? "wrong count" :
	      t.period != 100000 ? "wrong period" : stats_bad(&t.st);
	if (!why && t.st.count != 50)
		why = "stats count != 50";
	tap(!why, "TIMER 100 us x 50 measures 50 expiries with consistent stats%s%s",
	    why ? ": " : "", why ? why : "");
	if (r.err == 0)
		diag("timer lateness: min %" PRIu64 " mean %" PRIu64 " max %"
		     PRIu64 " ns, %d buckets", t.st.min, t.st.mean, t.st.max,
		     t.st.nbuckets);
	/* period * count exactly at PERFPROBE_TIMER_MAX_TOTAL_NS is allowed */
	pp_timer(&p, PERFPROBE_TIMER_MAX_TOTAL_NS / 10, 10, &t, &r);
	report("TIMER at the total limit", &r);
	tap(r.err == 0 && t.count == 10,
	    "TIMER period * count == PERFPROBE_TIMER_MAX_TOTAL_NS (%llu ms) is accepted: %s",
	    PERFPROBE_TIMER_MAX_TOTAL_NS / 1000000, errname(r.err));
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ----------------------------------------------------------- test: copy */

static const char *dir_name(uint32_t d)
{
	return d == PERFPROBE_COPY_FROM_USER ? "from_user" :
	       d == PERFPROBE_COPY_TO_USER ? "to_user" : "clear_user";
}

#define COPY_MAX_TEST_SIZE	(4UL << 20)
#define CANARY			0xa5
#define WINDOW			4096UL

static bool bytes_are(const uint8_t *d, size_t n, uint8_t v, size_t *bad)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] != v) {
			*bad = i;
			return false;
		}
	return true;
}

/*
 * One COPY case.  `placement` 0: the region starts at the page-aligned
 * start of the buffer; 1: the region ends right before a PROT_NONE page.
 * Returns NULL on success or a description of the failure (static).
 */
static const char *copy_case(struct pp *p, uint8_t *buf, size_t buflen_all,
			     uint32_t dir, size_t size, size_t off,
			     int placement, uint32_t iters, struct reply *r)
{
	static char why[512];
	struct copy_res c;
	struct copy_req q;
	uint8_t *addr, *region, *lo, *hi;
	size_t bad, lo_len, hi_len;
	uint64_t sum = 0;

	addr = placement ? buf + buflen_all - off - size : buf;
	region = addr + off;
	lo = region - WINDOW < buf ? buf : region - WINDOW;
	lo_len = region - lo;
	hi = region + size;
	hi_len = (size_t)(buf + buflen_all - hi) < WINDOW ?
		 (size_t)(buf + buflen_all - hi) : WINDOW;

	memset(lo, CANARY, lo_len);
	memset(hi, CANARY, hi_len);
	if (dir == PERFPROBE_COPY_FROM_USER) {
		fill_random(region, size);
		sum = fnv1a(region, size);
	} else {
		memset(region, CANARY, size);
	}
	q = (struct copy_req){ .dir = dir, .addr = (uintptr_t)addr,
			       .buflen = off + size, .size = size,
			       .offset = off, .iters = iters };
	if (iters == 1 && (size & 1))
		q.iters = -1;		/* default iterations */
	if (off == 0 && (size & 2))
		q.offset = -1;		/* default offset */
	pp_copy(p, &q, &c, r);
	if (r->err) {
		snprintf(why, sizeof(why), "%s%s%s", errname(r->err),
			 r->has_ext ? ", kernel reports: " : "", r->has_ext ? r->ext : "");
		return why;
	}
	if (c.dir != dir || c.size != size || c.offset != off ||
	    c.iters != iters || c.bytes != (uint64_t)size * iters) {
		snprintf(why, sizeof(why),
			 "reply echoes dir %u size %" PRIu64 " offset %" PRIu64
			 " iterations %u bytes %" PRIu64, c.dir, c.size,
			 c.offset, c.iters, c.bytes);
		return why;
	}
	switch (dir) {
	case PERFPROBE_COPY_FROM_USER:
		if (!c.has_checksum) {
			snprintf(why, sizeof(why), "no COPY_CHECKSUM in reply");
			return why;
		}
		if (c.checksum != sum) {
			snprintf(why, sizeof(why), "checksum 0x%016" PRIx64
				 " != expected 0x%016" PRIx64, c.checksum, sum);
			return why;
		}
		if (fnv1a(region, size) != sum) {
			snprintf(why, sizeof(why), "from_user modified the source buffer");
			return why;
		}
		break;
	case PERFPROBE_COPY_TO_USER:
		for (size_t j = 0; j < size; j++)
			if (region[j] != PERFPROBE_COPY_PATTERN(j)) {
				snprintf(why, sizeof(why),
					 "byte %zu is 0x%02x, pattern says 0x%02x",
					 j, region[j], PERFPROBE_COPY_PATTERN(j));
				return why;
			}
		break;
	case PERFPROBE_COPY_CLEAR_USER:
		if (!bytes_are(region, size, 0, &bad)) {
			snprintf(why, sizeof(why), "byte %zu is 0x%02x, not 0",
				 bad, region[bad]);
			return why;
		}
		break;
	}
	if (!bytes_are(lo, lo_len, CANARY, &bad)) {
		snprintf(why, sizeof(why), "wrote %zu bytes before the region",
			 lo_len - bad);
		return why;
	}
	if (!bytes_are(hi, hi_len, CANARY, &bad)) {
		snprintf(why, sizeof(why), "wrote past the region (byte +%zu)", bad);
		return why;
	}
	return NULL;
}

static int cmd_copy(int argc, char **argv)
{
	static const size_t odd[] = { 3, 5, 7, 63, 65, 4095, 4097, 65535,
				      65537, 1048577, 3000001 };
	static const size_t offs[] = { 0, 1, 3, 7, 63 };
	static const uint32_t dirs[] = { PERFPROBE_COPY_TO_USER,
					 PERFPROBE_COPY_FROM_USER,
					 PERFPROBE_COPY_CLEAR_USER };
	size_t sizes[64];
	int nsizes = 0;
	size_t buflen_all = COPY_MAX_TEST_SIZE + 2 * PAGE;
	uint8_t *buf;
	struct pp p;

	for (int k = 0; k <= 22; k++)
		sizes[nsizes++] = 1UL << k;
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		sizes[nsizes++] = odd[i];

	if (open_or_fail(&p))
		return 1;
	buf = map_guarded(buflen_all);
	if (!buf) {
		tap(false, "COPY: mmap test buffer: %s", strerror(errno));
		return 1;
	}
	rng_state ^= (uint64_t)getpid() << 17;

	for (size_t d = 0; d < 3; d++) {
		int cases = 0, bad = 0;
		int64_t t0 = now_ns();
		uint64_t bytes = 0;

		for (int s = 0; s < nsizes; s++) {
			for (size_t o = 0; o < 5; o++) {
				for (int pl = 0; pl < 2; pl++) {
					struct reply r;
					const char *why;

					if (dirs[d] == PERFPROBE_COPY_CLEAR_USER && pl)
						continue;
					why = copy_case(&p, buf, buflen_all, dirs[d],
							sizes[s], offs[o], pl, 1, &r);
					cases++;
					bytes += sizes[s];
					if (why && ++bad <= 8)
						diag("COPY %s size %zu offset %zu %s: %s",
						     dir_name(dirs[d]), sizes[s], offs[o],
						     pl ? "(ends at a guard page)" : "(page start)",
						     why);
				}
			}
		}
		/* a few multi-iteration copies */
		for (int i = 0; i < 3; i++) {
			static const size_t msz[] = { 1, 4096, 65537 };
			struct reply r;
			const char *why = copy_case(&p, buf, buflen_all, dirs[d],
						    msz[i], 7, 0, 100, &r);

			cases++;
			if (why && ++bad <= 8)
				diag("COPY %s size %zu x 100 iterations: %s",
				     dir_name(dirs[d]), msz[i], why);
		}
		if (dirs[d] == PERFPROBE_COPY_FROM_USER)
			tap(bad == 0, "COPY from_user: checksum is the FNV-1a of the data in %d/%d cases (1 B .. 4 MiB, offsets 0,1,3,7,63, page start and guard-page end)",
			    cases - bad, cases);
		else if (dirs[d] == PERFPROBE_COPY_TO_USER)
			tap(bad == 0, "COPY to_user: data equals PERFPROBE_COPY_PATTERN, nothing outside touched, in %d/%d cases (1 B .. 4 MiB, offsets 0,1,3,7,63, page start and guard-page end)",
			    cases - bad, cases);
		else
			tap(bad == 0, "COPY clear_user: region zeroed, nothing outside touched, in %d/%d cases",
			    cases - bad, cases);
		diag("  %s: %" PRIu64 " bytes in %.2f s", dir_name(dirs[d]), bytes,
		     (now_ns() - t0) / 1e9);
	}
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ------------------------------------------------------------ test: bad */

struct aspec {
	int type;		/* may include NLA_F_NESTED etc. */
	int len;		/* payload length */
	uint64_t val;		/* value for len 1/2/4/8 (little endian) */
};

#define A(t, l, v) { (t), (l), (uint64_t)(v) }
/*
 * A single attribute outside its documented range is rejected by the
 * kernel's policy range check (NLA_POLICY_RANGE & co.) with -ERANGE, as the
 * ABI header says; combinations over a cap are -EINVAL.
 */
#define EXP_RANGE 2
#define END { -1, 0, 0 }

static struct nl_msg *build(struct pp *p, int cmd, int flags, const struct aspec *a)
{
	struct nl_msg *m = pp_msg(p, cmd, flags);

	for (; a && a->type >= 0; a++) {
		uint8_t payload[256] = { 0 };

		memcpy(payload, &a->val, a->len < 8 ? a->len : 8);
		if (a->len > 8)
			memset(payload + 8, 'x', a->len - 8);
		nla_put(m, a->type, a->len, payload);
	}
	return m;
}

struct bad_case {
	const char *name;
	int cmd;
	struct aspec attrs[10];
	int expect;		/* 0 success; < 0 this error; 1 any error;
				 * EXP_RANGE: -ERANGE (policy range check) */
	bool ext_optional;	/* the generic netlink core answers, no extack */
};

static int expect_case(struct pp *p, const char *name, int cmd, int flags,
		       const struct aspec *attrs, int expect, bool ext_optional)
{
	struct reply r;
	bool ok;

	pp_xfer(p, build(p, cmd, flags, attrs), NULL, NULL, &r);
	if (expect == 1)
		ok = r.err < 0 && r.err > -4096;
	else if (expect == EXP_RANGE)
		ok = r.err == -ERANGE;
	else
		ok = r.err == expect;
	if (expect != 0 && !ext_optional && !r.has_ext)
		ok = false;
	tap(ok, "%s: %s%s (expected %s%s)", name, errname(r.err),
	    r.has_ext ? " with extack" : (r.err && r.err > -4096 ? " without extack" : ""),
	    expect == 1 ? "an error" : expect == EXP_RANGE ? "-ERANGE" : errname(expect),
	    expect && !ext_optional ? " with extack" : "");
	if (r.has_ext)
		diag("  kernel reports: %s%s", r.ext, r.has_offs ? " (attribute offset given)" : "");
	else if (r.err <= PP_ERR_TIMEOUT && r.ext[0])
		diag("  %s", r.ext);
	return ok;
}

static int raw_case(struct pp *p, const char *name, const void *msg, size_t len,
		    int expect, bool ext_optional)
{
	uint8_t buf[512];
	struct reply r;
	bool ok;

	memcpy(buf, msg, len);
	pp_xfer_raw(p, buf, len, NULL, NULL, &r);
	ok = expect == 1 ? (r.err < 0 && r.err > -4096) : r.err == expect;
	if (expect && !ext_optional && !r.has_ext)
		ok = false;
	tap(ok, "%s: %s%s (expected %s)", name, errname(r.err),
	    r.has_ext ? " with extack" : (r.err && r.err > -4096 ? " without extack" : ""),
	    expect == 1 ? "an error" : errname(expect));
	if (r.has_ext)
		diag("  kernel reports: %s", r.ext);
	return ok;
}

/* Build a raw genl message: nlmsghdr + genlmsghdr + given attribute bytes. */
static size_t raw_msg(uint8_t *buf, int family, uint16_t flags, uint8_t cmd,
		      uint8_t version, uint16_t reserved, const void *attrs,
		      size_t alen)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);

	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = family;
	h->nlmsg_flags = flags;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	memcpy(buf + NLMSG_HDRLEN + GENL_HDRLEN, attrs, alen);
	h->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + alen;
	return h->nlmsg_len;
}

static int cmd_bad(int argc, char **argv)
{
	bool fresh = argc > 1 && !strcmp(argv[1], "--fresh");
	size_t blen = 64 * 1024;
	uint8_t *buf, *ro, *hole;
	uint64_t B, RO, HOLE, GUARD_END;
	struct pp p, p2;
	struct reply r;
	struct info in;
	uint32_t me = getpid();
	const uint16_t RQ = NLM_F_REQUEST | NLM_F_ACK;

	if (open_or_fail(&p))
		return 1;
	buf = map_guarded(blen);
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!buf || ro == MAP_FAILED || hole == MAP_FAILED) {
		tap(false, "bad inputs: mmap: %s", strerror(errno));
		return 1;
	}
	munmap(hole, 4 * PAGE);		/* now certainly unmapped */
	B = (uintptr_t)buf;
	RO = (uintptr_t)ro;
	HOLE = (uintptr_t)hole;
	GUARD_END = B + blen;		/* first byte of the trailing guard page */

	if (fresh)
		expect_case(&p, "TRACE_GET before any trace was started", PERFPROBE_CMD_TRACE_GET,
			    0, NULL, -ENOENT, false);
	expect_case(&p, "TRACE_STOP without an active trace", PERFPROBE_CMD_TRACE_STOP,
		    0, NULL, -ENOENT, false);

#define CP(dir, addr, buflen, size) \
	A(PERFPROBE_A_COPY_DIR, 4, dir), A(PERFPROBE_A_COPY_ADDR, 8, addr), \
	A(PERFPROBE_A_COPY_BUFLEN, 8, buflen), A(PERFPROBE_A_COPY_SIZE, 8, size)
	const uint32_t TO = PERFPROBE_COPY_TO_USER, FROM = PERFPROBE_COPY_FROM_USER,
		       CLR = PERFPROBE_COPY_CLEAR_USER;
	const struct bad_case cases[] = {
		{ "COPY size 0", PERFPROBE_CMD_COPY, { CP(TO, B, 64, 0), END }, EXP_RANGE },
		{ "COPY size 64 MiB + 1 (over the limit)", PERFPROBE_CMD_COPY,
		  { CP(TO, B, PERFPROBE_COPY_MAX_SIZE + 1, PERFPROBE_COPY_MAX_SIZE + 1), END }, EXP_RANGE },
		{ "COPY huge size 2^62", PERFPROBE_CMD_COPY, { CP(TO, B, 1ULL << 62, 1ULL << 62), END }, EXP_RANGE },
		{ "COPY size UINT64_MAX", PERFPROBE_CMD_COPY, { CP(FROM, B, UINT64_MAX, UINT64_MAX), END }, EXP_RANGE },
		{ "COPY to_user to NULL", PERFPROBE_CMD_COPY, { CP(TO, 0, 64, 64), END }, -EFAULT },
		{ "COPY from_user from NULL", PERFPROBE_CMD_COPY, { CP(FROM, 0, 64, 64), END }, -EFAULT },
		{ "COPY clear_user on NULL", PERFPROBE_CMD_COPY, { CP(CLR, 0, 64, 64), END }, -EFAULT },
		{ "COPY to_user to kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(TO, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY from_user from kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(FROM, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY clear_user on kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(CLR, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY to_user to non-canonical address 0x8000000000000000", PERFPROBE_CMD_COPY,
		  { CP(TO, 0x8000000000000000ULL, 64, 64), END }, -EFAULT },
		{ "COPY to_user to an unmapped address", PERFPROBE_CMD_COPY,
		  { CP(TO, HOLE, 4 * PAGE, 4 * PAGE), END }, -EFAULT },
		{ "COPY from_user from an unmapped address", PERFPROBE_CMD_COPY,
		  { CP(FROM, HOLE, 100, 100), END }, -EFAULT },
		{ "COPY to_user running into a PROT_NONE page (no short copy)", PERFPROBE_CMD_COPY,
		  { CP(TO, GUARD_END - 100, 200, 200), END }, -EFAULT },
		{ "COPY from_user running into a PROT_NONE page (no short copy)", PERFPROBE_CMD_COPY,
		  { CP(FROM, GUARD_END - 100, 200, 200), END }, -EFAULT },
		{ "COPY to_user to a read-only mapping", PERFPROBE_CMD_COPY,
		  { CP(TO, RO, 64, 64), END }, -EFAULT },
		{ "COPY from_user from a read-only mapping works", PERFPROBE_CMD_COPY,
		  { CP(FROM, RO, 64, 64), END }, 0 },
		{ "COPY with address + length wrapping around", PERFPROBE_CMD_COPY,
		  { CP(TO, UINT64_MAX - 10, 100, 100), END }, 1 },
		{ "COPY offset + size > buflen", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_OFFSET, 8, 1), END }, -EINVAL },
		{ "COPY offset 4097 (over the limit)", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 8192, 64), A(PERFPROBE_A_COPY_OFFSET, 8, 4097), END }, EXP_RANGE },
		{ "COPY iterations 0", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_ITERATIONS, 4, 0), END }, EXP_RANGE },
		{ "COPY iterations over the limit", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_ITERATIONS, 4, PERFPROBE_COPY_MAX_ITERATIONS + 1), END }, EXP_RANGE },
		{ "COPY size * iterations over 16 GiB", PERFPROBE_CMD_COPY,
		  { CP(TO, B, PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE),
		    A(PERFPROBE_A_COPY_ITERATIONS, 4, 257), END }, -EINVAL },
		{ "COPY direction 3 (unknown)", PERFPROBE_CMD_COPY, { CP(3, B, 64, 64), END }, EXP_RANGE },
		{ "COPY direction 0xffffffff", PERFPROBE_CMD_COPY, { CP(0xffffffffU, B, 64, 64), END }, EXP_RANGE },
		{ "COPY missing SIZE", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), END }, -EINVAL },
		{ "COPY missing ADDR", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY missing DIR", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_ADDR, 8, B), A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY missing BUFLEN", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY with no attributes at all", PERFPROBE_CMD_COPY, { END }, -EINVAL },
		{ "COPY SIZE sent as u32 (wrong length)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 4, 64), END }, -EINVAL },
		{ "COPY DIR sent as u64 (wrong length)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 8, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY ADDR with length 0", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 0, 0),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY SIZE as a 12-byte string (wrong type)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 12, 64), END }, -EINVAL },
		{ "COPY SIZE flagged NLA_F_NESTED (wrong type)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE | NLA_F_NESTED, 8, 64), END }, -EINVAL },
		{ "COPY with an extra unknown attribute", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(__PERFPROBE_A_MAX, 4, 1), END }, -EINVAL },
		{ "GET_INFO with unknown attribute type __PERFPROBE_A_MAX", PERFPROBE_CMD_GET_INFO,
		  { A(__PERFPROBE_A_MAX, 4, 0), END }, -EINVAL },
		{ "GET_INFO with unknown attribute type 0x3fff", PERFPROBE_CMD_GET_INFO,
		  { A(0x3fff, 8, 0), END }, -EINVAL },
		{ "unknown command 0x7f", 0x7f, { END }, -EOPNOTSUPP, true },
		{ "command 0 (PERFPROBE_CMD_UNSPEC)", PERFPROBE_CMD_UNSPEC, { END }, -EOPNOTSUPP, true },
		{ "command __PERFPROBE_CMD_MAX", __PERFPROBE_CMD_MAX, { END }, -EOPNOTSUPP, true },
		{ "TIMER period below the minimum", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MIN_PERIOD_NS - 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, EXP_RANGE },
		{ "TIMER period over the maximum", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MAX_PERIOD_NS + 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, EXP_RANGE },
		{ "TIMER count 0", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 100000), A(PERFPROBE_A_TIMER_COUNT, 4, 0), END }, EXP_RANGE },
		{ "TIMER count over the limit", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 1000), A(PERFPROBE_A_TIMER_COUNT, 4, PERFPROBE_TIMER_MAX_COUNT + 1), END }, EXP_RANGE },
		{ "TIMER period * count over PERFPROBE_TIMER_MAX_TOTAL_NS", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MAX_TOTAL_NS / 10),
		    A(PERFPROBE_A_TIMER_COUNT, 4, 11), END }, -EINVAL },
		{ "TIMER missing COUNT", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 100000), END }, -EINVAL },
		{ "TIMER PERIOD sent as u32", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 4, 100000), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, -EINVAL },
		{ "TRACE_START missing TGID", PERFPROBE_CMD_TRACE_START, { END }, -EINVAL },
		{ "TRACE_START TGID sent as u64", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 8, me), END }, -EINVAL },
		{ "TRACE_START TGID sent as u8", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 1, 1), END }, -EINVAL },
		{ "TRACE_START for a non-existent process", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0x3ffffff0), END }, 1 },
		{ "TRACE_START for tgid 0", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0), END }, EXP_RANGE },
		{ "TRACE_START with unknown feature bit 31", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, me), A(PERFPROBE_A_TRACE_FEATURES, 4, 1U << 31), END }, 1 },
	};
#undef CP

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_case(&p, cases[i].name, cases[i].cmd, 0, cases[i].attrs,
			    cases[i].expect, cases[i].ext_optional);

	/* hand-made messages */
	{
		uint8_t m[256];
		uint8_t attrs[32] = { 0 };
		struct nlattr *na = (struct nlattr *)attrs;
		size_t n;

		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_GET_INFO, 1, 0x1234, NULL, 0);
		raw_case(&p, "GET_INFO with non-zero genlmsghdr.reserved", m, n, -EINVAL, false);

		n = raw_msg(m, p.family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_ROOT,
			    PERFPROBE_CMD_GET_INFO, 1, 0, NULL, 0);
		raw_case(&p, "GET_INFO with ambiguous nlmsg_flags (NLM_F_ROOT only)", m, n, -EINVAL, false);

		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_GET_INFO, 1, 0, NULL, 0);
		((struct nlmsghdr *)m)->nlmsg_len = NLMSG_HDRLEN + 2;
		raw_case(&p, "message truncated inside the genl header", m, NLMSG_HDRLEN + 2, -EINVAL, true);

		/* attribute claiming more bytes than the message has */
		na->nla_type = PERFPROBE_A_COPY_SIZE;
		na->nla_len = 200;
		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_COPY, 1, 0, attrs, 12);
		raw_case(&p, "COPY with an attribute longer than the message", m, n, -EINVAL, false);

		/* attribute with nla_len < sizeof(struct nlattr) */
		na->nla_type = PERFPROBE_A_COPY_SIZE;
		na->nla_len = 2;
		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_COPY, 1, 0, attrs, 8);
		raw_case(&p, "COPY with an attribute of nla_len 2", m, n, -EINVAL, false);
	}

	/* trace ownership */
	if (pp_open(&p2) == 0) {
		uint32_t en;

		pp_trace_start(&p, me, -1, &en, &r);
		report("TRACE_START (own tgid)", &r);
		tap(r.err == 0, "TRACE_START for the own process works (features 0x%x)", en);
		if (r.err == 0) {
			pp_trace_start(&p, me, -1, NULL, &r);
			tap(r.err == -EBUSY && r.has_ext,
			    "second TRACE_START while a trace is active: %s (expected -EBUSY with extack)",
			    errname(r.err));
			if (r.has_ext)
				diag("  kernel reports: %s", r.ext);
			pp_trace_start(&p2, me, -1, NULL, &r);
			tap(r.err == -EBUSY, "TRACE_START from another socket while a trace is active: %s (expected -EBUSY)",
			    errname(r.err));
			pp_trace_stop(&p2, &r);
			tap(r.err == -EBUSY && r.has_ext,
			    "TRACE_STOP from a socket that does not own the trace: %s (expected -EBUSY with extack)",
			    errname(r.err));
			if (r.has_ext)
				diag("  kernel reports: %s", r.ext);
			pp_trace_stop(&p, &r);
			report("TRACE_STOP", &r);
			tap(r.err == 0, "TRACE_STOP by the owner works");
		}
		pp_close(&p2);
	}

	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	tap(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
	    "GET_INFO still answers after all bad inputs");
	diag("%lu stale messages skipped", p.stale);
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ------------------------------------------------- test: trace-syscalls */

/* a process that makes `n` getppid() calls each time it reads a byte */
static pid_t spawn_getppid_child(int *to, int *from, int n)
{
	int a[2], b[2];
	pid_t pid;
	char c;

	if (pipe(a) || pipe(b))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		while (read(a[0], &c, 1) == 1) {
			for (int i = 0; i < n; i++)
				syscall(SYS_getppid);
			if (write(b[1], &c, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	*to = a[1];
	*from = b[0];
	return pid;
}

static int trace_getppid_case(struct pp *p, bool trace_child, int n, int m,
			      struct info *in)
{
	int to, from;
	pid_t child = spawn_getppid_child(&to, &from, m);
	uint32_t tgid, en = 0;
	const struct sc_entry *e;
	struct trace t;
	struct reply r;
	uint64_t got = 0, want;
	const char *why = NULL;
	char c = 'g';

	if (child < 0) {
		tap(false, "fork: %s", strerror(errno));
		return 1;
	}
	tgid = trace_child ? (uint32_t)child : (uint32_t)getpid();
	want = trace_child ? (uint64_t)m : (uint64_t)n;
	pp_trace_start(p, tgid, PERFPROBE_CAP_SYSCALL_TRACE, &en, &r);
	report("TRACE_START", &r);
	if (r.err) {
		why = "TRACE_START failed";
		goto out;
	}
	/* the other process makes its calls while we make ours */
	if (write(to, &c, 1) != 1)
		why = "pipe";
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (read(from, &c, 1) != 1)
		why = "pipe";
	pp_trace_stop(p, &r);
	report("TRACE_STOP", &r);
	if (r.err && !why)
		why = "TRACE_STOP failed";
	pp_trace_get(p, true, &t, &r);
	report("TRACE_GET (dump)", &r);
	if (r.err) {
		if (!why)
			why = "TRACE_GET failed";
		goto out;
	}
	e = find_sc(&t, SYS_getppid);
	got = e ? e->st.count : 0;
	if (!why && got != want)
		why = "wrong getppid count";
	if (!why && t.tgid != tgid)
		why = "summary TGID differs";
	if (!why && t.active)
		why = "trace still active after TRACE_STOP";
	if (!why && e && stats_bad(&e->st))
		why = stats_bad(&e->st);
	for (int i = 0; i < t.nsc && !why; i++)
		if (stats_bad(&t.sc[i].st))
			why = "inconsistent stats of another syscall";
	for (int i = 1; i < t.nsc && !why; i++)
		if (t.sc[i].nr <= t.sc[i - 1].nr)
			why = "syscalls not in ascending order";
	for (int i = 0; i < t.nsc && !why; i++)
		if (in->syscall_max && t.sc[i].nr >= in->syscall_max)
			why = "syscall number >= SYSCALL_MAX";
	diag("traced tgid %u: %d syscall numbers, getppid count %" PRIu64
	     " (mean %" PRIu64 " ns), dropped %" PRIu64 ", duration %" PRIu64 " ns",
	     t.tgid, t.nsc, got, e ? e->st.mean : 0, t.dropped, t.duration);
out:
	close(to);
	close(from);
	waitpid(child, NULL, 0);
	if (trace_child)
		tap(!why, "trace of another process (tgid %u): exactly its %d getppid() calls counted, none of our %d (got %" PRIu64 ")%s%s",
		    tgid, m, n, got, why ? ": " : "", why ? why : "");
	else
		tap(!why, "trace of the own process: exactly %d getppid() calls counted, none of another process's %d made meanwhile (got %" PRIu64 ")%s%s",
		    n, m, got, why ? ": " : "", why ? why : "");
	return !!why;
}

static int cmd_trace_syscalls(int argc, char **argv)
{
	int n = 1000, opt;
	struct info in;
	struct reply r;
	struct pp p;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			n = atoi(optarg);
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	if (r.err || !(in.caps & PERFPROBE_CAP_SYSCALL_TRACE)) {
		tap(false, "syscall tracing available (caps 0x%x, %s)", in.caps,
		    errname(r.err));
		return 1;
	}
	trace_getppid_case(&p, false, n, n * 7 / 10 + 13, &in);
	trace_getppid_case(&p, true, n / 2 + 17, n, &in);
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* --------------------------------------------------- test: trace-faults */

/* helper process: waits for a byte on stdin, touches N fresh pages, answers */
static int cmd_touch_child(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1024;
	char c;
	uint8_t *m = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return 1;
	madvise(m, n * PAGE, MADV_NOHUGEPAGE);
	if (read(0, &c, 1) != 1)
		return 1;
	for (long i = 0; i < n; i++)
		m[i * PAGE] = 1;
	if (write(1, &c, 1) != 1)
		return 1;
	(void)!read(0, &c, 1);	/* wait for EOF */
	return 0;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static int cmd_trace_faults(int argc, char **argv)
{
	long n = 8192, m = 4096;
	int opt;
	struct info in;
	struct reply r;
	struct trace t;
	struct pp p;
	uint32_t want = 0, en = 0;
	int to[2], from[2];
	posix_spawn_file_actions_t fa;
	pid_t child;
	char nbuf[32], c = 'x';
	char *cargv[] = { "pp-vmtest", "touch-child", nbuf, NULL };
	uint8_t *mem, warm[65536];
	uint64_t tol;
	const char *why = NULL;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			n = atol(optarg);
	tol = n / 100;
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	if (in.caps & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		want |= PERFPROBE_CAP_PGFAULT_KRETPROBE;
	if (in.caps & PERFPROBE_CAP_PGFAULT_TP)
		want |= PERFPROBE_CAP_PGFAULT_TP;
	if (!want) {
		tap_skip(in.pgfault_reason[0] ? in.pgfault_reason : "no page-fault probe",
			 "page-fault trace counts %ld fresh pages", n);
		return 0;
	}

	/* The other faulting process is spawned (vfork+exec), not forked: a
	 * fork would make our own next writes copy-on-write faults. */
	snprintf(nbuf, sizeof(nbuf), "%ld", m);
	if (pipe(to) || pipe(from))
		return 1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from[1], 1);
	posix_spawn_file_actions_addclose(&fa, to[1]);
	posix_spawn_file_actions_addclose(&fa, from[0]);
	if (posix_spawn(&child, self_exe(), &fa, NULL, cargv, environ)) {
		tap(false, "spawn touch-child: %s", strerror(errno));
		return 1;
	}
	close(to[0]);
	close(from[1]);

	mem = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		tap(false, "mmap %ld pages: %s", n, strerror(errno));
		return 1;
	}
	madvise(mem, n * PAGE, MADV_NOHUGEPAGE);
	memset(warm, 1, sizeof(warm));	/* pre-fault our stack */
	pp_trace_get(&p, false, &t, &r);	/* warm up the receive path */

	pp_trace_start(&p, getpid(), want, &en, &r);
	report("TRACE_START", &r);
	if (r.err) {
		why = "TRACE_START failed";
		goto out;
	}
	if (write(to[1], &c, 1) != 1)
		why = "pipe";
	for (long i = 0; i < n; i++)
		((volatile uint8_t *)mem)[i * PAGE] = (uint8_t)i | warm[i & 1023];
	if (read(from[0], &c, 1) != 1)
		why = "pipe";
	pp_trace_stop(&p, &r);
	report("TRACE_STOP", &r);
	pp_trace_get(&p, false, &t, &r);
	report("TRACE_GET", &r);
	if (r.err) {
		why = "TRACE_GET failed";
		goto out;
	}
	diag("features 0x%x; minor %" PRIu64 " (mean %" PRIu64 " ns) major %"
	     PRIu64 " retry %" PRIu64 " error %" PRIu64 " missed %" PRIu64
	     " tp_count %" PRIu64 "; expected %ld +- %" PRIu64,
	     en, t.minor.count, t.minor.mean, t.major.count, t.retry, t.error,
	     t.missed, t.tp_count, n, tol);
	if (!t.has_pgfault)
		why = "no PGFAULT nest in TRACE_GET";
	else if ((en & PERFPROBE_CAP_PGFAULT_KRETPROBE) &&
		 absdiff(t.minor.count, n) > tol)
		why = "minor fault count off by more than 1%";
	else if ((en & PERFPROBE_CAP_PGFAULT_TP) && absdiff(t.tp_count, n) > tol)
		why = "page_fault_user count off by more than 1%";
	else if ((en & PERFPROBE_CAP_PGFAULT_KRETPROBE) && stats_bad(&t.minor))
		why = stats_bad(&t.minor);
out:
	close(to[1]);
	close(from[0]);
	waitpid(child, NULL, 0);
	munmap(mem, n * PAGE);
	tap(!why, "page-fault trace: touching %ld fresh pages gives %ld minor faults within 1%% (got %" PRIu64
	    " minor, %" PRIu64 " tracepoint), another process's %ld faults not counted%s%s",
	    n, n, t.minor.count, t.tp_count, m, why ? ": " : "", why ? why : "");
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ---------------------------------------------------------- test: privs */

/*
 * Requests with invalid attributes: a caller without CAP_NET_ADMIN must
 * get -EPERM from the core before any attribute is looked at (with
 * CAP_NET_ADMIN they would be -ERANGE/-EINVAL).
 */
static void privs_invalid(struct pp *p, const char *who)
{
	static const struct {
		const char *name;
		int cmd;
		struct aspec attrs[4];
	} cases[] = {
		{ "TIMER with period 1 ns (out of range)", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END } },
		{ "COPY with an unknown attribute", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_MAX + 1, 4, 0), END } },
		{ "COPY with a u64 attribute of 4 bytes", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_SIZE, 4, 1), END } },
		{ "TRACE_START with tgid 0 and unknown features", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0), A(PERFPROBE_A_TRACE_FEATURES, 4, 1U << 31), END } },
	};
	char name[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "%s: %s is refused before parsing", who, cases[i].name);
		expect_case(p, name, cases[i].cmd, 0, cases[i].attrs, -EPERM, true);
	}
}

/*
 * --expect-eperm: no capability; --perfmon: CAP_PERFMON only;
 * --net-admin: CAP_NET_ADMIN only; --allowed: CAP_NET_ADMIN + CAP_PERFMON.
 * Only --allowed may use the module (Documentation/kmod.rst).
 */
static int cmd_privs(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "--expect-eperm";
	bool allowed = !strcmp(mode, "--allowed");
	bool net_admin = allowed || !strcmp(mode, "--net-admin");
	bool perfmon = allowed || !strcmp(mode, "--perfmon");
	uint8_t *buf = map_guarded(PAGE);
	struct copy_req q = { PERFPROBE_COPY_TO_USER, (uintptr_t)buf, 256, 256, -1, -1 };
	struct copy_res c;
	struct timer_res tr;
	struct info in;
	struct trace t;
	struct reply r;
	struct pp p;
	uid_t uid = getuid();

	diag("running as uid %u gid %u, CAP_SYS_ADMIN %d, CAP_NET_ADMIN %d, CAP_PERFMON %d", uid,
	     getgid(), have_cap(CAP_SYS_ADMIN), have_cap(CAP_NET_ADMIN), have_cap(CAP_PERFMON));
	if (open_or_fail(&p))
		return 1;
	memset(buf, CANARY, 256);
	if (!allowed) {
		const char *who = !net_admin && !perfmon ? "unprivileged user" :
				  perfmon ? "user with only CAP_PERFMON" :
				  "user with only CAP_NET_ADMIN";
		size_t bad;

		tap(uid != 0 && !have_cap(CAP_SYS_ADMIN) && have_cap(CAP_NET_ADMIN) == net_admin &&
		    have_cap(CAP_PERFMON) == perfmon && !privileged(),
		    "%s: capability set is as intended", who);
#define EXPECT_EPERM(what) do { \
		report(what, &r); \
		tap(r.err == -EPERM && (!net_admin || r.has_ext), \
		    "%s: %s is refused: %s%s (expected -EPERM%s)", who, what, errname(r.err), \
		    r.has_ext ? " with extack" : "", net_admin ? " with extack" : ""); \
	} while (0)
		pp_get_info(&p, &in, &r);
		EXPECT_EPERM("GET_INFO");
		pp_timer(&p, 100000, 10, &tr, &r);
		EXPECT_EPERM("TIMER");
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY to_user");
		tap(bytes_are(buf, 256, CANARY, &bad), "%s: refused COPY to_user wrote nothing", who);
		q.dir = PERFPROBE_COPY_FROM_USER;
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY from_user");
		q.dir = PERFPROBE_COPY_CLEAR_USER;
		pp_copy(&p, &q, &c, &r);
		EXPECT_EPERM("COPY clear_user");
		tap(bytes_are(buf, 256, CANARY, &bad), "%s: refused COPY clear_user wrote nothing", who);
		pp_trace_start(&p, getpid(), -1, NULL, &r);
		EXPECT_EPERM("TRACE_START (own process)");
		pp_trace_start(&p, 1, -1, NULL, &r);
		EXPECT_EPERM("TRACE_START (init)");
		pp_trace_stop(&p, &r);
		EXPECT_EPERM("TRACE_STOP");
		pp_trace_get(&p, false, &t, &r);
		EXPECT_EPERM("TRACE_GET");
		pp_trace_get(&p, true, &t, &r);
		EXPECT_EPERM("TRACE_GET dump");
#undef EXPECT_EPERM
		if (!net_admin)
			privs_invalid(&p, who);
	} else {
		const char *who = "user with CAP_NET_ADMIN and CAP_PERFMON";
		uint32_t en;

		tap(uid != 0 && privileged() && !have_cap(CAP_SYS_ADMIN),
		    "%s: capability set is as intended", who);
		pp_get_info(&p, &in, &r);
		report("GET_INFO", &r);
		tap(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION, "%s: GET_INFO works", who);
		pp_copy(&p, &q, &c, &r);
		report("COPY", &r);
		tap(r.err == 0 && buf[255] == PERFPROBE_COPY_PATTERN(255), "%s: COPY to_user works", who);
		pp_trace_start(&p, getpid(), -1, &en, &r);
		report("TRACE_START", &r);
		tap(r.err == 0, "%s: TRACE_START on the own process works", who);
		for (int i = 0; i < 10; i++)
			syscall(SYS_getppid);
		pp_trace_stop(&p, &r);
		report("TRACE_STOP", &r);
		tap(r.err == 0, "%s: TRACE_STOP works", who);
		pp_trace_get(&p, true, &t, &r);
		report("TRACE_GET", &r);
		tap(r.err == 0, "%s: TRACE_GET works", who);
	}
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* ---------------------------------------------------- test: copy-budget */

#define PP_DEBUGFS_INFO	"/sys/kernel/debug/perfprobe/info"

/* copy_inflight_bytes from debugfs, or -1 */
static int64_t copy_inflight(void)
{
	FILE *f = fopen(PP_DEBUGFS_INFO, "re");
	char line[256];
	int64_t v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "copy_inflight_bytes: %" SCNd64, &v) == 1)
			break;
	fclose(f);
	return v;
}

struct budget_holder {
	pthread_t th;
	uint8_t *buf;
	struct reply r;
	struct copy_res c;
};

/* A maximal FROM_USER COPY that blocks on the userfaultfd page at buf. */
static void *budget_hold(void *arg)
{
	struct budget_holder *h = arg;
	struct copy_req q = { PERFPROBE_COPY_FROM_USER, (uintptr_t)h->buf,
			      PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE, -1, 1 };
	struct pp p;

	if (pp_open(&p)) {
		h->r.err = PP_ERR_LOCAL;
		return NULL;
	}
	p.timeout_ms = 120000;
	pp_copy(&p, &q, &h->c, &h->r);
	pp_close(&p);
	return NULL;
}

/*
 * Two maximal COPY requests hold PERFPROBE_COPY_MAX_INFLIGHT_BYTES - 8 KiB
 * of kernel buffer while their copy_from_user() waits on a userfaultfd
 * page, so the budget is known to be taken (no timing): a third maximal
 * request gets -EBUSY, 8 KiB still fits, 8 KiB + 1 does not.  Then the
 * page is supplied, both holders finish, the budget is back to 0 (also
 * after a faulting request) and a maximal request works again.
 */
static int cmd_copy_budget(int argc, char **argv)
{
	const uint64_t max = PERFPROBE_COPY_MAX_SIZE;
	const int nhold = PERFPROBE_COPY_MAX_INFLIGHT_BYTES / (max + PERFPROBE_COPY_MAX_OFFSET);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct budget_holder hold[4];
	uint8_t *small = map_guarded(4 * PAGE);
	struct copy_req q = { PERFPROBE_COPY_FROM_USER, 0, 0, 0, -1, 1 };
	struct uffd_msg msg;
	struct copy_res c;
	struct reply r;
	struct pp p;
	int64_t used = -1;
	int uffd, i, faults = 0;
	uint8_t *buf;

	(void)argc;
	(void)argv;
	tap(nhold == 2, "the budget holds %d maximal requests (expected 2)", nhold);
	if (nhold < 1 || nhold > 4 || !small || copy_inflight() != 0) {
		tap(false, "copy-budget: setup (debugfs %s reads %" PRId64 ")", PP_DEBUGFS_INFO,
		    copy_inflight());
		return 1;
	}
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	buf = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	reg.range.start = (uintptr_t)buf;
	reg.range.len = PAGE;
	if (uffd < 0 || buf == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		tap(false, "copy-budget: userfaultfd on the first page: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < nhold; i++) {
		memset(&hold[i], 0, sizeof(hold[i]));
		hold[i].buf = buf;
		pthread_create(&hold[i].th, NULL, budget_hold, &hold[i]);
	}
	/* every holder has reserved its buffer once the debugfs sum says so */
	for (i = 0; i < 3000; i++) {
		used = copy_inflight();
		if (used == (int64_t)(nhold * max))
			break;
		sleep_ms(10);
	}
	while (faults < nhold) {
		struct pollfd pfd = { uffd, POLLIN, 0 };

		if (poll(&pfd, 1, 30000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			break;
		faults += msg.event == UFFD_EVENT_PAGEFAULT;
	}
	tap(used == (int64_t)(nhold * max) && faults == nhold,
	    "%d maximal COPY requests hold %" PRId64 " bytes, blocked in copy_from_user (%d faults)",
	    nhold, used, faults);

	if (open_or_fail(&p))
		return 1;
	q.addr = (uintptr_t)buf;
	q.buflen = q.size = max;
	pp_copy(&p, &q, &c, &r);
	report("COPY over the budget", &r);
	tap(r.err == -EBUSY && r.has_ext, "one more maximal COPY: %s%s (expected -EBUSY with extack)",
	    errname(r.err), r.has_ext ? " with extack" : "");
	q.addr = (uintptr_t)small;
	q.buflen = 4 * PAGE;
	q.size = PERFPROBE_COPY_MAX_INFLIGHT_BYTES - nhold * max;
	pp_copy(&p, &q, &c, &r);
	report("COPY of the budget's rest", &r);
	tap(r.err == 0 && c.bytes == q.size, "a COPY of the %" PRIu64 " bytes left works: %s",
	    q.size, errname(r.err));
	q.size++;
	pp_copy(&p, &q, &c, &r);
	tap(r.err == -EBUSY, "a COPY of one byte more: %s (expected -EBUSY)", errname(r.err));

	{
		struct uffdio_zeropage zp = { .range = { (uintptr_t)buf, PAGE } };

		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
			diag("UFFDIO_ZEROPAGE: %s", strerror(errno));
	}
	for (i = 0; i < nhold; i++) {
		pthread_join(hold[i].th, NULL);
		report("holder COPY", &hold[i].r);
		tap(hold[i].r.err == 0 && hold[i].c.bytes == max,
		    "holder %d finished once the page came: %s, %" PRIu64 " bytes", i,
		    errname(hold[i].r.err), hold[i].c.bytes);
	}
	/* a request that faults returns its reservation too */
	q.addr = (uintptr_t)small;
	q.buflen = q.size = 5 * PAGE;
	pp_copy(&p, &q, &c, &r);
	tap(r.err == -EFAULT, "a COPY running into a guard page: %s (expected -EFAULT)",
	    errname(r.err));
	used = copy_inflight();
	tap(used == 0, "the budget is all returned: %" PRId64 " bytes in use", used);
	q.addr = (uintptr_t)buf;
	q.buflen = q.size = max;
	pp_copy(&p, &q, &c, &r);
	report("maximal COPY after", &r);
	tap(r.err == 0, "a maximal COPY works again: %s", errname(r.err));
	pp_close(&p);
	close(uffd);
	munmap(buf, max);
	return n_fail ? 1 : 0;
}

/* ----------------------------------------------------- test: concurrent */

static int concurrent_worker(int id, int iters)
{
	uint8_t *buf = map_guarded(128 * 1024);
	int bad = 0, starts = 0, busy = 0, copies = 0;
	struct pp p;
	struct reply r;
	struct info in;

	rng_state ^= (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
	if (pp_open(&p) || !buf) {
		printf("# client %d: cannot open socket\n", id);
		return 100;
	}
	for (int i = 0; i < iters; i++) {
		size_t size = 1 + rnd_below(64 * 1024), off = rnd_below(64);
		const char *why;

		if (pp_get_info(&p, &in, &r) || in.abi != PERFPROBE_GENL_VERSION) {
			printf("# client %d: GET_INFO %s\n", id, errname(r.err));
			bad++;
		}
		why = copy_case(&p, buf, 128 * 1024, PERFPROBE_COPY_TO_USER, size,
				off, i & 1, 1 + (i % 3), &r);
		if (why) {
			printf("# client %d: COPY to_user %zu@%zu: %s\n", id, size, off, why);
			bad++;
		}
		why = copy_case(&p, buf, 128 * 1024, PERFPROBE_COPY_FROM_USER, size,
				off, !(i & 1), 1, &r);
		if (why) {
			printf("# client %d: COPY from_user %zu@%zu: %s\n", id, size, off, why);
			bad++;
		}
		copies += 2;
		if (i % 5 == id) {
			uint32_t en;
			struct trace t;
			const struct sc_entry *e;

			pp_trace_start(&p, getpid(), PERFPROBE_CAP_SYSCALL_TRACE, &en, &r);
			if (r.err == -EBUSY) {
				busy++;
				continue;
			}
			if (r.err) {
				printf("# client %d: TRACE_START %s %s\n", id, errname(r.err), r.ext);
				bad++;
				continue;
			}
			starts++;
			for (int k = 0; k < 20 + id; k++)
				syscall(SYS_getppid);
			pp_trace_get(&p, true, &t, &r);
			e = find_sc(&t, SYS_getppid);
			if (r.err || t.tgid != (uint32_t)getpid() || !t.active ||
			    !e || e->st.count != (uint64_t)(20 + id)) {
				printf("# client %d: own trace results wrong: %s tgid %u active %d getppid %" PRIu64 "\n",
				       id, errname(r.err), t.tgid, t.active, e ? e->st.count : 0);
				bad++;
			}
			pp_trace_stop(&p, &r);
			if (r.err) {
				printf("# client %d: TRACE_STOP of own trace %s\n", id, errname(r.err));
				bad++;
			}
		}
	}
	printf("# client %d: %d copies, %d traces, %d EBUSY, %d problems\n", id,
	       copies, starts, busy, bad);
	fflush(stdout);
	pp_close(&p);
	return bad ? 1 : (starts ? 0 : 2);
}

static int cmd_concurrent(int argc, char **argv)
{
	int iters = 100, opt, st[2] = { 0, 0 };
	pid_t pid[2];

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			iters = atoi(optarg);
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			_exit(concurrent_worker(i, iters));
	}
	for (int i = 0; i < 2; i++)
		waitpid(pid[i], &st[i], 0);
	tap(WIFEXITED(st[0]) && WIFEXITED(st[1]) &&
	    WEXITSTATUS(st[0]) != 1 && WEXITSTATUS(st[1]) != 1 &&
	    WEXITSTATUS(st[0]) != 100 && WEXITSTATUS(st[1]) != 100,
	    "two concurrent clients: all GET_INFO/COPY/TRACE results correct, TRACE_START either works or says -EBUSY");
	tap(WIFEXITED(st[0]) && WIFEXITED(st[1]) &&
	    (WEXITSTATUS(st[0]) == 0 || WEXITSTATUS(st[1]) == 0),
	    "two concurrent clients: at least one of them got to trace");
	return n_fail ? 1 : 0;
}

/* ----------------------------------------------------------- test: fuzz */

static uint8_t *fuzz_buf;

static uint64_t interesting64(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 63, 64, 4095, 4096, 4097, 65536, 1 << 20,
		PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE + 1,
		1ULL << 62, UINT64_MAX, 0x8000000000000000ULL, KERNEL_ADDR,
		1000, 1000000, 1000000000, 2000000000, UINT32_MAX,
	};
	switch (rnd_below(4)) {
	case 0:
		return (uintptr_t)fuzz_buf + rnd_below(8192);
	case 1:
		return rnd();
	default:
		return v[rnd_below(sizeof(v) / sizeof(v[0]))];
	}
}

static uint32_t interesting32(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 255, 100, 1000, 100000, 100001,
		1000000, 1000001, UINT32_MAX, 0x80000000, 0x7fffffff,
	};
	switch (rnd_below(4)) {
	case 0:
		return getpid();
	case 1:
		return (uint32_t)rnd();
	default:
		return v[rnd_below(sizeof(v) / sizeof(v[0]))];
	}
}

static size_t fuzz_attr(uint8_t *out, size_t room, int depth)
{
	struct nlattr *na = (struct nlattr *)out;
	size_t len, total;
	int type;

	switch (rnd_below(20)) {
	case 0 ... 13:
		type = 1 + rnd_below(__PERFPROBE_A_MAX - 1);
		break;
	case 14 ... 16:
		type = rnd_below(2) ? 0 : __PERFPROBE_A_MAX + rnd_below(4);
		break;
	case 17 ... 18:
		type = rnd_below(0x8000);
		break;
	default:
		type = (1 + rnd_below(__PERFPROBE_A_MAX)) | NLA_F_NESTED;
		break;
	}
	switch (rnd_below(12)) {
	case 0 ... 3:
		len = 4;
		break;
	case 4 ... 6:
		len = 8;
		break;
	case 7:
		len = 0;
		break;
	case 8:
		len = 1 + rnd_below(3);
		break;
	case 9:
		len = 16 << rnd_below(3);
		break;
	default:
		len = rnd_below(100);
		break;
	}
	if (NLA_HDRLEN + NLA_ALIGN(len) > room)
		return 0;
	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	if (len == 4) {
		uint32_t v = interesting32();

		memcpy(out + NLA_HDRLEN, &v, 4);
	} else if (len == 8) {
		uint64_t v = interesting64();

		memcpy(out + NLA_HDRLEN, &v, 8);
	} else if (depth < 2 && len >= NLA_HDRLEN && rnd_below(3) == 0) {
		/* nested garbage */
		size_t used = 0;

		while (used + NLA_HDRLEN <= len) {
			size_t a = fuzz_attr(out + NLA_HDRLEN + used, len - used, depth + 1);

			if (!a)
				break;
			used += a;
		}
		memset(out + NLA_HDRLEN + used, 0, len - used);
		if (rnd_below(2))
			na->nla_type |= NLA_F_NESTED;
	} else {
		fill_random(out + NLA_HDRLEN, len);
		if (len && rnd_below(2))
			out[NLA_HDRLEN + len - 1] = 0;	/* string-ish */
	}
	total = NLA_HDRLEN + NLA_ALIGN(len);
	memset(out + NLA_HDRLEN + len, 0, total - NLA_HDRLEN - len);
	return total;
}

static int fuzz_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	if (!genlmsg_valid_hdr(h, 0) ||
	    genlmsg_parse(h, 0, tb, PERFPROBE_A_MAX, NULL) < 0) {
		(*(int *)arg)++;
		return PP_ERR_PARSE;
	}
	return 0;
}

static int cmd_fuzz(int argc, char **argv)
{
	long count = 3000;
	int seconds = 45, opt, malformed = 0;
	uint64_t seed = 1;
	bool priv = privileged();
	long sent = 0, succeeded = 0, timeouts = 0, local = 0, badrange = 0;
	long errs[7] = { 0 };	/* EPERM EINVAL EOPNOTSUPP EFAULT EBUSY other none */
	int64_t deadline;
	struct pp p;
	struct reply r;
	struct info in;

	while ((opt = getopt(argc, argv, "n:s:t:")) != -1) {
		switch (opt) {
		case 'n': count = atol(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = atoi(optarg); break;
		}
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	fuzz_buf = map_guarded(64 * 1024);
	if (open_or_fail(&p))
		return 1;
	p.timeout_ms = 10000;
	diag("fuzz: %ld messages, seed %" PRIu64 ", %s, time budget %d s", count,
	     seed, priv ? "privileged" : "unprivileged", seconds);
	deadline = now_ns() + (int64_t)seconds * 1000000000LL;
	alarm(seconds + 60);	/* a fatal signal also aborts long kernel loops */

	for (sent = 0; sent < count && now_ns() < deadline; sent++) {
		uint8_t msg[1024];
		struct nlmsghdr *h = (struct nlmsghdr *)msg;
		struct genlmsghdr *g = (struct genlmsghdr *)(msg + NLMSG_HDRLEN);
		size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
		int nattrs = rnd_below(7);
		uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
		int k;

		memset(msg, 0, len);
		switch (rnd_below(20)) {
		case 0 ... 1: flags |= NLM_F_DUMP; break;
		case 2: flags |= NLM_F_ECHO; break;
		case 3: flags |= 1U << (2 + rnd_below(10)); break;
		}
		k = rnd_below(20);
		g->cmd = k < 15 ? 1 + rnd_below(PERFPROBE_CMD_MAX) :
			 k < 18 ? rnd_below(12) : rnd_below(256);
		g->version = rnd_below(10) ? PERFPROBE_GENL_VERSION : rnd_below(256);
		g->reserved = rnd_below(30) ? 0 : rnd();
		for (int i = 0; i < nattrs; i++)
			len += fuzz_attr(msg + len, sizeof(msg) - len, 0);
		if (len > NLMSG_HDRLEN + GENL_HDRLEN && rnd_below(20) == 0) {
			/* corrupt the first attribute's length */
			struct nlattr *na = (struct nlattr *)(msg + NLMSG_HDRLEN + GENL_HDRLEN);

			na->nla_len = rnd_below(2) ? rnd_below(4) : 0xffff;
		}
		h->nlmsg_len = len;
		h->nlmsg_type = p.family;
		h->nlmsg_flags = flags;

		pp_xfer_raw(&p, msg, len, fuzz_cb, &malformed, &r);
		if (r.err == PP_ERR_TIMEOUT) {
			timeouts++;
			diag("fuzz message %ld (cmd %u, %zu bytes) got no answer", sent, g->cmd, len);
			break;
		}
		if (r.err == PP_ERR_LOCAL) {
			local++;
			diag("fuzz message %ld: %s", sent, r.ext);
			break;
		}
		if (r.err == 0)
			succeeded++;
		if (r.err > 0 || r.err < -4095)
			badrange++;
		errs[r.err == -EPERM ? 0 : r.err == -EINVAL ? 1 :
		     r.err == -EOPNOTSUPP ? 2 : r.err == -EFAULT ? 3 :
		     r.err == -EBUSY ? 4 : r.err ? 5 : 6]++;
		if (!priv && (r.err == 0 || r.nmsgs)) {
			if (succeeded <= 5)
				diag("unprivileged fuzz message %ld (cmd %u) was answered with %s and %d data messages",
				     sent, g->cmd, errname(r.err), r.nmsgs);
		}
	}
	alarm(0);
	diag("fuzz: %ld sent; success %ld, EPERM %ld, EINVAL %ld, EOPNOTSUPP %ld, EFAULT %ld, EBUSY %ld, other %ld; %lu stale",
	     sent, errs[6], errs[0], errs[1], errs[2], errs[3], errs[4], errs[5], p.stale);
	tap(timeouts == 0 && local == 0 && badrange == 0 && malformed == 0 && sent > 0,
	    "fuzz (%s, seed %" PRIu64 "): %ld random messages each answered with a well-formed reply or error",
	    priv ? "root" : "unprivileged", seed, sent);
	if (!priv)
		tap(succeeded == 0, "fuzz (unprivileged): no request succeeded (%ld did)", succeeded);
	pp_close(&p);

	/* a normal request still works */
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	report("GET_INFO after fuzz", &r);
	if (priv)
		tap(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
		    "GET_INFO still works after the fuzz");
	else
		tap(r.err == -EPERM, "GET_INFO still answers (-EPERM for this user) after the fuzz");
	pp_close(&p);
	return n_fail ? 1 : 0;
}

/* -------------------------------------------------- helpers for rmmod */

static volatile sig_atomic_t stop_flag;

static void on_term(int sig)
{
	stop_flag = 1;
}

static int cmd_trace_hold(int argc, char **argv)
{
	uint32_t tgid = getpid(), en = 0;
	int64_t features = -1;
	const char *ready = NULL;
	struct reply r;
	struct pp p;
	int opt;

	while ((opt = getopt(argc, argv, "t:f:r:")) != -1) {
		switch (opt) {
		case 't': tgid = atoi(optarg); break;
		case 'f': features = strtoll(optarg, NULL, 0); break;
		case 'r': ready = optarg; break;
		}
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	if (open_or_fail(&p))
		return 1;
	pp_trace_start(&p, tgid, features, &en, &r);
	report("TRACE_START", &r);
	if (r.err)
		return 1;
	diag("trace-hold: tracing tgid %u with features 0x%x", tgid, en);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (f) {
			fprintf(f, "%u\n", en);
			fclose(f);
		}
	}
	/* keep making syscalls so the trace has work to do */
	while (!stop_flag) {
		syscall(SYS_getppid);
		usleep(1000);
	}
	pp_close(&p);
	return 0;
}

static void *storm_thread(void *arg)
{
	size_t len = 64 * PAGE;

	while (!stop_flag) {
		uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			continue;
		for (size_t i = 0; i < len; i += PAGE)
			m[i] = 1;
		madvise(m, len, MADV_DONTNEED);
		for (size_t i = 0; i < len; i += 2 * PAGE)
			m[i] = 2;
		munmap(m, len);
	}
	return NULL;
}

static int cmd_fault_storm(int argc, char **argv)
{
	pthread_t th;

	signal(SIGTERM, on_term);
	if (pthread_create(&th, NULL, storm_thread, NULL) == 0) {
		storm_thread(NULL);
		pthread_join(th, NULL);
	} else {
		storm_thread(NULL);
	}
	return 0;
}

static int load_module(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = syscall(SYS_finit_module, fd, "", 0);
	r = r ? -errno : 0;
	close(fd);
	return r;
}

static int unload_module(void)
{
	int64_t end = now_ns() + 5000000000LL;

	for (;;) {
		if (syscall(SYS_delete_module, "perfprobe", O_NONBLOCK) == 0)
			return 0;
		/* a dump in progress holds a module reference for a moment */
		if ((errno != EAGAIN && errno != EWOULDBLOCK) || now_ns() > end)
			return -errno;
		sleep_ms(10);
	}
}

static volatile int spam_stop;

static void *spam_thread(void *arg)
{
	long *n = arg;
	struct pp p;

	if (pp_open(&p))
		return NULL;
	p.timeout_ms = 10000;
	while (!spam_stop) {
		struct reply r;
		struct trace t;
		struct info in;

		if (pp_get_info(&p, &in, &r) == PP_ERR_TIMEOUT ||
		    pp_trace_get(&p, true, &t, &r) == PP_ERR_TIMEOUT) {
			n[1]++;
			break;
		}
		n[0]++;
	}
	pp_close(&p);
	return NULL;
}

static int cmd_rmmod_race(int argc, char **argv)
{
	int iters = 20, opt, good = 0;
	uint32_t mask = ~0U;
	const char *ko = NULL;
	char *sargv[] = { "pp-vmtest", "fault-storm", NULL };
	pid_t storm;
	struct reply r;
	struct info in;
	int e;

	while ((opt = getopt(argc, argv, "n:k:f:")) != -1) {
		switch (opt) {
		case 'n': iters = atoi(optarg); break;
		case 'k': ko = optarg; break;
		case 'f': mask = strtoul(optarg, NULL, 0); break;
		}
	}
	if (!ko) {
		fprintf(stderr, "rmmod-race: -k MODULE.ko is required\n");
		return 3;
	}
	unload_module();	/* start from an unloaded module */
	if (posix_spawn(&storm, self_exe(), NULL, NULL, sargv, environ)) {
		tap(false, "spawn fault-storm: %s", strerror(errno));
		return 1;
	}
	for (int i = 0; i < iters; i++) {
		struct pp p;
		static struct trace t;
		uint32_t want = 0, en = 0;
		pthread_t th;
		long spam[2] = { 0, 0 };
		bool spamming = false, saw = false;
		const char *why = NULL;
		int64_t until;

		memset(&t, 0, sizeof(t));
		e = load_module(ko);
		if (e) {
			diag("iteration %d: insmod: %s", i, strerror(-e));
			break;
		}
		if (pp_open(&p)) {
			diag("iteration %d: family not found after insmod", i);
			unload_module();
			continue;
		}
		pp_get_info(&p, &in, &r);
		want = in.caps & (PERFPROBE_CAP_PGFAULT_KRETPROBE | PERFPROBE_CAP_PGFAULT_TP);
		if (i & 1)
			want |= in.caps & PERFPROBE_CAP_SYSCALL_TRACE;
		want &= mask;
		if (!want)
			want = in.caps & mask & PERFPROBE_CAP_SYSCALL_TRACE;
		pp_trace_start(&p, storm, want ? (int64_t)want : -1, &en, &r);
		if (r.err) {
			why = "TRACE_START failed";
			report("TRACE_START", &r);
		}
		/* wait until the probes demonstrably fire */
		until = now_ns() + 3000000000LL;
		while (!why && now_ns() < until) {
			if (pp_trace_get(&p, false, &t, &r)) {
				why = "TRACE_GET failed";
				break;
			}
			if (t.minor.count || t.tp_count ||
			    !(want & (PERFPROBE_CAP_PGFAULT_KRETPROBE | PERFPROBE_CAP_PGFAULT_TP))) {
				saw = true;
				break;
			}
			sleep_ms(20);
		}
		if (!why && !saw)
			why = "the trace saw no page faults of the storming process";
		diag("iteration %d: tracing the page-faulting process (features 0x%x, %" PRIu64
		     " minor / %" PRIu64 " tracepoint faults so far)%s, now rmmod",
		     i, en, t.minor.count, t.tp_count,
		     i % 3 == 1 ? " with a thread sending requests" : "");
		if (i % 3 == 1) {
			spam_stop = 0;
			spamming = pthread_create(&th, NULL, spam_thread, spam) == 0;
			sleep_ms(20);
		}
		e = unload_module();
		if (e && !why)
			why = "rmmod failed";
		if (e)
			diag("iteration %d: rmmod: %s", i, strerror(-e));
		if (spamming) {
			spam_stop = 1;
			pthread_join(th, NULL);
			if (spam[1])
				why = "a request racing with rmmod got no answer";
		}
		pp_close(&p);
		if (kill(storm, 0) || waitpid(storm, NULL, WNOHANG) == storm) {
			why = "the page-faulting process died";
			diag("iteration %d: %s", i, why);
			break;
		}
		if (why)
			diag("iteration %d (features 0x%x): %s", i, en, why);
		else
			good++;
		if (e) {	/* cannot continue with the module stuck */
			break;
		}
	}
	kill(storm, SIGKILL);
	waitpid(storm, NULL, 0);
	tap(good == iters,
	    "rmmod with an active page-fault trace while another process faults hard: %d/%d iterations clean",
	    good, iters);
	e = load_module(ko);
	tap(e == 0, "insmod after the rmmod races works (%s)", e ? strerror(-e) : "ok");
	if (e == 0) {
		struct pp p;

		if (pp_open(&p) == 0) {
			pp_get_info(&p, &in, &r);
			report("GET_INFO", &r);
			pp_close(&p);
		} else {
			r.err = -ENOENT;
		}
		tap(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
		    "GET_INFO works after the rmmod races");
	}
	return n_fail ? 1 : 0;
}

/* ---------------------------------------------------------------- main */

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "info", cmd_info },
	{ "timer", cmd_timer },
	{ "copy", cmd_copy },
	{ "bad", cmd_bad },
	{ "trace-syscalls", cmd_trace_syscalls },
	{ "trace-faults", cmd_trace_faults },
	{ "privs", cmd_privs },
	{ "copy-budget", cmd_copy_budget },
	{ "concurrent", cmd_concurrent },
	{ "fuzz", cmd_fuzz },
	{ "trace-hold", cmd_trace_hold },
	{ "fault-storm", cmd_fault_storm },
	{ "rmmod-race", cmd_rmmod_race },
	{ "touch-child", cmd_touch_child },
};

static void usage(void)
{
	fprintf(stderr, "usage: pp-vmtest [-u UID[:GID]] [-C CAP] [-q] COMMAND [options]\ncommands:");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, " %s", cmds[i].name);
	fprintf(stderr, "\n");
	exit(3);
}

int main(int argc, char **argv)
{
	uint64_t keep_caps = 0;
	int opt;
	long uid = -1, gid = -1;
	static char tagbuf[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	while ((opt = getopt(argc, argv, "+u:C:q")) != -1) {
		switch (opt) {
		case 'u': {
			char *colon;

			uid = strtol(optarg, &colon, 10);
			gid = *colon == ':' ? strtol(colon + 1, NULL, 10) : uid;
			break;
		}
		case 'C':
			for (char *c = optarg; *c; c += *c == ',')
				keep_caps |= 1ULL << (strtoul(c, &c, 10) & 63);
			break;
		case 'q': quiet = true; break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	if (uid >= 0) {
		if (drop_privs(uid, gid, keep_caps)) {
			printf("not ok - drop privileges to uid %ld: %s\n", uid, strerror(errno));
			return 1;
		}
		snprintf(tagbuf, sizeof(tagbuf), "[uid %ld%s] ", uid,
			 keep_caps ? " +cap" : "");
		tag = tagbuf;
	}
	argc -= optind;
	argv += optind;
	optind = 1;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(argc, argv);
	usage();
	return 3;
}
