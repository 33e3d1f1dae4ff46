/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network namespaces of perfprobe's own and a veth pair between them, for
 * the benchmarks that need a network path of their own (ipsec).
 *
 * The namespaces are anonymous: held by a descriptor each (and by the
 * helper processes that enter them), never mounted under /run/netns.
 * When perfprobe exits, however it exits, the kernel destroys them and
 * everything in them (the veth pair, xfrm states and policies, sockets):
 * nothing is left behind for a cleanup to miss.
 */
#ifndef PP_NETNS_H
#define PP_NETNS_H

#include <netinet/in.h>
#include <stddef.h>

/* One end of the pair: a namespace, its rtnetlink socket, its veth. */
struct pp_netns {
	int fd;			/* the namespace */
	int rtnl;		/* NETLINK_ROUTE, in it */
	int ifindex;
	struct in_addr addr;
	unsigned long inode;	/* as /proc/PID/ns/net names it: net:[inode] */
	char ifname[16];
};

/*
 * Two new namespaces joined by a veth pair named <prefix>a and <prefix>b,
 * addresses a and b (/24, the same network) on them, both up.  0; or
 * -errno with why filled: -EPERM (no CAP_SYS_ADMIN), -EOPNOTSUPP (no veth
 * in this kernel) and the like.  On failure nothing is left open.
 */
int pp_netns_pair(struct pp_netns *a, struct pp_netns *b, const char *prefix,
		  struct in_addr addr_a, struct in_addr addr_b, char *why, size_t whylen);
/* Close both; the kernel then removes what they held. */
void pp_netns_pair_close(struct pp_netns *a, struct pp_netns *b);

/* Enter ns (in a helper child, for good): 0 or -errno. */
int pp_netns_enter(const struct pp_netns *ns);

#endif /* PP_NETNS_H */
