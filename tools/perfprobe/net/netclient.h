/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client side of the net benchmarks: where the netserver is (a child
 * of perfprobe on the loopback, or a remote one), and one test against
 * it, measured at both ends.
 */
#ifndef PP_NETCLIENT_H
#define PP_NETCLIENT_H

#include <sys/socket.h>
#include <sys/types.h>

#include "netproto.h"

/* Environment: a remote netserver instead of our own on the loopback. */
#define PP_NET_ENV		"PERFPROBE_NETSERVER"	/* ADDR[:PORT], [ADDR6]:PORT */
#define PP_NET_ENV6		"PERFPROBE_NETSERVER6"	/* a second one (IPv6) */
/* The shared secret a remote netserver asks for (its --secret-file). */
#define PP_NET_ENV_SECRET	"PERFPROBE_NETSERVER_SECRET_FILE"
/* How long a test waits for a place at a busy netserver, retrying. */
#define PP_NET_BUSY_WAIT_MS	30000

struct pp_net_peer {
	struct sockaddr_storage ss;	/* its control address */
	socklen_t len;
	int af;
	pid_t pid;			/* our own netserver, or -1 */
	char name[80];
	char secret[PP_NET_SECRET_MAX];	/* a remote one's (PP_NET_ENV_SECRET) */
	size_t secret_len;		/* 0: none */
};

/*
 * The netserver for family af (AF_INET, AF_INET6): from the environment
 * if set, else a child on the loopback.  0; 1 with why filled when the
 * family cannot be tested here (a skip); -errno with why on failure.
 */
int pp_net_peer_get(struct pp_net_peer *p, int af, char *why, size_t whylen);
void pp_net_peer_stop(struct pp_net_peer *p);

struct pp_net_lat {
	double *ns;			/* round trips, ns */
	size_t n, cap;
};

/* One test, both ends. */
struct pp_net_out {
	struct pp_net_result srv;	/* the netserver's window */
	struct pp_net_iv loc[PP_NET_MAX_IV];	/* ours */
	unsigned int n;
	uint64_t iv_ns;
	uint64_t sent_pkts, sent_bytes;	/* ours, over the whole test */
	uint64_t rr_lost;		/* UDP_RR requests never answered */
	unsigned int burst;		/* UDP_STREAM: datagrams per paced burst */
	uint32_t sndbuf, rcvbuf;	/* our data socket's */
	int cpu_first, cpu_last;
	unsigned int busy_tries;	/* "ERR busy" answers before the test ran */
	uint64_t busy_ms;		/* ... and the time spent waiting them out */
	struct pp_net_lat lat[PP_NET_MAX_IV];	/* TCP_RR, UDP_RR */
	char err[200];
};

/* Run req against p (o zeroed before its first use); 0, or -errno, o->err says. */
int pp_net_run(const struct pp_net_peer *p, const struct pp_net_req *req, struct pp_net_out *o);
void pp_net_out_free(struct pp_net_out *o);

/* UDP socket buffer the client asks for (and the server, via rcvbuf). */
#define PP_NET_UDP_SOCKBUF	(4 << 20)

#endif /* PP_NETCLIENT_H */
