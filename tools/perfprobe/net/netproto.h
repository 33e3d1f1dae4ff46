/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netserver control protocol (version 1), shared by "perfprobe
 * netserver" and the net benchmarks, and the interval meter both ends
 * use.  Documentation/netserver.rst describes the protocol.
 *
 * One test per control connection; every message is one line of
 * printable ASCII ending in '\n', at most PP_NET_LINE_MAX bytes,
 * starting with "PPNET <version> ":
 *
 *   client: PPNET 1 TEST type=T family=F size=N duration_ms=N
 *                   intervals=N rate_pps=N id=N rcvbuf=N
 *   (with a shared secret, before the TEST line:
 *    client: PPNET 1 AUTH; server: PPNET 1 CHALLENGE <nonce>;
 *    client: PPNET 1 PROOF <HMAC-SHA256 of the secret over the nonce>)
 *   server: PPNET 1 OK port=N rcvbuf=N sndbuf=N
 *           | PPNET 1 ERR <code> <text>
 *   client: PPNET 1 DONE sent=N             (UDP_STREAM, UDP_RR, TCP_CRR)
 *   server: PPNET 1 RESULT intervals=N ... (see pp_net_result)
 *           PPNET 1 IV <i> <rx> <tx> <pkts> <gaps> <busy> <total>  (x N)
 *           PPNET 1 END
 */
#ifndef PP_NETPROTO_H
#define PP_NETPROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define PP_NET_MAGIC		"PPNET"
#define PP_NET_VERSION		1
#define PP_NET_PORT		12866	/* netperf's 12865 + 1: not netperf's protocol */
#define PP_NET_LINE_MAX		512
#define PP_NET_MAX_IV		100	/* intervals per test */
#define PP_NET_MAX_MS		60000	/* longest test */
#define PP_NET_MIN_MS		10
#define PP_NET_TCP_MAX		(1 << 20)	/* largest TCP message */
#define PP_NET_UDP_MAX		65507	/* largest UDP payload */
#define PP_NET_UDP_HDR		12	/* id (4) + sequence number (8) */
#define PP_NET_MAX_PPS		100000000ull
#define PP_NET_MAX_SOCKBUF	(64 << 20)
#define PP_NET_CTL_TIMEOUT_MS	5000	/* a control line; a data connection's arrival */
#define PP_NET_NONCE_HEX	32	/* CHALLENGE: 16 random bytes */
#define PP_NET_PROOF_HEX	64	/* PROOF: HMAC-SHA256 */
#define PP_NET_SECRET_MAX	256

enum pp_net_type {
	PP_NET_TCP_STREAM,	/* client sends, server receives and measures */
	PP_NET_TCP_MAERTS,	/* server sends, client receives and measures */
	PP_NET_TCP_RR,		/* request/response on one connection */
	PP_NET_TCP_CRR,		/* connect, request/response, close */
	PP_NET_UDP_STREAM,	/* client sends numbered datagrams */
	PP_NET_UDP_RR,		/* datagram request/response */
	PP_NET_NTYPES
};

const char *pp_net_type_name(enum pp_net_type t);	/* "TCP_STREAM" */
bool pp_net_type_udp(enum pp_net_type t);

struct pp_net_req {
	enum pp_net_type type;
	int family;		/* 4 or 6 */
	uint32_t size;		/* message / datagram payload bytes */
	uint32_t duration_ms;
	uint32_t intervals;
	uint64_t rate_pps;	/* UDP_STREAM pacing, 0 = as fast as possible */
	uint32_t id;		/* in every UDP_STREAM datagram */
	uint32_t rcvbuf;	/* SO_RCVBUF the server asks for, 0 = default */
};

/* One interval of a measurement window. */
struct pp_net_iv {
	uint64_t rx, tx;	/* bytes received, sent */
	uint64_t pkts;		/* datagrams received / transactions */
	uint64_t gaps;		/* sequence numbers skipped */
	uint64_t busy, total;	/* /proc/stat ticks, all CPUs */
};

struct pp_net_result {
	unsigned int n;			/* intervals */
	int cpu_first, cpu_last;	/* where the server ran */
	uint64_t rx, tx, pkts;		/* totals over the whole test */
	uint64_t lost;			/* UDP_STREAM: sent - received */
	uint64_t gaps;
	uint64_t window_ns;		/* length of the measurement window */
	uint32_t rcvbuf, sndbuf;	/* effective socket buffers */
	struct pp_net_iv iv[PP_NET_MAX_IV];
};

/* Format into buf (with '\n'); the length, or -ENOSPC. */
int pp_net_req_format(const struct pp_net_req *r, char *buf, size_t size);
/*
 * Parse and validate a TEST line (without '\n').  0, or -EPROTO (not
 * our protocol / wrong version) or -EINVAL (bad field) with a one-line
 * reason in err; *code gets the ERR code word.
 */
int pp_net_req_parse(const char *line, struct pp_net_req *r, const char **code,
		     char *err, size_t errlen);

