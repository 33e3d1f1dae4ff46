// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: random attributes and messages.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

static uint8_t *fuzz_buf;

static uint64_t interesting64(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 63, 64, 4095, 4096, 4097, 65536, 1 << 20,
		PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE + 1,
		1ULL << 62, UINT64_MAX, 0x8000000000000000ULL, KERNEL_ADDR,
		1000, 1000000, 1000000000, 2000000000, UINT32_MAX,
	};
	switch (rnd_below(4)) {
	case 0:
		return (uintptr_t)fuzz_buf + rnd_below(8192);
	case 1:
		return rnd();
	default:
		return v[rnd_below(sizeof(v) / sizeof(v[0]))];
	}
}

static uint32_t interesting32(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 255, 100, 1000, 100000, 100001,
		1000000, 1000001, UINT32_MAX, 0x80000000, 0x7fffffff,
	};
	switch (rnd_below(4)) {
	case 0:
		return getpid();
	case 1:
		return (uint32_t)rnd();
	default:
		return v[rnd_below(sizeof(v) / sizeof(v[0]))];
	}
}

static size_t fuzz_attr(uint8_t *out, size_t room, int depth)
{
	struct nlattr *na = (struct nlattr *)out;
	size_t len, total;
	int type;

	switch (rnd_below(20)) {
	case 0 ... 13:
		type = 1 + rnd_below(__PERFPROBE_A_MAX - 1);
		break;
	case 14 ... 16:
		type = rnd_below(2) ? 0 : __PERFPROBE_A_MAX + rnd_below(4);
		break;
	case 17 ... 18:
		type = rnd_below(0x8000);
		break;
	default:
		type = (1 + rnd_below(__PERFPROBE_A_MAX)) | NLA_F_NESTED;
		break;
	}
	switch (rnd_below(12)) {
	case 0 ... 3:
		len = 4;
		break;
	case 4 ... 6:
		len = 8;
		break;
	case 7:
		len = 0;
		break;
	case 8:
		len = 1 + rnd_below(3);
		break;
	case 9:
		len = 16 << rnd_below(3);
		break;
	default:
		len = rnd_below(100);
		break;
	}
	if (NLA_HDRLEN + NLA_ALIGN(len) > room)
		return 0;
	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	if (len == 4) {
		uint32_t v = interesting32();

		memcpy(out + NLA_HDRLEN, &v, 4);
	} else if (len == 8) {
		uint64_t v = interesting64();

		memcpy(out + NLA_HDRLEN, &v, 8);
	} else if (depth < 2 && len >= NLA_HDRLEN && rnd_below(3) == 0) {
		/* nested garbage */
		size_t used = 0;

		while (used + NLA_HDRLEN <= len) {
			size_t a = fuzz_attr(out + NLA_HDRLEN + used, len - used, depth + 1);

			if (!a)
				break;
			used += a;
		}
		memset(out + NLA_HDRLEN + used, 0, len - used);
		if (rnd_below(2))
			na->nla_type |= NLA_F_NESTED;
	} else {
		fill_random(out + NLA_HDRLEN, len);
		if (len && rnd_below(2))
			out[NLA_HDRLEN + len - 1] = 0;	/* string-ish */
	}
	total = NLA_HDRLEN + NLA_ALIGN(len);
	memset(out + NLA_HDRLEN + len, 0, total - NLA_HDRLEN - len);
	return total;
}

static int fuzz_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[PERFPROBE_A_MAX + 1];

	if (!genlmsg_valid_hdr(h, 0) ||
	    genlmsg_parse(h, 0, tb, PERFPROBE_A_MAX, NULL) < 0) {
		(*(int *)arg)++;
		return PPNL_E_PARSE;
	}
	return 0;
}

