/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pp-vmtest - perfprobe.ko's tests inside the QEMU guest (scripts/vmtest.sh).
 *
 * One file per command group; every request goes through the tools' own
 * netlink client (tools/perfprobe/kernel/ppnl.c: ppnl_xfer() and its
 * parsers), and every result line through tests/lib/tap.h.  What each
 * command checks: Documentation/vmtest.rst.
 */
#ifndef PP_VMTEST_H
#define PP_VMTEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/userfaultfd.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "kernel/ppnl.h"
#include "tap.h"

#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED	0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS	0x200
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE	15
#endif

#define KERNEL_ADDR	0xffffffff81000000ULL
#define PAGE		4096UL

extern char **environ;

/* --- the commands (main.c's table) --- */

int cmd_info(int argc, char **argv);
int cmd_timer(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_bad(int argc, char **argv);
int cmd_trace_syscalls(int argc, char **argv);
int cmd_trace_faults(int argc, char **argv);
int cmd_touch_child(int argc, char **argv);
int cmd_privs(int argc, char **argv);
int cmd_copy_budget(int argc, char **argv);
int cmd_concurrent(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_trace_hold(int argc, char **argv);
int cmd_fault_storm(int argc, char **argv);
int cmd_rmmod_race(int argc, char **argv);

/* --- requests (lib.c), on ppnl --- */

/* ppnl_open() with the tests' 30 s answer timeout. */
int pp_open(struct ppnl *p);
/* ppnl_open(), or a failed check saying why: 0 or -1. */
int open_or_fail(struct ppnl *p);
/* A request to fill; exits when out of memory. */
struct nl_msg *pp_msg(struct ppnl *p, int cmd, int flags);
/* The kernel said why: an extack message or a missing attribute. */
bool has_ext(const struct ppnl_reply *r);
/* That reason in words (or the local error's text). */
const char *ext_text(struct ppnl_reply *r);
const char *errname(int err);
/* A diagnostic line for a finished request that did not simply succeed. */
void report(const char *what, struct ppnl_reply *r);

/* The replies, as the checks read them (filled by ppnl's parsers). */
struct info {
	bool got;
	uint32_t abi;
	char modver[PPNL_STR_MAX];
	char copy_reason[PPNL_MSG_MAX], pgfault_reason[PPNL_MSG_MAX];
	uint32_t caps, syscall_max, cycles_calib;
	uint64_t clock_res, ktime_cost, cycles_cost, cycles_khz;
	int ncopy;
	char copy_syms[256];
	bool trace_active;
	uint32_t trace_tgid;
};

struct copy_req {
	uint32_t dir;
	uint64_t addr, buflen, size;
	int64_t offset;		/* < 0: omitted */
	int64_t iters;		/* < 0: omitted */
};

struct copy_res {
	bool got, has_checksum;
	uint32_t dir, iters;
	uint64_t size, offset, bytes, checksum, total_ns;
};

struct stats {
	bool present, hist_ok;
	uint64_t count, sum, min, max, mean, histsum;
	int nbuckets;
};

struct sc_entry {
	uint32_t nr;
	struct stats st;
	uint64_t ucopy_calls, ucopy_bytes;
};

struct trace {
	bool got_summary;
	bool active;
	uint32_t tgid, features;
	uint64_t duration, dropped, ucopy_calls, ucopy_bytes;
	bool has_pgfault;
	struct stats minor, major;
	uint64_t retry, error, missed, tp_count;
	int nsc;
	struct sc_entry sc[1024];
	int bad;		/* malformed parts */
};

struct timer_res {
	bool got;
	uint64_t period;
	uint32_t count;
	struct stats st;
};

int pp_get_info(struct ppnl *p, struct info *in, struct ppnl_reply *r);
int pp_copy(struct ppnl *p, const struct copy_req *q, struct copy_res *c,
	    struct ppnl_reply *r);
int pp_trace_start(struct ppnl *p, uint32_t tgid, int64_t features,
		   uint32_t *enabled, struct ppnl_reply *r);
int pp_trace_stop(struct ppnl *p, struct ppnl_reply *r);
int pp_trace_get(struct ppnl *p, bool dump, struct trace *t,
		 struct ppnl_reply *r);
int pp_timer(struct ppnl *p, uint64_t period, uint32_t count,
	     struct timer_res *t, struct ppnl_reply *r);
const struct sc_entry *find_sc(const struct trace *t, uint32_t nr);
/* Internal consistency of a stats nest: NULL or what is wrong. */
const char *stats_bad(const struct stats *s);

/* --- requests of the tests' own making (bad.c) --- */

struct aspec {
	int type;		/* may include NLA_F_NESTED etc. */
	int len;		/* payload length */
	uint64_t val;		/* value for len 1/2/4/8 (little endian) */
};

#define A(t, l, v)	{ (t), (l), (uint64_t)(v) }
#define END		{ -1, 0, 0 }

/* A request with these attributes, as given (no policy of ours). */
struct nl_msg *build(struct ppnl *p, int cmd, int flags, const struct aspec *a);
/*
 * One check: the request gets expect (0 success, < 0 that error, 1 any
 * error, EXP_RANGE -ERANGE), with an extack message unless ext_optional.
 */
int expect_case(struct ppnl *p, const char *name, int cmd, int flags,
		const struct aspec *attrs, int expect, bool ext_optional);

/* --- copies (copy.c) --- */

#define CANARY		0xa5	/* what surrounds a region to copy */

bool bytes_are(const uint8_t *d, size_t n, uint8_t v, size_t *bad);
/*
 * One COPY checked end to end; placement 0: the region starts the
 * buffer, 1: it ends right before a PROT_NONE page.  NULL, or what went
 * wrong (static storage).
 */
const char *copy_case(struct ppnl *p, uint8_t *buf, size_t buflen_all,
		      uint32_t dir, size_t size, size_t off, int placement,
		      uint32_t iters, struct ppnl_reply *r);

/* --- helpers (lib.c) --- */

extern uint64_t rng_state;	/* xorshift64*; seeded by fuzz -s */

int64_t now_ns(void);
void sleep_ms(int ms);
uint64_t rnd(void);
uint64_t rnd_below(uint64_t n);
void fill_random(uint8_t *d, size_t n);
/* len bytes, read-write, between two PROT_NONE guard pages */
uint8_t *map_guarded(size_t len);
bool have_cap(int cap);
/* The module's model: CAP_NET_ADMIN and (CAP_PERFMON or CAP_SYS_ADMIN). */
bool privileged(void);
/* keep_caps: bit n keeps capability n */
int drop_privs(uid_t uid, gid_t gid, uint64_t keep_caps);
const char *self_exe(void);

#endif /* PP_VMTEST_H */
