/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crypto group (crypto_evp, crypto_kcapi): the algorithms and block
 * sizes of `openssl speed -evp` as the vendor guides publish them, one
 * published known answer per algorithm, the CPU-load bookkeeping and the
 * /proc/crypto lookup of the driver the kernel chose.  No library
 * dependency here: the benchmarks bring OpenSSL and libkcapi.
 */
#ifndef PP_CRYPTO_ALG_H
#define PP_CRYPTO_ALG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

#define PP_CRYPTO_MAX_BLOCK	16384		/* the largest size */
#define PP_CRYPTO_KAT_MAX	64		/* bytes, any KAT field */
/* Debug: a list of algorithm names (or "all") whose KAT input is corrupted. */
#define PP_CRYPTO_BREAK_ENV	"PERFPROBE_CRYPTO_BREAK_KAT"

enum pp_crypto_kind {
	PP_CRYPTO_CIPHER,
	PP_CRYPTO_DIGEST,
};

struct pp_crypto_kat {
	const char *key, *iv;		/* hex; NULL for digests */
	const char *in;			/* hex */
	const char *out;		/* hex: ciphertext or digest */
	const char *source;		/* where the vector is published */
};

struct pp_crypto_alg {
	const char *name;		/* openssl speed's and the guides' */
	const char *evp;		/* OpenSSL's name for EVP_*_fetch() */
	const char *kernel;		/* the kernel crypto API's name */
	enum pp_crypto_kind kind;
	bool legacy;			/* OpenSSL 3: in the legacy provider */
	struct pp_crypto_kat kat;
};

extern const struct pp_crypto_alg pp_crypto_algs[];
extern const unsigned int pp_crypto_nalgs;
extern const unsigned int pp_crypto_sizes[];	/* openssl speed's lengths */
extern const unsigned int pp_crypto_nsizes;
/* The same names and sizes as text: the summary's matrix rows and columns. */
extern const char *const pp_crypto_rows[];
extern const char *const pp_crypto_cols[];

/* Decode hex into out; returns the byte count, or -1 (bad hex, too long). */
int pp_crypto_unhex(const char *hex, uint8_t *out, size_t size);
/* Hex of len bytes into out (2 * len + 1 bytes, cut to size). */
void pp_crypto_hex(const uint8_t *in, size_t len, char *out, size_t size);

/*
 * A known answer decoded: in_len bytes of input (with one bit flipped when
 * PERFPROBE_CRYPTO_BREAK_KAT names this algorithm, to prove a mismatch
 * fails), the key and IV, and the expected output.
 */
struct pp_crypto_kat_buf {
	uint8_t key[PP_CRYPTO_KAT_MAX], iv[PP_CRYPTO_KAT_MAX];
	uint8_t in[PP_CRYPTO_KAT_MAX], out[PP_CRYPTO_KAT_MAX];
	int key_len, iv_len, in_len, out_len;
	bool broken;			/* deliberately corrupted */
};

int pp_crypto_kat_load(const struct pp_crypto_alg *a, struct pp_crypto_kat_buf *k);
/* 0 when got matches; else -1 and "got <hex>, want <hex>" in msg. */
int pp_crypto_kat_check(const struct pp_crypto_kat_buf *k, const uint8_t *got,
			size_t len, char *msg, size_t size);

/*
 * CPU load: a loop body marks its start and adds its end; after
 * pp_sample() the last n passes are the samples.  Process CPU time (user
 * + system, CLOCK_PROCESS_CPUTIME_ID) over wall time, as `time -v`
 * reports "Percent of CPU this job got".
 */
#define PP_CRYPTO_PASSES	1100

struct pp_crypto_load {
	unsigned int passes;
	double cpu_ns[PP_CRYPTO_PASSES], wall_ns[PP_CRYPTO_PASSES];
};

struct pp_crypto_mark {
	uint64_t cpu_ns, wall_ns;
};

void pp_crypto_mark(struct pp_crypto_mark *m);
void pp_crypto_pass(struct pp_crypto_load *l, const struct pp_crypto_mark *m);
/* Add the last n passes to cpu[i], wall[i] (i = sample). */
void pp_crypto_fold(const struct pp_crypto_load *l, unsigned int n, double *cpu,
		    double *wall);

/*
 * Timing one algorithm at every size, shared by the benchmarks: keys
 * <prefix>-<alg>-<size> in KB/s (1000 bytes, openssl speed's unit) and
 * <prefix>-<alg>-cpu_load in % over all its samples.
 */
struct pp_crypto_run {
	const char *prefix;		/* "crypto-evp" */
	struct pp_sampling s;
	struct pp_crypto_load load;
	double cpu[PP_MAX_SAMPLES], wall[PP_MAX_SAMPLES];
};

/*
 * fn(iters, job) does iters operations of *len bytes each and calls
 * pp_crypto_mark() / pp_crypto_pass() on run->load around them.
 */
int pp_crypto_time_sizes(struct pp_ctx *ctx, struct pp_crypto_run *run,
			 const struct pp_crypto_alg *a, pp_loop_fn fn, void *job,
			 size_t *len);
/* Every key of the algorithm skipped with the same reason. */
void pp_crypto_skip_alg(struct pp_ctx *ctx, const struct pp_crypto_run *run,
			const struct pp_crypto_alg *a, const char *why);

/*
 * The driver the kernel uses for name: among /proc/crypto entries of that
 * name that are not internal, the one with the highest priority.  text is
 * the content of /proc/crypto.  0 or -ENOENT.
 */
struct pp_crypto_driver {
	char driver[128];
	char module[64];
	char type[32];
	int priority;
};

int pp_crypto_find_driver(const char *text, const char *name,
			  struct pp_crypto_driver *d);
/* The same from /proc/crypto; -errno when it cannot be read. */
int pp_crypto_kernel_driver(const char *name, struct pp_crypto_driver *d);

#endif /* PP_CRYPTO_ALG_H */
