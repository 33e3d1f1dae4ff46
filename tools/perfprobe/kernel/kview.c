// SPDX-License-Identifier: GPL-2.0
/*
 * kview: the kernel view of every benchmark.
 *
 * pp_sample() hands each loop it sampled to kv_loop() after the untraced
 * samples.  The loop then runs twice more for as many iterations as one
 * sample, traced:
 *
 *   pass 1: the syscall probes alone, so sys_enter..sys_exit holds no
 *           other probe's cost: syscalls/op, kernel ns/op, top syscalls;
 *   pass 2: faults, fault time, the scheduler and the copy routines:
 *           faults/op, fault ns/op, switches/op, off-CPU ns/op, bytes
 *           copied/op, copy ns/op;
 *   pass 3: no probe, sampled (kprof.c): where the time went, as call
 *           stacks, the kernel's share of it and its functions.
 *
 * The traced time of each pass minus the untraced median is what its
 * probes cost, shown beside the figures, never taken out of them.  The
 * control calls that start and stop a trace are themselves seen (a
 * close(), a netlink exchange): an empty pass at set-up counts them, and
 * every pass subtracts that count.  Documentation/kernel-view.rst.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "kbpf.h"
#include "kprof.h"
#include "ksyms.h"
#include "ktrace.h"
#include "kview.h"
#include "ppnl.h"
#include "print.h"
#include "stats.h"
#include "usyms.h"
#include "kdwarf.h"

#define KV_PASS2	(PP_KT_BIT(PP_KT_FAULTS) | PP_KT_BIT(PP_KT_FAULT_NS) | \
			 PP_KT_BIT(PP_KT_SCHED) | PP_KT_BIT(PP_KT_COPY))
#define KV_MAX_PROCS	4096
#define KV_CHUNKS	3
/*
 * The sampled pass ends after the chunk that brings its samples to
 * --profile-samples (10 by default): the profile's precision is what that
 * option asks for, and its cost no more than that takes.  It runs its
 * chunks again while it has fewer: a short loop (--quick), or one on a
 * machine whose other work leaves it little CPU time.  Up to
 * KV_PROF_ROUNDS times in all, and beyond that while the pass has taken
 * less than KV_PROF_WALL times the CPU time the samples asked for stand
 * for (N samples at PP_KPROF_HZ): a benchmark that mostly sleeps gathers
 * few samples (cpu-clock counts CPU time), and must not run on and on.
 */
#define KV_PROF_ROUNDS		4
#define KV_PROF_WALL		4
/* the least kernel time a profile's line shows, ns/op (-v: every one) */
#define KV_PROF_NS_MIN	0.01

static struct {
	const char *source;		/* "kmod", "bpf"; NULL: off */
	const char *scope;
	pid_t owner;
	uint32_t probes;		/* PP_KT_BIT()s available */
	char missing[1024];	/* every probe that is not here, with why */
	struct pp_ktrace control;	/* what an empty pass sees */
	bool noted;			/* a pass failed: said once */
	struct ppnl nl;
	struct ppnl_info info;
	struct kbpf *kb;
	size_t partners;		/* processes added to the last pass */
	struct pp_kprof_how prof;	/* how the profile samples, or why not */
	unsigned int prof_min;		/* --profile-samples */
	bool prof_noted;		/* a sampled pass failed: said once */
	struct pp_ksyms ksyms;
	struct pp_usyms *usyms;
	struct pp_kdwarf *kdwarf;	/* the kernel's debug info, or NULL */
} kv;

