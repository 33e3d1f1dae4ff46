// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: generic netlink family "perfprobe".
 *
 * The ABI is described in include/uapi/linux/perfprobe.h and
 * Documentation/netlink/specs/perfprobe.yaml.  The per-operation policies
 * and the op table are generated from the spec into genl-gen.c and
 * genl-gen.h (scripts/genl-gen.py, make genl-gen); this file has the
 * handlers they name (perfprobe_nl_<op>_doit/_dumpit) and the family.
 * All operations use strict validation with a per-operation policy
 * (operations without request attributes have no policy, so the core
 * rejects any attribute).
 *
 * Privileges, for doit and dump alike: GENL_ADMIN_PERM makes the core
 * refuse a caller without CAP_NET_ADMIN before it parses any attribute;
 * then the module wants CAP_PERFMON or CAP_SYS_ADMIN too, because tracing
 * a process and timing kernel code is a perf privilege, not a network one.
 * Both are checked with netlink_capable(): socket opener and sender.
 *
 * The family sets parallel_ops: long requests (TIMER, COPY) do not hold
 * genl_mutex; the trace state has its own mutex (pp_trace.lock).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "genl-gen.h"
#include "perfprobe.h"

static struct genl_family pp_genl_family;

#define PP_TRACE_FEATURES_ALL	(PERFPROBE_CAP_SYSCALL_TRACE |		\
				 PERFPROBE_CAP_PGFAULT_KRETPROBE |	\
				 PERFPROBE_CAP_PGFAULT_TP |		\
				 PERFPROBE_CAP_COPY_KPROBES)

/*
 * The policy masks TRACE_FEATURES with every enum perfprobe_caps bit (the
 * spec's enum-as-flags); a known cap that is no trace feature is
 * -EOPNOTSUPP in the doit.
 */

/* ---- helpers ---- */

static bool pp_capable(struct sk_buff *skb)
{
	/* perfmon_capable() semantics, for opener and sender alike */
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/* CAP_NET_ADMIN was checked by the core (GENL_ADMIN_PERM on every op). */
static int pp_pre_doit(const struct PP_GENL_PRE_OPS *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	if (!pp_capable(skb)) {
		NL_SET_ERR_MSG(info->extack, "CAP_PERFMON or CAP_SYS_ADMIN required");
		return -EPERM;
	}
	return 0;
}

/* GENL_REQ_ATTR_CHECK() only sets the missing type: add a message too. */
static bool pp_missing(struct genl_info *info, unsigned int attr)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	NL_SET_ERR_MSG(info->extack, "missing required attribute");
	return true;
}

