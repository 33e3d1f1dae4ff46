// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: rmmod while clients trace, copy and fault.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

static volatile sig_atomic_t stop_flag;

static void on_term(int sig)
{
	stop_flag = 1;
}

int cmd_trace_hold(int argc, char **argv)
{
	uint32_t tgid = getpid(), en = 0;
	int64_t features = -1;
	const char *ready = NULL;
	struct ppnl_reply r;
	struct ppnl p;
	int opt;

	while ((opt = getopt(argc, argv, "t:f:r:")) != -1) {
		switch (opt) {
		case 't': tgid = atoi(optarg); break;
		case 'f': features = strtoll(optarg, NULL, 0); break;
		case 'r': ready = optarg; break;
		}
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	if (open_or_fail(&p))
		return 1;
	pp_trace_start(&p, tgid, features, &en, &r);
	report("TRACE_START", &r);
	if (r.err)
		return 1;
	tap_diag("trace-hold: tracing tgid %u with features 0x%x", tgid, en);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (f) {
			fprintf(f, "%u\n", en);
			fclose(f);
		}
	}
	/* keep making syscalls so the trace has work to do */
	while (!stop_flag) {
		syscall(SYS_getppid);
		usleep(1000);
	}
	ppnl_close(&p);
	return 0;
}

static void *storm_thread(void *arg)
{
	size_t len = 64 * PAGE;

	while (!stop_flag) {
		uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			continue;
		for (size_t i = 0; i < len; i += PAGE)
			m[i] = 1;
		madvise(m, len, MADV_DONTNEED);
		for (size_t i = 0; i < len; i += 2 * PAGE)
			m[i] = 2;
		munmap(m, len);
	}
	return NULL;
}

int cmd_fault_storm(int argc, char **argv)
{
	pthread_t th;

	signal(SIGTERM, on_term);
	if (pthread_create(&th, NULL, storm_thread, NULL) == 0) {
		storm_thread(NULL);
		pthread_join(th, NULL);
	} else {
		storm_thread(NULL);
	}
	return 0;
}

static int load_module(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = syscall(SYS_finit_module, fd, "", 0);
	r = r ? -errno : 0;
	close(fd);
	return r;
}

static int unload_module(void)
{
	int64_t end = now_ns() + 5000000000LL;

	for (;;) {
		if (syscall(SYS_delete_module, "perfprobe", O_NONBLOCK) == 0)
			return 0;
		/* a dump in progress holds a module reference for a moment */
		if ((errno != EAGAIN && errno != EWOULDBLOCK) || now_ns() > end)
			return -errno;
		sleep_ms(10);
	}
}

static volatile int spam_stop;

static void *spam_thread(void *arg)
{
	long *n = arg;
	struct ppnl p;

	if (pp_open(&p))
		return NULL;
	p.timeout_ms = 10000;
	while (!spam_stop) {
		struct ppnl_reply r;
		struct trace t;
		struct info in;

		if (pp_get_info(&p, &in, &r) == PPNL_E_TIMEOUT ||
		    pp_trace_get(&p, true, &t, &r) == PPNL_E_TIMEOUT) {
			n[1]++;
			break;
		}
		n[0]++;
	}
	ppnl_close(&p);
	return NULL;
}

