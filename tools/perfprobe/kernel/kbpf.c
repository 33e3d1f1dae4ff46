// SPDX-License-Identifier: GPL-2.0
/*
 * kbpf: the BPF backend of the kernel view (kbpf.h), in the shape of
 * bcc's libbpf-tools: open the skeleton, set its rodata, load, attach.
 *
 * Each tracepoint has a tp_btf and a raw_tp program: tp_btf is used
 * where the kernel's BTF describes the tracepoint, raw_tp otherwise or
 * when tp_btf is refused.  fentry/fexit programs are loaded only for
 * functions the kernel's BTF has; where the kernel refuses them (no
 * trampolines, lockdown, ...) they are left out and the probe says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kbpf.h"
#include "util.h"

#ifndef PP_BPF_BUILT_OUT
#define PP_BPF_BUILT_OUT	"not available: built without BTF"
#endif

#ifdef PP_HAVE_BPF

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "kernel/bpf/kview_maps.h"
#include "kview.skel.h"

/* The programs of the traced set itself, armed with any probe. */
#define KB_TASKS		PP_KT_NPROBES

enum kb_how { KB_NONE, KB_TP_BTF, KB_RAW_TP, KB_FENTRY, KB_KPROBE };

static const char *const how_name[] = {
	[KB_TP_BTF] = "tp_btf",
	[KB_RAW_TP] = "raw_tp",
	[KB_FENTRY] = "fentry",
	[KB_KPROBE] = "kprobe",
};

/*
 * A tracepoint, or an fentry/fexit pair on a kernel function, with a
 * kprobe/kretprobe pair where fentry is refused.
 */
struct kb_item {
	int probe;
	const char *target;
	const char *in, *out;
	const char *tp_prog;	/* a tracepoint's program: ppkv_*_<this> */
};

/*
 * Armed from the last to the first, disarmed from the first to the last:
 * an exit program is in place before its entry program fires, and the
 * traced set follows forks for as long as anything is armed.  A
 * tracepoint runs its programs in the order they were attached, so the
 * inner syscall pair runs inside the outer one's window (kview.bpf.c).
 */
#define KB_TP(p, tp)		{ .probe = (p), .target = (tp) }
#define KB_TP_AS(p, tp, prog)	{ .probe = (p), .target = (tp), .tp_prog = (prog) }
#define KB_FN(p, fn, i, o)	{ .probe = (p), .target = (fn), .in = (i), .out = (o) }

static const struct kb_item items[] = {
	KB_TP_AS(PP_KT_SYSCALLS, "sys_enter", "sys_enter_in"),
	KB_TP(PP_KT_SYSCALLS, "sys_enter"),
	KB_TP(PP_KT_SYSCALLS, "sys_exit"),
	KB_TP_AS(PP_KT_SYSCALLS, "sys_exit", "sys_exit_in"),
	KB_TP(PP_KT_FAULTS, "page_fault_user"),
	KB_TP(PP_KT_SCHED, "sched_switch"),
	KB_FN(PP_KT_FAULT_NS, "handle_mm_fault", "ppkv_fault_in", "ppkv_fault_out"),
	KB_FN(PP_KT_COPY, "_copy_to_user", "ppkv_cp_to_user_in", "ppkv_cp_to_user"),
	KB_FN(PP_KT_COPY, "_copy_from_user", "ppkv_cp_from_user_in", "ppkv_cp_from_user"),
	KB_FN(PP_KT_COPY, "copy_page_to_iter", "ppkv_cp_pg_to_iter_in", "ppkv_cp_pg_to_iter"),
	KB_FN(PP_KT_COPY, "copy_page_from_iter", "ppkv_cp_pg_from_iter_in",
	      "ppkv_cp_pg_from_iter"),
	KB_FN(PP_KT_COPY, "_copy_to_iter", "ppkv_cp_to_iter_in", "ppkv_cp_to_iter"),
	KB_FN(PP_KT_COPY, "_copy_from_iter", "ppkv_cp_from_iter_in", "ppkv_cp_from_iter"),
	KB_TP(KB_TASKS, "sched_process_fork"),
	KB_TP(KB_TASKS, "sched_process_exit"),
};

#define NITEMS			ARRAY_SIZE(items)

struct kb_state {
	enum kb_how how;
	char why[KBPF_WHY_MAX];		/* how == KB_NONE: why not */
	struct bpf_link *link[2];
};

