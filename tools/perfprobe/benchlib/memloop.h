/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loops of the bandwidth benchmarks, kept what lmbench's -O build
 * makes of them.  lmbench works in 512-byte chunks of 128 4-byte words,
 * unrolled by hand; we write an inner loop over the chunk and have it
 * unrolled with "#pragma GCC unroll" (gcc >= 8, clang).
 *
 * Sums: lmbench writes "sum += p[0] + p[1] + ... + p[127]", which -O
 * turns into one scalar add chain per chunk, each load folded into an
 * add, consecutive chunks overlapping in the CPU.  Add each word to a
 * per-chunk total with pp_sum32()/pp_sum_long(): the empty asm makes the
 * total opaque after every add, so the compiler can neither vectorize the
 * reduction nor drop a load, yet each load still folds into its add.
 *
 * Stores go through volatile pointers: one 4-byte store per word, never
 * merged into vector stores.  lmbench's fwr, "p[0] = p[1] = ... =
 * p[127] = 1", is compiled (gcc 12 -O2, objdump of lmbench3's bw_mem) as
 * 128 scalar stores from p[127] down to p[0]: each chunk written
 * backwards, the chunks forwards.  That order is what its "Mem write"
 * figure measures, and it costs (3.5 times the forward order's time on
 * an AMD EPYC guest, Documentation/accuracy.rst), so fwr keeps it.
 *
 * pp_pass_done() after each pass over the buffer: the compiler must
 * assume the memory was used, so no pass is merged with another or left
 * out.
 */
#ifndef PP_MEMLOOP_H
#define PP_MEMLOOP_H

#include <stddef.h>

#define PP_CHUNK_WORDS	128

static inline unsigned int pp_sum32(unsigned int t, unsigned int x)
{
	t += x;
	__asm__("" : "+r"(t));
	return t;
}

static inline unsigned long pp_sum_long(unsigned long t, unsigned long x)
{
	t += x;
	__asm__("" : "+r"(t));
	return t;
}

static inline void pp_pass_done(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/*
 * lmbench's bread() (lib_timing.c), the sum bw_file_rd and bw_mmap_rd
 * put every byte they read through: the buffer as longs, 128 to a chunk,
 * one add chain per chunk; a tail shorter than a chunk one long at a
 * time.
 */
static inline unsigned long pp_bread(const void *buf, size_t nbytes)
{
	const unsigned long *p = buf;
	const unsigned long *end = p + nbytes / sizeof(*p);
	unsigned long sum = 0, t;
	unsigned int i;

	for (; end - p >= PP_CHUNK_WORDS; p += PP_CHUNK_WORDS) {
		t = 0;
#pragma GCC unroll 128
		for (i = 0; i < PP_CHUNK_WORDS; i++)
			t = pp_sum_long(t, p[i]);
		sum += t;
	}
	for (; p < end; p++)
		sum = pp_sum_long(sum, *p);
	pp_pass_done();
	return sum;
}

#endif /* PP_MEMLOOP_H */
