// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe trace [-H] [--all] -- COMMAND [ARGS]: run COMMAND traced by
 * perfprobe.ko or BPF (--kernel-view, as run) and print a per-syscall
 * summary (like perf trace -s), its page faults, its context switches
 * (BPF) and, with --all, its user-copy routine calls.
 *
 * By default nothing but the syscall probes fires inside sys_enter..
 * sys_exit: the copy probes and the fault-time probe would add their own
 * cost to the syscall times (Documentation/kernel-view.rst), so they are
 * armed only with --all, which says so in its output.
 *
 * The child is forked stopped on a pipe so that the trace covers it from
 * its first instruction after exec; exec failures come back on a second,
 * close-on-exec pipe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "kbpf.h"
#include "kmodcmd.h"
#include "ktrace.h"
#include "kview.h"
#include "options.h"
#include "print.h"

/* The syscall probes and the cheap ones that do not fire inside them. */
#define TRACE_KMOD_DEFAULT	(PERFPROBE_CAP_SYSCALL_TRACE | PERFPROBE_CAP_PGFAULT_TP)
#define TRACE_BPF_DEFAULT	(PP_KT_BIT(PP_KT_SYSCALLS) | PP_KT_BIT(PP_KT_FAULTS) | \
				 PP_KT_BIT(PP_KT_SCHED))

struct trace_opts {
	bool hist, all;
	const char *source;		/* "kmod", "bpf" */
	uint64_t switches, offcpu_ns;	/* bpf: the scheduler's view */
	bool have_sched;
	/* why a probe is not available ("" if it is): copies, kbpf is closed */
	char why_not[PP_KT_NPROBES][KBPF_WHY_MAX];
	/* what the output says of fault times and copies when they are missing */
	const char *fault_why, *copy_why;
};

struct child {
	pid_t pid;
	int go;				/* write end: start the command */
	int exec_err;			/* read end: errno of a failed exec */
	int status;
	int start_errno;		/* exec failed with this */
};

/* --- the child --- */

static void __attribute__((noreturn)) child_run(int go, int err, char **argv)
{
	char c = 0;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	/* EOF: perfprobe gave up before starting us */
	if (c != 'g')
		_exit(127);
	close(go);
	execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int child_fork(struct child *ch, char **argv)
{
	int go[2], err[2], ret;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		ret = -errno;
		goto close_go;
	}
	fflush(NULL);
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_run(go[0], err[1], argv);
	}
	if (ch->pid < 0) {
		ret = -errno;
		goto close_err;
	}
	close(go[0]);
	close(err[1]);
	ch->go = go[1];
	ch->exec_err = err[0];
	return 0;

close_err:
	close(err[0]);
	close(err[1]);
close_go:
	close(go[0]);
	close(go[1]);
	return ret;
}

