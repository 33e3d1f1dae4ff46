/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the benchmarks in which processes talk to each other
 * (lat_ctx, lat_pipe, lat_unix, lat_udp, lat_tcp, lat_connect, lat_rpc,
 * bw_pipe, bw_unix, bw_tcp): helper children that die with perfprobe,
 * where each process ran, loopback sockets, whole reads and writes,
 * bandwidth reporting.
 */
#ifndef PP_IPC_H
#define PP_IPC_H

#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "benchlib/bandwidth.h"
#include "harness.h"


/* Processes whose CPU a placement records: perfprobe + its helpers. */
#define PP_PLACE_MAX		128

/*
 * A receive timeout on the measuring side so that a lost datagram or a
 * stuck helper fails the benchmark instead of hanging the run.
 */
#define PP_IPC_TIMEOUT_S	10

/*
 * fork() for a helper process.  In the child: killed by SIGKILL when
 * perfprobe dies (PR_SET_PDEATHSIG), SIGPIPE and the interrupt signals
 * back to their defaults; returns 0 there, as fork().
 */
pid_t pp_child_fork(void);
/* SIGKILL and reap; pid <= 0 is ignored. */
void pp_child_stop(pid_t pid);

/* The CPU a task last ran on (/proc/<pid>/stat, field 39), or -1. */
int pp_task_cpu(pid_t pid);

/*
 * Where the processes of a measurement ran: perfprobe (index 0) and its
 * helpers, sampled just before and just after the measurement.
 */
struct pp_placement {
	unsigned int n;
	pid_t pid[PP_PLACE_MAX];
	int before[PP_PLACE_MAX];
	int after[PP_PLACE_MAX];
};

void pp_place_init(struct pp_placement *pl, const pid_t *peers, unsigned int npeers);
void pp_place_before(struct pp_placement *pl);
void pp_place_after(struct pp_placement *pl);
/* One progress line: pinned or not, and the CPUs of every process. */
void pp_place_note(struct pp_ctx *ctx, const char *key, const struct pp_placement *pl);

/*
 * pp_sample() with the placement of perfprobe and its helpers recorded
 * around it in pl, made by pp_place_init() (npeers < PP_PLACE_MAX).
 */
int pp_sample_placed(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
		     const struct pp_timing_opts *to, struct pp_sampling *s,
		     struct pp_placement *pl);

/* Sample, report in us per operation, note the placement. */
int pp_latency_placed(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		      void *arg, const pid_t *peers, unsigned int npeers);

/*
 * A socket of type (SOCK_STREAM, SOCK_DGRAM) bound to 127.0.0.1 on a port
 * the kernel picks; *sin is filled with the address.  -errno on failure,
 * also when there is no route to 127.0.0.1 ('lo' down): callers skip.
 */
int pp_loopback_socket(int type, struct sockaddr_in *sin);
/* A TCP server on 127.0.0.1: its listener, its helper process, its address. */
struct pp_tcp_helper {
	int lsock;
	pid_t pid;
	struct sockaddr_in sin;
};

/*
 * A TCP listener on 127.0.0.1 with the given backlog, served by a helper
 * child (pp_child_fork) that runs serve(lsock), which never returns.
 * 0 with *h set; else the value of pp_skip(ctx, key, ...) when there is
 * no usable loopback, or of pp_fail().  Stop with pp_child_stop(h->pid)
 * and close(h->lsock).
 */
int pp_tcp_helper_server(struct pp_ctx *ctx, const char *key, int backlog,
			 void (*serve)(int lsock), struct pp_tcp_helper *h);
/* A receive timeout of PP_IPC_TIMEOUT_S seconds on fd. */
int pp_recv_timeout(int fd);


/* SIGPIPE ignored for the benchmark (a dead helper gives EPIPE instead). */
void pp_sigpipe_ignore(struct sigaction *old);
void pp_sigpipe_restore(const struct sigaction *old);

/*
 * Stream bandwidth between two processes, as lmbench's bw_pipe and
 * bw_unix: a helper writes xfer-byte chunks into wfd when asked to move
 * total bytes (through a control pipe) and perfprobe reads them from rfd
 * in xfer-byte reads, into a buffer misalign bytes past a page boundary.
 * Both descriptors are closed before returning.
 */
struct pp_stream_bw {
	const char *key;
	int rfd, wfd;
	size_t xfer;
	size_t total;
	size_t misalign;
};

int pp_stream_bw(struct pp_ctx *ctx, const struct pp_stream_bw *b);

#endif /* PP_IPC_H */
