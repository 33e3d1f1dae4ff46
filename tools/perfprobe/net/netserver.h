/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe netserver: the far end of the net benchmarks (netperf,
 * rfc2544).  "perfprobe netserver" runs it on its own; the benchmarks
 * start one as a child on the loopback.  Protocol: netproto.h.
 */
#ifndef PP_NETSERVER_H
#define PP_NETSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "netproto.h"

#define PP_NETSERVER_MAX_TESTS	8	/* tests at once, by default */
#define PP_NETSERVER_MAX_BIND	4
#define PP_NETSERVER_PENDING	128	/* connections still sending their request */
#define PP_NETSERVER_PENDING_HOST 16	/* ... of them from one address */
#define PP_NETSERVER_TEST_SLACK_MS 10000	/* a test's deadline: its duration and this */

struct pp_netserver_opts {
	unsigned int max_tests;
	unsigned int max_per_client;	/* tests at once from one address; 0: the default */
	uint32_t max_duration_ms;	/* 0: PP_NET_MAX_MS */
	const char *secret;		/* the shared secret; NULL: none asked */
	size_t secret_len;
	bool quiet;			/* only problems are logged */
};

/* The limits in force: o's with its zeros made the defaults. */
unsigned int pp_netserver_max_per_client(const struct pp_netserver_opts *o);
uint32_t pp_netserver_max_duration(const struct pp_netserver_opts *o);

/*
 * Serve tests on the listening sockets until killed; one process per
 * test, at most max_tests at once.  Returns only on a fatal error.
 */
int pp_netserver_loop(const int *lfds, unsigned int n, const struct pp_netserver_opts *o);

/* A listening TCP socket on addr (SO_REUSEADDR, IPV6_V6ONLY); fd or -errno. */
int pp_netserver_listen(const struct sockaddr *addr, socklen_t len);

/*
 * The request of one control connection, line by line, as the server's
 * parent reads it (no I/O: tests/unit/test_netfuzz.c drives it).
 */
enum pp_netserver_rq_state {
	PP_NS_RQ_FIRST,		/* AUTH or TEST */
	PP_NS_RQ_PROOF,		/* CHALLENGE sent, PROOF wanted */
	PP_NS_RQ_TEST,		/* authenticated, TEST wanted */
	PP_NS_RQ_OVER,		/* a test to run, or refused */
};

struct pp_netserver_rq {
	enum pp_netserver_rq_state state;
	char nonce[PP_NET_NONCE_HEX + 1];	/* of the CHALLENGE */
	struct pp_net_req req;
	const char *code;			/* a refusal's ERR code */
	char why[160];				/* ... and its text */
};

/* nonce: PP_NET_NONCE_HEX hex digits, or NULL without a secret. */
void pp_netserver_rq_init(struct pp_netserver_rq *rq, const char *nonce);
/*
 * One line (without its '\n'): 0 when another is wanted (reply, unless
 * empty, is to be sent first: the CHALLENGE); 1 when rq->req is a test
 * to run; -1 when refused: reply is the ERR line (with '\n'), rq->code
 * and rq->why say why.
 */
int pp_netserver_rq_line(struct pp_netserver_rq *rq, const struct pp_netserver_opts *o,
			 const char *line, char *reply, size_t rsize);

#endif /* PP_NETSERVER_H */
