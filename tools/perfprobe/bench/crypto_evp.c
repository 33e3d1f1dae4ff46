// SPDX-License-Identifier: GPL-2.0
/*
 * crypto_evp: OpenSSL 3 EVP throughput, the figures of
 * `openssl speed -elapsed -evp <alg>` that vendor guides publish.
 *
 * As openssl speed does: a cipher context is initialised once
 * (EVP_CipherInit_ex(), padding off) and every operation is one
 * EVP_CipherUpdate() of one block, encrypting in place; a digest
 * operation is one EVP_Digest() of one block (context, init, update,
 * final).  Throughput is block bytes over wall time, in KB/s of 1000
 * bytes (openssl speed's "1000s of bytes per second").  Before timing,
 * every algorithm must reproduce a published known answer through the
 * same calls, so a wrong setup cannot look fast.
 *
 * The CPU load of an algorithm is the process CPU time over the wall time
 * of its samples (all sizes), as `time -v openssl speed ...` reports it.
 * des-cbc lives in OpenSSL 3's legacy provider: it is loaded with the
 * default provider into a library context of our own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "bench.h"
#include "benchlib/crypto_alg.h"

struct evp_state {
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *dflt, *legacy;
	char legacy_why[200];
	uint8_t *buf;
	struct pp_crypto_run *run;
};

struct evp_job {
	EVP_CIPHER_CTX *cctx;
	EVP_MD *md;
	uint8_t *buf;
	size_t len;
	struct pp_crypto_load *load;
};

static int cipher_loop(uint64_t n, void *arg)
{
	struct evp_job *j = arg;
	struct pp_crypto_mark m;
	int outl, ret = 0;

	pp_crypto_mark(&m);
	while (n-- > 0) {
		if (EVP_CipherUpdate(j->cctx, j->buf, &outl, j->buf, (int)j->len) != 1) {
			ret = -EIO;
			break;
		}
	}
	pp_crypto_pass(j->load, &m);
	return ret;
}

static int digest_loop(uint64_t n, void *arg)
{
	struct evp_job *j = arg;
	unsigned char md[EVP_MAX_MD_SIZE];
	struct pp_crypto_mark m;
	int ret = 0;

	pp_crypto_mark(&m);
	while (n-- > 0) {
		if (EVP_Digest(j->buf, j->len, md, NULL, j->md, NULL) != 1) {
			ret = -EIO;
			break;
		}
	}
	pp_crypto_pass(j->load, &m);
	return ret;
}

/* The first OpenSSL error queued, with its detail, as text; queue cleared. */
static const char *ossl_why(char *buf, size_t size)
{
	const char *data = NULL;
	char err[128];
	unsigned long e;
	int flags = 0;

	e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags);
	if (!e) {
		snprintf(buf, size, "no OpenSSL error recorded");
	} else {
		ERR_error_string_n(e, err, sizeof(err));
		snprintf(buf, size, "%s%s%s", err, flags & ERR_TXT_STRING ? ": " : "",
			 flags & ERR_TXT_STRING ? data : "");
	}
	ERR_clear_error();
	return buf;
}

/* A fresh context with key and IV, padding off: openssl speed's setup. */
static EVP_CIPHER_CTX *cipher_ctx(const EVP_CIPHER *c, const uint8_t *key,
				  const uint8_t *iv)
{
	EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();

	if (!cc)
		return NULL;
	if (EVP_CipherInit_ex(cc, c, NULL, key, iv, 1) != 1 ||
	    EVP_CIPHER_CTX_set_padding(cc, 0) != 1) {
		EVP_CIPHER_CTX_free(cc);
		return NULL;
	}
	return cc;
}

/*
 * The known answer through the timed calls.  Two updates (the first
 * block, then the rest) check the chaining across calls the timed loop
 * relies on.
 */
