// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe trace [-H] -- COMMAND [ARGS]: run COMMAND traced by
 * perfprobe.ko and print a per-syscall summary (like perf trace -s), its
 * page faults and its user-copy routine calls.
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

#include "kmodcmd.h"
#include "print.h"

static const struct option trace_longopts[] = {
	{ "hist", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 }
};

const struct pp_cmd_opts pp_trace_opts = { "H", trace_longopts };

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
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	fflush(NULL);
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_run(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	if (ch->pid < 0) {
		int ret = -errno;

		close(go[1]);
		close(err[0]);
		return ret;
	}
	ch->go = go[1];
	ch->exec_err = err[0];
	return 0;
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
		    struct ppnl_trace *t)
{
	int ret, stop;

	ret = child_fork(ch, argv);
	if (ret) {
		pp_err("trace: cannot fork: %s", strerror(-ret));
		return PP_EXIT_FAIL;
	}
	/* 0: every feature this kernel has */
	ret = ppnl_trace_start(s, (uint32_t)ch->pid, 0, NULL);
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

static void faults_print(const struct ppnl_trace *t, const struct ppnl_info *in)
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
			pp_print_text("no latencies: %s)\n",
				      in->pgfault_reason[0] ? in->pgfault_reason : "no kretprobe");
	} else if (!kret) {
		pp_print_text("page faults: not available on this kernel: %s\n",
			      in->pgfault_reason[0] ? in->pgfault_reason : "no probe");
	}
	pp_print_close_object();
}

static void copies_print(const struct ppnl_trace *t, const struct ppnl_info *in)
{
	if (t->features & PERFPROBE_CAP_COPY_KPROBES) {
		pp_print_u64(PP_ANY, "ucopy_calls", "copy routines: %llu calls", t->ucopy_calls);
		pp_print_u64(PP_ANY, "ucopy_bytes", ", %llu bytes\n", t->ucopy_bytes);
		return;
	}
	pp_print_null(PP_JSON, "ucopy_calls", NULL, NULL);
	pp_print_null(PP_JSON, "ucopy_bytes", NULL, NULL);
	pp_print_text("copy routines: not available on this kernel: %s\n",
		      in->copy_reason[0] ? in->copy_reason : "not probeable");
}

static void trace_print(char **argv, int argc, const struct child *ch,
			const struct ppnl_trace *t, const struct ppnl_info *in,
			bool hist)
{
	int a;

	pp_print_string(PP_JSON, "format", NULL, "perfprobe-trace");
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
	pp_print_u64(t->dropped ? PP_ANY : PP_JSON, "dropped", ", %llu syscalls not timed",
		     t->dropped);
	pp_print_nl();
	syscalls_print(t, hist);
	pp_print_nl();
	faults_print(t, in);
	copies_print(t, in);
}

int pp_cmd_trace(struct pp_cli *cli, int argc, char **argv)
{
	bool hist = cli->ncopts > 0;	/* -H is the only option */
	struct ppnl_trace t;
	struct ppnl_info info;
	struct child ch;
	struct ppnl s;
	int ret;

	if (argc < 1)
		return pp_usage_err("trace: give the command to run: perfprobe trace [-H] -- COMMAND [ARGS]");
	ret = pp_kmod_open(&s, &info, "trace");
	if (ret)
		return ret;
	memset(&ch, 0, sizeof(ch));
	ret = do_trace(&s, argv, &ch, &t);
	ppnl_close(&s);
	if (ret)
		return ret;
	if (t.nsys)
		qsort(t.sys, t.nsys, sizeof(*t.sys), by_total);
	pp_print_start(stdout, cli->opts.json);
	trace_print(argv, argc, &ch, &t, &info, hist);
	ret = pp_print_done();
	ppnl_trace_free(&t);
	return ret;
}
