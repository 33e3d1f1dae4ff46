/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usyms: user-space addresses of the benchmark's processes to function
 * names, with elfutils' libdwfl (the maps of /proc/PID, each module's
 * symbol table, a separate debug file where one is installed by build
 * id; never one fetched over the network).
 */
#ifndef PP_USYMS_H
#define PP_USYMS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pp_usyms;

/* NULL when out of memory. */
struct pp_usyms *pp_usyms_new(void);

/*
 * The function at addr in process pid, in buf: its symbol, else
 * "[module]", else "[unknown]".  A process that is gone is read as this
 * one: a benchmark's partners are forks of it.
 */
const char *pp_usyms_name(struct pp_usyms *u, pid_t pid, uint64_t addr, char *buf,
			  size_t size);

/* Forget every process but this one (their maps may change). */
void pp_usyms_forget(struct pp_usyms *u);

void pp_usyms_free(struct pp_usyms *u);

#endif /* PP_USYMS_H */
