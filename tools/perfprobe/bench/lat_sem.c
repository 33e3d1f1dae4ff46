// SPDX-License-Identifier: GPL-2.0
/*
 * lat_sem: SysV semaphore latency, as lmbench's lat_sem.
 *
 * Two processes and a set of two semaphores.  The parent's semop() waits
 * on semaphore 1 and posts semaphore 0; the child's waits on 0 and posts
 * 1.  One pass of the parent's loop is a round trip, two hand-offs; the
 * result, as lmbench's, is the time of one hand-off: half the round trip.
 *
 * Placement: with --cpu both processes run on that CPU (the child
 * inherits the pinning); otherwise the scheduler places them, as with
 * lmbench.  The result's cpu fields are the parent's; the child's last
 * CPU is read from /proc and shown in the progress line.
 *
 * A semaphore set outlives its processes: the child removes it when its
 * parent dies (PR_SET_PDEATHSIG with SIGTERM), so an interrupted run
 * leaves none behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define WARMUP_ROUNDTRIPS	200

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

struct sem_state {
	int semid;
	pid_t child;
};

static volatile sig_atomic_t child_semid = -1;

static void child_on_parent_death(int sig)
{
	(void)sig;
	semctl(child_semid, 0, IPC_RMID);
	_exit(0);
}

static void __attribute__((noreturn)) child(int semid, pid_t parent)
{
	struct sembuf post1 = { .sem_num = 1, .sem_op = 1 };
	struct sembuf ops[2] = {
		{ .sem_num = 0, .sem_op = -1 },
		{ .sem_num = 1, .sem_op = 1 },
	};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_on_parent_death;
	sigemptyset(&sa.sa_mask);
	child_semid = semid;
	sigaction(SIGTERM, &sa, NULL);
	/* ^C: the parent dies, then this child cleans up on SIGTERM. */
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		child_on_parent_death(0);
	if (semop(semid, &post1, 1))
		_exit(1);
	for (;;)
		if (semop(semid, ops, 2) && errno != EINTR)
			_exit(1);
}

static int do_roundtrip(uint64_t n, void *arg)
{
	struct sem_state *s = arg;
	struct sembuf ops[2] = {
		{ .sem_num = 1, .sem_op = -1 },
		{ .sem_num = 0, .sem_op = 1 },
	};

	while (n-- > 0)
		if (semop(s->semid, ops, 2))
			return -errno;
	return 0;
}

/* Field 39 of /proc/<pid>/stat: the CPU the task last ran on. */
static int last_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');		/* the command name may hold spaces */
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%d", &cpu);
	return cpu;
}

static int measure(struct pp_ctx *ctx, struct sem_state *st)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	unsigned int i;
	int ret;

	if (!s)
		return pp_fail(ctx, "lat_sem: out of memory");
	/*
	 * Until the child runs, a round trip includes its start: a first
	 * timing that slow would size the samples to a few round trips.
	 */
	ret = do_roundtrip(WARMUP_ROUNDTRIPS, st);
	if (!ret)
		ret = pp_sample(ctx, do_roundtrip, st, NULL, s);
	if (ret) {
		ret = pp_sample_err(ctx, "lat_sem", ret);
		goto out;
	}
	for (i = 0; i < s->n; i++)
		s->ns_per_op[i] /= 2;	/* a round trip is two hand-offs */
	s->iters *= 2;
	ret = pp_report_sampling(ctx, "lat_sem", s);
	pp_progress(ctx, "lat_sem: parent on CPU %d, child on CPU %d%s", s->cpu_last,
		    last_cpu(st->child), ctx->opts.pin_cpu >= 0 ? " (pinned)" : "");
out:
	free(s);
	return ret;
}

static int lat_sem_run(struct pp_ctx *ctx)
{
	union semun zero = { .val = 0 };
	struct sem_state st = { .child = -1 };
	pid_t parent = getpid();
	int ret;

	st.semid = semget(IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0600);
	if (st.semid < 0)
		return pp_skip(ctx, NULL, "semget: %s", strerror(errno));
	if (semctl(st.semid, 0, SETVAL, zero) || semctl(st.semid, 1, SETVAL, zero)) {
		ret = pp_fail(ctx, "lat_sem: semctl: %s", strerror(errno));
		goto out_rmid;
	}
	st.child = fork();
	if (st.child < 0) {
		ret = pp_fail(ctx, "lat_sem: fork: %s", strerror(errno));
		goto out_rmid;
	}
	if (st.child == 0)
		child(st.semid, parent);
	ret = measure(ctx, &st);
	kill(st.child, SIGKILL);
	while (waitpid(st.child, NULL, 0) < 0 && errno == EINTR)
		;
out_rmid:
	semctl(st.semid, 0, IPC_RMID);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_sem", .unit = "us", .dir = PP_LOWER_IS_BETTER,
	  .desc = "a System V semaphore hand-off between two processes (half a round trip)" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_sem = {
	.name = "lat_sem",
	.group = "ops",
	.summary = "SysV semaphore hand-off between two processes (us)",
	.keys = keys,
	.run = lat_sem_run,
};