/* Start (go) or abandon (!go) the child, then wait for it. */
static void child_finish(struct child *ch, bool go)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	ssize_t n;
	int e;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	if (go && write(ch->go, "g", 1) != 1)
		go = false;
	close(ch->go);
	ch->start_errno = 0;
	do {
		n = read(ch->exec_err, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e))
		ch->start_errno = e;
	close(ch->exec_err);
	while (waitpid(ch->pid, &ch->status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
}

/* --- the trace --- */

static int do_trace(struct ppnl *s, char **argv, struct child *ch,
		    struct ppnl_trace *t, uint32_t features)
{
	int ret, stop;

	ret = child_fork(ch, argv);
	if (ret) {
		pp_err("trace: cannot fork: %s", strerror(-ret));
		return PP_EXIT_FAIL;
	}
	/* 0: every feature this kernel has */
	ret = ppnl_trace_start(s, (uint32_t)ch->pid, features, NULL);
	if (ret) {
		ppnl_perror(s, "trace: TRACE_START", ret);
		child_finish(ch, false);
		return PP_EXIT_FAIL;
	}
	child_finish(ch, true);
	stop = ppnl_trace_stop(s);
	if (stop) {
		ppnl_perror(s, "trace: TRACE_STOP", stop);
		return PP_EXIT_FAIL;
	}
	if (ch->start_errno) {
		pp_err("trace: cannot run '%s': %s", argv[0], strerror(ch->start_errno));
		return PP_EXIT_FAIL;
	}
	ret = ppnl_trace_get(s, t);
	if (ret) {
		ppnl_perror(s, "trace: TRACE_GET", ret);
		return PP_EXIT_FAIL;
	}
	return 0;
}

/*
 * The same with BPF, into perfprobe.ko's model so that the tables are the
 * same: per syscall its count, total, mean and longest call (no
 * histograms: BPF keeps sums, not buckets).
 */
static int bpf_to_ppnl(const struct pp_ktrace *k, struct ppnl_trace *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->have_summary = true;
	t->duration_ns = k->duration_ns;
	t->dropped = k->dropped;
	if (k->have & PP_KT_BIT(PP_KT_SYSCALLS))
		t->features |= PERFPROBE_CAP_SYSCALL_TRACE;
	if (k->have & PP_KT_BIT(PP_KT_FAULTS)) {
		t->features |= PERFPROBE_CAP_PGFAULT_TP;
		t->pf_tp = k->faults;
	}
	if (k->have & PP_KT_BIT(PP_KT_FAULT_NS)) {
		t->features |= PERFPROBE_CAP_PGFAULT_KRETPROBE;
		t->pf_minor.present = true;
		t->pf_minor.count = k->fault_timed;
		t->pf_minor.sum_ns = k->fault_ns;
		t->pf_minor.mean_ns = k->fault_timed ? k->fault_ns / k->fault_timed : 0;
	}
	if (k->have & PP_KT_BIT(PP_KT_COPY)) {
		t->features |= PERFPROBE_CAP_COPY_KPROBES;
		t->ucopy_calls = k->copy_calls;
		t->ucopy_bytes = k->copy_bytes;
	}
	t->sys = calloc(k->nsys ? k->nsys : 1, sizeof(*t->sys));
	if (!t->sys)
		return -ENOMEM;
	for (i = 0; i < k->nsys; i++) {
		const struct pp_ktrace_sys *ks = &k->sys[i];
		struct ppnl_sys *ns = &t->sys[t->nsys++];

		ns->nr = ks->nr;
		ns->st.present = true;
		ns->st.count = ks->count;	/* exit_group never returns */
		ns->st.sum_ns = ks->ns;
		ns->st.min_ns = ks->min_ns;
		ns->st.max_ns = ks->max_ns;
		ns->st.mean_ns = ks->timed ? ks->ns / ks->timed : 0;
		ns->ucopy_bytes = ks->copy_bytes;
	}
	t->cap = t->nsys;
	return 0;
}

static int do_trace_bpf(char **argv, struct child *ch, struct ppnl_trace *t,
			struct trace_opts *o)
{
	uint32_t probes = o->all ? PP_KT_ALL : TRACE_BPF_DEFAULT;
	char why[KBPF_WHY_MAX + 64];
	struct pp_ktrace k;
	struct kbpf *kb;
	int ret, stop, p;

	ret = kbpf_open(&kb, 0, why, sizeof(why));
	if (ret) {
		pp_err("trace: BPF %s", why);
		return PP_EXIT_SKIP;
	}
	for (p = 0; p < PP_KT_NPROBES; p++) {
		const char *pwhy = NULL;

		kbpf_probe_how(kb, p, &pwhy);
		snprintf(o->why_not[p], sizeof(o->why_not[p]), "%s", pwhy ? pwhy : "");
	}
	ret = child_fork(ch, argv);
	if (ret) {
		pp_err("trace: cannot fork: %s", strerror(-ret));
		kbpf_close(kb);
		return PP_EXIT_FAIL;
	}
	ret = kbpf_trace_start(kb, ch->pid, probes);
	if (ret) {
		pp_err("trace: starting the BPF trace: %s", strerror(-ret));
		child_finish(ch, false);
		kbpf_close(kb);
		return PP_EXIT_FAIL;
	}
	child_finish(ch, true);
	stop = kbpf_trace_stop(kb);
	ret = stop ? stop : kbpf_trace_read(kb, &k);
	kbpf_close(kb);
	if (!ret) {
		o->have_sched = k.have & PP_KT_BIT(PP_KT_SCHED);
		o->switches = k.switches;
		o->offcpu_ns = k.offcpu_ns;
		ret = bpf_to_ppnl(&k, t);
		pp_ktrace_free(&k);
	}
	if (ret) {
		pp_err("trace: reading the BPF trace: %s", strerror(-ret));
		return PP_EXIT_FAIL;
	}
	if (ch->start_errno) {
		pp_err("trace: cannot run '%s': %s", argv[0], strerror(ch->start_errno));
		ppnl_trace_free(t);
		return PP_EXIT_FAIL;
	}
	return 0;
}

/* --- output --- */

/* How the command ended: exit status and signal, null when not so. */
static void status_print(int status)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;

	if (WIFEXITED(status))
		pp_print_int(PP_ANY, "exit_status", "exited with status %d",
			     WEXITSTATUS(status));
	else
		pp_print_null(PP_JSON, "exit_status", NULL, NULL);
	if (sig) {
		pp_print_int(PP_ANY, "signal", "killed by signal %d", sig);
		pp_print_string(PP_FP, NULL, " (%s)", strsignal(sig));
	} else {
		pp_print_null(PP_JSON, "signal", NULL, NULL);
	}
	if (!WIFEXITED(status) && !sig)
		pp_print_text("ended with wait status %#x", status);
}

