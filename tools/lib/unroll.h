/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unrolled loop bodies for the bandwidth benchmarks.  lmbench's memory
 * and file bandwidth loops work on 512-byte chunks written out by hand:
 * either every 4-byte word of the chunk (PP_UNROLL128) or every 4th word
 * (PP_UNROLL128_STEP4).  m(i) is expanded once per word index i.
 */
#ifndef PP_UNROLL_H
#define PP_UNROLL_H

#define PP_U4(m, b)	m(b) m((b) + 1) m((b) + 2) m((b) + 3)
#define PP_U16(m, b)	PP_U4(m, b) PP_U4(m, (b) + 4) PP_U4(m, (b) + 8) PP_U4(m, (b) + 12)
#define PP_U64(m, b)	PP_U16(m, b) PP_U16(m, (b) + 16) PP_U16(m, (b) + 32) \
			PP_U16(m, (b) + 48)
/* m(0) m(1) ... m(127) */
#define PP_UNROLL128(m)	PP_U64(m, 0) PP_U64(m, 64)

#define PP_S16(m, b)	m(b) m((b) + 4) m((b) + 8) m((b) + 12)
#define PP_S64(m, b)	PP_S16(m, b) PP_S16(m, (b) + 16) PP_S16(m, (b) + 32) \
			PP_S16(m, (b) + 48)
/* m(0) m(4) ... m(124) */
#define PP_UNROLL128_STEP4(m)	PP_S64(m, 0) PP_S64(m, 64)

/*
 * Keeping the loops what lmbench's -O build makes of them.
 *
 * Sums: lmbench writes "sum += p[0] + p[1] + ... + p[127]", which its -O
 * build turns into one scalar add chain per chunk (each load folded into
 * an add), chunks overlapping in the CPU.  Add each word to a per-chunk
 * total with PP_ADD(): the empty asm makes the total opaque after every
 * add, so the compiler can neither vectorize the reduction nor drop a
 * load, yet each load still folds into its add.
 *
 * Stores go through volatile pointers: one 4-byte store per word, never
 * merged into vector stores (gcc -O2 turns lmbench's fwr into 16-byte
 * stores otherwise).
 *
 * PP_PASS_DONE() after each pass over the buffer: the compiler must
 * assume the memory was used, so no pass can be merged with another or
 * left out.
 */
#define PP_ADD(t, x)	do { (t) += (x); __asm__("" : "+r"(t)); } while (0)
#define PP_PASS_DONE()	__asm__ __volatile__("" : : : "memory")

#endif /* PP_UNROLL_H */
