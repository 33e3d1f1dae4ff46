// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe netserver: serves the tests of the net benchmarks.
 *
 * The parent reads every request itself, without blocking: a connection
 * that has not sent its request within 5 s gets "ERR timeout", one that
 * sends garbage its ERR, and neither holds a test's place.  A valid
 * request gets a process of its own, when a place is free (at most
 * max_tests at once, max_per_client of them from one address), else "ERR
 * busy".  A test has one deadline, its duration and 10 s from its OK,
 * that every read, write, drain and wait of it checks; an alarm set
 * from the same duration backs it.  Data sockets talk only to the
 * control connection's address.  Whatever ends a test early reaches the
 * client as "ERR test <why>".  The parent logs, rate-limited.
 * Protocol: net/netproto.h, Documentation/netserver.rst.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib/ipc.h"
#include "clock.h"
#include "commands.h"
#include "netproto.h"
#include "netserver.h"
#include "options.h"

#define RECV_BUF		(256 << 10)	/* what a drain reads at a time */
#define UDP_BATCH		32
#define UDP_BATCHES		64	/* batches read between looks at the control socket */
#define DRAIN_MS		5	/* UDP: quiet time that ends the drain */
#define DRAIN_MAX_MS		1000	/* UDP: the longest drain after DONE */
#define RESULT_MS		5000	/* to send the result */
#define LINGER_MS		500	/* reading what a closing connection still sends */
#define LINGER_MAX		(1 << 20)
#define TICK_MS			200	/* the longest one blocking data call waits */
#define CRR_MS			2000	/* one TCP_CRR transaction */
#define ALARM_MARGIN_S		10	/* after the deadline, the result, the linger */
#define LOG_EVERY_S		10
#define LOG_PROBLEMS		1	/* problem lines per LOG_EVERY_S */
#define LOG_TESTS		20	/* test lines per LOG_EVERY_S */
#define CRR_BACKLOG		128
#define IDLE_TICK_MS		20	/* TCP_STREAM: recv timeout when idle */
#define NS			1000000ull

struct sess {
	int ctl, data, conn;
	struct pp_net_req req;
	struct pp_net_meter m;
	struct pp_net_result res;
	char *buf;
	size_t bufsize;
	uint64_t deadline;
	int logw;
	struct sockaddr_storage peer;	/* the control client (the parent's accept4()) */
	struct sockaddr_storage udp_peer;	/* its data socket, once heard from */
	bool udp_locked;
	unsigned long foreign;		/* data connections, datagrams from elsewhere */
	unsigned long wrong_size;	/* datagrams not of the test's size */
	char name[64];			/* peer, printed */
	char why[200];			/* why the test failed */
};

static void set_timeouts(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int ms_until(uint64_t t)
{
	uint64_t now = pp_now_ns();

	if (t <= now)
		return 0;
	t = (t - now + NS - 1) / NS;
	return t > INT32_MAX ? INT32_MAX : (int)t;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* A line for the parent's log, one atomic write; '!' marks a problem. */
static void child_log(struct sess *s, bool problem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void child_log(struct sess *s, bool problem, const char *fmt, ...)
{
	char line[320];
	va_list ap;
	int n;

	line[0] = '!';
	va_start(ap, fmt);
	n = vsnprintf(line + 1, sizeof(line) - 2, fmt, ap);
	va_end(ap);
	if (n < 0 || s->logw < 0)
		return;
	n = n < (int)sizeof(line) - 3 ? n : (int)sizeof(line) - 3;
	line[n + 1] = '\n';
	(void)!write(s->logw, problem ? line : line + 1, (size_t)n + (problem ? 2 : 1));
}

/* The test failed: why, once (the first reason holds); returns err. */
static int fail(struct sess *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct sess *s, int err, const char *fmt, ...)
{
	va_list ap;

	if (!s->why[0]) {
		va_start(ap, fmt);
		vsnprintf(s->why, sizeof(s->why), fmt, ap);
		va_end(ap);
	}
	return err < 0 ? err : -EIO;
}

/* An I/O error of what: its reason in words. */
static int fail_io(struct sess *s, int err, const char *what)
{
	if (err == -ETIMEDOUT)
		return fail(s, err, "%s: not done by the test's deadline (duration + %d s)", what,
			    PP_NETSERVER_TEST_SLACK_MS / 1000);
	if (err == -EPIPE)
		return fail(s, err, "%s: the client closed the data connection midway", what);
	return fail(s, err, "%s: %s", what, strerror(-err));
}

static int fail_deadline(struct sess *s)
{
	return fail(s, -ETIMEDOUT, "still running at the test's deadline (%" PRIu32 " ms + %d s)",
		    s->req.duration_ms, PP_NETSERVER_TEST_SLACK_MS / 1000);
}

static void refuse(struct sess *s, const char *code, const char *why)
{
	pp_net_sendf(s->ctl, "%s %d ERR %s %s\n", PP_NET_MAGIC, PP_NET_VERSION, code, why);
	child_log(s, true, "bad control message from %s: %s: %s", s->name, code, why);
}

static bool past(const struct sess *s)
{
	return pp_now_ns() > s->deadline;
}

static int wait_ms(struct sess *s, int max_ms)
{
	int d = ms_until(s->deadline);

	return pp_net_meter_wait_ms(&s->m, pp_now_ns(), d < max_ms ? d : max_ms);
}

/* Wait for one of two descriptors: bit 0 a, bit 1 b; 0 on timeout. */
static int poll2(int a, int b, int ms)
{
	struct pollfd p[2] = { { .fd = a, .events = POLLIN }, { .fd = b, .events = POLLIN } };
	int r;

	do
		r = poll(p, b >= 0 ? 2 : 1, ms);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return r < 0 ? -errno : 0;
	return (p[0].revents ? 1 : 0) | (b >= 0 && p[1].revents ? 2 : 0);
}

/*
 * n bytes from fd into s->buf by until: 0; 1 when the client closed
 * before the first byte (the end of a test); -EPIPE when it closed
 * midway, -ETIMEDOUT, -errno.  fd has TICK_MS timeouts: a byte a
 * second cannot stretch it.  read(), as a plain server does.
 */
static int read_msg(struct sess *s, int fd, size_t n, uint64_t until)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, s->buf + got, n - got);

		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0)
			return got ? -EPIPE : 1;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
		if (pp_now_ns() >= until)
			return -ETIMEDOUT;
	}
	return 0;
}