int cmd_rmmod_race(int argc, char **argv)
{
	int iters = 20, opt, good = 0;
	uint32_t mask = ~0U;
	const char *ko = NULL;
	char *sargv[] = { "pp-vmtest", "fault-storm", NULL };
	pid_t storm;
	struct ppnl_reply r;
	struct info in;
	int e;

	while ((opt = getopt(argc, argv, "n:k:f:")) != -1) {
		switch (opt) {
		case 'n': iters = atoi(optarg); break;
		case 'k': ko = optarg; break;
		case 'f': mask = strtoul(optarg, NULL, 0); break;
		}
	}
	if (!ko) {
		fprintf(stderr, "rmmod-race: -k MODULE.ko is required\n");
		return 3;
	}
	unload_module();	/* start from an unloaded module */
	if (posix_spawn(&storm, self_exe(), NULL, NULL, sargv, environ)) {
		tap_ok(false, "spawn fault-storm: %s", strerror(errno));
		return 1;
	}
	for (int i = 0; i < iters; i++) {
		struct ppnl p;
		static struct trace t;
		uint32_t want = 0, en = 0;
		pthread_t th;
		long spam[2] = { 0, 0 };
		bool spamming = false, saw = false;
		const char *why = NULL;
		int64_t until;

		memset(&t, 0, sizeof(t));
		e = load_module(ko);
		if (e) {
			tap_diag("iteration %d: insmod: %s", i, strerror(-e));
			break;
		}
		if (pp_open(&p)) {
			tap_diag("iteration %d: family not found after insmod", i);
			unload_module();
			continue;
		}
		pp_get_info(&p, &in, &r);
		want = in.caps & (PERFPROBE_CAP_PGFAULT_KRETPROBE | PERFPROBE_CAP_PGFAULT_TP);
		if (i & 1)
			want |= in.caps & PERFPROBE_CAP_SYSCALL_TRACE;
		want &= mask;
		if (!want)
			want = in.caps & mask & PERFPROBE_CAP_SYSCALL_TRACE;
		pp_trace_start(&p, storm, want ? (int64_t)want : -1, &en, &r);
		if (r.err) {
			why = "TRACE_START failed";
			report("TRACE_START", &r);
		}
		/* wait until the probes demonstrably fire */
		until = now_ns() + 3000000000LL;
		while (!why && now_ns() < until) {
			if (pp_trace_get(&p, false, &t, &r)) {
				why = "TRACE_GET failed";
				break;
			}
			if (t.minor.count || t.tp_count ||
			    !(want & (PERFPROBE_CAP_PGFAULT_KRETPROBE | PERFPROBE_CAP_PGFAULT_TP))) {
				saw = true;
				break;
			}
			sleep_ms(20);
		}
		if (!why && !saw)
			why = "the trace saw no page faults of the storming process";
		tap_diag("iteration %d: tracing the page-faulting process (features 0x%x, %" PRIu64
		     " minor / %" PRIu64 " tracepoint faults so far)%s, now rmmod",
		     i, en, t.minor.count, t.tp_count,
		     i % 3 == 1 ? " with a thread sending requests" : "");
		if (i % 3 == 1) {
			spam_stop = 0;
			spamming = pthread_create(&th, NULL, spam_thread, spam) == 0;
			sleep_ms(20);
		}
		e = unload_module();
		if (e && !why)
			why = "rmmod failed";
		if (e)
			tap_diag("iteration %d: rmmod: %s", i, strerror(-e));
		if (spamming) {
			spam_stop = 1;
			pthread_join(th, NULL);
			if (spam[1])
				why = "a request racing with rmmod got no answer";
		}
		ppnl_close(&p);
		if (kill(storm, 0) || waitpid(storm, NULL, WNOHANG) == storm) {
			why = "the page-faulting process died";
			tap_diag("iteration %d: %s", i, why);
			break;
		}
		if (why)
			tap_diag("iteration %d (features 0x%x): %s", i, en, why);
		else
			good++;
		if (e) {	/* cannot continue with the module stuck */
			break;
		}
	}
	kill(storm, SIGKILL);
	waitpid(storm, NULL, 0);
	tap_ok(good == iters,
	    "rmmod with an active page-fault trace while another process faults hard: %d/%d iterations clean",
	    good, iters);
	e = load_module(ko);
	tap_ok(e == 0, "insmod after the rmmod races works (%s)", e ? strerror(-e) : "ok");
	if (e == 0) {
		struct ppnl p;

		if (pp_open(&p) == 0) {
			pp_get_info(&p, &in, &r);
			report("GET_INFO", &r);
			ppnl_close(&p);
		} else {
			r.err = -ENOENT;
		}
		tap_ok(r.err == 0 && in.abi == PERFPROBE_GENL_VERSION,
		    "GET_INFO works after the rmmod races");
	}
	return tap_failed() ? 1 : 0;
}
