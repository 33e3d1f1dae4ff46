// SPDX-License-Identifier: GPL-2.0
/*
 * Where runs are kept: the results directory and a run's path in it
 * (results.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "util.h"

int pp_results_default_dir(char *buf, size_t size)
{
	const char *env = getenv("PERFPROBE_RESULTS_DIR");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, size, "%s/perfprobe/results", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.local/share/perfprobe/results", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int pp_results_path(const char *dir, const struct pp_meta *m, const char *tag,
		    char *buf, size_t size)
{
	char day[16], hms[16], sub[PATH_MAX];
	int n, err;

	/* meta.date is "YYYY-MM-DDTHH:MM:SSZ" */
	if (strlen(m->date) < 19)
		return -EINVAL;
	snprintf(day, sizeof(day), "%.10s", m->date);
	snprintf(hms, sizeof(hms), "%.2s%.2s%.2s", m->date + 11, m->date + 14,
		 m->date + 17);
	n = snprintf(sub, sizeof(sub), "%s/%s/%s", dir, m->hostname, day);
	if (n < 0 || (size_t)n >= sizeof(sub))
		return -ENAMETOOLONG;
	err = pp_mkdirs(sub, 0755);
	if (err)
		return err;
	n = snprintf(buf, size, "%s/%s-%s-%d.json", sub, hms, tag, (int)getpid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}