/* n bytes of s->buf to fd by until (SIGPIPE is ignored): 0 or -errno. */
static int write_msg(struct sess *s, int fd, size_t n, uint64_t until)
{
	size_t off = 0;

	while (off < n) {
		ssize_t w = write(fd, s->buf + off, n - off);

		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (pp_now_ns() >= until)
			return -ETIMEDOUT;
	}
	return 0;
}

/*
 * A data connection from the control client's address by until (from
 * anywhere else: closed at once, counted); fd or -errno.
 */
static int accept_client(struct sess *s, uint64_t until)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd, r;

		if (pp_now_ns() >= until)
			return -ETIMEDOUT;
		r = poll2(s->data, s->ctl, ms_until(until));
		if (r < 0)
			return r;
		if (r & 2)
			return -ECONNABORTED;
		if (!(r & 1))
			continue;
		fd = accept4(s->data, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EAGAIN || errno == ECONNABORTED || errno == EINTR)
				continue;
			return -errno;
		}
		if (pp_net_same_host((struct sockaddr *)&ss, (struct sockaddr *)&s->peer))
			return fd;
		close(fd);
		s->foreign++;
	}
}

static int accept_data(struct sess *s)
{
	int fd = accept_client(s, min_u64(s->deadline, pp_now_ns() +
					  PP_NET_CTL_TIMEOUT_MS * NS));

	if (fd == -ECONNABORTED)
		return fail(s, fd, "the control connection spoke or closed before the data "
			    "connection came");
	if (fd == -ETIMEDOUT)
		return fail(s, fd, "no data connection from %s within %d s", s->name,
			    PP_NET_CTL_TIMEOUT_MS / 1000);
	if (fd < 0)
		return fail(s, fd, "accepting the data connection: %s", strerror(-fd));
	s->conn = fd;
	set_timeouts(s->conn, TICK_MS);
	s->res.rcvbuf = pp_net_sockbuf(s->conn, SO_RCVBUF);
	s->res.sndbuf = pp_net_sockbuf(s->conn, SO_SNDBUF);
	return 0;
}

/* --- the tests --- */

/*
 * A blocking recv() as a plain receiver does (poll + recv costs more);
 * its short timeout lets an idle window still close its intervals.  It
 * asks for one message's size, the size the test is named after, as
 * iperf3 -l N reads and netperf -m N -M N: a larger read switches less
 * to the sender on a shared CPU (256 KiB reads: 1.31 x iperf3 -l 64K
 * pinned; Documentation/accuracy.rst).
 */
static int srv_tcp_stream(struct sess *s)
{
	struct timeval tv = { .tv_usec = IDLE_TICK_MS * 1000 };
	uint64_t first;
	int ret = accept_data(s);

	if (ret)
		return ret;
	first = pp_now_ns() + PP_NET_CTL_TIMEOUT_MS * NS;
	setsockopt(s->conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* Until the window is over; the rest is drained after the result. */
	while (s->m.cur < s->m.n) {
		ssize_t r = recv(s->conn, s->buf, s->req.size, 0);
		uint64_t now = pp_now_ns();

		if (r > 0) {
			pp_net_meter_add(&s->m, now, (uint64_t)r, 0, 0);
			s->res.rx += (uint64_t)r;
		} else if (r == 0) {
			break;
		} else if (errno != EAGAIN && errno != EINTR) {
			return fail_io(s, -errno, "receiving");
		} else if (!s->m.started && now > first) {
			return fail(s, -ETIMEDOUT, "no data within %d s of the data connection",
				    PP_NET_CTL_TIMEOUT_MS / 1000);
		}
		if (now > s->deadline)
			return fail_deadline(s);
		pp_net_meter_at(&s->m, now);
	}
	set_timeouts(s->conn, TICK_MS);
	return 0;
}

static int srv_tcp_maerts(struct sess *s)
{
	int ret = accept_data(s);

	if (ret)
		return ret;
	memset(s->buf, 'm', s->req.size);
	pp_net_meter_start(&s->m, pp_now_ns());
	for (;;) {
		ssize_t w;

		if (past(s))
			return fail_deadline(s);
		w = send(s->conn, s->buf, s->req.size, MSG_NOSIGNAL);
		if (w > 0) {
			pp_net_meter_add(&s->m, pp_now_ns(), 0, (uint64_t)w, 0);
			s->res.tx += (uint64_t)w;
		} else if (w == 0 || (errno != EINTR && errno != EAGAIN)) {
			return 0;	/* the client closed: the end of the test */
		}
	}
}

static void count_rr(struct sess *s)
{
	pp_net_meter_add(&s->m, pp_now_ns(), s->req.size, s->req.size, 1);
	s->res.rx += s->req.size;
	s->res.tx += s->req.size;
	s->res.pkts++;
}

static int srv_tcp_rr(struct sess *s)
{
	int ret = accept_data(s);

	while (!ret) {
		if (past(s))
			return fail_deadline(s);
		ret = read_msg(s, s->conn, s->req.size, s->deadline);
		if (ret == 1)
			return 0;	/* the client closed: the end of the test */
		if (ret)
			return fail_io(s, ret, "reading a request");
		ret = write_msg(s, s->conn, s->req.size, s->deadline);
		if (ret)
			return fail_io(s, ret, "writing a response");
		count_rr(s);
	}
	return ret;
}

/* Read the client's DONE line by the deadline: 0, -EPROTO (ERR sent), -errno. */
static int read_done(struct sess *s, uint64_t *sent)
{
	char line[PP_NET_LINE_MAX], *word, *rest;
	int ret = pp_net_read_line_by(s->ctl, line, sizeof(line), s->deadline);

	if (ret == -ETIMEDOUT)
		return fail(s, ret, "no DONE line by the test's deadline (%" PRIu32 " ms + %d s)",
			    s->req.duration_ms, PP_NETSERVER_TEST_SLACK_MS / 1000);
	if (ret == -EPIPE)
		return fail(s, ret, "the client closed the control connection before DONE");
	if (ret < 0)
		return fail(s, ret, "reading DONE: %s", strerror(-ret));
	if (pp_net_line_word(line, &word, &rest) || strcmp(word, "DONE") ||
	    strncmp(rest, "sent=", 5) || pp_parse_u64(rest + 5, 0, UINT64_MAX, sent)) {
		refuse(s, "syntax", "expected DONE sent=N");
		return -EPROTO;
	}
	return 0;
}

/* One connection, request, response: a failure is the client's to count. */
static int crr_one(struct sess *s)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(s->data, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC), ret;
	uint64_t until;
	size_t left = s->bufsize;

	if (fd < 0)
		return errno == EAGAIN || errno == ECONNABORTED || errno == EINTR ? 0 : -errno;
	if (!pp_net_same_host((struct sockaddr *)&ss, (struct sockaddr *)&s->peer)) {
		close(fd);
		s->foreign++;
		return 0;
	}
	until = min_u64(s->deadline, pp_now_ns() + CRR_MS * NS);
	set_timeouts(fd, TICK_MS);
	ret = read_msg(s, fd, s->req.size, until);
	if (!ret)
		ret = write_msg(s, fd, s->req.size, until);
	/* The client closes first; what it sends meanwhile is read, briefly. */
	while (!ret && left > 0 && pp_now_ns() < until) {
		ssize_t r = recv(fd, s->buf, left, 0);

		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			break;
		if (r > 0)
			left -= (size_t)r;
	}
	close(fd);
	if (!ret)
		count_rr(s);
	return 0;
}

