// SPDX-License-Identifier: GPL-2.0
/*
 * The client side of the net benchmarks: see netclient.h.
 *
 * UDP_STREAM pacing: datagrams go out in bursts (sendmmsg) of B =
 * rate / 10000 datagrams, at least 1 and at most 32, so bursts are about
 * 100 us apart (closer above 320000 datagrams/s); burst k is due at start + k * B / rate on
 * CLOCK_MONOTONIC, so the rate does not drift.  Until a burst is due the
 * sender sleeps (when more than 1 ms away) and then busy-waits on
 * CLOCK_MONOTONIC.  A sender that fell behind (descheduled) sends what it
 * owes at once, in batches of at most 32, so the average offered rate
 * holds.  Unpaced (rate 0): bursts of 32, no wait.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "benchlib/ipc.h"
#include "netclient.h"
#include "netserver.h"

#define RECV_BUF		(256 << 10)
#define BURST_MAX		32
#define BURST_GAP_NS		100000
#define UDP_RR_WAIT_MS		50
#define CHECK_NS		1000000	/* TCP_STREAM looks for the result this often */
#define OVERRUN_NS		(10 * 1000000000ull)

/* --- the netserver --- */

static int peer_local(struct pp_net_peer *p, int af, char *why, size_t whylen)
{
	struct pp_netserver_opts o = { .max_tests = PP_NETSERVER_MAX_TESTS, .quiet = true };
	int lfd, err;

	err = pp_net_loopback_usable(af);
	if (err) {
		snprintf(why, whylen, "no %s loopback here: %s", af == AF_INET6 ? "::1" :
			 "127.0.0.1", strerror(-err));
		return 1;
	}
	if (pp_net_parse_addr(af == AF_INET6 ? "::1" : "127.0.0.1", 0, &p->ss, &p->len))
		return -EINVAL;
	lfd = pp_netserver_listen((struct sockaddr *)&p->ss, p->len);
	if (lfd < 0) {
		snprintf(why, whylen, "cannot listen on the %s loopback: %s",
			 af == AF_INET6 ? "IPv6" : "IPv4", strerror(-lfd));
		return lfd == -EADDRNOTAVAIL || lfd == -EAFNOSUPPORT ? 1 : lfd;
	}
	p->len = sizeof(p->ss);
	getsockname(lfd, (struct sockaddr *)&p->ss, &p->len);
	p->pid = pp_child_fork();
	if (p->pid == 0)
		_exit(pp_netserver_loop(&lfd, 1, &o) ? 1 : 0);
	err = 0;
	if (p->pid < 0) {
		err = -errno;
		snprintf(why, whylen, "fork: %s", strerror(errno));
	}
	close(lfd);	/* the server's now, or nobody's */
	return err;
}

int pp_net_peer_get(struct pp_net_peer *p, int af, char *why, size_t whylen)
{
	const char *env[] = { getenv(PP_NET_ENV), getenv(PP_NET_ENV6) };
	bool any = false;
	unsigned int i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->af = af;
	for (i = 0; i < ARRAY_SIZE(env); i++) {
		if (!env[i] || !*env[i])
			continue;
		any = true;
		if (pp_net_parse_addr(env[i], PP_NET_PORT, &p->ss, &p->len)) {
			snprintf(why, whylen, "%s: '%s' is not ADDR[:PORT]", i ? PP_NET_ENV6 :
				 PP_NET_ENV, env[i]);
			return -EINVAL;
		}
		if (p->ss.ss_family == af)
			break;
	}
	if (any && i == ARRAY_SIZE(env)) {
		snprintf(why, whylen, "no %s netserver given (%s, %s)", af == AF_INET6 ?
			 "IPv6" : "IPv4", PP_NET_ENV, PP_NET_ENV6);
		return 1;
	}
	if (!any) {
		ret = peer_local(p, af, why, whylen);
		if (ret)
			return ret;
	}
	env[0] = getenv(PP_NET_ENV_SECRET);
	if (any && env[0] && *env[0]) {
		ret = pp_net_secret_load(env[0], p->secret, sizeof(p->secret), why, whylen);
		if (ret < 0)
			return ret;
		p->secret_len = (size_t)ret;
	}
	pp_net_addr_str((struct sockaddr *)&p->ss, p->name, sizeof(p->name));
	return 0;
}