static int cipher_kat(struct pp_ctx *ctx, const struct pp_crypto_alg *a,
		      const EVP_CIPHER *c)
{
	struct pp_crypto_kat_buf k;
	uint8_t out[PP_CRYPTO_KAT_MAX];
	int bs = EVP_CIPHER_get_block_size(c), l1 = 0, l2 = 0, ret;
	EVP_CIPHER_CTX *cc;
	char msg[300], why[160];

	if (pp_crypto_kat_load(a, &k))
		return pp_fail(ctx, "%s: bad known-answer vector", a->name);
	if (EVP_CIPHER_get_key_length(c) != k.key_len || EVP_CIPHER_get_iv_length(c) != k.iv_len)
		return pp_fail(ctx, "%s: known-answer test: key/IV length %d/%d, want %d/%d",
			       a->name, EVP_CIPHER_get_key_length(c),
			       EVP_CIPHER_get_iv_length(c), k.key_len, k.iv_len);
	cc = cipher_ctx(c, k.key, k.iv);
	if (!cc)
		return pp_fail(ctx, "%s: EVP_CipherInit_ex: %s", a->name,
			       ossl_why(why, sizeof(why)));
	if (EVP_CipherUpdate(cc, out, &l1, k.in, bs) != 1 ||
	    EVP_CipherUpdate(cc, out + l1, &l2, k.in + bs, k.in_len - bs) != 1)
		ret = pp_fail(ctx, "%s: EVP_CipherUpdate: %s", a->name,
			      ossl_why(why, sizeof(why)));
	else if (pp_crypto_kat_check(&k, out, (size_t)(l1 + l2), msg, sizeof(msg)))
		ret = pp_fail(ctx, "%s: known-answer test (%s) FAILED: %s", a->name,
			      a->kat.source, msg);
	else
		ret = 0;
	EVP_CIPHER_CTX_free(cc);
	return ret;
}

static int digest_kat(struct pp_ctx *ctx, const struct pp_crypto_alg *a,
		      const EVP_MD *md)
{
	struct pp_crypto_kat_buf k;
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	char msg[300], why[160];

	if (pp_crypto_kat_load(a, &k))
		return pp_fail(ctx, "%s: bad known-answer vector", a->name);
	if (EVP_Digest(k.in, (size_t)k.in_len, out, &len, md, NULL) != 1)
		return pp_fail(ctx, "%s: EVP_Digest: %s", a->name, ossl_why(why, sizeof(why)));
	if (pp_crypto_kat_check(&k, out, len, msg, sizeof(msg)))
		return pp_fail(ctx, "%s: known-answer test (%s) FAILED: %s", a->name,
			       a->kat.source, msg);
	return 0;
}

static int run_cipher(struct pp_ctx *ctx, struct evp_state *st, const struct pp_crypto_alg *a)
{
	struct evp_job j = { .buf = st->buf, .load = &st->run->load };
	struct pp_crypto_kat_buf k;
	char why[300], err[160];
	EVP_CIPHER *c;
	int ret;

	c = EVP_CIPHER_fetch(st->lib, a->evp, NULL);
	if (!c) {
		if (a->legacy && !st->legacy)
			snprintf(why, sizeof(why), "%s needs OpenSSL's legacy provider: %s",
				 a->evp, st->legacy_why);
		else
			snprintf(why, sizeof(why), "OpenSSL has no %s: %s", a->evp,
				 ossl_why(err, sizeof(err)));
		pp_crypto_skip_alg(ctx, st->run, a, why);
		return 0;
	}
	ret = cipher_kat(ctx, a, c);
	if (ret)
		goto out;
	/* Time with the KAT's key and IV: any key costs the same. */
	pp_crypto_kat_load(a, &k);
	j.cctx = cipher_ctx(c, k.key, k.iv);
	if (!j.cctx) {
		ret = pp_fail(ctx, "%s: EVP_CipherInit_ex: %s", a->name,
			      ossl_why(err, sizeof(err)));
		goto out;
	}
	ret = pp_crypto_time_sizes(ctx, st->run, a, cipher_loop, &j, &j.len);
	EVP_CIPHER_CTX_free(j.cctx);
out:
	EVP_CIPHER_free(c);
	return ret;
}

