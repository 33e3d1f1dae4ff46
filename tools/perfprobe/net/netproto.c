// SPDX-License-Identifier: GPL-2.0
/*
 * The netserver control protocol and the interval meter: see netproto.h
 * and Documentation/netserver.rst.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "clock.h"
#include "netproto.h"
#include "util.h"

static const char *const type_names[PP_NET_NTYPES] = {
	[PP_NET_TCP_STREAM] = "TCP_STREAM",
	[PP_NET_TCP_MAERTS] = "TCP_MAERTS",
	[PP_NET_TCP_RR] = "TCP_RR",
	[PP_NET_TCP_CRR] = "TCP_CRR",
	[PP_NET_UDP_STREAM] = "UDP_STREAM",
	[PP_NET_UDP_RR] = "UDP_RR",
};

const char *pp_net_type_name(enum pp_net_type t)
{
	return (unsigned int)t < PP_NET_NTYPES ? type_names[t] : "?";
}

bool pp_net_type_udp(enum pp_net_type t)
{
	return t == PP_NET_UDP_STREAM || t == PP_NET_UDP_RR;
}

int pp_net_req_format(const struct pp_net_req *r, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s %d TEST type=%s family=ipv%d size=%" PRIu32
			 " duration_ms=%" PRIu32 " intervals=%" PRIu32 " rate_pps=%" PRIu64
			 " id=%" PRIu32 " rcvbuf=%" PRIu32 "\n", PP_NET_MAGIC, PP_NET_VERSION,
			 pp_net_type_name(r->type), r->family, r->size, r->duration_ms,
			 r->intervals, r->rate_pps, r->id, r->rcvbuf);

	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

int pp_net_line_word(char *line, char **word, char **rest)
{
	char *ver, *p;

	if (strncmp(line, PP_NET_MAGIC " ", sizeof(PP_NET_MAGIC)))
		return -EPROTO;
	ver = line + sizeof(PP_NET_MAGIC);
	p = strchr(ver, ' ');
	if (!p)
		return -EPROTO;
	*p++ = '\0';
	if (strcmp(ver, "1"))
		return -EPROTO;
	*word = p;
	p = strchr(p, ' ');
	if (p)
		*p++ = '\0';
	*rest = p ? p : line + strlen(line);
	return 0;
}

/* --- request parsing --- */

enum req_field { F_TYPE, F_FAMILY, F_SIZE, F_DURATION, F_IV, F_RATE, F_ID, F_RCVBUF, F_N };

static const char *const field_names[F_N] = {
	"type", "family", "size", "duration_ms", "intervals", "rate_pps", "id", "rcvbuf",
};

struct field_limits {
	uint64_t min, max;
};

static const struct field_limits limits[F_N] = {
	[F_SIZE] = { 1, PP_NET_TCP_MAX },
	[F_DURATION] = { PP_NET_MIN_MS, PP_NET_MAX_MS },
	[F_IV] = { 1, PP_NET_MAX_IV },
	[F_RATE] = { 0, PP_NET_MAX_PPS },
	[F_ID] = { 0, UINT32_MAX },
	[F_RCVBUF] = { 0, PP_NET_MAX_SOCKBUF },
};

/* Where a request's parse says what is wrong: a code word, and a message. */
struct req_err {
	const char **code;
	char *msg;
	size_t len;
};

static int bad(const struct req_err *e, const char *code, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(const struct req_err *e, const char *code, int ret, const char *fmt, ...)
{
	va_list ap;

	*e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, e->len, fmt, ap);
	va_end(ap);
	return ret;
}

static int parse_type(const char *v, struct pp_net_req *r)
{
	unsigned int t;

	for (t = 0; t < PP_NET_NTYPES; t++)
		if (!strcmp(v, type_names[t])) {
			r->type = t;
			return 0;
		}
	return -EINVAL;
}

static int set_field(struct pp_net_req *r, enum req_field f, const char *v)
{
	uint64_t x;

	if (f == F_TYPE)
		return parse_type(v, r);
	if (f == F_FAMILY) {
		if (strcmp(v, "ipv4") && strcmp(v, "ipv6"))
			return -EINVAL;
		r->family = v[3] - '0';
		return 0;
	}
	if (pp_parse_u64(v, limits[f].min, limits[f].max, &x))
		return -ERANGE;
	switch (f) {
	case F_SIZE: r->size = (uint32_t)x; break;
	case F_DURATION: r->duration_ms = (uint32_t)x; break;
	case F_IV: r->intervals = (uint32_t)x; break;
	case F_RATE: r->rate_pps = x; break;
	case F_ID: r->id = (uint32_t)x; break;
	default: r->rcvbuf = (uint32_t)x; break;
	}
	return 0;
}

