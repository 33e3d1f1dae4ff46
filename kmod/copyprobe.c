// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: count calls and bytes of the out-of-line user-copy routines
 * used by copy_{from,to}_user() and clear_user(), with kprobes on their
 * entry.  The length is read from the argument register documented for
 * each routine (x86-64 6.1: %rdx for copy_user_*, %rcx for clear_user_*;
 * x86-64 >= 6.4: %rcx for rep_movs_alternative/rep_stos_alternative;
 * arm64: x2 for __arch_copy_{from,to}_user, x1 for __arch_clear_user).
 * Inlined small copies (constant-size __get_user style) are not seen.
 *
 * A call made by a traced thread inside a syscall is charged to that
 * syscall through its pp_slot; every call of a traced thread counts in
 * the totals.  Calls made with interrupts disabled (IRQ/NMI context,
 * e.g. copy_from_user_nmi() of perf callchains) are ignored.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>

#include "perfprobe.h"

struct pp_copy_sym {
	const char *name;
	unsigned int len_arg;	/* index for regs_get_kernel_argument() */
	bool len32;		/* length is a 32-bit "unsigned" */
};

static const struct pp_copy_sym pp_copy_syms[] = {
#if defined(CONFIG_X86_64)
	{ "copy_user_enhanced_fast_string",	2, true },
	{ "copy_user_generic_string",		2, true },
	{ "copy_user_generic_unrolled",		2, true },
	{ "clear_user_erms",			3, false },
	{ "clear_user_rep_good",		3, false },
	{ "clear_user_original",		3, false },
	{ "rep_movs_alternative",		3, false },
	{ "rep_stos_alternative",		3, false },
#elif defined(CONFIG_ARM64)
	{ "__arch_copy_from_user",		2, false },
	{ "__arch_copy_to_user",		2, false },
	{ "__arch_clear_user",			1, false },
#endif
	{ NULL, 0, false }
};

#define PP_NR_COPY_SYMS	(ARRAY_SIZE(pp_copy_syms) - 1)

static struct kprobe pp_copy_kp[ARRAY_SIZE(pp_copy_syms)];
static struct kprobe *pp_copy_kps[ARRAY_SIZE(pp_copy_syms)];
static bool pp_copy_ok[ARRAY_SIZE(pp_copy_syms)];
static unsigned int pp_copy_nr_ok;

static bool pp_regs_irqs_off(struct pt_regs *regs)
{
#if defined(CONFIG_X86)
	return regs_irqs_disabled(regs);
#elif defined(CONFIG_ARM64)
	return regs->pstate & PSR_I_BIT;
#else
	return false;
#endif
}

static int pp_copy_pre(struct kprobe *p, struct pt_regs *regs)
{
	const struct pp_copy_sym *sym = &pp_copy_syms[p - pp_copy_kp];
	struct pp_trace_data *d;
	struct pp_trace_cpu *c;
	struct pp_slot *s;
	u64 len;

	/*
	 * The handler itself may run in an NMI-like exception context (x86
	 * int3), so in_task() cannot tell where the copy was made; copies
	 * from IRQ/NMI context (e.g. stack sampling) run with interrupts
	 * off at the probe point and are ignored.
	 */
	if (pp_regs_irqs_off(regs))
		return 0;
	d = pp_trace_current();
	if (!d)
		return 0;
	len = regs_get_kernel_argument(regs, sym->len_arg);
	if (sym->len32)
		len = (u32)len;
	c = pp_this_cpu(d);	/* kprobe handlers run with preemption off */
	c->ucopy_calls++;
	c->ucopy_bytes += len;
	s = pp_slot_find(d, current->pid);
	if (s) {
		s->ucopy_calls++;
		s->ucopy_bytes += len;
	}
	return 0;
}

static void pp_copy_kp_init(unsigned int i)
{
	memset(&pp_copy_kp[i], 0, sizeof(pp_copy_kp[i]));
	pp_copy_kp[i].symbol_name = pp_copy_syms[i].name;
	pp_copy_kp[i].pre_handler = pp_copy_pre;
}

int pp_copyprobe_detect(void)
{
	unsigned int i;

	for (i = 0; i < PP_NR_COPY_SYMS; i++) {
		pp_copy_kp_init(i);
		pp_copy_kp[i].flags = KPROBE_FLAG_DISABLED;
		if (register_kprobe(&pp_copy_kp[i]))
			continue;
		unregister_kprobe(&pp_copy_kp[i]);
		pp_copy_ok[i] = true;
		pp_copy_nr_ok++;
	}
	if (!PP_NR_COPY_SYMS) {
		pp_info.copy_reason = "no known user-copy routine on this architecture";
		return -EOPNOTSUPP;
	}
	if (!pp_copy_nr_ok) {
		pp_info.copy_reason = "no user-copy routine could be kprobed";
		return -ENOENT;
	}
	pp_info.caps |= PERFPROBE_CAP_COPY_KPROBES;
	return 0;
}

int pp_copyprobe_register(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < PP_NR_COPY_SYMS; i++) {
		if (!pp_copy_ok[i])
			continue;
		pp_copy_kp_init(i);
		pp_copy_kps[n++] = &pp_copy_kp[i];
	}
	return register_kprobes(pp_copy_kps, n);
}

/* unregister_kprobes() waits for running handlers (synchronize_rcu). */
void pp_copyprobe_unregister(void)
{
	unregister_kprobes(pp_copy_kps, pp_copy_nr_ok);
}

unsigned int pp_copyprobe_nr_syms(void)
{
	return PP_NR_COPY_SYMS;
}

const char *pp_copyprobe_sym(unsigned int i)
{
	return i < PP_NR_COPY_SYMS && pp_copy_ok[i] ? pp_copy_syms[i].name : NULL;
}
