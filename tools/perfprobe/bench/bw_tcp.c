// SPDX-License-Identifier: GPL-2.0
/*
 * bw_tcp: TCP bandwidth over the loopback, as lmbench's bw_tcp.
 *
 * A helper process accepts a connection on 127.0.0.1, reads the message
 * size (decimal text ending in a NUL, as lmbench's client sends it) and
 * writes messages of that size until the connection goes away; perfprobe
 * reads them, asking read() for one message at a time.  As lmbench, both
 * sides ask for 1 MB socket buffers (SO_RCVBUF / SO_SNDBUF, halved until
 * the kernel accepts) and SO_REUSEADDR.  One operation moves one message;
 * MB/s with lmbench's MB of 10^6 bytes.
 *
 *   bw_tcp       10 MB messages: what lmbench's summary shows (its standard
 *                run does "bw_tcp -m $m" for m = 1 ... 10M and the summary
 *                takes the last, largest, size)
 *   bw_tcp-64kb  64 KB messages: bw_tcp's own default (XFERSIZE)
 *   --full adds lmbench's small sizes: bw_tcp-1b ... bw_tcp-1437b
 *
 * lmbench streams for 7.5 s before it measures, to get past the
 * connection's slow start; perfprobe streams for WARM_MS (scaled with
 * --quick / --full) on each new connection, then samples as usual.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define SOCKBUF		(1024 * 1024)
#define MSG_MAX_TEXT	100
#define WARM_MS		250
#define WARM_MS_QUICK	50
#define WARM_MS_FULL	1000

struct tcp_size {
	const char *key;
	size_t msize;
	bool full_only;
};

static const struct tcp_size sizes[] = {
	{ "bw_tcp", 10 * 1024 * 1024, false },
	{ "bw_tcp-64kb", 64 * 1024, false },
	{ "bw_tcp-1b", 1, true },
	{ "bw_tcp-64b", 64, true },
	{ "bw_tcp-128b", 128, true },
	{ "bw_tcp-256b", 256, true },
	{ "bw_tcp-512b", 512, true },
	{ "bw_tcp-1024b", 1024, true },
	{ "bw_tcp-1437b", 1437, true },
};

struct bw_state {
	int fd;
	size_t msize;
	char *buf;
};

/* One operation: read one message of msize bytes. */
static int do_bw_tcp(uint64_t n, void *arg)
{
	struct bw_state *s = arg;
	ssize_t r;

	while (n-- > 0) {
		size_t todo = s->msize;

		while (todo > 0) {
			r = read(s->fd, s->buf, todo);
			if (r <= 0)
				return pp_io_err(r);
			todo -= (size_t)r;
		}
	}
	return 0;
}

/* lmbench's sock_optimize(): ask for 1 MB, halve until accepted. */
static void sockbuf(int fd, int opt)
{
	int size = SOCKBUF;

	while (size > 4096 && setsockopt(fd, SOL_SOCKET, opt, &size, sizeof(size)))
		size >>= 1;
}

static void reuseaddr(int fd)
{
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
}

/* Read the size, then send messages of that size until the peer is gone. */
static void source(int fd)
{
	char text[MSG_MAX_TEXT + 1];
	size_t len = 0, m;
	char *buf;

	while (len < MSG_MAX_TEXT && (len == 0 || text[len - 1] != '\0')) {
		ssize_t r = read(fd, text + len, 1);

		if (r <= 0)
			return;
		len++;
	}
	text[len] = '\0';
	m = strtoul(text, NULL, 10);
	buf = m ? calloc(1, m) : NULL;
	if (!buf)
		return;
	while (send(fd, buf, m, MSG_NOSIGNAL) == (ssize_t)m)
		;
	free(buf);
}

static __attribute__((noreturn)) void server(int lsock)
{
	for (;;) {
		int fd = accept(lsock, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			_exit(1);
		}
		sockbuf(fd, SO_SNDBUF);
		source(fd);
		close(fd);
	}
}

static int warm_ms(const struct pp_ctx *ctx)
{
	return ctx->opts.quick ? WARM_MS_QUICK : ctx->opts.full ? WARM_MS_FULL : WARM_MS;
}

