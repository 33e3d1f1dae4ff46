// SPDX-License-Identifier: GPL-2.0
/*
 * The perfprobe.ko tools without the module: netlink replies built in
 * memory with libnl and parsed, extended ACK messages, vermagic from a
 * fabricated ELF object, option checks, and the kernel-view arithmetic.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "cli.h"
#include "kernel/kelf.h"
#include "kernel/kmodcmd.h"
#include "kernel/ktrace.h"
#include "kernel/ppnl.h"
#include "print.h"

#include "argv.h"

/* --- building replies --- */

static struct nl_msg *reply(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc();

	assert_non_null(m);
	assert_non_null(genlmsg_put(m, 0, 1, 0x20, 0, 0, cmd, PERFPROBE_GENL_VERSION));
	return m;
}

/* u64 as the kernel sends it: preceded by a PAD attribute */
static void put_u64_pad(struct nl_msg *m, int type, int pad, uint64_t v)
{
	assert_int_equal(nla_put(m, pad, 0, NULL), 0);
	assert_int_equal(nla_put_u64(m, type, v), 0);
}

static void put_stats(struct nl_msg *m, int type, uint64_t count, uint64_t sum,
		      const uint32_t *log2, const uint64_t *n, int nb)
{
	struct nlattr *st = nla_nest_start(m, type), *h, *b;
	int i;

	put_u64_pad(m, PERFPROBE_STATS_A_COUNT, PERFPROBE_STATS_A_PAD, count);
	put_u64_pad(m, PERFPROBE_STATS_A_SUM_NS, PERFPROBE_STATS_A_PAD, sum);
	put_u64_pad(m, PERFPROBE_STATS_A_MIN_NS, PERFPROBE_STATS_A_PAD, 10);
	put_u64_pad(m, PERFPROBE_STATS_A_MAX_NS, PERFPROBE_STATS_A_PAD, 5000);
	put_u64_pad(m, PERFPROBE_STATS_A_MEAN_NS, PERFPROBE_STATS_A_PAD,
		    count ? sum / count : 0);
	h = nla_nest_start(m, PERFPROBE_STATS_A_HIST);
	for (i = 0; i < nb; i++) {
		b = nla_nest_start(m, PERFPROBE_HIST_A_BUCKET);
		nla_put_u32(m, PERFPROBE_BUCKET_A_LOG2, log2[i]);
		put_u64_pad(m, PERFPROBE_BUCKET_A_COUNT, PERFPROBE_BUCKET_A_PAD, n[i]);
		nla_nest_end(m, b);
	}
	nla_nest_end(m, h);
	nla_nest_end(m, st);
}

