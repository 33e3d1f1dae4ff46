// SPDX-License-Identifier: GPL-2.0
/*
 * kprof: sampling with perf_event_open(2), without perf.
 *
 * One event for each thread of the traced processes on each CPU,
 * inherited by what they start (an inherited event writes to its
 * parent's buffer; the kernel maps no buffer of a task event that is
 * not bound to a CPU and is inherited, hence one per CPU).  The events
 * of one CPU share the first one's ring buffer (PERF_EVENT_IOC_SET_OUTPUT),
 * drained between the pass's timed chunks, never during them.  A sample
 * is its IP, process and call chain (kernel, then user: frame pointers);
 * symbols are looked up once the pass is over (pp_kprof_profile()).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kprof.h"
#include "kdwarf.h"
#include "ksyms.h"
#include "usyms.h"
#include "util.h"

#define KPROF_MAX_FDS		1024
#define KPROF_MAX_CPUS		1024
#define KPROF_MAX_STACK		96	/* call chain entries a sample */
#define KPROF_SAMPLE_BYTES	1024	/* a sample with deep chains, about */
#define KPROF_PAGES_MIN		8	/* of data, a power of two */
#define KPROF_PAGES_MAX		1024
#define KPROF_PAGES_UNKNOWN	256	/* a pass of unknown length */
#define KPROF_CACHE		4096	/* symbol lookups remembered */
#define RAW_HDR			5	/* pid, cpumode, ip, nkernel, nuser */

struct kprof_buf {
	int fd;
	void *base;
	size_t len;			/* mapped: the header page and data */
};

struct kprof_sym {
	uint64_t addr;
	pid_t pid;			/* -1: the kernel's */
	uint32_t frame;
	bool used;
};

struct pp_kprof {
	struct pp_kprof_how how;
	uint64_t period;
	int *fds;
	size_t nfds;
	struct kprof_buf *bufs;		/* one a CPU */
	size_t nbufs;
	uint64_t *raw;			/* samples: RAW_HDR, kernel, user chain */
	size_t nraw, raw_cap;
	uint64_t samples, lost, throttled;
	uint64_t own;			/* in perfprobe's own ioctl: left out */
	char *wrap;			/* a record that wraps the buffer's end */
	size_t wrap_cap;
	struct kprof_sym *cache;
};

static long page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? p : 4096;
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(__NR_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The sysctl's limit on a call chain, which a larger request exceeds. */
static uint16_t max_stack(void)
{
	char buf[32];
	long v;

	if (pp_read_line("/proc/sys/kernel/perf_event_max_stack", buf, sizeof(buf)))
		return 0;		/* the kernel's default */
	v = atol(buf);
	return v > 0 && v < KPROF_MAX_STACK ? (uint16_t)v : KPROF_MAX_STACK;
}

static void attr_init(struct perf_event_attr *a, const struct pp_kprof_how *how,
		      uint64_t period)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = how->type;
	a->config = how->config;
	a->sample_period = period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	a->disabled = 1;
	a->inherit = 1;
	a->exclude_hv = 1;
	a->sample_max_stack = max_stack();
}

/* Why the kernel refused sampling its code: one line. */
static void not_allowed(char *why, size_t len, int err)
{
	char p[16] = "?";

	pp_read_line("/proc/sys/kernel/perf_event_paranoid", p, sizeof(p));
	snprintf(why, len, "not allowed: %s (perf_event_paranoid is %s: kernel samples need 1 "
		 "or less, or CAP_PERFMON)", strerror(err), p);
}

int pp_kprof_probe(struct pp_kprof_how *how)
{
	struct perf_event_attr a;
	int fd, err;

	memset(how, 0, sizeof(*how));
	how->type = PERF_TYPE_HARDWARE;
	how->config = PERF_COUNT_HW_CPU_CYCLES;
	attr_init(&a, how, 1000000);
	fd = perf_open(&a, 0, -1);
	if (fd >= 0) {
		close(fd);
		pp_strlcpy(how->event, "cycles", sizeof(how->event));
		how->ok = true;
		return 0;
	}
	err = errno;
	if (err == EACCES || err == EPERM) {
		not_allowed(how->why, sizeof(how->why), err);
		return -err;
	}
	snprintf(how->note, sizeof(how->note), "cycles refused (%s: no hardware PMU here): "
		 "the cpu-clock timer instead", strerror(err));
	how->type = PERF_TYPE_SOFTWARE;
	how->config = PERF_COUNT_SW_CPU_CLOCK;
	how->timer = true;
	attr_init(&a, how, 1000000);
	fd = perf_open(&a, 0, -1);
	if (fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			not_allowed(how->why, sizeof(how->why), err);
		else
			snprintf(how->why, sizeof(how->why), "not available: perf_event_open "
				 "refused cpu-clock: %s", strerror(err));
		return -err;
	}
	close(fd);
	pp_strlcpy(how->event, "cpu-clock", sizeof(how->event));
	how->ok = true;
	return 0;
}