static struct sk_buff *pp_reply_new(struct genl_info *info, size_t size,
				    void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "cannot allocate the reply");
		return NULL;
	}
	*hdr = genlmsg_put_reply(msg, info, &pp_genl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		NL_SET_ERR_MSG(info->extack, "cannot build the reply");
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int pp_reply_send(struct sk_buff *msg, void *hdr, int err,
			 struct genl_info *info)
{
	if (err) {
		NL_SET_ERR_MSG(info->extack, "reply does not fit");
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int pp_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, PERFPROBE_A_PAD);
}

/* ---- GET_INFO ---- */

/* No clocksource: PERFPROBE_A_CLOCKSOURCE is reserved, tools read sysfs. */
static int pp_info_fill(struct sk_buff *msg)
{
	unsigned int i;
	bool active;
	u32 tgid;

	if (nla_put_u32(msg, PERFPROBE_A_ABI_VERSION, PERFPROBE_GENL_VERSION) ||
	    nla_put_string(msg, PERFPROBE_A_MODULE_VERSION,
			   PERFPROBE_MODULE_VERSION) ||
	    pp_put_u64(msg, PERFPROBE_A_CLOCK_RES_NS, hrtimer_resolution) ||
	    pp_put_u64(msg, PERFPROBE_A_KTIME_COST_PS, pp_info.ktime_cost_ps) ||
	    pp_put_u64(msg, PERFPROBE_A_CYCLES_COST_PS, pp_info.cycles_cost_ps) ||
	    pp_put_u64(msg, PERFPROBE_A_CYCLES_KHZ, pp_info.cycles_khz) ||
	    nla_put_u32(msg, PERFPROBE_A_CYCLES_CALIB, pp_info.cycles_calib) ||
	    nla_put_u32(msg, PERFPROBE_A_CAPS, pp_info.caps) ||
	    nla_put_u32(msg, PERFPROBE_A_SYSCALL_MAX, NR_syscalls))
		return -EMSGSIZE;
	for (i = 0; i < pp_copyprobe_nr_syms(); i++) {
		const char *sym = pp_copyprobe_sym(i);

		if (sym && nla_put_string(msg, PERFPROBE_A_COPY_SYMBOL, sym))
			return -EMSGSIZE;
	}
	if (pp_info.copy_reason &&
	    nla_put_string(msg, PERFPROBE_A_COPY_REASON, pp_info.copy_reason))
		return -EMSGSIZE;
	if (pp_info.pgfault_reason &&
	    nla_put_string(msg, PERFPROBE_A_PGFAULT_REASON,
			   pp_info.pgfault_reason))
		return -EMSGSIZE;

	mutex_lock(&pp_trace.lock);
	active = pp_trace.active;
	tgid = pp_trace.tgid;
	mutex_unlock(&pp_trace.lock);
	if (nla_put_u8(msg, PERFPROBE_A_TRACE_ACTIVE, active) ||
	    (active && nla_put_u32(msg, PERFPROBE_A_TRACE_TGID, tgid)))
		return -EMSGSIZE;
	return 0;
}

int perfprobe_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = pp_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	return pp_reply_send(msg, hdr, pp_info_fill(msg), info);
}

/* ---- TIMER ---- */

int perfprobe_nl_timer_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct pp_stat *st;
	u64 period;
	void *hdr;
	u32 count;
	int err;

	if (pp_missing(info, PERFPROBE_A_TIMER_PERIOD_NS) ||
	    pp_missing(info, PERFPROBE_A_TIMER_COUNT))
		return -EINVAL;
	period = nla_get_u64(info->attrs[PERFPROBE_A_TIMER_PERIOD_NS]);
	count = nla_get_u32(info->attrs[PERFPROBE_A_TIMER_COUNT]);
	/* both are range-checked by the policy, so this cannot overflow */
	if (period * count > PERFPROBE_TIMER_MAX_TOTAL_NS) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[PERFPROBE_A_TIMER_COUNT],
				    "period * count exceeds the 1 s cap");
		return -EINVAL;
	}

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	err = pp_timer_run(period, count, st, info->extack);
	if (err)
		goto free_stat;

	msg = pp_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg) {
		err = -ENOMEM;
		goto free_stat;
	}
	err = pp_put_u64(msg, PERFPROBE_A_TIMER_PERIOD_NS, period) ||
	      nla_put_u32(msg, PERFPROBE_A_TIMER_COUNT, (u32)st->count) ||
	      pp_stat_nl_put(msg, PERFPROBE_A_STATS, st);
	err = pp_reply_send(msg, hdr, err, info);

free_stat:
	kfree(st);
	return err;
}

/* ---- COPY ---- */

