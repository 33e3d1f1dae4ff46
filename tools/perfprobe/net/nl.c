// SPDX-License-Identifier: GPL-2.0
/*
 * Raw netlink requests with the kernel's reason on refusal: see nl.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nl.h"
#include "util.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif

#define NL_TIMEOUT_S	5

static uint32_t nl_seq;

void pp_nl_init(struct pp_nl_req *r, uint16_t type, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_HDRLEN;
	r->h.nlmsg_type = type;
	r->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->h.nlmsg_seq = ++nl_seq;
}

/* len bytes at the aligned end; NULL (and r->full) when they do not fit. */
static void *nl_tail(struct pp_nl_req *r, size_t len)
{
	size_t at = NLMSG_ALIGN(r->h.nlmsg_len);
	char *p;

	if (r->full || at + NLMSG_ALIGN(len) > sizeof(r->buf)) {
		r->full = true;
		return NULL;
	}
	p = r->buf + at;
	memset(p, 0, NLMSG_ALIGN(len));
	r->h.nlmsg_len = (uint32_t)(at + len);
	return p;
}

void *pp_nl_put(struct pp_nl_req *r, const void *data, size_t len)
{
	void *p = nl_tail(r, len);

	if (p && data)
		memcpy(p, data, len);
	return p;
}

void pp_nl_attr(struct pp_nl_req *r, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = nl_tail(r, NLA_HDRLEN + len);

	if (!a)
		return;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (data)
		memcpy((char *)a + NLA_HDRLEN, data, len);
}

void pp_nl_attr_str(struct pp_nl_req *r, uint16_t type, const char *s)
{
	pp_nl_attr(r, type, s, strlen(s) + 1);
}

struct nlattr *pp_nl_nest(struct pp_nl_req *r, uint16_t type)
{
	struct nlattr *a = nl_tail(r, NLA_HDRLEN);

	if (a)
		a->nla_type = type | NLA_F_NESTED;
	return a;
}

void pp_nl_nest_end(struct pp_nl_req *r, struct nlattr *nest)
{
	if (nest && !r->full)
		nest->nla_len = (uint16_t)(r->buf + r->h.nlmsg_len - (char *)nest);
}

int pp_nl_open(int proto, int nsfd)
{
	int one = 1, self = -1, fd = -1, ret;
	struct timeval tv = { .tv_sec = NL_TIMEOUT_S };

	if (nsfd >= 0) {
		self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0)
			return -errno;
		if (setns(nsfd, CLONE_NEWNET)) {
			ret = -errno;
			goto out;
		}
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);
	ret = fd < 0 ? -errno : fd;
	if (self >= 0 && setns(self, CLONE_NEWNET)) {
		/* stuck in the other namespace: nothing after this is safe */
		ret = -errno;
		pp_err("setns back to our network namespace: %s", strerror(errno));
		goto out;
	}
	if (fd >= 0) {
		/* best effort: without them the errors still come, reasons aside */
		setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
		setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
out:
	if (ret < 0 && fd >= 0)
		close(fd);
	if (self >= 0)
		close(self);
	return ret;
}

/* The extended ack's message after e (the request capped), or NULL. */
static const char *ext_msg(const struct nlmsghdr *h, const struct nlmsgerr *e)
{
	const char *end = (const char *)h + h->nlmsg_len;
	const char *p = (const char *)e + sizeof(*e);
	const struct nlattr *a;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		p += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
	while (p + NLA_HDRLEN <= end) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG &&
		    a->nla_len > NLA_HDRLEN && p[a->nla_len - 1] == '\0')
			return p + NLA_HDRLEN;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

int pp_nl_talk(int fd, struct pp_nl_req *r, void *reply, size_t size, char *err,
	       size_t errlen)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	int got = 0, e;
	size_t off;
	ssize_t n;

	err[0] = '\0';
	if (r->full) {
		snprintf(err, errlen, "netlink request too large");
		return -EMSGSIZE;
	}
	if (sendto(fd, r->buf, r->h.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		goto sys;
	for (;;) {
		const struct nlmsgerr *ne;
		struct nlmsghdr *h;
		const char *msg;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			goto sys;
		for (off = 0; off + NLMSG_HDRLEN <= (size_t)n; off += NLMSG_ALIGN(h->nlmsg_len)) {
			h = (struct nlmsghdr *)(buf + off);
			if (h->nlmsg_len < NLMSG_HDRLEN || off + h->nlmsg_len > (size_t)n)
				break;
			ne = NLMSG_DATA(h);
			if (h->nlmsg_seq != r->h.nlmsg_seq)
				continue;
			if (h->nlmsg_type != NLMSG_ERROR) {
				if (reply && !got) {
					got = (int)(h->nlmsg_len < size ? h->nlmsg_len : size);
					memcpy(reply, h, (size_t)got);
				}
				continue;
			}
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*ne))) {
				snprintf(err, errlen, "netlink: short error message");
				return -EPROTO;
			}
			if (!ne->error)
				return got;
			msg = ext_msg(h, ne);
			snprintf(err, errlen, "%s", msg ? msg : strerror(-ne->error));
			return ne->error;
		}
	}
sys:
	e = errno;
	snprintf(err, errlen, "netlink: %s", strerror(e));
	return -e;
}