/* The online CPUs ("0-3,6"), into cpus[]: how many, 0 when unknown. */
static size_t online_cpus(int *cpus, size_t max)
{
	char buf[4096], *p, *end;
	size_t n = 0;
	long a, b;

	if (pp_read_line("/sys/devices/system/cpu/online", buf, sizeof(buf))) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		for (a = 0; a < c && n < max; a++)
			cpus[n++] = (int)a;
		return n;
	}
	for (p = buf; *p && n < max; p = *end ? end + 1 : end) {
		a = strtol(p, &end, 10);
		if (end == p)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && n < max; a++)
			cpus[n++] = (int)a;
	}
	return n;
}

/* Data pages for expect_ns of samples at hz on one CPU. */
static size_t data_pages(const struct pp_kprof_req *req)
{
	double bytes = req->expect_ns > 0 ? req->expect_ns * 1e-9 * req->hz * 1.5 *
		KPROF_SAMPLE_BYTES : KPROF_PAGES_UNKNOWN * (double)page_size();
	size_t pages = KPROF_PAGES_MIN;

	while (pages < KPROF_PAGES_MAX && (double)pages * (double)page_size() < bytes)
		pages *= 2;
	return pages;
}

/* CPU cpu's buffer on fd: halved while the kernel refuses (mlock limits). */
static int map_buf(struct kprof_buf *b, int fd, size_t pages)
{
	for (; pages >= 2; pages /= 2) {
		size_t len = (pages + 1) * (size_t)page_size();
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (m != MAP_FAILED) {
			b->fd = fd;
			b->base = m;
			b->len = len;
			return 0;
		}
		if (errno != EPERM && errno != ENOMEM)
			break;
	}
	return -errno;
}

/* One event for tid on each CPU; the first of a CPU maps its buffer. */
static int open_task(struct pp_kprof *kp, struct perf_event_attr *a, pid_t tid,
		     const int *cpus, size_t ncpus, size_t pages)
{
	size_t c;
	int fd;

	for (c = 0; c < ncpus; c++) {
		if (kp->nfds == KPROF_MAX_FDS)
			return -EMFILE;
		fd = perf_open(a, tid, cpus[c]);
		if (fd < 0) {
			if (errno == ESRCH)
				return 0;	/* gone meanwhile */
			return -errno;
		}
		kp->fds[kp->nfds++] = fd;
		if (!kp->bufs[c].base) {
			int err = map_buf(&kp->bufs[c], fd, pages);

			if (err)
				return err;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, kp->bufs[c].fd)) {
			return -errno;
		}
	}
	return 0;
}

