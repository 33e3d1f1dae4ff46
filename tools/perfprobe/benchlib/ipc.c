// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for benchmarks in which processes talk: see ipc.h.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ipc.h"

pid_t pp_child_fork(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* perfprobe died before the prctl */
		_exit(0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return 0;
}

void pp_child_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int pp_task_cpu(pid_t pid)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The name (field 2) may hold spaces and ')': start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* Fields from 3 on are separated by single spaces; "processor" is 39. */
	for (field = 2; field < 39 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

void pp_place_init(struct pp_placement *pl, const pid_t *peers, unsigned int npeers)
{
	unsigned int i;

	if (npeers > PP_PLACE_MAX - 1)
		npeers = PP_PLACE_MAX - 1;
	pl->n = npeers + 1;
	pl->pid[0] = getpid();
	for (i = 0; i < npeers; i++)
		pl->pid[i + 1] = peers[i];
	for (i = 0; i < pl->n; i++)
		pl->before[i] = pl->after[i] = -1;
}

static void place_read(const struct pp_placement *pl, int *cpu)
{
	unsigned int i;

	cpu[0] = pp_current_cpu();
	for (i = 1; i < pl->n; i++)
		cpu[i] = pp_task_cpu(pl->pid[i]);
}

void pp_place_before(struct pp_placement *pl)
{
	place_read(pl, pl->before);
}

void pp_place_after(struct pp_placement *pl)
{
	place_read(pl, pl->after);
}

/* "CPU 0 x8, CPU 1 x8": how many of the processes ended on each CPU. */
static void place_histogram(const struct pp_placement *pl, char *buf, size_t size)
{
	size_t len = 0;
	int cpu, max = -1;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < pl->n; i++)
		if (pl->after[i] > max)
			max = pl->after[i];
	for (cpu = -1; cpu <= max && len < size; cpu++) {
		unsigned int k = 0;

		for (i = 0; i < pl->n; i++)
			k += pl->after[i] == cpu;
		if (!k)
			continue;
		if (cpu < 0)
			len += snprintf(buf + len, size - len, "%sCPU ? x%u", len ? ", " : "", k);
		else
			len += snprintf(buf + len, size - len, "%sCPU %d x%u", len ? ", " : "",
					cpu, k);
	}
}

void pp_place_note(struct pp_ctx *ctx, const char *key, const struct pp_placement *pl)
{
	char where[512], how[32];
	unsigned int i, moved = 0;
	size_t len = 0;

	if (ctx->opts.pin_cpu >= 0)
		snprintf(how, sizeof(how), "pinned to CPU %d", ctx->opts.pin_cpu);
	else
		snprintf(how, sizeof(how), "scheduler's choice");
	if (pl->n <= 4) {
		where[0] = '\0';
		for (i = 0; i < pl->n && len < sizeof(where); i++) {
			char who[32];

			if (!i)
				snprintf(who, sizeof(who), "perfprobe");
			else if (pl->n == 2)
				snprintf(who, sizeof(who), ", helper");
			else
				snprintf(who, sizeof(who), ", helper %u", i);
			len += snprintf(where + len, sizeof(where) - len, "%s CPU %d->%d",
					who, pl->before[i], pl->after[i]);
		}
		pp_progress(ctx, "%s: placement (%s): %s", key, how, where);
		return;
	}
	for (i = 0; i < pl->n; i++)
		moved += pl->before[i] != pl->after[i];
	place_histogram(pl, where, sizeof(where));
	pp_progress(ctx, "%s: placement (%s): %u processes, at the end %s; %u moved",
		    key, how, pl->n, where, moved);
}

int pp_sample_placed(struct pp_ctx *ctx, pp_loop_fn fn, void *arg,
		     const struct pp_timing_opts *to, struct pp_sampling *s,
		     struct pp_placement *pl)
{
	int ret;

	pp_place_before(pl);
	ret = pp_sample(ctx, fn, arg, to, s);
	pp_place_after(pl);
	return ret;
}

int pp_latency_placed(struct pp_ctx *ctx, const char *key, pp_loop_fn fn,
		      void *arg, const pid_t *peers, unsigned int npeers)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	struct pp_placement *pl = malloc(sizeof(*pl));
	int ret;

	if (!s || !pl) {
		ret = pp_fail(ctx, "%s: out of memory", key);
		goto out;
	}
	pp_place_init(pl, peers, npeers);
	ret = pp_sample_placed(ctx, fn, arg, NULL, s, pl);
	if (ret) {
		ret = pp_sample_err(ctx, key, ret);
		goto out;
	}
	ret = pp_report_sampling(ctx, key, s);
	if (!ret)
		pp_place_note(ctx, key, pl);
out:
	free(s);
	free(pl);
	return ret;
}

/*
 * 127.0.0.1 can be bound even with 'lo' down (a fresh network namespace);
 * connecting a UDP socket looks the route up without sending anything.
 */
