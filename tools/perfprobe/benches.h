/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of benchmarks, in run order.  Add a line here and a file
 * bench/<name>.c defining pp_bench_<name>; see Documentation/adding.rst.
 * (No include guard: this is an X-macro list.)
 */
/* Processor, Processes */
PP_BENCH(lat_syscall)
PP_BENCH(lat_select)
PP_BENCH(lat_sig)
PP_BENCH(lat_proc)
/* Context switching */
PP_BENCH(lat_ctx)
/* Local communication latencies */
PP_BENCH(lat_pipe)
PP_BENCH(lat_unix)
PP_BENCH(lat_udp)
PP_BENCH(lat_tcp)
PP_BENCH(lat_connect)
PP_BENCH(lat_rpc)
/* File & VM system latencies */
PP_BENCH(lat_fs)
PP_BENCH(lat_mmap)
PP_BENCH(lat_pagefault)
/* Local communication bandwidths */
PP_BENCH(bw_pipe)
PP_BENCH(bw_unix)
PP_BENCH(bw_tcp)
PP_BENCH(bw_file_rd)
PP_BENCH(bw_mmap_rd)
PP_BENCH(bw_mem)
/* Memory latencies */
PP_BENCH(lat_mem_rd)
/* Basic operations */
PP_BENCH(lat_ops)
PP_BENCH(lat_proccall)
PP_BENCH(lat_sem)
/* Crypto (beyond LMBench; run when named: perfprobe run crypto) */
PP_BENCH(crypto_evp)
PP_BENCH(crypto_kcapi)
/* Network throughput (beyond LMBench: run when named) */
PP_BENCH(netperf)
PP_BENCH(rfc2544)
/* IPsec ESP through the kernel (beyond LMBench: run when named) */
PP_BENCH(ipsec)
/* STREAM (beyond LMBench: runs when named) */
PP_BENCH(stream)
/* Storage (beyond LMBench: runs when named) */
PP_BENCH(storage)
/* The guide's CPU suites, their own programs as built (runs when named) */
PP_BENCH(dhrystone)
PP_BENCH(whetstone)
PP_BENCH(linpack)
PP_BENCH(nbench)
PP_BENCH(coremark_pro)
PP_BENCH(glmark2)
