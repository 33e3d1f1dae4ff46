// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: the backend-neutral trace of a pass (ktrace.h), what
 * perfprobe.ko's TRACE_GET becomes in it, and the per-operation figures
 * of a system call loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace.h"
#include "ppnl.h"
#include "util.h"

const char *pp_kt_probe_name(enum pp_kt_probe p)
{
	static const char *const names[PP_KT_NPROBES] = {
		[PP_KT_SYSCALLS] = "syscalls",
		[PP_KT_FAULTS] = "faults",
		[PP_KT_FAULT_NS] = "fault-time",
		[PP_KT_SCHED] = "sched",
		[PP_KT_COPY] = "copy",
	};

	return (unsigned int)p < PP_KT_NPROBES ? names[p] : "?";
}

int pp_ktrace_add_sys(struct pp_ktrace *t, const struct pp_ktrace_sys *s)
{
	if (t->nsys == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct pp_ktrace_sys *n = realloc(t->sys, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->sys = n;
		t->cap = cap;
	}
	t->sys[t->nsys++] = *s;
	return 0;
}

const struct pp_ktrace_sys *pp_ktrace_find(const struct pp_ktrace *t, int nr)
{
	size_t i;

	for (i = 0; nr >= 0 && i < t->nsys; i++)
		if (t->sys[i].nr == (uint32_t)nr)
			return &t->sys[i];
	return NULL;
}

void pp_ktrace_free(struct pp_ktrace *t)
{
	free(t->sys);
	memset(t, 0, sizeof(*t));
}

/*
 * The module's figures: faults from its page_fault_user tracepoint, their
 * time from its handle_mm_fault kretprobe, copies from its kprobes (bytes
 * and calls, not split by direction, not timed); no scheduler figures.
 */
int pp_ktrace_from_ppnl(const struct ppnl_trace *in, struct pp_ktrace *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	pp_strlcpy(out->source, "kmod", sizeof(out->source));
	if (in->features & PERFPROBE_CAP_SYSCALL_TRACE)
		out->have |= PP_KT_BIT(PP_KT_SYSCALLS);
	if (in->features & PERFPROBE_CAP_PGFAULT_TP)
		out->have |= PP_KT_BIT(PP_KT_FAULTS);
	if (in->features & PERFPROBE_CAP_PGFAULT_KRETPROBE)
		out->have |= PP_KT_BIT(PP_KT_FAULT_NS);
	if (in->features & PERFPROBE_CAP_COPY_KPROBES)
		out->have |= PP_KT_BIT(PP_KT_COPY);
	out->duration_ns = in->duration_ns;
	out->dropped = in->dropped;
	out->faults = in->pf_tp;
	out->fault_timed = in->pf_minor.count + in->pf_major.count;
	out->fault_ns = in->pf_minor.sum_ns + in->pf_major.sum_ns;
	out->copy_calls = in->ucopy_calls;
	out->copy_bytes = in->ucopy_bytes;
	for (i = 0; i < in->nsys; i++) {
		const struct ppnl_sys *s = &in->sys[i];
		struct pp_ktrace_sys ks = {
			.nr = s->nr,
			.count = s->st.count,
			.timed = s->st.count,
			.ns = s->st.sum_ns,
			.min_ns = s->st.min_ns,
			.max_ns = s->st.max_ns,
			.copy_bytes = s->ucopy_bytes,
		};

		if (pp_ktrace_add_sys(out, &ks)) {
			pp_ktrace_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}