static int srv_tcp_crr(struct sess *s)
{
	uint64_t sent;

	while (!past(s)) {
		int r = poll2(s->data, s->ctl, wait_ms(s, PP_NET_CTL_TIMEOUT_MS));

		if (r < 0)
			return fail(s, r, "waiting for a connection: %s", strerror(-r));
		pp_net_meter_at(&s->m, pp_now_ns());
		if (r & 2)
			return read_done(s, &sent);
		if (r & 1) {
			r = crr_one(s);
			if (r)
				return fail(s, r, "accepting a connection: %s", strerror(-r));
		} else if (!s->m.started && !past(s)) {
			return fail(s, -ETIMEDOUT, "no connection within %d s",
				    PP_NET_CTL_TIMEOUT_MS / 1000);
		}
	}
	return fail_deadline(s);
}

struct udp_rx {
	struct mmsghdr msg[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	struct sockaddr_storage from[UDP_BATCH];
	uint64_t expect;
};

static void udp_rx_init(struct sess *s, struct udp_rx *u, size_t dsize)
{
	unsigned int i;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < UDP_BATCH; i++) {
		u->iov[i].iov_base = s->buf + i * dsize;
		u->iov[i].iov_len = dsize;
		u->msg[i].msg_hdr.msg_iov = &u->iov[i];
		u->msg[i].msg_hdr.msg_iovlen = 1;
		u->msg[i].msg_hdr.msg_name = &u->from[i];
		u->msg[i].msg_hdr.msg_namelen = sizeof(u->from[i]);
	}
}

static uint64_t get_be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* One datagram of UDP_STREAM: count it, follow the sequence numbers. */
static void udp_count(struct sess *s, struct udp_rx *u, const unsigned char *p, size_t len,
		      uint64_t now)
{
	uint64_t seq, gaps = 0;

	if (len < PP_NET_UDP_HDR || get_be64(p + 4) == UINT64_MAX ||
	    ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]) != s->req.id)
		return;	/* not ours */
	seq = get_be64(p + 4);
	if (seq > u->expect)
		gaps = seq - u->expect;
	if (seq >= u->expect)
		u->expect = seq + 1;
	else if (s->res.gaps)	/* late: fills a gap */
		s->res.gaps--;
	s->res.gaps += gaps;
	s->res.rx += len;
	s->res.pkts++;
	pp_net_meter_add(&s->m, now, len, 0, 1);
	if (s->m.started && s->m.cur < s->m.n)
		s->m.iv[s->m.cur].gaps += gaps;
}

/*
 * Is this datagram the client's?  Its address must be the control
 * connection's; the first one fixes the port, and the socket is then
 * connect()ed to it, so that the kernel drops the rest and answers go
 * nowhere else.
 */
static bool udp_from_client(struct sess *s, const struct sockaddr_storage *from, socklen_t len)
{
	const struct sockaddr_in *a = (const struct sockaddr_in *)from;
	const struct sockaddr_in *b = (const struct sockaddr_in *)&s->udp_peer;

	if (!pp_net_same_host((const struct sockaddr *)from, (struct sockaddr *)&s->peer))
		return false;
	if (s->udp_locked)
		return a->sin_port == b->sin_port;	/* the same place in both families */
	if (connect(s->data, (const struct sockaddr *)from, len))
		return false;
	s->udp_peer = *from;
	s->udp_locked = true;
	return true;
}

/* Read what is queued; echo (UDP_RR) or count (UDP_STREAM).  Datagrams read. */
static int udp_batch(struct sess *s, struct udp_rx *u)
{
	int n, i;

	for (i = 0; i < UDP_BATCH; i++)
		u->msg[i].msg_hdr.msg_namelen = sizeof(u->from[i]);
	n = recvmmsg(s->data, u->msg, UDP_BATCH, MSG_DONTWAIT, NULL);
	if (n <= 0)
		return n < 0 && errno != EAGAIN && errno != EINTR ? -errno : 0;
	for (i = 0; i < n; i++) {
		struct msghdr *h = &u->msg[i].msg_hdr;
		uint64_t now = pp_now_ns();
		size_t len = u->msg[i].msg_len;

		if (!udp_from_client(s, &u->from[i], h->msg_namelen)) {
			s->foreign++;
			continue;
		}
		if (len != s->req.size || (h->msg_flags & MSG_TRUNC)) {
			s->wrong_size++;
			continue;
		}
		if (s->req.type == PP_NET_UDP_STREAM) {
			udp_count(s, u, h->msg_iov->iov_base, len, now);
			continue;
		}
		if (send(s->data, h->msg_iov->iov_base, len, 0) == (ssize_t)len) {
			pp_net_meter_add(&s->m, now, len, len, 1);
			s->res.rx += len;
			s->res.tx += len;
			s->res.pkts++;
		}
	}
	return n;
}

