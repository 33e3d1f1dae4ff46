/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppnl: the generic netlink session with perfprobe.ko (libnl-genl-3).
 *
 * One request at a time: ppnl_*() send a request, read every reply up to
 * and including the ACK (doit) or NLMSG_DONE (dump), and return 0 or a
 * negative errno.  A kernel error keeps its errno and the extended ACK
 * message in the session; ppnl_perror() prints both on one line.  A
 * request that fails because perfprobe.ko was removed (the core answers
 * -ENOENT for a family id that no longer exists) sets s->gone.  The
 * ABI is include/uapi/linux/perfprobe.h; Documentation/kmod-tools.rst.
 */
#ifndef PP_PPNL_H
#define PP_PPNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/perfprobe.h"

struct nl_sock;
struct nlmsghdr;
struct nlattr;

#define PPNL_MSG_MAX		256
#define PPNL_MAX_COPY_SYMS	16
#define PPNL_STR_MAX		64

/* The line printed (exit code 4) when the family is not registered. */
#define PPNL_NOT_LOADED \
	"kernel module not loaded: load it with: insmod kmod/perfprobe.ko (build it with: make kmod)"

/* Appended to a bare -EPERM (Documentation/kmod.rst, privileges). */
#define PPNL_PRIVS \
	"perfprobe.ko needs CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN): run as root"

struct ppnl {
	struct nl_sock *sk;
	int family;
	int err;			/* errno of the last kernel error */
	char msg[PPNL_MSG_MAX];		/* its extack message, or "" (or a
					 * hint of ours: then err is 0) */
	bool gone;			/* the family vanished: module unloaded */
	bool tracing;			/* TRACE_START done, no TRACE_STOP yet */
	int timeout_ms;			/* per request; 0: wait for ever */
	unsigned long stale;		/* replies to earlier requests skipped */
};

/*
 * The whole answer to one request, as ppnl_xfer() collects it: the tools'
 * requests are built on it, and the VM tests use it to check the module's
 * replies to requests of their own making (Documentation/vmtest.rst).
 */
#define PPNL_E_TIMEOUT	(-100000)	/* no complete answer in timeout_ms */
#define PPNL_E_LOCAL	(-100001)	/* send, receive or poll failed */
#define PPNL_E_PARSE	(-100002)	/* a malformed NLMSG_ERROR */

struct ppnl_reply {
	int err;		/* 0, the kernel's -errno, or PPNL_E_* */
	char msg[PPNL_MSG_MAX];	/* extack message, or a local error's text */
	bool has_msg;		/* msg came from the kernel */
	bool has_offs;		/* NLMSGERR_ATTR_OFFS: the offending attribute */
	uint32_t offs;
	bool has_miss;		/* NLMSGERR_ATTR_MISS_TYPE: a required one */
	uint32_t miss_type;
	unsigned int nmsgs;	/* data messages received */
	int cb_err;		/* the first error the callback returned */
};

typedef int (*ppnl_cb)(struct nlmsghdr *hdr, void *arg);
struct nl_msg;

struct ppnl_info {
	uint32_t abi_version;
	char module_version[PPNL_STR_MAX];
	char clocksource[PPNL_STR_MAX];	/* from sysfs, not from the module */
	uint64_t clock_res_ns;
	uint64_t ktime_cost_ps;
	uint64_t cycles_cost_ps;
	uint64_t cycles_khz;
	uint32_t cycles_calib;		/* enum perfprobe_cycles_calib */
	uint32_t caps;			/* enum perfprobe_caps */
	uint32_t syscall_max;
	unsigned int ncopy_syms;
	char copy_syms[PPNL_MAX_COPY_SYMS][PPNL_STR_MAX];
	char copy_reason[PPNL_MSG_MAX];
	char pgfault_reason[PPNL_MSG_MAX];
	bool trace_active;
	uint32_t trace_tgid;
};

struct ppnl_stats {
	bool present;
	uint64_t count, sum_ns, min_ns, max_ns, mean_ns;
	uint64_t hist[PERFPROBE_HIST_BUCKETS];
};

struct ppnl_timer {
	uint64_t period_ns;
	uint32_t count;
	struct ppnl_stats late;
};

struct ppnl_copy {
	/* request */
	uint32_t dir;			/* enum perfprobe_copy_dir */
	uint64_t addr, buflen, size, offset;
	uint32_t iterations;
	/* reply */
	uint32_t done;
	uint64_t total_ns, bytes, checksum;
	bool has_checksum;
};

struct ppnl_sys {
	uint32_t nr;
	struct ppnl_stats st;
	uint64_t ucopy_calls, ucopy_bytes;
};