int perfprobe_nl_copy_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct pp_copy_req req = {};
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (pp_missing(info, PERFPROBE_A_COPY_DIR) ||
	    pp_missing(info, PERFPROBE_A_COPY_ADDR) ||
	    pp_missing(info, PERFPROBE_A_COPY_BUFLEN) ||
	    pp_missing(info, PERFPROBE_A_COPY_SIZE))
		return -EINVAL;
	req.dir = nla_get_u32(tb[PERFPROBE_A_COPY_DIR]);
	req.addr = nla_get_u64(tb[PERFPROBE_A_COPY_ADDR]);
	req.buflen = nla_get_u64(tb[PERFPROBE_A_COPY_BUFLEN]);
	req.size = nla_get_u64(tb[PERFPROBE_A_COPY_SIZE]);
	if (tb[PERFPROBE_A_COPY_OFFSET])
		req.offset = nla_get_u64(tb[PERFPROBE_A_COPY_OFFSET]);
	req.iterations = 1;
	if (tb[PERFPROBE_A_COPY_ITERATIONS])
		req.iterations = nla_get_u32(tb[PERFPROBE_A_COPY_ITERATIONS]);

	err = pp_copy_run(&req, info->extack);
	if (err)
		return err;

	msg = pp_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	err = nla_put_u32(msg, PERFPROBE_A_COPY_DIR, req.dir) ||
	      pp_put_u64(msg, PERFPROBE_A_COPY_SIZE, req.size) ||
	      pp_put_u64(msg, PERFPROBE_A_COPY_OFFSET, req.offset) ||
	      nla_put_u32(msg, PERFPROBE_A_COPY_ITERATIONS, req.done) ||
	      pp_put_u64(msg, PERFPROBE_A_COPY_TOTAL_NS, req.total_ns) ||
	      pp_put_u64(msg, PERFPROBE_A_COPY_BYTES, req.size * req.done) ||
	      (req.dir == PERFPROBE_COPY_FROM_USER &&
	       pp_put_u64(msg, PERFPROBE_A_COPY_CHECKSUM, req.checksum));
	return pp_reply_send(msg, hdr, err, info);
}

/* ---- TRACE_START / TRACE_STOP ---- */

int perfprobe_nl_trace_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *fattr = info->attrs[PERFPROBE_A_TRACE_FEATURES];
	u32 avail = pp_info.caps & PP_TRACE_FEATURES_ALL;
	u32 tgid, features = avail;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (pp_missing(info, PERFPROBE_A_TRACE_TGID))
		return -EINVAL;
	tgid = nla_get_u32(info->attrs[PERFPROBE_A_TRACE_TGID]);
	if (fattr) {
		features = nla_get_u32(fattr);
		if (features & ~avail) {
			NL_SET_ERR_MSG_ATTR(info->extack, fattr,
					    "requested feature is not available");
			return -EOPNOTSUPP;
		}
	}
	if (!features) {
		NL_SET_ERR_MSG(info->extack, "no trace feature available or requested");
		return -EOPNOTSUPP;
	}

	/* Build the reply first: nothing can fail after the trace starts. */
	msg = pp_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, PERFPROBE_A_TRACE_TGID, tgid) ||
	    nla_put_u32(msg, PERFPROBE_A_TRACE_FEATURES, features)) {
		NL_SET_ERR_MSG(info->extack, "reply does not fit");
		err = -EMSGSIZE;
		goto free_msg;
	}
	err = pp_trace_start(tgid, features, info->snd_portid, info->extack);
	if (err)
		goto free_msg;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

free_msg:
	nlmsg_free(msg);
	return err;
}

int perfprobe_nl_trace_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pp_trace_stop(info->snd_portid, info->extack);
}

/* ---- TRACE_GET ---- */

