// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe kernel-view status: which backend the kernel view would use
 * here (perfprobe.ko if it is loaded and speaks our ABI, else BPF if this
 * kernel and these privileges allow it), and, per backend, which probes
 * it has, how they attach, or why not.  Documentation/kernel-view.rst.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "exitcode.h"
#include "kernel/kbpf.h"
#include "kernel/kdwarf.h"
#include "kernel/kprof.h"
#include "kernel/ksyms.h"
#include "kernel/ktrace.h"
#include "kernel/ppnl.h"
#include "print.h"

/* What perfprobe.ko offers for a probe group: how, or NULL and why. */
static const char *kmod_probe_how(const struct ppnl_info *in, enum pp_kt_probe p,
				  const char **why)
{
	switch (p) {
	case PP_KT_SYSCALLS:
		*why = "perfprobe.ko reports no syscall tracepoints on this kernel";
		return in->caps & PERFPROBE_CAP_SYSCALL_TRACE ? "raw_syscalls tracepoints" : NULL;
	case PP_KT_FAULTS:
		*why = in->pgfault_reason[0] ? in->pgfault_reason : "no fault probe on this kernel";
		if (in->caps & PERFPROBE_CAP_PGFAULT_TP)
			return "exceptions:page_fault_user";
		return in->caps & PERFPROBE_CAP_PGFAULT_KRETPROBE ? "handle_mm_fault kretprobe" : NULL;
	case PP_KT_FAULT_NS:
		*why = in->pgfault_reason[0] ? in->pgfault_reason : "needs the handle_mm_fault kretprobe";
		return in->caps & PERFPROBE_CAP_PGFAULT_KRETPROBE ? "handle_mm_fault kretprobe" : NULL;
	case PP_KT_SCHED:
		*why = "perfprobe.ko does not watch the scheduler (the BPF backend does)";
		return NULL;
	case PP_KT_COPY:
		*why = in->copy_reason[0] ? in->copy_reason : "no copy routine found";
		return in->caps & PERFPROBE_CAP_COPY_KPROBES ? "kprobes on the copy routines" : NULL;
	case PP_KT_NPROBES:
		break;
	}
	*why = "unknown probe";
	return NULL;
}

static void print_probe(enum pp_kt_probe p, const char *how, const char *why)
{
	pp_print_open_object(pp_kt_probe_name(p));
	pp_print_bool(PP_JSON, "available", NULL, how != NULL);
	pp_print_string(PP_FP, NULL, "    %-10s ", pp_kt_probe_name(p));
	if (how) {
		pp_print_string(PP_ANY, "how", "%s\n", how);
	} else {
		if (strncmp(why, "not available", strlen("not available")))
			pp_print_text("not available: ");
		pp_print_string(PP_ANY, "why", "%s\n", why);
	}
	pp_print_close_object();
}

/* perfprobe.ko: true when it can serve as the backend. */
static bool status_kmod(void)
{
	struct ppnl_info in;
	char why[PPNL_MSG_MAX + 64];
	struct ppnl s;
	int err, p;

	pp_print_open_object("kmod");
	err = ppnl_connect(&s, &in);
	pp_print_bool(PP_JSON, "usable", NULL, !err);
	if (err) {
		if (err == -ENOENT)
			snprintf(why, sizeof(why), "%s", PPNL_NOT_LOADED);
		else
			ppnl_strerror(&s, err, why, sizeof(why));
		pp_print_string(PP_ANY, "why", "  perfprobe.ko: not usable: %s\n", why);
		pp_print_close_object();
		return false;
	}
	ppnl_close(&s);
	pp_print_string(PP_ANY, "module_version", "  perfprobe.ko %s", in.module_version);
	pp_print_uint(PP_ANY, "abi_version", " (ABI %u): loaded\n", in.abi_version);
	pp_print_open_object("probes");
	for (p = 0; p < PP_KT_NPROBES; p++) {
		const char *why_p = NULL, *how = kmod_probe_how(&in, p, &why_p);

		print_probe(p, how, why_p);
	}
	pp_print_close_object();
	pp_print_close_object();
	return true;
}

