// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "bench.h"

#define PP_BENCH(name) &pp_bench_##name,
const struct pp_bench *const pp_benches[] = {
#include "benches.h"
#ifdef PP_PLANTED		/* a test build's own (tests/plant/) */
#include "plant/benches.h"
#endif
};
#undef PP_BENCH

const unsigned int pp_nbenches = ARRAY_SIZE(pp_benches);

/* Groups follow lmbench's summary tables. */
const struct pp_group pp_groups[] = {
	{ "proc", "Processor, Processes" },
	{ "ctx", "Context switching" },
	{ "ipc", "Local communication latencies" },
	{ "fsvm", "File & VM system latencies" },
	{ "bw", "Local communication bandwidths" },
	{ "mem", "Memory latencies" },
	{ "ops", "Basic operations" },
	{ "crypto", "Crypto throughput (OpenSSL EVP, kernel crypto API)" },
	{ "net", "Network throughput (netperf, RFC 2544)" },
	{ "ipsec", "IPsec ESP throughput through the kernel (xfrm)" },
	{ "stream", "STREAM memory bandwidth" },
	{ "storage", "Storage throughput" },
	{ "cpu", "The guide's CPU suites, as built (Dhrystone, Whetstone, Linpack, NBench, "
	  "CoreMark-Pro, glmark2)" },
};

const unsigned int pp_ngroups = ARRAY_SIZE(pp_groups);

const struct pp_bench *pp_bench_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < pp_nbenches; i++)
		if (!strcmp(pp_benches[i]->name, name))
			return pp_benches[i];
	return NULL;
}

const struct pp_key_decl *pp_decl_of(const char *key)
{
	const struct pp_key_decl *d;
	unsigned int i;

	for (i = 0; i < pp_nbenches; i++) {
		d = pp_key_decl_find(pp_benches[i]->keys, key);
		if (d)
			return d;
	}
	return NULL;
}

bool pp_group_valid(const char *name)
{
	unsigned int i;

	for (i = 0; i < pp_nbenches; i++)
		if (!strcmp(pp_benches[i]->group, name))
			return true;
	return false;
}