static int run_digest(struct pp_ctx *ctx, struct evp_state *st, const struct pp_crypto_alg *a)
{
	struct evp_job j = { .buf = st->buf, .load = &st->run->load };
	char why[300], err[160];
	int ret;

	j.md = EVP_MD_fetch(st->lib, a->evp, NULL);
	if (!j.md) {
		snprintf(why, sizeof(why), "OpenSSL has no %s: %s", a->evp,
			 ossl_why(err, sizeof(err)));
		pp_crypto_skip_alg(ctx, st->run, a, why);
		return 0;
	}
	ret = digest_kat(ctx, a, j.md);
	if (!ret)
		ret = pp_crypto_time_sizes(ctx, st->run, a, digest_loop, &j, &j.len);
	EVP_MD_free(j.md);
	return ret;
}

static int setup(struct pp_ctx *ctx, struct evp_state *st)
{
	char why[160];

	st->run = calloc(1, sizeof(*st->run));
	/* 64-byte aligned, as openssl speed's buffers */
	if (!st->run || posix_memalign((void **)&st->buf, 64, PP_CRYPTO_MAX_BLOCK))
		return pp_fail(ctx, "out of memory");
	memset(st->buf, 0x5a, PP_CRYPTO_MAX_BLOCK);
	st->run->prefix = "crypto-evp";

	st->lib = OSSL_LIB_CTX_new();
	if (!st->lib)
		return pp_fail(ctx, "OSSL_LIB_CTX_new: %s", ossl_why(why, sizeof(why)));
	st->dflt = OSSL_PROVIDER_load(st->lib, "default");
	if (!st->dflt)
		return pp_fail(ctx, "OpenSSL default provider: %s", ossl_why(why, sizeof(why)));
	st->legacy = OSSL_PROVIDER_load(st->lib, "legacy");
	if (!st->legacy)
		snprintf(st->legacy_why, sizeof(st->legacy_why), "it did not load: %s",
			 ossl_why(why, sizeof(why)));
	return 0;
}

static void teardown(struct evp_state *st)
{
	if (st->legacy)
		OSSL_PROVIDER_unload(st->legacy);
	if (st->dflt)
		OSSL_PROVIDER_unload(st->dflt);
	OSSL_LIB_CTX_free(st->lib);
	free(st->buf);
	free(st->run);
}

static int crypto_evp_run(struct pp_ctx *ctx)
{
	struct evp_state st;
	unsigned int i;
	int ret;

	memset(&st, 0, sizeof(st));
	ret = setup(ctx, &st);
	for (i = 0; !ret && i < pp_crypto_nalgs; i++) {
		const struct pp_crypto_alg *a = &pp_crypto_algs[i];

		if (a->kind == PP_CRYPTO_CIPHER)
			ret = run_cipher(ctx, &st, a);
		else
			ret = run_digest(ctx, &st, a);
	}
	teardown(&st);
	return ret;
}

static const struct pp_key_matrix matrix = {
	.title = "OpenSSL EVP (openssl speed -evp) in 1000s of bytes per second - bigger is better",
	.rows = pp_crypto_rows, .cols = pp_crypto_cols, .col_head = "%s bytes", .prec = 2,
	.extra = "cpu_load", .extra_head = "CPU load %",
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "crypto-evp-*-%u", .unit = "KB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "OpenSSL EVP: an algorithm on blocks of N bytes (1000s of bytes/s)",
	  .show = PP_SHOW({ .matrix = &matrix }) },
	{ .pattern = "crypto-evp-*-cpu_load", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU time over wall time while the algorithm ran" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_crypto_evp = {
	.name = "crypto_evp",
	.group = "crypto",
	.summary = "OpenSSL EVP cipher/digest throughput, openssl speed -evp (KB/s)",
	.keys = keys,
	.run = crypto_evp_run,
	.by_name = true,
};