int pp_kview_mode_parse(const char *s, enum pp_kv_mode *mode)
{
	static const char *const names[] = {
		[PP_KV_AUTO] = "auto", [PP_KV_KMOD] = "kmod",
		[PP_KV_BPF] = "bpf", [PP_KV_OFF] = "off",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*mode = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* --- the backends --- */

static uint32_t kmod_features(uint32_t probes)
{
	uint32_t f = 0;

	if (probes & PP_KT_BIT(PP_KT_SYSCALLS))
		f |= PERFPROBE_CAP_SYSCALL_TRACE;
	if (probes & PP_KT_BIT(PP_KT_FAULTS))
		f |= PERFPROBE_CAP_PGFAULT_TP;
	if (probes & PP_KT_BIT(PP_KT_FAULT_NS))
		f |= PERFPROBE_CAP_PGFAULT_KRETPROBE;
	if (probes & PP_KT_BIT(PP_KT_COPY))
		f |= PERFPROBE_CAP_COPY_KPROBES;
	return f & kv.info.caps;
}

static uint32_t kmod_probes(void)
{
	uint32_t caps = kv.info.caps, p = 0;

	if (caps & PERFPROBE_CAP_SYSCALL_TRACE)
		p |= PP_KT_BIT(PP_KT_SYSCALLS);
	if (caps & PERFPROBE_CAP_PGFAULT_TP)
		p |= PP_KT_BIT(PP_KT_FAULTS);
	if (caps & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		p |= PP_KT_BIT(PP_KT_FAULT_NS);
	if (caps & PERFPROBE_CAP_COPY_KPROBES)
		p |= PP_KT_BIT(PP_KT_COPY);
	return p;
}

/* pid -> parent pid of every process, from /proc/<pid>/stat. */
static size_t all_procs(pid_t (*pp)[2], size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		char path[300], buf[512], *p;
		int ppid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (pp_read_line(path, buf, sizeof(buf)))
			continue;	/* gone meanwhile */
		/* comm may hold anything, ')' too: the state follows the last */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
			continue;
		pp[n][0] = (pid_t)atoi(e->d_name);
		pp[n][1] = ppid;
		n++;
	}
	closedir(d);
	return n;
}

/*
 * The children of every thread of pid, from /proc/<pid>/task/<tid>/children
 * (CONFIG_PROC_CHILDREN), appended to set.  -ENOENT if the kernel has no
 * such file.
 */
static int children_of(pid_t pid, pid_t *set, size_t *nset)
{
	char path[300], buf[4096];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone meanwhile */
	while ((e = readdir(d))) {
		char *p, *end;
		ssize_t n;
		int fd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children", (int)pid, e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT && !found)
				found = -ENOENT;
			continue;
		}
		found = 1;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (p = buf; *nset < KV_MAX_PROCS; p = end) {
			long c = strtol(p, &end, 10);

			if (end == p)
				break;
			set[(*nset)++] = (pid_t)c;
		}
	}
	closedir(d);
	return found < 0 ? found : 0;
}

/* The same from every /proc/<pid>/stat, where children files are missing. */
static void descendants_by_scan(pid_t *set, size_t *nset)
{
	pid_t (*pp)[2] = malloc(KV_MAX_PROCS * sizeof(*pp));
	size_t np, i, j;
	bool grew = true;

	if (!pp)
		return;
	np = all_procs(pp, KV_MAX_PROCS);
	while (grew) {
		grew = false;
		for (i = 0; i < np && *nset < KV_MAX_PROCS; i++) {
			bool parent_in = false, in = false;

			for (j = 0; j < *nset; j++) {
				parent_in |= set[j] == pp[i][1];
				in |= set[j] == pp[i][0];
			}
			if (parent_in && !in) {
				set[(*nset)++] = pp[i][0];
				grew = true;
			}
		}
	}
	free(pp);
}

/*
 * This process and every live descendant of it: the benchmark's partners
 * forked before the trace starts (a pipe's other end, the server of a
 * TCP test).  *n set to their number; NULL when out of memory.
 */
static pid_t *traced_set(size_t *n)
{
	pid_t *set = malloc(KV_MAX_PROCS * sizeof(*set));
	size_t nset = 1, i;

	if (!set)
		return NULL;
	set[0] = getpid();
	for (i = 0; i < nset; i++) {
		if (children_of(set[i], set, &nset) == -ENOENT) {
			nset = 1;
			descendants_by_scan(set, &nset);
			break;
		}
	}
	*n = nset;
	return set;
}

static int kv_start(uint32_t probes)
{
	pid_t *set;
	size_t n;
	int err;

	if (!strcmp(kv.source, "kmod"))
		return ppnl_trace_start(&kv.nl, (uint32_t)getpid(), kmod_features(probes), NULL);
	set = traced_set(&n);
	if (!set)
		return -ENOMEM;
	kv.partners = n - 1;
	err = kbpf_trace_start_set(kv.kb, set, n, probes);
	free(set);
	return err;
}

static int kv_stop(void)
{
	if (!strcmp(kv.source, "kmod"))
		return ppnl_trace_stop(&kv.nl);
	return kbpf_trace_stop(kv.kb);
}

static int kv_read(struct pp_ktrace *t)
{
	struct ppnl_trace nt;
	int err;

	if (strcmp(kv.source, "kmod"))
		return kbpf_trace_read(kv.kb, t);
	memset(&nt, 0, sizeof(nt));
	err = ppnl_trace_get(&kv.nl, &nt);
	if (!err)
		err = pp_ktrace_from_ppnl(&nt, t);
	ppnl_trace_free(&nt);
	return err;
}

static void kv_why(int err, char *buf, size_t size)
{
	if (!strcmp(kv.source, "kmod"))
		ppnl_strerror(&kv.nl, err, buf, size);
	else
		snprintf(buf, size, "%s", strerror(-err));
}

/* What one traced pass measured, besides its trace. */
struct kv_pass {
	double ops;		/* operations made under the trace */
	double ns;		/* per op: the median of its chunks */
	double total;		/* per op: all of it */
};

/*
 * The job's chunks, each timed, *p their timings; between(arg) after
 * each, outside the timing: a positive return ends the pass there.
 * 0 or a negative errno.
 */
static int run_chunks(const struct pp_kv_job *job, struct kv_pass *p,
		      int (*between)(void *), void *arg)
{
	uint64_t t0, t1, done = 0, n, sum = 0;
	double chunk[KV_CHUNKS], own;
	unsigned int c, nc = 0;
	int ret = 0;

	/*
	 * In up to KV_CHUNKS timed chunks under one trace: the median of
	 * their times per operation is steadier than one timing.  Work
	 * that counts itself runs once a chunk.  A run of it may count no
	 * operation (a net test whose one interval a loaded machine let
	 * pass with no transaction ended in it): its calls stay in the
	 * pass's counts, its time (an operation's of none) out of its
	 * timings, and only a pass with no operation at all is a failure
	 * (-ENODATA).
	 */
	for (c = 0; c < KV_CHUNKS && !ret; c++) {
		if (job->work) {
			n = 0;
			own = 0;
			t0 = pp_now_ns();
			ret = job->work(job->arg, &n, &own);
			t1 = pp_now_ns();
			if (!ret && own > 0 && n)	/* its own timing of one */
				t1 = t0 + (uint64_t)(own * (double)n);
		} else {
			if (done >= job->iters)
				break;
			n = c == KV_CHUNKS - 1 ? job->iters - done : job->iters / KV_CHUNKS;
			if (!n)
				n = job->iters - done;
			t0 = pp_now_ns();
			ret = job->loop(n, job->arg);
			t1 = pp_now_ns();
		}
		if (ret)
			break;
		if (n) {
			chunk[nc++] = (double)(t1 - t0) / (double)n;
			sum += t1 - t0;
			done += n;
		}
		if (between)
			ret = between(arg);
		if (ret > 0) {		/* enough: the chunks done are the pass */
			ret = 0;
			break;
		}
	}
	p->ops = (double)done;
	p->ns = nc ? pp_median(chunk, nc) : 0;
	p->total = done ? (double)sum / (double)done : 0;
	if (!ret && job->work && !done)
		ret = -ENODATA;		/* not one run counted an operation */
	return ret;
}

/*
 * One traced pass of the job: the trace in t (pp_ktrace_free() it), its
 * timings in *p.  0 or a negative errno.
 */
static int traced_pass(const struct pp_kv_job *job, uint32_t probes, struct pp_ktrace *t,
		       struct kv_pass *p)
{
	int ret, stop;

	memset(t, 0, sizeof(*t));
	ret = kv_start(probes);
	if (ret)
		return ret;
	ret = run_chunks(job, p, NULL, NULL);
	stop = kv_stop();
	if (ret)
		return ret;
	if (stop)
		return stop;
	return kv_read(t);
}

/* A syscall's count less what starting and stopping a trace adds. */
static double net_count(const struct pp_ktrace_sys *s)
{
	const struct pp_ktrace_sys *c = pp_ktrace_find(&kv.control, (int)s->nr);
	double n = (double)s->count;

	if (c)
		n -= (double)c->count;
	return n > 0 ? n : 0;
}

static int cmp_ns_desc(const void *a, const void *b)
{
	const struct pp_kside_sys *x = a, *y = b;

	return (x->ns_per_op < y->ns_per_op) - (x->ns_per_op > y->ns_per_op);
}

/*
 * The probes' share of one sys_enter..sys_exit window, and its standard
 * error, from the calls an inner probe pair timed too (kview.bpf.c):
 * each such call gives x, two calls and two returns of a program, while
 * the inner window holds one of each.  NAN where no call was paired
 * (perfprobe.ko, or the inner programs not attached).
 */
static double window_share(const struct pp_ktrace *t, double *err)
{
	double n = 0, sum = 0, sq = 0, var;
	size_t i;

	*err = NAN;
	for (i = 0; i < t->nsys; i++) {
		n += (double)t->sys[i].paired;
		sum += (double)t->sys[i].x_ns;
		sq += (double)t->sys[i].x_sq;
	}
	if (n < 2)
		return NAN;
	/*
	 * A share as long as a call's whole inner window breaks the method's
	 * assumption (seen on 6.12-rt under TCG): not measured, then.
	 */
	for (i = 0; i < t->nsys; i++)
		if (t->sys[i].paired &&
		    (double)t->sys[i].inner_ns / (double)t->sys[i].paired <= sum / n / 2)
			return NAN;
	var = (sq - sum * sum / n) / (n - 1);
	*err = sqrt(var > 0 ? var / n : 0) / 2;
	return sum / n / 2;
}

/*
 * The time inside a syscall's calls, per call: the inner windows less
 * the probes' share w where they were paired, else the outer windows.
 */
static double call_ns(const struct pp_ktrace_sys *s, double w)
{
	if (s->paired && isfinite(w))
		return (double)s->inner_ns / (double)s->paired - w;
	return s->timed ? (double)s->ns / (double)s->timed : 0;
}

static void fill_syscalls(struct pp_kside *k, const struct pp_ktrace *t,
			  const struct kv_pass *p, double gross_ns)
{
	struct pp_kside_sys top[PP_KSIDE_TOP + 1];
	double all = 0, ns = 0, w, w_err;
	unsigned int ntop = 0;
	size_t i;

	w = window_share(t, &w_err);
	for (i = 0; i < t->nsys; i++) {
		const struct pp_ktrace_sys *s = &t->sys[i];
		/* the untimed calls (open at the trace's edges) at the mean */
		double c = net_count(s), sns = call_ns(s, w) * c;
		const char *name;

		if (c <= 0)
			continue;
		all += c;
		ns += sns;
		/* keep the PP_KSIDE_TOP that take the most time */
		name = ppnl_syscall_name(s->nr);
		if (name)
			snprintf(top[ntop].name, sizeof(top[ntop].name), "%s", name);
		else
			snprintf(top[ntop].name, sizeof(top[ntop].name), "syscall_%u", s->nr);
		top[ntop].count_per_op = c / p->ops;
		top[ntop].ns_per_op = sns / p->ops;
		ntop++;
		qsort(top, ntop, sizeof(top[0]), cmp_ns_desc);
		if (ntop > PP_KSIDE_TOP)
			ntop = PP_KSIDE_TOP;
	}
	k->syscalls_per_op = all / p->ops;
	k->kernel_ns_per_op = ns / p->ops;
	if (isfinite(w)) {
		k->window_probe_ns_per_op = w * k->syscalls_per_op;
		k->kernel_ns_err = w_err * k->syscalls_per_op;
	}
	k->probe_ns_per_op = p->ns - gross_ns;
	k->traced_ns_per_op = p->total;
	k->traced_ops = p->ops;
	/*
	 * Only one process's time can be set against the loop's own, and
	 * only if the syscalls did not block longer than the loop took.
	 */
	if ((!strcmp(t->source, "kmod") || (!t->forks && !kv.partners)) &&
	    k->kernel_ns_per_op <= gross_ns)
		k->entry_exit_ns_per_op = gross_ns - k->kernel_ns_per_op;
	memcpy(k->top, top, ntop * sizeof(top[0]));
	k->ntop = ntop;
}

static void fill_others(struct pp_kside *k, const struct pp_ktrace *t,
			const struct kv_pass *p, double gross_ns)
{
	double ops = p->ops;

	if (t->have & PP_KT_BIT(PP_KT_FAULTS))
		k->faults_per_op = (double)t->faults / ops;
	if (t->have & PP_KT_BIT(PP_KT_FAULT_NS))
		k->fault_ns_per_op = (double)t->fault_ns / ops;
	if (t->have & PP_KT_BIT(PP_KT_SCHED)) {
		k->switches_per_op = (double)t->switches / ops;
		k->offcpu_ns_per_op = (double)t->offcpu_ns / ops;
	}
	if (t->have & PP_KT_BIT(PP_KT_COPY)) {
		k->copy_bytes_per_op = (double)t->copy_bytes / ops;
		/* perfprobe.ko counts copies without timing them */
		if (strcmp(t->source, "kmod"))
			k->copy_ns_per_op = (double)t->copy_ns / ops;
	}
	k->probe2_ns_per_op = p->ns - gross_ns;
}

static void pass_failed(struct pp_ctx *ctx, int err)
{
	char why[PPNL_MSG_MAX + 64];

	if (kv.noted)
		return;
	kv.noted = true;
	kv_why(err, why, sizeof(why));
	pp_notice(ctx, "%s: note: a traced pass failed (%s): no kernel view for it%s",
		  ctx->bench, why, err == -EBUSY ? "; is another trace running?" : "");
}

/* Between the sampled pass's chunks: 1 once it has the samples asked for. */
static int kprof_drain(void *arg)
{
	int ret = pp_kprof_drain(arg);

	return ret ? ret : pp_kprof_samples(arg) >= kv.prof_min;
}

/*
 * The event's period for PP_KPROF_HZ: nanoseconds of the cpu-clock, or
 * cycles at the run's clock (measured, else what the system says, else
 * 2 GHz); the CPU time a sample stands for in *ns.
 */
static uint64_t prof_period(const struct pp_ctx *ctx, double *ns)
{
	const struct pp_mhz *m = &ctx->run->meta.mhz;
	double mhz = m->mhz > 0 ? m->mhz : m->system_mhz > 0 ? m->system_mhz : 2000;
	uint64_t period;

	if (kv.prof.timer) {
		period = 1000000000ull / PP_KPROF_HZ;
		*ns = (double)period;
	} else {
		period = (uint64_t)(mhz * 1e6 / PP_KPROF_HZ);
		*ns = (double)period * 1e3 / mhz;
	}
	return period;
}

/* What a sampled pass gives. */
struct kv_sampled {
	struct pp_prof *prof;
	struct kv_pass pass;		/* its first round's timings */
	double ops;			/* the operations of all its rounds */
	char why[PP_KPROF_WHY_MAX + 64];	/* when it failed */
};

/* Sample the job's pass into *out: 0 or a negative errno (out->why). */
static int sampled_pass(const struct pp_ctx *ctx, const struct pp_kv_job *job,
			struct kv_sampled *out)
{
	struct kv_pass *p = &out->pass;
	char *why = out->why;
	size_t len = sizeof(out->why);
	struct pp_kprof_req req = { .hz = PP_KPROF_HZ };
	struct pp_kprof *kp = NULL;
	struct kv_pass more;
	double sample_ns;
	uint64_t until;
	unsigned int r;
	pid_t *set;
	int ret, stop;

	req.period = prof_period(ctx, &sample_ns);

	set = traced_set(&req.npids);
	if (!set)
		return -ENOMEM;
	req.pids = set;
	/* a chunk's worth between drains */
	if (!job->work)
		req.expect_ns = job->gross_ns * (double)job->iters / KV_CHUNKS;
	ret = pp_kprof_start(&kp, &kv.prof, &req, why, len);
	free(set);
	if (ret)
		return ret;
	until = pp_now_ns() + (uint64_t)KV_PROF_WALL * kv.prof_min * (1000000000ull / PP_KPROF_HZ);
	/* the first round's timings: what sampling costs */
	ret = run_chunks(job, p, kprof_drain, kp);
	out->ops = p->ops;
	for (r = 1; !ret && pp_kprof_samples(kp) < kv.prof_min &&
	     (r < KV_PROF_ROUNDS || pp_now_ns() < until); r++) {
		ret = run_chunks(job, &more, kprof_drain, kp);
		out->ops += more.ops;
	}
	stop = pp_kprof_stop(kp);
	if (!ret)
		ret = stop;
	if (!ret)
		ret = pp_kprof_profile(kp, &kv.ksyms, kv.usyms, kv.kdwarf, &out->prof);
	if (!ret)
		out->prof->sample_ns = sample_ns;
	pp_kprof_close(kp);
	pp_usyms_forget(kv.usyms);
	if (ret)
		snprintf(why, len, "%s", strerror(-ret));
	return ret;
}

/*
 * Pass 3: the profile, nothing else armed.  Its shares are of the
 * untraced time of one operation; what it cost is its pass's time less
 * that.  A pass that fails leaves the other figures; said once.
 */
static void profile_pass(struct pp_ctx *ctx, const struct pp_kv_job *job, struct pp_kside *k)
{
	struct kv_sampled sp = { 0 };
	int ret;

	ret = sampled_pass(ctx, job, &sp);
	if (!ret)
		ret = pp_run_keep_prof(ctx->run, sp.prof);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(sp.why, sizeof(sp.why), "%s", strerror(-ret));
		if (!kv.prof_noted)
			pp_notice(ctx, "%s: note: the sampled pass failed (%s): no profile for it",
				  ctx->bench, sp.why);
		kv.prof_noted = true;
		return;
	}
	k->prof = sp.prof;
	k->prof_op_ns = job->gross_ns;
	k->prof_ops = sp.ops;
	if (sp.pass.ns > job->gross_ns)
		k->prof_cost_ns_per_op = sp.pass.ns - job->gross_ns;
}

