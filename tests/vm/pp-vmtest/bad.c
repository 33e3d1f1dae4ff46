// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: malformed and invalid requests.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

/*
 * A single attribute outside its documented range is rejected by the
 * kernel's policy range check (NLA_POLICY_RANGE & co.) with -ERANGE, as the
 * ABI header says; combinations over a cap are -EINVAL.
 */
#define EXP_RANGE 2

struct nl_msg *build(struct ppnl *p, int cmd, int flags, const struct aspec *a)
{
	struct nl_msg *m = pp_msg(p, cmd, flags);

	for (; a && a->type >= 0; a++) {
		uint8_t payload[256] = { 0 };

		memcpy(payload, &a->val, a->len < 8 ? a->len : 8);
		if (a->len > 8)
			memset(payload + 8, 'x', a->len - 8);
		nla_put(m, a->type, a->len, payload);
	}
	return m;
}

struct bad_case {
	const char *name;
	int cmd;
	struct aspec attrs[10];
	int expect;		/* 0 success; < 0 this error; 1 any error;
				 * EXP_RANGE: -ERANGE (policy range check) */
	bool ext_optional;	/* the generic netlink core answers, no extack */
};

int expect_case(struct ppnl *p, const char *name, int cmd, int flags,
		       const struct aspec *attrs, int expect, bool ext_optional)
{
	struct ppnl_reply r;
	bool ok;

	ppnl_xfer(p, build(p, cmd, flags, attrs), NULL, NULL, &r);
	if (expect == 1)
		ok = r.err < 0 && r.err > -4096;
	else if (expect == EXP_RANGE)
		ok = r.err == -ERANGE;
	else
		ok = r.err == expect;
	if (expect != 0 && !ext_optional && !has_ext(&r))
		ok = false;
	tap_ok(ok, "%s: %s%s (expected %s%s)", name, errname(r.err),
	    has_ext(&r) ? " with extack" : (r.err && r.err > -4096 ? " without extack" : ""),
	    expect == 1 ? "an error" : expect == EXP_RANGE ? "-ERANGE" : errname(expect),
	    expect && !ext_optional ? " with extack" : "");
	if (has_ext(&r))
		tap_diag("  kernel reports: %s%s", ext_text(&r), r.has_offs ? " (attribute offset given)" : "");
	else if (r.err <= PPNL_E_TIMEOUT && ext_text(&r)[0])
		tap_diag("  %s", ext_text(&r));
	return ok;
}

static int raw_case(struct ppnl *p, const char *name, const void *msg, size_t len,
		    int expect, bool ext_optional)
{
	uint8_t buf[512];
	struct ppnl_reply r;
	bool ok;

	memcpy(buf, msg, len);
	ppnl_xfer_raw(p, buf, len, NULL, NULL, &r);
	ok = expect == 1 ? (r.err < 0 && r.err > -4096) : r.err == expect;
	if (expect && !ext_optional && !has_ext(&r))
		ok = false;
	tap_ok(ok, "%s: %s%s (expected %s)", name, errname(r.err),
	    has_ext(&r) ? " with extack" : (r.err && r.err > -4096 ? " without extack" : ""),
	    expect == 1 ? "an error" : errname(expect));
	if (has_ext(&r))
		tap_diag("  kernel reports: %s", ext_text(&r));
	return ok;
}

/* Build a raw genl message: nlmsghdr + genlmsghdr + given attribute bytes. */
static size_t raw_msg(uint8_t *buf, int family, uint16_t flags, uint8_t cmd,
		      uint8_t version, uint16_t reserved, const void *attrs,
		      size_t alen)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);

	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = family;
	h->nlmsg_flags = flags;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	memcpy(buf + NLMSG_HDRLEN + GENL_HDRLEN, attrs, alen);
	h->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + alen;
	return h->nlmsg_len;
}