static int srv_udp(struct sess *s)
{
	struct udp_rx *u = malloc(sizeof(*u));
	uint64_t sent = 0;
	int ret = 1;

	if (!u)
		return fail(s, -ENOMEM, "out of memory");
	udp_rx_init(s, u, s->bufsize / UDP_BATCH);
	while (ret == 1) {
		int r = poll2(s->data, s->ctl, wait_ms(s, PP_NET_CTL_TIMEOUT_MS));

		pp_net_meter_at(&s->m, pp_now_ns());
		if (r < 0) {
			ret = fail(s, r, "waiting for datagrams: %s", strerror(-r));
			break;
		}
		if (past(s)) {
			ret = fail_deadline(s);
			break;
		}
		if (!r && !s->m.started) {
			ret = fail(s, -ETIMEDOUT, "no datagram from %s within %d s", s->name,
				   PP_NET_CTL_TIMEOUT_MS / 1000);
			break;
		}
		if (r & 1) {
			unsigned int k = 0;

			/* a flood cannot keep the control connection unread */
			while ((r = udp_batch(s, u)) == UDP_BATCH && ++k < UDP_BATCHES)
				;
			if (r < 0) {
				ret = fail(s, r, "receiving datagrams: %s", strerror(-r));
				break;
			}
		}
		if (poll2(s->ctl, -1, 0) > 0) {
			uint64_t until = min_u64(s->deadline, pp_now_ns() + DRAIN_MAX_MS * NS);

			ret = read_done(s, &sent);
			/* What was sent before DONE is queued or about to be. */
			while (!ret && pp_now_ns() < until && poll2(s->data, -1, DRAIN_MS) > 0 &&
			       udp_batch(s, u) > 0)
				;
		}
	}
	if (!ret && s->req.type == PP_NET_UDP_STREAM)
		s->res.lost = sent > s->res.pkts ? sent - s->res.pkts : 0;
	free(u);
	return ret;
}

/* --- one session --- */

static int data_socket(struct sess *s)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	bool udp = pp_net_type_udp(s->req.type);
	int one = 1;

	if (getsockname(s->ctl, (struct sockaddr *)&ss, &len))
		return -errno;
	if ((ss.ss_family == AF_INET6) != (s->req.family == 6))
		return -EAFNOSUPPORT;
	((struct sockaddr_in *)&ss)->sin_port = 0;	/* same place in both */
	s->data = socket(ss.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM | SOCK_NONBLOCK) |
			 SOCK_CLOEXEC, 0);
	if (s->data < 0)
		return -errno;
	setsockopt(s->data, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s->req.rcvbuf)
		setsockopt(s->data, SOL_SOCKET, SO_RCVBUF, &s->req.rcvbuf, sizeof(int));
	if (bind(s->data, (struct sockaddr *)&ss, len) ||
	    (!udp && listen(s->data, s->req.type == PP_NET_TCP_CRR ? CRR_BACKLOG : 1)) ||
	    getsockname(s->data, (struct sockaddr *)&ss, &len))
		return -errno;
	s->res.rcvbuf = pp_net_sockbuf(s->data, SO_RCVBUF);
	s->res.sndbuf = pp_net_sockbuf(s->data, SO_SNDBUF);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static int run_test(struct sess *s)
{
	switch (s->req.type) {
	case PP_NET_TCP_STREAM:
		return srv_tcp_stream(s);
	case PP_NET_TCP_MAERTS:
		return srv_tcp_maerts(s);
	case PP_NET_TCP_RR:
		return srv_tcp_rr(s);
	case PP_NET_TCP_CRR:
		return srv_tcp_crr(s);
	default:
		return srv_udp(s);
	}
}

static int session(struct sess *s)
{
	size_t dsize;
	int ret, port;

	port = data_socket(s);
	if (port < 0) {
		refuse(s, port == -EAFNOSUPPORT ? "range" : "internal",
		       port == -EAFNOSUPPORT ? "family does not match the control connection" :
		       strerror(-port));
		return port;
	}
	dsize = s->req.size > 65536 ? s->req.size : 65536;
	s->bufsize = pp_net_type_udp(s->req.type) ? dsize * UDP_BATCH :
		     (s->req.size > RECV_BUF ? s->req.size : RECV_BUF);
	s->buf = calloc(1, s->bufsize);
	if (!s->buf ||
	    pp_net_meter_init(&s->m, s->req.intervals, s->req.duration_ms * NS)) {
		refuse(s, "internal", "out of memory");
		return -ENOMEM;
	}
	s->deadline = pp_now_ns() + (s->req.duration_ms + PP_NETSERVER_TEST_SLACK_MS) * NS;
	child_log(s, false, "%s from %s: size %" PRIu32 ", %" PRIu32 " ms",
		  pp_net_type_name(s->req.type), s->name, s->req.size, s->req.duration_ms);
	ret = pp_net_sendf(s->ctl, "%s %d OK port=%d rcvbuf=%" PRIu32 " sndbuf=%" PRIu32 "\n",
			   PP_NET_MAGIC, PP_NET_VERSION, port, s->res.rcvbuf, s->res.sndbuf);
	if (ret)
		return ret;
	s->res.cpu_first = sched_getcpu();
	ret = run_test(s);
	if (s->foreign || s->wrong_size)
		child_log(s, true, "%s from %s: refused %lu data connections or datagrams from "
			  "other addresses, dropped %lu datagrams of another size",
			  pp_net_type_name(s->req.type), s->name, s->foreign, s->wrong_size);
	if (ret == -EPROTO)
		return ret;
	if (ret) {
		if (!s->why[0])
			fail(s, ret, "%s", strerror(-ret));
		pp_net_sendf(s->ctl, "%s %d ERR test %s\n", PP_NET_MAGIC, PP_NET_VERSION, s->why);
		child_log(s, true, "%s from %s failed: %s", pp_net_type_name(s->req.type),
			  s->name, s->why);
		return ret;
	}
	pp_net_meter_at(&s->m, s->m.started ? s->m.start + s->m.iv_ns * s->m.n : 0);
	s->res.cpu_last = sched_getcpu();
	s->res.n = s->m.n;
	s->res.window_ns = s->m.iv_ns * s->m.n;
	memcpy(s->res.iv, s->m.iv, sizeof(s->res.iv));
	ret = pp_net_result_send(s->ctl, &s->res, pp_now_ns() + RESULT_MS * NS);
	/* TCP_STREAM: the client stops when it has the result; take the rest. */
	while (!ret && s->req.type == PP_NET_TCP_STREAM && !past(s) &&
	       recv(s->conn, s->buf, s->bufsize, 0) > 0)
		;
	return ret;
}

/*
 * Closing with unread input would send a reset, which may destroy our
 * last line (an ERR) before the client reads it: read what is left, a
 * little, briefly (LINGER_MS in all, whatever the client trickles).
 */
static void linger_close(int ctl, char *buf, size_t size)
{
	uint64_t until = pp_now_ns() + LINGER_MS * NS;
	size_t left = LINGER_MAX;

	shutdown(ctl, SHUT_WR);
	while (left > 0 && pp_now_ns() < until && poll2(ctl, -1, ms_until(until)) > 0) {
		ssize_t r = recv(ctl, buf, size < left ? size : left, MSG_DONTWAIT);

		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			break;
		if (r > 0)
			left -= (size_t)r;
	}
	close(ctl);
}

