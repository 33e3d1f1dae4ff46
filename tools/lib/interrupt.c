// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT, SIGTERM and SIGHUP during a run (interrupt.h): the first one
 * in an interruptible run only marks it, so the run ends keeping what it
 * measured; otherwise the temporary directories go (tmpdir.c) and the
 * signal ends the process as it would have.
 */
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

volatile sig_atomic_t pp_interrupted;
static bool interruptible;
static pid_t owner;			/* the process that installed them */

static void on_signal(int sig)
{
	if (interruptible && !pp_interrupted && getpid() == owner) {
		pp_interrupted = sig;
		return;
	}
	pp_tmp_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void pp_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	owner = getpid();
}

void pp_interrupt_enable(void)
{
	interruptible = true;
}
