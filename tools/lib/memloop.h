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
 * merged into vector stores (gcc -O2 turns lmbench's fwr into 16-byte
 * stores otherwise).
 *
 * pp_pass_done() after each pass over the buffer: the compiler must
 * assume the memory was used, so no pass is merged with another or left
 * out.
 */
#ifndef PP_MEMLOOP_H
#define PP_MEMLOOP_H

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

#endif /* PP_MEMLOOP_H */
