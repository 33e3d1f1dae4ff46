// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest - perfprobe.ko's tests inside the QEMU guest.
 *
 * Runs inside the test VM built by scripts/vmtest.sh and prints TAP
 * ("ok - ..." / "not ok - ..." lines without numbers, "# ..." diagnostics);
 * the host numbers the lines of all test programs and adds the plan.
 * Exit status: 0 all checks passed, 1 a check failed, 2 the perfprobe
 * family could not be resolved (module not loaded), 3 usage error.
 *
 * usage: pp-vmtest [-u UID[:GID]] [-C CAP] [-q] COMMAND [options]
 *   -u UID[:GID]  drop to this uid/gid (and no supplementary groups)
 *                 before doing anything; all capabilities are dropped
 *   -C CAP[,CAP]  ... except these capability numbers (12 = CAP_NET_ADMIN,
 *                 38 = CAP_PERFMON)
 *   -q            quiet: no TAP output, exit status only (info)
 *
 * commands (see Documentation/vmtest.rst):
 *   info [--expect-idle]      GET_INFO answers with the ABI version
 *   timer                     TIMER sanity
 *   copy                      COPY data/checksum matrix
 *   bad [--fresh]             malformed and invalid requests
 *   trace-syscalls [-n N]     exact getppid() counting
 *   trace-faults [-n PAGES]   minor fault counting
 *   privs --expect-eperm|--perfmon|--net-admin|--allowed
 *   concurrent [-n ITER]      two clients at once
 *   copy-budget               concurrent COPY requests over the buffer budget
 *   fuzz [-n COUNT] [-s SEED] [-t SECONDS]
 *   trace-hold [-t TGID] [-f FEATURES] [-r READYFILE]
 *   fault-storm               page-fault hard until killed
 *   rmmod-race [-n ITER] -k MODULE.ko
 *   touch-child               helper spawned by trace-faults
 */
#include "vmtest.h"

TAP_STATE_DEFINE;

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "info", cmd_info },
	{ "timer", cmd_timer },
	{ "copy", cmd_copy },
	{ "bad", cmd_bad },
	{ "trace-syscalls", cmd_trace_syscalls },
	{ "trace-faults", cmd_trace_faults },
	{ "privs", cmd_privs },
	{ "copy-budget", cmd_copy_budget },
	{ "concurrent", cmd_concurrent },
	{ "fuzz", cmd_fuzz },
	{ "trace-hold", cmd_trace_hold },
	{ "fault-storm", cmd_fault_storm },
	{ "rmmod-race", cmd_rmmod_race },
	{ "touch-child", cmd_touch_child },
};

static void usage(void)
{
	fprintf(stderr, "usage: pp-vmtest [-u UID[:GID]] [-C CAP] [-q] COMMAND [options]\ncommands:");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, " %s", cmds[i].name);
	fprintf(stderr, "\n");
	exit(3);
}

int main(int argc, char **argv)
{
	uint64_t keep_caps = 0;
	int opt;
	long uid = -1, gid = -1;
	static char tagbuf[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	while ((opt = getopt(argc, argv, "+u:C:q")) != -1) {
		switch (opt) {
		case 'u': {
			char *colon;

			uid = strtol(optarg, &colon, 10);
			gid = *colon == ':' ? strtol(colon + 1, NULL, 10) : uid;
			break;
		}
		case 'C':
			for (char *c = optarg; *c; c += *c == ',')
				keep_caps |= 1ULL << (strtoul(c, &c, 10) & 63);
			break;
		case 'q': tap_set_quiet(true); break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	if (uid >= 0) {
		if (drop_privs(uid, gid, keep_caps)) {
			printf("not ok - drop privileges to uid %ld: %s\n", uid, strerror(errno));
			return 1;
		}
		snprintf(tagbuf, sizeof(tagbuf), "[uid %ld%s] ", uid,
			 keep_caps ? " +cap" : "");
		tap_set_prefix(tagbuf);
	}
	argc -= optind;
	argv += optind;
	optind = 1;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(argc, argv);
	usage();
	return 3;
}