static int pp_summary_fill(struct sk_buff *msg, const struct pp_trace_summary *s)
{
	struct nlattr *pf;

	if (nla_put_u8(msg, PERFPROBE_A_TRACE_ACTIVE, s->active) ||
	    nla_put_u32(msg, PERFPROBE_A_TRACE_TGID, s->tgid) ||
	    nla_put_u32(msg, PERFPROBE_A_TRACE_FEATURES, s->features) ||
	    pp_put_u64(msg, PERFPROBE_A_TRACE_DURATION_NS, s->duration_ns) ||
	    pp_put_u64(msg, PERFPROBE_A_TRACE_DROPPED, s->dropped) ||
	    pp_put_u64(msg, PERFPROBE_A_UCOPY_CALLS, s->ucopy_calls) ||
	    pp_put_u64(msg, PERFPROBE_A_UCOPY_BYTES, s->ucopy_bytes))
		return -EMSGSIZE;

	pf = nla_nest_start(msg, PERFPROBE_A_PGFAULT);
	if (!pf)
		return -EMSGSIZE;
	if (pp_stat_nl_put(msg, PERFPROBE_PGFAULT_A_MINOR, &s->pf_minor) ||
	    pp_stat_nl_put(msg, PERFPROBE_PGFAULT_A_MAJOR, &s->pf_major) ||
	    nla_put_u64_64bit(msg, PERFPROBE_PGFAULT_A_RETRY, s->pf_retry,
			      PERFPROBE_PGFAULT_A_PAD) ||
	    nla_put_u64_64bit(msg, PERFPROBE_PGFAULT_A_ERROR, s->pf_error,
			      PERFPROBE_PGFAULT_A_PAD) ||
	    nla_put_u64_64bit(msg, PERFPROBE_PGFAULT_A_MISSED, s->pf_missed,
			      PERFPROBE_PGFAULT_A_PAD) ||
	    nla_put_u64_64bit(msg, PERFPROBE_PGFAULT_A_TP_COUNT, s->pf_tp,
			      PERFPROBE_PGFAULT_A_PAD)) {
		nla_nest_cancel(msg, pf);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, pf);
	return 0;
}

/* Fill a summary under pp_trace.lock; -ENOENT if no trace ever ran. */
static int pp_summary_get(struct pp_trace_summary *s)
{
	if (!pp_trace.data)
		return -ENOENT;
	pp_trace_summary_locked(s);
	return 0;
}

int perfprobe_nl_trace_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pp_trace_summary *s;
	struct sk_buff *msg;
	void *hdr;
	int err;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	mutex_lock(&pp_trace.lock);
	err = pp_summary_get(s);
	mutex_unlock(&pp_trace.lock);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "no trace has been started");
		goto free_summary;
	}
	msg = pp_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg) {
		err = -ENOMEM;
		goto free_summary;
	}
	err = pp_reply_send(msg, hdr, pp_summary_fill(msg, s), info);

free_summary:
	kfree(s);
	return err;
}

/* cb->args[]: 0 = next stage, 1 = next syscall nr, 2 = data generation */
enum { PP_DUMP_SUMMARY, PP_DUMP_SYSCALLS, PP_DUMP_DONE };

static int pp_dump_summary(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pp_trace_summary *s;
	void *hdr;
	int err;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		NL_SET_ERR_MSG(cb->extack, "out of memory");
		return -ENOMEM;
	}
	pp_trace_summary_locked(s);
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pp_genl_family, NLM_F_MULTI, PERFPROBE_CMD_TRACE_GET);
	err = -EMSGSIZE;
	if (hdr) {
		err = pp_summary_fill(skb, s);
		if (err)
			genlmsg_cancel(skb, hdr);
		else
			genlmsg_end(skb, hdr);
	}
	kfree(s);
	return err;
}

static int pp_dump_syscall(struct sk_buff *skb, unsigned int nr,
			   const struct pp_sys_stat *ss)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, PERFPROBE_A_SYSCALL);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PERFPROBE_SYSCALL_A_NR, nr) ||
	    pp_stat_nl_put(skb, PERFPROBE_SYSCALL_A_STATS, &ss->st) ||
	    nla_put_u64_64bit(skb, PERFPROBE_SYSCALL_A_UCOPY_CALLS,
			      ss->ucopy_calls, PERFPROBE_SYSCALL_A_PAD) ||
	    nla_put_u64_64bit(skb, PERFPROBE_SYSCALL_A_UCOPY_BYTES,
			      ss->ucopy_bytes, PERFPROBE_SYSCALL_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int pp_dump_syscalls(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pp_sys_stat *ss;
	unsigned int nr, put = 0;
	void *hdr;
	int err = 0;

	ss = kmalloc(sizeof(*ss), GFP_KERNEL);
	if (!ss) {
		NL_SET_ERR_MSG(cb->extack, "out of memory");
		return -ENOMEM;
	}
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pp_genl_family, NLM_F_MULTI, PERFPROBE_CMD_TRACE_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto free_stat;
	}
	for (nr = cb->args[1]; nr < NR_syscalls; nr++) {
		pp_trace_syscall_locked(nr, ss);
		if (!ss->st.count)
			continue;
		if (pp_dump_syscall(skb, nr, ss))
			break;
		put++;
	}
	cb->args[1] = nr;
	if (nr >= NR_syscalls)
		cb->args[0] = PP_DUMP_DONE;
	if (!put) {
		genlmsg_cancel(skb, hdr);
		/* an entry that does not fit an empty message: give up */
		if (nr < NR_syscalls && !skb->len) {
			NL_SET_ERR_MSG(cb->extack, "syscall entry too large");
			err = -EMSGSIZE;
		}
		goto free_stat;
	}
	genlmsg_end(skb, hdr);

free_stat:
	kfree(ss);
	return err;
}