int cmd_fuzz(int argc, char **argv)
{
	long count = 3000;
	int seconds = 45, opt, malformed = 0;
	uint64_t seed = 1;
	bool priv = privileged();
	long sent = 0, succeeded = 0, timeouts = 0, local = 0, badrange = 0;
	long errs[7] = { 0 };	/* EPERM EINVAL EOPNOTSUPP EFAULT EBUSY other none */
	int64_t deadline;
	struct ppnl p;
	struct ppnl_reply r;
	struct info in;

	while ((opt = getopt(argc, argv, "n:s:t:")) != -1) {
		switch (opt) {
		case 'n': count = atol(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = atoi(optarg); break;
		}
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	fuzz_buf = map_guarded(64 * 1024);
	if (open_or_fail(&p))
		return 1;
	p.timeout_ms = 10000;
	tap_diag("fuzz: %ld messages, seed %" PRIu64 ", %s, time budget %d s", count,
	     seed, priv ? "privileged" : "unprivileged", seconds);
	deadline = now_ns() + (int64_t)seconds * 1000000000LL;
	alarm(seconds + 60);	/* a fatal signal also aborts long kernel loops */

	for (sent = 0; sent < count && now_ns() < deadline; sent++) {
		uint8_t msg[1024];
		struct nlmsghdr *h = (struct nlmsghdr *)msg;
		struct genlmsghdr *g = (struct genlmsghdr *)(msg + NLMSG_HDRLEN);
		size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
		int nattrs = rnd_below(7);
		uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
		int k;

		memset(msg, 0, len);
		switch (rnd_below(20)) {
		case 0 ... 1: flags |= NLM_F_DUMP; break;
		case 2: flags |= NLM_F_ECHO; break;
		case 3: flags |= 1U << (2 + rnd_below(10)); break;
		}
		k = rnd_below(20);
		g->cmd = k < 15 ? 1 + rnd_below(PERFPROBE_CMD_MAX) :
			 k < 18 ? rnd_below(12) : rnd_below(256);
		g->version = rnd_below(10) ? PERFPROBE_GENL_VERSION : rnd_below(256);
		g->reserved = rnd_below(30) ? 0 : rnd();
		for (int i = 0; i < nattrs; i++)
			len += fuzz_attr(msg + len, sizeof(msg) - len, 0);
		if (len > NLMSG_HDRLEN + GENL_HDRLEN && rnd_below(20) == 0) {
			/* corrupt the first attribute's length */
			struct nlattr *na = (struct nlattr *)(msg + NLMSG_HDRLEN + GENL_HDRLEN);

			na->nla_len = rnd_below(2) ? rnd_below(4) : 0xffff;
		}
		h->nlmsg_len = len;
		h->nlmsg_type = p.family;
		h->nlmsg_flags = flags;

		ppnl_xfer_raw(&p, msg, len, fuzz_cb, &malformed, &r);
		if (r.err == PPNL_E_TIMEOUT) {
			timeouts++;
			tap_diag("fuzz message %ld (cmd %u, %zu bytes) got no answer", sent, g->cmd, len);
			break;
		}
		if (r.err == PPNL_E_LOCAL) {
			local++;
			tap_diag("fuzz message %ld: %s", sent, ext_text(&r));
			break;
		}
		if (r.err == 0)
			succeeded++;
		if (r.err > 0 || r.err < -4095)
			badrange++;
		errs[r.err == -EPERM ? 0 : r.err == -EINVAL ? 1 :
		     r.err == -EOPNOTSUPP ? 2 : r.err == -EFAULT ? 3 :
		     r.err == -EBUSY ? 4 : r.err ? 5 : 6]++;
		if (!priv && (r.err == 0 || r.nmsgs)) {
			if (succeeded <= 5)
				tap_diag("unprivileged fuzz message %ld (cmd %u) was answered with %s and %d data messages",
				     sent, g->cmd, errname(r.err), r.nmsgs);
		}
	}
	alarm(0);
	tap_diag("fuzz: %ld sent; success %ld, EPERM %ld, EINVAL %ld, EOPNOTSUPP %ld, EFAULT %ld, EBUSY %ld, other %ld; %lu stale",
	     sent, errs[6], errs[0], errs[1], errs[2], errs[3], errs[4], errs[5], p.stale);
	tap_ok(timeouts == 0 && local == 0 && badrange == 0 && malformed == 0 && sent > 0,
	    "fuzz (%s, seed %" PRIu64 "): %ld random messages each answered with a well-formed reply or error",
	    priv ? "root" : "unprivileged", seed, sent);
	if (!priv)
		tap_ok(succeeded == 0, "fuzz (unprivileged): no request succeeded (%ld did)", succeeded);
	ppnl_close(&p);

	/* a normal request still works */
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	report("GET_INFO after fuzz", &r);
	if (priv)
		tap_ok(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
		    "GET_INFO still works after the fuzz");
	else
		tap_ok(r.err == -EPERM, "GET_INFO still answers (-EPERM for this user) after the fuzz");
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
