// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: requests on the tools' netlink client, their replies in the
 * form the checks read, and the helpers the commands share.
 */
#include "vmtest.h"

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

const char *errname(int err)
{
	static char buf[64];

	switch (err) {
	case 0: return "0";
	case PPNL_E_TIMEOUT: return "TIMEOUT(no answer)";
	case PPNL_E_LOCAL: return "LOCAL-ERROR";
	case PPNL_E_PARSE: return "BAD-REPLY";
	case -EPERM: return "-EPERM";
	case -ENOENT: return "-ENOENT";
	case -ESRCH: return "-ESRCH";
	case -EINTR: return "-EINTR";
	case -EFAULT: return "-EFAULT";
	case -EBUSY: return "-EBUSY";
	case -EINVAL: return "-EINVAL";
	case -ERANGE: return "-ERANGE";
	case -E2BIG: return "-E2BIG";
	case -EMSGSIZE: return "-EMSGSIZE";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -EOVERFLOW: return "-EOVERFLOW";
	case -ENOMEM: return "-ENOMEM";
	case -EAGAIN: return "-EAGAIN";
	case -EACCES: return "-EACCES";
	case -ENODEV: return "-ENODEV";
	case -ENOBUFS: return "-ENOBUFS";
	}
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}


/* ------------------------------------------------------------ requests */

int pp_open(struct ppnl *p)
{
	int r = ppnl_open(p);

	p->timeout_ms = 30000;
	return r;
}

int open_or_fail(struct ppnl *p)
{
	int r = pp_open(p);

	if (r) {
		tap_ok(false, "open a generic netlink socket and resolve family '%s': %s",
		       PERFPROBE_GENL_NAME, strerror(-r));
		return -1;
	}
	return 0;
}

struct nl_msg *pp_msg(struct ppnl *p, int cmd, int flags)
{
	struct nl_msg *m = ppnl_msg(p, cmd, flags);

	if (!m) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return m;
}

bool has_ext(const struct ppnl_reply *r)
{
	return r->has_msg || r->has_miss;
}

const char *ext_text(struct ppnl_reply *r)
{
	/* NL_REQ_ATTR_CHECK(): the missing attribute by type, no text */
	if (!r->has_msg && r->has_miss)
		snprintf(r->msg, sizeof(r->msg), "missing attribute type %u",
			 r->miss_type);
	return r->msg;
}

void report(const char *what, struct ppnl_reply *r)
{
	if (r->err == 0 && !has_ext(r))
		return;
	tap_diag("%s: %s%s%s", what, errname(r->err),
		 has_ext(r) ? ", kernel reports: " : "",
		 has_ext(r) ? ext_text(r) :
		 (r->err && r->err > -4096 ? " (no extack message)" : ""));
	if (r->err <= PPNL_E_TIMEOUT && r->msg[0])
		tap_diag("  %s", r->msg);
}

static void stats_from(struct stats *s, const struct ppnl_stats *in, int err)
{
	memset(s, 0, sizeof(*s));
	s->present = in->present;
	s->hist_ok = !err;
	s->count = in->count;
	s->sum = in->sum_ns;
	s->min = in->min_ns;
	s->max = in->max_ns;
	s->mean = in->mean_ns;
	for (int i = 0; i < PERFPROBE_HIST_BUCKETS; i++) {
		s->histsum += in->hist[i];
		s->nbuckets += in->hist[i] != 0;
	}
}

static int info_cb(struct nlmsghdr *h, void *arg)
{
	struct ppnl_info pi;
	struct info *in = arg;
	int err = ppnl_parse_info(h, &pi);

	if (err)
		return PPNL_E_PARSE;
	in->got = true;
	in->abi = pi.abi_version;
	snprintf(in->modver, sizeof(in->modver), "%s", pi.module_version);
	snprintf(in->copy_reason, sizeof(in->copy_reason), "%s", pi.copy_reason);
	snprintf(in->pgfault_reason, sizeof(in->pgfault_reason), "%s",
		 pi.pgfault_reason);
	in->caps = pi.caps;
	in->syscall_max = pi.syscall_max;
	in->cycles_calib = pi.cycles_calib;
	in->clock_res = pi.clock_res_ns;
	in->ktime_cost = pi.ktime_cost_ps;
	in->cycles_cost = pi.cycles_cost_ps;
	in->cycles_khz = pi.cycles_khz;
	in->trace_active = pi.trace_active;
	in->trace_tgid = pi.trace_tgid;
	for (unsigned int i = 0; i < pi.ncopy_syms; i++) {
		size_t l = strlen(in->copy_syms);

		snprintf(in->copy_syms + l, sizeof(in->copy_syms) - l, "%s%s",
			 l ? " " : "", pi.copy_syms[i]);
		in->ncopy++;
	}
	return 0;
}