/* The alarm behind the deadlines: the client still hears why. */
static int alarm_fd = -1;
static char alarm_line[160];
static size_t alarm_len;

static void on_alarm(int sig)
{
	(void)sig;
	if (alarm_fd >= 0)
		(void)!send(alarm_fd, alarm_line, alarm_len, MSG_NOSIGNAL | MSG_DONTWAIT);
	_exit(1);
}

static void set_alarm(int ctl, const struct pp_net_req *req)
{
	unsigned int secs = (req->duration_ms + PP_NETSERVER_TEST_SLACK_MS) / 1000 +
			    RESULT_MS / 1000 + ALARM_MARGIN_S;
	int n = snprintf(alarm_line, sizeof(alarm_line), "%s %d ERR test the test process's "
			 "alarm went off after %u s\n", PP_NET_MAGIC, PP_NET_VERSION, secs);

	alarm_len = n > 0 && (size_t)n < sizeof(alarm_line) ? (size_t)n : 0;
	alarm_fd = ctl;
	signal(SIGALRM, on_alarm);
	alarm(secs);
}

static __attribute__((noreturn)) void serve_one(int ctl, const struct pp_net_req *req,
						const struct sockaddr_storage *peer,
						const char *name, int logw)
{
	struct sess *s = calloc(1, sizeof(*s));
	int ret;

	/* pp_child_fork() gave SIGPIPE back its default: a write to a reset
	 * data connection must fail with EPIPE, not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	set_alarm(ctl, req);
	if (!s)
		_exit(1);
	s->ctl = ctl;
	s->data = s->conn = -1;
	s->logw = logw;
	s->m.statfd = -1;
	s->req = *req;
	s->peer = *peer;
	snprintf(s->name, sizeof(s->name), "%s", name);
	fcntl(ctl, F_SETFL, fcntl(ctl, F_GETFL) & ~O_NONBLOCK);
	set_timeouts(ctl, 1000);	/* an ERR line: the rest has deadlines */
	ret = session(s);
	if (s->conn >= 0)
		close(s->conn);
	if (s->data >= 0)
		close(s->data);
	pp_net_meter_free(&s->m);
	linger_close(ctl, s->buf ? s->buf : (char *)s->res.iv, s->buf ? s->bufsize :
		     sizeof(s->res.iv));
	free(s->buf);
	free(s);
	_exit(ret == -EPROTO ? 2 : ret ? 1 : 0);
}

/* --- the request, line by line --- */

unsigned int pp_netserver_max_per_client(const struct pp_netserver_opts *o)
{
	unsigned int n = o->max_per_client ? o->max_per_client : o->max_tests / 2;

	if (!o->max_per_client && n < 2)
		n = 2;	/* run net's bidirectional test is two at once */
	return n < o->max_tests ? n : o->max_tests;
}

uint32_t pp_netserver_max_duration(const struct pp_netserver_opts *o)
{
	return o->max_duration_ms ? o->max_duration_ms : PP_NET_MAX_MS;
}

void pp_netserver_rq_init(struct pp_netserver_rq *rq, const char *nonce)
{
	memset(rq, 0, sizeof(*rq));
	if (nonce)
		snprintf(rq->nonce, sizeof(rq->nonce), "%s", nonce);
}

static int rq_refuse(struct pp_netserver_rq *rq, const char *code, char *reply, size_t rsize,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int rq_refuse(struct pp_netserver_rq *rq, const char *code, char *reply, size_t rsize,
		     const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(rq->why, sizeof(rq->why), fmt, ap);
		va_end(ap);
	}
	rq->code = code;
	rq->state = PP_NS_RQ_OVER;
	snprintf(reply, rsize, "%s %d ERR %s %s\n", PP_NET_MAGIC, PP_NET_VERSION, code, rq->why);
	return -1;
}

int pp_netserver_rq_line(struct pp_netserver_rq *rq, const struct pp_netserver_opts *o,
			 const char *line, char *reply, size_t rsize)
{
	char copy[PP_NET_LINE_MAX], proof[PP_NET_PROOF_HEX + 1], *word = NULL, *rest = NULL;
	bool secret = o->secret && o->secret_len;
	const char *code = "syntax";
	uint32_t max = pp_netserver_max_duration(o);

	reply[0] = '\0';
	if (rq->state == PP_NS_RQ_OVER)
		return rq_refuse(rq, "syntax", reply, rsize, "one request per connection");
	snprintf(copy, sizeof(copy), "%s", line);
	if (pp_net_line_word(copy, &word, &rest))
		word = NULL;
	if (rq->state == PP_NS_RQ_FIRST && word && !strcmp(word, "AUTH")) {
		if (!secret)
			return rq_refuse(rq, "auth", reply, rsize,
					 "this netserver has no shared secret");
		snprintf(reply, rsize, "%s %d CHALLENGE %s\n", PP_NET_MAGIC, PP_NET_VERSION,
			 rq->nonce);
		rq->state = PP_NS_RQ_PROOF;
		return 0;
	}
	if (rq->state == PP_NS_RQ_PROOF) {
		if (!word || strcmp(word, "PROOF"))
			return rq_refuse(rq, "auth", reply, rsize, "expected PROOF <hmac>");
		if (pp_net_auth_proof(o->secret, o->secret_len, rq->nonce, proof))
			return rq_refuse(rq, "internal", reply, rsize, "HMAC failed");
		if (!pp_net_auth_equal(rest, proof))
			return rq_refuse(rq, "auth", reply, rsize, "wrong shared secret");
		rq->state = PP_NS_RQ_TEST;
		return 0;
	}
	if (pp_net_req_parse(line, &rq->req, &code, rq->why, sizeof(rq->why)))
		return rq_refuse(rq, code, reply, rsize, NULL);
	if (secret && rq->state != PP_NS_RQ_TEST)
		return rq_refuse(rq, "auth", reply, rsize,
				 "this netserver wants its shared secret (AUTH first)");
	if (rq->req.duration_ms > max)
		return rq_refuse(rq, "range", reply, rsize, "duration_ms %" PRIu32
				 " over this netserver's --max-duration %" PRIu32,
				 rq->req.duration_ms, max);
	rq->state = PP_NS_RQ_OVER;
	return 1;
}

/* --- the parent --- */

