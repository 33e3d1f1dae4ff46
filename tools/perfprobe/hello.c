// SPDX-License-Identifier: GPL-2.0
/*
 * The tiny program lat_proc execs (lmbench's hello.c): it writes one line
 * and exits.  Built twice (Makefile): perfprobe-hello-dyn, linked
 * dynamically as lmbench's Makefile builds its hello (lat_proc-exec), and
 * perfprobe-hello, static, so that lat_proc-exec-lean is not the cost of
 * the dynamic loader.
 */
#include <unistd.h>

int main(void)
{
	static const char msg[] = "Hello world\n";

	return write(1, msg, sizeof(msg) - 1) < 0 ? 0 : 0;
}