static int kv_loop(struct pp_ctx *ctx, const struct pp_kv_job *job, struct pp_kside *k)
{
	struct pp_ktrace t;
	struct kv_pass p;
	int ret = 0;

	/* a benchmark's child sampling on its own: not ours to trace */
	if (getpid() != kv.owner || (!job->work && !job->iters))
		return -1;
	pp_strlcpy(k->source, kv.source, sizeof(k->source));
	k->scope = kv.scope;
	k->missing = kv.missing[0] ? kv.missing : NULL;
	if (kv.probes & PP_KT_BIT(PP_KT_SYSCALLS)) {
		ret = traced_pass(job, PP_KT_BIT(PP_KT_SYSCALLS), &t, &p);
		if (!ret)
			fill_syscalls(k, &t, &p, job->gross_ns);
		pp_ktrace_free(&t);
	}
	if (!ret && (kv.probes & KV_PASS2)) {
		ret = traced_pass(job, kv.probes & KV_PASS2, &t, &p);
		if (!ret)
			fill_others(k, &t, &p, job->gross_ns);
		pp_ktrace_free(&t);
	}
	if (ret) {
		pass_failed(ctx, ret);
		return ret;
	}
	if (kv.prof.ok && job->gross_ns > 0)
		profile_pass(ctx, job, k);
	return 0;
}