int cmd_bad(int argc, char **argv)
{
	bool fresh = argc > 1 && !strcmp(argv[1], "--fresh");
	size_t blen = 64 * 1024;
	uint8_t *buf, *ro, *hole;
	uint64_t B, RO, HOLE, GUARD_END;
	struct ppnl p, p2;
	struct ppnl_reply r;
	struct info in;
	uint32_t me = getpid();
	const uint16_t RQ = NLM_F_REQUEST | NLM_F_ACK;

	if (open_or_fail(&p))
		return 1;
	buf = map_guarded(blen);
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!buf || ro == MAP_FAILED || hole == MAP_FAILED) {
		tap_ok(false, "bad inputs: mmap: %s", strerror(errno));
		return 1;
	}
	munmap(hole, 4 * PAGE);		/* now certainly unmapped */
	B = (uintptr_t)buf;
	RO = (uintptr_t)ro;
	HOLE = (uintptr_t)hole;
	GUARD_END = B + blen;		/* first byte of the trailing guard page */

	if (fresh)
		expect_case(&p, "TRACE_GET before any trace was started", PERFPROBE_CMD_TRACE_GET,
			    0, NULL, -ENOENT, false);
	expect_case(&p, "TRACE_STOP without an active trace", PERFPROBE_CMD_TRACE_STOP,
		    0, NULL, -ENOENT, false);

