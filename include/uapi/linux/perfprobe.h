/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfprobe: generic netlink ABI of the perfprobe measurement module.
 *
 * Family name PERFPROBE_GENL_NAME ("perfprobe"), version
 * PERFPROBE_GENL_VERSION.  All requests are validated strictly: unknown
 * attributes, attributes of the wrong size/type, a missing required
 * attribute and non-zero reserved header fields are rejected with -EINVAL;
 * a single attribute outside its documented range is rejected by the
 * policy with -ERANGE ("integer out of range", with the attribute offset);
 * a combination over a cap (period * count, size * iterations,
 * offset + size > buflen) is -EINVAL.
 * Every error the module raises carries an extack message (set
 * NETLINK_EXT_ACK on the socket to receive it).
 *
 * Privileges: every command (doit and dump) needs CAP_NET_ADMIN and one of
 * CAP_PERFMON or CAP_SYS_ADMIN, all in the initial user namespace, held by
 * both the process that opened the socket and the sender.  CAP_NET_ADMIN
 * is checked by the generic netlink core (GENL_ADMIN_PERM) before any
 * attribute is parsed, so a caller without it gets a bare -EPERM whatever
 * the request contains; CAP_PERFMON/CAP_SYS_ADMIN is checked by the module
 * once the request is validated (-EPERM with an extack message).  See
 * Documentation/kmod.rst.
 *
 * The machine-readable description of this ABI is
 * Documentation/netlink/specs/perfprobe.yaml; the module's policies and op
 * table are generated from it (`make genl-gen`) and `make check-spec`
 * checks this header against it.
 *
 * All u64 attributes are 64-bit aligned with PERFPROBE_A_PAD (kernel side
 * nla_put_u64_64bit()); userspace must skip PAD attributes.  Times are in
 * nanoseconds of ktime_get_ns() (CLOCK_MONOTONIC) unless stated otherwise.
 *
 * Commands (request attributes -> reply attributes):
 *
 * PERFPROBE_CMD_GET_INFO (doit)
 *   request: none
 *   reply:   ABI_VERSION, MODULE_VERSION, CLOCK_RES_NS,
 *            KTIME_COST_PS, CYCLES_COST_PS, CYCLES_KHZ, CYCLES_CALIB,
 *            CAPS, SYSCALL_MAX, COPY_SYMBOL (0..n, one per probeable
 *            user-copy routine), COPY_REASON (only when none is probeable),
 *            PGFAULT_REASON (only when PERFPROBE_CAP_PGFAULT_KRETPROBE is
 *            missing), TRACE_ACTIVE, TRACE_TGID (only while tracing)
 *
 * PERFPROBE_CMD_TIMER (doit)
 *   request: TIMER_PERIOD_NS (u64, required,
 *            [PERFPROBE_TIMER_MIN_PERIOD_NS, PERFPROBE_TIMER_MAX_PERIOD_NS]),
 *            TIMER_COUNT (u32, required, [1, PERFPROBE_TIMER_MAX_COUNT]);
 *            period * count must be <= PERFPROBE_TIMER_MAX_TOTAL_NS.
 *   reply:   TIMER_PERIOD_NS, TIMER_COUNT (expiries measured),
 *            STATS (nest, perfprobe_stats_attrs: lateness of each hrtimer
 *            expiry = actual expiry time - programmed expiry time).
 *   A fatal signal aborts the run with -EINTR.
 *
 * PERFPROBE_CMD_COPY (doit)
 *   request: COPY_DIR (u32, enum perfprobe_copy_dir, required),
 *            COPY_ADDR (u64 user address of the caller's buffer, required),
 *            COPY_BUFLEN (u64 length of that buffer, required),
 *            COPY_SIZE (u64 bytes per copy, required,
 *            [1, PERFPROBE_COPY_MAX_SIZE]),
 *            COPY_OFFSET (u64, optional, default 0,
 *            [0, PERFPROBE_COPY_MAX_OFFSET]),
 *            COPY_ITERATIONS (u32, optional, default 1,
 *            [1, PERFPROBE_COPY_MAX_ITERATIONS]).
 *            offset + size must be <= buflen; size * iterations must be
 *            <= PERFPROBE_COPY_MAX_TOTAL_BYTES.
 *            Each iteration copies `size` bytes between
 *            (COPY_ADDR + offset) and (kernel buffer + offset), so both
 *            sides have the same misalignment.
 *   reply:   COPY_DIR, COPY_SIZE, COPY_OFFSET,
 *            COPY_ITERATIONS (iterations actually done: the loop stops
 *            early once it has run PERFPROBE_COPY_MAX_DURATION_NS),
 *            COPY_TOTAL_NS (ktime around the whole loop),
 *            COPY_BYTES (size * iterations done),
 *            COPY_CHECKSUM (FROM_USER only: 64-bit FNV-1a of the `size`
 *            bytes copied in by the last iteration, see
 *            PERFPROBE_FNV1A64_OFFSET/PRIME).
 *   The kernel buffer (offset + size bytes) counts against a module-wide
 *   budget of PERFPROBE_COPY_MAX_INFLIGHT_BYTES shared by all COPY
 *   requests running at the same time: a request that would exceed it is
 *   refused with -EBUSY before anything is allocated or copied (retry
 *   once the others are done; a lone request always fits).
 *   TO_USER writes PERFPROBE_COPY_PATTERN(j) to byte j of the destination
 *   (j = 0 .. size - 1, counted from COPY_ADDR + offset); CLEAR_USER
 *   writes zeros.  A fault (unmapped/read-only memory, kernel address,
 *   NULL) is reported as -EFAULT, never as a short copy.  A fatal signal
 *   aborts with -EINTR.
 *
 * PERFPROBE_CMD_TRACE_START (doit)
 *   request: TRACE_TGID (u32, required, thread group id in the caller's
 *            pid namespace), TRACE_FEATURES (u32, optional, bitmap of
 *            PERFPROBE_CAP_SYSCALL_TRACE | PERFPROBE_CAP_PGFAULT_KRETPROBE |
 *            PERFPROBE_CAP_PGFAULT_TP | PERFPROBE_CAP_COPY_KPROBES;
 *            default = every available one; asking for an unavailable
 *            feature, or a PERFPROBE_CAP_* bit that is not a trace
 *            feature, is -EOPNOTSUPP; an unknown bit is -EINVAL).
 *   reply:   TRACE_TGID, TRACE_FEATURES (what was actually enabled).
 *   Only one trace at a time: -EBUSY if a trace is active.  Starting a
 *   trace clears the previous results.  The trace owner is the netlink
 *   socket (portid) that started it; it is stopped automatically when
 *   that socket is closed.
 *
 * PERFPROBE_CMD_TRACE_STOP (doit)
 *   request: none
 *   reply:   none (plain ACK).  -ENOENT if no trace is active, -EBUSY if
 *            the caller's socket is not the trace owner.  Results stay
 *            readable with TRACE_GET until the next TRACE_START.
 *
 * PERFPROBE_CMD_TRACE_GET (doit or dump)
 *   request: none
 *   doit reply: the summary attributes below.
 *   dump (NLM_F_DUMP): first message = the summary attributes; then
 *            messages carrying one or more SYSCALL nests (only syscalls
 *            with count > 0, ascending syscall number).
 *   summary: TRACE_ACTIVE (u8), TRACE_TGID, TRACE_FEATURES,
 *            TRACE_DURATION_NS, TRACE_DROPPED, PGFAULT (nest,
 *            perfprobe_pgfault_attrs), UCOPY_CALLS, UCOPY_BYTES.
 *   -ENOENT if no trace was ever started.
 *
 * Histograms (STATS_A_HIST) are log2 buckets of nanoseconds: bucket 0
 * holds the value 0, bucket k (1 <= k <= 63) holds 2^(k-1) <= v < 2^k;
 * bucket 63 also holds every larger value.  Only non-empty buckets are
 * sent.
 */
#ifndef _UAPI_LINUX_PERFPROBE_H
#define _UAPI_LINUX_PERFPROBE_H

#include <linux/types.h>

#define PERFPROBE_GENL_NAME		"perfprobe"
#define PERFPROBE_GENL_VERSION		1

/* Limits enforced by the module (see the error codes above). */
#define PERFPROBE_TIMER_MIN_PERIOD_NS	1000ULL			/* 1 us */
#define PERFPROBE_TIMER_MAX_PERIOD_NS	1000000000ULL		/* 1 s */
#define PERFPROBE_TIMER_MAX_COUNT	100000U
#define PERFPROBE_TIMER_MAX_TOTAL_NS	1000000000ULL		/* 1 s */

#define PERFPROBE_COPY_MAX_SIZE		(64ULL << 20)		/* 64 MiB */
#define PERFPROBE_COPY_MAX_OFFSET	4096ULL
#define PERFPROBE_COPY_MAX_ITERATIONS	1000000U
#define PERFPROBE_COPY_MAX_TOTAL_BYTES	(16ULL << 30)		/* 16 GiB */
/* The copy loop stops after the iteration that crosses this much time. */
#define PERFPROBE_COPY_MAX_DURATION_NS	1000000000ULL		/* 1 s */
/*
 * Kernel buffers of all concurrent COPY requests together: two requests of
 * the maximal size and offset fit, a third one does not (128 MiB + 8 KiB).
 */
#define PERFPROBE_COPY_MAX_INFLIGHT_BYTES \
	(2 * (PERFPROBE_COPY_MAX_SIZE + PERFPROBE_COPY_MAX_OFFSET))

#define PERFPROBE_HIST_BUCKETS		64

/* Byte j of a PERFPROBE_COPY_TO_USER destination. */
#define PERFPROBE_COPY_PATTERN(j)	((__u8)(((j) * 131 + 7) & 0xff))

/* 64-bit FNV-1a used for PERFPROBE_A_COPY_CHECKSUM:
 * h = OFFSET; for each byte b: h ^= b; h *= PRIME (mod 2^64).
 */
#define PERFPROBE_FNV1A64_OFFSET	0xcbf29ce484222325ULL
#define PERFPROBE_FNV1A64_PRIME		0x00000100000001b3ULL

enum perfprobe_cmd {
	PERFPROBE_CMD_UNSPEC,
	PERFPROBE_CMD_GET_INFO,
	PERFPROBE_CMD_TIMER,
	PERFPROBE_CMD_COPY,
	PERFPROBE_CMD_TRACE_START,
	PERFPROBE_CMD_TRACE_STOP,
	PERFPROBE_CMD_TRACE_GET,

	__PERFPROBE_CMD_MAX,
	PERFPROBE_CMD_MAX = __PERFPROBE_CMD_MAX - 1
};

enum perfprobe_copy_dir {
	PERFPROBE_COPY_FROM_USER,	/* copy_from_user(kbuf, ubuf, size) */
	PERFPROBE_COPY_TO_USER,		/* copy_to_user(ubuf, kbuf, size) */
	PERFPROBE_COPY_CLEAR_USER,	/* clear_user(ubuf, size) */

	__PERFPROBE_COPY_DIR_MAX,
	PERFPROBE_COPY_DIR_MAX = __PERFPROBE_COPY_DIR_MAX - 1
};

/* PERFPROBE_A_CAPS / PERFPROBE_A_TRACE_FEATURES bits */
enum perfprobe_caps {
	PERFPROBE_CAP_SYSCALL_TRACE	= 1U << 0, /* raw_syscalls tracepoints */
	PERFPROBE_CAP_PGFAULT_KRETPROBE	= 1U << 1, /* handle_mm_fault */
	PERFPROBE_CAP_PGFAULT_TP	= 1U << 2, /* exceptions:page_fault_user */
	PERFPROBE_CAP_COPY_KPROBES	= 1U << 3, /* >= 1 COPY_SYMBOL */
	PERFPROBE_CAP_CYCLE_COUNTER	= 1U << 4, /* get_cycles() is non-zero */
};

/* PERFPROBE_A_CYCLES_CALIB values */
enum perfprobe_cycles_calib {
	PERFPROBE_CYCLES_CALIB_NONE,	 /* no usable cycle counter */
	PERFPROBE_CYCLES_CALIB_TSC_KHZ,	 /* x86 tsc_khz */
	PERFPROBE_CYCLES_CALIB_MEASURED, /* measured against ktime, 10 ms */
};

enum perfprobe_attrs {
	PERFPROBE_A_UNSPEC,
	PERFPROBE_A_PAD,

	/* GET_INFO */
	PERFPROBE_A_ABI_VERSION,	/* u32: PERFPROBE_GENL_VERSION */
	PERFPROBE_A_MODULE_VERSION,	/* string */
	/*
	 * Reserved: modules before 1.1 sent the clocksource name here; it is
	 * no longer sent (read
	 * /sys/devices/system/clocksource/clocksource0/current_clocksource).
	 */
	PERFPROBE_A_CLOCKSOURCE,
	PERFPROBE_A_CLOCK_RES_NS,	/* u64: hrtimer resolution */
	PERFPROBE_A_KTIME_COST_PS,	/* u64: mean ktime_get_ns() cost, ps */
	PERFPROBE_A_CYCLES_COST_PS,	/* u64: mean get_cycles() cost, ps */
	PERFPROBE_A_CYCLES_KHZ,		/* u64: cycle counter kHz (0: none) */
	PERFPROBE_A_CYCLES_CALIB,	/* u32: enum perfprobe_cycles_calib */
	PERFPROBE_A_CAPS,		/* u32: enum perfprobe_caps bitmap */
	PERFPROBE_A_SYSCALL_MAX,	/* u32: syscall numbers are < this */
	PERFPROBE_A_COPY_SYMBOL,	/* string, multi-attr */
	PERFPROBE_A_COPY_REASON,	/* string */
	PERFPROBE_A_PGFAULT_REASON,	/* string */

	/* TIMER */
	PERFPROBE_A_TIMER_PERIOD_NS,	/* u64 */
	PERFPROBE_A_TIMER_COUNT,	/* u32 */
	PERFPROBE_A_STATS,		/* nest: perfprobe_stats_attrs */

	/* COPY */
	PERFPROBE_A_COPY_DIR,		/* u32: enum perfprobe_copy_dir */
	PERFPROBE_A_COPY_ADDR,		/* u64: user virtual address */
	PERFPROBE_A_COPY_BUFLEN,	/* u64 */
	PERFPROBE_A_COPY_SIZE,		/* u64 */
	PERFPROBE_A_COPY_OFFSET,	/* u64 */
	PERFPROBE_A_COPY_ITERATIONS,	/* u32 */
	PERFPROBE_A_COPY_TOTAL_NS,	/* u64 */
	PERFPROBE_A_COPY_BYTES,		/* u64 */
	PERFPROBE_A_COPY_CHECKSUM,	/* u64: FNV-1a 64 */

	/* TRACE_* */
	PERFPROBE_A_TRACE_TGID,		/* u32 (caller's pid namespace) */
	PERFPROBE_A_TRACE_FEATURES,	/* u32: enum perfprobe_caps bitmap */
	PERFPROBE_A_TRACE_ACTIVE,	/* u8: 1 while tracing */
	PERFPROBE_A_TRACE_DURATION_NS,	/* u64: start to stop (or to now) */
	PERFPROBE_A_TRACE_DROPPED,	/* u64: syscalls not timed */
	PERFPROBE_A_PGFAULT,		/* nest: perfprobe_pgfault_attrs */
	PERFPROBE_A_UCOPY_CALLS,	/* u64: copy routine calls, total */
	PERFPROBE_A_UCOPY_BYTES,	/* u64: copy routine bytes, total */
	PERFPROBE_A_SYSCALL,		/* nest: perfprobe_syscall_attrs */

	__PERFPROBE_A_MAX,
	PERFPROBE_A_MAX = __PERFPROBE_A_MAX - 1
};

/* Latency statistics (PERFPROBE_A_STATS and nested users) */
enum perfprobe_stats_attrs {
	PERFPROBE_STATS_A_UNSPEC,
	PERFPROBE_STATS_A_PAD,
	PERFPROBE_STATS_A_COUNT,	/* u64 */
	PERFPROBE_STATS_A_SUM_NS,	/* u64 */
	PERFPROBE_STATS_A_MIN_NS,	/* u64 (0 when count == 0) */
	PERFPROBE_STATS_A_MAX_NS,	/* u64 */
	PERFPROBE_STATS_A_MEAN_NS,	/* u64: sum / count */
	PERFPROBE_STATS_A_HIST,		/* nest: perfprobe_hist_attrs */

	__PERFPROBE_STATS_A_MAX,
	PERFPROBE_STATS_A_MAX = __PERFPROBE_STATS_A_MAX - 1
};

enum perfprobe_hist_attrs {
	PERFPROBE_HIST_A_UNSPEC,
	PERFPROBE_HIST_A_BUCKET,	/* nest: perfprobe_bucket_attrs, multi */

	__PERFPROBE_HIST_A_MAX,
	PERFPROBE_HIST_A_MAX = __PERFPROBE_HIST_A_MAX - 1
};

enum perfprobe_bucket_attrs {
	PERFPROBE_BUCKET_A_UNSPEC,
	PERFPROBE_BUCKET_A_PAD,
	PERFPROBE_BUCKET_A_LOG2,	/* u32: bucket index 0..63 */
	PERFPROBE_BUCKET_A_COUNT,	/* u64 */

	__PERFPROBE_BUCKET_A_MAX,
	PERFPROBE_BUCKET_A_MAX = __PERFPROBE_BUCKET_A_MAX - 1
};

/* One syscall number in a TRACE_GET dump (PERFPROBE_A_SYSCALL) */
enum perfprobe_syscall_attrs {
	PERFPROBE_SYSCALL_A_UNSPEC,
	PERFPROBE_SYSCALL_A_PAD,
	PERFPROBE_SYSCALL_A_NR,		/* u32: native syscall number */
	PERFPROBE_SYSCALL_A_STATS,	/* nest: perfprobe_stats_attrs */
	PERFPROBE_SYSCALL_A_UCOPY_CALLS, /* u64: copy routine calls inside */
	PERFPROBE_SYSCALL_A_UCOPY_BYTES, /* u64: copy routine bytes inside */

	__PERFPROBE_SYSCALL_A_MAX,
	PERFPROBE_SYSCALL_A_MAX = __PERFPROBE_SYSCALL_A_MAX - 1
};

/* Page-fault summary of a trace (PERFPROBE_A_PGFAULT) */
enum perfprobe_pgfault_attrs {
	PERFPROBE_PGFAULT_A_UNSPEC,
	PERFPROBE_PGFAULT_A_PAD,
	PERFPROBE_PGFAULT_A_MINOR,	/* nest: stats of minor faults */
	PERFPROBE_PGFAULT_A_MAJOR,	/* nest: stats of VM_FAULT_MAJOR */
	PERFPROBE_PGFAULT_A_RETRY,	/* u64: VM_FAULT_RETRY/COMPLETED */
	PERFPROBE_PGFAULT_A_ERROR,	/* u64: VM_FAULT_ERROR returns */
	PERFPROBE_PGFAULT_A_MISSED,	/* u64: kretprobe nmissed */
	PERFPROBE_PGFAULT_A_TP_COUNT,	/* u64: page_fault_user events */

	__PERFPROBE_PGFAULT_A_MAX,
	PERFPROBE_PGFAULT_A_MAX = __PERFPROBE_PGFAULT_A_MAX - 1
};

#endif /* _UAPI_LINUX_PERFPROBE_H */
