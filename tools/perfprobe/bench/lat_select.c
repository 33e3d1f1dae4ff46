// SPDX-License-Identifier: GPL-2.0
/*
 * lat_select: select() on N descriptors, all ready for writing, with a
 * zero timeout, as lmbench's lat_select.  The descriptors are dups of one
 * connected TCP socket (tcp) or of one open file (file).
 *
 * N is 100: the count lmbench's standard run uses for the summary's
 * "slct TCP" column (lat_select -n 100 tcp); lat_select's built-in
 * default of 200 is what a bare "lat_select tcp" gives.  lmbench passes N
 * itself as nfds, so it scans a few descriptors fewer than it set; we
 * pass the highest descriptor + 1, so every one of the N is examined.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "benchlib/ipc.h"

#define SELECT_FDS	100

struct sel_state {
	fd_set set;
	int nfds;
	int fds[SELECT_FDS];
	int n;
};

static int do_select(uint64_t n, void *arg)
{
	struct sel_state *s = arg;
	struct timeval tv;

	while (n-- > 0) {
		fd_set w = s->set;

		tv.tv_sec = 0;
		tv.tv_usec = 0;
		if (select(s->nfds, NULL, &w, NULL, &tv) < 0)
			return -errno;
	}
	return 0;
}

static void close_all(struct sel_state *s)
{
	while (s->n > 0)
		close(s->fds[--s->n]);
}

static int dup_n(struct sel_state *s, int fd)
{
	FD_ZERO(&s->set);
	s->nfds = 0;
	s->n = 0;
	while (s->n < SELECT_FDS) {
		int d = dup(fd);

		if (d < 0 || d >= FD_SETSIZE) {
			int err = d < 0 ? -errno : -EMFILE;

			if (d >= 0)
				close(d);
			close_all(s);
			return err;
		}
		FD_SET(d, &s->set);
		s->fds[s->n++] = d;
		if (d + 1 > s->nfds)
			s->nfds = d + 1;
	}
	return 0;
}

/* The helper: accepts connections and drains them, like lmbench's. */
static __attribute__((noreturn)) void drain_server(int lsock)
{
	char c;

	for (;;) {
		int c_fd = accept(lsock, NULL, NULL);

		if (c_fd < 0)
			_exit(errno == EINTR ? 0 : 1);
		while (read(c_fd, &c, 1) > 0)
			;
		close(c_fd);
	}
}

static int sel_tcp(struct pp_ctx *ctx, struct sel_state *s)
{
	const char *key = "lat_select-tcp";
	struct pp_tcp_helper h;
	int sock = -1, ret;

	ret = pp_tcp_helper_server(ctx, key, 8, drain_server, &h);
	if (ret)
		return ret;
	sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || connect(sock, (struct sockaddr *)&h.sin, sizeof(h.sin))) {
		ret = pp_fail(ctx, "connect to 127.0.0.1:%d: %s", ntohs(h.sin.sin_port),
			      strerror(errno));
		goto out;
	}
	ret = dup_n(s, sock);
	if (ret) {
		ret = pp_fail(ctx, "dup: %s", strerror(-ret));
		goto out;
	}
	ret = pp_latency(ctx, key, do_select, s);
	close_all(s);
out:
	if (sock >= 0)
		close(sock);
	close(h.lsock);
	pp_child_stop(h.pid);
	return ret;
}

static int sel_file(struct pp_ctx *ctx, struct sel_state *s)
{
	char dir[4096], path[4200];
	int fd, ret;

	if (pp_tmp_dir(ctx, dir, sizeof(dir)))
		return pp_fail(ctx, "cannot create a temporary directory");
	snprintf(path, sizeof(path), "%s/lat_select", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return pp_fail(ctx, "%s: %s", path, strerror(errno));
	ret = dup_n(s, fd);
	close(fd);
	if (ret)
		return pp_fail(ctx, "dup: %s", strerror(-ret));
	ret = pp_latency(ctx, "lat_select-file", do_select, s);
	close_all(s);
	return ret;
}

static int lat_select_run(struct pp_ctx *ctx)
{
	struct sel_state s;
	int a, b;

	a = sel_tcp(ctx, &s);
	b = sel_file(ctx, &s);
	return a < 0 || b < 0 ? -1 : a | b;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_select-tcp", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "select() on 100 TCP sockets",
	  .show = PP_SHOW({ PP_COL("proc", 6, "slct", "TCP ", 4, 1), .lm_col = 6 },
		  { .lm_line = "Select on 100 tcp fd's:" }) },
	{ .pattern = "lat_select-file", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "select() on 100 regular files",
	  .show = PP_SHOW({ .table = "fsvm", .lm_col = 8 }, { .lm_line = "Select on 100 fd's:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_select = {
	.name = "lat_select",
	.group = "proc",
	.summary = "select() on 100 TCP sockets and on 100 files, zero timeout (us)",
	.keys = keys,
	.run = lat_select_run,
};