static int loopback_usable(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(9),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		err = -errno;
	close(fd);
	return err;
}

int pp_loopback_socket(int type, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int fd, err;

	err = loopback_usable();
	if (err)
		return err;
	fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    getsockname(fd, (struct sockaddr *)sin, &len)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int pp_tcp_helper_server(struct pp_ctx *ctx, const char *key, int backlog,
			 void (*serve)(int lsock), struct pp_tcp_helper *h)
{
	int ret;

	h->lsock = pp_loopback_socket(SOCK_STREAM, &h->sin);
	if (h->lsock < 0)
		return pp_skip(ctx, key, "TCP on 127.0.0.1: %s (is 'lo' up?)",
			       strerror(-h->lsock));
	if (listen(h->lsock, backlog)) {
		ret = pp_fail(ctx, "listen: %s", strerror(errno));
		goto err;
	}
	h->pid = pp_child_fork();
	if (h->pid < 0) {
		ret = pp_fail(ctx, "fork: %s", strerror(errno));
		goto err;
	}
	if (h->pid == 0)
		serve(h->lsock);
	return 0;
err:
	close(h->lsock);
	return ret;
}

int pp_recv_timeout(int fd)
{
	struct timeval tv = { .tv_sec = PP_IPC_TIMEOUT_S };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ? -errno : 0;
}

void pp_sigpipe_ignore(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, old);
}

void pp_sigpipe_restore(const struct sigaction *old)
{
	sigaction(SIGPIPE, old, NULL);
}

/* --- stream bandwidth (bw_pipe, bw_unix) --- */

struct stream_state {
	int rfd, ctl;
	char *buf;
	size_t xfer, total;
};

/* One operation: ask for total bytes, read them in xfer-byte reads. */
static int do_stream_read(uint64_t n, void *arg)
{
	struct stream_state *s = arg;
	ssize_t r;

	while (n-- > 0) {
		size_t done = 0;

		r = write(s->ctl, &s->total, sizeof(s->total));
		if (r != (ssize_t)sizeof(s->total))
			return pp_io_err(r);
		while (done < s->total) {
			r = read(s->rfd, s->buf, s->xfer);
			if (r <= 0)
				return pp_io_err(r);
			done += (size_t)r;
		}
	}
	return 0;
}

static void *page_buffer(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = NULL;

	if (posix_memalign(&p, page, bytes + page))
		return NULL;
	memset(p, 1, bytes + page);	/* touched, as lmbench's touch() */
	return p;
}

static __attribute__((noreturn)) void stream_writer(int ctl, int wfd, size_t xfer)
{
	char *buf = page_buffer(xfer);
	size_t todo, done;
	ssize_t r;

	if (!buf)
		_exit(1);
	while (!pp_read_full(ctl, &todo, sizeof(todo))) {
		for (done = 0; done < todo; done += (size_t)r) {
			r = write(wfd, buf, xfer);
			if (r <= 0)
				_exit(1);
		}
	}
	_exit(0);
}

int pp_stream_bw(struct pp_ctx *ctx, const struct pp_stream_bw *b)
{
	struct pp_placement *pl = malloc(sizeof(*pl));
	struct pp_sampling *s = malloc(sizeof(*s));
	struct stream_state st = { .rfd = b->rfd, .xfer = b->xfer, .total = b->total };
	char *mem = page_buffer(b->xfer + b->misalign);
	int ctl[2] = { -1, -1 }, ret;
	pid_t pid = -1;

	if (!pl || !s || !mem) {
		ret = pp_fail(ctx, "%s: out of memory", b->key);
		goto out;
	}
	st.buf = mem + b->misalign;
	if (pipe2(ctl, O_CLOEXEC)) {
		ret = pp_fail(ctx, "%s: pipe: %s", b->key, strerror(errno));
		goto out;
	}
	pid = pp_child_fork();
	if (pid < 0) {
		ret = pp_fail(ctx, "%s: fork: %s", b->key, strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(ctl[1]);
		close(b->rfd);
		stream_writer(ctl[0], b->wfd, b->xfer);
	}
	close(ctl[0]);
	ctl[0] = -1;
	close(b->wfd);
	st.ctl = ctl[1];
	pp_place_init(pl, &pid, 1);
	ret = pp_sample_placed(ctx, do_stream_read, &st, NULL, s, pl);
	if (ret) {
		ret = pp_sample_err(ctx, b->key, ret);
		goto out;
	}
	ret = pp_report_mbps(ctx, b->key, (double)b->total, s);
	if (!ret)
		pp_place_note(ctx, b->key, pl);
out:
	if (ctl[0] >= 0)
		close(ctl[0]);
	if (ctl[1] >= 0)
		close(ctl[1]);
	close(b->rfd);
	if (pid < 0)
		close(b->wfd);
	pp_child_stop(pid);
	free(mem);
	free(s);
	free(pl);
	return ret;
}
