// SPDX-License-Identifier: GPL-2.0
/*
 * lat_connect: TCP connection set-up over the loopback, as lmbench's
 * lat_connect.
 *
 * One operation is socket() + connect() to 127.0.0.1 + close(), timed in
 * perfprobe; a helper process accepts each connection, waits for the end
 * of file and closes it.  No socket option is set, as in lmbench: the
 * client closes first, so each connection leaves a TIME_WAIT socket on
 * the client's side and takes a local port for a while.
 *
 * Two things keep that from breaking a run: the number of connections is
 * bounded (CONNECT_BUDGET over the whole measurement; a port in TIME_WAIT
 * can be reused for a new loopback connection after a second,
 * net.ipv4.tcp_tw_reuse = 2), and running out of ports fails with that
 * reason instead of an unexplained error.  The listen backlog is larger
 * than lmbench's 100 so that a client that runs ahead of the helper (both
 * on one CPU) never fills the accept queue: a dropped SYN would cost a
 * one-second retransmission inside a sample.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define CONNECT_BUDGET		15000	/* connections per measurement */
#define CONNECT_MIN_ITERS	20
#define CONNECT_BACKLOG		1024

static int do_connect(uint64_t n, void *arg)
{
	const struct sockaddr_in *sin = arg;

	while (n-- > 0) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return -errno;
		if (connect(fd, (const struct sockaddr *)sin, sizeof(*sin))) {
			int err = -errno;

			close(fd);
			return err;
		}
		close(fd);
	}
	return 0;
}

static __attribute__((noreturn)) void server(int lsock)
{
	char c;

	for (;;) {
		int fd = accept(lsock, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			_exit(1);
		}
		while (read(fd, &c, 1) > 0)
			;
		close(fd);
	}
}

static int measure(struct pp_ctx *ctx, struct sockaddr_in *sin, pid_t pid)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	struct pp_placement *pl = malloc(sizeof(*pl));
	struct pp_timing_opts to = { 0 };
	int ret;

	if (!s || !pl) {
		ret = pp_fail(ctx, "out of memory");
		goto out;
	}
	to.max_iters = CONNECT_BUDGET / (ctx->opts.samples + 4);
	if (to.max_iters < CONNECT_MIN_ITERS)
		to.max_iters = CONNECT_MIN_ITERS;
	pp_place_init(pl, &pid, 1);
	ret = pp_sample_placed(ctx, do_connect, sin, &to, s, pl);
	if (ret == -EADDRNOTAVAIL)
		ret = pp_fail(ctx, "connect: no local port left (TIME_WAIT); retry in a minute");
	else if (ret == -EDOM)
		ret = pp_sample_err(ctx, "lat_connect", ret);
	else if (ret)
		ret = pp_fail(ctx, "connect to 127.0.0.1:%d: %s", ntohs(sin->sin_port),
			      strerror(-ret));
	else
		ret = pp_report_sampling(ctx, "lat_connect", s);
	if (!ret)
		pp_place_note(ctx, "lat_connect", pl);
out:
	free(s);
	free(pl);
	return ret;
}

static int lat_connect_run(struct pp_ctx *ctx)
{
	struct pp_tcp_helper h;
	int ret;

	ret = pp_tcp_helper_server(ctx, NULL, CONNECT_BACKLOG, server, &h);
	if (ret)
		return ret;
	ret = measure(ctx, &h.sin, h.pid);
	pp_child_stop(h.pid);
	close(h.lsock);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_connect", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "TCP connect() and close() on the loopback",
	  .show = PP_SHOW({ PP_COL("ipc", 8, "TCP ", "conn", 4, 1), .lm_col = 8 },
		  { .lm_line = "TCP/IP connection cost to localhost:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_connect = {
	.name = "lat_connect",
	.group = "ipc",
	.summary = "TCP connect() + close() to 127.0.0.1 (us)",
	.keys = keys,
	.run = lat_connect_run,
};