void pp_net_peer_stop(struct pp_net_peer *p)
{
	pp_child_stop(p->pid);
	p->pid = -1;
}

/* --- helpers --- */

struct cli {
	const struct pp_net_peer *p;
	const struct pp_net_req *req;
	struct pp_net_out *o;
	struct pp_net_meter m;
	int ctl, fd;
	struct sockaddr_storage data;
	socklen_t dlen;
	char *buf;
	size_t bufsize;
};

static int fail(struct cli *c, int err, const char *what)
{
	if (!c->o->err[0])
		snprintf(c->o->err, sizeof(c->o->err), "%s: %s", what, strerror(-err));
	return err;
}

static void timeouts(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A socket connected to addr; timeouts on every read, write and connect. */
static int connect_to(const struct sockaddr_storage *ss, socklen_t len, int type)
{
	int fd = socket(ss->ss_family, type | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	timeouts(fd, PP_NET_CTL_TIMEOUT_MS);
	if (connect(fd, (const struct sockaddr *)ss, len)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* One line of the netserver: its word and the rest, or -errno / -EPROTO with o->err. */
static int answer(struct cli *c, char *line, char **word, char **rest)
{
	int ret = pp_net_read_line(c->ctl, line, PP_NET_LINE_MAX, PP_NET_CTL_TIMEOUT_MS);

	if (ret < 0)
		return fail(c, ret, "reading the netserver's answer");
	if (pp_net_line_word(line, word, rest)) {
		snprintf(c->o->err, sizeof(c->o->err), "netserver: not a PPNET 1 answer");
		return -EPROTO;
	}
	return 0;
}

/* AUTH -> CHALLENGE nonce -> PROOF hmac (PP_NET_ENV_SECRET). */
static int authenticate(struct cli *c)
{
	char line[PP_NET_LINE_MAX], proof[PP_NET_PROOF_HEX + 1], *word, *rest;
	int ret = pp_net_sendf(c->ctl, "%s %d AUTH\n", PP_NET_MAGIC, PP_NET_VERSION);

	if (ret)
		return fail(c, ret, "sending AUTH");
	ret = answer(c, line, &word, &rest);
	if (ret)
		return ret;
	if (strcmp(word, "CHALLENGE") || strlen(rest) != PP_NET_NONCE_HEX) {
		snprintf(c->o->err, sizeof(c->o->err), "netserver: %s %.150s", word, rest);
		return -EPROTO;
	}
	if (pp_net_auth_proof(c->p->secret, c->p->secret_len, rest, proof)) {
		snprintf(c->o->err, sizeof(c->o->err), "computing the proof of the secret failed");
		return -EIO;
	}
	ret = pp_net_sendf(c->ctl, "%s %d PROOF %s\n", PP_NET_MAGIC, PP_NET_VERSION, proof);
	return ret ? fail(c, ret, "sending PROOF") : 0;
}

/* TEST ... -> OK port=N: the data address in c->data; *busy on ERR busy. */
static int handshake(struct cli *c, bool *busy)
{
	char line[PP_NET_LINE_MAX], *word, *rest;
	uint64_t port;
	int ret;

	c->ctl = connect_to(&c->p->ss, c->p->len, SOCK_STREAM);
	if (c->ctl < 0)
		return fail(c, c->ctl, "connecting to the netserver");
	if (c->p->secret_len) {
		ret = authenticate(c);
		if (ret)
			return ret;
	}
	ret = pp_net_req_format(c->req, line, sizeof(line));
	if (ret > 0)
		ret = pp_net_sendf(c->ctl, "%s", line);
	if (ret)
		return fail(c, ret, "sending the request");
	ret = answer(c, line, &word, &rest);
	if (ret)
		return ret;
	if (strcmp(word, "OK") || strncmp(rest, "port=", 5) ||
	    pp_parse_u64(strtok(rest + 5, " "), 1, 65535, &port)) {
		*busy = !strcmp(word, "ERR") && !strncmp(rest, "busy ", 5);
		snprintf(c->o->err, sizeof(c->o->err), "netserver: %s %.150s", word, rest);
		return -EPROTO;
	}
	c->data = c->p->ss;
	c->dlen = c->p->len;
	((struct sockaddr_in *)&c->data)->sin_port = htons((uint16_t)port);
	return 0;
}

/*
 * The handshake, again while the netserver says it is busy: after 50 ms,
 * then twice as long each time (at most 2 s, and a random part of it
 * more, so that clients that were refused together do not come back
 * together), for PP_NET_BUSY_WAIT_MS in all.  o->busy_tries and
 * o->busy_ms say how it went.
 */
static int handshake_busy(struct cli *c)
{
	uint64_t t0 = pp_now_ns(), wait_ms = 50, waited;
	int ret;

	for (;;) {
		struct timespec ts;
		bool busy = false;

		ret = handshake(c, &busy);
		waited = (pp_now_ns() - t0) / 1000000;
		if (!ret || !busy)
			break;
		c->o->busy_tries++;
		if (waited + wait_ms > PP_NET_BUSY_WAIT_MS) {
			char last[sizeof(c->o->err)];

			snprintf(last, sizeof(last), "%s", c->o->err);
			snprintf(c->o->err, sizeof(c->o->err), "busy %u times over %" PRIu64
				 " ms, gave up (%.120s)", c->o->busy_tries, waited, last);
			break;
		}
		close(c->ctl);
		c->ctl = -1;
		c->o->err[0] = '\0';
		wait_ms += (uint64_t)random() % (wait_ms / 2 + 1);
		ts.tv_sec = (time_t)(wait_ms / 1000);
		ts.tv_nsec = (long)(wait_ms % 1000) * 1000000;
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		wait_ms = wait_ms * 2 > 2000 ? 2000 : wait_ms * 2;
	}
	c->o->busy_ms = c->o->busy_tries ? waited : 0;
	return ret;
}

static int result(struct cli *c, int timeout_ms)
{
	return pp_net_result_recv(c->ctl, &c->o->srv, timeout_ms, c->o->err, sizeof(c->o->err));
}

static bool overrun(const struct cli *c, uint64_t t0)
{
	return pp_now_ns() > t0 + c->req->duration_ms * 1000000ull + OVERRUN_NS;
}

static int data_conn(struct cli *c)
{
	c->fd = connect_to(&c->data, c->dlen, SOCK_STREAM);
	if (c->fd < 0)
		return fail(c, c->fd, "connecting the data connection");
	c->o->sndbuf = pp_net_sockbuf(c->fd, SO_SNDBUF);
	c->o->rcvbuf = pp_net_sockbuf(c->fd, SO_RCVBUF);
	return 0;
}

static bool ctl_readable(const struct cli *c)
{
	struct pollfd p = { .fd = c->ctl, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

static int lat_push(struct pp_net_lat *l, double ns)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		double *v = realloc(l->ns, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->ns = v;
		l->cap = cap;
	}
	l->ns[l->n++] = ns;
	return 0;
}

/* --- the tests --- */

static int cl_tcp_stream(struct cli *c)
{
	uint64_t t0 = pp_now_ns(), check = t0 + CHECK_NS;
	int ret = data_conn(c);

	if (ret)
		return ret;
	pp_net_meter_start(&c->m, pp_now_ns());
	for (;;) {
		ssize_t w = send(c->fd, c->buf, c->req->size, MSG_NOSIGNAL);
		uint64_t now = pp_now_ns();

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(c, w < 0 ? -errno : -EPIPE, "sending");
		pp_net_meter_add(&c->m, now, 0, (uint64_t)w, 0);
		c->o->sent_bytes += (uint64_t)w;
		if (now < check)
			continue;
		check = now + CHECK_NS;
		if (ctl_readable(c))
			break;	/* the server's window is over: its result */
		if (overrun(c, t0))
			return fail(c, -ETIMEDOUT, "waiting for the result");
	}
	return result(c, PP_NET_CTL_TIMEOUT_MS);
}

static int cl_tcp_maerts(struct cli *c)
{
	int ret = data_conn(c);

	/* one message at a time, as the netserver reads TCP_STREAM */
	while (!ret && c->m.cur < c->m.n) {
		ssize_t r = recv(c->fd, c->buf, c->req->size, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail(c, r < 0 ? -errno : -EPIPE, "receiving");
		pp_net_meter_add(&c->m, pp_now_ns(), (uint64_t)r, 0, 0);
	}
	if (ret)
		return ret;
	close(c->fd);	/* the end of the test for the server */
	c->fd = -1;
	return result(c, PP_NET_CTL_TIMEOUT_MS);
}

/*
 * A transaction that ended at t1 counts in that interval.  Its round trip
 * goes there too, and to every earlier interval it spanned that saw no
 * round trip end: a stall is in the percentiles of each interval it hid.
 */
static int rr_account(struct cli *c, uint64_t t0, uint64_t t1)
{
	unsigned int i, j;
	int ret = 0;

	pp_net_meter_add(&c->m, t1, c->req->size, c->req->size, 1);
	i = c->m.cur < c->m.n ? c->m.cur : c->m.n - 1;
	j = t0 > c->m.start ? (unsigned int)((t0 - c->m.start) / c->m.iv_ns) : 0;
	for (; !ret && j < i; j++)
		if (!c->o->lat[j].n)
			ret = lat_push(&c->o->lat[j], (double)(t1 - t0));
	if (!ret && c->m.cur < c->m.n)
		ret = lat_push(&c->o->lat[i], (double)(t1 - t0));
	return ret;
}

static int cl_tcp_rr(struct cli *c)
{
	int ret = data_conn(c);

	if (!ret)
		pp_net_meter_start(&c->m, pp_now_ns());
	while (!ret && c->m.cur < c->m.n) {
		uint64_t t0 = pp_now_ns();

		ret = pp_write_full(c->fd, c->buf, c->req->size);
		if (!ret)
			ret = pp_read_full(c->fd, c->buf, c->req->size);
		if (ret)
			return fail(c, ret, "transaction");
		ret = rr_account(c, t0, pp_now_ns());
	}
	if (ret)
		return fail(c, ret, "recording latencies");
	close(c->fd);
	c->fd = -1;
	return result(c, PP_NET_CTL_TIMEOUT_MS);
}

static int crr_one(struct cli *c)
{
	int fd = connect_to(&c->data, c->dlen, SOCK_STREAM), ret;

	if (fd < 0)
		return fd;
	ret = pp_write_full(fd, c->buf, c->req->size);
	if (!ret)
		ret = pp_read_full(fd, c->buf, c->req->size);
	close(fd);
	return ret;
}

static int send_done(struct cli *c)
{
	int ret = pp_net_sendf(c->ctl, "%s %d DONE sent=%" PRIu64 "\n", PP_NET_MAGIC,
			       PP_NET_VERSION, c->o->sent_pkts);

	return ret ? fail(c, ret, "sending DONE") : 0;
}

static int cl_tcp_crr(struct cli *c)
{
	int ret = 0;

	pp_net_meter_start(&c->m, pp_now_ns());
	while (!ret && c->m.cur < c->m.n) {
		uint64_t t0 = pp_now_ns();

		ret = crr_one(c);
		if (ret)
			return fail(c, ret, "connect/request/response");
		c->o->sent_pkts++;
		ret = rr_account(c, t0, pp_now_ns());
	}
	if (!ret)
		ret = send_done(c);
	return ret ? ret : result(c, PP_NET_CTL_TIMEOUT_MS);
}

static void udp_sockbufs(struct cli *c)
{
	int v = PP_NET_UDP_SOCKBUF;

	setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	c->o->sndbuf = pp_net_sockbuf(c->fd, SO_SNDBUF);
	c->o->rcvbuf = pp_net_sockbuf(c->fd, SO_RCVBUF);
}

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
	while (bytes-- > 0) {
		p[bytes] = (unsigned char)v;
		v >>= 8;
	}
}

/* Until t: sleep while it is more than 1 ms away, then spin. */
static uint64_t wait_until(uint64_t t)
{
	uint64_t now = pp_now_ns();

	if (t > now + 1500000) {
		struct timespec ts = { .tv_sec = (time_t)((t - 1000000) / 1000000000ull),
				       .tv_nsec = (long)((t - 1000000) % 1000000000ull) };

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	while ((now = pp_now_ns()) < t)
		;
	return now;
}

static unsigned int burst_size(uint64_t rate)
{
	uint64_t b = rate * BURST_GAP_NS / 1000000000ull;

	if (!rate || b > BURST_MAX)
		return BURST_MAX;
	return b ? (unsigned int)b : 1;
}

static int udp_send_burst(struct cli *c, struct mmsghdr *msg, unsigned int b, uint64_t now)
{
	unsigned int i;
	int r;

	for (i = 0; i < b; i++) {
		unsigned char *p = msg[i].msg_hdr.msg_iov->iov_base;

		put_be(p + 4, c->o->sent_pkts + i, 8);
	}
	r = sendmmsg(c->fd, msg, b, 0);
	if (r < 0 && (errno == ENOBUFS || errno == EAGAIN))
		r = 1;	/* dropped here: offered and lost all the same */
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	c->o->sent_pkts += (uint64_t)r;
	c->o->sent_bytes += (uint64_t)r * c->req->size;
	pp_net_meter_add(&c->m, now, 0, (uint64_t)r * c->req->size, (uint64_t)r);
	return 0;
}

static int udp_stream_loop(struct cli *c, struct mmsghdr *msg)
{
	uint64_t rate = c->req->rate_pps, t0;
	unsigned int b = burst_size(rate);
	int ret = 0;

	c->o->burst = b;
	t0 = pp_now_ns();
	pp_net_meter_start(&c->m, t0);
	while (!ret && c->m.cur < c->m.n) {
		uint64_t now = pp_now_ns(), owed;
		unsigned int k = b;

		if (rate) {	/* the next datagram's time, exact in integers */
			now = wait_until(t0 + (uint64_t)((unsigned __int128)c->o->sent_pkts *
							 1000000000ull / rate));
			/* Behind (descheduled): what is owed, a batch at most. */
			owed = (uint64_t)((unsigned __int128)(now - t0) * rate / 1000000000ull) -
			       c->o->sent_pkts;
			if (owed > k)
				k = owed < BURST_MAX ? (unsigned int)owed : BURST_MAX;
		}
		ret = udp_send_burst(c, msg, k, now);
		pp_net_meter_at(&c->m, pp_now_ns());
	}
	return ret;
}

static int cl_udp_stream(struct cli *c)
{
	struct mmsghdr msg[BURST_MAX];
	struct iovec iov[BURST_MAX];
	unsigned int i;
	int ret;

	c->fd = connect_to(&c->data, c->dlen, SOCK_DGRAM);
	if (c->fd < 0)
		return fail(c, c->fd, "UDP socket");
	udp_sockbufs(c);
	memset(msg, 0, sizeof(msg));
	for (i = 0; i < BURST_MAX; i++) {
		unsigned char *p = (unsigned char *)c->buf + (size_t)i * c->req->size;

		put_be(p, c->req->id, 4);
		iov[i].iov_base = p;
		iov[i].iov_len = c->req->size;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	ret = udp_stream_loop(c, msg);
	if (ret)
		return fail(c, ret, "sending datagrams");
	ret = send_done(c);
	return ret ? ret : result(c, PP_NET_CTL_TIMEOUT_MS);
}

static int cl_udp_rr(struct cli *c)
{
	int ret = 0;

	c->fd = connect_to(&c->data, c->dlen, SOCK_DGRAM);
	if (c->fd < 0)
		return fail(c, c->fd, "UDP socket");
	udp_sockbufs(c);
	pp_net_meter_start(&c->m, pp_now_ns());
	while (!ret && c->m.cur < c->m.n) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		uint64_t t0 = pp_now_ns();

		if (send(c->fd, c->buf, c->req->size, 0) != (ssize_t)c->req->size)
			return fail(c, -errno, "sending a request");
		c->o->sent_pkts++;
		if (poll(&p, 1, UDP_RR_WAIT_MS) <= 0) {
			c->o->rr_lost++;
			pp_net_meter_at(&c->m, pp_now_ns());
			continue;
		}
		if (recv(c->fd, c->buf, c->bufsize, 0) < 0)
			return fail(c, -errno, "receiving an answer");
		ret = rr_account(c, t0, pp_now_ns());
	}
	if (ret)
		return fail(c, ret, "recording latencies");
	ret = send_done(c);
	return ret ? ret : result(c, PP_NET_CTL_TIMEOUT_MS);
}

static int run_type(struct cli *c)
{
	switch (c->req->type) {
	case PP_NET_TCP_STREAM:
		return cl_tcp_stream(c);
	case PP_NET_TCP_MAERTS:
		return cl_tcp_maerts(c);
	case PP_NET_TCP_RR:
		return cl_tcp_rr(c);
	case PP_NET_TCP_CRR:
		return cl_tcp_crr(c);
	case PP_NET_UDP_STREAM:
		return cl_udp_stream(c);
	default:
		return cl_udp_rr(c);
	}
}

static int check_result(struct cli *c)
{
	if (c->o->srv.n != c->req->intervals) {
		snprintf(c->o->err, sizeof(c->o->err), "netserver sent %u intervals, not %u",
			 c->o->srv.n, c->req->intervals);
		return -EPROTO;
	}
	/* Our own intervals: close them all (the last may end a little early). */
	pp_net_meter_at(&c->m, c->m.start + c->m.iv_ns * c->m.n);
	memcpy(c->o->loc, c->m.iv, sizeof(c->o->loc));
	return 0;
}

int pp_net_run(const struct pp_net_peer *p, const struct pp_net_req *req, struct pp_net_out *o)
{
	struct cli c = { .p = p, .req = req, .o = o, .ctl = -1, .fd = -1 };
	size_t per = req->size > 65536 ? req->size : 65536;
	int ret;

	pp_net_out_free(o);
	memset(o, 0, sizeof(*o));
	o->n = req->intervals;
	o->cpu_first = sched_getcpu();
	c.bufsize = pp_net_type_udp(req->type) ? per * BURST_MAX : per > RECV_BUF ? per : RECV_BUF;
	c.buf = calloc(1, c.bufsize);
	if (!c.buf || pp_net_meter_init(&c.m, req->intervals, req->duration_ms * 1000000ull)) {
		snprintf(o->err, sizeof(o->err), "out of memory");
		ret = -ENOMEM;
		goto free_buf;
	}
	o->iv_ns = c.m.iv_ns;
	ret = handshake_busy(&c);
	if (!ret)
		ret = run_type(&c);
	if (!ret)
		ret = check_result(&c);
	o->cpu_last = sched_getcpu();
	if (c.fd >= 0)
		close(c.fd);
	if (c.ctl >= 0)
		close(c.ctl);
	pp_net_meter_free(&c.m);
free_buf:
	free(c.buf);
	return ret;
}

void pp_net_out_free(struct pp_net_out *o)
{
	unsigned int i;

	for (i = 0; i < PP_NET_MAX_IV; i++) {
		free(o->lat[i].ns);
		o->lat[i].ns = NULL;
		o->lat[i].n = o->lat[i].cap = 0;
	}
}
