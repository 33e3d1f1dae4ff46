// SPDX-License-Identifier: GPL-2.0
/*
 * lat_rpc: Sun RPC round trip over UDP and TCP on the loopback, as
 * lmbench's lat_rpc (libtirpc).
 *
 * One operation is one clnt_call() of procedure RPC_XACT of lmbench's
 * program XACT_PROG: the argument is one char (xdr_char), the answer is
 * the char 123, which is checked.  A helper process serves both
 * transports with svc_run().
 *
 * lmbench registers the server with the portmapper and finds it with
 * clnt_create().  rpcbind need not run here, so perfprobe creates the
 * server transports itself on sockets bound to 127.0.0.1 (svcudp_create,
 * svctcp_create; svc_register() with protocol 0 registers nothing) and
 * the clients with the server's address and port (clntudp_create,
 * clnttcp_create), which skips the portmapper; the calls themselves are
 * the same.  The UDP retry timeout is lmbench's 2.5 ms; lmbench's total
 * timeout of 2.5 ms per call would fail the run at the first scheduling
 * hiccup, so it is 5 s here (it only matters when an answer is late).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifndef PP_NO_TIRPC
#include <rpc/rpc.h>
#endif

#include "bench.h"
#include "benchlib/ipc.h"

#ifndef PP_NO_TIRPC

/* lmbench's msg.x */
#define XACT_PROG	404040ul
#define XACT_VERS	1ul
#define RPC_XACT	1ul
#define XACT_REPLY	123

static const struct timeval rpc_retry = { 0, 2500 };
static const struct timeval rpc_timeout = { 5, 0 };

struct rpc_state {
	CLIENT *cl;
	enum clnt_stat stat;
};

static int do_rpc(uint64_t n, void *arg)
{
	struct rpc_state *s = arg;
	char in = 1, out;

	while (n-- > 0) {
		out = 0;
		s->stat = clnt_call(s->cl, RPC_XACT, (xdrproc_t)xdr_char, (caddr_t)&in,
				    (xdrproc_t)xdr_char, (caddr_t)&out, rpc_timeout);
		if (s->stat != RPC_SUCCESS)
			return -EPROTO;
		if (out != XACT_REPLY)
			return -EBADMSG;
	}
	return 0;
}

static void xact_prog(struct svc_req *rq, SVCXPRT *xprt)
{
	char arg = 0, res = XACT_REPLY;

	switch (rq->rq_proc) {
	case NULLPROC:
		svc_sendreply(xprt, (xdrproc_t)(void (*)(void))xdr_void, NULL);
		return;
	case RPC_XACT:
		break;
	default:
		svcerr_noproc(xprt);
		return;
	}
	if (!svc_getargs(xprt, (xdrproc_t)xdr_char, (caddr_t)&arg)) {
		svcerr_decode(xprt);
		return;
	}
	if (!svc_sendreply(xprt, (xdrproc_t)xdr_char, &res))
		svcerr_systemerr(xprt);
	svc_freeargs(xprt, (xdrproc_t)xdr_char, (caddr_t)&arg);
}

static __attribute__((noreturn)) void server(int ufd, int tfd)
{
	SVCXPRT *u = svcudp_create(ufd);
	SVCXPRT *t = svctcp_create(tfd, 0, 0);

	if (!u || !t || !svc_register(u, XACT_PROG, XACT_VERS, xact_prog, 0) ||
	    !svc_register(t, XACT_PROG, XACT_VERS, xact_prog, 0))
		_exit(1);
	svc_run();
	_exit(1);
}

static int measure(struct pp_ctx *ctx, const char *key, CLIENT *cl, pid_t pid)
{
	struct rpc_state s = { .cl = cl };
	int ret;

	ret = do_rpc(1, &s);	/* the server is up */
	if (!ret)
		return pp_latency_placed(ctx, key, do_rpc, &s, &pid, 1);
	if (ret == -EPROTO)
		return pp_fail(ctx, "%s: first call: %s", key, clnt_sperrno(s.stat));
	return pp_fail(ctx, "%s: first call: wrong answer", key);
}