struct kbpf {
	struct kview *skel;
	unsigned int flags;
	struct kb_state st[NITEMS];
	bool running;
	uint32_t armed;			/* probes of the last trace */
	struct timespec t0;
	uint64_t duration_ns;
	int ncpus;
	char copy_routines[160];
	char why[PP_KT_NPROBES][KBPF_WHY_MAX];
	/* syscall slots a trace may have written since they were zeroed */
	bool dirty[KV_MAX_SYSCALLS];
	bool unread;			/* a trace ran that was not read */
};

/* The one open backend of this process, and which process that is. */
static struct kbpf *kb_live;
static struct kbpf *kb_orphan;	/* a parent's, in a forked child */
static pid_t kb_owner;

bool kbpf_built(const char **why)
{
	if (why)
		*why = NULL;
	return true;
}

static int kb_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!pp_verbosity() || (level == LIBBPF_DEBUG && pp_verbosity() < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* ENOTSUPP (524) is the kernel's own and has no strerror() text. */
static const char *errtext(int err)
{
	if (err < 0)
		err = -err;
	if (err == 524)
		return "not supported by this kernel (ENOTSUPP)";
	return strerror(err);
}

static struct bpf_program *prog(struct kbpf *kb, const char *name)
{
	return bpf_object__find_program_by_name(kb->skel->obj, name);
}

/* The programs item i uses when attached as how (NULL = none). */
static void item_progs(struct kbpf *kb, size_t i, enum kb_how how,
		       struct bpf_program *p[2])
{
	char name[64];

	p[0] = p[1] = NULL;
	if (!items[i].in != (how != KB_FENTRY && how != KB_KPROBE))
		return;
	if (how == KB_FENTRY) {
		p[0] = prog(kb, items[i].in);
		p[1] = prog(kb, items[i].out);
	} else if (how == KB_KPROBE) {
		/* ppkv_kp_<function> and its kretprobe ppkv_kr_<function> */
		snprintf(name, sizeof(name), "ppkv_kp_%s", items[i].target);
		p[0] = prog(kb, name);
		snprintf(name, sizeof(name), "ppkv_kr_%s", items[i].target);
		p[1] = prog(kb, name);
	} else if (how == KB_TP_BTF || how == KB_RAW_TP) {
		snprintf(name, sizeof(name), "ppkv_%s_%s", how == KB_TP_BTF ? "btf" : "raw",
			 items[i].tp_prog ? items[i].tp_prog : items[i].target);
		p[0] = prog(kb, name);
	}
}

static void set_autoload(struct kbpf *kb, size_t i, enum kb_how how, bool on)
{
	struct bpf_program *p[2];
	int j;

	item_progs(kb, i, how, p);
	for (j = 0; j < 2; j++)
		if (p[j])
			bpf_program__set_autoload(p[j], on);
}

/*
 * Open and load the skeleton with the programs of the items as chosen in
 * kb->st: every item (how and only both -1), the items attached the way
 * how, or item only alone.
 */
static int load(struct kbpf *kb, int how, long only)
{
	enum kb_how h;
	size_t i;
	int err;

	kview__destroy(kb->skel);
	kb->skel = kview__open();
	if (!kb->skel)
		return -errno;
	kb->skel->rodata->follow_forks = true;
	for (i = 0; i < NITEMS; i++) {
		for (h = KB_TP_BTF; h <= KB_KPROBE; h++)
			set_autoload(kb, i, h, false);
		if ((only < 0 || (size_t)only == i) && (how < 0 || kb->st[i].how == (enum kb_how)how))
			set_autoload(kb, i, kb->st[i].how, true);
	}
	err = kview__load(kb->skel);
	return err < 0 ? err : 0;
}

/* The next best way for item i, after how failed with err. */
static void demote(struct kbpf *kb, size_t i, const char *step, int err)
{
	struct kb_state *st = &kb->st[i];
	size_t len = st->how == KB_KPROBE ? strlen(st->why) : 0;

	/* fentry's reason stays in front of the kprobe's */
	snprintf(st->why + len, sizeof(st->why) - len, "%s%s refused%s for %s: %s",
		 len ? "; " : "", how_name[st->how], strcmp(step, "load") ? " at attach" : "",
		 items[i].target, errtext(err));
	pp_dbg("bpf: %s", st->why + len + (len ? 2 : 0));
	switch (st->how) {
	case KB_TP_BTF:
		st->how = KB_RAW_TP;
		break;
	case KB_FENTRY:
		st->how = KB_KPROBE;
		break;
	default:
		st->how = KB_NONE;
	}
}

/* The best way the kernel's BTF says each item can be attached. */
static void choose(struct kbpf *kb, const struct btf *vmlinux)
{
	char name[80];
	size_t i;

	for (i = 0; i < NITEMS; i++) {
		struct kb_state *st = &kb->st[i];

		if (items[i].in) {
			/* fentry needs the function in BTF; a kprobe does not */
			st->how = KB_FENTRY;
			if (kb->flags & KBPF_NO_FENTRY) {
				st->how = KB_KPROBE;
				snprintf(st->why, sizeof(st->why), "fentry not asked for");
			} else if (btf__find_by_name_kind(vmlinux, items[i].target,
							  BTF_KIND_FUNC) < 0) {
				st->how = KB_KPROBE;
				snprintf(st->why, sizeof(st->why),
					 "no function %s in the kernel's BTF", items[i].target);
			}
			continue;
		}
		snprintf(name, sizeof(name), "btf_trace_%s", items[i].target);
		if (kb->flags & KBPF_NO_TP_BTF ||
		    btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) < 0)
			st->how = KB_RAW_TP;
		else
			st->how = KB_TP_BTF;
	}
}

