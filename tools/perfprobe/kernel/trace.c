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

static void status_text(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended with wait status %#x", status);
}

static int by_total(const void *a, const void *b)
{
	const struct ppnl_sys *x = a, *y = b;

	if (x->st.sum_ns != y->st.sum_ns)
		return x->st.sum_ns < y->st.sum_ns ? 1 : -1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static const char *sc_name(uint32_t nr, char *buf, size_t size)
{
	const char *n = ppnl_syscall_name(nr);

	if (n)
		return n;
	snprintf(buf, size, "syscall_%u", nr);
	return buf;
}

static void syscalls_text(const struct ppnl_trace *t, bool hist)
{
	uint64_t calls = 0, ns = 0;
	size_t i;

	printf("\n   %-22s %8s %10s %10s %10s\n", "syscall", "calls", "total ms",
	       "mean us", "max us");
	printf("   ---------------------- -------- ---------- ---------- ----------\n");
	for (i = 0; i < t->nsys; i++) {
		const struct ppnl_sys *sc = &t->sys[i];
		char buf[32];

		printf("   %-22s %8llu %10.3f %10.3f %10.3f\n", sc_name(sc->nr, buf, sizeof(buf)),
		       (unsigned long long)sc->st.count, (double)sc->st.sum_ns / 1e6,
		       sc->st.count ? (double)sc->st.sum_ns / (double)sc->st.count / 1e3 : 0,
		       (double)sc->st.max_ns / 1e3);
		if (hist)
			pp_hist_print(stdout, &sc->st, "        ");
		calls += sc->st.count;
		ns += sc->st.sum_ns;
	}
	printf("   %-22s %8llu %10.3f\n", "total", (unsigned long long)calls, (double)ns / 1e6);
}

static void faults_text(const struct ppnl_trace *t, const struct ppnl_info *in)
{
	const struct ppnl_stats *mi = &t->pf_minor, *ma = &t->pf_major;

	if (t->features & PERFPROBE_CAP_PGFAULT_KRETPROBE) {
		printf("page faults: %llu minor (mean %.3f us, max %.3f us), %llu major (mean %.3f us, max %.3f us)",
		       (unsigned long long)mi->count, (double)mi->mean_ns / 1e3,
		       (double)mi->max_ns / 1e3, (unsigned long long)ma->count,
		       (double)ma->mean_ns / 1e3, (double)ma->max_ns / 1e3);
		if (t->pf_missed)
			printf(", %llu missed", (unsigned long long)t->pf_missed);
		putchar('\n');
	} else if (t->features & PERFPROBE_CAP_PGFAULT_TP) {
		printf("page faults: %llu (page_fault_user tracepoint; no latencies: %s)\n",
		       (unsigned long long)t->pf_tp,
		       in->pgfault_reason[0] ? in->pgfault_reason : "no kretprobe");
	} else {
		printf("page faults: not available on this kernel: %s\n",
		       in->pgfault_reason[0] ? in->pgfault_reason : "no probe");
	}
}

static void copies_text(const struct ppnl_trace *t, const struct ppnl_info *in)
{
	if (t->features & PERFPROBE_CAP_COPY_KPROBES)
		printf("copy routines: %llu calls, %llu bytes\n",
		       (unsigned long long)t->ucopy_calls,
		       (unsigned long long)t->ucopy_bytes);
	else
		printf("copy routines: not available on this kernel: %s\n",
		       in->copy_reason[0] ? in->copy_reason : "not probeable");
}

static void trace_text(char **argv, const struct child *ch,
		       const struct ppnl_trace *t, const struct ppnl_info *in,
		       bool hist)
{
	char st[96];

	status_text(ch->status, st, sizeof(st));
	printf(" %s (pid %d): %s; traced %.3f ms", argv[0], (int)ch->pid, st,
	       (double)t->duration_ns / 1e6);
	if (t->dropped)
		printf(", %llu syscalls not timed", (unsigned long long)t->dropped);
	putchar('\n');
	syscalls_text(t, hist);
	putchar('\n');
	faults_text(t, in);
	copies_text(t, in);
}

static json_t *sys_json(const struct ppnl_sys *sc, bool copies)
{
	json_t *o = json_object();
	const char *name = ppnl_syscall_name(sc->nr);

	json_object_set_new(o, "nr", json_integer(sc->nr));
	json_object_set_new(o, "name", name ? json_string(name) : json_null());
	json_object_set_new(o, "stats", pp_stats_json(&sc->st));
	if (copies) {
		json_object_set_new(o, "ucopy_calls", json_integer((json_int_t)sc->ucopy_calls));
		json_object_set_new(o, "ucopy_bytes", json_integer((json_int_t)sc->ucopy_bytes));
	}
	return o;
}

static json_t *trace_json(char **argv, int argc, const struct child *ch,
			  const struct ppnl_trace *t)
{
	bool copies = t->features & PERFPROBE_CAP_COPY_KPROBES;
	json_t *o = json_object(), *cmd = json_array(), *sys = json_array();
	json_t *pf = json_object();
	size_t i;
	int a;

	json_object_set_new(o, "format", json_string("perfprobe-trace"));
	for (a = 0; a < argc; a++)
		json_array_append_new(cmd, json_string(argv[a]));
	json_object_set_new(o, "command", cmd);
	json_object_set_new(o, "pid", json_integer(ch->pid));
	json_object_set_new(o, "exit_status", WIFEXITED(ch->status) ?
			    json_integer(WEXITSTATUS(ch->status)) : json_null());
	json_object_set_new(o, "signal", WIFSIGNALED(ch->status) ?
			    json_integer(WTERMSIG(ch->status)) : json_null());
	json_object_set_new(o, "features", json_integer(t->features));
	json_object_set_new(o, "duration_ns", json_integer((json_int_t)t->duration_ns));
	json_object_set_new(o, "dropped", json_integer((json_int_t)t->dropped));
	for (i = 0; i < t->nsys; i++)
		json_array_append_new(sys, sys_json(&t->sys[i], copies));
	json_object_set_new(o, "syscalls", sys);
	if (t->features & PERFPROBE_CAP_PGFAULT_KRETPROBE) {
		json_object_set_new(pf, "minor", pp_stats_json(&t->pf_minor));
		json_object_set_new(pf, "major", pp_stats_json(&t->pf_major));
		json_object_set_new(pf, "missed", json_integer((json_int_t)t->pf_missed));
	}
	if (t->features & PERFPROBE_CAP_PGFAULT_TP)
		json_object_set_new(pf, "tracepoint_count", json_integer((json_int_t)t->pf_tp));
	json_object_set_new(o, "page_faults", pf);
	json_object_set_new(o, "ucopy_calls", copies ?
			    json_integer((json_int_t)t->ucopy_calls) : json_null());
	json_object_set_new(o, "ucopy_bytes", copies ?
			    json_integer((json_int_t)t->ucopy_bytes) : json_null());
	return o;
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
	if (cli->opts.json)
		ret = pp_json_print(trace_json(argv, argc, &ch, &t));
	else
		trace_text(argv, &ch, &t, &info, hist);
	ppnl_trace_free(&t);
	return ret;
}
