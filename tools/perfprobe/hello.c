// SPDX-License-Identifier: GPL-2.0
/*
 * The tiny static program lat_proc execs (lmbench's hello.c): it writes
 * one line and exits.  Built with -static so exec cost is not the cost
 * of the dynamic loader.
 */
#include <unistd.h>

int main(void)
{
	static const char msg[] = "Hello world\n";

	return write(1, msg, sizeof(msg) - 1) < 0 ? 0 : 0;
}
