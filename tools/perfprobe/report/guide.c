// SPDX-License-Identifier: GPL-2.0
/*
 * Vendor-guide style tables: one row per metric (or buffer size), one
 * column per run (or board and kernel) and measure, values with two
 * decimals, the caption under the table.  See guide.h.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "svg.h"
#include "util.h"

#define CELL_MAX	200

/* STREAM: stream.c's "Best Rate MB/s" (MB = 10^6 bytes). */
static const struct pp_guide_row stream_rows[] = {
	{ "add (MB/s)", "add", NULL },
	{ "copy (MB/s)", "copy", NULL },
	{ "scale (MB/s)", "scale", NULL },
	{ "triad (MB/s)", "triad", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col stream_cols[] = {
	{ "perf", "stream-%s-best", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col stream_mt_cols[] = {
	{ "perf", "stream-%s-mt-best", NULL },
	{ NULL, NULL, NULL }
};

/* Storage: the MMC/SD table's columns, named with the filesystem as the guide's. */
static const struct pp_guide_row storage_rows[] = {
	{ "4k", "4k", NULL },
	{ "256k", "256k", NULL },
	{ "1m", "1m", NULL },
	{ "4m", "4m", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col storage_cols[] = {
	{ "Write %sThroughput (Mbytes/sec)", "storage-write-%s", "storage-fs" },
	{ "Write %sCPU Load (%%)", "storage-write-%s-cpu", "storage-fs" },
	{ "Read %sThroughput (Mbytes/sec)", "storage-read-%s", "storage-fs" },
	{ "Read %sCPU Load (%%)", "storage-read-%s-cpu", "storage-fs" },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row storage_dev_rows[] = {
	{ "cached reads, as hdparm -T (MB/s)", "cached", NULL },
	{ "device reads, as hdparm -t --direct (MB/s)", "direct", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col storage_dev_cols[] = {
	{ "perf", "storage-dev-%s", NULL },
	{ NULL, NULL, NULL }
};

/*
 * Ethernet: netperf's TCP_STREAM and TCP_MAERTS at once (the guide's
 * "TCP Bidirectional Throughput"), RFC 2544 by frame size with the UDP
 * datagram of each (frame - 46), netperf's unpaced UDP_STREAM; the CPU
 * at both ends (netperf's LOCAL_CPU_UTIL and REMOTE_CPU_UTIL).
 */
static const struct pp_guide_row tcp_bidir_rows[] = {
	{ "TCP_STREAM; TCP_MAERTS (64 KiB, at once)", "64k", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col tcp_bidir_cols[] = {
	{ "THROUGHPUT (Mbits/sec)", "net-tcp_bidir-%s", NULL },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "net-tcp_bidir-%s-cpu_local", NULL },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "net-tcp_bidir-%s-cpu_remote", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row frame_rows[] = {
	{ "64", "64", "18" },
	{ "128", "128", "82" },
	{ "256", "256", "210" },
	{ "1024", "1024", "978" },
	{ "1518", "1518", "1472" },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col udp_ndr_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL, NULL },
	{ "THROUGHPUT (Mbits/sec)", "rfc2544-ndr-%s", NULL },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "rfc2544-ndr-%s-cpu_local", NULL },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "rfc2544-ndr-%s-cpu_remote", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col udp_pdr_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL, NULL },
	{ "THROUGHPUT (Mbits/sec)", "rfc2544-pdr-%s", NULL },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "rfc2544-pdr-%s-cpu_local", NULL },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "rfc2544-pdr-%s-cpu_remote", NULL },
	{ "Packet Loss %", "rfc2544-pdr-%s-loss_pct", NULL },
	{ NULL, NULL, NULL }
};

/* netperf's UDP_STREAM sizes: 18 bytes (with --full) and 1472 */
static const struct pp_guide_row udp_stream_rows[] = {
	{ "64", "18", "18" },
	{ "1518", "1472", "1472" },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col udp_stream_cols[] = {
	{ "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)", NULL, NULL },
	{ "THROUGHPUT (Mbits/sec)", "net-udp_stream-%s", NULL },
	{ "CPU Load % (LOCAL_CPU_UTIL)", "net-udp_stream-%s-cpu_local", NULL },
	{ "CPU Load % (REMOTE_CPU_UTIL)", "net-udp_stream-%s-cpu_remote", NULL },
	{ "Packet Loss %", "net-udp_stream-%s-loss_pct", NULL },
	{ NULL, NULL, NULL }
};

/* IPsec: the guide's rows first (3des, aes128, aes192, aes256), then ours. */
static const struct pp_guide_row ipsec_rows[] = {
	{ "3des", "3des", NULL },
	{ "aes128", "aes128", NULL },
	{ "aes192", "aes192", NULL },
	{ "aes256", "aes256", NULL },
	{ "aes128_sha256", "aes128_sha256", NULL },
	{ "aes192_sha256", "aes192_sha256", NULL },
	{ "aes256_sha256", "aes256_sha256", NULL },
	{ "aes128_gcm", "aes128_gcm", NULL },
	{ "aes256_gcm", "aes256_gcm", NULL },
	{ NULL, NULL, NULL }
};

#define IPSEC_COLS(m, p)							\
	{ "Throughput (Mbps)", "ipsec-%s-" m "-" p, NULL },			\
	{ "Packets/Sec", "ipsec-%s-" m "-" p "-pps", NULL },			\
	{ "CPU Load", "ipsec-%s-" m "-" p "-cpu", NULL },			\
	{ NULL, NULL, NULL }

static const struct pp_guide_col ipsec_tun_tcp[] = { IPSEC_COLS("tunnel", "tcp") };
static const struct pp_guide_col ipsec_tun_udp[] = { IPSEC_COLS("tunnel", "udp") };
static const struct pp_guide_col ipsec_tra_tcp[] = { IPSEC_COLS("transport", "tcp") };
static const struct pp_guide_col ipsec_tra_udp[] = { IPSEC_COLS("transport", "udp") };

/*
 * LMBench: the guide's rows, under its names and units, each the
 * perfprobe key with that figure (most are named alike; the guide's own
 * aliases, "pipe_latency (microsec)", are lmbench's figures by another
 * name).
 */
static const struct pp_guide_row lmbench_rows[] = {
	{ "af_unix_sock_stream_latency (microsec)", "lat_unix", NULL },
	{ "af_unix_socket_stream_bandwidth (MBs)", "bw_unix", NULL },
	{ "bw_file_rd-io-1mb (MB/s)", "bw_file_rd-io-1mb", NULL },
	{ "bw_file_rd-o2c-1mb (MB/s)", "bw_file_rd-o2c-1mb", NULL },
	{ "bw_mem-bcopy-16mb (MB/s)", "bw_mem-bcopy-16mb", NULL },
	{ "bw_mem-bcopy-1mb (MB/s)", "bw_mem-bcopy-1mb", NULL },
	{ "bw_mem-bcopy-2mb (MB/s)", "bw_mem-bcopy-2mb", NULL },
	{ "bw_mem-bcopy-4mb (MB/s)", "bw_mem-bcopy-4mb", NULL },
	{ "bw_mem-bcopy-8mb (MB/s)", "bw_mem-bcopy-8mb", NULL },
	{ "bw_mem-bzero-16mb (MB/s)", "bw_mem-bzero-16mb", NULL },
	{ "bw_mem-bzero-1mb (MB/s)", "bw_mem-bzero-1mb", NULL },
	{ "bw_mem-bzero-2mb (MB/s)", "bw_mem-bzero-2mb", NULL },
	{ "bw_mem-bzero-4mb (MB/s)", "bw_mem-bzero-4mb", NULL },
	{ "bw_mem-bzero-8mb (MB/s)", "bw_mem-bzero-8mb", NULL },
	{ "bw_mem-cp-16mb (MB/s)", "bw_mem-cp-16mb", NULL },
	{ "bw_mem-cp-1mb (MB/s)", "bw_mem-cp-1mb", NULL },
	{ "bw_mem-cp-2mb (MB/s)", "bw_mem-cp-2mb", NULL },
	{ "bw_mem-cp-4mb (MB/s)", "bw_mem-cp-4mb", NULL },
	{ "bw_mem-cp-8mb (MB/s)", "bw_mem-cp-8mb", NULL },
	{ "bw_mem-fcp-16mb (MB/s)", "bw_mem-fcp-16mb", NULL },
	{ "bw_mem-fcp-1mb (MB/s)", "bw_mem-fcp-1mb", NULL },
	{ "bw_mem-fcp-2mb (MB/s)", "bw_mem-fcp-2mb", NULL },
	{ "bw_mem-fcp-4mb (MB/s)", "bw_mem-fcp-4mb", NULL },
	{ "bw_mem-fcp-8mb (MB/s)", "bw_mem-fcp-8mb", NULL },
	{ "bw_mem-frd-16mb (MB/s)", "bw_mem-frd-16mb", NULL },
	{ "bw_mem-frd-1mb (MB/s)", "bw_mem-frd-1mb", NULL },
	{ "bw_mem-frd-2mb (MB/s)", "bw_mem-frd-2mb", NULL },
	{ "bw_mem-frd-4mb (MB/s)", "bw_mem-frd-4mb", NULL },
	{ "bw_mem-frd-8mb (MB/s)", "bw_mem-frd-8mb", NULL },
	{ "bw_mem-fwr-16mb (MB/s)", "bw_mem-fwr-16mb", NULL },
	{ "bw_mem-fwr-1mb (MB/s)", "bw_mem-fwr-1mb", NULL },
	{ "bw_mem-fwr-2mb (MB/s)", "bw_mem-fwr-2mb", NULL },
	{ "bw_mem-fwr-4mb (MB/s)", "bw_mem-fwr-4mb", NULL },
	{ "bw_mem-fwr-8mb (MB/s)", "bw_mem-fwr-8mb", NULL },
	{ "bw_mem-rd-16mb (MB/s)", "bw_mem-rd-16mb", NULL },
	{ "bw_mem-rd-1mb (MB/s)", "bw_mem-rd-1mb", NULL },
	{ "bw_mem-rd-2mb (MB/s)", "bw_mem-rd-2mb", NULL },
	{ "bw_mem-rd-4mb (MB/s)", "bw_mem-rd-4mb", NULL },
	{ "bw_mem-rd-8mb (MB/s)", "bw_mem-rd-8mb", NULL },
	{ "bw_mem-rdwr-16mb (MB/s)", "bw_mem-rdwr-16mb", NULL },
	{ "bw_mem-rdwr-1mb (MB/s)", "bw_mem-rdwr-1mb", NULL },
	{ "bw_mem-rdwr-2mb (MB/s)", "bw_mem-rdwr-2mb", NULL },
	{ "bw_mem-rdwr-4mb (MB/s)", "bw_mem-rdwr-4mb", NULL },
	{ "bw_mem-rdwr-8mb (MB/s)", "bw_mem-rdwr-8mb", NULL },
	{ "bw_mem-wr-16mb (MB/s)", "bw_mem-wr-16mb", NULL },
	{ "bw_mem-wr-1mb (MB/s)", "bw_mem-wr-1mb", NULL },
	{ "bw_mem-wr-2mb (MB/s)", "bw_mem-wr-2mb", NULL },
	{ "bw_mem-wr-4mb (MB/s)", "bw_mem-wr-4mb", NULL },
	{ "bw_mem-wr-8mb (MB/s)", "bw_mem-wr-8mb", NULL },
	{ "bw_mmap_rd-mo-1mb (MB/s)", "bw_mmap_rd-mo-1mb", NULL },
	{ "bw_mmap_rd-o2c-1mb (MB/s)", "bw_mmap_rd-o2c-1mb", NULL },
	{ "bw_pipe (MB/s)", "bw_pipe", NULL },
	{ "bw_unix (MB/s)", "bw_unix", NULL },
	{ "lat_connect (us)", "lat_connect", NULL },
	{ "lat_ctx-2-128k (us)", "lat_ctx-2-128k", NULL },
	{ "lat_ctx-2-256k (us)", "lat_ctx-2-256k", NULL },
	{ "lat_ctx-4-128k (us)", "lat_ctx-4-128k", NULL },
	{ "lat_ctx-4-256k (us)", "lat_ctx-4-256k", NULL },
	{ "lat_fs-0k (num_files)", "lat_fs-0k", NULL },
	{ "lat_fs-10k (num_files)", "lat_fs-10k", NULL },
	{ "lat_fs-1k (num_files)", "lat_fs-1k", NULL },
	{ "lat_fs-4k (num_files)", "lat_fs-4k", NULL },
	{ "lat_mem_rd-stride128-sz1000k (ns)", "lat_mem_rd-stride128-sz1000k", NULL },
	{ "lat_mem_rd-stride128-sz125k (ns)", "lat_mem_rd-stride128-sz125k", NULL },
	{ "lat_mem_rd-stride128-sz250k (ns)", "lat_mem_rd-stride128-sz250k", NULL },
	{ "lat_mem_rd-stride128-sz31k (ns)", "lat_mem_rd-stride128-sz31k", NULL },
	{ "lat_mem_rd-stride128-sz50 (ns)", "lat_mem_rd-stride128-sz50", NULL },
	{ "lat_mem_rd-stride128-sz500k (ns)", "lat_mem_rd-stride128-sz500k", NULL },
	{ "lat_mem_rd-stride128-sz62k (ns)", "lat_mem_rd-stride128-sz62k", NULL },
	{ "lat_mmap-1m (us)", "lat_mmap-1m", NULL },
	{ "lat_ops-double-add (ns)", "lat_ops-double-add", NULL },
	{ "lat_ops-double-mul (ns)", "lat_ops-double-mul", NULL },
	{ "lat_ops-float-add (ns)", "lat_ops-float-add", NULL },
	{ "lat_ops-float-mul (ns)", "lat_ops-float-mul", NULL },
	{ "lat_ops-int-add (ns)", "lat_ops-int-add", NULL },
	{ "lat_ops-int-bit (ns)", "lat_ops-int-bit", NULL },
	{ "lat_ops-int-div (ns)", "lat_ops-int-div", NULL },
	{ "lat_ops-int-mod (ns)", "lat_ops-int-mod", NULL },
	{ "lat_ops-int-mul (ns)", "lat_ops-int-mul", NULL },
	{ "lat_ops-int64-add (ns)", "lat_ops-int64-add", NULL },
	{ "lat_ops-int64-bit (ns)", "lat_ops-int64-bit", NULL },
	{ "lat_ops-int64-div (ns)", "lat_ops-int64-div", NULL },
	{ "lat_ops-int64-mod (ns)", "lat_ops-int64-mod", NULL },
	{ "lat_pagefault (us)", "lat_pagefault", NULL },
	{ "lat_pipe (us)", "lat_pipe", NULL },
	{ "lat_proc-exec (us)", "lat_proc-exec", NULL },
	{ "lat_proc-fork (us)", "lat_proc-fork", NULL },
	{ "lat_proc-proccall (us)", "lat_proc-proccall", NULL },
	{ "lat_select (us)", "lat_select-tcp", NULL },
	{ "lat_sem (us)", "lat_sem", NULL },
	{ "lat_sig-catch (us)", "lat_sig-catch", NULL },
	{ "lat_sig-install (us)", "lat_sig-install", NULL },
	{ "lat_sig-prot (us)", "lat_sig-prot", NULL },
	{ "lat_syscall-fstat (us)", "lat_syscall-fstat", NULL },
	{ "lat_syscall-null (us)", "lat_syscall-null", NULL },
	{ "lat_syscall-open (us)", "lat_syscall-open", NULL },
	{ "lat_syscall-read (us)", "lat_syscall-read", NULL },
	{ "lat_syscall-stat (us)", "lat_syscall-stat", NULL },
	{ "lat_syscall-write (us)", "lat_syscall-write", NULL },
	{ "lat_tcp (us)", "lat_tcp", NULL },
	{ "lat_unix (us)", "lat_unix", NULL },
	{ "latency_for_0.50_mb_block_size (nanosec)", "lat_mem_rd-stride128-sz500k", NULL },
	{ "latency_for_1.00_mb_block_size (nanosec)", "lat_mem_rd-stride128-sz1000k", NULL },
	{ "pipe_bandwidth (MBs)", "bw_pipe", NULL },
	{ "pipe_latency (microsec)", "lat_pipe", NULL },
	{ "procedure_call (microsec)", "lat_proc-proccall", NULL },
	{ "select_on_200_tcp_fds (microsec)", "lat_select-tcp", NULL },
	{ "semaphore_latency (microsec)", "lat_sem", NULL },
	{ "signal_handler_latency (microsec)", "lat_sig-install", NULL },
	{ "signal_handler_overhead (microsec)", "lat_sig-catch", NULL },
	{ "tcp_ip_connection_cost_to_localhost (microsec)", "lat_connect", NULL },
	{ "tcp_latency_using_localhost (microsec)", "lat_tcp", NULL },

	{ NULL, NULL, NULL }
};

static const struct pp_guide_col lmbench_cols[] = {
	{ "perf", "%s", NULL },
	{ NULL, NULL, NULL }
};

/* OpenSSL: openssl speed -evp's algorithms at each size, then the CPU load. */
#define CRYPTO_ALG(a)								\
	{ a, a "-16", "16" }, { a, a "-64", "64" }, { a, a "-256", "256" },	\
	{ a, a "-1024", "1024" }, { a, a "-8192", "8192" }, { a, a "-16384", "16384" }
#define CRYPTO_ALGS(X)								\
	X("aes-128-cbc"), X("aes-192-cbc"), X("aes-256-cbc"), X("des-cbc"), X("des3"),	\
	X("md5"), X("sha1"), X("sha224"), X("sha256"), X("sha384"), X("sha512")
#define CRYPTO_ONE(a)	{ a, a, NULL }

static const struct pp_guide_row crypto_rows[] = {
	CRYPTO_ALGS(CRYPTO_ALG),
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col crypto_cols[] = {
	{ "Buffer Size (in bytes)", NULL, NULL },
	{ "throughput (KBytes/Sec)", "crypto-evp-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row crypto_cpu_rows[] = {
	CRYPTO_ALGS(CRYPTO_ONE),
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col crypto_cpu_cols[] = {
	{ "CPU Load", "crypto-evp-%s-cpu_load", NULL },
	{ NULL, NULL, NULL }
};

/* The kernel's crypto API (AF_ALG): the driver's throughput. */
static const struct pp_guide_col kcapi_cols[] = {
	{ "Buffer Size (in bytes)", NULL, NULL },
	{ "throughput (KBytes/Sec)", "crypto-kcapi-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col kcapi_cpu_cols[] = {
	{ "CPU Load", "crypto-kcapi-%s-cpu_load", NULL },
	{ NULL, NULL, NULL }
};

/*
 * The CPU suites (bench/dhrystone.c ...): the guide's rows under its
 * names and units, then those perfprobe adds (DMIPS, the indexes, the
 * MultiCore figures).
 */
static const struct pp_guide_row dhry_rows[] = {
	{ "cpu_clock (MHz)", "mhz", NULL },
	{ "dhrystone_per_mhz (DMIPS/MHz)", "dmips_mhz", NULL },
	{ "dhrystone_per_second (DhrystoneP)", "per_second", NULL },
	{ "dhrystone_dmips (DMIPS)", "dmips", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col dhry_cols[] = {
	{ "perf", "dhrystone-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row whets_rows[] = {
	{ "whetstone (MIPS)", "mwips", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col whets_cols[] = {
	{ "perf", "whetstone-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row linpack_rows[] = {
	{ "linpack (Kflops)", "kflops", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col linpack_cols[] = {
	{ "perf", "linpack-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row nbench_rows[] = {
	{ "assignment (Iterations)", "assignment", NULL },
	{ "fourier (Iterations)", "fourier", NULL },
	{ "fp_emulation (Iterations)", "fp_emulation", NULL },
	{ "huffman (Iterations)", "huffman", NULL },
	{ "idea (Iterations)", "idea", NULL },
	{ "lu_decomposition (Iterations)", "lu_decomposition", NULL },
	{ "neural_net (Iterations)", "neural_net", NULL },
	{ "numeric_sort (Iterations)", "numeric_sort", NULL },
	{ "string_sort (Iterations)", "string_sort", NULL },
	{ "bitfield (Iterations)", "bitfield", NULL },
	{ "memory_index (AMD K6/233 = 1)", "index-memory", NULL },
	{ "integer_index (AMD K6/233 = 1)", "index-integer", NULL },
	{ "floating_point_index (AMD K6/233 = 1)", "index-fp", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col nbench_cols[] = {
	{ "perf", "nbench-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row cmp_rows[] = {
	{ "cjpeg-rose7-preset (workloads/)", "cjpeg-rose7-preset", NULL },
	{ "core (workloads/)", "core", NULL },
	{ "coremark-pro ()", "score", NULL },
	{ "linear_alg-mid-100x100-sp (workloads/)", "linear_alg-mid-100x100-sp", NULL },
	{ "loops-all-mid-10k-sp (workloads/)", "loops-all-mid-10k-sp", NULL },
	{ "nnet_test (workloads/)", "nnet_test", NULL },
	{ "parser-125k (workloads/)", "parser-125k", NULL },
	{ "radix2-big-64k (workloads/)", "radix2-big-64k", NULL },
	{ "sha-test (workloads/)", "sha-test", NULL },
	{ "zip-test (workloads/)", "zip-test", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col cmp_cols[] = {
	{ "perf", "coremark_pro-%s", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col cmp_mt_cols[] = {
	{ "perf", "coremark_pro-%s-mt", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_row glmark2_rows[] = {
	{ "Glmark2", "score", NULL },
	{ NULL, NULL, NULL }
};

static const struct pp_guide_col glmark2_cols[] = {
	{ "Score", "glmark2-%s", NULL },
	{ NULL, NULL, NULL }
};

#define TABLE(name, cap, head, r, c, cmd)					\
	const struct pp_guide_table name = { .caption = cap, .row_head = head,	\
					     .rows = r, .cols = c, .command = cmd }

TABLE(pp_guide_lmbench, "LM Bench Metrics", "Benchmarks", lmbench_rows, lmbench_cols,
      "perfprobe run");
TABLE(pp_guide_dhrystone, "Dhrystone Benchmark", "Benchmarks", dhry_rows, dhry_cols,
      "perfprobe run dhrystone --dhrystone PATH");
TABLE(pp_guide_whetstone, "Whetstone Benchmark", "Benchmarks", whets_rows, whets_cols,
      "perfprobe run whetstone --whetstone PATH");
TABLE(pp_guide_linpack, "Linpack Benchmark", "Benchmarks", linpack_rows, linpack_cols,
      "perfprobe run linpack --linpack PATH");
TABLE(pp_guide_nbench, "NBench Benchmarks", "Benchmarks", nbench_rows, nbench_cols,
      "perfprobe run nbench --nbench PATH");
TABLE(pp_guide_coremark_pro, "CoreMarkPro", "Benchmarks", cmp_rows, cmp_cols,
      "perfprobe run coremark_pro --coremark-pro DIR");
TABLE(pp_guide_coremark_pro_mt, "CoreMarkPro for All Cores (a context per CPU)", "Benchmarks",
      cmp_rows, cmp_mt_cols, "perfprobe run coremark_pro --coremark-pro DIR");
TABLE(pp_guide_glmark2, "Glmark2", "Benchmark", glmark2_rows, glmark2_cols,
      "perfprobe run glmark2");
TABLE(pp_guide_stream, "Stream", "Benchmarks", stream_rows, stream_cols,
      "perfprobe run stream");
TABLE(pp_guide_stream_mt, "Stream for All CPUs (one thread per CPU)", "Benchmarks",
      stream_rows, stream_mt_cols, "perfprobe run stream");
TABLE(pp_guide_storage, "Storage: sequential file write (with fsync) and read",
      "Buffer size (bytes)", storage_rows, storage_cols, "perfprobe run storage");
TABLE(pp_guide_storage_dev, "Storage: block device reads", "Benchmarks", storage_dev_rows,
      storage_dev_cols, "PERFPROBE_STORAGE_DEV=/dev/DEVICE perfprobe run storage");
TABLE(pp_guide_tcp_bidir, "TCP Bidirectional Throughput", "Command Used", tcp_bidir_rows,
      tcp_bidir_cols, "perfprobe run netperf");
TABLE(pp_guide_udp_ndr, "UDP Egress Throughput (0% loss, RFC 2544 NDR)", "Frame Size(bytes)",
      frame_rows, udp_ndr_cols, "perfprobe run rfc2544");
TABLE(pp_guide_udp_pdr, "UDP Egress Throughput (RFC 2544 PDR, <= 0.5% loss)",
      "Frame Size(bytes)", frame_rows, udp_pdr_cols, "perfprobe run rfc2544");
TABLE(pp_guide_udp_stream, "UDP Egress Throughput (possible loss, unpaced)",
      "Frame Size(bytes)", udp_stream_rows, udp_stream_cols, "perfprobe --full run netperf");
TABLE(pp_guide_openssl, "OpenSSL Performance", "Algorithm", crypto_rows, crypto_cols,
      "perfprobe run crypto_evp");
TABLE(pp_guide_openssl_cpu, "OpenSSL Performance: CPU Load", "Algorithm", crypto_cpu_rows,
      crypto_cpu_cols, "perfprobe run crypto_evp");
TABLE(pp_guide_kcapi, "Kernel crypto API (AF_ALG)", "Algorithm", crypto_rows, kcapi_cols,
      "perfprobe run crypto_kcapi");
TABLE(pp_guide_kcapi_cpu, "Kernel crypto API (AF_ALG): CPU Load", "Algorithm",
      crypto_cpu_rows, kcapi_cpu_cols, "perfprobe run crypto_kcapi");

const struct pp_guide_table pp_guide_ipsec[4] = {
	{ "IPSec Software Performance (ESP tunnel mode, TCP)", "Algorithm", ipsec_rows,
	  ipsec_tun_tcp, "perfprobe run ipsec" },
	{ "IPSec Software Performance (ESP tunnel mode, UDP)", "Algorithm", ipsec_rows,
	  ipsec_tun_udp, "perfprobe run ipsec" },
	{ "IPSec Software Performance (ESP transport mode, TCP)", "Algorithm", ipsec_rows,
	  ipsec_tra_tcp, "perfprobe run ipsec" },
	{ "IPSec Software Performance (ESP transport mode, UDP)", "Algorithm", ipsec_rows,
	  ipsec_tra_udp, "perfprobe run ipsec" },
};

/* The ones summary prints (not LMBench's: lmbench's own tables are there). */
const struct pp_guide_table *const pp_guide_tables[] = {
	&pp_guide_dhrystone, &pp_guide_whetstone, &pp_guide_linpack, &pp_guide_nbench,
	&pp_guide_coremark_pro, &pp_guide_coremark_pro_mt, &pp_guide_glmark2,
	&pp_guide_stream, &pp_guide_stream_mt, &pp_guide_storage, &pp_guide_storage_dev,
	&pp_guide_tcp_bidir, &pp_guide_udp_ndr, &pp_guide_udp_pdr, &pp_guide_udp_stream,
	&pp_guide_ipsec[0], &pp_guide_ipsec[1], &pp_guide_ipsec[2], &pp_guide_ipsec[3],
};

const unsigned int pp_guide_ntables = ARRAY_SIZE(pp_guide_tables);

/* The last run of the column with key: NULL when none has it. */
static const struct pp_result *col_find(const struct pp_guide_colset *cs, const char *key)
{
	const struct pp_result *res;
	size_t i;

	for (i = cs->n; i-- > 0;) {
		res = pp_run_find(cs->runs[i], key);
		if (res)
			return res;
	}
	return NULL;
}

static double cell_value(const struct pp_guide_colset *cs, const struct pp_guide_col *c,
			 const struct pp_guide_row *r)
{
	const struct pp_result *res;
	char key[PP_KEY_MAX];

	if (!c->key)
		return NAN;
	snprintf(key, sizeof(key), c->key, r->part);
	res = col_find(cs, key);
	return res ? res->value : NAN;
}

bool pp_guide_row_has_data(const struct pp_guide_row *r, const struct pp_guide_table *t,
			   const struct pp_guide_colset *cs, size_t ncols)
{
	const struct pp_guide_col *c;
	size_t i;

	for (i = 0; i < ncols; i++)
		for (c = t->cols; c->head; c++)
			if (isfinite(cell_value(&cs[i], c, r)))
				return true;
	return false;
}

bool pp_guide_table_has_data(const struct pp_guide_table *t, const struct pp_guide_colset *cs,
			     size_t ncols)
{
	const struct pp_guide_row *r;

	for (r = t->rows; r->label; r++)
		if (pp_guide_row_has_data(r, t, cs, ncols))
			return true;
	return false;
}

/* A measure's name, with the column's info where it names one ("EXT4 "). */
static void measure_name(char *buf, size_t size, const struct pp_guide_colset *cs,
			 const struct pp_guide_col *c)
{
	char info[64] = "";
	const char *text = NULL;
	size_t i, j;

	if (!c->info) {
		snprintf(buf, size, "%s", c->head);
		return;
	}
	for (i = cs ? cs->n : 0; !text && i-- > 0;)
		text = pp_run_find_info(cs->runs[i], c->info);
	for (j = 0; text && text[j] && j + 2 < sizeof(info); j++)
		info[j] = (char)toupper((unsigned char)text[j]);
	if (j)
		info[j++] = ' ';
	info[j] = '\0';
	snprintf(buf, size, c->head, info);
}

static void col_head(char *buf, size_t size, const struct pp_guide_colset *cs,
		     const struct pp_guide_col *c)
{
	char m[CELL_MAX / 2];

	measure_name(m, sizeof(m), cs, c);
	if (c->key)
		snprintf(buf, size, "%s: %s", cs->name, m);
	else
		snprintf(buf, size, "%s", m);
}

/* A cell's text: two decimals, or "-". */
static void cell_text(char *buf, size_t size, const struct pp_guide_colset *cs,
		      const struct pp_guide_col *c, const struct pp_guide_row *r)
{
	double v = cell_value(cs, c, r);

	if (isfinite(v))
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "-");
}

/*
 * The cells of a line: the label, the row's own columns (once), then
 * each column's measures.  head: the header line.
 */
struct line {
	char cell[64][CELL_MAX];
	unsigned int n;
};

static void line_add(struct line *l, const char *text)
{
	if (l->n < ARRAY_SIZE(l->cell))
		pp_strlcpy(l->cell[l->n++], text, CELL_MAX);
}

static void table_line(struct line *l, const struct pp_guide_table *t,
		       const struct pp_guide_row *r, const struct pp_guide_colset *cs, size_t ncols)
{
	const struct pp_guide_col *c;
	char buf[CELL_MAX];
	size_t i;

	l->n = 0;
	line_add(l, r ? r->label : t->row_head);
	for (c = t->cols; c->head; c++)
		if (!c->key) {
			if (r)
				line_add(l, r->fixed ? r->fixed : "-");
			else
				line_add(l, c->head);
		}
	for (i = 0; i < ncols; i++)
		for (c = t->cols; c->head; c++) {
			if (!c->key)
				continue;
			if (r)
				cell_text(buf, sizeof(buf), &cs[i], c, r);
			else
				col_head(buf, sizeof(buf), &cs[i], c);
			line_add(l, buf);
		}
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '<')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void write_line(FILE *f, enum pp_guide_fmt fmt, const struct line *l, const int *w,
		       bool head)
{
	unsigned int i;

	if (fmt == PP_GUIDE_HTML)
		fputs("<tr>", f);
	for (i = 0; i < l->n; i++) {
		const char *tag = head ? "th" : "td";

		switch (fmt) {
		case PP_GUIDE_TEXT:
			if (!i)
				fprintf(f, "%-*s", w[i], l->cell[i]);
			else
				fprintf(f, "  %*s", w[i], l->cell[i]);
			break;
		case PP_GUIDE_HTML:
			fprintf(f, "<%s%s>", tag, i ? "" : " class=\"l\"");
			pp_html_esc(f, l->cell[i]);
			fprintf(f, "</%s>", tag);
			break;
		case PP_GUIDE_MD:
			fputs(i ? " | " : "| ", f);
			md_cell(f, l->cell[i]);
			break;
		}
	}
	if (fmt == PP_GUIDE_HTML)
		fputs("</tr>", f);
	else if (fmt == PP_GUIDE_MD)
		fputs(" |", f);
	fputc('\n', f);
	if (fmt == PP_GUIDE_MD && head) {
		for (i = 0; i < l->n; i++)
			fputs(i ? " | ---:" : "| :---", f);
		fputs(" |\n", f);
	}
}

void pp_guide_table_write(FILE *f, enum pp_guide_fmt fmt, const struct pp_guide_table *t,
			  const struct pp_guide_colset *cs, size_t ncols, bool data_rows)
{
	const struct pp_guide_row *r;
	struct line *l = calloc(1, sizeof(*l));
	int w[ARRAY_SIZE(l->cell)] = { 0 };
	unsigned int i;

	if (!l)
		return;
	/* the text's widths: the widest cell of each column */
	for (r = NULL;; r = r ? r + 1 : t->rows) {
		if (r && !r->label)
			break;
		if (r && data_rows && !pp_guide_row_has_data(r, t, cs, ncols))
			continue;
		table_line(l, t, r, cs, ncols);
		for (i = 0; i < l->n; i++)
			if ((int)strlen(l->cell[i]) > w[i])
				w[i] = (int)strlen(l->cell[i]);
	}
	if (fmt == PP_GUIDE_HTML) {
		fputs("<div class=\"scroll\"><table class=\"guide\">\n<caption>Table: ", f);
		pp_html_esc(f, t->caption);
		fputs("</caption>\n<thead>", f);
	} else {
		fputc('\n', f);
	}
	table_line(l, t, NULL, cs, ncols);
	write_line(f, fmt, l, w, true);
	if (fmt == PP_GUIDE_HTML)
		fputs("</thead>\n<tbody>\n", f);
	for (r = t->rows; r->label; r++) {
		if (data_rows && !pp_guide_row_has_data(r, t, cs, ncols))
			continue;
		table_line(l, t, r, cs, ncols);
		write_line(f, fmt, l, w, false);
	}
	if (fmt == PP_GUIDE_HTML)
		fputs("</tbody></table></div>\n", f);
	else
		fprintf(f, "\nTable: %s\n", t->caption);
	free(l);
}

/* Each run a column of its own, named by its host (and number). */
struct percol {
	struct pp_guide_colset cs[PP_GUIDE_MAX_COLS];
	const struct pp_run *run[PP_GUIDE_MAX_COLS];
	char name[PP_GUIDE_MAX_COLS][96];
	size_t n;
};

static void per_run(struct percol *p, const struct pp_run *runs, size_t nruns)
{
	size_t i;

	p->n = nruns < PP_GUIDE_MAX_COLS ? nruns : PP_GUIDE_MAX_COLS;
	for (i = 0; i < p->n; i++) {
		p->run[i] = &runs[i];
		if (nruns > 1)
			snprintf(p->name[i], sizeof(p->name[i]), "%s #%zu", runs[i].meta.hostname,
				 i + 1);
		else
			snprintf(p->name[i], sizeof(p->name[i]), "%s", runs[i].meta.hostname);
		p->cs[i] = (struct pp_guide_colset){ p->name[i], &p->run[i], 1 };
	}
}

static int write_tables(FILE *f, enum pp_guide_fmt fmt, const struct pp_run *runs,
			size_t nruns, bool count_only)
{
	struct percol *p = calloc(1, sizeof(*p));
	unsigned int t;
	int n = 0;

	if (!p)
		return 0;
	per_run(p, runs, nruns);
	for (t = 0; t < pp_guide_ntables; t++) {
		if (!pp_guide_table_has_data(pp_guide_tables[t], p->cs, p->n))
			continue;
		if (!count_only)
			pp_guide_table_write(f, fmt, pp_guide_tables[t], p->cs, p->n, false);
		n++;
	}
	free(p);
	return n;
}

int pp_print_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	return write_tables(f, PP_GUIDE_TEXT, runs, nruns, false);
}

int pp_guide_tables_with_data(const struct pp_run *runs, size_t nruns)
{
	return write_tables(NULL, PP_GUIDE_TEXT, runs, nruns, true);
}

int pp_html_guide_tables(FILE *f, const struct pp_run *runs, size_t nruns)
{
	return write_tables(f, PP_GUIDE_HTML, runs, nruns, false);
}
