// SPDX-License-Identifier: GPL-2.0
/* The netserver control protocol: requests, results, addresses, meter. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "clock.h"
#include "net/netproto.h"

#define GOOD "PPNET 1 TEST type=UDP_STREAM family=ipv6 size=1472 duration_ms=1000 " \
	     "intervals=10 rate_pps=5000 id=77 rcvbuf=0"

static void test_request_roundtrip(void **state)
{
	struct pp_net_req r = {
		.type = PP_NET_TCP_RR, .family = 4, .size = 1, .duration_ms = 250,
		.intervals = 10, .id = 4000000000u,
	}, back;
	const char *code = NULL;
	char line[PP_NET_LINE_MAX], err[160];
	int n;

	(void)state;
	n = pp_net_req_format(&r, line, sizeof(line));
	assert_true(n > 0 && line[n - 1] == '\n');
	line[n - 1] = '\0';
	assert_int_equal(pp_net_req_parse(line, &back, &code, err, sizeof(err)), 0);
	assert_memory_equal(&r, &back, sizeof(r));
	assert_int_equal(pp_net_req_parse(GOOD, &back, &code, err, sizeof(err)), 0);
	assert_int_equal(back.type, PP_NET_UDP_STREAM);
	assert_int_equal(back.family, 6);
	assert_int_equal(back.rate_pps, 5000);
}

static void expect_bad(const char *line, const char *want_code)
{
	struct pp_net_req r;
	const char *code = NULL;
	char err[160];

	assert_true(pp_net_req_parse(line, &r, &code, err, sizeof(err)) < 0);
	assert_non_null(code);
	assert_string_equal(code, want_code);
	assert_true(err[0] != '\0');
}

static void test_request_rejects(void **state)
{
	(void)state;
	expect_bad("", "protocol");
	expect_bad("GET / HTTP/1.0", "protocol");
	expect_bad("PPNET 2 TEST type=TCP_RR", "version");
	expect_bad("PPNET 1 HELLO", "syntax");
	expect_bad("PPNET 1 TEST type=TCP_RR", "syntax");	/* fields missing */
	expect_bad(GOOD " id=5", "syntax");			/* twice */
	expect_bad(GOOD " color=red", "syntax");
	expect_bad(GOOD " bare", "syntax");
	expect_bad("PPNET 1 TEST type=UDP_STREAM family=ipv6 size=1472 duration_ms=60001 "
		   "intervals=10 rate_pps=0 id=7 rcvbuf=0", "range");
	expect_bad("PPNET 1 TEST type=UDP_STREAM family=ipv6 size=11 duration_ms=100 "
		   "intervals=10 rate_pps=0 id=7 rcvbuf=0", "range");	/* no room for seq */
	expect_bad("PPNET 1 TEST type=TCP_RR family=ipv4 size=1 duration_ms=100 "
		   "intervals=101 rate_pps=0 id=7 rcvbuf=0", "range");
	expect_bad("PPNET 1 TEST type=TCP_RR family=ipv4 size=1 duration_ms=100 "
		   "intervals=10 rate_pps=5 id=7 rcvbuf=0", "range");	/* rate: UDP only */
	expect_bad("PPNET 1 TEST type=TCP_RR family=ipv5 size=1 duration_ms=100 "
		   "intervals=10 rate_pps=0 id=7 rcvbuf=0", "syntax");
	expect_bad("PPNET 1 TEST type=TCP_RR family=ipv4 size=-1 duration_ms=100 "
		   "intervals=10 rate_pps=0 id=7 rcvbuf=0", "range");
}

static void test_result_roundtrip(void **state)
{
	static struct pp_net_result res, back;
	char err[160];
	unsigned int i;
	int sv[2];

	(void)state;
	res.n = 7;
	res.cpu_first = 1;
	res.cpu_last = -1;
	res.rx = 123456789012ull;
	res.lost = 3;
	res.window_ns = 7000000;
	res.rcvbuf = 212992;
	for (i = 0; i < res.n; i++) {
		res.iv[i].rx = i * 1000;
		res.iv[i].busy = i;
		res.iv[i].total = 2 * i;
	}
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pp_net_result_send(sv[0], &res, pp_now_ns() + 1000000000ull), 0);
	assert_int_equal(pp_net_result_recv(sv[1], &back, 1000, err, sizeof(err)), 0);
	assert_memory_equal(&res, &back, sizeof(res));
	/* An ERR instead of a result is passed on. */
	assert_int_equal(pp_net_sendf(sv[0], "PPNET 1 ERR test broken\n"), 0);
	assert_int_equal(pp_net_result_recv(sv[1], &back, 1000, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "broken"));
	/* A truncated result times out instead of hanging. */
	assert_int_equal(pp_net_sendf(sv[0], "PPNET 1 RESULT intervals=2 cpu_first=0 "
				      "cpu_last=0 rx=0 tx=0 pkts=0 lost=0 gaps=0 window_ns=1 "
				      "rcvbuf=0 sndbuf=0\n"), 0);
	assert_int_equal(pp_net_result_recv(sv[1], &back, 50, err, sizeof(err)), -ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);
}