int pp_get_info(struct ppnl *p, struct info *in, struct ppnl_reply *r)
{
	memset(in, 0, sizeof(*in));
	ppnl_xfer(p, pp_msg(p, PERFPROBE_CMD_GET_INFO, 0), info_cb, in, r);
	if (r->err == 0 && (!in->got || r->cb_err))
		r->err = PPNL_E_PARSE;
	return r->err;
}

struct copy_ctx {
	struct ppnl_copy pc;
	struct copy_res *c;
};

static int copy_cb(struct nlmsghdr *h, void *arg)
{
	struct copy_ctx *x = arg;
	struct copy_res *c = x->c;

	if (ppnl_parse_copy(h, &x->pc))
		return PPNL_E_PARSE;
	c->got = true;
	c->dir = x->pc.dir;
	c->size = x->pc.size;
	c->offset = x->pc.offset;
	c->iters = x->pc.done;
	c->bytes = x->pc.bytes;
	c->total_ns = x->pc.total_ns;
	c->has_checksum = x->pc.has_checksum;
	c->checksum = x->pc.checksum;
	return 0;
}

int pp_copy(struct ppnl *p, const struct copy_req *q, struct copy_res *c,
	    struct ppnl_reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_COPY, 0);
	struct copy_ctx x = { .c = c };

	memset(c, 0, sizeof(*c));
	nla_put_u32(m, PERFPROBE_A_COPY_DIR, q->dir);
	nla_put_u64(m, PERFPROBE_A_COPY_ADDR, q->addr);
	nla_put_u64(m, PERFPROBE_A_COPY_BUFLEN, q->buflen);
	nla_put_u64(m, PERFPROBE_A_COPY_SIZE, q->size);
	if (q->offset >= 0)
		nla_put_u64(m, PERFPROBE_A_COPY_OFFSET, q->offset);
	if (q->iters >= 0)
		nla_put_u32(m, PERFPROBE_A_COPY_ITERATIONS, q->iters);
	ppnl_xfer(p, m, copy_cb, &x, r);
	if (r->err == 0 && (!c->got || r->cb_err))
		r->err = PPNL_E_PARSE;
	return r->err;
}

/* Each message of the dump parsed alone: a malformed one is counted. */
static int trace_cb(struct nlmsghdr *h, void *arg)
{
	struct ppnl_trace pt = { 0 };
	struct trace *t = arg;
	int err = ppnl_parse_trace(h, &pt);

	if (err) {
		t->bad++;
		ppnl_trace_free(&pt);
		return PPNL_E_PARSE;
	}
	if (pt.have_summary) {
		t->got_summary = true;
		t->active = pt.active;
		t->tgid = pt.tgid;
		t->features = pt.features;
		t->duration = pt.duration_ns;
		t->dropped = pt.dropped;
		t->ucopy_calls = pt.ucopy_calls;
		t->ucopy_bytes = pt.ucopy_bytes;
		t->has_pgfault = pt.have_pgfault;
		stats_from(&t->minor, &pt.pf_minor, 0);
		stats_from(&t->major, &pt.pf_major, 0);
		t->retry = pt.pf_retry;
		t->error = pt.pf_error;
		t->missed = pt.pf_missed;
		t->tp_count = pt.pf_tp;
	}
	for (size_t i = 0; i < pt.nsys; i++) {
		struct sc_entry *e;

		if (t->nsc >= (int)(sizeof(t->sc) / sizeof(t->sc[0]))) {
			t->bad++;
			continue;
		}
		e = &t->sc[t->nsc++];
		e->nr = pt.sys[i].nr;
		stats_from(&e->st, &pt.sys[i].st, 0);
		e->ucopy_calls = pt.sys[i].ucopy_calls;
		e->ucopy_bytes = pt.sys[i].ucopy_bytes;
	}
	ppnl_trace_free(&pt);
	return 0;
}

int pp_trace_get(struct ppnl *p, bool dump, struct trace *t,
		 struct ppnl_reply *r)
{
	memset(t, 0, sizeof(*t));
	ppnl_xfer(p, pp_msg(p, PERFPROBE_CMD_TRACE_GET, dump ? NLM_F_DUMP : 0),
		  trace_cb, t, r);
	if (r->err == 0 && (!t->got_summary || t->bad))
		r->err = PPNL_E_PARSE;
	return r->err;
}