static void test_info(void **state)
{
	struct nl_msg *m = reply(PERFPROBE_CMD_GET_INFO);
	struct ppnl_info in;

	(void)state;
	nla_put_u32(m, PERFPROBE_A_ABI_VERSION, PERFPROBE_GENL_VERSION);
	nla_put_string(m, PERFPROBE_A_MODULE_VERSION, "1.0");
	/* a 1.0 module still sends the now reserved clocksource */
	nla_put_string(m, PERFPROBE_A_CLOCKSOURCE, "tsc");
	put_u64_pad(m, PERFPROBE_A_CLOCK_RES_NS, PERFPROBE_A_PAD, 1);
	put_u64_pad(m, PERFPROBE_A_KTIME_COST_PS, PERFPROBE_A_PAD, 12500);
	put_u64_pad(m, PERFPROBE_A_CYCLES_KHZ, PERFPROBE_A_PAD, 2096000);
	nla_put_u32(m, PERFPROBE_A_CYCLES_CALIB, PERFPROBE_CYCLES_CALIB_TSC_KHZ);
	nla_put_u32(m, PERFPROBE_A_CAPS, PERFPROBE_CAP_SYSCALL_TRACE |
		    PERFPROBE_CAP_COPY_KPROBES);
	nla_put_string(m, PERFPROBE_A_COPY_SYMBOL, "copy_user_generic_string");
	nla_put_string(m, PERFPROBE_A_COPY_SYMBOL, "clear_user_rep_good");
	nla_put_string(m, PERFPROBE_A_PGFAULT_REASON, "handle_mm_fault: -ENOENT");
	nla_put_u8(m, PERFPROBE_A_TRACE_ACTIVE, 1);
	nla_put_u32(m, PERFPROBE_A_TRACE_TGID, 4242);
	assert_int_equal(ppnl_parse_info(nlmsg_hdr(m), &in), 0);
	assert_int_equal(in.abi_version, PERFPROBE_GENL_VERSION);
	assert_string_equal(in.module_version, "1.0");
	/* ignored: ppnl_get_info() reads the clocksource from sysfs */
	assert_string_equal(in.clocksource, "");
	assert_int_equal(in.ktime_cost_ps, 12500);
	assert_int_equal(in.cycles_khz, 2096000);
	assert_int_equal(in.ncopy_syms, 2);
	assert_string_equal(in.copy_syms[1], "clear_user_rep_good");
	assert_string_equal(in.copy_reason, "");
	assert_string_equal(in.pgfault_reason, "handle_mm_fault: -ENOENT");
	assert_true(in.trace_active);
	assert_int_equal(in.trace_tgid, 4242);
	nlmsg_free(m);

	/* no ABI version: not a GET_INFO reply */
	m = reply(PERFPROBE_CMD_GET_INFO);
	nla_put_string(m, PERFPROBE_A_MODULE_VERSION, "1.0");
	assert_int_equal(ppnl_parse_info(nlmsg_hdr(m), &in), -EBADMSG);
	nlmsg_free(m);

	/* a u32 attribute of the wrong size fails the policy */
	m = reply(PERFPROBE_CMD_GET_INFO);
	nla_put_u8(m, PERFPROBE_A_ABI_VERSION, 1);
	assert_int_equal(ppnl_parse_info(nlmsg_hdr(m), &in), -EBADMSG);
	nlmsg_free(m);
}

static void test_timer_stats(void **state)
{
	static const uint32_t log2[] = { 0, 11, 63 };
	static const uint64_t n[] = { 3, 990, 7 };
	struct nl_msg *m = reply(PERFPROBE_CMD_TIMER);
	struct ppnl_timer t;

	(void)state;
	put_u64_pad(m, PERFPROBE_A_TIMER_PERIOD_NS, PERFPROBE_A_PAD, 100000);
	nla_put_u32(m, PERFPROBE_A_TIMER_COUNT, 1000);
	put_stats(m, PERFPROBE_A_STATS, 1000, 2000000, log2, n, 3);
	assert_int_equal(ppnl_parse_timer(nlmsg_hdr(m), &t), 0);
	assert_int_equal(t.period_ns, 100000);
	assert_int_equal(t.count, 1000);
	assert_true(t.late.present);
	assert_int_equal(t.late.count, 1000);
	assert_int_equal(t.late.mean_ns, 2000);
	assert_int_equal(t.late.max_ns, 5000);
	assert_int_equal(t.late.hist[0], 3);
	assert_int_equal(t.late.hist[11], 990);
	assert_int_equal(t.late.hist[63], 7);
	assert_int_equal(t.late.hist[12], 0);
	nlmsg_free(m);
}

static void test_bad_bucket(void **state)
{
	static const uint32_t log2[] = { 64 };
	static const uint64_t n[] = { 1 };
	struct nl_msg *m = reply(PERFPROBE_CMD_TIMER);
	struct ppnl_timer t;

	(void)state;
	nla_put_u32(m, PERFPROBE_A_TIMER_COUNT, 1);
	put_stats(m, PERFPROBE_A_STATS, 1, 1, log2, n, 1);
	assert_int_equal(ppnl_parse_timer(nlmsg_hdr(m), &t), -EBADMSG);
	nlmsg_free(m);
}

