// SPDX-License-Identifier: GPL-2.0
/*
 * What a command's errors mean to the shell (exitcode.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "print.h"

int pp_usage_err(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pp_err("%s (see 'perfprobe help')", msg);
	return PP_EXIT_USAGE;
}

int pp_print_done(void)
{
	bool json = pp_print_json();
	int err = pp_print_end();

	if (!err)
		return PP_EXIT_OK;
	pp_err("cannot print the %s: %s", json ? "JSON document" : "output",
	       strerror(-err));
	return PP_EXIT_FAIL;
}