/* BPF: true when it can serve as the backend. */
static bool status_bpf(void)
{
	char why[KBPF_WHY_MAX + 64];
	const char *built_why;
	struct kbpf *kb;
	int err, p;

	pp_print_open_object("bpf");
	if (!kbpf_built(&built_why)) {
		pp_print_bool(PP_JSON, "usable", NULL, false);
		pp_print_string(PP_ANY, "why", "  BPF: not usable: %s\n", built_why);
		pp_print_close_object();
		return false;
	}
	err = kbpf_open(&kb, 0, why, sizeof(why));
	pp_print_bool(PP_JSON, "usable", NULL, !err);
	if (err) {
		pp_print_string(PP_ANY, "why", "  BPF: not usable: %s\n", why);
		pp_print_close_object();
		return false;
	}
	pp_print_text("  BPF (libbpf, CO-RE): loads here\n");
	pp_print_open_object("probes");
	for (p = 0; p < PP_KT_NPROBES; p++) {
		const char *why_p = NULL, *how = kbpf_probe_how(kb, p, &why_p);

		print_probe(p, how, why_p ? why_p : "not attached");
	}
	pp_print_close_object();
	pp_print_string(PP_JSON, "copy_routines", NULL, kbpf_copy_routines(kb));
	pp_print_close_object();
	kbpf_close(kb);
	return true;
}

/*
 * The kernel's debug info the profile would use (vmlinux: --vmlinux),
 * or why none: 0, or -1 when the file given cannot be used.
 */
static int status_kdwarf(const struct pp_ksyms *ks, const char *vmlinux)
{
	struct pp_kdwarf *kd;
	char why[512];
	int err = pp_kdwarf_open_running(&kd, vmlinux, ks->text_lo, why, sizeof(why));

	pp_print_open_object("debuginfo");
	pp_print_bool(PP_JSON, "available", NULL, !err);
	if (!err) {
		pp_print_string(PP_ANY, "file", "    debug info: %s", pp_kdwarf_path(kd));
		pp_print_text(": inlined functions and source lines\n");
		pp_kdwarf_close(kd);
	} else {
		pp_print_string(PP_ANY, "why", "    debug info: none: %s\n", why);
	}
	pp_print_close_object();
	return err && vmlinux ? -1 : 0;
}

/* The sampled profile, beside either backend: how it samples, or why not. */
static int status_prof(const char *vmlinux)
{
	struct pp_kprof_how how;
	struct pp_ksyms ks;
	int ret = 0;

	pp_print_open_object("profile");
	if (!pp_kprof_probe(&how))
		how.ok = !pp_ksyms_load(&ks, "/proc/kallsyms", how.why, sizeof(how.why));
	pp_print_bool(PP_JSON, "available", NULL, how.ok);
	if (how.ok) {
		pp_print_string(PP_ANY, "event", "  profile: %s", how.event);
		pp_print_uint(PP_ANY, "hz", " at %u Hz, kernel and user call chains\n",
			      PP_KPROF_HZ);
		if (how.note[0])
			pp_print_string(PP_ANY, "note", "    %s\n", how.note);
		ret = status_kdwarf(&ks, vmlinux);
		pp_ksyms_free(&ks);
	} else {
		pp_print_string(PP_ANY, "why", "  profile: %s\n", how.why);
	}
	pp_print_close_object();
	return ret;
}

int pp_cmd_kernel_view(struct pp_cli *cli, int argc, char **argv)
{
	bool kmod, bpf;
	const char *use;
	int err, ret;

	if (argc != 1 || strcmp(argv[0], "status"))
		return pp_usage_err("kernel-view: say 'kernel-view status'");
	pp_print_start(stdout, cli->json);
	pp_print_string(PP_JSON, "format", NULL, "perfprobe-kernel-view-status");
	pp_print_text("kernel view backends, best first:\n");
	kmod = status_kmod();
	bpf = status_bpf();
	use = kmod ? "kmod" : bpf ? "bpf" : NULL;
	pp_print_string(PP_ANY, "backend", "would use: %s\n", use);
	if (!use)
		pp_print_text("  to enable it: load perfprobe.ko (make kmod; insmod kmod/perfprobe.ko), or run as root where BPF is allowed\n");
	pp_print_text("with either backend, a profile of each result:\n");
	err = status_prof(cli->opts.vmlinux);
	ret = pp_print_done();
	if (err) {
		pp_err("--vmlinux %s: not usable (its line above says why)", cli->opts.vmlinux);
		return PP_EXIT_USAGE;
	}
	return ret;
}
