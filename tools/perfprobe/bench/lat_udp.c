// SPDX-License-Identifier: GPL-2.0
/*
 * lat_udp: UDP round trip over the loopback, as lmbench's lat_udp.
 *
 * A helper process owns a UDP socket on 127.0.0.1 and sends every
 * datagram back to where it came from; perfprobe sends a 4-byte datagram
 * (lmbench's default size: a sequence number) from a connected socket and
 * waits for the answer: one operation.  The server answers with the
 * sequence number it expects, as lmbench's does.  A lost datagram fails
 * the measurement after PP_IPC_TIMEOUT_S instead of hanging.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

struct udp_state {
	int fd;
	uint32_t seq;
};

static int do_udp(uint64_t n, void *arg)
{
	struct udp_state *s = arg;
	uint32_t msg;
	ssize_t r;

	while (n-- > 0) {
		msg = htonl(s->seq++);
		r = send(s->fd, &msg, sizeof(msg), 0);
		if (r != (ssize_t)sizeof(msg))
			return pp_io_err(r);
		r = recv(s->fd, &msg, sizeof(msg), 0);
		if (r != (ssize_t)sizeof(msg))
			return pp_io_err(r);
	}
	return 0;
}

static __attribute__((noreturn)) void server(int fd)
{
	struct sockaddr_in from;
	uint32_t buf[16], seq = 0, got;
	socklen_t len;
	ssize_t n;

	for (;;) {
		len = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len);
		if (n < (ssize_t)sizeof(uint32_t))
			_exit(1);
		got = ntohl(buf[0]);
		if (got != ++seq)
			seq = got;
		buf[0] = htonl(seq);
		if (sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, len) != n)
			_exit(1);
	}
}

static int lat_udp_run(struct pp_ctx *ctx)
{
	struct udp_state s = { .fd = -1, .seq = 1 };
	struct sockaddr_in sin;
	pid_t pid = -1;
	int srv, ret;

	srv = pp_loopback_socket(SOCK_DGRAM, &sin);
	if (srv < 0)
		return pp_skip(ctx, NULL, "UDP on 127.0.0.1: %s (is 'lo' up?)", strerror(-srv));
	pid = pp_child_fork();
	if (pid < 0) {
		ret = pp_fail(ctx, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		server(srv);
	s.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s.fd < 0 || connect(s.fd, (struct sockaddr *)&sin, sizeof(sin))) {
		ret = pp_fail(ctx, "connect to 127.0.0.1:%d: %s", ntohs(sin.sin_port),
			      strerror(errno));
		goto out;
	}
	ret = pp_recv_timeout(s.fd);
	if (!ret)
		ret = do_udp(1, &s);
	if (ret) {
		ret = pp_fail(ctx, "first round trip: %s", strerror(-ret));
		goto out;
	}
	ret = pp_latency_placed(ctx, "lat_udp", do_udp, &s, &pid, 1);
out:
	pp_child_stop(pid);
	if (s.fd >= 0)
		close(s.fd);
	close(srv);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_udp", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "round trip of a UDP datagram on the loopback",
	  .show = PP_SHOW({ PP_COL("ipc", 4, "  UDP", "     ", 5, 2), .lm_col = 4 },
		  { .lm_line = "UDP latency using localhost:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_udp = {
	.name = "lat_udp",
	.group = "ipc",
	.summary = "UDP round trip on 127.0.0.1, 4-byte datagram (us)",
	.keys = keys,
	.run = lat_udp_run,
};