int perfprobe_nl_trace_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	int err = 0;

	/*
	 * The core checked CAP_NET_ADMIN (GENL_ADMIN_PERM) before the dump
	 * started, but pre_doit does not cover dumps.  Check here rather
	 * than in .start: in 6.1 cb->extack is only set while ->dumpit runs.
	 * The first call runs in the sender's context; netlink_capable() also
	 * checks the credentials of the socket opener.
	 */
	if (cb->args[0] == PP_DUMP_SUMMARY && !pp_capable(cb->skb)) {
		NL_SET_ERR_MSG(cb->extack, "CAP_PERFMON or CAP_SYS_ADMIN required");
		return -EPERM;
	}

	mutex_lock(&pp_trace.lock);
	if (!pp_trace.data) {
		NL_SET_ERR_MSG(cb->extack, "no trace has been started");
		err = -ENOENT;
		goto unlock;
	}
	if (cb->args[0] == PP_DUMP_SUMMARY) {
		cb->args[2] = pp_trace.gen;
	} else if (cb->args[2] != pp_trace.gen) {
		NL_SET_ERR_MSG(cb->extack, "a new trace started during the dump");
		err = -EAGAIN;
		goto unlock;
	}
	if (cb->args[0] == PP_DUMP_SUMMARY) {
		err = pp_dump_summary(skb, cb);
		if (err)
			goto unlock;
		cb->args[0] = PP_DUMP_SYSCALLS;
	}
	if (cb->args[0] == PP_DUMP_SYSCALLS)
		err = pp_dump_syscalls(skb, cb);
unlock:
	mutex_unlock(&pp_trace.lock);
	return err ?: skb->len;
}

/* ---- family ---- */

static struct genl_family pp_genl_family __ro_after_init = {
	.name		= PERFPROBE_GENL_NAME,
	.version	= PERFPROBE_GENL_VERSION,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	.pre_doit	= pp_pre_doit,
	.ops		= perfprobe_nl_ops,	/* genl-gen.c */
	.n_ops		= ARRAY_SIZE(perfprobe_nl_ops),
	.resv_start_op	= 0,	/* strict for every command */
};

/* Stop the trace when its owner's socket goes away. */
static int pp_netlink_notify(struct notifier_block *nb, unsigned long state,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	if (state != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	pp_trace_owner_gone(n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block pp_netlink_nb = {
	.notifier_call = pp_netlink_notify,
};

int pp_genl_init(void)
{
	int err;

	err = netlink_register_notifier(&pp_netlink_nb);
	if (err)
		return err;
	err = genl_register_family(&pp_genl_family);
	if (err)
		goto unregister_notifier;
	return 0;

unregister_notifier:
	netlink_unregister_notifier(&pp_netlink_nb);
	return err;
}

void pp_genl_exit(void)
{
	/* waits for running doit handlers (genl_lock_all) */
	genl_unregister_family(&pp_genl_family);
	netlink_unregister_notifier(&pp_netlink_nb);
}
