/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe netserver: the far end of the net benchmarks (netperf,
 * rfc2544).  "perfprobe netserver" runs it on its own; the benchmarks
 * start one as a child on the loopback.  Protocol: netproto.h.
 */
#ifndef PP_NETSERVER_H
#define PP_NETSERVER_H

#include <stdbool.h>
#include <sys/socket.h>

#define PP_NETSERVER_MAX_TESTS	8	/* tests at once, by default */
#define PP_NETSERVER_MAX_BIND	4

struct pp_netserver_opts {
	unsigned int max_tests;
	bool quiet;		/* only problems are logged */
};

/*
 * Serve tests on the listening sockets until killed; one process per
 * test, at most max_tests at once.  Returns only on a fatal error.
 */
int pp_netserver_loop(const int *lfds, unsigned int n, const struct pp_netserver_opts *o);

/* A listening TCP socket on addr (SO_REUSEADDR, IPV6_V6ONLY); fd or -errno. */
int pp_netserver_listen(const struct sockaddr *addr, socklen_t len);

#endif /* PP_NETSERVER_H */