#define CP(dir, addr, buflen, size) \
	A(PERFPROBE_A_COPY_DIR, 4, dir), A(PERFPROBE_A_COPY_ADDR, 8, addr), \
	A(PERFPROBE_A_COPY_BUFLEN, 8, buflen), A(PERFPROBE_A_COPY_SIZE, 8, size)
	const uint32_t TO = PERFPROBE_COPY_TO_USER, FROM = PERFPROBE_COPY_FROM_USER,
		       CLR = PERFPROBE_COPY_CLEAR_USER;
	const struct bad_case cases[] = {
		{ "COPY size 0", PERFPROBE_CMD_COPY, { CP(TO, B, 64, 0), END }, EXP_RANGE },
		{ "COPY size 64 MiB + 1 (over the limit)", PERFPROBE_CMD_COPY,
		  { CP(TO, B, PERFPROBE_COPY_MAX_SIZE + 1, PERFPROBE_COPY_MAX_SIZE + 1), END }, EXP_RANGE },
		{ "COPY huge size 2^62", PERFPROBE_CMD_COPY, { CP(TO, B, 1ULL << 62, 1ULL << 62), END }, EXP_RANGE },
		{ "COPY size UINT64_MAX", PERFPROBE_CMD_COPY, { CP(FROM, B, UINT64_MAX, UINT64_MAX), END }, EXP_RANGE },
		{ "COPY to_user to NULL", PERFPROBE_CMD_COPY, { CP(TO, 0, 64, 64), END }, -EFAULT },
		{ "COPY from_user from NULL", PERFPROBE_CMD_COPY, { CP(FROM, 0, 64, 64), END }, -EFAULT },
		{ "COPY clear_user on NULL", PERFPROBE_CMD_COPY, { CP(CLR, 0, 64, 64), END }, -EFAULT },
		{ "COPY to_user to kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(TO, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY from_user from kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(FROM, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY clear_user on kernel address 0xffffffff81000000", PERFPROBE_CMD_COPY,
		  { CP(CLR, KERNEL_ADDR, 64, 64), END }, -EFAULT },
		{ "COPY to_user to non-canonical address 0x8000000000000000", PERFPROBE_CMD_COPY,
		  { CP(TO, 0x8000000000000000ULL, 64, 64), END }, -EFAULT },
		{ "COPY to_user to an unmapped address", PERFPROBE_CMD_COPY,
		  { CP(TO, HOLE, 4 * PAGE, 4 * PAGE), END }, -EFAULT },
		{ "COPY from_user from an unmapped address", PERFPROBE_CMD_COPY,
		  { CP(FROM, HOLE, 100, 100), END }, -EFAULT },
		{ "COPY to_user running into a PROT_NONE page (no short copy)", PERFPROBE_CMD_COPY,
		  { CP(TO, GUARD_END - 100, 200, 200), END }, -EFAULT },
		{ "COPY from_user running into a PROT_NONE page (no short copy)", PERFPROBE_CMD_COPY,
		  { CP(FROM, GUARD_END - 100, 200, 200), END }, -EFAULT },
		{ "COPY to_user to a read-only mapping", PERFPROBE_CMD_COPY,
		  { CP(TO, RO, 64, 64), END }, -EFAULT },
		{ "COPY from_user from a read-only mapping works", PERFPROBE_CMD_COPY,
		  { CP(FROM, RO, 64, 64), END }, 0 },
		{ "COPY with address + length wrapping around", PERFPROBE_CMD_COPY,
		  { CP(TO, UINT64_MAX - 10, 100, 100), END }, 1 },
		{ "COPY offset + size > buflen", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_OFFSET, 8, 1), END }, -EINVAL },
		{ "COPY offset 4097 (over the limit)", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 8192, 64), A(PERFPROBE_A_COPY_OFFSET, 8, 4097), END }, EXP_RANGE },
		{ "COPY iterations 0", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_ITERATIONS, 4, 0), END }, EXP_RANGE },
		{ "COPY iterations over the limit", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(PERFPROBE_A_COPY_ITERATIONS, 4, PERFPROBE_COPY_MAX_ITERATIONS + 1), END }, EXP_RANGE },
		{ "COPY size * iterations over 16 GiB", PERFPROBE_CMD_COPY,
		  { CP(TO, B, PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE),
		    A(PERFPROBE_A_COPY_ITERATIONS, 4, 257), END }, -EINVAL },
		{ "COPY direction 3 (unknown)", PERFPROBE_CMD_COPY, { CP(3, B, 64, 64), END }, EXP_RANGE },
		{ "COPY direction 0xffffffff", PERFPROBE_CMD_COPY, { CP(0xffffffffU, B, 64, 64), END }, EXP_RANGE },
		{ "COPY missing SIZE", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), END }, -EINVAL },
		{ "COPY missing ADDR", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY missing DIR", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_ADDR, 8, B), A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY missing BUFLEN", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY with no attributes at all", PERFPROBE_CMD_COPY, { END }, -EINVAL },
		{ "COPY SIZE sent as u32 (wrong length)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 4, 64), END }, -EINVAL },
		{ "COPY DIR sent as u64 (wrong length)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 8, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY ADDR with length 0", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 0, 0),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 8, 64), END }, -EINVAL },
		{ "COPY SIZE as a 12-byte string (wrong type)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64), A(PERFPROBE_A_COPY_SIZE, 12, 64), END }, -EINVAL },
		{ "COPY SIZE flagged NLA_F_NESTED (wrong type)", PERFPROBE_CMD_COPY,
		  { A(PERFPROBE_A_COPY_DIR, 4, TO), A(PERFPROBE_A_COPY_ADDR, 8, B),
		    A(PERFPROBE_A_COPY_BUFLEN, 8, 64),
		    A(PERFPROBE_A_COPY_SIZE | NLA_F_NESTED, 8, 64), END }, -EINVAL },
		{ "COPY with an extra unknown attribute", PERFPROBE_CMD_COPY,
		  { CP(TO, B, 64, 64), A(__PERFPROBE_A_MAX, 4, 1), END }, -EINVAL },
		{ "GET_INFO with unknown attribute type __PERFPROBE_A_MAX", PERFPROBE_CMD_GET_INFO,
		  { A(__PERFPROBE_A_MAX, 4, 0), END }, -EINVAL },
		{ "GET_INFO with unknown attribute type 0x3fff", PERFPROBE_CMD_GET_INFO,
		  { A(0x3fff, 8, 0), END }, -EINVAL },
		{ "unknown command 0x7f", 0x7f, { END }, -EOPNOTSUPP, true },
		{ "command 0 (PERFPROBE_CMD_UNSPEC)", PERFPROBE_CMD_UNSPEC, { END }, -EOPNOTSUPP, true },
		{ "command __PERFPROBE_CMD_MAX", __PERFPROBE_CMD_MAX, { END }, -EOPNOTSUPP, true },
		{ "TIMER period below the minimum", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MIN_PERIOD_NS - 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, EXP_RANGE },
		{ "TIMER period over the maximum", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MAX_PERIOD_NS + 1), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, EXP_RANGE },
		{ "TIMER count 0", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 100000), A(PERFPROBE_A_TIMER_COUNT, 4, 0), END }, EXP_RANGE },
		{ "TIMER count over the limit", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 1000), A(PERFPROBE_A_TIMER_COUNT, 4, PERFPROBE_TIMER_MAX_COUNT + 1), END }, EXP_RANGE },
		{ "TIMER period * count over PERFPROBE_TIMER_MAX_TOTAL_NS", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, PERFPROBE_TIMER_MAX_TOTAL_NS / 10),
		    A(PERFPROBE_A_TIMER_COUNT, 4, 11), END }, -EINVAL },
		{ "TIMER missing COUNT", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 8, 100000), END }, -EINVAL },
		{ "TIMER PERIOD sent as u32", PERFPROBE_CMD_TIMER,
		  { A(PERFPROBE_A_TIMER_PERIOD_NS, 4, 100000), A(PERFPROBE_A_TIMER_COUNT, 4, 1), END }, -EINVAL },
		{ "TRACE_START missing TGID", PERFPROBE_CMD_TRACE_START, { END }, -EINVAL },
		{ "TRACE_START TGID sent as u64", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 8, me), END }, -EINVAL },
		{ "TRACE_START TGID sent as u8", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 1, 1), END }, -EINVAL },
		{ "TRACE_START for a non-existent process", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0x3ffffff0), END }, 1 },
		{ "TRACE_START for tgid 0", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, 0), END }, EXP_RANGE },
		{ "TRACE_START with unknown feature bit 31", PERFPROBE_CMD_TRACE_START,
		  { A(PERFPROBE_A_TRACE_TGID, 4, me), A(PERFPROBE_A_TRACE_FEATURES, 4, 1U << 31), END }, 1 },
	};
