/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/perfprobe.yaml */
/* by scripts/genl-gen.py (make genl-gen): declarations */

#ifndef _PERFPROBE_GENL_GEN_H
#define _PERFPROBE_GENL_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/perfprobe.h>

/* PERFPROBE_CMD_TIMER */
extern const struct nla_policy perfprobe_timer_nl_policy[PERFPROBE_A_TIMER_COUNT + 1];

/* PERFPROBE_CMD_COPY */
extern const struct nla_policy perfprobe_copy_nl_policy[PERFPROBE_A_COPY_ITERATIONS + 1];

/* PERFPROBE_CMD_TRACE_START */
extern const struct nla_policy perfprobe_trace_start_nl_policy[PERFPROBE_A_TRACE_FEATURES + 1];

/* Ops table for perfprobe */
extern const struct genl_ops perfprobe_nl_ops[6];

int perfprobe_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_timer_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_copy_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_trace_start_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_trace_stop_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_trace_get_doit(struct sk_buff *skb, struct genl_info *info);
int perfprobe_nl_trace_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb);

#endif /* _PERFPROBE_GENL_GEN_H */