/* Load everything; if the kernel refuses, find which items it refuses. */
/*
 * Load the skeleton with every item's chosen way; where that fails, find
 * the items that fail and demote them: each way's items together first,
 * then one by one in a way that failed.  Each load parses the kernel's
 * BTF and creates the maps again, so they are kept few, and a refusal
 * the kernel makes for a whole way (EPERM: a policy such as lockdown or
 * a hypervisor's, not one function's) demotes every item of that way at
 * once: on a host that refuses fentry that is 5 loads, not 16.
 */
static int load_best(struct kbpf *kb)
{
	enum kb_how how;
	size_t i, j;
	int err;

	if (!load(kb, -1, -1))
		return 0;
	for (how = KB_TP_BTF; how <= KB_KPROBE; how++) {
		for (i = 0; i < NITEMS && kb->st[i].how != how; i++)
			;
		if (i == NITEMS || !load(kb, how, -1))
			continue;
		for (i = 0; i < NITEMS; i++) {
			if (kb->st[i].how != how)
				continue;
			err = load(kb, -1, (long)i);
			if (!err)
				continue;
			demote(kb, i, "load", err);
			for (j = i + 1; err == -EPERM && j < NITEMS; j++)
				if (kb->st[j].how == how)
					demote(kb, j, "load", err);
		}
	}
	return load(kb, -1, -1);
}

static void detach_item(struct kbpf *kb, size_t i)
{
	struct kb_state *st = &kb->st[i];

	/* The entry program first: no timestamp is left open by it. */
	bpf_link__destroy(st->link[0]);
	bpf_link__destroy(st->link[1]);
	st->link[0] = st->link[1] = NULL;
}

static int attach_item(struct kbpf *kb, size_t i)
{
	struct kb_state *st = &kb->st[i];
	struct bpf_program *p[2];
	int j, err;

	item_progs(kb, i, st->how, p);
	for (j = 1; j >= 0; j--) {
		if (!p[j])
			continue;
		st->link[j] = bpf_program__attach(p[j]);
		if (!st->link[j]) {
			err = -errno;
			detach_item(kb, i);
			return err ? err : -EINVAL;
		}
	}
	return 0;
}

/*
 * Attach and detach every loaded item once: fentry is refused at attach
 * time on some kernels.  Returns true if a tracepoint has to be reloaded
 * the next best way.
 */
static bool try_attach(struct kbpf *kb)
{
	bool reload = false;
	size_t i;
	int err;

	for (i = 0; i < NITEMS; i++) {
		if (kb->st[i].how == KB_NONE)
			continue;
		err = attach_item(kb, i);
		if (!err) {
			detach_item(kb, i);
			continue;
		}
		reload |= kb->st[i].how == KB_TP_BTF || kb->st[i].how == KB_FENTRY;
		demote(kb, i, "attach", err);
	}
	return reload;
}

