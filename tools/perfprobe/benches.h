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
PP_BENCH(lat_rpc)
PP_BENCH(lat_tcp)
PP_BENCH(lat_connect)
/* Local communication bandwidths */
PP_BENCH(bw_pipe)
PP_BENCH(bw_unix)
PP_BENCH(bw_tcp)
/* Memory latencies */
PP_BENCH(lat_mem_rd)
/* Basic operations */
PP_BENCH(lat_ops)
PP_BENCH(lat_proccall)
PP_BENCH(lat_sem)
/* STREAM (beyond LMBench: runs when named) */
PP_BENCH(stream)
/* Storage (beyond LMBench: runs when named) */
PP_BENCH(storage)
