// SPDX-License-Identifier: GPL-2.0
/*
 * ipsec: ESP through the kernel's xfrm, as the vendor guides' "IPSec
 * Software Performance" table reports it (throughput, packets/s, CPU
 * load per algorithm), between two network namespaces of perfprobe's
 * own joined by a veth pair (net/netns.h): 198.18.0.2 sends to 198.18.0.1
 * (RFC 2544's benchmarking network), through an SA and policy each way
 * that perfprobe sets up over NETLINK_XFRM (net/xfrm.h) and flushes after
 * each algorithm and mode.
 *
 * Per algorithm (AES-CBC with HMAC-SHA1 or HMAC-SHA-256 at 128, 192 and
 * 256 bits, AES-GCM at 128 and 256, 3DES-CBC with HMAC-SHA1), per mode
 * (transport, tunnel) and per protocol: TCP (64 KiB writes) and UDP
 * (datagrams of 1400 bytes, unpaced, never fragmented), a sender in one
 * namespace and a receiver in the other, each a helper child.  perfprobe
 * itself samples, at each interval's end: the bytes the receiver got, the
 * packets the receiving SA decrypted, /proc/stat and both helpers' CPU
 * clocks.  The keys, for an algorithm A, mode M and protocol P:
 *
 *   ipsec-A-M-P           Mbit/s received (the payload, as netperf counts it)
 *   ipsec-A-M-P-pps       ESP packets through the receiving SA, per second
 *   ipsec-A-M-P-cpu       CPU load: busy share of all CPUs (/proc/stat):
 *                         both ends, the crypto in softirq included
 *   ipsec-A-M-P-cpu_send  the sender's CPU time over wall time, % of a CPU
 *   ipsec-A-M-P-cpu_recv  the receiver's
 *
 * An algorithm the kernel does not have is skipped with its reason (the
 * kernel's own, from the extended ack); a kernel without ESP skips the
 * benchmark.  The driver the kernel chose for the transform is the info
 * ipsec-A-driver (/proc/crypto).  Each test lasts 1 s (500 ms with
 * --quick, 5 s with --full) in max(10, samples) intervals (max(5,
 * samples) with --quick) after a warm-up of one interval.
 *
 * PERFPROBE_IPSEC_ALGS=aes128,3des runs only the algorithms named.
 * PERFPROBE_IPSEC_PAUSE=FILE (tests): after the first set-up, whatever
 * its outcome, wait while FILE exists or for a signal, so that a test can
 * see the namespaces, veth and xfrm state, then let the run go on or
 * interrupt it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "benchlib/crypto_alg.h"
#include "benchlib/ipc.h"
#include "net/netns.h"
#include "net/netproto.h"
#include "net/xfrm.h"

#define DUR_MS		1000
#define DUR_MS_QUICK	500
#define DUR_MS_FULL	5000
#define MIN_IV		10
#define MIN_IV_QUICK	5
#define PORT		5201
#define TCP_SIZE	65536
#define UDP_SIZE	1400	/* ESP tunnel + CBC + SHA-256 stays within 1500 */
#define SOCKBUF		(4 << 20)
#define READY_MS	10000	/* a helper's set-up, a TCP connect over ESP */
#define ADDR_RX		"198.18.0.1"
#define ADDR_TX		"198.18.0.2"
#define SPI_OUT		0x1000	/* tx -> rx; rx -> tx is + 1 */
#define PAUSE_ENV	"PERFPROBE_IPSEC_PAUSE"
#define ALGS_ENV	"PERFPROBE_IPSEC_ALGS"

struct ipsec_alg {
	const char *name;	/* the key's word: the guide's row names */
	struct pp_xfrm_alg x;
	const char *proc;	/* what ESP instantiates, as /proc/crypto names it */
};

#define CBC(bits, h, hb, tb) { .enc = "cbc(aes)", .enc_bits = bits, .auth = h, \
			       .auth_bits = hb, .trunc_bits = tb }
#define GCM(bits)	{ .aead = "rfc4106(gcm(aes))", .aead_bits = (bits) + 32, .icv_bits = 128 }

