/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfprobe: latency statistics (count/sum/min/max + log2 histogram).
 *
 * A struct pp_stat is updated by exactly one writer at a time (a per-CPU
 * copy with preemption disabled, or a single hrtimer callback), so the
 * update needs no atomics.  Readers merge the per-CPU copies with
 * READ_ONCE() and accept a slightly torn snapshot while a trace runs.
 */
#ifndef _PERFPROBE_STATS_H
#define _PERFPROBE_STATS_H

#include <linux/bitops.h>
#include <linux/types.h>
#include <uapi/linux/perfprobe.h>

struct sk_buff;
struct seq_file;

struct pp_stat {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 hist[PERFPROBE_HIST_BUCKETS];
};

/* bucket 0: v == 0; bucket k: 2^(k-1) <= v < 2^k; last bucket: the rest */
static inline unsigned int pp_hist_bucket(u64 v)
{
	unsigned int b = fls64(v);

	return b < PERFPROBE_HIST_BUCKETS ? b : PERFPROBE_HIST_BUCKETS - 1;
}

static inline void pp_stat_add(struct pp_stat *s, u64 v)
{
	if (!s->count || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->count++;
	s->sum += v;
	s->hist[pp_hist_bucket(v)]++;
}

static inline u64 pp_stat_mean(const struct pp_stat *s)
{
	return s->count ? div64_u64(s->sum, s->count) : 0;
}

void pp_stat_merge(struct pp_stat *dst, const struct pp_stat *src);
int pp_stat_nl_put(struct sk_buff *skb, int attrtype, const struct pp_stat *s);
void pp_stat_seq_show(struct seq_file *m, const char *name,
		      const struct pp_stat *s, bool hist);

#endif /* _PERFPROBE_STATS_H */
