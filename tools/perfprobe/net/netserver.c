// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe netserver: serves the tests of the net benchmarks, one
 * process per test (at most max_tests at once), each bounded in time:
 * every control read has a timeout, every test a deadline, every test
 * process an alarm.  A malformed request gets an "ERR" line and is
 * logged (one line, rate-limited) by the parent; the server goes on.
 * Protocol: net/netproto.h, Documentation/netserver.rst.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

#define RECV_BUF		(256 << 10)	/* what a drain reads at a time */
#define UDP_BATCH		32
#define SLACK_MS		30000	/* a test may run this long past its duration */
#define DRAIN_MS		5	/* UDP: quiet time that ends the drain */
#define LOG_EVERY_S		10	/* at most one malformed-message line per ... */
#define CRR_BACKLOG		128
#define IDLE_TICK_MS		20	/* TCP_STREAM: recv timeout when idle */

struct sess {
	int ctl, data, conn;
	struct pp_net_req req;
	struct pp_net_meter m;
	struct pp_net_result res;
	char *buf;
	size_t bufsize;
	uint64_t deadline;
	int logw;
	char peer[64];
};

static void set_timeouts(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Tell the parent, which logs it (rate-limited); one atomic write. */
static void report_bad(struct sess *s, const char *code, const char *why)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "!bad control message from %s: %s: %s\n",
			 s->peer, code, why);

	if (s->logw >= 0 && n > 0)
		(void)!write(s->logw, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line));
}

static void reject(struct sess *s, const char *code, const char *why)
{
	pp_net_sendf(s->ctl, "%s %d ERR %s %s\n", PP_NET_MAGIC, PP_NET_VERSION, code, why);
	report_bad(s, code, why);
}

static bool past(const struct sess *s)
{
	return pp_now_ns() > s->deadline;
}