#undef CP

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_case(&p, cases[i].name, cases[i].cmd, 0, cases[i].attrs,
			    cases[i].expect, cases[i].ext_optional);

	/* hand-made messages */
	{
		uint8_t m[256];
		uint8_t attrs[32] = { 0 };
		struct nlattr *na = (struct nlattr *)attrs;
		size_t n;

		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_GET_INFO, 1, 0x1234, NULL, 0);
		raw_case(&p, "GET_INFO with non-zero genlmsghdr.reserved", m, n, -EINVAL, false);

		n = raw_msg(m, p.family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_ROOT,
			    PERFPROBE_CMD_GET_INFO, 1, 0, NULL, 0);
		raw_case(&p, "GET_INFO with ambiguous nlmsg_flags (NLM_F_ROOT only)", m, n, -EINVAL, false);

		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_GET_INFO, 1, 0, NULL, 0);
		((struct nlmsghdr *)m)->nlmsg_len = NLMSG_HDRLEN + 2;
		raw_case(&p, "message truncated inside the genl header", m, NLMSG_HDRLEN + 2, -EINVAL, true);

		/* attribute claiming more bytes than the message has */
		na->nla_type = PERFPROBE_A_COPY_SIZE;
		na->nla_len = 200;
		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_COPY, 1, 0, attrs, 12);
		raw_case(&p, "COPY with an attribute longer than the message", m, n, -EINVAL, false);

		/* attribute with nla_len < sizeof(struct nlattr) */
		na->nla_type = PERFPROBE_A_COPY_SIZE;
		na->nla_len = 2;
		n = raw_msg(m, p.family, RQ, PERFPROBE_CMD_COPY, 1, 0, attrs, 8);
		raw_case(&p, "COPY with an attribute of nla_len 2", m, n, -EINVAL, false);
	}

	/* trace ownership */
	if (pp_open(&p2) == 0) {
		uint32_t en;

		pp_trace_start(&p, me, -1, &en, &r);
		report("TRACE_START (own tgid)", &r);
		tap_ok(r.err == 0, "TRACE_START for the own process works (features 0x%x)", en);
		if (r.err == 0) {
			pp_trace_start(&p, me, -1, NULL, &r);
			tap_ok(r.err == -EBUSY && has_ext(&r),
			    "second TRACE_START while a trace is active: %s (expected -EBUSY with extack)",
			    errname(r.err));
			if (has_ext(&r))
				tap_diag("  kernel reports: %s", ext_text(&r));
			pp_trace_start(&p2, me, -1, NULL, &r);
			tap_ok(r.err == -EBUSY, "TRACE_START from another socket while a trace is active: %s (expected -EBUSY)",
			    errname(r.err));
			pp_trace_stop(&p2, &r);
			tap_ok(r.err == -EBUSY && has_ext(&r),
			    "TRACE_STOP from a socket that does not own the trace: %s (expected -EBUSY with extack)",
			    errname(r.err));
			if (has_ext(&r))
				tap_diag("  kernel reports: %s", ext_text(&r));
			pp_trace_stop(&p, &r);
			report("TRACE_STOP", &r);
			tap_ok(r.err == 0, "TRACE_STOP by the owner works");
		}
		ppnl_close(&p2);
	}

	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	tap_ok(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
	    "GET_INFO still answers after all bad inputs");
	tap_diag("%lu stale messages skipped", p.stale);
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