static void test_copy(void **state)
{
	struct nl_msg *m = reply(PERFPROBE_CMD_COPY);
	struct ppnl_copy c;

	(void)state;
	memset(&c, 0, sizeof(c));
	nla_put_u32(m, PERFPROBE_A_COPY_DIR, PERFPROBE_COPY_FROM_USER);
	put_u64_pad(m, PERFPROBE_A_COPY_SIZE, PERFPROBE_A_PAD, 4096);
	nla_put_u32(m, PERFPROBE_A_COPY_ITERATIONS, 500);
	put_u64_pad(m, PERFPROBE_A_COPY_TOTAL_NS, PERFPROBE_A_PAD, 1000000);
	put_u64_pad(m, PERFPROBE_A_COPY_BYTES, PERFPROBE_A_PAD, 4096 * 500);
	put_u64_pad(m, PERFPROBE_A_COPY_CHECKSUM, PERFPROBE_A_PAD, 0x1234);
	assert_int_equal(ppnl_parse_copy(nlmsg_hdr(m), &c), 0);
	assert_int_equal(c.done, 500);
	assert_int_equal(c.total_ns, 1000000);
	assert_true(c.has_checksum);
	assert_int_equal(c.checksum, 0x1234);
	nlmsg_free(m);
}

static void put_sys(struct nl_msg *m, uint32_t nr, uint64_t count, uint64_t sum,
		    uint64_t bytes)
{
	static const uint32_t log2[] = { 7 };
	uint64_t n[] = { count };
	struct nlattr *s = nla_nest_start(m, PERFPROBE_A_SYSCALL);

	nla_put_u32(m, PERFPROBE_SYSCALL_A_NR, nr);
	put_stats(m, PERFPROBE_SYSCALL_A_STATS, count, sum, log2, n, 1);
	put_u64_pad(m, PERFPROBE_SYSCALL_A_UCOPY_CALLS, PERFPROBE_SYSCALL_A_PAD, count);
	put_u64_pad(m, PERFPROBE_SYSCALL_A_UCOPY_BYTES, PERFPROBE_SYSCALL_A_PAD, bytes);
	nla_nest_end(m, s);
}

/* The two messages of a TRACE_GET dump: summary, then syscalls. */
static void build_trace(struct ppnl_trace *t)
{
	struct nl_msg *m = reply(PERFPROBE_CMD_TRACE_GET);
	struct nlattr *pf;

	memset(t, 0, sizeof(*t));
	nla_put_u8(m, PERFPROBE_A_TRACE_ACTIVE, 0);
	nla_put_u32(m, PERFPROBE_A_TRACE_TGID, 77);
	nla_put_u32(m, PERFPROBE_A_TRACE_FEATURES, PERFPROBE_CAP_SYSCALL_TRACE |
		    PERFPROBE_CAP_PGFAULT_KRETPROBE);
	put_u64_pad(m, PERFPROBE_A_TRACE_DURATION_NS, PERFPROBE_A_PAD, 5000000);
	put_u64_pad(m, PERFPROBE_A_TRACE_DROPPED, PERFPROBE_A_PAD, 1);
	pf = nla_nest_start(m, PERFPROBE_A_PGFAULT);
	put_stats(m, PERFPROBE_PGFAULT_A_MINOR, 40, 40000, NULL, NULL, 0);
	put_stats(m, PERFPROBE_PGFAULT_A_MAJOR, 0, 0, NULL, NULL, 0);
	put_u64_pad(m, PERFPROBE_PGFAULT_A_MISSED, PERFPROBE_PGFAULT_A_PAD, 2);
	nla_nest_end(m, pf);
	assert_int_equal(ppnl_parse_trace(nlmsg_hdr(m), t), 0);
	nlmsg_free(m);

	m = reply(PERFPROBE_CMD_TRACE_GET);
	put_sys(m, (uint32_t)SYS_openat, 1000, 900000, 0);
	put_sys(m, (uint32_t)SYS_close, 1000, 100000, 0);
	put_sys(m, (uint32_t)SYS_write, 3, 3000, 30);
	assert_int_equal(ppnl_parse_trace(nlmsg_hdr(m), t), 0);
	nlmsg_free(m);
}