/* --- choosing the backend --- */

static void missing_add(uint32_t have, enum pp_kt_probe p, const char *why)
{
	size_t len = strlen(kv.missing);

	if (have & PP_KT_BIT(p))
		return;
	snprintf(kv.missing + len, sizeof(kv.missing) - len, "%s%s: %s",
		 len ? "; " : "", pp_kt_probe_name(p), why ? why : "not available");
}

static int use_kmod(char *why, size_t size)
{
	int err = ppnl_connect(&kv.nl, &kv.info);

	if (err) {
		if (err == -ENOENT)
			snprintf(why, size, "%s", PPNL_NOT_LOADED);
		else
			ppnl_strerror(&kv.nl, err, why, size);
		return err;
	}
	kv.source = "kmod";
	kv.scope = "perfprobe's own process";
	kv.probes = kmod_probes();
	missing_add(kv.probes, PP_KT_SYSCALLS, "perfprobe.ko has no syscall tracepoints here");
	missing_add(kv.probes, PP_KT_FAULTS, kv.info.pgfault_reason);
	missing_add(kv.probes, PP_KT_FAULT_NS, kv.info.pgfault_reason);
	missing_add(kv.probes, PP_KT_SCHED, "perfprobe.ko does not watch the scheduler");
	missing_add(kv.probes, PP_KT_COPY, kv.info.copy_reason);
	return 0;
}