/* A whole RESULT (RESULT, IV lines, END): its length, or -ENOSPC. */
#define PP_NET_RESULT_MAX	((PP_NET_MAX_IV + 2) * PP_NET_LINE_MAX)
int pp_net_result_format(const struct pp_net_result *res, char *buf, size_t size);
/* Send one, all of it by deadline_ns (pp_now_ns()); 0 or -errno. */
int pp_net_result_send(int fd, const struct pp_net_result *res, uint64_t deadline_ns);
/* Read one, every line within timeout_ms; 0, -errno, or -EPROTO (err says). */
int pp_net_result_recv(int fd, struct pp_net_result *res, int timeout_ms, char *err,
		       size_t errlen);

/* Where a result being read is: the lines so far (pp_net_result_line()). */
struct pp_net_result_rd {
	unsigned int lines;
};

/*
 * One line of a result (without its '\n'; changed in place): 0 when
 * more lines are wanted, 1 when res is complete, -EPROTO when the line
 * is an ERR or malformed (err says which).  rd zeroed before the first.
 */
int pp_net_result_line(struct pp_net_result_rd *rd, struct pp_net_result *res, char *line,
		       char *err, size_t errlen);

/* printf a line to a socket (MSG_NOSIGNAL); 0 or -errno. */
int pp_net_sendf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Send all of buf by deadline_ns (poll, MSG_NOSIGNAL); 0, -ETIMEDOUT or -errno. */
int pp_net_send_by(int fd, const void *buf, size_t n, uint64_t deadline_ns);
/*
 * Read one line of at most size - 1 bytes (the '\n' removed), the whole
 * line by deadline_ns (pp_now_ns()).  Length, or -ETIMEDOUT, -EPIPE
 * (closed), -EMSGSIZE (too long), -EILSEQ (not printable ASCII), -errno.
 */
int pp_net_read_line_by(int fd, char *buf, size_t size, uint64_t deadline_ns);
/* The same, the whole line within timeout_ms from now. */
int pp_net_read_line(int fd, char *buf, size_t size, int timeout_ms);

/* A line assembled from the pieces a non-blocking reader gets. */
struct pp_net_linebuf {
	char buf[PP_NET_LINE_MAX];
	size_t len;
};

/*
 * Take data up to and including its first '\n' into lb; *used: the
 * bytes taken.  1 when the line is complete (lb->buf without the '\n',
 * lb->len its length), 0 when more is wanted, -EMSGSIZE (longer than
 * PP_NET_LINE_MAX - 1), -EILSEQ (not printable ASCII).
 */
int pp_net_line_take(struct pp_net_linebuf *lb, const char *data, size_t n, size_t *used);
/* Split "PPNET 1 WORD rest": the word and the rest, or -EPROTO. */
int pp_net_line_word(char *line, char **word, char **rest);

/* --- the shared secret (optional) --- */

/*
 * The secret: the first line of path, at least 8 bytes (its '\n'
 * removed).  Its length, or -errno / -EINVAL with err filled.
 */
int pp_net_secret_load(const char *path, char *buf, size_t size, char *err, size_t errlen);
/* HMAC-SHA256 of the secret over "PPNET 1 " nonce, in lowercase hex; 0 or -EIO. */
int pp_net_auth_proof(const char *secret, size_t slen, const char *nonce,
		      char out[PP_NET_PROOF_HEX + 1]);
/* Compare two proofs in a time that does not depend on where they differ. */
bool pp_net_auth_equal(const char *a, const char *b);

/* --- CPU from /proc/stat --- */

struct pp_cpu_ticks {
	uint64_t busy, total;	/* summed over every CPU */
};

int pp_cpu_ticks_read(int fd, struct pp_cpu_ticks *t);	/* fd on /proc/stat */

/*
 * The measurement window of one end: intervals of equal length from the
 * first event on; bytes and packets go to the interval they happen in,
 * /proc/stat is read at each interval boundary.
 */
struct pp_net_meter {
	uint64_t start, iv_ns;
	unsigned int n;
	unsigned int cur;	/* interval being filled; n when over */
	bool started;
	int statfd;
	struct pp_cpu_ticks at;
	struct pp_net_iv iv[PP_NET_MAX_IV];
};

int pp_net_meter_init(struct pp_net_meter *m, unsigned int n, uint64_t duration_ns);
void pp_net_meter_free(struct pp_net_meter *m);
void pp_net_meter_start(struct pp_net_meter *m, uint64_t now);
/* Close the intervals that ended by now; the current one (n when over). */
unsigned int pp_net_meter_at(struct pp_net_meter *m, uint64_t now);
void pp_net_meter_add(struct pp_net_meter *m, uint64_t now, uint64_t rx, uint64_t tx,
		      uint64_t pkts);
/* Nanoseconds to the next boundary (for poll), at least 1 ms: -1 = none. */
int pp_net_meter_wait_ms(const struct pp_net_meter *m, uint64_t now, int max_ms);

/* --- addresses --- */

/* "1.2.3.4", "::1", "[::1]:123", "1.2.3.4:123": numeric only. */
int pp_net_parse_addr(const char *s, int port, struct sockaddr_storage *ss, socklen_t *len);
void pp_net_addr_str(const struct sockaddr *sa, char *buf, size_t size);
/* The same address, whatever the ports (and the same family). */
bool pp_net_same_host(const struct sockaddr *a, const struct sockaddr *b);
/* Is there a route to the loopback of this family (AF_INET, AF_INET6)? */
int pp_net_loopback_usable(int af);
/* Socket buffer size, or 0. */
uint32_t pp_net_sockbuf(int fd, int opt);

#endif /* PP_NETPROTO_H */
