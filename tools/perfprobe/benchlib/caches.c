// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib/caches.h"
#include "util.h"

#define SYSFS_CACHE	"/sys/devices/system/cpu/cpu0/cache"

/* "48K", "32768K", "1M" */
static size_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return v;
}

static void read_sysfs(struct pp_caches *c)
{
	char path[128], buf[64];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		unsigned long level;
		size_t size;

		snprintf(path, sizeof(path), SYSFS_CACHE "/index%u/type", i);
		if (pp_read_line(path, buf, sizeof(buf)))
			break;
		if (strcmp(buf, "Data") && strcmp(buf, "Unified"))
			continue;
		snprintf(path, sizeof(path), SYSFS_CACHE "/index%u/level", i);
		if (pp_read_line(path, buf, sizeof(buf)))
			continue;
		level = strtoul(buf, NULL, 10);
		snprintf(path, sizeof(path), SYSFS_CACHE "/index%u/size", i);
		if (level < 1 || level >= PP_CACHE_MAX_LEVELS ||
		    pp_read_line(path, buf, sizeof(buf)))
			continue;
		size = parse_cache_size(buf);
		if (size > c->size[level])
			c->size[level] = size;
		if (level > c->levels)
			c->levels = (unsigned int)level;
	}
	if (c->levels)
		c->source = "sysfs";
}

void pp_caches_read(struct pp_caches *c)
{
	static const int names[] = {
		0, _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE,
		_SC_LEVEL4_CACHE_SIZE
	};
	unsigned int l;

	memset(c, 0, sizeof(*c));
	c->source = "none";
	read_sysfs(c);
	if (c->levels)
		return;
	/* No sysfs (some VMs): glibc asks CPUID; less trustworthy. */
	for (l = 1; l < ARRAY_SIZE(names); l++) {
		long v = sysconf(names[l]);

		if (v > 0) {
			c->size[l] = (size_t)v;
			c->levels = l;
		}
	}
	if (c->levels)
		c->source = "cpuid";
}

size_t pp_llc_bytes(const char **source)
{
	struct pp_caches c;

	pp_caches_read(&c);
	if (source)
		*source = c.source;
	return c.levels ? c.size[c.levels] : 0;
}

size_t pp_mem_available(void)
{
	char line[256];
	size_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemAvailable: %zu kB", &kb) == 1)
				break;
		fclose(f);
	}
	if (!kb)
		return (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	return kb << 10;
}
