// SPDX-License-Identifier: GPL-2.0
/*
 * usyms: one libdwfl session a process, reported from its /proc maps on
 * first use.  This process's is kept for its life (reported again when
 * an address falls in no module it knows); the others' are dropped
 * after each profile (pp_usyms_forget()).
 */
#define _GNU_SOURCE
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usyms.h"
#include "util.h"

#define USYMS_PROCS	16

struct usyms_proc {
	pid_t pid;
	Dwfl *dwfl;		/* NULL: could not be reported (gone) */
};

struct pp_usyms {
	struct usyms_proc self;
	bool self_fresh;	/* reported since the last forget */
	struct usyms_proc procs[USYMS_PROCS];
	unsigned int nprocs;
};

/* Local files only: a benchmark never waits for debuginfod. */
static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_build_id_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static Dwfl *report(pid_t pid)
{
	Dwfl *d = dwfl_begin(&callbacks);

	if (!d)
		return NULL;
	dwfl_report_begin(d);
	if (dwfl_linux_proc_report(d, pid) || dwfl_report_end(d, NULL, NULL)) {
		dwfl_end(d);
		return NULL;
	}
	return d;
}

struct pp_usyms *pp_usyms_new(void)
{
	struct pp_usyms *u = calloc(1, sizeof(*u));

	if (u)
		u->self.pid = getpid();
	return u;
}

static Dwfl *self_dwfl(struct pp_usyms *u, bool again)
{
	if (u->self.pid != getpid()) {	/* a fork of the one that made it */
		if (u->self.dwfl)
			dwfl_end(u->self.dwfl);
		u->self.dwfl = NULL;
		u->self.pid = getpid();
	}
	if (again && u->self_fresh)
		return u->self.dwfl;
	if (!u->self.dwfl || again) {
		if (u->self.dwfl)
			dwfl_end(u->self.dwfl);
		u->self.dwfl = report(u->self.pid);
		u->self_fresh = true;
	}
	return u->self.dwfl;
}

static Dwfl *proc_dwfl(struct pp_usyms *u, pid_t pid)
{
	unsigned int i;

	if (pid == getpid())
		return self_dwfl(u, false);
	for (i = 0; i < u->nprocs; i++)
		if (u->procs[i].pid == pid)
			return u->procs[i].dwfl;
	if (u->nprocs == USYMS_PROCS)
		return NULL;
	u->procs[u->nprocs].pid = pid;
	u->procs[u->nprocs].dwfl = report(pid);
	return u->procs[u->nprocs++].dwfl;
}

static const char *name_in(Dwfl *d, uint64_t addr, char *buf, size_t size)
{
	Dwfl_Module *m = d ? dwfl_addrmodule(d, addr) : NULL;
	const char *name, *mod;

	if (!m)
		return NULL;
	name = dwfl_module_addrname(m, addr);
	if (name) {
		snprintf(buf, size, "%s", name);
		return buf;
	}
	mod = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	snprintf(buf, size, "[%s]", mod ? (strrchr(mod, '/') ? strrchr(mod, '/') + 1 : mod) :
		 "unknown");
	return buf;
}

const char *pp_usyms_name(struct pp_usyms *u, pid_t pid, uint64_t addr, char *buf,
			  size_t size)
{
	Dwfl *d = proc_dwfl(u, pid);
	const char *name = name_in(d, addr, buf, size);

	/* gone, or mapped since: this process, as it is now */
	if (!name && d != u->self.dwfl)
		name = name_in(self_dwfl(u, false), addr, buf, size);
	if (!name)
		name = name_in(self_dwfl(u, true), addr, buf, size);
	if (!name)
		snprintf(buf, size, "[unknown]");
	return buf;
}

void pp_usyms_forget(struct pp_usyms *u)
{
	unsigned int i;

	for (i = 0; i < u->nprocs; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	u->nprocs = 0;
	u->self_fresh = false;
}

void pp_usyms_free(struct pp_usyms *u)
{
	if (!u)
		return;
	pp_usyms_forget(u);
	if (u->self.dwfl)
		dwfl_end(u->self.dwfl);
	free(u);
}