static void test_trace(void **state)
{
	const struct pp_ktrace_sys *o, *c;
	struct pp_ktrace kt;
	struct ppnl_trace t;

	(void)state;
	build_trace(&t);
	assert_true(t.have_summary);
	assert_false(t.active);
	assert_int_equal(t.tgid, 77);
	assert_int_equal(t.duration_ns, 5000000);
	assert_int_equal(t.pf_minor.count, 40);
	assert_int_equal(t.pf_missed, 2);
	assert_int_equal(t.nsys, 3);
	assert_int_equal(t.sys[0].nr, SYS_openat);
	assert_int_equal(t.sys[0].st.hist[7], 1000);
	assert_int_equal(t.sys[2].ucopy_bytes, 30);

	/* in the kernel view's model: 1000 openat + 1000 close, (900 + 100) us, 2003 syscalls */
	assert_int_equal(pp_ktrace_from_ppnl(&t, &kt), 0);
	assert_string_equal(kt.source, "kmod");
	assert_true(kt.have & PP_KT_BIT(PP_KT_SYSCALLS));
	assert_true(kt.have & PP_KT_BIT(PP_KT_FAULT_NS));
	assert_false(kt.have & PP_KT_BIT(PP_KT_SCHED));
	o = pp_ktrace_find(&kt, SYS_openat);
	c = pp_ktrace_find(&kt, SYS_close);
	assert_non_null(o);
	assert_non_null(c);
	assert_true(o->count == 1000 && o->timed == 1000 && c->count == 1000);
	assert_true(o->ns + c->ns == 1000000);
	assert_int_equal(kt.nsys, 3);
	assert_true(kt.sys[0].count + kt.sys[1].count + kt.sys[2].count == 2003);
	assert_int_equal(kt.fault_timed, 40);
	assert_null(pp_ktrace_find(&kt, SYS_getppid));
	pp_ktrace_free(&kt);
	ppnl_trace_free(&t);
	assert_null(t.sys);
}

/* --- extended ACKs --- */

static void build_err(struct nl_msg *m, int err, bool capped, const char *text)
{
	struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN + 24, .nlmsg_type = 0x20 };
	size_t payload = sizeof(struct nlmsgerr) + (capped ? 0 : 24);
	struct nlmsghdr *h;
	struct nlmsgerr *e;

	h = nlmsg_put(m, 0, 1, NLMSG_ERROR, (int)payload,
		      NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0));
	assert_non_null(h);
	e = nlmsg_data(h);
	memset(e, 0, payload);
	e->error = err;
	e->msg = req;
	if (text)
		nla_put_string(m, NLMSGERR_ATTR_MSG, text);
	nla_put_u32(m, NLMSGERR_ATTR_OFFS, 20);
}

static void test_extack(void **state)
{
	char buf[PPNL_MSG_MAX];
	struct nl_msg *m;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		m = nlmsg_alloc();
		build_err(m, -EINVAL, i, "offset + size exceeds the buffer length");
		ppnl_parse_extack(nlmsg_hdr(m), buf, sizeof(buf));
		assert_string_equal(buf, "offset + size exceeds the buffer length");
		nlmsg_free(m);
	}
	/* no TLVs at all */
	m = nlmsg_alloc();
	build_err(m, -EPERM, true, NULL);
	nlmsg_hdr(m)->nlmsg_flags &= (uint16_t)~NLM_F_ACK_TLVS;
	ppnl_parse_extack(nlmsg_hdr(m), buf, sizeof(buf));
	assert_string_equal(buf, "");
	nlmsg_free(m);

	/* a dump's NLMSG_DONE: an int errno, then the TLVs */
	m = nlmsg_alloc();
	{
		struct nlmsghdr *h = nlmsg_put(m, 0, 1, NLMSG_DONE, sizeof(int),
					       NLM_F_MULTI | NLM_F_ACK_TLVS);
		int e = -ENOENT;

		memcpy(nlmsg_data(h), &e, sizeof(e));
		nla_put_string(m, NLMSGERR_ATTR_MSG, "no trace has been started");
	}
	ppnl_parse_extack(nlmsg_hdr(m), buf, sizeof(buf));
	assert_string_equal(buf, "no trace has been started");
	nlmsg_free(m);
}