/* Every thread of pid. */
static int open_proc(struct pp_kprof *kp, struct perf_event_attr *a, pid_t pid,
		     const int *cpus, size_t ncpus, size_t pages)
{
	char path[64];
	struct dirent *e;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone meanwhile */
	while (!err && (e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			err = open_task(kp, a, (pid_t)atoi(e->d_name), cpus, ncpus, pages);
	closedir(d);
	return err;
}

void pp_kprof_close(struct pp_kprof *kp)
{
	size_t i;

	if (!kp)
		return;
	for (i = 0; i < kp->nbufs; i++)
		if (kp->bufs[i].base)
			munmap(kp->bufs[i].base, kp->bufs[i].len);
	for (i = 0; i < kp->nfds; i++)
		close(kp->fds[i]);
	free(kp->fds);
	free(kp->bufs);
	free(kp->raw);
	free(kp->wrap);
	free(kp->cache);
	free(kp);
}

/* Arm or disarm every event, and the events their tasks' children inherited. */
static int arm(struct pp_kprof *kp, bool on)
{
	size_t i;

	for (i = 0; i < kp->nfds; i++)
		if (ioctl(kp->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0))
			return -errno;
	return 0;
}

int pp_kprof_start(struct pp_kprof **out, const struct pp_kprof_how *how,
		   const struct pp_kprof_req *req, char *why, size_t len)
{
	struct pp_kprof *kp = calloc(1, sizeof(*kp));
	struct perf_event_attr a;
	int *cpus = NULL;
	size_t ncpus, i;
	int err = -ENOMEM;

	if (!kp)
		goto fail;
	kp->how = *how;
	kp->period = req->period;
	cpus = malloc(KPROF_MAX_CPUS * sizeof(*cpus));
	kp->fds = malloc(KPROF_MAX_FDS * sizeof(*kp->fds));
	if (!cpus || !kp->fds)
		goto fail;
	ncpus = online_cpus(cpus, KPROF_MAX_CPUS);
	kp->bufs = calloc(ncpus ? ncpus : 1, sizeof(*kp->bufs));
	if (!kp->bufs)
		goto fail;
	kp->nbufs = ncpus;
	attr_init(&a, how, req->period);
	for (i = 0, err = 0; i < req->npids && !err; i++)
		err = open_proc(kp, &a, req->pids[i], cpus, ncpus, data_pages(req));
	if (!err && !kp->nfds)
		err = -ESRCH;
	if (!err)
		err = arm(kp, true);
	if (err)
		goto fail;
	free(cpus);
	*out = kp;
	return 0;
fail:
	snprintf(why, len, "%s sampling: %s%s", how->event, strerror(-err),
		 err == -EMFILE ? " (too many tasks to sample)" : "");
	free(cpus);
	pp_kprof_close(kp);
	return err;
}

/* n bytes at offset off of a ring of size bytes, into dst. */
static void ring_copy(const char *ring, size_t size, uint64_t off, void *dst, size_t n)
{
	size_t at = (size_t)(off % size), first = size - at < n ? size - at : n;

	memcpy(dst, ring + at, first);
	memcpy((char *)dst + first, ring, n - first);
}

/* A sample's chain, split by context, appended to raw. */
static int add_sample(struct pp_kprof *kp, uint16_t misc, const uint64_t *v, size_t nv)
{
	uint64_t ip, nr, ctx = 0, *s;
	size_t i, nk = 0, nu = 0;

	if (nv < 3)
		return 0;
	ip = v[0];
	nr = v[2];
	if (nr > nv - 3)
		return 0;	/* malformed: not ours to guess */
	if (kp->nraw + RAW_HDR + nr > kp->raw_cap) {
		size_t cap = kp->raw_cap ? kp->raw_cap * 2 : 65536;
		uint64_t *r;

		while (cap < kp->nraw + RAW_HDR + nr)
			cap *= 2;
		r = realloc(kp->raw, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		kp->raw = r;
		kp->raw_cap = cap;
	}
	s = kp->raw + kp->nraw;
	s[0] = (uint32_t)v[1];		/* pid: the low half of pid/tid */
	s[1] = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s[2] = ip;
	/* kernel entries first, as the chain has them; then the user's */
	for (i = 0; i < nr; i++) {
		if (v[3 + i] >= PERF_CONTEXT_MAX)
			ctx = v[3 + i];
		else if (ctx == PERF_CONTEXT_KERNEL)
			s[RAW_HDR + nk++] = v[3 + i];
	}
	for (ctx = 0, i = 0; i < nr; i++) {
		if (v[3 + i] >= PERF_CONTEXT_MAX)
			ctx = v[3 + i];
		else if (ctx == PERF_CONTEXT_USER)
			s[RAW_HDR + nk + nu++] = v[3 + i];
	}
	s[3] = nk;
	s[4] = nu;
	kp->nraw += RAW_HDR + nk + nu;
	kp->samples++;
	return 0;
}

static int record(struct pp_kprof *kp, const struct perf_event_header *h, const void *body)
{
	const uint64_t *v = body;
	size_t nv = (h->size - sizeof(*h)) / sizeof(uint64_t);

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return add_sample(kp, h->misc, v, nv);
	case PERF_RECORD_LOST:
		if (nv >= 2)
			kp->lost += v[1];
		return 0;
	case PERF_RECORD_THROTTLE:
		kp->throttled++;
		return 0;
	}
	return 0;
}

static int drain_buf(struct pp_kprof *kp, struct kprof_buf *b)
{
	struct perf_event_mmap_page *pg = b->base;
	size_t size = b->len - (size_t)page_size();
	const char *ring = (const char *)b->base + page_size();
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	struct perf_event_header h;
	int err = 0;

	while (!err && tail + sizeof(h) <= head) {
		ring_copy(ring, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.size > kp->wrap_cap) {
			char *w = realloc(kp->wrap, h.size);

			if (!w) {
				err = -ENOMEM;
				break;
			}
			kp->wrap = w;
			kp->wrap_cap = h.size;
		}
		ring_copy(ring, size, tail, kp->wrap, h.size);
		err = record(kp, &h, kp->wrap + sizeof(h));
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return err;
}

static int drain(struct pp_kprof *kp)
{
	size_t i;
	int err = 0;

	for (i = 0; i < kp->nbufs && !err; i++)
		if (kp->bufs[i].base)
			err = drain_buf(kp, &kp->bufs[i]);
	return err;
}

int pp_kprof_drain(struct pp_kprof *kp)
{
	int err = arm(kp, false);

	if (!err)
		err = drain(kp);
	return err ? err : arm(kp, true);
}

uint64_t pp_kprof_samples(const struct pp_kprof *kp)
{
	return kp->samples;
}

int pp_kprof_stop(struct pp_kprof *kp)
{
	int err = arm(kp, false);

	return err ? err : drain(kp);
}

static int read_mem(pid_t pid, uint64_t addr, void *buf, size_t n)
{
	struct iovec l = { buf, n }, r = { (void *)(uintptr_t)addr, n };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)n ? 0 : -1;
}

/*
 * Is the instruction before addr, in process pid (else in this one, of
 * which the benchmark's partners are forks), a system call?
 */
static bool after_syscall(pid_t pid, uint64_t addr)
{
#if defined(__x86_64__)
	static const unsigned char insn[] = { 0x0f, 0x05 };	/* syscall */
#elif defined(__aarch64__)
	static const unsigned char insn[] = { 0x01, 0x00, 0x00, 0xd4 };	/* svc #0 */
#else
	static const unsigned char insn[1];

	return false;
#endif
	unsigned char b[sizeof(insn)];

	if (addr < sizeof(insn))
		return false;
	if (read_mem(pid, addr - sizeof(insn), b, sizeof(b)) &&
	    read_mem(getpid(), addr - sizeof(insn), b, sizeof(b)))
		return false;
	return !memcmp(b, insn, sizeof(insn));
}

/* What a profile is made with: the samples, the symbols, the profile. */
struct namer {
	struct pp_kprof *kp;
	struct pp_prof *p;
	const struct pp_ksyms *ks;
	struct pp_usyms *us;
	struct pp_kdwarf *kd;		/* NULL: kallsyms' names alone */
	uint32_t *f;			/* a stack's frames */
	char leaf_src[PP_KDWARF_SRC];	/* the sample's leaf's line, or "" */
};
/* A sample's frames at most: user and kernel, each kernel one with its inlined ones. */
#define KPROF_FRAMES	((KPROF_MAX_STACK + 2) * (2 + PP_KDWARF_INLINE))

/* The frame of addr (pid -1: the kernel's), through the lookup cache. */
static int frame_of(struct namer *nm, pid_t pid, uint64_t addr, uint32_t *frame)
{
	struct kprof_sym *c = &nm->kp->cache[(addr ^ (addr >> 12) ^ (uint64_t)pid) % KPROF_CACHE];
	char buf[512];
	const char *name;
	int err;

	if (c->used && c->addr == addr && c->pid == pid) {
		*frame = c->frame;
		return 0;
	}
	if (pid < 0)
		name = pp_ksyms_name(nm->ks, addr);
	else
		name = pp_usyms_name(nm->us, pid, addr, buf, sizeof(buf));
	err = pp_prof_frame(nm->p, name ? name : "[unknown]", frame);
	if (err)
		return err;
	*c = (struct kprof_sym){ addr, pid, *frame, true };
	return 0;
}

/*
 * The frames of kernel address addr at f[*n...]: its function, then, with
 * the debug info, the functions inlined into it there, outermost first;
 * the leaf's source line is counted for the innermost.
 */
static int kernel_frames(struct namer *nm, uint64_t addr, bool leaf, size_t *n)
{
	struct pp_kdwarf_loc loc;
	unsigned int i;
	int err = frame_of(nm, -1, addr, &nm->f[(*n)++]);

	if (err || !nm->kd || addr < nm->ks->text_lo || addr >= nm->ks->text_hi ||
	    !pp_kdwarf_lookup(nm->kd, addr, &loc))
		return err;
	for (i = 0; i < loc.ninline && !err; i++)
		err = pp_prof_frame(nm->p, loc.inlined[i], &nm->f[(*n)++]);
	if (leaf)
		pp_strlcpy(nm->leaf_src, loc.src, sizeof(nm->leaf_src));
	return err;
}

/*
 * Is a kernel stack perfprobe's own perf_event ioctl (sampling paused or
 * resumed between a pass's chunks)?  A timer sample that waited for
 * interrupts to be enabled again can land there, and it is no
 * benchmark's time: 135 ns of getppid's 740 ns under TCG, before.
 */
static bool own_ioctl(const struct pp_prof *p, const uint32_t *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(p->frames[f[i]], "_perf_ioctl") || !strcmp(p->frames[f[i]], "perf_ioctl"))
			return true;
	return false;
}

/*
 * One raw sample s into p.  Return addresses are looked up one byte
 * back, in the call that made them; where the sample fell, as it is.
 * A user sample at the return of a system call is the kernel's (below).
 */
static int profile_one(struct namer *nm, const uint64_t *s)
{
	struct pp_prof *p = nm->p;
	uint32_t *f = nm->f;
	pid_t pid = (pid_t)s[0];
	bool user = s[1] == PERF_RECORD_MISC_USER, sysret = false;
	uint64_t nk = s[3], nu = s[4], i;
	size_t n = 0, nuser;
	const uint64_t *k = s + RAW_HDR, *u = k + nk;
	int err = 0;

	nm->leaf_src[0] = 0;
	if (user && !nu) {
		u = &s[2];
		nu = 1;
	}
	for (i = nu; i-- > 0 && !err;)
		err = frame_of(nm, pid, i || !user ? u[i] - 1 : u[i], &f[n++]);
	nuser = n;
	/*
	 * A timer's interrupt cannot take a sample while the kernel runs
	 * with interrupts off: it waits for them, and on the way out of a
	 * system call that is the first user instruction after it.
	 */
	if (user && nm->kp->how.timer && after_syscall(pid, u[0])) {
		sysret = true;
		err = err ? err : pp_prof_frame(p, PP_PROF_SYSRET, &f[n++]);
	} else if (!user && !nk) {
		err = err ? err : kernel_frames(nm, s[2], true, &n);
	}
	for (i = user ? 0 : nk; i-- > 0 && !err;)
		err = kernel_frames(nm, i ? k[i] - 1 : k[i], !i, &n);
	if (!err && own_ioctl(p, f + nuser, n - nuser)) {
		nm->kp->own++;
		return 0;
	}
	if (!err)
		err = pp_prof_add(p, f, (unsigned int)nuser, (unsigned int)(n - nuser), 1);
	if (!err && nm->leaf_src[0])
		err = pp_prof_line(p, f[n - 1], nm->leaf_src, 1);
	if (err)
		return err;
	p->samples++;
	if (user && !sysret)
		p->user++;
	else
		p->kernel++;
	return 0;
}

/*
 * Does a sample fall in a BPF program?  Then the ones loaded now, with
 * their lengths, name it (ksyms.c): the kallsyms read at start-up knows
 * neither their ends nor the programs loaded since.
 */
static void bpf_names(const struct pp_kprof *kp, struct pp_ksyms *ks)
{
	size_t off, i;

	for (off = 0; off < kp->nraw; off += RAW_HDR + kp->raw[off + 3] + kp->raw[off + 4]) {
		const uint64_t *k = kp->raw + off + RAW_HDR;

		for (i = 0; i < kp->raw[off + 3]; i++) {
			if (pp_ksyms_is_bpf(ks, i ? k[i] - 1 : k[i])) {
				pp_ksyms_jits(ks);
				return;
			}
		}
	}
}

int pp_kprof_profile(struct pp_kprof *kp, struct pp_ksyms *ks, struct pp_usyms *us,
		     struct pp_kdwarf *kd, struct pp_prof **out)
{
	struct pp_prof *p = calloc(1, sizeof(*p));
	uint32_t *f = malloc(KPROF_FRAMES * sizeof(*f));
	struct namer nm = { .kp = kp, .p = p, .ks = ks, .us = us, .kd = kd, .f = f };
	size_t off;
	int err = -ENOMEM;

	kp->cache = calloc(KPROF_CACHE, sizeof(*kp->cache));
	if (!p || !f || !kp->cache)
		goto fail;
	pp_prof_init(p);
	bpf_names(kp, ks);
	pp_strlcpy(p->event, kp->how.event, sizeof(p->event));
	p->period = kp->period;
	p->lost = kp->lost;
	if (kd && pp_prof_set_debuginfo(p, pp_kdwarf_path(kd)))
		goto fail;
	for (off = 0, err = 0; off < kp->nraw && !err; off += RAW_HDR + kp->raw[off + 3] +
	     kp->raw[off + 4]) {
		if (kp->raw[off + 3] + kp->raw[off + 4] > KPROF_MAX_STACK * 2)
			continue;	/* more than the kernel was asked for */
		err = profile_one(&nm, kp->raw + off);
	}
	if (err)
		goto fail;
	free(f);
	*out = p;
	return 0;
fail:
	free(f);
	pp_prof_destroy(p);
	return err;
}