/* AES-CBC first: a kernel without ESP says so there, not as a missing 3DES */
static const struct ipsec_alg algs[] = {
	{ "aes128", CBC(128, "hmac(sha1)", 160, 96), "echainiv(authenc(hmac(sha1),cbc(aes)))" },
	{ "aes192", CBC(192, "hmac(sha1)", 160, 96), "echainiv(authenc(hmac(sha1),cbc(aes)))" },
	{ "aes256", CBC(256, "hmac(sha1)", 160, 96), "echainiv(authenc(hmac(sha1),cbc(aes)))" },
	{ "aes128_sha256", CBC(128, "hmac(sha256)", 256, 128),
	  "echainiv(authenc(hmac(sha256),cbc(aes)))" },
	{ "aes192_sha256", CBC(192, "hmac(sha256)", 256, 128),
	  "echainiv(authenc(hmac(sha256),cbc(aes)))" },
	{ "aes256_sha256", CBC(256, "hmac(sha256)", 256, 128),
	  "echainiv(authenc(hmac(sha256),cbc(aes)))" },
	{ "aes128_gcm", GCM(128), "seqiv(rfc4106(gcm(aes)))" },
	{ "aes256_gcm", GCM(256), "seqiv(rfc4106(gcm(aes)))" },
	{ "3des", { .enc = "cbc(des3_ede)", .enc_bits = 192, .auth = "hmac(sha1)",
		    .auth_bits = 160, .trunc_bits = 96 },
	  "echainiv(authenc(hmac(sha1),cbc(des3_ede)))" },
};

static const enum pp_xfrm_mode modes[] = { PP_XFRM_TUNNEL, PP_XFRM_TRANSPORT };

enum proto { P_TCP, P_UDP };

/* What the helpers share with perfprobe (MAP_SHARED). */
struct shared {
	_Atomic uint64_t rx_bytes;
	char msg[2][160];		/* why a helper gave up: [0] receiver, [1] sender */
};

struct ipsec {
	struct pp_ctx *ctx;
	struct pp_netns rx, tx;		/* the receiver's namespace, the sender's */
	int xrx, xtx;			/* NETLINK_XFRM in each */
	struct pp_xfrm_sa out, back;	/* tx -> rx, rx -> tx */
	struct shared *sh;
	int statfd;
	unsigned int n;
	uint64_t iv_ns;
	bool paused;
};

/* At an interval's end. */
struct snap {
	uint64_t t, bytes, pkts;
	struct pp_cpu_ticks cpu;
	uint64_t cpu_tx, cpu_rx;	/* the helpers' CPU clocks, ns */
};

struct samples {
	double mbit[PP_NET_MAX_IV], pps[PP_NET_MAX_IV], cpu[PP_NET_MAX_IV];
	double cpu_tx[PP_NET_MAX_IV], cpu_rx[PP_NET_MAX_IV];
	uint64_t bytes, pkts;
};

/* --- the helpers --- */

static __attribute__((noreturn)) void helper_die(struct ipsec *ip, int who, const char *what)
{
	snprintf(ip->sh->msg[who], sizeof(ip->sh->msg[who]), "%s: %s", what, strerror(errno));
	_exit(1);
}

static void sin_of(struct sockaddr_in *sin, struct in_addr a)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(PORT);
	sin->sin_addr = a;
}