/* Per probe: available if every item (copy: any item) is. */
static void summarise(struct kbpf *kb)
{
	size_t i, len = 0;
	int p;

	for (p = 0; p < PP_KT_NPROBES; p++)
		kb->why[p][0] = '\0';
	for (i = 0; i < NITEMS; i++) {
		const struct kb_item *it = &items[i];

		if (it->probe == PP_KT_COPY && kb->st[i].how != KB_NONE)
			len += (size_t)snprintf(kb->copy_routines + len,
						len < sizeof(kb->copy_routines) ?
						sizeof(kb->copy_routines) - len : 0,
						"%s%s", len ? "," : "", it->target);
	}
	for (i = 0; i < NITEMS; i++) {
		const struct kb_item *it = &items[i];

		if (it->probe == KB_TASKS || kb->st[i].how != KB_NONE || kb->why[it->probe][0])
			continue;
		if (it->probe == PP_KT_COPY && kb->copy_routines[0])
			continue;
		snprintf(kb->why[it->probe], sizeof(kb->why[0]), "not available on this kernel: %s",
			 kb->st[i].why);
	}
}

static void kb_atfork_child(void)
{
	struct kbpf *kb = kb_live;
	struct bpf_program *p;
	struct bpf_map *m;
	size_t i;

	/*
	 * The child must not keep the programs alive after the parent is
	 * gone: close its copies of the descriptors and never touch them.
	 */
	if (!kb)
		return;
	for (i = 0; i < NITEMS; i++) {
		if (kb->st[i].link[0])
			close(bpf_link__fd(kb->st[i].link[0]));
		if (kb->st[i].link[1])
			close(bpf_link__fd(kb->st[i].link[1]));
	}
	bpf_object__for_each_program(p, kb->skel->obj)
		if (bpf_program__fd(p) >= 0)
			close(bpf_program__fd(p));
	bpf_object__for_each_map(m, kb->skel->obj)
		if (bpf_map__fd(m) >= 0)
			close(bpf_map__fd(m));
	if (bpf_object__btf_fd(kb->skel->obj) >= 0)
		close(bpf_object__btf_fd(kb->skel->obj));
	kb_orphan = kb;
	kb_live = NULL;
}

static void kb_atexit(void)
{
	if (kb_live && getpid() == kb_owner)
		kbpf_close(kb_live);
}

static void kb_register(struct kbpf *kb)
{
	static bool once;

	if (!once) {
		pthread_atfork(NULL, NULL, kb_atfork_child);
		atexit(kb_atexit);
		once = true;
	}
	kb_live = kb;
	kb_owner = getpid();
}

static int fail(struct kbpf *kb, int err, char *why, size_t size, const char *fmt,
		const char *what)
{
	snprintf(why, size, fmt, what, errtext(err));
	kbpf_close(kb);
	return err;
}

/* A new struct kbpf, how each probe attaches chosen from the kernel's BTF: 0 or -errno. */
static int kb_new(struct kbpf **out, unsigned int flags, char *why, size_t size)
{
	struct btf *vmlinux;
	int err = 0;

	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		err = -errno;
		snprintf(why, size, "not available: the kernel's BTF (/sys/kernel/btf/vmlinux): %s",
			 errtext(err));
		return err;
	}
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		err = -ENOMEM;
		goto free_btf;
	}
	/* the kprobe fallback, tested where fentry works (kernel-view.rst) */
	if (getenv("PERFPROBE_BPF_NO_FENTRY"))
		flags |= KBPF_NO_FENTRY;
	(*out)->flags = flags;
	choose(*out, vmlinux);
free_btf:
	btf__free(vmlinux);
	return err;
}

