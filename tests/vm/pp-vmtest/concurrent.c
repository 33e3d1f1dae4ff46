// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: two clients at once.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

static int concurrent_worker(int id, int iters)
{
	uint8_t *buf = map_guarded(128 * 1024);
	int bad = 0, starts = 0, busy = 0, copies = 0;
	struct ppnl p;
	struct ppnl_reply r;
	struct info in;

	rng_state ^= (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
	if (pp_open(&p) || !buf) {
		printf("# client %d: cannot open socket\n", id);
		return 100;
	}
	for (int i = 0; i < iters; i++) {
		size_t size = 1 + rnd_below(64 * 1024), off = rnd_below(64);
		const char *why;

		if (pp_get_info(&p, &in, &r) || in.abi != PERFPROBE_GENL_VERSION) {
			printf("# client %d: GET_INFO %s\n", id, errname(r.err));
			bad++;
		}
		why = copy_case(&p, buf, 128 * 1024, PERFPROBE_COPY_TO_USER, size,
				off, i & 1, 1 + (i % 3), &r);
		if (why) {
			printf("# client %d: COPY to_user %zu@%zu: %s\n", id, size, off, why);
			bad++;
		}
		why = copy_case(&p, buf, 128 * 1024, PERFPROBE_COPY_FROM_USER, size,
				off, !(i & 1), 1, &r);
		if (why) {
			printf("# client %d: COPY from_user %zu@%zu: %s\n", id, size, off, why);
			bad++;
		}
		copies += 2;
		if (i % 5 == id) {
			uint32_t en;
			struct trace t;
			const struct sc_entry *e;

			pp_trace_start(&p, getpid(), PERFPROBE_CAP_SYSCALL_TRACE, &en, &r);
			if (r.err == -EBUSY) {
				busy++;
				continue;
			}
			if (r.err) {
				printf("# client %d: TRACE_START %s %s\n", id, errname(r.err), ext_text(&r));
				bad++;
				continue;
			}
			starts++;
			for (int k = 0; k < 20 + id; k++)
				syscall(SYS_getppid);
			pp_trace_get(&p, true, &t, &r);
			e = find_sc(&t, SYS_getppid);
			if (r.err || t.tgid != (uint32_t)getpid() || !t.active ||
			    !e || e->st.count != (uint64_t)(20 + id)) {
				printf("# client %d: own trace results wrong: %s tgid %u active %d getppid %" PRIu64 "\n",
				       id, errname(r.err), t.tgid, t.active, e ? e->st.count : 0);
				bad++;
			}
			pp_trace_stop(&p, &r);
			if (r.err) {
				printf("# client %d: TRACE_STOP of own trace %s\n", id, errname(r.err));
				bad++;
			}
		}
	}
	printf("# client %d: %d copies, %d traces, %d EBUSY, %d problems\n", id,
	       copies, starts, busy, bad);
	fflush(stdout);
	ppnl_close(&p);
	return bad ? 1 : (starts ? 0 : 2);
}

int cmd_concurrent(int argc, char **argv)
{
	int iters = 100, opt, st[2] = { 0, 0 };
	pid_t pid[2];

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			iters = atoi(optarg);
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			_exit(concurrent_worker(i, iters));
	}
	for (int i = 0; i < 2; i++)
		waitpid(pid[i], &st[i], 0);
	tap_ok(WIFEXITED(st[0]) && WIFEXITED(st[1]) &&
	    WEXITSTATUS(st[0]) != 1 && WEXITSTATUS(st[1]) != 1 &&
	    WEXITSTATUS(st[0]) != 100 && WEXITSTATUS(st[1]) != 100,
	    "two concurrent clients: all GET_INFO/COPY/TRACE results correct, TRACE_START either works or says -EBUSY");
	tap_ok(WIFEXITED(st[0]) && WIFEXITED(st[1]) &&
	    (WEXITSTATUS(st[0]) == 0 || WEXITSTATUS(st[1]) == 0),
	    "two concurrent clients: at least one of them got to trace");
	return tap_failed() ? 1 : 0;
}
