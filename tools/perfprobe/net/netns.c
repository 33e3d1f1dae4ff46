// SPDX-License-Identifier: GPL-2.0
/*
 * Anonymous network namespaces joined by a veth pair: see netns.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netns.h"
#include "nl.h"
#include "util.h"

static void ns_init(struct pp_netns *ns)
{
	memset(ns, 0, sizeof(*ns));
	ns->fd = -1;
	ns->rtnl = -1;
}

static void ns_close(struct pp_netns *ns)
{
	if (ns->rtnl >= 0)
		close(ns->rtnl);
	if (ns->fd >= 0)
		close(ns->fd);
	ns_init(ns);
}

/* A new namespace in ns->fd, its rtnetlink socket; we stay in ours. */
static int ns_new(struct pp_netns *ns, char *why, size_t whylen)
{
	int self, ret = 0;
	struct stat st;

	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		ret = -errno;
		snprintf(why, whylen, "/proc/self/ns/net: %s", strerror(errno));
		return ret;
	}
	if (unshare(CLONE_NEWNET)) {
		ret = -errno;
		snprintf(why, whylen, "a network namespace (unshare): %s%s", strerror(errno),
			 errno == EPERM ? ": needs CAP_SYS_ADMIN" : "");
		goto out;
	}
	ns->fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "the new namespace: %s", strerror(errno));
	}
	if (setns(self, CLONE_NEWNET)) {
		ret = -errno;
		snprintf(why, whylen, "back to our network namespace (setns): %s",
			 strerror(errno));
		goto out;
	}
	if (ret)
		goto out;
	if (!fstat(ns->fd, &st))
		ns->inode = (unsigned long)st.st_ino;
	ns->rtnl = pp_nl_open(NETLINK_ROUTE, ns->fd);
	if (ns->rtnl < 0) {
		ret = ns->rtnl;
		snprintf(why, whylen, "rtnetlink in the new namespace: %s", strerror(-ret));
	}
out:
	close(self);
	return ret;
}

static int link_index(struct pp_netns *ns, char *why, size_t whylen)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	char reply[PP_NL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct pp_nl_req r;
	int ret;

	pp_nl_init(&r, RTM_GETLINK, 0);
	pp_nl_put(&r, &ifi, sizeof(ifi));
	pp_nl_attr_str(&r, IFLA_IFNAME, ns->ifname);
	ret = pp_nl_talk(ns->rtnl, &r, reply, sizeof(reply), why, whylen);
	if (ret < 0)
		return ret;
	if ((size_t)ret < NLMSG_LENGTH(sizeof(ifi))) {
		snprintf(why, whylen, "%s: no link in the reply", ns->ifname);
		return -EPROTO;
	}
	memcpy(&ifi, NLMSG_DATA((struct nlmsghdr *)reply), sizeof(ifi));
	ns->ifindex = ifi.ifi_index;
	return 0;
}

/* <b's name> in b, its peer <a's name> in a. */
static int veth_add(struct pp_netns *a, struct pp_netns *b, char *why, size_t whylen)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *info, *data, *peer;
	uint32_t fd = (uint32_t)a->fd;
	struct pp_nl_req r;

	pp_nl_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	pp_nl_put(&r, &ifi, sizeof(ifi));
	pp_nl_attr_str(&r, IFLA_IFNAME, b->ifname);
	info = pp_nl_nest(&r, IFLA_LINKINFO);
	pp_nl_attr_str(&r, IFLA_INFO_KIND, "veth");
	data = pp_nl_nest(&r, IFLA_INFO_DATA);
	peer = pp_nl_nest(&r, VETH_INFO_PEER);
	pp_nl_put(&r, &ifi, sizeof(ifi));
	pp_nl_attr_str(&r, IFLA_IFNAME, a->ifname);
	pp_nl_attr(&r, IFLA_NET_NS_FD, &fd, sizeof(fd));
	pp_nl_nest_end(&r, peer);
	pp_nl_nest_end(&r, data);
	pp_nl_nest_end(&r, info);
	return pp_nl_talk(b->rtnl, &r, NULL, 0, why, whylen);
}

static int addr_up(struct pp_netns *ns, char *why, size_t whylen)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 24 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct pp_nl_req r;
	int ret;

	ret = link_index(ns, why, whylen);
	if (ret)
		return ret;
	ifa.ifa_index = (uint32_t)ns->ifindex;
	pp_nl_init(&r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	pp_nl_put(&r, &ifa, sizeof(ifa));
	pp_nl_attr(&r, IFA_LOCAL, &ns->addr, sizeof(ns->addr));
	pp_nl_attr(&r, IFA_ADDRESS, &ns->addr, sizeof(ns->addr));
	ret = pp_nl_talk(ns->rtnl, &r, NULL, 0, why, whylen);
	if (ret)
		return ret;
	ifi.ifi_index = ns->ifindex;
	ifi.ifi_flags = IFF_UP;
	ifi.ifi_change = IFF_UP;
	pp_nl_init(&r, RTM_NEWLINK, 0);
	pp_nl_put(&r, &ifi, sizeof(ifi));
	return pp_nl_talk(ns->rtnl, &r, NULL, 0, why, whylen);
}

int pp_netns_pair(struct pp_netns *a, struct pp_netns *b, const char *prefix,
		  struct in_addr addr_a, struct in_addr addr_b, char *why, size_t whylen)
{
	char err[200];
	int ret;

	ns_init(a);
	ns_init(b);
	ret = ns_new(a, why, whylen);
	if (!ret)
		ret = ns_new(b, why, whylen);
	if (ret)
		goto err;
	snprintf(a->ifname, sizeof(a->ifname), "%sa", prefix);
	snprintf(b->ifname, sizeof(b->ifname), "%sb", prefix);
	a->addr = addr_a;
	b->addr = addr_b;
	ret = veth_add(a, b, err, sizeof(err));
	if (ret) {
		snprintf(why, whylen, "a veth pair: %s%s", err,
			 ret == -EOPNOTSUPP ? " (no veth in this kernel: CONFIG_VETH)" : "");
		goto err;
	}
	ret = addr_up(a, err, sizeof(err));
	if (!ret)
		ret = addr_up(b, err, sizeof(err));
	if (ret) {
		snprintf(why, whylen, "addresses on the veth pair: %s", err);
		goto err;
	}
	return 0;
err:
	pp_netns_pair_close(a, b);
	return ret;
}

void pp_netns_pair_close(struct pp_netns *a, struct pp_netns *b)
{
	ns_close(a);
	ns_close(b);
}

int pp_netns_enter(const struct pp_netns *ns)
{
	return setns(ns->fd, CLONE_NEWNET) ? -errno : 0;
}