static int rpc_udp(struct pp_ctx *ctx, struct sockaddr_in *sin, pid_t pid)
{
	struct timeval retry = rpc_retry;
	int sock = RPC_ANYSOCK, ret;
	CLIENT *cl;

	cl = clntudp_create(sin, XACT_PROG, XACT_VERS, retry, &sock);
	if (!cl)
		return pp_fail(ctx, "clntudp_create: %s", clnt_spcreateerror("lat_rpc"));
	clnt_control(cl, CLSET_RETRY_TIMEOUT, (char *)&retry);
	ret = measure(ctx, "lat_rpc-udp", cl, pid);
	clnt_destroy(cl);
	return ret;
}

static int rpc_tcp(struct pp_ctx *ctx, struct sockaddr_in *sin, pid_t pid)
{
	int sock = RPC_ANYSOCK, ret;
	CLIENT *cl;

	cl = clnttcp_create(sin, XACT_PROG, XACT_VERS, &sock, 0, 0);
	if (!cl)
		return pp_fail(ctx, "clnttcp_create: %s", clnt_spcreateerror("lat_rpc"));
	ret = measure(ctx, "lat_rpc-tcp", cl, pid);
	clnt_destroy(cl);
	return ret;
}

static int lat_rpc_run(struct pp_ctx *ctx)
{
	struct sockaddr_in usin, tsin;
	struct sigaction old;
	int ufd, tfd, ret;
	pid_t pid;

	ufd = pp_loopback_socket(SOCK_DGRAM, &usin);
	if (ufd < 0)
		return pp_skip(ctx, NULL, "UDP on 127.0.0.1: %s (is 'lo' up?)", strerror(-ufd));
	tfd = pp_loopback_socket(SOCK_STREAM, &tsin);
	if (tfd < 0 || listen(tfd, 8)) {
		ret = pp_fail(ctx, "TCP socket on 127.0.0.1: %s", strerror(tfd < 0 ? -tfd : errno));
		goto out;
	}
	pid = pp_child_fork();
	if (pid < 0) {
		ret = pp_fail(ctx, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		server(ufd, tfd);
	pp_sigpipe_ignore(&old);
	ret = rpc_udp(ctx, &usin, pid);
	ret = rpc_tcp(ctx, &tsin, pid) < 0 || ret < 0 ? -1 : 0;
	pp_sigpipe_restore(&old);
	pp_child_stop(pid);
out:
	if (tfd >= 0)
		close(tfd);
	close(ufd);
	return ret;
}
#else

/* STATIC=1: libtirpc's static library needs Kerberos' GSSAPI, which has none. */
static int lat_rpc_run(struct pp_ctx *ctx)
{
	return pp_skip(ctx, NULL, "not available: built without libtirpc (STATIC=1: libtirpc.a needs Kerberos GSSAPI, which Debian ships no static library of)");
}

#endif /* PP_NO_TIRPC */

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_rpc-udp", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a null RPC round trip over UDP",
	  .show = PP_SHOW({ PP_COL("ipc", 5, "RPC/ ", " UDP ", 5, 2), .lm_col = 5 },
		  { .lm_line = "RPC/udp latency using localhost:" }) },
	{ .pattern = "lat_rpc-tcp", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a null RPC round trip over TCP",
	  .show = PP_SHOW({ PP_COL("ipc", 7, "RPC/ ", " TCP ", 5, 2), .lm_col = 7 },
		  { .lm_line = "RPC/tcp latency using localhost:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_rpc = {
	.name = "lat_rpc",
	.group = "ipc",
	.summary = "Sun RPC round trip on 127.0.0.1 over UDP and TCP (us)",
	.keys = keys,
	.run = lat_rpc_run,
};