int kbpf_open(struct kbpf **out, unsigned int flags, char *why, size_t size)
{
	struct kbpf *kb = NULL;
	int err, tries;
	size_t i;

	*out = NULL;
	if (kb_live) {
		snprintf(why, size, "not available: already open in this process");
		return -EBUSY;
	}
	libbpf_set_print(kb_print);
	err = kb_new(&kb, flags, why, size);
	if (err)
		return err;
	kb->ncpus = libbpf_num_possible_cpus();
	if (kb->ncpus <= 0)
		return fail(kb, kb->ncpus ? kb->ncpus : -EINVAL, why, size,
			    "not available: %s: %s", "possible CPUs");
	for (tries = 0; tries < 4; tries++) {
		err = load_best(kb);
		if (err == -EPERM)
			return fail(kb, err, why, size,
				    "not available: %s: %s (needs root, or CAP_BPF and CAP_PERFMON)",
				    "loading BPF programs");
		if (err)
			return fail(kb, err, why, size, "not available: %s: %s",
				    "loading BPF programs");
		if (!try_attach(kb))
			break;
	}
	for (i = 0; i < NITEMS; i++) {
		if (items[i].probe != KB_TASKS || kb->st[i].how != KB_NONE)
			continue;
		snprintf(why, size, "not available: cannot follow the traced processes: %s",
			 kb->st[i].why);
		kbpf_close(kb);
		return -EOPNOTSUPP;
	}
	summarise(kb);
	kb_register(kb);
	*out = kb;
	return 0;
}

void kbpf_close(struct kbpf *kb)
{
	size_t i;

	if (!kb)
		return;
	for (i = 0; i < NITEMS; i++)
		detach_item(kb, i);
	kview__destroy(kb->skel);
	if (kb_live == kb)
		kb_live = NULL;
	free(kb);
}

uint32_t kbpf_probes(const struct kbpf *kb)
{
	uint32_t bits = 0;
	int p;

	for (p = 0; p < PP_KT_NPROBES; p++)
		if (!kb->why[p][0])
			bits |= PP_KT_BIT(p);
	return bits;
}

const char *kbpf_probe_how(const struct kbpf *kb, enum pp_kt_probe p,
			   const char **why)
{
	size_t i;

	*why = NULL;
	if ((unsigned int)p >= PP_KT_NPROBES)
		return NULL;
	if (kb->why[p][0]) {
		*why = kb->why[p];
		return NULL;
	}
	for (i = 0; i < NITEMS; i++)
		if (items[i].probe == (int)p && kb->st[i].how != KB_NONE)
			return how_name[kb->st[i].how];
	return NULL;
}

const char *kbpf_copy_routines(const struct kbpf *kb)
{
	return kb->copy_routines;
}

static void clear_hash(int fd)
{
	__u32 key;

	while (!bpf_map_get_next_key(fd, NULL, &key))
		if (bpf_map_delete_elem(fd, &key))
			break;
}

static int zero_percpu(int fd, size_t value_size, __u32 n, int ncpus)
{
	void *zero = calloc((size_t)ncpus, value_size);
	__u32 key;
	int err = 0;

	if (!zero)
		return -ENOMEM;
	for (key = 0; key < n && !err; key++)
		if (bpf_map_update_elem(fd, &key, zero, BPF_ANY))
			err = -errno;
	free(zero);
	return err;
}

/*
 * Zero the syscall slots the last trace wrote (all of them if it was not
 * read, or before the first): a pass costs a few system calls, not one
 * per slot.
 */
static int zero_sys(struct kbpf *kb, int fd)
{
	void *zero = calloc((size_t)kb->ncpus, sizeof(struct kv_sys));
	__u32 key;
	int err = 0;

	if (!zero)
		return -ENOMEM;
	for (key = 0; key < KV_MAX_SYSCALLS && !err; key++) {
		if (!kb->dirty[key] && !kb->unread)
			continue;
		if (bpf_map_update_elem(fd, &key, zero, BPF_ANY))
			err = -errno;
		else
			kb->dirty[key] = false;
	}
	free(zero);
	if (!err)
		kb->unread = true;
	return err;
}

static uint64_t elapsed_ns(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (uint64_t)(t1.tv_sec - t0->tv_sec) * 1000000000ull +
	       (uint64_t)t1.tv_nsec - (uint64_t)t0->tv_nsec;
}

static bool armed_item(const struct kbpf *kb, size_t i, uint32_t probes)
{
	if (kb->st[i].how == KB_NONE)
		return false;
	return items[i].probe == KB_TASKS || (probes & PP_KT_BIT(items[i].probe));
}

int kbpf_trace_start(struct kbpf *kb, pid_t tgid, uint32_t probes)
{
	return kbpf_trace_start_set(kb, &tgid, 1, probes);
}

