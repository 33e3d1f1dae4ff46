// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: TRACE: exact syscall and page-fault counting.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

/* a process that makes `n` getppid() calls each time it reads a byte */
static pid_t spawn_getppid_child(int *to, int *from, int n)
{
	int a[2], b[2];
	pid_t pid;
	char c;

	if (pipe(a) || pipe(b))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		while (read(a[0], &c, 1) == 1) {
			for (int i = 0; i < n; i++)
				syscall(SYS_getppid);
			if (write(b[1], &c, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	*to = a[1];
	*from = b[0];
	return pid;
}

static int trace_getppid_case(struct ppnl *p, bool trace_child, int n, int m,
			      struct info *in)
{
	int to, from;
	pid_t child = spawn_getppid_child(&to, &from, m);
	uint32_t tgid, en = 0;
	const struct sc_entry *e;
	struct trace t;
	struct ppnl_reply r;
	uint64_t got = 0, want;
	const char *why = NULL;
	char c = 'g';

	if (child < 0) {
		tap_ok(false, "fork: %s", strerror(errno));
		return 1;
	}
	tgid = trace_child ? (uint32_t)child : (uint32_t)getpid();
	want = trace_child ? (uint64_t)m : (uint64_t)n;
	pp_trace_start(p, tgid, PERFPROBE_CAP_SYSCALL_TRACE, &en, &r);
	report("TRACE_START", &r);
	if (r.err) {
		why = "TRACE_START failed";
		goto out;
	}
	/* the other process makes its calls while we make ours */
	if (write(to, &c, 1) != 1)
		why = "pipe";
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (read(from, &c, 1) != 1)
		why = "pipe";
	pp_trace_stop(p, &r);
	report("TRACE_STOP", &r);
	if (r.err && !why)
		why = "TRACE_STOP failed";
	pp_trace_get(p, true, &t, &r);
	report("TRACE_GET (dump)", &r);
	if (r.err) {
		if (!why)
			why = "TRACE_GET failed";
		goto out;
	}
	e = find_sc(&t, SYS_getppid);
	got = e ? e->st.count : 0;
	if (!why && got != want)
		why = "wrong getppid count";
	if (!why && t.tgid != tgid)
		why = "summary TGID differs";
	if (!why && t.active)
		why = "trace still active after TRACE_STOP";
	if (!why && e && stats_bad(&e->st))
		why = stats_bad(&e->st);
	for (int i = 0; i < t.nsc && !why; i++)
		if (stats_bad(&t.sc[i].st))
			why = "inconsistent stats of another syscall";
	for (int i = 1; i < t.nsc && !why; i++)
		if (t.sc[i].nr <= t.sc[i - 1].nr)
			why = "syscalls not in ascending order";
	for (int i = 0; i < t.nsc && !why; i++)
		if (in->syscall_max && t.sc[i].nr >= in->syscall_max)
			why = "syscall number >= SYSCALL_MAX";
	tap_diag("traced tgid %u: %d syscall numbers, getppid count %" PRIu64
	     " (mean %" PRIu64 " ns), dropped %" PRIu64 ", duration %" PRIu64 " ns",
	     t.tgid, t.nsc, got, e ? e->st.mean : 0, t.dropped, t.duration);
out:
	close(to);
	close(from);
	waitpid(child, NULL, 0);
	if (trace_child)
		tap_ok(!why, "trace of another process (tgid %u): exactly its %d getppid() calls counted, none of our %d (got %" PRIu64 ")%s%s",
		    tgid, m, n, got, why ? ": " : "", why ? why : "");
	else
		tap_ok(!why, "trace of the own process: exactly %d getppid() calls counted, none of another process's %d made meanwhile (got %" PRIu64 ")%s%s",
		    n, m, got, why ? ": " : "", why ? why : "");
	return !!why;
}

int cmd_trace_syscalls(int argc, char **argv)
{
	int n = 1000, opt;
	struct info in;
	struct ppnl_reply r;
	struct ppnl p;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			n = atoi(optarg);
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	if (r.err || !(in.caps & PERFPROBE_CAP_SYSCALL_TRACE)) {
		tap_ok(false, "syscall tracing available (caps 0x%x, %s)", in.caps,
		    errname(r.err));
		return 1;
	}
	trace_getppid_case(&p, false, n, n * 7 / 10 + 13, &in);
	trace_getppid_case(&p, true, n / 2 + 17, n, &in);
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}

/* --------------------------------------------------- test: trace-faults */

/* helper process: waits for a byte on stdin, touches N fresh pages, answers */
int cmd_touch_child(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1024;
	char c;
	uint8_t *m = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return 1;
	madvise(m, n * PAGE, MADV_NOHUGEPAGE);
	if (read(0, &c, 1) != 1)
		return 1;
	for (long i = 0; i < n; i++)
		m[i * PAGE] = 1;
	if (write(1, &c, 1) != 1)
		return 1;
	(void)!read(0, &c, 1);	/* wait for EOF */
	return 0;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

int cmd_trace_faults(int argc, char **argv)
{
	long n = 8192, m = 4096;
	int opt;
	struct info in;
	struct ppnl_reply r;
	struct trace t;
	struct ppnl p;
	uint32_t want = 0, en = 0;
	int to[2], from[2];
	posix_spawn_file_actions_t fa;
	pid_t child;
	char nbuf[32], c = 'x';
	char *cargv[] = { "pp-vmtest", "touch-child", nbuf, NULL };
	uint8_t *mem, warm[65536];
	uint64_t tol;
	const char *why = NULL;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			n = atol(optarg);
	tol = n / 100;
	if (open_or_fail(&p))
		return 1;
	pp_get_info(&p, &in, &r);
	report("GET_INFO", &r);
	if (in.caps & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		want |= PERFPROBE_CAP_PGFAULT_KRETPROBE;
	if (in.caps & PERFPROBE_CAP_PGFAULT_TP)
		want |= PERFPROBE_CAP_PGFAULT_TP;
	if (!want) {
		tap_skip(in.pgfault_reason[0] ? in.pgfault_reason : "no page-fault probe",
			 "page-fault trace counts %ld fresh pages", n);
		return 0;
	}

	/* The other faulting process is spawned (vfork+exec), not forked: a
	 * fork would make our own next writes copy-on-write faults. */
	snprintf(nbuf, sizeof(nbuf), "%ld", m);
	if (pipe(to) || pipe(from))
		return 1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from[1], 1);
	posix_spawn_file_actions_addclose(&fa, to[1]);
	posix_spawn_file_actions_addclose(&fa, from[0]);
	if (posix_spawn(&child, self_exe(), &fa, NULL, cargv, environ)) {
		tap_ok(false, "spawn touch-child: %s", strerror(errno));
		return 1;
	}
	close(to[0]);
	close(from[1]);

	mem = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		tap_ok(false, "mmap %ld pages: %s", n, strerror(errno));
		return 1;
	}
	madvise(mem, n * PAGE, MADV_NOHUGEPAGE);
	memset(warm, 1, sizeof(warm));	/* pre-fault our stack */
	pp_trace_get(&p, false, &t, &r);	/* warm up the receive path */

	pp_trace_start(&p, getpid(), want, &en, &r);
	report("TRACE_START", &r);
	if (r.err) {
		why = "TRACE_START failed";
		goto out;
	}
	if (write(to[1], &c, 1) != 1)
		why = "pipe";
	for (long i = 0; i < n; i++)
		((volatile uint8_t *)mem)[i * PAGE] = (uint8_t)i | warm[i & 1023];
	if (read(from[0], &c, 1) != 1)
		why = "pipe";
	pp_trace_stop(&p, &r);
	report("TRACE_STOP", &r);
	pp_trace_get(&p, false, &t, &r);
	report("TRACE_GET", &r);
	if (r.err) {
		why = "TRACE_GET failed";
		goto out;
	}
	tap_diag("features 0x%x; minor %" PRIu64 " (mean %" PRIu64 " ns) major %"
	     PRIu64 " retry %" PRIu64 " error %" PRIu64 " missed %" PRIu64
	     " tp_count %" PRIu64 "; expected %ld +- %" PRIu64,
	     en, t.minor.count, t.minor.mean, t.major.count, t.retry, t.error,
	     t.missed, t.tp_count, n, tol);
	if (!t.has_pgfault)
		why = "no PGFAULT nest in TRACE_GET";
	else if ((en & PERFPROBE_CAP_PGFAULT_KRETPROBE) &&
		 absdiff(t.minor.count, n) > tol)
		why = "minor fault count off by more than 1%";
	else if ((en & PERFPROBE_CAP_PGFAULT_TP) && absdiff(t.tp_count, n) > tol)
		why = "page_fault_user count off by more than 1%";
	else if ((en & PERFPROBE_CAP_PGFAULT_KRETPROBE) && stats_bad(&t.minor))
		why = stats_bad(&t.minor);
out:
	close(to[1]);
	close(from[0]);
	waitpid(child, NULL, 0);
	munmap(mem, n * PAGE);
	tap_ok(!why, "page-fault trace: touching %ld fresh pages gives %ld minor faults within 1%% (got %" PRIu64
	    " minor, %" PRIu64 " tracepoint), another process's %ld faults not counted%s%s",
	    n, n, t.minor.count, t.tp_count, m, why ? ": " : "", why ? why : "");
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