struct conn {			/* a control connection before its test */
	int fd;			/* -1: a free entry */
	bool closing;		/* its ERR sent: reading what still comes, briefly */
	uint64_t deadline;	/* of its request, or of its closing */
	size_t drained;
	struct sockaddr_storage peer;
	char name[64];
	struct pp_net_linebuf lb;
	struct pp_netserver_rq rq;
};

struct slot {			/* a test running */
	pid_t pid;		/* 0: free */
	struct sockaddr_storage peer;
};

struct loglimit {
	time_t start;		/* of the LOG_EVERY_S window */
	unsigned int lines, max;
	unsigned long suppressed;
};

struct server {
	const struct pp_netserver_opts *o;
	const int *lfds;
	unsigned int nl;
	unsigned int active, max_per;
	struct slot *slots;
	struct conn *conns;	/* PP_NETSERVER_PENDING of them */
	int logr, logw;
	struct loglimit log[2];	/* [1] problems, [0] tests */
};

static void logf_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void logf_line(const char *fmt, ...)
{
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	va_list ap;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", gmtime_r(&t, &tm));
	fprintf(stderr, "perfprobe netserver: %s ", when);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

/*
 * At most max lines of a kind per LOG_EVERY_S; the first line after
 * some were left out says how many.
 */
static void log_limited(struct server *sv, bool problem, const char *text)
{
	struct loglimit *l = &sv->log[problem];
	time_t now = time(NULL);

	if (!problem && sv->o->quiet)
		return;
	if (now - l->start >= LOG_EVERY_S) {
		l->start = now;
		l->lines = 0;
	}
	if (l->lines >= l->max) {
		l->suppressed++;
		return;
	}
	l->lines++;
	if (l->suppressed)
		logf_line("%s (and %lu more %s not logged before it: at most %u in %d s)\n", text,
			  l->suppressed, problem ? "problems" : "tests", l->max, LOG_EVERY_S);
	else
		logf_line("%s\n", text);
	l->suppressed = 0;
}

static void log_problem(struct server *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void log_problem(struct server *sv, const char *fmt, ...)
{
	char line[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_limited(sv, true, line);
}

/* The test processes' lines: '!' marks a problem. */
static void drain_log(struct server *sv)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(sv->logr, buf, sizeof(buf) - 1)) > 0) {
		char *line = buf, *nl;

		buf[n] = '\0';
		for (; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			log_limited(sv, line[0] == '!', line + (line[0] == '!'));
		}
	}
}

static void reap(struct server *sv)
{
	unsigned int i;
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (i = 0; i < sv->o->max_tests; i++)
			if (sv->slots[i].pid == pid) {
				sv->slots[i].pid = 0;
				sv->active--;
				break;
			}
}

