// SPDX-License-Identifier: GPL-2.0
/*
 * cpuhog: which processes took CPU time while a loop was sampled.
 * /proc/PID/stat's utime + stime (fields 14 and 15, in clock ticks) of
 * every process, before and after; the comm is between the first '('
 * and the last ')'.  perfprobe's own processes (its comm) are left out.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuhog.h"

struct hog {
	int pid;
	unsigned long long ticks;
	char comm[32];
};

struct pp_hogs {
	struct hog *h;
	size_t n;
};

static int read_stat(int pid, struct hog *h)
{
	char path[64], buf[1024], *open, *close;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -1;
	/* after ") ": state, then fields 4..13, then utime stime */
	if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &ut, &st) != 2)
		return -1;
	h->pid = pid;
	h->ticks = ut + st;
	snprintf(h->comm, sizeof(h->comm), "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

static struct pp_hogs *scan(void)
{
	struct pp_hogs *s = calloc(1, sizeof(*s));
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	if (!s)
		return NULL;
	d = opendir("/proc");
	if (!d)
		goto free_s;
	while ((de = readdir(d))) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		if (s->n == cap) {
			struct hog *m = realloc(s->h, (cap = cap ? 2 * cap : 256) * sizeof(*m));

			if (!m)
				break;
			s->h = m;
		}
		if (!read_stat(pid, &s->h[s->n]))
			s->n++;
	}
	closedir(d);
	return s;

free_s:
	free(s);
	return NULL;
}

struct pp_hogs *pp_hogs_snap(void)
{
	return scan();
}

static void hogs_free(struct pp_hogs *s)
{
	if (s)
		free(s->h);
	free(s);
}

void pp_hogs_since(struct pp_hogs *snap, char *buf, size_t size)
{
	struct hog top[3] = { { 0 } };
	double tick = (double)sysconf(_SC_CLK_TCK);
	size_t i, j, k, len = 0;
	struct pp_hogs *now;

	if (!buf || !size)
		goto free_snap;
	buf[0] = '\0';
	now = snap ? scan() : NULL;
	for (i = 0; now && i < now->n; i++) {
		const struct hog *h = &now->h[i];
		unsigned long long before = 0;

		if (!strncmp(h->comm, "perfprobe", 9))
			continue;
		/* by pid: a kworker's comm changes with the work it runs */
		for (j = 0; j < snap->n; j++)
			if (snap->h[j].pid == h->pid) {
				before = snap->h[j].ticks;
				break;
			}
		/* a process started meanwhile: all its time is since */
		if (h->ticks <= before)
			continue;
		for (k = 0; k < 3; k++)
			if (h->ticks - before > top[k].ticks) {
				memmove(&top[k + 1], &top[k], (2 - k) * sizeof(top[0]));
				top[k] = *h;
				top[k].ticks = h->ticks - before;
				break;
			}
	}
	for (k = 0; k < 3 && top[k].ticks && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s (pid %d) %.2f s",
					k ? ", " : "", top[k].comm, top[k].pid,
					(double)top[k].ticks / (tick > 0 ? tick : 100));
	hogs_free(now);
free_snap:
	hogs_free(snap);
}