/* --- vermagic --- */

static const char modinfo[] =
	"license=GPL\0version=1.0\0name=perfprobe\0"
	"vermagic=6.1.0-28-amd64 SMP preempt mod_unload modversions \0";

static void test_modinfo(void **state)
{
	struct pp_modinfo mi;
	char rel[64];

	(void)state;
	assert_int_equal(pp_modinfo_parse(modinfo, sizeof(modinfo), &mi), 0);
	assert_string_equal(mi.vermagic, "6.1.0-28-amd64 SMP preempt mod_unload modversions");
	assert_string_equal(mi.name, "perfprobe");
	assert_string_equal(mi.version, "1.0");
	pp_vermagic_release(mi.vermagic, rel, sizeof(rel));
	assert_string_equal(rel, "6.1.0-28-amd64");
	assert_int_equal(pp_modinfo_parse("license=GPL\0name=x", 18, &mi), -ENOENT);
	/* not NUL-terminated at the end: still read, never past size */
	assert_int_equal(pp_modinfo_parse("vermagic=5.10.0 SMP", 19, &mi), 0);
	assert_string_equal(mi.vermagic, "5.10.0 SMP");
}

static Elf_Scn *add_scn(Elf *e, const char *data, size_t size, size_t name)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = elf_newdata(scn);
	GElf_Shdr sh;

	d->d_buf = (void *)data;
	d->d_size = size;
	d->d_align = 1;
	d->d_type = ELF_T_BYTE;
	gelf_getshdr(scn, &sh);
	sh.sh_name = name;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_addralign = 1;
	gelf_update_shdr(scn, &sh);
	return scn;
}

/* An ET_REL ELF64 object with .modinfo (when with_modinfo) at path. */
static void make_elf(const char *path, bool with_modinfo)
{
	static const char shstr[] = "\0.shstrtab\0.modinfo\0.text";
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	Elf_Scn *strscn;
	GElf_Shdr sh;
	Elf64_Ehdr *eh;
	Elf *e;

	assert_true(fd >= 0);
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	strscn = add_scn(e, shstr, sizeof(shstr), 1);
	gelf_getshdr(strscn, &sh);
	sh.sh_type = SHT_STRTAB;
	gelf_update_shdr(strscn, &sh);
	eh->e_shstrndx = (Elf64_Half)elf_ndxscn(strscn);
	if (with_modinfo)
		add_scn(e, modinfo, sizeof(modinfo), 11);
	else
		add_scn(e, "\xc3", 1, 20);
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
}