const struct sc_entry *find_sc(const struct trace *t, uint32_t nr)
{
	for (int i = 0; i < t->nsc; i++)
		if (t->sc[i].nr == nr)
			return &t->sc[i];
	return NULL;
}

struct start_res {
	bool got;
	uint32_t features;
};

static int start_cb(struct nlmsghdr *h, void *arg)
{
	struct start_res *s = arg;

	if (ppnl_parse_start(h, &s->features))
		return PPNL_E_PARSE;
	s->got = true;
	return 0;
}

int pp_trace_start(struct ppnl *p, uint32_t tgid, int64_t features,
		   uint32_t *enabled, struct ppnl_reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_TRACE_START, 0);
	struct start_res s = { 0 };

	nla_put_u32(m, PERFPROBE_A_TRACE_TGID, tgid);
	if (features >= 0)
		nla_put_u32(m, PERFPROBE_A_TRACE_FEATURES, (uint32_t)features);
	ppnl_xfer(p, m, start_cb, &s, r);
	if (r->err == 0 && !s.got)
		r->err = PPNL_E_PARSE;
	if (enabled)
		*enabled = s.features;
	return r->err;
}

int pp_trace_stop(struct ppnl *p, struct ppnl_reply *r)
{
	return ppnl_xfer(p, pp_msg(p, PERFPROBE_CMD_TRACE_STOP, 0), NULL, NULL, r);
}

static int timer_cb(struct nlmsghdr *h, void *arg)
{
	struct timer_res *t = arg;
	struct ppnl_timer pt;
	int err = ppnl_parse_timer(h, &pt);

	if (err && !pt.late.present)
		return PPNL_E_PARSE;
	t->got = true;
	t->period = pt.period_ns;
	t->count = pt.count;
	stats_from(&t->st, &pt.late, err);
	return 0;
}

int pp_timer(struct ppnl *p, uint64_t period, uint32_t count,
	     struct timer_res *t, struct ppnl_reply *r)
{
	struct nl_msg *m = pp_msg(p, PERFPROBE_CMD_TIMER, 0);

	memset(t, 0, sizeof(*t));
	nla_put_u64(m, PERFPROBE_A_TIMER_PERIOD_NS, period);
	nla_put_u32(m, PERFPROBE_A_TIMER_COUNT, count);
	ppnl_xfer(p, m, timer_cb, t, r);
	if (r->err == 0 && !t->got)
		r->err = PPNL_E_PARSE;
	return r->err;
}

const char *stats_bad(const struct stats *s)
{
	if (!s->present)
		return "missing";
	if (!s->hist_ok)
		return "malformed histogram";
	if (s->histsum != s->count)
		return "histogram total != count";
	if (s->count == 0)
		return s->min == 0 && s->sum == 0 ? NULL : "count 0 but min/sum != 0";
	if (s->min > s->max)
		return "min > max";
	if (s->mean < s->min || s->mean > s->max)
		return "mean outside [min, max]";
	if (s->mean != s->sum / s->count)
		return "mean != sum / count";
	return NULL;
}


/* ------------------------------------------------------------- helpers */

uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

void fill_random(uint8_t *d, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = rnd();

		memcpy(d + i, &v, 8);
	}
	for (; i < n; i++)
		d[i] = (uint8_t)rnd();
}

/* anonymous mapping of `len` bytes with PROT_NONE guard pages around it */
uint8_t *map_guarded(size_t len)
{
	size_t full = len + 2 * PAGE;
	uint8_t *m = mmap(NULL, full, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + PAGE, len, PROT_READ | PROT_WRITE)) {
		munmap(m, full);
		return NULL;
	}
	return m + PAGE;
}

bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

/* The module's model: CAP_NET_ADMIN and (CAP_PERFMON or CAP_SYS_ADMIN). */
bool privileged(void)
{
	return have_cap(CAP_NET_ADMIN) &&
	       (have_cap(CAP_SYS_ADMIN) || have_cap(CAP_PERFMON));
}

/* keep_caps: bit n keeps capability n */
int drop_privs(uid_t uid, gid_t gid, uint64_t keep_caps)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (keep_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		return -1;
	for (int c = 0; c < 64; c++) {
		if (!(keep_caps >> c & 1))
			continue;
		d[c / 32].effective |= 1U << (c % 32);
		d[c / 32].permitted |= 1U << (c % 32);
	}
	if (syscall(SYS_capset, &h, d))
		return -1;
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	return 0;
}

const char *self_exe(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return "/proc/self/exe";
	path[n] = 0;
	return path;
}

void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

