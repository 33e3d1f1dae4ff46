// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile clients of "perfprobe netserver" (tests/integration/netserver.t),
 * each bounded in time.  Every attack of issue 26:
 *
 *   pp-hostile ADDR PORT hold KIND N SRC SECS
 *	N connections from source address SRC, each opened again when the
 *	server closes it, for SECS seconds; KIND:
 *	  slowline  the request line, a byte every 2 s
 *	  rrstall   TCP_RR size=65536 duration_ms=10, its request a byte every 4 s
 *	  crrstall  TCP_CRR duration_ms=10, one transaction, then a byte a
 *		    second on its data connection
 *	  hello     "HELLO", then a byte every 150 ms after the ERR
 *	prints: kind=K conns=N closed=N max_held_ms=N codes=code:n,...
 *	(max_held_ms: the longest any connection stayed open, those still
 *	open at the end counted to the end)
 *   pp-hostile ADDR PORT forge-udp SRC
 *	UDP_RR size=1 from ADDR's own client; datagrams of 1, 1400 and
 *	8000 bytes from SRC, and of 2 bytes from the client, to the data
 *	port; prints forged_echoes, wrong_size_echoes, client_echoes and the
 *	result's pkts
 *   pp-hostile ADDR PORT foreign-tcp SRC
 *	TCP_MAERTS from the client; SRC connects to the data port first;
 *	prints foreign_bytes, client_bytes and the answer
 *   pp-hostile ADDR PORT sigpipe
 *	TCP_RR size=1; "xx" on the data connection, closed unread; prints
 *	the control connection's next line
 *
 * IPv4 only (127.0.0.0/8 gives the sources).  Exit 0 when it ran, 1 when
 * it could not (a connect refused, no answer), 2 on usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS	64
#define LINE_MAX	512
#define RETRY_MS	100