static void test_read_line_limits(void **state)
{
	char buf[16];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "short\n", 6), 6);
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 100), 5);
	assert_string_equal(buf, "short");
	assert_int_equal(write(sv[0], "0123456789abcdefgh\n", 19), 19);
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 100), -EMSGSIZE);
	close(sv[1]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "a\001b\n", 4), 4);
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 100), -EILSEQ);
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 100), 1);	/* "b" */
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 20), -ETIMEDOUT);
	close(sv[0]);
	assert_int_equal(pp_net_read_line(sv[1], buf, sizeof(buf), 20), -EPIPE);
	close(sv[1]);
}

static void test_addresses(void **state)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char s[80];

	(void)state;
	assert_int_equal(pp_net_parse_addr("192.0.2.1", 12866, &ss, &len), 0);
	pp_net_addr_str((struct sockaddr *)&ss, s, sizeof(s));
	assert_string_equal(s, "192.0.2.1:12866");
	assert_int_equal(pp_net_parse_addr("192.0.2.1:99", 1, &ss, &len), 0);
	pp_net_addr_str((struct sockaddr *)&ss, s, sizeof(s));
	assert_string_equal(s, "192.0.2.1:99");
	assert_int_equal(pp_net_parse_addr("2001:db8::1", 7, &ss, &len), 0);
	pp_net_addr_str((struct sockaddr *)&ss, s, sizeof(s));
	assert_string_equal(s, "[2001:db8::1]:7");
	assert_int_equal(pp_net_parse_addr("[::1]:8", 7, &ss, &len), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(pp_net_parse_addr("[::1]x", 7, &ss, &len), -EINVAL);
	assert_int_equal(pp_net_parse_addr("host.example", 7, &ss, &len), -EINVAL);
	assert_int_equal(pp_net_parse_addr("1.2.3.4:0", 7, &ss, &len), -EINVAL);
	assert_int_equal(pp_net_parse_addr("1.2.3.4:70000", 7, &ss, &len), -EINVAL);
}

static void test_meter(void **state)
{
	static struct pp_net_meter m;

	(void)state;
	assert_int_equal(pp_net_meter_init(&m, 4, 400), 0);
	pp_net_meter_add(&m, 1000, 10, 0, 1);		/* starts the window */
	pp_net_meter_add(&m, 1099, 10, 0, 1);
	pp_net_meter_add(&m, 1100, 5, 0, 1);		/* interval 1 */
	pp_net_meter_add(&m, 1350, 7, 0, 1);		/* interval 3 */
	assert_int_equal(m.iv[0].rx, 20);
	assert_int_equal(m.iv[1].rx, 5);
	assert_int_equal(m.iv[2].rx, 0);
	assert_int_equal(m.iv[3].rx, 7);
	pp_net_meter_add(&m, 1400, 100, 0, 1);	/* after the window: not counted */
	assert_int_equal(pp_net_meter_at(&m, 1400), 4);
	assert_int_equal(m.iv[3].rx, 7);
	assert_int_equal(pp_net_meter_wait_ms(&m, 1400, 1000), 1000);
	pp_net_meter_free(&m);
	assert_int_equal(pp_net_meter_init(&m, 0, 400), -EINVAL);
	assert_int_equal(pp_net_meter_init(&m, PP_NET_MAX_IV + 1, 400), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_roundtrip),
		cmocka_unit_test(test_request_rejects),
		cmocka_unit_test(test_result_roundtrip),
		cmocka_unit_test(test_read_line_limits),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_meter),
	};

	return cmocka_run_group_tests_name("netproto", tests, NULL, NULL);
}