static void test_kelf(void **state)
{
	char path[] = "/tmp/pp-test-kelf.XXXXXX";
	struct pp_modinfo mi;
	char err[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	make_elf(path, true);
	assert_int_equal(pp_kelf_read(path, &mi, err, sizeof(err)), 0);
	assert_string_equal(mi.name, "perfprobe");
	assert_string_equal(mi.vermagic, "6.1.0-28-amd64 SMP preempt mod_unload modversions");

	make_elf(path, false);
	assert_int_equal(pp_kelf_read(path, &mi, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "no .modinfo"));

	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "hello\n", 6), 6);
	close(fd);
	assert_int_equal(pp_kelf_read(path, &mi, err, sizeof(err)), -ENOEXEC);
	assert_non_null(strstr(err, "not a kernel module"));
	unlink(path);
	assert_int_equal(pp_kelf_read(path, &mi, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cannot read"));
}

/* --- options --- */

static void test_cli(void **state)
{
	struct pp_cli cli;

	(void)state;
	assert_int_equal(parse(&cli, "perfprobe copy --dir in -s 4k,1m --json"), 0);
	assert_string_equal(cli.cmd, "copy");
	assert_int_equal(cli.nargs, 0);
	assert_true(cli.json);
	assert_int_equal(cli.ncopts, 2);
	assert_int_equal(cli.copts[0].val, 'd');
	assert_string_equal(cli.copts[0].arg, "in");
	assert_string_equal(cli.copts[1].arg, "4k,1m");

	assert_int_equal(parse(&cli, "perfprobe --quick trace -H -- ls -l /"), 0);
	assert_string_equal(cli.cmd, "trace");
	assert_int_equal(cli.ncopts, 1);
	assert_int_equal(cli.nargs, 3);
	assert_string_equal(cli.args[0], "ls");
	assert_string_equal(cli.args[1], "-l");
	assert_true(cli.opts.quick);

	assert_int_equal(parse(&cli, "perfprobe timer -p 50000 --count 10 -r 3"), 0);
	assert_int_equal(cli.ncopts, 2);
	assert_int_equal(cli.opts.samples, 3);

	/* command options belong to their command only */
	assert_int_equal(parse(&cli, "perfprobe --dir in copy"), PP_EXIT_USAGE);
	assert_int_equal(parse(&cli, "perfprobe syscall --dir in"), PP_EXIT_USAGE);
	assert_int_equal(parse(&cli, "perfprobe timer --period"), PP_EXIT_USAGE);
	assert_int_equal(parse(&cli, "perfprobe trace -X -- ls"), PP_EXIT_USAGE);
}

static void test_checks(void **state)
{
	uint64_t v[PP_COPY_MAX_SIZES];
	unsigned int dirs, n;
	char name[32];

	(void)state;
	assert_int_equal(pp_timer_check(100000, 1000), 0);
	assert_int_equal(pp_timer_check(999, 1), PP_EXIT_USAGE);
	assert_int_equal(pp_timer_check(1000000001, 1), PP_EXIT_USAGE);
	assert_int_equal(pp_timer_check(1000, 0), PP_EXIT_USAGE);
	assert_int_equal(pp_timer_check(1000, 100001), PP_EXIT_USAGE);
	assert_int_equal(pp_timer_check(1000000000, 2), PP_EXIT_USAGE);
	assert_int_equal(pp_timer_check(10000, 100000), 0);

	assert_int_equal(pp_copy_parse_dir("all", &dirs), 0);
	assert_int_equal(dirs, PP_COPY_DIR_IN | PP_COPY_DIR_OUT | PP_COPY_DIR_CLEAR);
	assert_int_equal(pp_copy_parse_dir("out", &dirs), 0);
	assert_int_equal(dirs, PP_COPY_DIR_OUT);
	assert_int_equal(pp_copy_parse_dir("IN", &dirs), -EINVAL);

	assert_int_equal(pp_copy_parse_list("3,4k,64m", 1, 64 << 20, v, 8, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[1], 4096);
	assert_int_equal(v[2], 64 << 20);
	assert_int_equal(pp_copy_parse_list("65m", 1, 64 << 20, v, 8, &n), -EINVAL);
	assert_int_equal(pp_copy_parse_list("0", 1, 64 << 20, v, 8, &n), -EINVAL);
	assert_int_equal(pp_copy_parse_list("", 1, 64 << 20, v, 8, &n), -EINVAL);
	assert_int_equal(pp_copy_parse_list(",", 1, 64 << 20, v, 8, &n), -EINVAL);
	assert_int_equal(pp_copy_parse_list("1,2,3", 1, 9, v, 2, &n), -EINVAL);
	assert_int_equal(pp_copy_parse_list("4k,x", 1, 1 << 20, v, 8, &n), -EINVAL);

	pp_copy_size_name(4096, name, sizeof(name));
	assert_string_equal(name, "4k");
	pp_copy_size_name(64 << 20, name, sizeof(name));
	assert_string_equal(name, "64m");
	pp_copy_size_name(65537, name, sizeof(name));
	assert_string_equal(name, "65537");
}

static void test_misc(void **state)
{
	(void)state;
	assert_int_equal(ppnl_syscall_nr("getppid"), SYS_getppid);
	assert_int_equal(ppnl_syscall_nr("newfstatat"), SYS_newfstatat);
	assert_string_equal(ppnl_syscall_name(SYS_openat), "openat");
	assert_int_equal(ppnl_syscall_nr("no_such_call"), -1);
	assert_null(ppnl_syscall_name(100000));
	/* FNV-1a 64 test vectors */
	assert_true(ppnl_fnv1a64("", 0) == PERFPROBE_FNV1A64_OFFSET);
	assert_true(ppnl_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(ppnl_fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
}

/* The one-line reasons, and the unloaded-module case. */
static void test_strerror(void **state)
{
	struct ppnl s = { .err = EINVAL };
	char buf[PPNL_MSG_MAX + 64];

	(void)state;
	snprintf(s.msg, sizeof(s.msg), "integer out of range");
	ppnl_strerror(&s, -EINVAL, buf, sizeof(buf));
	assert_string_equal(buf, "Invalid argument: kernel reports: integer out of range");
	s.err = 0;
	s.msg[0] = '\0';
	ppnl_strerror(&s, -ENOENT, buf, sizeof(buf));
	assert_string_equal(buf, "No such file or directory");
	s.gone = true;
	snprintf(s.msg, sizeof(s.msg), "perfprobe.ko was unloaded during the trace");
	ppnl_strerror(&s, -ENOENT, buf, sizeof(buf));
	assert_string_equal(buf, "perfprobe.ko was unloaded during the trace");
}

/* --- statistics through the print layer --- */

static void render_stats(const struct ppnl_stats *st, bool json,
			 const char *indent, char **buf)
{
	size_t len;
	FILE *f = open_memstream(buf, &len);

	assert_non_null(f);
	pp_print_start(f, json);
	pp_print_open_object("late");
	pp_stats_print(st, indent);
	pp_print_close_object();
	assert_int_equal(pp_print_end(), 0);
	assert_int_equal(fclose(f), 0);
}

static void test_stats_print(void **state)
{
	struct ppnl_stats st = { .count = 1000, .sum_ns = 2000000, .min_ns = 0,
				 .mean_ns = 2000, .max_ns = 1ULL << 62 };
	json_t *root, *late, *h;
	char *buf, *line;
	size_t i;
	int n;

	(void)state;
	st.hist[0] = 3;
	st.hist[11] = 990;
	st.hist[63] = 7;
	render_stats(&st, true, NULL, &buf);
	root = json_loads(buf, 0, NULL);
	assert_non_null(root);
	late = json_object_get(root, "late");
	assert_int_equal(json_integer_value(json_object_get(late, "count")), 1000);
	assert_int_equal(json_integer_value(json_object_get(late, "max_ns")), 1LL << 62);
	h = json_object_get(late, "histogram");
	assert_int_equal(json_array_size(h), 3);	/* the non-empty buckets */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 1), "log2")), 11);
	assert_true(json_real_value(json_object_get(json_array_get(h, 1), "from_ns")) == 1024);
	assert_true(json_real_value(json_object_get(json_array_get(h, 1), "to_ns")) == 2048);
	for (i = 0, n = 0; i < 3; i++)
		n += (int)json_integer_value(json_object_get(json_array_get(h, i), "count"));
	assert_int_equal(n, 1000);
	json_decref(root);
	free(buf);

	/* text: one bar per non-empty bucket, the fullest 40 wide */
	render_stats(&st, false, "  ", &buf);
	assert_non_null(strstr(buf, "  [1.024 us, 2.048 us)          990 |"
				"########################################\n"));
	for (line = buf, n = 0; (line = strchr(line, '\n')); line++)
		n++;
	assert_int_equal(n, 3);
	assert_non_null(strstr(buf, "  0 ns                            3 |#\n"));
	free(buf);

	/* text without an indent: no histogram at all */
	render_stats(&st, false, NULL, &buf);
	assert_string_equal(buf, "");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_timer_stats),
		cmocka_unit_test(test_bad_bucket),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_extack),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_modinfo),
		cmocka_unit_test(test_kelf),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_stats_print),
	};

	return cmocka_run_group_tests_name("kmod", tests, NULL, NULL);
}
