// SPDX-License-Identifier: GPL-2.0
/*
 * lat_tcp: TCP round trip over the loopback, as lmbench's lat_tcp.
 *
 * A helper process accepts one connection on 127.0.0.1, reads the message
 * size (a 4-byte integer in network order, as lmbench's client sends it)
 * and then echoes every message.  perfprobe writes one byte (lmbench's
 * default) and reads it back: one operation.  Like lmbench, no socket
 * option is set: Nagle stays on (a ping-pong never has unacknowledged data
 * in flight when it sends, so Nagle does not delay it).
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

#define TCP_MSG		1

static int do_tcp(uint64_t n, void *arg)
{
	int fd = *(int *)arg;
	char buf[TCP_MSG] = { 0 };
	ssize_t r;

	while (n-- > 0) {
		r = write(fd, buf, TCP_MSG);
		if (r != TCP_MSG)
			return pp_io_err(r);
		r = read(fd, buf, TCP_MSG);
		if (r != TCP_MSG)
			return pp_io_err(r);
	}
	return 0;
}

static __attribute__((noreturn)) void server(int lsock)
{
	uint32_t size;
	ssize_t n;
	char *buf;
	int fd;

	fd = accept(lsock, NULL, NULL);
	close(lsock);
	if (fd < 0 || pp_read_full(fd, &size, sizeof(size)))
		_exit(1);
	size = ntohl(size);
	buf = malloc(size ? size : 1);
	if (!buf)
		_exit(1);
	while ((n = read(fd, buf, size)) > 0)
		if (pp_write_full(fd, buf, (size_t)n))
			break;
	_exit(0);
}

static int lat_tcp_run(struct pp_ctx *ctx)
{
	uint32_t size = htonl(TCP_MSG);
	struct pp_tcp_helper h = { .pid = -1 };
	struct sigaction old;
	int fd = -1, ret;

	ret = pp_tcp_helper_server(ctx, NULL, 1, server, &h);
	if (ret)
		return ret;
	pp_sigpipe_ignore(&old);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&h.sin, sizeof(h.sin))) {
		ret = pp_fail(ctx, "connect to 127.0.0.1:%d: %s", ntohs(h.sin.sin_port),
			      strerror(errno));
		goto restore;
	}
	ret = pp_recv_timeout(fd);
	if (!ret)
		ret = pp_write_full(fd, &size, sizeof(size));
	if (!ret)
		ret = do_tcp(1, &fd);
	if (ret)
		ret = pp_fail(ctx, "first round trip: %s", strerror(-ret));
	else
		ret = pp_latency_placed(ctx, "lat_tcp", do_tcp, &fd, &h.pid, 1);
restore:
	pp_sigpipe_restore(&old);
	pp_child_stop(h.pid);
	if (fd >= 0)
		close(fd);
	close(h.lsock);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_tcp", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "round trip of a TCP message on the loopback",
	  .show = PP_SHOW({ PP_COL("ipc", 6, "  TCP", "     ", 5, 2), .lm_col = 6 },
		  { .lm_line = "TCP latency using localhost:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_tcp = {
	.name = "lat_tcp",
	.group = "ipc",
	.summary = "TCP round trip on 127.0.0.1, 1-byte message (us)",
	.keys = keys,
	.run = lat_tcp_run,
};