/* In the receiver's namespace: bind, say ready, count what arrives. */
static __attribute__((noreturn)) void receiver(struct ipsec *ip, enum proto p, int ready)
{
	int fd, c, one = 1, sz = SOCKBUF;
	struct sockaddr_in sin;
	static char buf[TCP_SIZE];
	ssize_t n;

	if (pp_netns_enter(&ip->rx))
		helper_die(ip, 0, "setns");
	fd = socket(AF_INET, p == P_TCP ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (fd < 0)
		helper_die(ip, 0, "socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	sin_of(&sin, ip->rx.addr);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		helper_die(ip, 0, "bind " ADDR_RX);
	if (p == P_TCP && listen(fd, 1))
		helper_die(ip, 0, "listen");
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	c = fd;
	if (p == P_TCP) {
		c = accept(fd, NULL, NULL);
		if (c < 0)
			helper_die(ip, 0, "accept");
	}
	for (;;) {
		n = recv(c, buf, sizeof(buf), 0);
		if (n > 0)
			atomic_fetch_add_explicit(&ip->sh->rx_bytes, (uint64_t)n,
						  memory_order_relaxed);
		else if (n == 0)
			_exit(0);
		else if (errno != EINTR)
			helper_die(ip, 0, "recv");
	}
}

/* In the sender's namespace: connect, say ready, send until killed. */
static __attribute__((noreturn)) void sender(struct ipsec *ip, enum proto p, int ready)
{
	struct timeval tv = { .tv_sec = READY_MS / 1000 };
	size_t len = p == P_TCP ? TCP_SIZE : UDP_SIZE;
	struct sockaddr_in sin;
	static char buf[TCP_SIZE];
	int fd, sz = SOCKBUF;

	if (pp_netns_enter(&ip->tx))
		helper_die(ip, 1, "setns");
	fd = socket(AF_INET, p == P_TCP ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (fd < 0)
		helper_die(ip, 1, "socket");
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (p == P_UDP)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	sin_of(&sin, ip->rx.addr);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		helper_die(ip, 1, "connect to " ADDR_RX);
	memset(buf, 0x5a, sizeof(buf));
	if (write(ready, "s", 1) != 1)
		_exit(1);
	close(ready);
	for (;;) {
		if (send(fd, buf, len, 0) >= 0)
			continue;
		/* a full queue, an ICMP error: UDP goes on, as netperf's does */
		if (errno == EINTR || (p == P_UDP && (errno == ENOBUFS || errno == EAGAIN ||
						      errno == ECONNREFUSED)))
			continue;
		helper_die(ip, 1, "send");
	}
}

/* A helper started and ready: its pid, or -1 with why filled. */
static pid_t helper(struct ipsec *ip, int who, enum proto p, char *why, size_t whylen)
{
	struct pollfd pfd = { .events = POLLIN };
	int fds[2], r;
	char c;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	ip->sh->msg[who][0] = '\0';
	pid = pp_child_fork();
	if (pid == 0) {
		close(fds[0]);
		if (who)
			sender(ip, p, fds[1]);
		receiver(ip, p, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	pfd.fd = fds[0];
	do
		r = poll(&pfd, 1, READY_MS);
	while (r < 0 && errno == EINTR && !pp_interrupted);
	if (r > 0 && read(fds[0], &c, 1) == 1) {
		close(fds[0]);
		return pid;
	}
	close(fds[0]);
	pp_child_stop(pid);
	snprintf(why, whylen, "the %s: %s", who ? "sender" : "receiver",
		 ip->sh->msg[who][0] ? ip->sh->msg[who] : r ? "died" : "not ready in 10 s");
	return -1;
}

/* --- measuring --- */

static uint64_t cpu_clock(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int snap(struct ipsec *ip, clockid_t ctx, clockid_t crx, struct snap *s)
{
	uint64_t bytes;
	int ret;

	s->t = pp_now_ns();
	s->bytes = atomic_load_explicit(&ip->sh->rx_bytes, memory_order_relaxed);
	s->cpu_tx = cpu_clock(ctx);
	s->cpu_rx = cpu_clock(crx);
	memset(&s->cpu, 0, sizeof(s->cpu));
	if (ip->statfd >= 0)
		pp_cpu_ticks_read(ip->statfd, &s->cpu);
	ret = pp_xfrm_sa_count(ip->xrx, &ip->out, &bytes, &s->pkts);
	return ret;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* Sleep to t (CLOCK_MONOTONIC, ns): 0, or -EINTR when the run was interrupted. */
static int sleep_to(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (pp_interrupted)
			return -EINTR;
	return pp_interrupted ? -EINTR : 0;
}

/* A helper that has exited: which, or -1. */
static int helper_gone(const pid_t *pids)
{
	int i;

	for (i = 0; i < 2; i++)
		if (waitpid(pids[i], NULL, WNOHANG) == pids[i])
			return i;
	return -1;
}

/*
 * The intervals of one test, helpers running: 0, -EINTR, or -1 with why
 * (a helper gave up, the SA could not be read).
 */
static int intervals(struct ipsec *ip, pid_t *pids, struct samples *sm, char *why,
		     size_t whylen)
{
	clockid_t crx, ctx;
	struct snap a, b;
	uint64_t t0;
	unsigned int i;
	int ret, gone;

	if (clock_getcpuclockid(pids[0], &crx) || clock_getcpuclockid(pids[1], &ctx)) {
		snprintf(why, whylen, "the helpers' CPU clocks");
		return -1;
	}
	t0 = pp_now_ns() + ip->iv_ns;	/* the warm-up */
	ret = sleep_to(t0);
	if (!ret)
		ret = snap(ip, ctx, crx, &a);
	for (i = 0; !ret && i < ip->n; i++) {
		ret = sleep_to(t0 + (i + 1) * ip->iv_ns);
		if (!ret)
			ret = snap(ip, ctx, crx, &b);
		if (ret)
			break;
		gone = helper_gone(pids);
		if (gone >= 0) {
			pids[gone] = -1;
			snprintf(why, whylen, "the %s stopped: %s", gone ? "sender" : "receiver",
				 ip->sh->msg[gone][0] ? ip->sh->msg[gone] : "no reason given");
			return -1;
		}
		sm->mbit[i] = (double)(b.bytes - a.bytes) * 8 * 1e3 / (double)(b.t - a.t);
		sm->pps[i] = (double)(b.pkts - a.pkts) * 1e9 / (double)(b.t - a.t);
		sm->cpu[i] = pct((double)(b.cpu.busy - a.cpu.busy),
				 (double)(b.cpu.total - a.cpu.total));
		sm->cpu_tx[i] = pct((double)(b.cpu_tx - a.cpu_tx), (double)(b.t - a.t));
		sm->cpu_rx[i] = pct((double)(b.cpu_rx - a.cpu_rx), (double)(b.t - a.t));
		sm->bytes += b.bytes - a.bytes;
		sm->pkts += b.pkts - a.pkts;
		a = b;
	}
	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, whylen, "the receiving SA's counters: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

static int report(struct ipsec *ip, const char *base, const char *suffix, const double *v)
{
	char key[2 * PP_KEY_MAX];

	snprintf(key, sizeof(key), "%s%s%s", base, suffix ? "-" : "", suffix ? suffix : "");
	return pp_report(ip->ctx, key, v, ip->n, 1);
}

/* One test: 0, 1 (interrupted), or the value of pp_fail(). */
static int one_test(struct ipsec *ip, const struct ipsec_alg *a, enum pp_xfrm_mode m,
		    enum proto p)
{
	char base[PP_KEY_MAX], why[256];
	struct samples *sm;
	pid_t pids[2] = { -1, -1 };
	int ret = -1;

	snprintf(base, sizeof(base), "ipsec-%s-%s-%s", a->name, pp_xfrm_mode_name(m),
		 p == P_TCP ? "tcp" : "udp");
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return pp_fail(ip->ctx, "%s: out of memory", base);
	atomic_store(&ip->sh->rx_bytes, 0);
	pids[0] = helper(ip, 0, p, why, sizeof(why));
	if (pids[0] > 0)
		pids[1] = helper(ip, 1, p, why, sizeof(why));
	if (pids[0] > 0 && pids[1] > 0)
		ret = intervals(ip, pids, sm, why, sizeof(why));
	pp_child_stop(pids[1]);
	pp_child_stop(pids[0]);
	if (ret == -EINTR || pp_interrupted) {
		ret = 1;
		goto out;
	}
	if (ret) {
		ret = pp_fail(ip->ctx, "%s: %s", base, why);
		goto out;
	}
	if (!sm->bytes) {
		ret = pp_fail(ip->ctx, "%s: nothing arrived in %u intervals", base, ip->n);
		goto out;
	}
	if (!sm->pkts) {
		ret = pp_fail(ip->ctx, "%s: the data did not go through ESP (the receiving "
			      "SA counted no packet)", base);
		goto out;
	}
	ret = report(ip, base, NULL, sm->mbit);
	if (!ret)
		ret = report(ip, base, "pps", sm->pps);
	if (!ret)
		ret = report(ip, base, "cpu", sm->cpu);
	if (!ret)
		ret = report(ip, base, "cpu_send", sm->cpu_tx);
	if (!ret)
		ret = report(ip, base, "cpu_recv", sm->cpu_rx);
out:
	free(sm);
	return ret;
}

/* --- set-up --- */

static void record_driver(struct ipsec *ip, const struct ipsec_alg *a)
{
	const struct pp_xfrm_alg *x = &a->x;
	struct pp_crypto_driver d, d2;
	char name[PP_KEY_MAX];

	snprintf(name, sizeof(name), "ipsec-%s-driver", a->name);
	if (!pp_crypto_kernel_driver(a->proc, &d)) {
		pp_info(ip->ctx, name, "%s (priority %d)", d.driver, d.priority);
		return;
	}
	/* not instantiated under that name: its parts */
	if (x->aead && !pp_crypto_kernel_driver(x->aead, &d))
		pp_info(ip->ctx, name, "%s: %s (priority %d)", x->aead, d.driver, d.priority);
	else if (x->enc && !pp_crypto_kernel_driver(x->enc, &d) &&
		 !pp_crypto_kernel_driver(x->auth, &d2))
		pp_info(ip->ctx, name, "%s: %s, %s: %s", x->enc, d.driver, x->auth, d2.driver);
	else
		pp_info(ip->ctx, name, "unknown: %s is not in /proc/crypto", a->proc);
}

/*
 * The policies and SAs of both directions in both namespaces: 0, or
 * -errno with why the kernel's reason.
 */
static int set_up(struct ipsec *ip, const struct ipsec_alg *a, enum pp_xfrm_mode m,
		  char *why, size_t whylen)
{
	struct pp_xfrm_sa *o = &ip->out, *k = &ip->back;
	int ret;

	o->mode = m;
	k->mode = m;
	o->alg = &a->x;
	k->alg = &a->x;
	ret = pp_xfrm_policy_add(ip->xtx, o, true, why, whylen);
	if (!ret)
		ret = pp_xfrm_policy_add(ip->xtx, k, false, why, whylen);
	if (!ret)
		ret = pp_xfrm_policy_add(ip->xrx, o, false, why, whylen);
	if (!ret)
		ret = pp_xfrm_policy_add(ip->xrx, k, true, why, whylen);
	if (!ret)
		ret = pp_xfrm_sa_add(ip->xtx, o, why, whylen);
	if (!ret)
		ret = pp_xfrm_sa_add(ip->xtx, k, why, whylen);
	if (!ret)
		ret = pp_xfrm_sa_add(ip->xrx, o, why, whylen);
	if (!ret)
		ret = pp_xfrm_sa_add(ip->xrx, k, why, whylen);
	return ret;
}

static int tear_down(struct ipsec *ip)
{
	char why[200];
	int ret;

	ret = pp_xfrm_flush(ip->xtx, why, sizeof(why));
	if (!ret)
		ret = pp_xfrm_flush(ip->xrx, why, sizeof(why));
	if (ret)
		return pp_fail(ip->ctx, "ipsec: flushing the xfrm states and policies: %s", why);
	return 0;
}

/*
 * The test hook: once, with the first set-up in place, wait while the
 * file PERFPROBE_IPSEC_PAUSE names exists, or for a signal.
 */
static void pause_hook(struct ipsec *ip)
{
	const char *file = getenv(PAUSE_ENV);
	struct timespec ts = { .tv_nsec = 10000000 };

	if (ip->paused || !file || !*file)
		return;
	ip->paused = true;
	pp_notice(ip->ctx, "ipsec: paused while %s exists (%s), pid %d", file, PAUSE_ENV,
		  (int)getpid());
	while (!pp_interrupted && !access(file, F_OK))
		nanosleep(&ts, NULL);
}

/*
 * One algorithm in both modes: 0, 1 (skipped or interrupted), 2 (no ESP
 * in this kernel: the benchmark is skipped), or pp_fail()'s value.
 */
static int one_alg(struct ipsec *ip, const struct ipsec_alg *a)
{
	char why[200], key[PP_KEY_MAX];
	unsigned int i;
	int ret = 0, r, t;

	snprintf(key, sizeof(key), "ipsec-%s", a->name);
	for (i = 0; i < ARRAY_SIZE(modes) && !ret; i++) {
		r = set_up(ip, a, modes[i], why, sizeof(why));
		pause_hook(ip);
		if (r == -EPROTONOSUPPORT) {
			pp_skip(ip->ctx, NULL, "no IPv4 ESP in this kernel (CONFIG_INET_ESP): %s",
				why);
			ret = 2;
		} else if (r == -ENOSYS || r == -ENOENT) {
			ret = pp_skip(ip->ctx, key, "the kernel does not have it: %s", why);
		} else if (r) {
			ret = pp_fail(ip->ctx, "%s %s: xfrm set-up: %s", key,
				      pp_xfrm_mode_name(modes[i]), why);
		} else {
			if (i == 0)
				record_driver(ip, a);
			for (t = P_TCP; t <= P_UDP && !ret && !pp_interrupted; t++)
				ret = one_test(ip, a, modes[i], (enum proto)t);
		}
		if (pp_interrupted)
			ret = 1;
		r = tear_down(ip);
		if (r && ret >= 0)
			ret = r;
	}
	return ret;
}

/* PERFPROBE_IPSEC_ALGS=aes128,3des: only those (unset: all). */
static bool wanted(const char *name)
{
	const char *list = getenv(ALGS_ENV), *p;
	size_t len = strlen(name);

	if (!list || !*list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
			return true;
	return false;
}

static int ipsec_setup(struct ipsec *ip, char *why, size_t whylen)
{
	struct in_addr rx, tx;
	int ret;

	inet_pton(AF_INET, ADDR_RX, &rx);
	inet_pton(AF_INET, ADDR_TX, &tx);
	ret = pp_netns_pair(&ip->rx, &ip->tx, "ppipsec", rx, tx, why, whylen);
	if (ret)
		return ret;
	ip->xrx = pp_xfrm_open(ip->rx.fd);
	ip->xtx = pp_xfrm_open(ip->tx.fd);
	if (ip->xrx < 0 || ip->xtx < 0) {
		ret = ip->xrx < 0 ? ip->xrx : ip->xtx;
		snprintf(why, whylen, "NETLINK_XFRM: %s%s", strerror(-ret),
			 ret == -EPROTONOSUPPORT ? " (no CONFIG_XFRM_USER)" : "");
		return ret;
	}
	ip->out = (struct pp_xfrm_sa){ .src = tx, .dst = rx, .spi = SPI_OUT, .reqid = 1 };
	ip->back = (struct pp_xfrm_sa){ .src = rx, .dst = tx, .spi = SPI_OUT + 1, .reqid = 2 };
	return 0;
}

static int ipsec_run(struct pp_ctx *ctx)
{
	struct ipsec ip = { .ctx = ctx, .xrx = -1, .xtx = -1, .statfd = -1 };
	uint32_t dur = ctx->opts.quick ? DUR_MS_QUICK : ctx->opts.full ? DUR_MS_FULL : DUR_MS;
	unsigned int i, min = ctx->opts.quick ? MIN_IV_QUICK : MIN_IV;
	struct sigaction old;
	char why[256];
	int ret, r, any = 0, n = 0;

	for (i = 0; i < ARRAY_SIZE(algs); i++)
		n += wanted(algs[i].name);
	if (!n)
		return pp_skip(ctx, NULL, "%s=%s names none of its algorithms", ALGS_ENV,
			       getenv(ALGS_ENV));
	ip.n = ctx->opts.samples > min ? ctx->opts.samples : min;
	if (ip.n > PP_NET_MAX_IV)
		ip.n = PP_NET_MAX_IV;
	ip.iv_ns = (uint64_t)dur * 1000000ull / ip.n;
	ip.sh = mmap(NULL, sizeof(*ip.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (ip.sh == MAP_FAILED)
		return pp_fail(ctx, "mmap: %s", strerror(errno));
	ret = ipsec_setup(&ip, why, sizeof(why));
	if (ret == -EPERM || ret == -EOPNOTSUPP || ret == -EPROTONOSUPPORT) {
		ret = pp_skip(ctx, NULL, "%s", why);
		goto out;
	}
	if (ret) {
		ret = pp_fail(ctx, "%s", why);
		goto out;
	}
	pp_progress(ctx, "ipsec: namespaces net:[%lu] (receiver, %s on %s) and net:[%lu] "
		    "(sender, %s on %s), %u ms a test in %u intervals", ip.rx.inode, ADDR_RX,
		    ip.rx.ifname, ip.tx.inode, ADDR_TX, ip.tx.ifname, dur, ip.n);
	ip.statfd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	pp_sigpipe_ignore(&old);
	for (i = 0, ret = 0; i < ARRAY_SIZE(algs) && !pp_interrupted; i++) {
		if (!wanted(algs[i].name))
			continue;
		r = one_alg(&ip, &algs[i]);
		if (r == 2) {
			ret = 1;
			break;
		}
		if (r < 0)
			ret = -1;
		else if (r)
			any = 1;
	}
	pp_sigpipe_restore(&old);
	if (!ret && any)
		ret = 1;
out:
	if (ip.statfd >= 0)
		close(ip.statfd);
	if (ip.xrx >= 0)
		close(ip.xrx);
	if (ip.xtx >= 0)
		close(ip.xtx);
	pp_netns_pair_close(&ip.rx, &ip.tx);
	munmap(ip.sh, sizeof(*ip.sh));
	return ret;
}

static const char *const rows[] = {
	"3des", "aes128", "aes192", "aes256", "aes128_sha256", "aes192_sha256", "aes256_sha256",
	"aes128_gcm", "aes256_gcm", NULL
};

static const char *const cols[] = {
	"tunnel-tcp", "tunnel-udp", "transport-tcp", "transport-udp", NULL
};

static const char *const cpu_cols[] = {
	"tunnel-tcp-cpu", "tunnel-udp-cpu", "transport-tcp-cpu", "transport-udp-cpu", NULL
};

static const struct pp_key_matrix matrix = {
	.title = "IPsec ESP throughput between two namespaces over veth (Mbit/s)",
	.rows = rows, .cols = cols, .col_head = "%s", .prec = 1,
	.info = "driver", .info_head = "driver",
};

static const struct pp_key_matrix cpu_matrix = {
	.title = "IPsec ESP CPU load, % of all CPUs (both ends)",
	.rows = rows, .cols = cpu_cols, .col_head = "%s", .prec = 1,
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "ipsec-*-tcp", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "TCP through ESP, 64 KiB writes, as received: algorithm, mode",
	  .show = PP_SHOW({ .matrix = &matrix }) },
	{ .pattern = "ipsec-*-udp", .unit = "Mbit/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "UDP through ESP, 1400-byte datagrams unpaced, as received: algorithm, mode" },
	{ .pattern = "ipsec-*-pps", .unit = "packets/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "ESP packets the receiving SA decrypted, per second" },
	{ .pattern = "ipsec-*-cpu", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU load: busy share of all CPUs, both ends and the crypto in softirq",
	  .show = PP_SHOW({ .matrix = &cpu_matrix }) },
	{ .pattern = "ipsec-*-cpu_send", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "the sending process's CPU time over wall time" },
	{ .pattern = "ipsec-*-cpu_recv", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "the receiving process's CPU time over wall time" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_ipsec = {
	.name = "ipsec",
	.group = "ipsec",
	.summary = "IPsec ESP via xfrm between two namespaces over veth: Mbit/s, packets/s, CPU %",
	.keys = keys,
	.run = ipsec_run,
	.by_name = true,
};