int kbpf_trace_start_set(struct kbpf *kb, const pid_t *tgids, size_t n,
			 uint32_t probes)
{
	struct {
		int tgids, tasks, sys, totals;
	} fd = {
		bpf_map__fd(kb->skel->maps.tgids), bpf_map__fd(kb->skel->maps.tasks),
		bpf_map__fd(kb->skel->maps.sys), bpf_map__fd(kb->skel->maps.totals),
	};
	__u8 one = 1;
	size_t i;
	int err;

	if (kb->running)
		return -EBUSY;
	clear_hash(fd.tgids);
	clear_hash(fd.tasks);
	err = zero_sys(kb, fd.sys);
	if (!err)
		err = zero_percpu(fd.totals, sizeof(struct kv_totals), 1, kb->ncpus);
	for (i = 0; i < n && !err; i++) {
		__u32 key = (__u32)tgids[i];

		if (bpf_map_update_elem(fd.tgids, &key, &one, BPF_ANY))
			err = -errno;
	}
	if (err)
		return err;
	kb->armed = probes & kbpf_probes(kb);
	kb->duration_ns = 0;
	clock_gettime(CLOCK_MONOTONIC, &kb->t0);
	kb->running = true;
	for (i = NITEMS; i-- > 0;) {
		if (!armed_item(kb, i, kb->armed))
			continue;
		err = attach_item(kb, i);
		if (err) {
			kbpf_trace_stop(kb);
			return err;
		}
	}
	kb->skel->bss->armed = 1;
	return 0;
}

int kbpf_trace_stop(struct kbpf *kb)
{
	size_t i;

	if (!kb->running)
		return -ENOENT;
	kb->skel->bss->armed = 0;
	for (i = 0; i < NITEMS; i++)
		detach_item(kb, i);
	kb->duration_ns = elapsed_ns(&kb->t0);
	kb->running = false;
	return 0;
}

/* One slot's per-CPU values into s; true if it counted anything. */
static bool sum_sys(const struct kbpf *kb, const struct kv_sys *v,
		    struct pp_ktrace_sys *s)
{
	int c;

	for (c = 0; c < kb->ncpus; c++) {
		s->count += v[c].count;
		s->timed += v[c].timed;
		s->ns += v[c].ns;
		s->paired += v[c].paired;
		s->inner_ns += v[c].inner_ns;
		s->x_ns += v[c].x_ns;
		s->x_sq += v[c].x_sq;
		if (v[c].max_ns > s->max_ns)
			s->max_ns = v[c].max_ns;
		if (v[c].min_ns && (!s->min_ns || v[c].min_ns < s->min_ns))
			s->min_ns = v[c].min_ns;
		s->copy_bytes += v[c].copy_bytes;
		s->copy_ns += v[c].copy_ns;
	}
	return s->count || s->timed;
}

/* Every slot in one BPF_MAP_LOOKUP_BATCH (5.6+): -errno if refused. */
static int read_sys_batch(struct kbpf *kb, struct pp_ktrace *t, int fd)
{
	size_t per = (size_t)kb->ncpus;
	struct kv_sys *v = calloc(KV_MAX_SYSCALLS * per, sizeof(*v));
	__u32 *keys = calloc(KV_MAX_SYSCALLS, sizeof(*keys));
	__u32 out = 0, count = KV_MAX_SYSCALLS, i;
	int err = 0;

	if (!v || !keys) {
		err = -ENOMEM;
		goto out;
	}
	if (bpf_map_lookup_batch(fd, NULL, &out, keys, v, &count, NULL) &&
	    errno != ENOENT) {
		err = -errno;
		goto out;
	}
	if (count != KV_MAX_SYSCALLS) {
		err = -ERANGE;
		goto out;
	}
	for (i = 0; i < count && !err; i++) {
		struct pp_ktrace_sys s = { .nr = keys[i] };

		if (keys[i] >= KV_MAX_SYSCALLS || !sum_sys(kb, v + i * per, &s))
			continue;
		kb->dirty[keys[i]] = true;
		if (s.count)
			err = pp_ktrace_add_sys(t, &s);
	}
out:
	free(v);
	free(keys);
	return err;
}

