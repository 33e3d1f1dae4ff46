// SPDX-License-Identifier: GPL-2.0
/*
 * perfprobe: /sys/kernel/debug/perfprobe/ (human readable, not an ABI).
 *
 *   info      capabilities, load-time measurements and the COPY buffer
 *             bytes in use now
 *   trace     state and page-fault/user-copy summary of the last trace
 *   syscalls  per-syscall latency statistics and histograms
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "perfprobe.h"

static struct dentry *pp_debugfs_dir;

static int info_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_printf(m, "abi_version: %u\n", PERFPROBE_GENL_VERSION);
	seq_printf(m, "module_version: %s\n", PERFPROBE_MODULE_VERSION);
	seq_printf(m, "clock_res_ns: %u\n", hrtimer_resolution);
	seq_printf(m, "ktime_cost_ps: %llu\n", pp_info.ktime_cost_ps);
	seq_printf(m, "cycles_cost_ps: %llu\n", pp_info.cycles_cost_ps);
	seq_printf(m, "cycles_khz: %llu (calibration %u)\n",
		   pp_info.cycles_khz, pp_info.cycles_calib);
	seq_printf(m, "caps: %#x\n", pp_info.caps);
	seq_printf(m, "syscall_max: %u\n", NR_syscalls);
	for (i = 0; i < pp_copyprobe_nr_syms(); i++)
		if (pp_copyprobe_sym(i))
			seq_printf(m, "copy_symbol: %s\n", pp_copyprobe_sym(i));
	if (pp_info.copy_reason)
		seq_printf(m, "copy_reason: %s\n", pp_info.copy_reason);
	if (pp_info.pgfault_reason)
		seq_printf(m, "pgfault_reason: %s\n", pp_info.pgfault_reason);
	seq_printf(m, "copy_inflight_bytes: %llu\n", pp_copy_inflight());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(info);

static int trace_show(struct seq_file *m, void *v)
{
	struct pp_trace_summary *s;
	int err;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	err = mutex_lock_interruptible(&pp_trace.lock);
	if (err)
		goto free_summary;
	if (!pp_trace.data) {
		mutex_unlock(&pp_trace.lock);
		seq_puts(m, "no trace has been started\n");
		goto free_summary;
	}
	pp_trace_summary_locked(s);
	mutex_unlock(&pp_trace.lock);

	seq_printf(m, "active: %u\ntgid: %u\nfeatures: %#x\n",
		   s->active, s->tgid, s->features);
	seq_printf(m, "duration_ns: %llu\ndropped: %llu\n",
		   s->duration_ns, s->dropped);
	seq_printf(m, "ucopy_calls: %llu\nucopy_bytes: %llu\n",
		   s->ucopy_calls, s->ucopy_bytes);
	seq_printf(m, "pgfault_retry: %llu\npgfault_error: %llu\n",
		   s->pf_retry, s->pf_error);
	seq_printf(m, "pgfault_missed: %llu\npage_fault_user: %llu\n",
		   s->pf_missed, s->pf_tp);
	pp_stat_seq_show(m, "pgfault_minor", &s->pf_minor, true);
	pp_stat_seq_show(m, "pgfault_major", &s->pf_major, true);
free_summary:
	kfree(s);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(trace);

static int syscalls_show(struct seq_file *m, void *v)
{
	struct pp_sys_stat *ss;
	char name[32];
	unsigned int nr;
	int err;

	ss = kmalloc(sizeof(*ss), GFP_KERNEL);
	if (!ss)
		return -ENOMEM;
	err = mutex_lock_interruptible(&pp_trace.lock);
	if (err)
		goto free_stat;
	if (!pp_trace.data) {
		seq_puts(m, "no trace has been started\n");
		goto unlock;
	}
	for (nr = 0; nr < NR_syscalls; nr++) {
		pp_trace_syscall_locked(nr, ss);
		if (!ss->st.count)
			continue;
		snprintf(name, sizeof(name), "syscall %u", nr);
		pp_stat_seq_show(m, name, &ss->st, true);
		seq_printf(m, "  ucopy_calls %llu ucopy_bytes %llu\n",
			   ss->ucopy_calls, ss->ucopy_bytes);
	}
unlock:
	mutex_unlock(&pp_trace.lock);
free_stat:
	kfree(ss);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(syscalls);

void pp_debugfs_init(void)
{
	pp_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("info", 0400, pp_debugfs_dir, NULL, &info_fops);
	debugfs_create_file("trace", 0400, pp_debugfs_dir, NULL, &trace_fops);
	debugfs_create_file("syscalls", 0400, pp_debugfs_dir, NULL,
			    &syscalls_fops);
}

void pp_debugfs_exit(void)
{
	debugfs_remove_recursive(pp_debugfs_dir);
}
