// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: time copy_from_user()/copy_to_user()/clear_user() on the
 * caller's own buffer.
 *
 * Every number comes from userspace and is checked here or by the netlink
 * policy: size, offset and iterations are capped, offset + size must fit
 * in the declared buffer, the buffer must pass access_ok(), and the kernel
 * buffer (offset + size bytes, at most 64 MiB + 4 KiB) is allocated once
 * per request without warnings.  Any fault is -EFAULT, never a short copy.
 *
 * The family runs requests in parallel (parallel_ops), so the kernel
 * buffers of all running requests together are capped by a module-wide
 * budget, PERFPROBE_COPY_MAX_INFLIGHT_BYTES: a request that does not fit
 * is refused with -EBUSY before it allocates anything.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "perfprobe.h"

#define PP_RESCHED_CHUNK	SZ_1M

/* Bytes of kernel buffer reserved by the COPY requests running now. */
static atomic64_t pp_copy_reserved = ATOMIC64_INIT(0);

/* Reserve bytes of the budget, all or nothing. */
static bool pp_copy_reserve(u64 bytes)
{
	s64 old = atomic64_read(&pp_copy_reserved);

	do {
		if (bytes > PERFPROBE_COPY_MAX_INFLIGHT_BYTES - old)
			return false;
	} while (!atomic64_try_cmpxchg(&pp_copy_reserved, &old, old + bytes));
	return true;
}

static void pp_copy_unreserve(u64 bytes)
{
	atomic64_sub(bytes, &pp_copy_reserved);
}

u64 pp_copy_inflight(void)
{
	return atomic64_read(&pp_copy_reserved);
}

static void pp_fill_pattern(u8 *p, size_t size)
{
	size_t j;

	for (j = 0; j < size; j++) {
		p[j] = PERFPROBE_COPY_PATTERN(j);
		if (!(j & (PP_RESCHED_CHUNK - 1)))
			cond_resched();
	}
}

static u64 pp_fnv1a64(const u8 *p, size_t size)
{
	u64 h = PERFPROBE_FNV1A64_OFFSET;
	size_t j;

	for (j = 0; j < size; j++) {
		h ^= p[j];
		h *= PERFPROBE_FNV1A64_PRIME;
		if (!(j & (PP_RESCHED_CHUNK - 1)))
			cond_resched();
	}
	return h;
}

static unsigned long pp_copy_once(const struct pp_copy_req *req, void *kbuf,
				  void __user *ubuf)
{
	switch (req->dir) {
	case PERFPROBE_COPY_FROM_USER:
		return copy_from_user(kbuf, ubuf, req->size);
	case PERFPROBE_COPY_TO_USER:
		return copy_to_user(ubuf, kbuf, req->size);
	default:
		return clear_user(ubuf, req->size);
	}
}

/* The request within its bounds (the policy already bounded size, offset and iterations). */
static int pp_copy_check(const struct pp_copy_req *req, struct netlink_ext_ack *extack)
{
	if (req->dir > PERFPROBE_COPY_DIR_MAX || !req->size ||
	    req->size > PERFPROBE_COPY_MAX_SIZE ||
	    req->offset > PERFPROBE_COPY_MAX_OFFSET || !req->iterations ||
	    req->iterations > PERFPROBE_COPY_MAX_ITERATIONS) {
		NL_SET_ERR_MSG(extack, "copy parameter out of range");
		return -EINVAL;
	}
	if (req->size * req->iterations > PERFPROBE_COPY_MAX_TOTAL_BYTES) {
		NL_SET_ERR_MSG(extack, "size * iterations exceeds the per-call cap");
		return -EINVAL;
	}
	if (req->buflen < req->offset + req->size) {
		NL_SET_ERR_MSG(extack, "offset + size exceeds the buffer length");
		return -EINVAL;
	}
	if (!req->addr || req->addr != (unsigned long)req->addr) {
		NL_SET_ERR_MSG(extack, "invalid user address");
		return -EFAULT;
	}
	if (req->buflen != (unsigned long)req->buflen ||
	    !access_ok(u64_to_user_ptr(req->addr), req->buflen)) {
		NL_SET_ERR_MSG(extack, "buffer is not a user address range");
		return -EFAULT;
	}
	return 0;
}

/* The copies, timed: req->iterations of them, or as many as fit the time cap. */
static int pp_copy_loop(struct pp_copy_req *req, void *kbuf, void __user *ubuf,
			struct netlink_ext_ack *extack)
{
	u64 start, now;
	u32 i;

	req->done = 0;
	start = ktime_get_ns();
	now = start;
	for (i = 0; i < req->iterations; i++) {
		if (pp_copy_once(req, kbuf, ubuf)) {
			NL_SET_ERR_MSG(extack, "user buffer faulted during the copy");
			return -EFAULT;
		}
		req->done++;
		now = ktime_get_ns();
		if (now - start >= PERFPROBE_COPY_MAX_DURATION_NS)
			break;
		if (fatal_signal_pending(current)) {
			NL_SET_ERR_MSG(extack, "interrupted by a fatal signal");
			return -EINTR;
		}
		cond_resched();
	}
	req->total_ns = now - start;
	return 0;
}

int pp_copy_run(struct pp_copy_req *req, struct netlink_ext_ack *extack)
{
	void __user *ubuf;
	void *kbuf;
	u64 len;
	int err;

	err = pp_copy_check(req, extack);
	if (err)
		return err;
	ubuf = u64_to_user_ptr(req->addr);
	ubuf += req->offset;

	len = req->offset + req->size;
	if (!pp_copy_reserve(len)) {
		NL_SET_ERR_MSG(extack,
			       "concurrent COPY requests use the module's buffer budget, retry later");
		return -EBUSY;
	}
	kbuf = kvmalloc(len, GFP_KERNEL | __GFP_NOWARN);
	if (!kbuf) {
		NL_SET_ERR_MSG(extack, "cannot allocate the kernel buffer");
		err = -ENOMEM;
		goto unreserve;
	}
	if (req->dir == PERFPROBE_COPY_TO_USER)
		pp_fill_pattern(kbuf + req->offset, req->size);

	err = pp_copy_loop(req, kbuf + req->offset, ubuf, extack);
	if (!err && req->dir == PERFPROBE_COPY_FROM_USER)
		req->checksum = pp_fnv1a64(kbuf + req->offset, req->size);

	kvfree(kbuf);
unreserve:
	pp_copy_unreserve(len);
	return err;
}
