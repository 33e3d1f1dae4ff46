/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark registry.  A benchmark is one file in bench/ that
 * defines one struct pp_bench named pp_bench_<name>, plus one line in
 * benches.h.  Nothing else is edited to add a benchmark.
 */
#ifndef PP_BENCH_H
#define PP_BENCH_H

#include "harness.h"

struct pp_suite;

struct pp_bench {
	const char *name;		/* lmbench's program name: lat_syscall */
	const char *group;		/* proc, ctx, ipc, fsvm, bw, mem, ops */
	const char *summary;		/* one line for "perfprobe list" */
	/*
	 * every key it can emit, and how each is shown, PP_KEYS_END-ended:
	 * see keys.h
	 */
	const struct pp_key_decl *keys;
	/* summary tables of its own (id NULL ends them), or NULL */
	const struct pp_key_table *tables;
	/* 0 ok, or the value of pp_skip() / pp_fail(). */
	int (*run)(struct pp_ctx *ctx);
	bool by_name;			/* run only when named: not LMBench */
	/*
	 * an external suite it runs (benchlib/suite.h): run --<name>
	 * gives its program, import <name> reads its output; else NULL
	 */
	const struct pp_suite *suite;
	/*
	 * the infos (pp_info() names) that say under what the figures were
	 * measured, NULL-ended, or NULL: compare warns when the two sides'
	 * differ (Documentation/compare.rst, "Comparability")
	 */
	const char *const *facts;
};

#define PP_BENCH(name) extern const struct pp_bench pp_bench_##name;
#include "benches.h"
#ifdef PP_PLANTED		/* a test build's own (tests/plant/) */
#include "plant/benches.h"
#endif
#undef PP_BENCH

extern const struct pp_bench *const pp_benches[];
extern const unsigned int pp_nbenches;

struct pp_group {
	const char *name;
	const char *title;
};
extern const struct pp_group pp_groups[];
extern const unsigned int pp_ngroups;

const struct pp_bench *pp_bench_find(const char *name);
/* The declaration of key, in any benchmark's keys, or NULL. */
const struct pp_key_decl *pp_decl_of(const char *key);
bool pp_group_valid(const char *name);

#endif /* PP_BENCH_H */