/* Sizes that depend on the type. */
static int check_req(const struct pp_net_req *r, const struct req_err *e)
{
	uint32_t max = PP_NET_TCP_MAX, min = 1;

	if (pp_net_type_udp(r->type))
		max = PP_NET_UDP_MAX;
	if (r->type == PP_NET_TCP_RR || r->type == PP_NET_TCP_CRR)
		max = 65536;
	if (r->type == PP_NET_UDP_STREAM)
		min = PP_NET_UDP_HDR;
	if (r->size < min || r->size > max)
		return bad(e, "range", -EINVAL,
			   "size %" PRIu32 " out of range %" PRIu32 "..%" PRIu32 " for %s",
			   r->size, min, max, pp_net_type_name(r->type));
	if (r->rate_pps && r->type != PP_NET_UDP_STREAM)
		return bad(e, "range", -EINVAL, "rate_pps only for UDP_STREAM");
	return 0;
}

static int parse_fields(char *rest, struct pp_net_req *r, const struct req_err *e)
{
	unsigned int seen = 0, f;
	char *tok, *save = NULL;

	for (tok = strtok_r(rest, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		int ret;

		if (!eq)
			return bad(e, "syntax", -EINVAL, "'%.40s' is not key=value", tok);
		*eq = '\0';
		for (f = 0; f < F_N; f++)
			if (!strcmp(tok, field_names[f]))
				break;
		if (f == F_N)
			return bad(e, "syntax", -EINVAL, "unknown field '%.40s'", tok);
		if (seen & (1u << f))
			return bad(e, "syntax", -EINVAL, "field %s given twice", tok);
		seen |= 1u << f;
		ret = set_field(r, f, eq + 1);
		if (ret)
			return bad(e, ret == -ERANGE ? "range" : "syntax", -EINVAL,
				   "bad value for %s: '%.40s'", tok, eq + 1);
	}
	for (f = 0; f < F_N; f++)
		if (!(seen & (1u << f)))
			return bad(e, "syntax", -EINVAL, "field %s missing", field_names[f]);
	return check_req(r, e);
}

int pp_net_req_parse(const char *line, struct pp_net_req *r, const char **code,
		     char *err, size_t errlen)
{
	const struct req_err e = { code, err, errlen };
	char buf[PP_NET_LINE_MAX], *word, *rest;

	memset(r, 0, sizeof(*r));
	if (!pp_strlcpy(buf, line, sizeof(buf)))
		return bad(&e, "syntax", -EINVAL, "line too long");
	if (strncmp(buf, PP_NET_MAGIC " ", sizeof(PP_NET_MAGIC)))
		return bad(&e, "protocol", -EPROTO, "not a %s line", PP_NET_MAGIC);
	if (pp_net_line_word(buf, &word, &rest))
		return bad(&e, "version", -EPROTO,
			   "unsupported protocol version (this server speaks %d)", PP_NET_VERSION);
	if (strcmp(word, "TEST"))
		return bad(&e, "syntax", -EINVAL, "expected TEST, got '%.40s'", word);
	return parse_fields(rest, r, &e);
}

/* --- line I/O --- */

int pp_net_sendf(int fd, const char *fmt, ...)
{
	char buf[PP_NET_LINE_MAX];
	size_t off = 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENOSPC;
	while (off < (size_t)n) {
		ssize_t w = send(fd, buf + off, (size_t)n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EPIPE;
		off += (size_t)w;
	}
	return 0;
}

int pp_net_send_by(int fd, const void *buf, size_t n, uint64_t deadline_ns)
{
	const char *p = buf;

	while (n > 0) {
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		uint64_t now;
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		int r;

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		now = pp_now_ns();
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		r = poll(&pf, 1, (int)((deadline_ns - now + 999999) / 1000000));
		if (r < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* Readable by deadline_ns: 0, -ETIMEDOUT or -errno. */
static int wait_readable(int fd, uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = pp_now_ns(), ms;
		int r;

		if (now >= deadline_ns)
			return -ETIMEDOUT;
		ms = (deadline_ns - now + 999999) / 1000000;
		r = poll(&p, 1, ms > INT32_MAX ? INT32_MAX : (int)ms);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static bool line_char(char c)
{
	return c >= 0x20 && c <= 0x7e;
}

int pp_net_read_line_by(int fd, char *buf, size_t size, uint64_t deadline_ns)
{
	size_t len = 0;

	for (;;) {
		ssize_t r;
		char c;
		int ret = wait_readable(fd, deadline_ns);

		if (ret)
			return ret;
		r = recv(fd, &c, 1, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		if (c == '\n')
			break;
		if (!line_char(c))
			return -EILSEQ;
		if (len + 1 >= size)
			return -EMSGSIZE;
		buf[len++] = c;
	}
	buf[len] = '\0';
	return (int)len;
}

int pp_net_read_line(int fd, char *buf, size_t size, int timeout_ms)
{
	return pp_net_read_line_by(fd, buf, size, pp_now_ns() + (uint64_t)timeout_ms * 1000000);
}

int pp_net_line_take(struct pp_net_linebuf *lb, const char *data, size_t n, size_t *used)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = data[i];

		if (c == '\n') {
			*used = i + 1;
			lb->buf[lb->len] = '\0';
			return 1;
		}
		if (!line_char(c)) {
			*used = i + 1;
			return -EILSEQ;
		}
		if (lb->len + 1 >= sizeof(lb->buf)) {
			*used = i + 1;
			return -EMSGSIZE;
		}
		lb->buf[lb->len++] = c;
	}
	*used = n;
	return 0;
}

/* --- the shared secret --- */

int pp_net_secret_load(const char *path, char *buf, size_t size, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t len;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	len = strcspn(buf, "\r\n");
	buf[len] = '\0';
	if (len < 8) {
		snprintf(err, errlen, "%s: the secret is its first line, 8 to %zu bytes", path,
			 size - 2);
		return -EINVAL;
	}
	return (int)len;
}

int pp_net_auth_proof(const char *secret, size_t slen, const char *nonce,
		      char out[PP_NET_PROOF_HEX + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	char msg[PP_NET_LINE_MAX];
	int n = snprintf(msg, sizeof(msg), "%s %d %s", PP_NET_MAGIC, PP_NET_VERSION, nonce);

	if (n < 0 || (size_t)n >= sizeof(msg) ||
	    !HMAC(EVP_sha256(), secret, (int)slen, (const unsigned char *)msg, (size_t)n, md,
		  &mdlen) || mdlen * 2 != PP_NET_PROOF_HEX)
		return -EIO;
	for (i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

bool pp_net_auth_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned char d = la != lb;

	for (i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

/* --- results --- */

int pp_net_result_format(const struct pp_net_result *res, char *buf, size_t size)
{
	unsigned int i;
	size_t off;
	int n;

	n = snprintf(buf, size, "%s %d RESULT intervals=%u cpu_first=%d cpu_last=%d rx=%" PRIu64
		     " tx=%" PRIu64 " pkts=%" PRIu64 " lost=%" PRIu64 " gaps=%" PRIu64
		     " window_ns=%" PRIu64 " rcvbuf=%" PRIu32 " sndbuf=%" PRIu32 "\n",
		     PP_NET_MAGIC, PP_NET_VERSION, res->n, res->cpu_first, res->cpu_last,
		     res->rx, res->tx, res->pkts, res->lost, res->gaps, res->window_ns,
		     res->rcvbuf, res->sndbuf);
	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	off = (size_t)n;
	for (i = 0; i < res->n && i < PP_NET_MAX_IV; i++) {
		const struct pp_net_iv *v = &res->iv[i];

		n = snprintf(buf + off, size - off, "%s %d IV %u %" PRIu64 " %" PRIu64 " %" PRIu64
			     " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", PP_NET_MAGIC,
			     PP_NET_VERSION, i, v->rx, v->tx, v->pkts, v->gaps, v->busy, v->total);
		if (n < 0 || (size_t)n >= size - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	n = snprintf(buf + off, size - off, "%s %d END\n", PP_NET_MAGIC, PP_NET_VERSION);
	if (n < 0 || (size_t)n >= size - off)
		return -ENOSPC;
	return (int)(off + (size_t)n);
}

int pp_net_result_send(int fd, const struct pp_net_result *res, uint64_t deadline_ns)
{
	char *buf = malloc(PP_NET_RESULT_MAX);
	int n, ret;

	if (!buf)
		return -ENOMEM;
	n = pp_net_result_format(res, buf, PP_NET_RESULT_MAX);
	ret = n < 0 ? n : pp_net_send_by(fd, buf, (size_t)n, deadline_ns);
	free(buf);
	return ret;
}

static int kv_u64(char *rest, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	char *p = rest;

	while (p && *p) {
		char *end = strchr(p, ' ');
		char save = 0;
		int ret;

		if (end) {
			save = *end;
			*end = '\0';
		}
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			ret = pp_parse_u64(p + klen + 1, 0, UINT64_MAX, out);
			if (end)
				*end = save;
			return ret;
		}
		if (end)
			*end = save;
		p = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

static int kv_int(char *rest, const char *key, int *out)
{
	char *p = strstr(rest, key);
	char *end;
	long v;

	if (!p || p[strlen(key)] != '=')
		return -ENOENT;
	v = strtol(p + strlen(key) + 1, &end, 10);
	if (v < -1 || v > 1 << 20 || (*end && *end != ' '))
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int parse_result_line(char *rest, struct pp_net_result *res)
{
	uint64_t n, rb, sb;

	if (kv_u64(rest, "intervals", &n) || n < 1 || n > PP_NET_MAX_IV ||
	    kv_int(rest, "cpu_first", &res->cpu_first) ||
	    kv_int(rest, "cpu_last", &res->cpu_last) || kv_u64(rest, "rx", &res->rx) ||
	    kv_u64(rest, "tx", &res->tx) || kv_u64(rest, "pkts", &res->pkts) ||
	    kv_u64(rest, "lost", &res->lost) || kv_u64(rest, "gaps", &res->gaps) ||
	    kv_u64(rest, "window_ns", &res->window_ns) || kv_u64(rest, "rcvbuf", &rb) ||
	    kv_u64(rest, "sndbuf", &sb))
		return -EPROTO;
	res->n = (unsigned int)n;
	res->rcvbuf = (uint32_t)rb;
	res->sndbuf = (uint32_t)sb;
	return 0;
}

static int parse_iv_line(char *rest, unsigned int want, struct pp_net_iv *v)
{
	uint64_t f[7];
	char *tok, *save = NULL;
	unsigned int i = 0;

	for (tok = strtok_r(rest, " ", &save); tok && i < 7; tok = strtok_r(NULL, " ", &save))
		if (pp_parse_u64(tok, 0, UINT64_MAX, &f[i++]))
			return -EPROTO;
	if (i != 7 || tok || f[0] != want)
		return -EPROTO;
	v->rx = f[1];
	v->tx = f[2];
	v->pkts = f[3];
	v->gaps = f[4];
	v->busy = f[5];
	v->total = f[6];
	return 0;
}

int pp_net_result_line(struct pp_net_result_rd *rd, struct pp_net_result *res, char *line,
		       char *err, size_t errlen)
{
	char *word, *rest;
	unsigned int k = rd->lines++;

	if (!k)
		memset(res, 0, sizeof(*res));
	if (pp_net_line_word(line, &word, &rest))
		goto bad;
	if (!k && !strcmp(word, "ERR")) {
		snprintf(err, errlen, "netserver: %s", rest);
		return -EPROTO;
	}
	if (!k) {
		if (strcmp(word, "RESULT") || parse_result_line(rest, res))
			goto bad;
		return 0;
	}
	if (k <= res->n) {
		if (strcmp(word, "IV") || parse_iv_line(rest, k - 1, &res->iv[k - 1]))
			goto bad;
		return 0;
	}
	if (strcmp(word, "END") || *rest)
		goto bad;
	return 1;
bad:
	snprintf(err, errlen, "malformed result from netserver");
	return -EPROTO;
}

int pp_net_result_recv(int fd, struct pp_net_result *res, int timeout_ms, char *err,
		       size_t errlen)
{
	struct pp_net_result_rd rd = { 0 };
	char line[PP_NET_LINE_MAX];
	int ret;

	do {
		ret = pp_net_read_line(fd, line, sizeof(line), timeout_ms);
		if (ret >= 0)
			ret = pp_net_result_line(&rd, res, line, err, errlen);
	} while (!ret);
	if (ret == 1)
		return 0;
	if (ret != -EPROTO)
		snprintf(err, errlen, "reading the result: %s", strerror(-ret));
	return ret;
}

/* --- /proc/stat --- */

int pp_cpu_ticks_read(int fd, struct pp_cpu_ticks *t)
{
	unsigned long long v[8] = { 0 };
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return -EIO;
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	t->total = t->busy + v[3] + v[4];
	return 0;
}

/* --- the meter --- */

int pp_net_meter_init(struct pp_net_meter *m, unsigned int n, uint64_t duration_ns)
{
	memset(m, 0, sizeof(*m));
	if (n < 1 || n > PP_NET_MAX_IV)
		return -EINVAL;
	m->n = n;
	m->iv_ns = duration_ns / n;
	if (!m->iv_ns)
		m->iv_ns = 1;
	m->statfd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	return 0;	/* without /proc/stat the CPU ticks stay 0 */
}

void pp_net_meter_free(struct pp_net_meter *m)
{
	if (m->statfd >= 0)
		close(m->statfd);
	m->statfd = -1;
}

static void ticks_now(struct pp_net_meter *m, struct pp_cpu_ticks *t)
{
	if (m->statfd < 0 || pp_cpu_ticks_read(m->statfd, t))
		*t = m->at;
}

void pp_net_meter_start(struct pp_net_meter *m, uint64_t now)
{
	m->start = now;
	m->started = true;
	m->cur = 0;
	ticks_now(m, &m->at);
}

unsigned int pp_net_meter_at(struct pp_net_meter *m, uint64_t now)
{
	struct pp_cpu_ticks t;
	unsigned int idx;

	if (!m->started || m->cur >= m->n)
		return m->started ? m->n : 0;
	if (now < m->start + m->iv_ns * (m->cur + 1))
		return m->cur;
	idx = (unsigned int)((now - m->start) / m->iv_ns);
	if (idx > m->n)
		idx = m->n;
	/* Boundaries passed: the CPU since the last read goes to the first of them. */
	ticks_now(m, &t);
	m->iv[m->cur].busy = t.busy - m->at.busy;
	m->iv[m->cur].total = t.total - m->at.total;
	m->at = t;
	m->cur = idx;
	return m->cur;
}

void pp_net_meter_add(struct pp_net_meter *m, uint64_t now, uint64_t rx, uint64_t tx,
		      uint64_t pkts)
{
	unsigned int i;

	if (!m->started)
		pp_net_meter_start(m, now);
	i = pp_net_meter_at(m, now);
	if (i >= m->n)
		return;
	m->iv[i].rx += rx;
	m->iv[i].tx += tx;
	m->iv[i].pkts += pkts;
}

int pp_net_meter_wait_ms(const struct pp_net_meter *m, uint64_t now, int max_ms)
{
	uint64_t next;
	int ms;

	if (!m->started || m->cur >= m->n)
		return max_ms;
	next = m->start + m->iv_ns * (m->cur + 1);
	if (next <= now)
		return 0;
	ms = (int)((next - now + 999999) / 1000000);
	return ms < max_ms || max_ms < 0 ? ms : max_ms;
}

/* --- addresses --- */

int pp_net_parse_addr(const char *s, int port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon;
	uint64_t p = (uint64_t)port;
	size_t hl;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		hl = (size_t)(close - s - 1);
		colon = close[1] ? close + 1 : NULL;
		s++;
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL;	/* a bare IPv6 address */
		hl = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, hl);
	host[hl] = '\0';
	if (colon && pp_parse_u64(colon + 1, 1, 65535, &p))
		return -EINVAL;
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)p);
		*len = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)p);
		*len = sizeof(*s6);
		return 0;
	}
	return -EINVAL;
}

void pp_net_addr_str(const struct sockaddr *sa, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(buf, size, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(buf, size, "%s:%u", a, ntohs(s4->sin_port));
	}
}

int pp_net_loopback_usable(int af)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, err = 0;

	if (pp_net_parse_addr(af == AF_INET6 ? "::1" : "127.0.0.1", 9, &ss, &len))
		return -EINVAL;
	fd = socket(af, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* Connecting a UDP socket looks the route up and sends nothing. */
	if (connect(fd, (struct sockaddr *)&ss, len))
		err = -errno;
	close(fd);
	return err;
}

bool pp_net_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

uint32_t pp_net_sockbuf(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int v = 0;

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &len) || v < 0)
		return 0;
	return (uint32_t)v;
}