static int use_bpf(char *why, size_t size)
{
	const char *built_why;
	int err, p;

	if (!kbpf_built(&built_why)) {
		snprintf(why, size, "%s", built_why);
		return -EOPNOTSUPP;
	}
	err = kbpf_open(&kv.kb, 0, why, size);
	if (err)
		return err;
	kv.source = "bpf";
	kv.scope = "perfprobe and its children";
	kv.probes = kbpf_probes(kv.kb);
	for (p = 0; p < PP_KT_NPROBES; p++) {
		const char *pwhy = NULL;

		if (!kbpf_probe_how(kv.kb, p, &pwhy))
			missing_add(kv.probes, p, pwhy);
	}
	return 0;
}

/*
 * The kernel's debug info for the profile: the file given (vmlinux) must
 * be usable; one found where distributions install it is used if it is
 * the running kernel's, and said once if not.  0, or -1 said.
 */
static int use_kdwarf(const char *vmlinux, bool quiet)
{
	char why[512];
	int err = pp_kdwarf_open_running(&kv.kdwarf, vmlinux, kv.ksyms.text_lo, why,
					 sizeof(why));

	if (!err)
		return 0;
	if (vmlinux) {
		pp_err("--vmlinux: %s", why);
		return -1;
	}
	if (err != -ENOENT && !quiet)
		pp_err("note: the profile names no inlined functions or source lines: %s", why);
	return 0;
}