static void conn_free(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Answer with reply (its ERR line), then read what still comes, briefly. */
static void conn_refuse(struct conn *c, const char *reply)
{
	(void)!send(c->fd, reply, strlen(reply), MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(c->fd, SHUT_WR);
	c->closing = true;
	c->drained = 0;
	c->deadline = pp_now_ns() + LINGER_MS * NS;
}

static void conn_bad(struct server *sv, struct conn *c, const char *code, const char *why)
{
	char reply[PP_NET_LINE_MAX];

	snprintf(reply, sizeof(reply), "%s %d ERR %s %s\n", PP_NET_MAGIC, PP_NET_VERSION, code,
		 why);
	log_problem(sv, "bad control message from %s: %s: %s", c->name, code, why);
	conn_refuse(c, reply);
}

static void conn_linger(struct conn *c)
{
	char buf[4096];

	for (;;) {
		ssize_t r = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (r <= 0 || (c->drained += (size_t)r) >= LINGER_MAX) {
			conn_free(c);
			return;
		}
	}
}

static unsigned int slots_of(const struct server *sv, const struct sockaddr_storage *peer)
{
	unsigned int i, n = 0;

	for (i = 0; i < sv->o->max_tests; i++)
		if (sv->slots[i].pid > 0 &&
		    pp_net_same_host((const struct sockaddr *)&sv->slots[i].peer,
				     (const struct sockaddr *)peer))
			n++;
	return n;
}

/* A valid request: its process, if there is room. */
static void conn_start(struct server *sv, struct conn *c)
{
	unsigned int mine = slots_of(sv, &c->peer), i;
	char reply[PP_NET_LINE_MAX];
	pid_t pid;

	if (sv->active >= sv->o->max_tests || mine >= sv->max_per) {
		snprintf(reply, sizeof(reply), "%s %d ERR busy %u tests running, %u of them from "
			 "your address (at most %u, %u from one address), try again\n",
			 PP_NET_MAGIC, PP_NET_VERSION, sv->active, mine, sv->o->max_tests,
			 sv->max_per);
		log_problem(sv, "busy: refused %s from %s (%u tests running, %u from it)",
			    pp_net_type_name(c->rq.req.type), c->name, sv->active, mine);
		conn_refuse(c, reply);
		return;
	}
	for (i = 0; sv->slots[i].pid > 0; i++)
		;
	pid = pp_child_fork();
	if (pid == 0) {
		unsigned int k;

		for (k = 0; k < sv->nl; k++)
			close(sv->lfds[k]);
		for (k = 0; k < PP_NETSERVER_PENDING; k++)
			if (sv->conns[k].fd >= 0 && &sv->conns[k] != c)
				close(sv->conns[k].fd);
		close(sv->logr);
		serve_one(c->fd, &c->rq.req, &c->peer, c->name, sv->logw);
	}
	if (pid < 0) {
		logf_line("fork: %s\n", strerror(errno));
		conn_bad(sv, c, "internal", "cannot start the test");
		return;
	}
	sv->slots[i].pid = pid;
	sv->slots[i].peer = c->peer;
	sv->active++;
	conn_free(c);
}

/*
 * What the connection sent: lines, each taken up to its '\n' (peeked,
 * then read), so that nothing after the request is lost to the test.
 */
static void conn_read(struct server *sv, struct conn *c)
{
	unsigned int k;

	for (k = 0; k < 4 && c->fd >= 0 && !c->closing; k++) {
		char data[PP_NET_LINE_MAX], reply[PP_NET_LINE_MAX];
		ssize_t r = recv(c->fd, data, sizeof(data), MSG_PEEK | MSG_DONTWAIT);
		size_t used = 0;
		int ret;

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (r <= 0) {	/* connected and went away: not a message */
			conn_free(c);
			return;
		}
		ret = pp_net_line_take(&c->lb, data, (size_t)r, &used);
		(void)!recv(c->fd, data, used, MSG_DONTWAIT);
		if (ret < 0) {
			conn_bad(sv, c, "syntax", ret == -EMSGSIZE ? "line too long" :
				 "not a line of printable ASCII");
			return;
		}
		if (!ret)
			continue;
		c->lb.len = 0;
		ret = pp_netserver_rq_line(&c->rq, sv->o, c->lb.buf, reply, sizeof(reply));
		if (ret < 0) {
			log_problem(sv, "bad control message from %s: %s: %s", c->name,
				    c->rq.code, c->rq.why);
			conn_refuse(c, reply);
		} else if (ret > 0) {
			conn_start(sv, c);
		} else if (reply[0] &&
			   send(c->fd, reply, strlen(reply), MSG_NOSIGNAL | MSG_DONTWAIT) !=
			   (ssize_t)strlen(reply)) {
			conn_free(c);
		}
	}
}

static void conn_event(struct server *sv, struct conn *c, short revents)
{
	if (revents && c->closing)
		conn_linger(c);
	else if (revents)
		conn_read(sv, c);
	if (c->fd < 0 || pp_now_ns() < c->deadline)
		return;
	if (c->closing)
		conn_free(c);
	else
		conn_bad(sv, c, "timeout", "no request within 5 s");
}

static unsigned int host_conns(const struct server *sv, const struct sockaddr_storage *peer)
{
	unsigned int i, n = 0;

	for (i = 0; i < PP_NETSERVER_PENDING; i++)
		if (sv->conns[i].fd >= 0 &&
		    pp_net_same_host((const struct sockaddr *)&sv->conns[i].peer,
				     (const struct sockaddr *)peer))
			n++;
	return n;
}

/* Too many connections still talking: refused at once. */
static void refuse_now(struct server *sv, int fd, const char *name, unsigned int mine)
{
	char reply[PP_NET_LINE_MAX], junk[PP_NET_LINE_MAX];
	int n = snprintf(reply, sizeof(reply), "%s %d ERR busy %u connections from your address "
			 "have not sent their request yet, try again\n", PP_NET_MAGIC,
			 PP_NET_VERSION, mine);

	(void)!send(fd, reply, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(fd, SHUT_WR);
	(void)!recv(fd, junk, sizeof(junk), MSG_DONTWAIT);	/* a FIN, not a reset */
	close(fd);
	log_problem(sv, "busy: refused a connection from %s (%u of its connections, and more, "
		    "still sending their request)", name, mine);
}

static void accept_some(struct server *sv, int lfd)
{
	unsigned int k, i;

	for (k = 0; k < 16; k++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		char nonce[PP_NET_NONCE_HEX + 1];
		unsigned char rnd[PP_NET_NONCE_HEX / 2];
		char name[64];
		unsigned int mine;
		struct conn *c = NULL;
		int fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;
		pp_net_addr_str((struct sockaddr *)&ss, name, sizeof(name));
		mine = host_conns(sv, &ss);
		for (i = 0; mine < PP_NETSERVER_PENDING_HOST && i < PP_NETSERVER_PENDING; i++)
			if (sv->conns[i].fd < 0) {
				c = &sv->conns[i];
				break;
			}
		if (!c) {
			refuse_now(sv, fd, name, mine);
			continue;
		}
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->peer = ss;
		c->deadline = pp_now_ns() + PP_NET_CTL_TIMEOUT_MS * NS;
		snprintf(c->name, sizeof(c->name), "%s", name);
		if (sv->o->secret_len &&
		    getrandom(rnd, sizeof(rnd), 0) == (ssize_t)sizeof(rnd)) {
			for (i = 0; i < sizeof(rnd); i++)
				snprintf(nonce + 2 * i, 3, "%02x", rnd[i]);
			pp_netserver_rq_init(&c->rq, nonce);
		} else {
			/* without a nonce no proof holds: AUTH is refused */
			pp_netserver_rq_init(&c->rq, NULL);
		}
	}
}

/*
 * The poll set: the listeners, the log pipe, then each connection still
 * sending its request (in polled[], *nc of them), its deadline folded
 * into *next.  The number of entries.
 */
static unsigned int poll_set(const struct server *sv, struct pollfd *p, struct conn **polled,
			     unsigned int *nc, uint64_t *next)
{
	unsigned int i, np = 0;

	*nc = 0;
	for (i = 0; i < sv->nl; i++)
		p[np++] = (struct pollfd){ .fd = sv->lfds[i], .events = POLLIN };
	p[np++] = (struct pollfd){ .fd = sv->logr, .events = POLLIN };
	for (i = 0; i < PP_NETSERVER_PENDING; i++) {
		struct conn *c = &sv->conns[i];

		if (c->fd < 0)
			continue;
		polled[(*nc)++] = c;
		p[np++] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		*next = min_u64(*next, c->deadline);
	}
	return np;
}

int pp_netserver_loop(const int *lfds, unsigned int n, const struct pp_netserver_opts *o)
{
	struct pollfd p[PP_NETSERVER_MAX_BIND + 1 + PP_NETSERVER_PENDING];
	struct conn *polled[PP_NETSERVER_PENDING];
	struct server sv = { .o = o, .lfds = lfds, .nl = n };
	int pfd[2], ret = -ENOMEM;
	unsigned int i;

	if (n > PP_NETSERVER_MAX_BIND || !o->max_tests || pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	sv.logr = pfd[0];
	sv.logw = pfd[1];
	sv.max_per = pp_netserver_max_per_client(o);
	sv.log[0].max = LOG_TESTS;
	sv.log[1].max = LOG_PROBLEMS;
	sv.log[0].start = sv.log[1].start = time(NULL);
	sv.slots = calloc(o->max_tests, sizeof(*sv.slots));
	sv.conns = calloc(PP_NETSERVER_PENDING, sizeof(*sv.conns));
	if (!sv.slots || !sv.conns)
		goto out;
	for (i = 0; i < PP_NETSERVER_PENDING; i++)
		sv.conns[i].fd = -1;
	for (i = 0; i < n; i++)
		fcntl(lfds[i], F_SETFL, fcntl(lfds[i], F_GETFL) | O_NONBLOCK);
	for (;;) {
		uint64_t next = pp_now_ns() + 1000 * NS;
		unsigned int np, nc;
		int r;

		np = poll_set(&sv, p, polled, &nc, &next);
		r = poll(p, np, ms_until(next));
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		reap(&sv);
		if (r > 0 && p[n].revents)
			drain_log(&sv);
		for (i = 0; i < nc; i++)
			conn_event(&sv, polled[i], r > 0 ? p[n + 1 + i].revents : 0);
		for (i = 0; r > 0 && i < n; i++)
			if (p[i].revents)
				accept_some(&sv, lfds[i]);
	}
out:
	if (sv.conns)
		for (i = 0; i < PP_NETSERVER_PENDING; i++)
			conn_free(&sv.conns[i]);
	free(sv.conns);
	free(sv.slots);
	close(pfd[0]);
	close(pfd[1]);
	return ret;
}

int pp_netserver_listen(const struct sockaddr *addr, socklen_t len)
{
	int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, err;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->sa_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, addr, len) || listen(fd, 64)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* --- the command --- */

static int ns_listen_all(const char **binds, unsigned int nb, int port, int *lfds)
{
	struct sockaddr_storage ss;
	unsigned int i, n = 0;
	char name[80];
	socklen_t len;

	for (i = 0; i < nb; i++) {
		int fd;

		if (pp_net_parse_addr(binds[i], port, &ss, &len)) {
			pp_err("netserver: --bind '%s': not a numeric IPv4 or IPv6 address",
			       binds[i]);
			return -PP_EXIT_USAGE;
		}
		pp_net_addr_str((struct sockaddr *)&ss, name, sizeof(name));
		fd = pp_netserver_listen((struct sockaddr *)&ss, len);
		if (fd < 0) {
			pp_err("netserver: %s: %s", name, strerror(-fd));
			continue;
		}
		logf_line("listening on %s (protocol %s %d)\n", name, PP_NET_MAGIC,
			  PP_NET_VERSION);
		lfds[n++] = fd;
	}
	return (int)n;
}

/* What the command line asks of the server. */
struct ns_cmd {
	const char *binds[PP_NETSERVER_MAX_BIND];
	unsigned int nb;
	uint64_t port;
	char secret[PP_NET_SECRET_MAX];
	struct pp_netserver_opts o;
};

/* One of netserver's own options into nc: 0 or PP_EXIT_USAGE, said. */
static int ns_opt(struct ns_cmd *nc, int c, const char *arg)
{
	char err[PATH_MAX + 80];
	uint64_t v;
	int ret;

	switch (c) {
	case 'b':
		if (nc->nb >= PP_NETSERVER_MAX_BIND) {
			pp_err("netserver: at most %d --bind", PP_NETSERVER_MAX_BIND);
			return PP_EXIT_USAGE;
		}
		nc->binds[nc->nb++] = arg;
		break;
	case 'p':
	case 'm':
		if (pp_parse_u64(arg, 1, c == 'p' ? 65535 : 1024, &v)) {
			pp_err("netserver: bad value '%s' for -%c", arg, c);
			return PP_EXIT_USAGE;
		}
		if (c == 'p')
			nc->port = v;
		else
			nc->o.max_tests = (unsigned int)v;
		break;
	case PP_OPT_NS_MAX_PER_CLIENT:
	case PP_OPT_NS_MAX_DURATION:
		if (pp_parse_u64(arg, c == PP_OPT_NS_MAX_DURATION ? PP_NET_MIN_MS : 1,
				 c == PP_OPT_NS_MAX_DURATION ? PP_NET_MAX_MS : 1024, &v)) {
			pp_err("netserver: bad value '%s' for --%s", arg,
			       c == PP_OPT_NS_MAX_DURATION ? "max-duration" : "max-per-client");
			return PP_EXIT_USAGE;
		}
		if (c == PP_OPT_NS_MAX_DURATION)
			nc->o.max_duration_ms = (uint32_t)v;
		else
			nc->o.max_per_client = (unsigned int)v;
		break;
	case PP_OPT_NS_SECRET_FILE:
		ret = pp_net_secret_load(arg, nc->secret, sizeof(nc->secret), err, sizeof(err));
		if (ret < 0) {
			pp_err("netserver: --secret-file %s", err);
			return PP_EXIT_USAGE;
		}
		nc->o.secret = nc->secret;
		nc->o.secret_len = (size_t)ret;
		break;
	}
	return 0;
}

int pp_cmd_netserver(struct pp_cli *cli, int argc, char **argv)
{
	struct ns_cmd nc = {
		.binds = { "127.0.0.1", "::1" },
		.port = PP_NET_PORT,
		.o = { .max_tests = PP_NETSERVER_MAX_TESTS },
	};
	int lfds[PP_NETSERVER_MAX_BIND], k, n, ret;
	unsigned int i;

	if (argc > 0) {
		pp_err("netserver: unexpected argument '%s'", argv[0]);
		return PP_EXIT_USAGE;
	}
	/* one meaning per letter: -q is --quick everywhere (options.c) */
	if (cli->opts.quick || cli->opts.full)
		return pp_usage_err("netserver: --%s has no meaning for a server (to log only problems: --quiet)",
				    cli->opts.quick ? "quick (-q)" : "full");
	nc.o.quiet = cli->opts.quiet;
	for (k = 0; k < cli->ncopts; k++) {
		ret = ns_opt(&nc, cli->copts[k].val, cli->copts[k].arg);
		if (ret)
			return ret;
	}
	if (nc.o.max_per_client > nc.o.max_tests) {
		pp_err("netserver: --max-per-client %u is more than --max-tests %u",
		       nc.o.max_per_client, nc.o.max_tests);
		return PP_EXIT_USAGE;
	}
	/* by default both loopbacks, IPv6's where it is up (0: usable) */
	if (!nc.nb)
		nc.nb = pp_net_loopback_usable(AF_INET6) == 0 ? 2 : 1;
	n = ns_listen_all(nc.binds, nc.nb, (int)nc.port, lfds);
	if (n < 0)
		return -n;
	if (n == 0) {
		pp_err("netserver: nothing to listen on");
		return PP_EXIT_FAIL;
	}
	logf_line("at most %u tests at once, %u from one address, %" PRIu32 " ms each; %s\n",
		  nc.o.max_tests, pp_netserver_max_per_client(&nc.o),
		  pp_netserver_max_duration(&nc.o),
		  nc.o.secret ? "clients must prove the shared secret" : "no shared secret asked");
	ret = pp_netserver_loop(lfds, (unsigned int)n, &nc.o);
	pp_err("netserver: %s", strerror(-ret));
	for (i = 0; i < (unsigned int)n; i++)
		close(lfds[i]);
	return PP_EXIT_FAIL;
}
