// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "clock.h"
#include "stats.h"
#include "util.h"

#define CLOCK_ROUNDS	15
#define CLOCK_READS	1000

int pp_clocksource(char *buf, size_t size)
{
	if (!pp_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  buf, size))
		return 0;
	if (size)
		buf[0] = '\0';
	return -1;
}

void pp_clock_calibrate(struct pp_clock_info *ci)
{
	double cost[CLOCK_ROUNDS];
	uint64_t step = UINT64_MAX;
	struct timespec res;
	int r, i;

	memset(ci, 0, sizeof(*ci));
	ci->id = "CLOCK_MONOTONIC";
	pp_clocksource(ci->source, sizeof(ci->source));
	if (!clock_getres(CLOCK_MONOTONIC, &res))
		ci->getres_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;

	for (r = 0; r < CLOCK_ROUNDS; r++) {
		uint64_t t0 = pp_now_ns(), prev = t0, now = t0;

		for (i = 0; i < CLOCK_READS; i++) {
			now = pp_now_ns();
			if (now > prev && now - prev < step)
				step = now - prev;
			prev = now;
		}
		cost[r] = (double)(now - t0) / CLOCK_READS;
	}
	ci->read_cost_ns = pp_median(cost, CLOCK_ROUNDS);
	ci->resolution_ns = step == UINT64_MAX ? 0 : (double)step;
}