/*
 * Can the profile be taken: the clock to sample with and the kernel's
 * symbols, or why not, into missing.
 */
static void use_prof(void)
{
	size_t len;

	if (!pp_kprof_probe(&kv.prof) &&
	    !pp_ksyms_load(&kv.ksyms, "/proc/kallsyms", kv.prof.why, sizeof(kv.prof.why))) {
		kv.usyms = pp_usyms_new();
		if (kv.usyms)
			return;
		snprintf(kv.prof.why, sizeof(kv.prof.why), "out of memory");
		pp_ksyms_free(&kv.ksyms);
	}
	kv.prof.ok = false;
	len = strlen(kv.missing);
	snprintf(kv.missing + len, sizeof(kv.missing) - len, "%sprofile: %s", len ? "; " : "",
		 kv.prof.why);
}

static void kv_close(void)
{
	pp_kdwarf_close(kv.kdwarf);
	kv.kdwarf = NULL;
	pp_usyms_free(kv.usyms);
	kv.usyms = NULL;
	pp_ksyms_free(&kv.ksyms);
	if (kv.kb)
		kbpf_close(kv.kb);
	kv.kb = NULL;
	if (kv.source && !strcmp(kv.source, "kmod"))
		ppnl_close(&kv.nl);
	pp_ktrace_free(&kv.control);
}

/*
 * The probe groups and the profile that missing ("fault-time: why;
 * profile: why", the reasons holding "; " too) names, as "fault-time,
 * profile".
 */
static void missing_names(const char *missing, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int p;

	buf[0] = '\0';
	for (p = 0; p <= PP_KT_NPROBES; p++) {
		const char *name = p < PP_KT_NPROBES ? pp_kt_probe_name(p) : "profile", *m;
		size_t n = strlen(name);

		for (m = missing; m; m = strstr(m, "; ")) {
			m += m == missing ? 0 : 2;
			if (!strncmp(m, name, n) && m[n] == ':')
				break;
		}
		if (m && len < size)
			len += snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
	}
}

int pp_kview_setup(struct pp_ctx *ctx, enum pp_kv_mode mode)
{
	char kwhy[PPNL_MSG_MAX + 64] = "", bwhy[KBPF_WHY_MAX + 64] = "";
	const struct pp_kv_job empty = { 0 };
	char names[128];
	struct kv_pass p;
	int err;

	if (mode == PP_KV_OFF)
		return 0;
	if ((mode == PP_KV_AUTO || mode == PP_KV_KMOD) && !use_kmod(kwhy, sizeof(kwhy)))
		goto ready;
	if (mode == PP_KV_KMOD) {
		pp_err("--kernel-view=kmod: perfprobe.ko not usable: %s", kwhy);
		return -1;
	}
	if (!use_bpf(bwhy, sizeof(bwhy)))
		goto ready;
	if (mode == PP_KV_BPF) {
		pp_err("--kernel-view=bpf: BPF not usable: %s", bwhy);
		return -1;
	}
	if (!ctx->opts.quiet)
		pp_err("note: no kernel view: neither perfprobe.ko nor BPF is usable here "
		       "(perfprobe kernel-view status says why; --kernel-view=off hides this)");
	return 0;

ready:
	kv.owner = getpid();
	kv.prof_min = ctx->opts.profile_samples ? ctx->opts.profile_samples : PP_PROFILE_SAMPLES;
	atexit(kv_close);
	use_prof();
	if (kv.prof.ok && use_kdwarf(ctx->opts.vmlinux, ctx->opts.quiet))
		return -1;
	/* what starting and stopping a trace is seen doing by itself */
	err = traced_pass(&empty, PP_KT_BIT(PP_KT_SYSCALLS), &kv.control, &p);
	if (err) {
		kv_why(err, kwhy, sizeof(kwhy));
		pp_err("kernel view (%s): a trace cannot start: %s", kv.source, kwhy);
		return -1;
	}
	ctx->kview = kv_loop;
	if (ctx->opts.quiet)
		return 0;
	missing_names(kv.missing, names, sizeof(names));
	pp_err("kernel view from %s (%s)%s%s%s", kv.source, kv.scope,
	       names[0] ? "; not here: " : "", names,
	       names[0] ? " (perfprobe kernel-view status)" : "");
	return 0;
}

