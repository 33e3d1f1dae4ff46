// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzer of the netserver control protocol, deterministic: valid
 * messages of both sides (TEST, AUTH, PROOF, DONE, RESULT, IV, END, ERR,
 * addresses), mutated from a seed (byte flips, control bytes, a token cut,
 * doubled or replaced by a boundary number, lines spliced), fed in
 * random pieces to what parses them: the server's line assembly and
 * request state machine (with and without a shared secret), the request
 * parser, the client's result reader, the line reader on a socket, the
 * address parser.  Each case checks what must hold whatever the input:
 * an accepted request is within every limit and formats back to
 * itself, a refusal is one ERR line of printable ASCII, a line never
 * outgrows its buffer, a result read has its intervals.  Run in the
 * ASan + UBSan build (make check-san) for memory errors.
 *
 * PP_FUZZ_CASES (default 20000) and PP_FUZZ_SEED (default 26) choose the
 * run; a failure names the seed and case to replay.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "clock.h"
#include "net/netproto.h"
#include "net/netserver.h"

#define BUF_MAX		(16 * 1024)

static uint64_t rng;

/* splitmix64: small, and the same sequence everywhere for a seed */
static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

static const char *const numbers[] = {
	"0", "1", "-1", "9", "10", "11", "12", "100", "101", "1472", "65507", "65508",
	"65536", "65537", "1048576", "1048577", "60000", "60001", "4294967295",
	"4294967296", "18446744073709551615", "18446744073709551616", "00000000001",
	"99999999999999999999999999", "+1", "0x10", "1e3", "", " ", "-0",
};

static const char *const types[] = {
	"TCP_STREAM", "TCP_MAERTS", "TCP_RR", "TCP_CRR", "UDP_STREAM", "UDP_RR", "TCP_rr", "X",
};

static const char secret[] = "a shared secret of the fuzzer";
static const char nonce[] = "00112233445566778899aabbccddeeff";

/* A valid TEST line into buf (with '\n'): its length, or 0. */
static size_t seed_test(char *buf, size_t size)
{
	struct pp_net_req r = {
		.type = below(PP_NET_NTYPES), .family = below(2) ? 6 : 4,
		.duration_ms = PP_NET_MIN_MS + below(PP_NET_MAX_MS - PP_NET_MIN_MS + 1),
		.intervals = 1 + below(PP_NET_MAX_IV), .id = (uint32_t)rnd(),
		.rcvbuf = below(2) ? 0 : below(PP_NET_MAX_SOCKBUF + 1),
	};
	int n;

	r.size = r.type == PP_NET_UDP_STREAM ? PP_NET_UDP_HDR + below(PP_NET_UDP_MAX - 11) :
		 pp_net_type_udp(r.type) ? 1 + below(PP_NET_UDP_MAX) :
		 r.type >= PP_NET_TCP_RR ? 1 + below(65536) : 1 + below(PP_NET_TCP_MAX);
	r.rate_pps = r.type == PP_NET_UDP_STREAM ? rnd() % (PP_NET_MAX_PPS + 1) : 0;
	if (below(2))
		r.duration_ms = PP_NET_MIN_MS + below(1000);	/* within most --max-duration */
	n = pp_net_req_format(&r, buf, size);
	return n > 0 ? (size_t)n : 0;
}

/* A whole valid RESULT (RESULT, IV lines, END): its length, or 0. */
static size_t seed_result(char *buf, size_t size)
{
	static struct pp_net_result res;
	unsigned int i;
	int n;

	memset(&res, 0, sizeof(res));
	res.n = below(8) ? 1 + below(4) : 1 + below(PP_NET_MAX_IV);
	res.cpu_first = (int)below(8) - 1;
	res.cpu_last = (int)below(8) - 1;
	res.rx = rnd() >> below(64);
	res.pkts = below(1000);
	res.window_ns = rnd() >> 20;
	for (i = 0; i < res.n; i++) {
		res.iv[i].rx = rnd() >> below(64);
		res.iv[i].total = below(1000);
	}
	n = pp_net_result_format(&res, buf, size);
	return n > 0 ? (size_t)n : 0;
}

