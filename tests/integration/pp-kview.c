// SPDX-License-Identifier: GPL-2.0
/*
 * pp-kview: drives the BPF backend of the kernel view for kview.t.
 *
 *   pp-kview [-v] [--raw-tp] status
 *   pp-kview [-v] [--raw-tp] getppid N    N getppid() traced, beside an
 *                                          untraced process making them too
 *   pp-kview [-v] [--raw-tp] fork N       a child forked while traced makes them
 *   pp-kview [-v] [--raw-tp] faults K     touch K new pages
 *   pp-kview [-v] [--raw-tp] pingpong N   N pipe round trips, two processes, one CPU
 *   pp-kview [-v] hold                    trace, fork a sleeping child, wait
 *
 * Prints the figures as "name=value" lines; the test checks them.  Exit
 * 4 with one "perfprobe: ..." line when the backend is not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "kernel/kbpf.h"
#include "kernel/ppnl.h"
#include "util.h"

static struct kbpf *kb;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	pp_err("%s: %s", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void start(uint32_t probes)
{
	int err = kbpf_trace_start(kb, getpid(), probes);

	if (err)
		die("trace start", err);
}

/* Stop, then print what every figure the test reads. */
static void stop_and_print(void)
{
	struct pp_ktrace t;
	size_t i;
	int err = kbpf_trace_stop(kb);

	if (err)
		die("trace stop", err);
	err = kbpf_trace_read(kb, &t);
	if (err)
		die("trace read", err);
	printf("source=%s\nhave=%#x\nfaults=%" PRIu64 "\nswitches=%" PRIu64
	       "\noffcpu_ns=%" PRIu64 "\nforks=%" PRIu64 "\ndropped=%" PRIu64
	       "\ncopy_bytes=%" PRIu64 "\n", t.source, t.have, t.faults, t.switches,
	       t.offcpu_ns, t.forks, t.dropped, t.copy_bytes);
	for (i = 0; i < t.nsys; i++) {
		const char *name = ppnl_syscall_name(t.sys[i].nr);

		printf("sys.%s=%" PRIu64 "\nsys_timed.%s=%" PRIu64 "\nsys_ns.%s=%" PRIu64 "\n",
		       name, t.sys[i].count, name, t.sys[i].timed, name, t.sys[i].ns);
	}
	pp_ktrace_free(&t);
}

static long u_arg(const char *s)
{
	uint64_t v;

	if (!s || pp_parse_u64(s, 1, 1000000, &v)) {
		pp_err("a count from 1 to 1000000 expected, got '%s'", s ? s : "");
		exit(2);
	}
	return (long)v;
}

static void status(void)
{
	const char *how, *why;
	int p;

	for (p = 0; p < PP_KT_NPROBES; p++) {
		how = kbpf_probe_how(kb, p, &why);
		printf("%s=%s\n", pp_kt_probe_name(p), how ? how : why);
	}
	printf("copy_routines=%s\n", kbpf_copy_routines(kb));
}

/*
 * N getppid() traced while an untraced process (forked before the trace)
 * makes them as fast as it can; it counts them in shared memory so the
 * test knows they overlapped.
 */
static void do_getppid(long n)
{
	volatile uint64_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t before, t0, t1;
	pid_t pid;
	long i;

	if (shared == MAP_FAILED)
		die("mmap", errno);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		for (;;) {
			syscall(SYS_getppid);
			shared[0]++;
		}
	}
	while (!shared[0])
		sched_yield();
	start(PP_KT_BIT(PP_KT_SYSCALLS));
	before = shared[0];
	t0 = now_ns();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	t1 = now_ns();
	/* Let the untraced one run while the probes are still armed. */
	while (shared[0] < before + 1000)
		sched_yield();
	stop_and_print();
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("untraced_calls=%" PRIu64 "\nloop_ns=%" PRIu64 "\n", shared[0] - before,
	       t1 - t0);
}

static void do_fork(long n)
{
	int status;
	pid_t pid;
	long i;

	start(PP_KT_BIT(PP_KT_SYSCALLS));
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		die("child", ECHILD);
	stop_and_print();
}

/* Not instrumented: ASan's checks would fault its shadow pages in too. */
__attribute__((no_sanitize_address)) __noinline
static void touch(volatile char *p, long k, long page)
{
	long i;

	for (i = 0; i < k; i++)
		p[i * page] = 1;
}

static void do_faults(long k)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(k * page), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap", errno);
	/* One fault per page: no huge page may cover several of them. */
	madvise((void *)p, (size_t)(k * page), MADV_NOHUGEPAGE);
	start(PP_KT_BIT(PP_KT_FAULTS));
	touch(p, k, page);
	stop_and_print();
	munmap((void *)p, (size_t)(k * page));
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

/* Both on one CPU: every round trip switches out each of them. */
static void do_pingpong(long n)
{
	int ab[2], ba[2], status;
	char c = 0;
	pid_t pid;
	long i;

	pin_cpu0();
	if (pipe(ab) || pipe(ba))
		die("pipe", errno);
	start(PP_KT_BIT(PP_KT_SCHED) | PP_KT_BIT(PP_KT_SYSCALLS));
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("ping-pong", EPIPE);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("child", ECHILD);
	stop_and_print();
}

/*
 * Traced with a traced child asleep, until a signal ends this process
 * the way it ends perfprobe (the harness's handlers, which also undo a
 * SIGINT ignored by the shell that started us in the background).
 */
static void do_hold(void)
{
	pid_t pid;

	pp_signals_install();
	start(PP_KT_ALL);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		for (;;)
			pause();
	}
	printf("child=%d\n", (int)pid);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	char why[256];
	int i = 1, err;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v"))
			pp_set_verbosity(pp_verbosity() + 1);
		else if (!strcmp(argv[i], "--raw-tp"))
			flags |= KBPF_NO_TP_BTF;
		else
			break;
	}
	if (i >= argc) {
		pp_err("usage: pp-kview [-v] [--raw-tp] status|getppid N|fork N|faults K|pingpong N|hold");
		return 2;
	}
	err = kbpf_open(&kb, flags, why, sizeof(why));
	if (err) {
		pp_err("BPF kernel view %s", why);
		return 4;
	}
	if (!strcmp(argv[i], "status"))
		status();
	else if (!strcmp(argv[i], "getppid"))
		do_getppid(u_arg(argv[i + 1]));
	else if (!strcmp(argv[i], "fork"))
		do_fork(u_arg(argv[i + 1]));
	else if (!strcmp(argv[i], "faults"))
		do_faults(u_arg(argv[i + 1]));
	else if (!strcmp(argv[i], "pingpong"))
		do_pingpong(u_arg(argv[i + 1]));
	else if (!strcmp(argv[i], "hold"))
		do_hold();
	else {
		pp_err("unknown mode '%s'", argv[i]);
		kbpf_close(kb);
		return 2;
	}
	kbpf_close(kb);
	return 0;
}