/* --- the block --- */

/* v is worth a place in the text: -v shows every figure measured. */
static bool shown(double v, double min, bool all)
{
	return isfinite(v) && (all || v >= min);
}

/*
 * " (probes +310 ns)", and with -v a difference lost in the noise and
 * the probes' share taken out of the syscall window (NaN: none).
 */
static void print_probe(double ns, double window, bool all)
{
	char v[PP_NUM_LEN + 4];

	if (!all && !(ns > 0))
		return;
	if (!isfinite(ns)) {
		pp_print_text(" (probes: not measured");
	} else if (ns <= 0) {
		pp_print_text(" (probes: below the noise");
	} else {
		pp_fmt_ns(v, sizeof(v), ns);
		pp_print_text(" (probes +%s", v);
	}
	pp_fmt_ns(v, sizeof(v), window);
	if (all && isfinite(window))
		pp_print_text("; %s inside the window, taken out", v);
	pp_print_text(")");
}

static void print_count(const char *sep, double v, const char *what)
{
	char n[PP_NUM_LEN];

	pp_fmt_num(n, sizeof(n), v);
	pp_print_text("%s %s %s/op", sep, n, what);
}

static void print_ns(const char *fmt, double ns)
{
	char v[PP_NUM_LEN + 4];

	pp_fmt_ns(v, sizeof(v), ns);
	pp_print_text(fmt, v);
}

/* The profile's kernel time is worth a place beside the counts. */
static bool prof_shown(const struct pp_kside *k)
{
	double se;

	return k->prof->kernel &&
	       pp_prof_ns(k->prof->kernel, k->prof->samples, k->prof_op_ns, &se) >= KV_PROF_NS_MIN;
}

/*
 * The profile's lines, the first where the key's column ends: the
 * kernel's share and time, what sampling cost; the top kernel functions
 * by self time (-v: each with its path, the error of the kernel's time,
 * a cost below the noise).
 */
static void print_prof(const struct pp_kside *k, bool all)
{
	const struct pp_prof *p = k->prof;
	char a[PP_NUM_LEN + 4], path[PP_PROF_PATH_MAX];
	struct pp_prof_fn *f = NULL;
	size_t nf = 0, i;
	double se, ns;

	ns = pp_prof_ns(p->kernel, p->samples, k->prof_op_ns, &se);
	pp_fmt_ns(a, sizeof(a), ns);
	pp_print_text(" profile: %.0f%% kernel, %s/op",
		      p->samples ? 100.0 * (double)p->kernel / (double)p->samples : 0, a);
	if (all)
		print_ns(" +-%s", se);
	pp_print_text(" (%llu samples, %s", (unsigned long long)p->samples, p->event);
	if (isfinite(k->prof_cost_ns_per_op))
		print_ns("; sampling +%s", k->prof_cost_ns_per_op);
	else if (all)
		pp_print_text("; sampling: below the noise");
	pp_print_text(p->lost ? "; %llu lost)\n" : ")\n", (unsigned long long)p->lost);
	/* by self time, most first */
	if (pp_prof_functions(p, &f, &nf) || !nf || !f[0].self ||
	    !shown(pp_prof_ns(f[0].self, p->samples, k->prof_op_ns, &se), KV_PROF_NS_MIN, all)) {
		free(f);
		return;
	}
	pp_print_text("  %-26s kernel self:", "");
	for (i = 0; i < nf && i < 3 && f[i].self; i++) {
		ns = pp_prof_ns(f[i].self, p->samples, k->prof_op_ns, &se);
		if (!shown(ns, KV_PROF_NS_MIN, all))
			break;
		pp_fmt_ns(a, sizeof(a), ns);
		pp_print_text("%s %s %s", i ? "," : "", p->frames[f[i].frame], a);
	}
	pp_print_text("\n");
	for (i = 0; all && i < nf && i < PP_PROF_TOP && f[i].self; i++) {
		const struct pp_prof_line *l = pp_prof_hot_line(p, f[i].frame);

		pp_prof_path(p, f[i].frame, true, path, sizeof(path));
		pp_fmt_ns(a, sizeof(a), pp_prof_ns(f[i].self, p->samples, k->prof_op_ns, &se));
		pp_print_text("  %-26s   %s/op in %s", "", a, path);
		if (l)
			pp_print_text("; most at %s (%.0f%%)", l->src,
				      100.0 * (double)l->count / (double)f[i].self);
		pp_print_text("\n");
	}
	free(f);
}