static const char *srv_addr;
static int srv_port;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int fill_addr(struct sockaddr_in *sa, const char *ip, int port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

/* A socket of type from src (NULL: any) connected to the server's port. */
static int connect_from(const char *src, int port, int type)
{
	struct sockaddr_in sa;
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (src && (fill_addr(&sa, src, 0) || bind(fd, (struct sockaddr *)&sa, sizeof(sa))))
		goto err;
	if (fill_addr(&sa, srv_addr, port) || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		goto err;
	return fd;
err:
	close(fd);
	return -1;
}

static int send_str(int fd, const char *s)
{
	size_t n = strlen(s);

	return send(fd, s, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

/* One line, the whole of it within ms: its length, or -1. */
static int read_line(int fd, char *buf, size_t size, int ms)
{
	uint64_t until = now_ms() + (uint64_t)ms;
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ms();
		char c;

		if (now >= until || poll(&p, 1, (int)(until - now)) <= 0 ||
		    recv(fd, &c, 1, 0) != 1)
			return -1;
		if (c == '\n')
			break;
		if (len + 1 < size)
			buf[len++] = c;
	}
	buf[len] = '\0';
	return (int)len;
}

static int ok_port(const char *line)
{
	const char *p = strstr(line, " OK port=");

	return p ? atoi(p + 9) : -1;
}

/* --- hold --- */

enum kind { SLOWLINE, RRSTALL, CRRSTALL, HELLO };
static const char *const kind_names[] = { "slowline", "rrstall", "crrstall", "hello" };

static const char *const requests[] = {
	[SLOWLINE] = "PPNET 1 TEST type=TCP_RR family=ipv4 size=1 duration_ms=100 intervals=1 "
		     "rate_pps=0 id=1 rcvbuf=0\n",
	[RRSTALL] = "PPNET 1 TEST type=TCP_RR family=ipv4 size=65536 duration_ms=10 intervals=1 "
		    "rate_pps=0 id=1 rcvbuf=0\n",
	[CRRSTALL] = "PPNET 1 TEST type=TCP_CRR family=ipv4 size=1 duration_ms=10 intervals=1 "
		     "rate_pps=0 id=1 rcvbuf=0\n",
	[HELLO] = "HELLO\n",
};

static const unsigned int every_ms[] = { 2000, 4000, 1000, 150 };

struct hc {
	int ctl, data;
	bool stalling;		/* sending a byte every every_ms[] */
	bool eof;		/* hello: the server stopped talking; closed when a send fails */
	uint64_t opened, next;	/* next: a byte due, or (ctl < 0) the reconnect */
	size_t sent;		/* slowline: of the request */
	char line[LINE_MAX];
	size_t len;
};

struct hold {
	enum kind kind;
	const char *src;
	unsigned long conns, closed;
	uint64_t max_held;
	char codes[16][16];
	unsigned long ncode[16];
};

static void count_code(struct hold *h, const char *line)
{
	char code[16] = "";
	unsigned int i;

	if (strncmp(line, "PPNET 1 ERR ", 12))
		return;
	sscanf(line + 12, "%15s", code);
	for (i = 0; i < 16 && h->codes[i][0] && strcmp(h->codes[i], code); i++)
		;
	if (i == 16)
		return;
	snprintf(h->codes[i], sizeof(h->codes[i]), "%s", code);
	h->ncode[i]++;
}

static void hc_open(struct hold *h, struct hc *c)
{
	uint64_t now = now_ms();

	c->len = c->sent = 0;
	c->stalling = c->eof = false;
	c->data = -1;
	c->ctl = connect_from(h->src, srv_port, SOCK_STREAM);
	if (c->ctl < 0) {
		c->next = now + RETRY_MS;
		return;
	}
	h->conns++;
	c->opened = now;
	c->next = now;
	if (h->kind == SLOWLINE)
		c->stalling = true;
	else
		send_str(c->ctl, requests[h->kind]);
}

static void hc_closed(struct hold *h, struct hc *c)
{
	uint64_t now = now_ms();

	if (now - c->opened > h->max_held)
		h->max_held = now - c->opened;
	h->closed++;
	close(c->ctl);
	if (c->data >= 0)
		close(c->data);
	c->ctl = c->data = -1;
	c->next = now + RETRY_MS;
}

/* A line from the server: what the attack does next. */
static void hc_line(struct hold *h, struct hc *c)
{
	int port = ok_port(c->line);
	char b;

	count_code(h, c->line);
	if (h->kind == HELLO) {
		c->stalling = true;
		return;
	}
	if (port <= 0 || c->data >= 0)
		return;
	c->data = connect_from(h->src, port, SOCK_STREAM);
	if (c->data < 0)
		return;
	if (h->kind == CRRSTALL) {	/* one transaction, then the stall */
		struct pollfd p = { .fd = c->data, .events = POLLIN };

		if (send_str(c->data, "x") || poll(&p, 1, 2000) <= 0 ||
		    recv(c->data, &b, 1, 0) != 1)
			return;
	}
	c->stalling = true;
	c->next = now_ms();
}

static void hc_readable(struct hold *h, struct hc *c)
{
	char buf[LINE_MAX];
	ssize_t r = recv(c->ctl, buf, sizeof(buf), MSG_DONTWAIT);
	ssize_t i;

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r == 0 && h->kind == HELLO) {
		c->eof = true;	/* its ERR sent; the server may still read */
		return;
	}
	if (r <= 0) {
		hc_closed(h, c);
		return;
	}
	for (i = 0; i < r; i++) {
		if (buf[i] != '\n') {
			if (c->len + 1 < sizeof(c->line))
				c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = '\0';
		c->len = 0;
		hc_line(h, c);
	}
}

static void hc_tick(struct hold *h, struct hc *c)
{
	const char *req = requests[h->kind];
	int fd = h->kind == RRSTALL || h->kind == CRRSTALL ? c->data : c->ctl;

	if (!c->stalling)
		return;
	c->next = now_ms() + every_ms[h->kind];
	if (h->kind == SLOWLINE && c->sent < strlen(req))
		send(fd, req + c->sent++, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	else if (h->kind != SLOWLINE && send(fd, "x", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
		 c->eof && errno != EAGAIN)
		hc_closed(h, c);	/* reset: the server has closed its end too */
}

static int do_hold(const char *kind, int n, const char *src, int secs)
{
	static struct hc conns[MAX_CONNS];
	struct hold h = { .src = src };
	uint64_t end = now_ms() + (uint64_t)secs * 1000;
	int i;

	for (i = 0; i < 4 && strcmp(kind, kind_names[i]); i++)
		;
	if (i == 4 || n < 1 || n > MAX_CONNS || secs < 1)
		return 2;
	h.kind = (enum kind)i;
	for (i = 0; i < n; i++)
		hc_open(&h, &conns[i]);
	for (;;) {
		struct pollfd p[MAX_CONNS];
		uint64_t now = now_ms(), next = end;

		if (now >= end)
			break;
		for (i = 0; i < n; i++) {
			p[i] = (struct pollfd){ .fd = conns[i].eof ? -1 : conns[i].ctl,
						.events = POLLIN };
			if ((conns[i].ctl < 0 || conns[i].stalling) && conns[i].next < next)
				next = conns[i].next;
		}
		poll(p, (nfds_t)n, next > now ? (int)(next - now) : 0);
		now = now_ms();
		for (i = 0; i < n; i++) {
			struct hc *c = &conns[i];

			if (c->ctl < 0) {
				if (now >= c->next && now < end)
					hc_open(&h, c);
				continue;
			}
			if (p[i].revents)
				hc_readable(&h, c);
			if (c->ctl >= 0 && now >= c->next)
				hc_tick(&h, c);
		}
	}
	for (i = 0; i < n; i++) {
		if (conns[i].ctl < 0)
			continue;
		if (now_ms() - conns[i].opened > h.max_held)
			h.max_held = now_ms() - conns[i].opened;
		close(conns[i].ctl);
		if (conns[i].data >= 0)
			close(conns[i].data);
	}
	printf("kind=%s conns=%lu closed=%lu max_held_ms=%llu codes=", kind, h.conns, h.closed,
	       (unsigned long long)h.max_held);
	for (i = 0; i < 16 && h.codes[i][0]; i++)
		printf("%s%s:%lu", i ? "," : "", h.codes[i], h.ncode[i]);
	printf("\n");
	return h.conns ? 0 : 1;
}

/* --- one test each --- */

/* The control connection of a test of the client (no source given): its data port. */
static int start_test(const char *type, const char *size, int *ctl)
{
	char req[LINE_MAX], line[LINE_MAX];
	int port;

	snprintf(req, sizeof(req), "PPNET 1 TEST type=%s family=ipv4 size=%s duration_ms=300 "
		 "intervals=1 rate_pps=0 id=1 rcvbuf=0\n", type, size);
	*ctl = connect_from(NULL, srv_port, SOCK_STREAM);
	if (*ctl < 0 || send_str(*ctl, req) || read_line(*ctl, line, sizeof(line), 10000) < 0)
		return -1;
	port = ok_port(line);
	if (port <= 0)
		printf("answer=%s\n", line);
	return port;
}

/* Datagrams answered on fd within ms (each one waited for). */
static int echoes(int fd, int ms)
{
	char buf[65536];
	int n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, ms) <= 0 || recv(fd, buf, sizeof(buf), 0) < 0)
			return n;
		n++;
	}
}

static int do_forge_udp(const char *forged)
{
	static char big[8000];
	const size_t sizes[] = { 1, 1400, sizeof(big) };
	char line[LINE_MAX];
	int ctl, port = start_test("UDP_RR", "1", &ctl), fs, cs, forged_n = 0, wrong, ok;
	unsigned int i;
	const char *p;

	if (port <= 0)
		return 1;
	fs = connect_from(forged, port, SOCK_DGRAM);
	cs = connect_from(NULL, port, SOCK_DGRAM);
	if (fs < 0 || cs < 0)
		return 1;
	/* first the forged ones, then the client's: neither order may matter */
	for (i = 0; i < 3; i++)
		send(fs, big, sizes[i], 0);
	forged_n = echoes(fs, 300);
	send(cs, "y", 1, 0);
	ok = echoes(cs, 2000);
	for (i = 0; i < 3; i++)
		send(fs, big, sizes[i], 0);
	send(cs, "zz", 2, 0);	/* the client's, of the wrong size */
	forged_n += echoes(fs, 300);
	wrong = echoes(cs, 300);
	send_str(ctl, "PPNET 1 DONE sent=2\n");
	if (read_line(ctl, line, sizeof(line), 10000) < 0)
		return 1;
	p = strstr(line, " pkts=");
	printf("forged_echoes=%d wrong_size_echoes=%d client_echoes=%d result_pkts=%d\n",
	       forged_n, wrong, ok, p ? atoi(p + 6) : -1);
	return 0;
}

static int do_foreign_tcp(const char *foreign)
{
	char buf[65536], line[LINE_MAX];
	long fbytes = 0, cbytes = 0;
	int ctl, port = start_test("TCP_MAERTS", "65536", &ctl), fd, cd;
	uint64_t end;

	if (port <= 0)
		return 1;
	fd = connect_from(foreign, port, SOCK_STREAM);
	if (fd >= 0) {	/* whatever comes before the server closes it */
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		while (poll(&p, 1, 2000) > 0 && (r = recv(fd, buf, sizeof(buf), 0)) > 0)
			fbytes += r;
		close(fd);
	}
	cd = connect_from(NULL, port, SOCK_STREAM);
	if (cd < 0)
		return 1;
	for (end = now_ms() + 300; now_ms() < end;) {
		ssize_t r = recv(cd, buf, sizeof(buf), 0);

		if (r <= 0)
			break;
		cbytes += r;
	}
	close(cd);
	if (read_line(ctl, line, sizeof(line), 10000) < 0)
		return 1;
	printf("foreign_connected=%d foreign_bytes=%ld client_bytes=%ld answer=%.40s\n", fd >= 0,
	       fbytes, cbytes, line);
	return 0;
}

static int do_sigpipe(void)
{
	char line[LINE_MAX];
	int ctl, port = start_test("TCP_RR", "1", &ctl), fd;

	if (port <= 0)
		return 1;
	fd = connect_from(NULL, port, SOCK_STREAM);
	if (fd < 0 || send_str(fd, "xx"))
		return 1;
	close(fd);
	if (read_line(ctl, line, sizeof(line), 30000) < 0)
		snprintf(line, sizeof(line), "(none: closed or nothing within 30 s)");
	printf("answer=%s\n", line);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		goto usage;
	srv_addr = argv[1];
	srv_port = atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[3], "hold") && argc == 8)
		return do_hold(argv[4], atoi(argv[5]), argv[6], atoi(argv[7]));
	if (!strcmp(argv[3], "forge-udp") && argc == 5)
		return do_forge_udp(argv[4]);
	if (!strcmp(argv[3], "foreign-tcp") && argc == 5)
		return do_foreign_tcp(argv[4]);
	if (!strcmp(argv[3], "sigpipe") && argc == 4)
		return do_sigpipe();
usage:
	fprintf(stderr, "usage: pp-hostile ADDR PORT hold KIND N SRC SECS | forge-udp SRC | "
		"foreign-tcp SRC | sigpipe\n");
	return 2;
}