static int read_sys(struct kbpf *kb, struct pp_ktrace *t, void *buf)
{
	int fd = bpf_map__fd(kb->skel->maps.sys);
	struct kv_sys *v = buf;
	__u32 nr;
	int err;

	err = read_sys_batch(kb, t, fd);
	if (err != -EINVAL && err != -ENOTSUP && err != -ERANGE)
		return err;
	/* an older kernel: one slot at a time */
	t->nsys = 0;
	for (nr = 0; nr < KV_MAX_SYSCALLS; nr++) {
		struct pp_ktrace_sys s = { .nr = nr };

		if (bpf_map_lookup_elem(fd, &nr, v))
			return -errno;
		if (!sum_sys(kb, v, &s))
			continue;
		kb->dirty[nr] = true;
		if (s.count && pp_ktrace_add_sys(t, &s))
			return -ENOMEM;
	}
	return 0;
}

static int read_totals(struct kbpf *kb, struct pp_ktrace *t, void *buf)
{
	int fd = bpf_map__fd(kb->skel->maps.totals);
	struct kv_totals *v = buf;
	__u32 zero = 0;
	int c;

	if (bpf_map_lookup_elem(fd, &zero, v))
		return -errno;
	for (c = 0; c < kb->ncpus; c++) {
		t->faults += v[c].faults;
		t->fault_timed += v[c].fault_timed;
		t->fault_ns += v[c].fault_ns;
		t->switches += v[c].switches;
		t->offcpu_ns += v[c].offcpu_ns;
		t->copy_to_bytes += v[c].copy_to_bytes;
		t->copy_from_bytes += v[c].copy_from_bytes;
		t->copy_calls += v[c].copy_calls;
		t->copy_ns += v[c].copy_ns;
		t->forks += v[c].forks;
		t->dropped += v[c].dropped;
	}
	t->copy_bytes = t->copy_to_bytes + t->copy_from_bytes;
	t->copy_timed = t->copy_calls;
	t->copy_split = true;
	return 0;
}

int kbpf_trace_read(struct kbpf *kb, struct pp_ktrace *t)
{
	size_t vs = sizeof(struct kv_sys) > sizeof(struct kv_totals) ?
		    sizeof(struct kv_sys) : sizeof(struct kv_totals);
	void *buf = calloc((size_t)kb->ncpus, vs);
	int err;

	memset(t, 0, sizeof(*t));
	if (!buf)
		return -ENOMEM;
	pp_strlcpy(t->source, "bpf", sizeof(t->source));
	t->have = kb->armed;
	t->duration_ns = kb->running ? elapsed_ns(&kb->t0) : kb->duration_ns;
	err = read_sys(kb, t, buf);
	if (!err)
		err = read_totals(kb, t, buf);
	free(buf);
	if (err)
		pp_ktrace_free(t);
	else if (!kb->running)
		kb->unread = false;	/* every slot it wrote is marked */
	return err;
}

#else /* !PP_HAVE_BPF */

struct kbpf {
	int unused;
};

bool kbpf_built(const char **why)
{
	if (why)
		*why = PP_BPF_BUILT_OUT;
	return false;
}

int kbpf_open(struct kbpf **out, unsigned int flags, char *why, size_t size)
{
	(void)flags;
	*out = NULL;
	snprintf(why, size, "%s", PP_BPF_BUILT_OUT);
	return -EOPNOTSUPP;
}

void kbpf_close(struct kbpf *kb)
{
	(void)kb;
}

uint32_t kbpf_probes(const struct kbpf *kb)
{
	(void)kb;
	return 0;
}

const char *kbpf_probe_how(const struct kbpf *kb, enum pp_kt_probe p,
			   const char **why)
{
	(void)kb;
	(void)p;
	*why = PP_BPF_BUILT_OUT;
	return NULL;
}

const char *kbpf_copy_routines(const struct kbpf *kb)
{
	(void)kb;
	return "";
}

int kbpf_trace_start(struct kbpf *kb, pid_t tgid, uint32_t probes)
{
	(void)kb;
	(void)tgid;
	(void)probes;
	return -EOPNOTSUPP;
}

int kbpf_trace_start_set(struct kbpf *kb, const pid_t *tgids, size_t n,
			 uint32_t probes)
{
	(void)kb;
	(void)tgids;
	(void)n;
	(void)probes;
	return -EOPNOTSUPP;
}

int kbpf_trace_stop(struct kbpf *kb)
{
	(void)kb;
	return -EOPNOTSUPP;
}

int kbpf_trace_read(struct kbpf *kb, struct pp_ktrace *t)
{
	(void)kb;
	memset(t, 0, sizeof(*t));
	return -EOPNOTSUPP;
}

#endif /* PP_HAVE_BPF */