static int stream(struct pp_ctx *ctx, struct bw_state *s, pid_t pid, const char *key)
{
	struct pp_sampling *smp = malloc(sizeof(*smp));
	struct pp_placement *pl = malloc(sizeof(*pl));
	uint64_t end = pp_now_ns() + (uint64_t)warm_ms(ctx) * 1000000;
	int ret = 0;

	if (!smp || !pl) {
		ret = pp_fail(ctx, "%s: out of memory", key);
		goto out;
	}
	while (!ret && pp_now_ns() < end)
		ret = do_bw_tcp(1, s);
	if (!ret) {
		pp_place_init(pl, &pid, 1);
		ret = pp_sample_placed(ctx, do_bw_tcp, s, NULL, smp, pl);
	}
	if (ret) {
		ret = pp_sample_err(ctx, key, ret);
		goto out;
	}
	ret = pp_report_mbps(ctx, key, (double)s->msize, smp);
	if (!ret)
		pp_place_note(ctx, key, pl);
out:
	free(smp);
	free(pl);
	return ret;
}

static int one_size(struct pp_ctx *ctx, const struct sockaddr_in *sin, pid_t pid,
		    const struct tcp_size *sz)
{
	struct bw_state s = { .fd = -1, .msize = sz->msize };
	char text[32];
	int ret;

	s.buf = malloc(sz->msize);
	if (!s.buf)
		return pp_fail(ctx, "%s: out of memory", sz->key);
	memset(s.buf, 1, sz->msize);
	s.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s.fd < 0) {
		ret = pp_fail(ctx, "%s: socket: %s", sz->key, strerror(errno));
		goto out;
	}
	sockbuf(s.fd, SO_RCVBUF);
	sockbuf(s.fd, SO_SNDBUF);
	reuseaddr(s.fd);
	snprintf(text, sizeof(text), "%zu", sz->msize);
	if (connect(s.fd, (const struct sockaddr *)sin, sizeof(*sin)) || pp_recv_timeout(s.fd) ||
	    pp_write_full(s.fd, text, strlen(text) + 1)) {
		ret = pp_fail(ctx, "%s: connect to 127.0.0.1:%d: %s", sz->key,
			      ntohs(sin->sin_port), strerror(errno));
		goto out;
	}
	ret = stream(ctx, &s, pid, sz->key);
out:
	if (s.fd >= 0)
		close(s.fd);
	free(s.buf);
	return ret;
}

static int bw_tcp_run(struct pp_ctx *ctx)
{
	struct pp_tcp_helper h;
	struct sigaction old;
	unsigned int i;
	int ret = 0;

	ret = pp_tcp_helper_server(ctx, NULL, 8, server, &h);
	if (ret)
		return ret;
	/* accepted connections take their buffer size from the listener */
	sockbuf(h.lsock, SO_SNDBUF);
	pp_sigpipe_ignore(&old);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (sizes[i].full_only && !ctx->opts.full)
			continue;
		if (one_size(ctx, &h.sin, h.pid, &sizes[i]) < 0)
			ret = -1;
	}
	pp_sigpipe_restore(&old);
	pp_child_stop(h.pid);
	close(h.lsock);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "bw_tcp", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP on the loopback, 10 MB messages",
	  .show = PP_SHOW({ PP_COL("bw", 3, " TCP", "    ", 4, 0), .lm_col = 3 }, { .chart = "bw-ipc" }) },
	{ .pattern = "bw_tcp-%ukb", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP on the loopback, N KB messages",
	  .show = PP_SHOW({ .lm_block = "Socket bandwidth using localhost" }) },
	{ .pattern = "bw_tcp-%ub", .unit = "MB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP on the loopback, N byte messages (--full)",
	  .show = PP_SHOW({ .lm_block = "Socket bandwidth using localhost" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_bw_tcp = {
	.name = "bw_tcp",
	.group = "bw",
	.summary = "TCP bandwidth on 127.0.0.1, 10 MB and 64 KB messages (MB/s)",
	.keys = keys,
	.run = bw_tcp_run,
};
