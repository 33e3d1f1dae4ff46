// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/perfprobe.yaml */
/* by scripts/genl-gen.py (make genl-gen): the per-op policies and the op table */

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/perfprobe.h>

#include "genl-gen.h"

/* Integer value ranges */
static struct netlink_range_validation perfprobe_a_timer_period_ns_range = {
	.min = PERFPROBE_TIMER_MIN_PERIOD_NS,
	.max = PERFPROBE_TIMER_MAX_PERIOD_NS,
};

static struct netlink_range_validation perfprobe_a_timer_count_range = {
	.min = 1,
	.max = PERFPROBE_TIMER_MAX_COUNT,
};

static struct netlink_range_validation perfprobe_a_copy_size_range = {
	.min = 1,
	.max = PERFPROBE_COPY_MAX_SIZE,
};

static struct netlink_range_validation perfprobe_a_copy_iterations_range = {
	.min = 1,
	.max = PERFPROBE_COPY_MAX_ITERATIONS,
};

/* PERFPROBE_CMD_TIMER - do */
const struct nla_policy perfprobe_timer_nl_policy[PERFPROBE_A_TIMER_COUNT + 1] = {
	[PERFPROBE_A_TIMER_PERIOD_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &perfprobe_a_timer_period_ns_range),
	[PERFPROBE_A_TIMER_COUNT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &perfprobe_a_timer_count_range),
};

/* PERFPROBE_CMD_COPY - do */
const struct nla_policy perfprobe_copy_nl_policy[PERFPROBE_A_COPY_ITERATIONS + 1] = {
	[PERFPROBE_A_COPY_DIR] =
		NLA_POLICY_MAX(NLA_U32, PERFPROBE_COPY_CLEAR_USER),
	[PERFPROBE_A_COPY_ADDR] = { .type = NLA_U64, },
	[PERFPROBE_A_COPY_BUFLEN] = { .type = NLA_U64, },
	[PERFPROBE_A_COPY_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &perfprobe_a_copy_size_range),
	[PERFPROBE_A_COPY_OFFSET] =
		NLA_POLICY_MAX(NLA_U64, PERFPROBE_COPY_MAX_OFFSET),
	[PERFPROBE_A_COPY_ITERATIONS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &perfprobe_a_copy_iterations_range),
};

/* PERFPROBE_CMD_TRACE_START - do */
const struct nla_policy perfprobe_trace_start_nl_policy[PERFPROBE_A_TRACE_FEATURES + 1] = {
	[PERFPROBE_A_TRACE_TGID] = NLA_POLICY_MIN(NLA_U32, 1),
	[PERFPROBE_A_TRACE_FEATURES] = NLA_POLICY_MASK(NLA_U32, 0x1f),
};

/* Ops table for perfprobe */
const struct genl_ops perfprobe_nl_ops[6] = {
	{
		.cmd		= PERFPROBE_CMD_GET_INFO,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_get_info_doit,
	},
	{
		.cmd		= PERFPROBE_CMD_TIMER,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_timer_doit,
		.policy		= perfprobe_timer_nl_policy,
		.maxattr	= PERFPROBE_A_TIMER_COUNT,
	},
	{
		.cmd		= PERFPROBE_CMD_COPY,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_copy_doit,
		.policy		= perfprobe_copy_nl_policy,
		.maxattr	= PERFPROBE_A_COPY_ITERATIONS,
	},
	{
		.cmd		= PERFPROBE_CMD_TRACE_START,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_trace_start_doit,
		.policy		= perfprobe_trace_start_nl_policy,
		.maxattr	= PERFPROBE_A_TRACE_FEATURES,
	},
	{
		.cmd		= PERFPROBE_CMD_TRACE_STOP,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_trace_stop_doit,
	},
	{
		.cmd		= PERFPROBE_CMD_TRACE_GET,
		.flags		= GENL_ADMIN_PERM,
		.doit		= perfprobe_nl_trace_get_doit,
		.dumpit		= perfprobe_nl_trace_get_dumpit,
	},
};