/* One valid message of either side into buf (with '\n'): its length. */
static size_t seed_msg(char *buf, size_t size)
{
	char proof[PP_NET_PROOF_HEX + 1];
	int n = 0;

	switch (below(9)) {
	case 0:
	case 1:
	case 2:
		return seed_test(buf, size);
	case 3:
		n = snprintf(buf, size, "PPNET 1 AUTH\n");
		break;
	case 4:
		pp_net_auth_proof(secret, sizeof(secret) - 1, nonce, proof);
		n = snprintf(buf, size, "PPNET 1 PROOF %s\n", proof);
		break;
	case 5:
		n = snprintf(buf, size, "PPNET 1 DONE sent=%" PRIu64 "\n", rnd() >> below(64));
		break;
	case 6:
		n = snprintf(buf, size, "PPNET 1 RESULT intervals=%u cpu_first=%d cpu_last=%d "
			     "rx=%" PRIu64 " tx=0 pkts=%u lost=0 gaps=0 window_ns=1000 rcvbuf=0 "
			     "sndbuf=0\n", 1 + below(3), (int)below(4) - 1, (int)below(4) - 1,
			     rnd(), below(100));
		break;
	case 7:
		n = snprintf(buf, size, "PPNET 1 IV %u %" PRIu64 " 0 1 0 %u %u\n", below(3), rnd(),
			     below(9), below(99));
		break;
	default:
		n = snprintf(buf, size, "PPNET 1 %s\n", below(2) ? "END" : "ERR busy try again");
		break;
	}
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

/* One mutation of buf[0..*len) in place (at most size bytes). */
static void mutate(char *buf, size_t *len, size_t size)
{
	size_t at = *len ? below((unsigned int)*len) : 0, n, m;
	const char *num;
	char *eq;

	switch (below(9)) {
	case 0:		/* a bit flipped */
		if (*len)
			buf[at] ^= (char)(1 << below(8));
		break;
	case 1:		/* a byte replaced: often one the protocol means something by */
		if (*len)
			buf[at] = "\n =\r\t\0\x7f\xff" "0A"[below(10)];
		break;
	case 2:		/* bytes cut */
		n = below(16);
		if (at + n > *len)
			n = *len - at;
		memmove(buf + at, buf + at + n, *len - at - n);
		*len -= n;
		break;
	case 3:		/* bytes repeated */
		n = 1 + below(64);
		if (at + n > *len)
			n = *len - at;
		if (*len + n <= size) {
			memmove(buf + at + n, buf + at, *len - at);
			*len += n;
		}
		break;
	case 4:		/* a value replaced by a boundary number */
		buf[*len < size ? *len : size - 1] = '\0';
		eq = strchr(buf + at, '=');
		if (!eq)
			eq = strchr(buf, '=');
		if (!eq)
			break;
		num = numbers[below(sizeof(numbers) / sizeof(numbers[0]))];
		m = strcspn(eq + 1, " \n");
		n = strlen(num);
		if (*len - m + n > size)
			break;
		memmove(eq + 1 + n, eq + 1 + m, *len - (size_t)(eq + 1 + m - buf));
		memcpy(eq + 1, num, n);
		*len = *len - m + n;
		break;
	case 5:		/* a type name replaced */
		buf[*len < size ? *len : size - 1] = '\0';
		eq = strstr(buf, "type=");
		if (!eq)
			break;
		num = types[below(sizeof(types) / sizeof(types[0]))];
		m = strcspn(eq + 5, " \n");
		n = strlen(num);
		if (*len - m + n > size)
			break;
		memmove(eq + 5 + n, eq + 5 + m, *len - (size_t)(eq + 5 + m - buf));
		memcpy(eq + 5, num, n);
		*len = *len - m + n;
		break;
	case 6:		/* another message spliced in */
		n = seed_msg(buf + at, size - at);
		if (n)
			*len = at + n;
		break;
	case 7:		/* the version or the magic changed */
		if (*len > 6)
			buf[below(7)] = "0129P \n"[below(7)];
		break;
	default:	/* cut short */
		*len = at;
		break;
	}
}

enum scenario { SC_ANY, SC_REQUEST, SC_AUTHED, SC_RESULT };

/*
 * An input: a session's valid messages in order (a request; AUTH,
 * PROOF and a request; a result) or a few of any kind, then no mutation
 * (a quarter of the time: the valid path is walked too) or up to four.
 */
static size_t make_input(char *buf, size_t size, enum scenario sc)
{
	char proof[PP_NET_PROOF_HEX + 1];
	size_t len = 0, k, lines = 1 + below(4), muts = below(4) ? 1 + below(4) : 0;
	int n;

	switch (sc) {
	case SC_REQUEST:
		len = seed_test(buf, size);
		break;
	case SC_AUTHED:
		pp_net_auth_proof(secret, sizeof(secret) - 1, nonce, proof);
		n = snprintf(buf, size, "PPNET 1 AUTH\nPPNET 1 PROOF %s\n", proof);
		len = n > 0 ? (size_t)n : 0;
		len += seed_test(buf + len, size - len);
		break;
	case SC_RESULT:
		len = seed_result(buf, size);
		break;
	default:
		for (k = 0; k < lines && len < size; k++)
			len += seed_msg(buf + len, size - len);
		break;
	}
	for (k = 0; k < muts; k++)
		mutate(buf, &len, size);
	return len;
}

static int fails;
static uint64_t seed, cur_case;
/* how deep the cases went: requests accepted (without, with the secret), results read */
static unsigned long n_accepted, n_authed, n_results, n_refused;

static void bad(const char *what, const char *in, size_t len)
{
	size_t i;

	fprintf(stderr, "# netfuzz: seed %" PRIu64 " case %" PRIu64 ": %s; input:", seed,
		cur_case, what);
	for (i = 0; i < len && i < 200; i++)
		fprintf(stderr, " %02x", (unsigned char)in[i]);
	fprintf(stderr, "\n");
	fails++;
}

static bool printable_line(const char *s)
{
	size_t n = strlen(s);

	if (!n || s[n - 1] != '\n' || n >= PP_NET_LINE_MAX)
		return false;
	for (; *s != '\n'; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return !s[1];
}

/* An accepted request is within every limit, and formats back to itself. */
static void check_req(const struct pp_net_req *r, uint32_t max_ms, const char *in, size_t len)
{
	uint32_t max = r->type >= PP_NET_UDP_STREAM ? PP_NET_UDP_MAX :
		       r->type >= PP_NET_TCP_RR ? 65536 : PP_NET_TCP_MAX;
	struct pp_net_req back;
	char line[PP_NET_LINE_MAX], err[160];
	const char *code;
	int n;

	if ((unsigned int)r->type >= PP_NET_NTYPES || (r->family != 4 && r->family != 6) ||
	    r->size < (r->type == PP_NET_UDP_STREAM ? PP_NET_UDP_HDR : 1u) || r->size > max ||
	    r->duration_ms < PP_NET_MIN_MS || r->duration_ms > max_ms || r->intervals < 1 ||
	    r->intervals > PP_NET_MAX_IV || r->rcvbuf > PP_NET_MAX_SOCKBUF ||
	    r->rate_pps > PP_NET_MAX_PPS || (r->rate_pps && r->type != PP_NET_UDP_STREAM))
		bad("a request beyond the limits was accepted", in, len);
	n = pp_net_req_format(r, line, sizeof(line));
	if (n <= 0) {
		bad("an accepted request does not format", in, len);
		return;
	}
	line[n - 1] = '\0';
	if (pp_net_req_parse(line, &back, &code, err, sizeof(err)) ||
	    memcmp(&back, r, sizeof(back)))
		bad("an accepted request does not format back to itself", in, len);
}

/* The server's parent: lines assembled from pieces, the request state machine. */
static void fuzz_server(const char *in, size_t len, bool with_secret)
{
	struct pp_netserver_opts o = { .max_tests = 8,
				       .max_duration_ms = 1 + below(PP_NET_MAX_MS) };
	struct pp_netserver_rq rq;
	struct pp_net_linebuf lb = { .len = 0 };
	char reply[PP_NET_LINE_MAX];
	size_t off = 0;

	if (with_secret) {
		o.secret = secret;
		o.secret_len = sizeof(secret) - 1;
	}
	pp_netserver_rq_init(&rq, with_secret ? nonce : NULL);
	while (off < len) {
		size_t piece = 1 + below(64), used = 0;
		int ret;

		if (piece > len - off)
			piece = len - off;
		ret = pp_net_line_take(&lb, in + off, piece, &used);
		if (used == 0 || used > piece || lb.len >= PP_NET_LINE_MAX) {
			bad("pp_net_line_take took nothing, too much, or overflowed", in, len);
			return;
		}
		off += used;
		if (ret < 0) {
			if (ret != -EMSGSIZE && ret != -EILSEQ)
				bad("pp_net_line_take: an unknown error", in, len);
			return;
		}
		if (!ret)
			continue;
		if (strlen(lb.buf) != lb.len)
			bad("a line's length is not its string's", in, len);
		lb.len = 0;
		ret = pp_netserver_rq_line(&rq, &o, lb.buf, reply, sizeof(reply));
		if (ret < 0) {
			if (strncmp(reply, "PPNET 1 ERR ", 12) || !printable_line(reply) ||
			    !rq.code)
				bad("a refusal that is not one ERR line", in, len);
			n_refused++;
			return;
		}
		if (ret == 0) {
			if (reply[0] && (strncmp(reply, "PPNET 1 CHALLENGE ", 18) ||
					 !printable_line(reply)))
				bad("a reply that is not a CHALLENGE line", in, len);
			if (!with_secret && rq.state != PP_NS_RQ_FIRST)
				bad("without a secret, a request went past its first", in, len);
			continue;
		}
		if (ret != 1 || (with_secret && rq.state != PP_NS_RQ_OVER)) {
			bad("pp_netserver_rq_line: an unknown answer", in, len);
			return;
		}
		check_req(&rq.req, pp_netserver_max_duration(&o), in, len);
		if (with_secret)
			n_authed++;
		else
			n_accepted++;
		return;
	}
}

/* The request parser alone, on each line as it is (NUL-terminated). */
static void fuzz_parse(const char *in, size_t len)
{
	static char line[BUF_MAX + 1];
	char err[160];
	struct pp_net_req r;
	const char *code = NULL;

	memcpy(line, in, len);
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';
	err[0] = '\0';
	if (!pp_net_req_parse(line, &r, &code, err, sizeof(err)))
		check_req(&r, PP_NET_MAX_MS, in, len);
	else if (!code || !err[0] || strlen(err) >= sizeof(err))
		bad("a refused request without its code and reason", in, len);
}

/* The client's result reader, line by line. */
static void fuzz_result(const char *in, size_t len)
{
	static struct pp_net_result res;
	static char buf[BUF_MAX + 1];
	struct pp_net_result_rd rd = { 0 };
	char err[160], *line = buf, *nl;
	int ret = 0;

	memcpy(buf, in, len);
	buf[len] = '\0';
	for (; !ret && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		err[0] = '\0';
		ret = pp_net_result_line(&rd, &res, line, err, sizeof(err));
		if (ret < 0 && (ret != -EPROTO || !err[0]))
			bad("a result refused without its reason", in, len);
		if (ret == 1 && (res.n < 1 || res.n > PP_NET_MAX_IV || rd.lines != res.n + 2))
			bad("a complete result without its intervals", in, len);
		n_results += ret == 1;
	}
}

/* The line reader on a socket: what it returns is what was sent. */
static void fuzz_socket(const char *in, size_t len)
{
	char line[64];
	int sv[2], ret, k;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		bad("socketpair", in, len);
		return;
	}
	if (len && write(sv[0], in, len) != (ssize_t)len)
		bad("write", in, len);
	close(sv[0]);
	for (k = 0; k < 8; k++) {
		ret = pp_net_read_line_by(sv[1], line, sizeof(line), pp_now_ns() + 1000000000ull);
		if (ret == -EPIPE)
			break;
		if (ret >= 0 && ((size_t)ret >= sizeof(line) || strlen(line) != (size_t)ret ||
				 !memmem(in, len, line, (size_t)ret)))
			bad("pp_net_read_line_by returned what was not sent", in, len);
		if (ret < 0 && ret != -EMSGSIZE && ret != -EILSEQ)
			bad("pp_net_read_line_by: an unknown error", in, len);
	}
	close(sv[1]);
}

static void fuzz_addr(const char *in, size_t len)
{
	struct sockaddr_storage ss;
	char s[80], str[80];
	socklen_t sl;
	size_t n = len < sizeof(s) - 1 ? len : sizeof(s) - 1;

	memcpy(s, in, n);
	s[n] = '\0';
	if (!pp_net_parse_addr(s, 12866, &ss, &sl)) {
		pp_net_addr_str((struct sockaddr *)&ss, str, sizeof(str));
		if (!pp_net_same_host((struct sockaddr *)&ss, (struct sockaddr *)&ss))
			bad("an address is not its own host", in, len);
	}
}

static void test_fuzz(void **state)
{
	const char *e = getenv("PP_FUZZ_CASES");
	uint64_t cases = e ? strtoull(e, NULL, 10) : 20000;
	static const char *const addrs[] = {
		"127.0.0.1", "[::1]:7", "1.2.3.4:65535", "::ffff:1.2.3.4", "[fe80::1%lo]:1",
	};
	static char in[BUF_MAX];

	(void)state;
	e = getenv("PP_FUZZ_SEED");
	seed = e ? strtoull(e, NULL, 10) : 26;
	rng = seed;
	printf("# netfuzz: seed %" PRIu64 ", %" PRIu64 " cases (PP_FUZZ_SEED, PP_FUZZ_CASES)\n",
	       seed, cases);
	for (cur_case = 0; cur_case < cases && fails < 10; cur_case++) {
		unsigned int k = cur_case % 8;
		size_t len = make_input(in, sizeof(in), k == 0 ? SC_REQUEST : k == 2 ? SC_AUTHED :
					k == 5 ? SC_RESULT : SC_ANY);

		switch (k) {
		case 0:
		case 1:
			fuzz_server(in, len, false);
			break;
		case 2:
		case 3:
			fuzz_server(in, len, true);
			break;
		case 4:
			fuzz_parse(in, len);
			break;
		case 5:
			fuzz_result(in, len);
			break;
		case 6:
			if (cur_case % 64 == 6)	/* two syscalls a byte: fewer */
				fuzz_socket(in, len);
			else
				fuzz_parse(in, len);
			break;
		default:
			e = addrs[below(5)];
			len = strlen(e);
			memcpy(in, e, len);
			mutate(in, &len, 80);
			fuzz_addr(in, len);
			break;
		}
	}
	printf("# netfuzz: %lu requests accepted, %lu after a proof of the secret, %lu refused, "
	       "%lu results read\n", n_accepted, n_authed, n_refused, n_results);
	assert_int_equal(fails, 0);
	/* the cases reach past the first checks: every path is walked */
	if (cases >= 1000)
		assert_true(n_accepted && n_authed && n_refused && n_results);
}

/* The state machine's own path: a proof of the secret lets a TEST through. */
static void test_auth_path(void **state)
{
	struct pp_netserver_opts o = { .max_tests = 8, .secret = secret,
				       .secret_len = sizeof(secret) - 1 };
	struct pp_netserver_rq rq;
	char reply[PP_NET_LINE_MAX], proof[PP_NET_PROOF_HEX + 1], line[PP_NET_LINE_MAX];
	const char *test = "PPNET 1 TEST type=TCP_RR family=ipv4 size=1 duration_ms=100 "
			   "intervals=1 rate_pps=0 id=1 rcvbuf=0";

	(void)state;
	pp_netserver_rq_init(&rq, nonce);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, "PPNET 1 AUTH", reply, sizeof(reply)), 0);
	assert_string_equal(reply, "PPNET 1 CHALLENGE 00112233445566778899aabbccddeeff\n");
	assert_int_equal(pp_net_auth_proof(secret, sizeof(secret) - 1, nonce, proof), 0);
	snprintf(line, sizeof(line), "PPNET 1 PROOF %s", proof);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, line, reply, sizeof(reply)), 0);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, test, reply, sizeof(reply)), 1);
	/* another nonce: the same proof fails */
	pp_netserver_rq_init(&rq, "ffeeddccbbaa99887766554433221100");
	assert_int_equal(pp_netserver_rq_line(&rq, &o, "PPNET 1 AUTH", reply, sizeof(reply)), 0);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, line, reply, sizeof(reply)), -1);
	assert_string_equal(reply, "PPNET 1 ERR auth wrong shared secret\n");
	/* without AUTH */
	pp_netserver_rq_init(&rq, nonce);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, test, reply, sizeof(reply)), -1);
	assert_string_equal(rq.code, "auth");
	/* a server without a secret refuses AUTH */
	o.secret = NULL;
	o.secret_len = 0;
	pp_netserver_rq_init(&rq, NULL);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, "PPNET 1 AUTH", reply, sizeof(reply)), -1);
	assert_int_equal(pp_netserver_rq_line(&rq, &o, test, reply, sizeof(reply)), -1);
	pp_netserver_rq_init(&rq, NULL);
	o.max_duration_ms = 50;
	assert_int_equal(pp_netserver_rq_line(&rq, &o, test, reply, sizeof(reply)), -1);
	assert_string_equal(rq.code, "range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auth_path),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("netfuzz", tests, NULL, NULL);
}
