/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw netlink requests (rtnetlink, NETLINK_XFRM) for the benchmarks that
 * build their own network: one request in a fixed buffer, its attributes
 * appended, sent and answered by an ack or one reply.  A kernel that
 * refuses says why (extended ack): the text goes with the error.
 */
#ifndef PP_NL_H
#define PP_NL_H

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PP_NL_BUF	2048

struct pp_nl_req {
	union {
		struct nlmsghdr h;
		char buf[PP_NL_BUF];
	};
	bool full;		/* an append did not fit: the request is refused */
};

/* A request of type with NLM_F_REQUEST | NLM_F_ACK | flags. */
void pp_nl_init(struct pp_nl_req *r, uint16_t type, uint16_t flags);
/* The fixed header (ifinfomsg, xfrm_usersa_info, ...): where it went, or NULL. */
void *pp_nl_put(struct pp_nl_req *r, const void *data, size_t len);
/* An attribute; data may be NULL for len zeroed bytes. */
void pp_nl_attr(struct pp_nl_req *r, uint16_t type, const void *data, size_t len);
void pp_nl_attr_str(struct pp_nl_req *r, uint16_t type, const char *s);
/* A nest: its start, closed by pp_nl_nest_end(). */
struct nlattr *pp_nl_nest(struct pp_nl_req *r, uint16_t type);
void pp_nl_nest_end(struct pp_nl_req *r, struct nlattr *nest);

/*
 * A netlink socket of proto (NETLINK_ROUTE, NETLINK_XFRM) in the network
 * namespace nsfd (-1: the caller's), which the caller is back in on
 * return.  fd, or -errno.
 */
int pp_nl_open(int proto, int nsfd);

/*
 * Send r on fd and wait for its answer: 0 on an ack; with reply, the
 * first answer that is not an error copied there (at most size bytes,
 * the netlink header included) and its length.  -errno when the kernel
 * refused, err then holding its reason (its extended ack, or strerror).
 */
int pp_nl_talk(int fd, struct pp_nl_req *r, void *reply, size_t size, char *err,
	       size_t errlen);

#endif /* PP_NL_H */