struct ppnl_trace {
	bool have_summary;
	bool active;
	uint32_t tgid, features;
	uint64_t duration_ns, dropped, ucopy_calls, ucopy_bytes;
	bool have_pgfault;		/* the PGFAULT nest was there */
	struct ppnl_stats pf_minor, pf_major;
	uint64_t pf_retry, pf_error, pf_missed, pf_tp;
	struct ppnl_sys *sys;		/* ascending nr, count > 0 */
	size_t nsys, cap;
};

/*
 * Connect and resolve the family: 0, -ENOENT when perfprobe.ko is not
 * loaded (the family does not exist), another negative errno otherwise.
 */
int ppnl_open(struct ppnl *s);
void ppnl_close(struct ppnl *s);

/*
 * ppnl_open() + GET_INFO + ABI check: -EPROTO when the module speaks
 * another ABI version (s->msg says which way).
 */
int ppnl_connect(struct ppnl *s, struct ppnl_info *info);

int ppnl_get_info(struct ppnl *s, struct ppnl_info *info);
int ppnl_timer(struct ppnl *s, uint64_t period_ns, uint32_t count,
	       struct ppnl_timer *t);
int ppnl_copy(struct ppnl *s, struct ppnl_copy *c);
int ppnl_trace_start(struct ppnl *s, uint32_t tgid, uint32_t features,
		     uint32_t *enabled);
int ppnl_trace_stop(struct ppnl *s);
/* TRACE_GET as a dump: the summary and every syscall. */
int ppnl_trace_get(struct ppnl *s, struct ppnl_trace *t);
void ppnl_trace_free(struct ppnl_trace *t);

/*
 * "perfprobe: <what>: <strerror(-err)>[: kernel reports: <msg>]", or
 * "perfprobe: <what>: perfprobe.ko was unloaded[ during the trace]" when
 * the family went away under the session (s->gone).
 */
void ppnl_perror(const struct ppnl *s, const char *what, int err);
/* The same reason without the prefixes, for a caller's own message. */
void ppnl_strerror(const struct ppnl *s, int err, char *buf, size_t size);

/*
 * A request of the family with its generic netlink header; NULL when out
 * of memory.  ppnl_xfer() sends it (consumed) with NLM_F_ACK and reads
 * up to its ACK, error or NLMSG_DONE, calling cb for each data message;
 * answers to other sequence numbers are skipped (s->stale).
 * ppnl_xfer_raw() sends a message made by hand (buf starts with its
 * nlmsghdr; the sequence number is set here).  Both return r->err.
 */
struct nl_msg *ppnl_msg(struct ppnl *s, uint8_t cmd, int flags);
int ppnl_xfer(struct ppnl *s, struct nl_msg *msg, ppnl_cb cb, void *arg,
	      struct ppnl_reply *r);
int ppnl_xfer_raw(struct ppnl *s, void *buf, size_t len, ppnl_cb cb,
		  void *arg, struct ppnl_reply *r);

/* --- message parsing, exposed for the unit tests --- */

/* The extended ACK of an NLMSG_ERROR or NLMSG_DONE message into r. */
void ppnl_parse_ack(const struct nlmsghdr *hdr, struct ppnl_reply *r);
/* TRACE_START's answer: the features the module enabled. */
int ppnl_parse_start(struct nlmsghdr *hdr, uint32_t *features);

/* The extack message of an NLMSG_ERROR or NLMSG_DONE message, or "". */
void ppnl_parse_extack(const struct nlmsghdr *hdr, char *buf, size_t size);
int ppnl_parse_stats(struct nlattr *nest, struct ppnl_stats *st);
int ppnl_parse_info(struct nlmsghdr *hdr, struct ppnl_info *info);
int ppnl_parse_timer(struct nlmsghdr *hdr, struct ppnl_timer *t);
int ppnl_parse_copy(struct nlmsghdr *hdr, struct ppnl_copy *c);
/* One message of a TRACE_GET dump (summary or SYSCALL nests). */
int ppnl_parse_trace(struct nlmsghdr *hdr, struct ppnl_trace *t);

/* 64-bit FNV-1a as the module computes PERFPROBE_A_COPY_CHECKSUM. */
uint64_t ppnl_fnv1a64(const void *buf, size_t size);

/* Syscall names of this architecture (generated from <asm/unistd.h>). */
const char *ppnl_syscall_name(uint32_t nr);
int ppnl_syscall_nr(const char *name);		/* -1 if unknown */

#endif /* PP_PPNL_H */
