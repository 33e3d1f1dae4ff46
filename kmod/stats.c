// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: latency statistics helpers (merge, netlink, seq_file).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/seq_file.h>
#include <net/netlink.h>

#include "stats.h"

void pp_stat_merge(struct pp_stat *dst, const struct pp_stat *src)
{
	u64 count = READ_ONCE(src->count);
	u64 min = READ_ONCE(src->min);
	u64 max = READ_ONCE(src->max);
	unsigned int i;

	if (!count)
		return;
	if (!dst->count || min < dst->min)
		dst->min = min;
	if (max > dst->max)
		dst->max = max;
	dst->count += count;
	dst->sum += READ_ONCE(src->sum);
	for (i = 0; i < PERFPROBE_HIST_BUCKETS; i++)
		dst->hist[i] += READ_ONCE(src->hist[i]);
}

static int pp_hist_nl_put(struct sk_buff *skb, const struct pp_stat *s)
{
	struct nlattr *hist, *bucket;
	unsigned int i;

	hist = nla_nest_start(skb, PERFPROBE_STATS_A_HIST);
	if (!hist)
		return -EMSGSIZE;
	for (i = 0; i < PERFPROBE_HIST_BUCKETS; i++) {
		if (!s->hist[i])
			continue;
		bucket = nla_nest_start(skb, PERFPROBE_HIST_A_BUCKET);
		if (!bucket)
			goto cancel_hist;
		if (nla_put_u32(skb, PERFPROBE_BUCKET_A_LOG2, i) ||
		    nla_put_u64_64bit(skb, PERFPROBE_BUCKET_A_COUNT, s->hist[i],
				      PERFPROBE_BUCKET_A_PAD))
			goto cancel_hist;
		nla_nest_end(skb, bucket);
	}
	nla_nest_end(skb, hist);
	return 0;

cancel_hist:
	nla_nest_cancel(skb, hist);
	return -EMSGSIZE;
}

int pp_stat_nl_put(struct sk_buff *skb, int attrtype, const struct pp_stat *s)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, attrtype);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, PERFPROBE_STATS_A_COUNT, s->count,
			      PERFPROBE_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, PERFPROBE_STATS_A_SUM_NS, s->sum,
			      PERFPROBE_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, PERFPROBE_STATS_A_MIN_NS, s->min,
			      PERFPROBE_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, PERFPROBE_STATS_A_MAX_NS, s->max,
			      PERFPROBE_STATS_A_PAD) ||
	    nla_put_u64_64bit(skb, PERFPROBE_STATS_A_MEAN_NS, pp_stat_mean(s),
			      PERFPROBE_STATS_A_PAD) ||
	    pp_hist_nl_put(skb, s))
		goto cancel_nest;
	nla_nest_end(skb, nest);
	return 0;

cancel_nest:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

void pp_stat_seq_show(struct seq_file *m, const char *name,
		      const struct pp_stat *s, bool hist)
{
	unsigned int i;

	seq_printf(m, "%s: count %llu sum_ns %llu min_ns %llu mean_ns %llu max_ns %llu\n",
		   name, s->count, s->sum, s->min, pp_stat_mean(s), s->max);
	if (!hist || !s->count)
		return;
	for (i = 0; i < PERFPROBE_HIST_BUCKETS; i++) {
		if (!s->hist[i])
			continue;
		if (i == 0)
			seq_printf(m, "  %20s %12llu\n", "0", s->hist[i]);
		else
			seq_printf(m, "  [2^%-2u, 2^%-2u) ns    %12llu\n",
				   i - 1, i, s->hist[i]);
	}
}