/* pass 1: syscalls, kernel time, the top syscalls */
static void print_syscalls(const struct pp_kside *k, bool all)
{
	const char *sep = ";";
	unsigned int i;
	char n[PP_NUM_LEN];

	print_count("", k->syscalls_per_op, "syscalls");
	print_ns(", kernel %s/op", k->kernel_ns_per_op);
	if (all && isfinite(k->kernel_ns_err))
		print_ns(" +-%s", k->kernel_ns_err);
	print_probe(k->probe_ns_per_op, k->window_probe_ns_per_op, all);
	/* one kind of call: its count and time are the totals */
	if (k->ntop == 1 && !all) {
		pp_print_text("; %s", k->top[0].name);
		return;
	}
	for (i = 0; i < k->ntop && i < PP_KSIDE_TOP; i++) {
		if (!shown(k->top[i].count_per_op, PP_KSIDE_COUNT_MIN, all))
			continue;
		pp_fmt_num(n, sizeof(n), k->top[i].count_per_op);
		pp_print_text("%s %s %s/op", sep, k->top[i].name, n);
		print_ns(" %s", k->top[i].ns_per_op);
		sep = ",";
	}
}

/* pass 2: faults, the scheduler, user copies */
static bool have_pass2(const struct pp_kside *k, bool all)
{
	return shown(k->faults_per_op, PP_KSIDE_COUNT_MIN, all) ||
	       shown(k->switches_per_op, PP_KSIDE_COUNT_MIN, all) ||
	       shown(k->copy_bytes_per_op, PP_KSIDE_BYTES_MIN, all);
}

static void print_pass2(const struct pp_kside *k, bool all)
{
	const char *sep = "";

	if (shown(k->faults_per_op, PP_KSIDE_COUNT_MIN, all)) {
		print_count(sep, k->faults_per_op, "faults");
		if (isfinite(k->fault_ns_per_op))
			print_ns(" (%s/op)", k->fault_ns_per_op);
		sep = ",";
	}
	if (shown(k->switches_per_op, PP_KSIDE_COUNT_MIN, all)) {
		print_count(sep, k->switches_per_op, "switches");
		print_ns(", off-CPU %s/op", k->offcpu_ns_per_op);
		sep = ",";
	}
	if (shown(k->copy_bytes_per_op, PP_KSIDE_BYTES_MIN, all)) {
		static const struct { double scale; const char *unit; } u[] = {
			{ 1, "B" }, { 1 << 10, "KiB" }, { 1 << 20, "MiB" },
		};
		double v = k->copy_bytes_per_op;
		char b[PP_NUM_LEN];
		size_t i = 0;

		while (i + 1 < ARRAY_SIZE(u) && v >= u[i + 1].scale)
			i++;
		pp_fmt_num(b, sizeof(b), v / u[i].scale);
		pp_print_text("%s %s %s copied/op", sep, b, u[i].unit);
		if (isfinite(k->copy_ns_per_op) && k->kernel_ns_per_op > 0)
			pp_print_text(", copy %.0f%% of kernel time",
				      100 * k->copy_ns_per_op / k->kernel_ns_per_op);
	}
	print_probe(k->probe2_ns_per_op, NAN, all);
}

/*
 * A key's one or two lines, and its profile's beneath them; false,
 * printing nothing, when it has no count worth a place (all: every key
 * with a kernel view).
 */
static bool print_one(const struct pp_result *r, bool all)
{
	const struct pp_kside *k = &r->k;
	bool sys = shown(k->syscalls_per_op, PP_KSIDE_COUNT_MIN, all);
	bool more = have_pass2(k, all);
	bool prof = k->prof && (all || ((sys || more) && prof_shown(k)));

	if (!sys && !more && !prof)
		return false;
	pp_print_text("  %-26s", r->key);
	if (sys) {
		print_syscalls(k, all);
		pp_print_text("\n");
		if (more || prof)
			pp_print_text("  %-26s", "");
	}
	if (more) {
		print_pass2(k, all);
		pp_print_text("\n");
		if (prof)
			pp_print_text("  %-26s", "");
	}
	if (prof)
		print_prof(k, all);
	return true;
}

/*
 * After the tables: each key with something worth a place (-v: every
 * key, every figure), then one line for the keys left out and one for
 * the probe groups not measured here.
 */
void pp_kview_print(const struct pp_run *run)
{
	const struct pp_result *first = NULL;
	bool all = pp_verbosity() > 0;
	size_t i, left = 0;
	char names[128];

	for (i = 0; i < run->nresults && !first; i++)
		if (run->results[i].k.source[0])
			first = &run->results[i];
	if (!first)
		return;
	pp_print_text("\nKernel view (%s, %s), per operation, from traced passes after the samples:\n",
		      first->k.source, first->k.scope ? first->k.scope : "traced processes");
	for (i = 0; i < run->nresults; i++)
		if (run->results[i].k.source[0] && !print_one(&run->results[i], all))
			left++;
	pp_fmt_num(names, sizeof(names), PP_KSIDE_COUNT_MIN);
	if (left)
		pp_print_text("  %zu more key%s: no count at or above %s a operation (-v shows them)\n",
			      left, left == 1 ? "" : "s", names);
	if (!first->k.missing)
		return;
	if (all) {
		pp_print_text("  not measured here: %s\n", first->k.missing);
		return;
	}
	missing_names(first->k.missing, names, sizeof(names));
	pp_print_text("  not measured here: %s (perfprobe kernel-view status says why)\n", names);
}