static int by_total(const void *a, const void *b)
{
	const struct ppnl_sys *x = a, *y = b;

	if (x->st.sum_ns != y->st.sum_ns)
		return x->st.sum_ns < y->st.sum_ns ? 1 : -1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static void sys_print(const struct ppnl_sys *sc, bool copies, bool hist)
{
	const struct ppnl_stats *st = &sc->st;
	char buf[32];

	pp_print_open_object(NULL);
	pp_print_uint(PP_JSON, "nr", NULL, sc->nr);
	/* unknown to this build: null, and its number in text */
	snprintf(buf, sizeof(buf), "syscall_%u", sc->nr);
	if (ppnl_syscall_name(sc->nr))
		pp_print_string(PP_ANY, "name", "   %-22s", ppnl_syscall_name(sc->nr));
	else
		pp_print_null(PP_ANY, "name", "   %-22s", buf);
	pp_print_u64(PP_FP, NULL, " %8llu", st->count);
	pp_print_double(PP_FP, NULL, " %10.3f", (double)st->sum_ns / 1e6);
	pp_print_double(PP_FP, NULL, " %10.3f",
			st->count ? (double)st->sum_ns / (double)st->count / 1e3 : 0);
	pp_print_double(PP_FP, NULL, " %10.3f\n", (double)st->max_ns / 1e3);
	pp_print_open_object("stats");
	pp_stats_print(st, hist ? "        " : NULL);
	pp_print_close_object();
	if (copies) {
		pp_print_u64(PP_JSON, "ucopy_calls", NULL, sc->ucopy_calls);
		pp_print_u64(PP_JSON, "ucopy_bytes", NULL, sc->ucopy_bytes);
	}
	pp_print_close_object();
}

static void syscalls_print(const struct ppnl_trace *t, bool hist)
{
	bool copies = t->features & PERFPROBE_CAP_COPY_KPROBES;
	uint64_t calls = 0, ns = 0;
	size_t i;

	pp_print_text("\n   %-22s %8s %10s %10s %10s\n", "syscall", "calls", "total ms",
		      "mean us", "max us");
	pp_print_text("   ---------------------- -------- ---------- ---------- ----------\n");
	pp_print_open_array("syscalls");
	for (i = 0; i < t->nsys; i++) {
		sys_print(&t->sys[i], copies, hist);
		calls += t->sys[i].st.count;
		ns += t->sys[i].st.sum_ns;
	}
	pp_print_close_array();
	pp_print_text("   %-22s %8llu %10.3f\n", "total", (unsigned long long)calls,
		      (double)ns / 1e6);
}

static void fault_stats(const char *key, const struct ppnl_stats *st,
			const char *what)
{
	pp_print_open_object(key);
	pp_stats_print(st, NULL);
	pp_print_close_object();
	pp_print_text("%llu %s (mean %.3f us, max %.3f us)", (unsigned long long)st->count,
		      what, (double)st->mean_ns / 1e3, (double)st->max_ns / 1e3);
}

static void faults_print(const struct ppnl_trace *t, const char *why)
{
	bool kret = t->features & PERFPROBE_CAP_PGFAULT_KRETPROBE;

	pp_print_open_object("page_faults");
	if (kret) {
		pp_print_text("page faults: ");
		fault_stats("minor", &t->pf_minor, "minor");
		pp_print_text(", ");
		fault_stats("major", &t->pf_major, "major");
		pp_print_u64(t->pf_missed ? PP_ANY : PP_JSON, "missed", ", %llu missed",
			     t->pf_missed);
		pp_print_nl();
	}
	/* with the kretprobe the tracepoint's count is JSON only */
	if (t->features & PERFPROBE_CAP_PGFAULT_TP) {
		pp_print_u64(kret ? PP_JSON : PP_ANY, "tracepoint_count",
			     "page faults: %llu (page_fault_user tracepoint; ", t->pf_tp);
		if (!kret)
			pp_print_text("no latencies: %s)\n", why);
	} else if (!kret) {
		pp_print_text("page faults: %s%s\n", strncmp(why, "not traced", 10) ?
			      "not available on this kernel: " : "", why);
	}
	pp_print_close_object();
}

static void copies_print(const struct ppnl_trace *t, const char *why, bool all)
{
	if (t->features & PERFPROBE_CAP_COPY_KPROBES) {
		pp_print_u64(PP_ANY, "ucopy_calls", "copy routines: %llu calls", t->ucopy_calls);
		pp_print_u64(PP_ANY, "ucopy_bytes", ", %llu bytes\n", t->ucopy_bytes);
		return;
	}
	pp_print_null(PP_JSON, "ucopy_calls", NULL, NULL);
	pp_print_null(PP_JSON, "ucopy_bytes", NULL, NULL);
	if (all)
		pp_print_text("copy routines: %s%s\n",
			      strncmp(why, "not available", strlen("not available")) ?
			      "not available on this kernel: " : "", why);
	else
		pp_print_text("copy routines: not traced (their probes would add to the syscall times; --all arms them)\n");
}

/* Why the module's trace has no fault times. */
static const char *kmod_fault_why(const struct ppnl_info *info, bool all)
{
	if (all)
		return info->pgfault_reason[0] ? info->pgfault_reason : "no kretprobe";
	if (info->caps & PERFPROBE_CAP_PGFAULT_TP)
		return "the kretprobe is not armed (--all)";
	return "not traced: no page_fault_user tracepoint on this kernel, and the "
	       "handle_mm_fault kretprobe would add to the syscall times (--all arms it)";
}

static void trace_print(char **argv, int argc, const struct child *ch,
			const struct ppnl_trace *t, const struct trace_opts *o)
{
	int a;

	pp_print_string(PP_JSON, "format", NULL, "perfprobe-trace");
	pp_print_string(PP_JSON, "source", NULL, o->source);
	pp_print_bool(PP_JSON, "all_probes", NULL, o->all);
	pp_print_open_array("command");
	for (a = 0; a < argc; a++)
		pp_print_string(PP_JSON, NULL, NULL, argv[a]);
	pp_print_close_array();
	pp_print_string(PP_FP, NULL, " %s", argv[0]);
	pp_print_int(PP_ANY, "pid", " (pid %d): ", (int)ch->pid);
	status_print(ch->status);
	pp_print_uint(PP_JSON, "features", NULL, t->features);
	pp_print_u64(PP_JSON, "duration_ns", NULL, t->duration_ns);
	pp_print_double(PP_FP, NULL, "; traced %.3f ms", (double)t->duration_ns / 1e6);
	pp_print_string(PP_FP, NULL, " (%s)", o->source);
	pp_print_u64(t->dropped ? PP_ANY : PP_JSON, "dropped", ", %llu syscalls not timed",
		     t->dropped);
	pp_print_nl();
	if (o->all)
		pp_print_text("note: --all: the copy and fault-time probes fire inside system calls; their cost is in the times below\n");
	syscalls_print(t, o->hist);
	if (o->hist && !strcmp(o->source, "bpf"))
		pp_print_text("   (histograms: perfprobe.ko only; BPF keeps sums)\n");
	pp_print_nl();
	faults_print(t, o->fault_why);
	copies_print(t, o->copy_why, o->all);
	if (o->have_sched) {
		pp_print_open_object("sched");
		pp_print_u64(PP_ANY, "switches", "context switches: %llu", o->switches);
		pp_print_u64(PP_ANY, "offcpu_ns", ", %llu ns off the CPU\n", o->offcpu_ns);
		pp_print_close_object();
	}
}

int pp_cmd_trace(struct pp_cli *cli, int argc, char **argv)
{
	struct trace_opts o = { .source = "kmod" };
	struct ppnl_trace t;
	struct ppnl_info info;
	struct child ch;
	struct ppnl s;
	int i, ret;

	for (i = 0; i < cli->ncopts; i++) {
		if (cli->copts[i].val == 'H')
			o.hist = true;
		else if (cli->copts[i].val == PP_OPT_TRACE_ALL)
			o.all = true;
	}
	if (argc < 1)
		return pp_usage_err("trace: give the command to run: perfprobe trace [-H] [--all] -- COMMAND [ARGS]");
	if (cli->kview_mode == PP_KV_OFF)
		return pp_usage_err("trace: --kernel-view=off leaves nothing to trace with");
	memset(&ch, 0, sizeof(ch));
	/* auto: the module if it is loaded, else BPF (as run) */
	ret = cli->kview_mode == PP_KV_BPF ? -ENOENT : ppnl_connect(&s, &info);
	if (ret == -ENOENT && cli->kview_mode != PP_KV_KMOD) {
		o.source = "bpf";
		ret = do_trace_bpf(argv, &ch, &t, &o);
		if (ret)
			return ret;
		o.fault_why = o.why_not[PP_KT_FAULT_NS][0] ? o.why_not[PP_KT_FAULT_NS] :
			      !o.all ? "fault time not armed (--all)" : "not available";
		if (o.why_not[PP_KT_FAULTS][0])
			o.fault_why = o.why_not[PP_KT_FAULTS];
		o.copy_why = o.why_not[PP_KT_COPY][0] ? o.why_not[PP_KT_COPY] : "not available";
	} else {
		if (ret) {
			/* the module's own messages and exit codes */
			ret = pp_kmod_open(&s, &info, "trace");
			if (ret)
				return ret;
		}
		/*
		 * The default probes this kernel has: arm64 has no
		 * page_fault_user tracepoint, so its faults need --all.
		 */
		ret = do_trace(&s, argv, &ch, &t, o.all ? 0 : TRACE_KMOD_DEFAULT & info.caps);
		ppnl_close(&s);
		if (ret)
			return ret;
		o.fault_why = kmod_fault_why(&info, o.all);
		o.copy_why = info.copy_reason[0] ? info.copy_reason : "not probeable";
	}
	if (t.nsys)
		qsort(t.sys, t.nsys, sizeof(*t.sys), by_total);
	pp_print_start(stdout, cli->json);
	trace_print(argv, argc, &ch, &t, &o);
	ret = pp_print_done();
	ppnl_trace_free(&t);
	return ret;
}