static int wait_ms(struct sess *s, int max_ms)
{
	return pp_net_meter_wait_ms(&s->m, pp_now_ns(), max_ms);
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

static int accept_data(struct sess *s)
{
	int r = poll2(s->data, s->ctl, PP_NET_CTL_TIMEOUT_MS);

	if (r <= 0 || !(r & 1))
		return r < 0 ? r : -ETIMEDOUT;
	s->conn = accept4(s->data, NULL, NULL, SOCK_CLOEXEC);
	if (s->conn < 0)
		return -errno;
	set_timeouts(s->conn, PP_NET_CTL_TIMEOUT_MS);
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
	uint64_t first = pp_now_ns() + PP_NET_CTL_TIMEOUT_MS * 1000000ull;
	struct timeval tv = { .tv_usec = IDLE_TICK_MS * 1000 };
	int ret = accept_data(s);

	if (!ret)
		setsockopt(s->conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* Until the window is over; the rest is drained after the result. */
	while (!ret && !past(s) && s->m.cur < s->m.n) {
		ssize_t r = recv(s->conn, s->buf, s->req.size, 0);
		uint64_t now = pp_now_ns();

		if (r > 0) {
			pp_net_meter_add(&s->m, now, (uint64_t)r, 0, 0);
			s->res.rx += (uint64_t)r;
			continue;
		}
		if (r == 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (!s->m.started && now > first)
			return -ETIMEDOUT;
		pp_net_meter_at(&s->m, now);
	}
	if (!ret)
		set_timeouts(s->conn, PP_NET_CTL_TIMEOUT_MS);
	return ret;
}

static int srv_tcp_maerts(struct sess *s)
{
	int ret = accept_data(s);

	if (ret)
		return ret;
	memset(s->buf, 'm', s->req.size);
	pp_net_meter_start(&s->m, pp_now_ns());
	while (!past(s)) {
		ssize_t w = send(s->conn, s->buf, s->req.size, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;	/* the client closed: the end of the test */
		pp_net_meter_add(&s->m, pp_now_ns(), 0, (uint64_t)w, 0);
		s->res.tx += (uint64_t)w;
	}
	return 0;
}

static int srv_tcp_rr(struct sess *s)
{
	int ret = accept_data(s);

	while (!ret && !past(s)) {
		ret = pp_read_full(s->conn, s->buf, s->req.size);
		if (ret == -EPIPE || ret == -ECONNRESET)
			return 0;	/* the client closed */
		if (!ret)
			ret = pp_write_full(s->conn, s->buf, s->req.size);
		if (!ret) {
			pp_net_meter_add(&s->m, pp_now_ns(), s->req.size, s->req.size, 1);
			s->res.rx += s->req.size;
			s->res.tx += s->req.size;
			s->res.pkts++;
		}
	}
	return ret;
}

/* Read the client's DONE line: 0, or -errno / -EPROTO. */
static int read_done(struct sess *s, uint64_t *sent)
{
	char line[PP_NET_LINE_MAX], *word, *rest;
	int ret = pp_net_read_line(s->ctl, line, sizeof(line), PP_NET_CTL_TIMEOUT_MS);

	if (ret < 0)
		return ret;
	if (pp_net_line_word(line, &word, &rest) || strcmp(word, "DONE") ||
	    strncmp(rest, "sent=", 5) || pp_parse_u64(rest + 5, 0, UINT64_MAX, sent)) {
		reject(s, "syntax", "expected DONE sent=N");
		return -EPROTO;
	}
	return 0;
}

static int crr_one(struct sess *s)
{
	int fd = accept4(s->data, NULL, NULL, SOCK_CLOEXEC), ret;

	if (fd < 0)
		return errno == EAGAIN || errno == ECONNABORTED || errno == EINTR ? 0 : -errno;
	set_timeouts(fd, 2000);
	ret = pp_read_full(fd, s->buf, s->req.size);
	if (!ret)
		ret = pp_write_full(fd, s->buf, s->req.size);
	if (!ret)	/* the client closes first */
		while (recv(fd, s->buf, s->bufsize, 0) > 0)
			;
	close(fd);
	if (!ret) {
		pp_net_meter_add(&s->m, pp_now_ns(), s->req.size, s->req.size, 1);
		s->res.rx += s->req.size;
		s->res.tx += s->req.size;
		s->res.pkts++;
	}
	return 0;	/* a failed transaction is the client's to count */
}

static int srv_tcp_crr(struct sess *s)
{
	uint64_t sent;

	while (!past(s)) {
		int r = poll2(s->data, s->ctl, wait_ms(s, PP_NET_CTL_TIMEOUT_MS));

		if (r < 0)
			return r;
		pp_net_meter_at(&s->m, pp_now_ns());
		if (r & 2)
			return read_done(s, &sent);
		if (r & 1) {
			r = crr_one(s);
			if (r)
				return r;
		} else if (!s->m.started) {
			return -ETIMEDOUT;
		}
	}
	return 0;
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

		if (s->req.type == PP_NET_UDP_STREAM) {
			udp_count(s, u, h->msg_iov->iov_base, len, now);
			continue;
		}
		if (sendto(s->data, h->msg_iov->iov_base, len, 0, h->msg_name,
			   h->msg_namelen) == (ssize_t)len) {
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
	int ret = -ETIMEDOUT;

	if (!u)
		return -ENOMEM;
	udp_rx_init(s, u, s->bufsize / UDP_BATCH);
	while (!past(s)) {
		int r = poll2(s->data, s->ctl, wait_ms(s, PP_NET_CTL_TIMEOUT_MS));

		pp_net_meter_at(&s->m, pp_now_ns());
		if (r < 0 || (!r && !s->m.started)) {
			ret = r < 0 ? r : -ETIMEDOUT;
			break;
		}
		if (r & 1) {
			while ((r = udp_batch(s, u)) == UDP_BATCH)
				;
			if (r < 0) {
				ret = r;
				break;
			}
		}
		if (poll2(s->ctl, -1, 0) > 0) {
			ret = read_done(s, &sent);
			/* What was sent before DONE is queued or about to be. */
			while (!ret && poll2(s->data, -1, DRAIN_MS) > 0 && udp_batch(s, u) > 0)
				;
			break;
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
	s->data = socket(ss.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
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

static int read_request(struct sess *s)
{
	char line[PP_NET_LINE_MAX], err[160];
	const char *code = "syntax";
	int ret = pp_net_read_line(s->ctl, line, sizeof(line), PP_NET_CTL_TIMEOUT_MS);

	if (ret == -EPIPE)
		return ret;	/* connected and went away: not a message */
	if (ret < 0) {
		reject(s, ret == -ETIMEDOUT ? "timeout" : "syntax",
		       ret == -ETIMEDOUT ? "no request within 5 s" :
		       ret == -EMSGSIZE ? "line too long" :
		       ret == -EILSEQ ? "not a line of printable ASCII" : strerror(-ret));
		return ret;
	}
	ret = pp_net_req_parse(line, &s->req, &code, err, sizeof(err));
	if (ret)
		reject(s, code, err);
	return ret;
}

static int session(struct sess *s)
{
	size_t dsize;
	int ret, port;

	ret = read_request(s);
	if (ret)
		return ret;
	port = data_socket(s);
	if (port < 0) {
		reject(s, port == -EAFNOSUPPORT ? "range" : "internal",
		       port == -EAFNOSUPPORT ? "family does not match the control connection" :
		       strerror(-port));
		return port;
	}
	dsize = s->req.size > 65536 ? s->req.size : 65536;
	s->bufsize = pp_net_type_udp(s->req.type) ? dsize * UDP_BATCH :
		     (s->req.size > RECV_BUF ? s->req.size : RECV_BUF);
	s->buf = calloc(1, s->bufsize);
	if (!s->buf ||
	    pp_net_meter_init(&s->m, s->req.intervals, s->req.duration_ms * 1000000ull)) {
		reject(s, "internal", "out of memory");
		return -ENOMEM;
	}
	s->deadline = pp_now_ns() + (s->req.duration_ms + SLACK_MS) * 1000000ull;
	if (s->logw >= 0) {
		char line[160];
		int n = snprintf(line, sizeof(line), "%s from %s: size %" PRIu32 ", %" PRIu32
				 " ms\n", pp_net_type_name(s->req.type), s->peer, s->req.size,
				 s->req.duration_ms);

		if (n > 0 && (size_t)n < sizeof(line))
			(void)!write(s->logw, line, (size_t)n);
	}
	ret = pp_net_sendf(s->ctl, "%s %d OK port=%d rcvbuf=%" PRIu32 " sndbuf=%" PRIu32 "\n",
			   PP_NET_MAGIC, PP_NET_VERSION, port, s->res.rcvbuf, s->res.sndbuf);
	if (ret)
		return ret;
	s->res.cpu_first = sched_getcpu();
	ret = run_test(s);
	if (ret == -EPROTO)
		return ret;
	if (ret) {
		pp_net_sendf(s->ctl, "%s %d ERR test %s\n", PP_NET_MAGIC, PP_NET_VERSION,
			     strerror(-ret));
		return ret;
	}
	pp_net_meter_at(&s->m, s->m.started ? s->m.start + s->m.iv_ns * s->m.n : 0);
	s->res.cpu_last = sched_getcpu();
	s->res.n = s->m.n;
	s->res.window_ns = s->m.iv_ns * s->m.n;
	memcpy(s->res.iv, s->m.iv, sizeof(s->res.iv));
	ret = pp_net_result_send(s->ctl, &s->res);
	/* TCP_STREAM: the client stops when it has the result; take the rest. */
	while (!ret && s->req.type == PP_NET_TCP_STREAM && !past(s) &&
	       recv(s->conn, s->buf, s->bufsize, 0) > 0)
		;
	return ret;
}

/*
 * Closing with unread input would send a reset, which may destroy our
 * last line (an ERR) before the client reads it: read what is left, a
 * little, briefly.
 */
static void linger_close(int ctl, char *buf, size_t size)
{
	size_t left = 1 << 20;
	ssize_t r;

	shutdown(ctl, SHUT_WR);
	set_timeouts(ctl, 200);
	while (left > 0 && (r = recv(ctl, buf, size, 0)) > 0)
		left -= (size_t)r < left ? (size_t)r : left;
	close(ctl);
}

static __attribute__((noreturn)) void serve_one(int ctl, int logw)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct sess *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		_exit(1);
	alarm(PP_NET_MAX_MS / 1000 + SLACK_MS / 1000 + 30);	/* whatever happens */
	s->ctl = ctl;
	s->data = s->conn = -1;
	s->logw = logw;
	s->m.statfd = -1;
	if (!getpeername(ctl, (struct sockaddr *)&ss, &len))
		pp_net_addr_str((struct sockaddr *)&ss, s->peer, sizeof(s->peer));
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

/* --- the parent --- */

struct server {
	const struct pp_netserver_opts *o;
	unsigned int active;
	int logr, logw;
	time_t logged;		/* when the last bad-message line was written */
	unsigned long suppressed;
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

/* One line per bad message, at most one per LOG_EVERY_S; the rest counted. */
static void drain_log(struct server *sv)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(sv->logr, buf, sizeof(buf) - 1)) > 0) {
		char *line = buf, *nl;

		buf[n] = '\0';
		for (; (nl = strchr(line, '\n')); line = nl + 1) {
			time_t now = time(NULL);

			*nl = '\0';
			if (line[0] != '!') {
				if (!sv->o->quiet)
					logf_line("%s\n", line);
				continue;
			}
			line++;
			if (sv->logged && now - sv->logged < LOG_EVERY_S) {
				sv->suppressed++;
				continue;
			}
			if (sv->suppressed)
				logf_line("%s (and %lu more bad messages in the last %d s)\n", line,
					  sv->suppressed, LOG_EVERY_S);
			else
				logf_line("%s\n", line);
			sv->logged = now;
			sv->suppressed = 0;
		}
	}
}

static void reap(struct server *sv)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		if (sv->active)
			sv->active--;
}

static void serve_conn(struct server *sv, const int *lfds, unsigned int n, int fd)
{
	unsigned int i;
	pid_t pid;

	if (sv->active >= sv->o->max_tests) {
		pp_net_sendf(fd, "%s %d ERR busy %u tests running, try again\n", PP_NET_MAGIC,
			     PP_NET_VERSION, sv->active);
		close(fd);
		return;
	}
	pid = pp_child_fork();
	if (pid == 0) {
		for (i = 0; i < n; i++)
			close(lfds[i]);
		close(sv->logr);
		serve_one(fd, sv->logw);
	}
	if (pid > 0)
		sv->active++;
	else
		logf_line("fork: %s\n", strerror(errno));
	close(fd);
}

int pp_netserver_loop(const int *lfds, unsigned int n, const struct pp_netserver_opts *o)
{
	struct pollfd p[PP_NETSERVER_MAX_BIND + 1];
	struct server sv = { .o = o };
	int pfd[2];
	unsigned int i;

	if (n > PP_NETSERVER_MAX_BIND || pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	sv.logr = pfd[0];
	sv.logw = pfd[1];
	for (i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = lfds[i], .events = POLLIN };
	p[n] = (struct pollfd){ .fd = sv.logr, .events = POLLIN };
	for (;;) {
		int r = poll(p, n + 1, 1000);

		reap(&sv);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		if (p[n].revents)
			drain_log(&sv);
		for (i = 0; i < n; i++) {
			int fd;

			if (!p[i].revents)
				continue;
			fd = accept4(lfds[i], NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0)
				continue;
			set_timeouts(fd, PP_NET_CTL_TIMEOUT_MS);
			serve_conn(&sv, lfds, n, fd);
		}
	}
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

int pp_cmd_netserver(struct pp_cli *cli, int argc, char **argv)
{
	const char *binds[PP_NETSERVER_MAX_BIND] = { "127.0.0.1", "::1" };
	struct pp_netserver_opts o = { .max_tests = PP_NETSERVER_MAX_TESTS };
	unsigned int nb = 0, i;
	int lfds[PP_NETSERVER_MAX_BIND], c, k, n, ret;
	uint64_t v, port = PP_NET_PORT;

	if (argc > 0) {
		pp_err("netserver: unexpected argument '%s'", argv[0]);
		return PP_EXIT_USAGE;
	}
	/* one meaning per letter: -q is --quick everywhere (options.c) */
	if (cli->opts.quick || cli->opts.full)
		return pp_usage_err("netserver: --%s has no meaning for a server (to log only problems: --quiet)",
				    cli->opts.quick ? "quick (-q)" : "full");
	o.quiet = cli->opts.quiet;
	for (k = 0; k < cli->ncopts; k++) {
		const char *arg = cli->copts[k].arg;

		switch ((c = cli->copts[k].val)) {
		case 'b':
			if (nb >= PP_NETSERVER_MAX_BIND) {
				pp_err("netserver: at most %d --bind", PP_NETSERVER_MAX_BIND);
				return PP_EXIT_USAGE;
			}
			binds[nb++] = arg;
			break;
		case 'p':
		case 'm':
			if (pp_parse_u64(arg, 1, c == 'p' ? 65535 : 1024, &v)) {
				pp_err("netserver: bad value '%s' for -%c", arg, c);
				return PP_EXIT_USAGE;
			}
			if (c == 'p')
				port = v;
			else
				o.max_tests = (unsigned int)v;
			break;
		}
	}
	if (!nb) {
		nb = pp_net_loopback_usable(AF_INET6) ? 1 : 2;
	}
	n = ns_listen_all(binds, nb, (int)port, lfds);
	if (n < 0)
		return -n;
	if (n == 0) {
		pp_err("netserver: nothing to listen on");
		return PP_EXIT_FAIL;
	}
	ret = pp_netserver_loop(lfds, (unsigned int)n, &o);
	pp_err("netserver: %s", strerror(-ret));
	for (i = 0; i < (unsigned int)n; i++)
		close(lfds[i]);
	return PP_EXIT_FAIL;
}
