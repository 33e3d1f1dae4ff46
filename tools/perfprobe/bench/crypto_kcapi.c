// SPDX-License-Identifier: GPL-2.0
/*
 * crypto_kcapi: the algorithms of crypto_evp through the kernel crypto
 * API, from user space over AF_ALG with libkcapi: what an application
 * gets when it offloads to the kernel (and through it to a crypto
 * engine, where the SoC has one).
 *
 * A cipher operation is one kcapi_cipher_encrypt() of one block, in
 * place: a sendmsg()/vmsplice() of the IV and the data and a read() of
 * the result.  The last ciphertext block becomes the next IV, so the CBC
 * chain runs on across operations as it does in EVP_CipherUpdate() (and
 * in OpenSSL's afalg engine).  A digest operation is one
 * kcapi_md_digest() of one block.  Units, sizes, CPU load and known
 * answers are crypto_evp's; the CPU load includes the kernel's time in
 * the system calls, which is where the work is done.
 *
 * The driver the kernel chose for each algorithm (the /proc/crypto entry
 * of that name with the highest priority, e.g. cbc-aes-aesni rather than
 * cbc(aes-generic)) is recorded as the info crypto-kcapi-<alg>-driver.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include <kcapi.h>

#include "bench.h"
#include "benchlib/crypto_alg.h"

#ifndef AF_ALG
#define AF_ALG		38
#endif
#ifndef NETLINK_CRYPTO
#define NETLINK_CRYPTO	21
#endif

#define KC_MAX_IV	32
#define KC_MAX_MD	64

struct kc_job {
	struct kcapi_handle *h;
	uint8_t *buf;
	size_t len;
	uint8_t iv[KC_MAX_IV];
	uint32_t ivlen;
	struct pp_crypto_load *load;
};

static int cipher_loop(uint64_t n, void *arg)
{
	struct kc_job *j = arg;
	struct pp_crypto_mark m;
	int ret = 0;

	pp_crypto_mark(&m);
	while (n-- > 0) {
		ssize_t r = kcapi_cipher_encrypt(j->h, j->buf, j->len, j->iv, j->buf,
						 j->len, KCAPI_ACCESS_HEURISTIC);

		if (r != (ssize_t)j->len) {
			ret = r < 0 ? (int)r : -EIO;
			break;
		}
		memcpy(j->iv, j->buf + j->len - j->ivlen, j->ivlen);
	}
	pp_crypto_pass(j->load, &m);
	return ret;
}

static int digest_loop(uint64_t n, void *arg)
{
	struct kc_job *j = arg;
	uint8_t md[KC_MAX_MD];
	struct pp_crypto_mark m;
	int ret = 0;

	pp_crypto_mark(&m);
	while (n-- > 0) {
		ssize_t r = kcapi_md_digest(j->h, j->buf, j->len, md, sizeof(md));

		if (r <= 0) {
			ret = r < 0 ? (int)r : -EIO;
			break;
		}
	}
	pp_crypto_pass(j->load, &m);
	return ret;
}

/*
 * The known answer through the timed calls: the first block, then the
 * rest with the chained IV, as the timed loop chains it.
 */
static int cipher_kat(struct pp_ctx *ctx, const struct pp_crypto_alg *a, struct kc_job *j,
		      const struct pp_crypto_kat_buf *k)
{
	uint8_t out[PP_CRYPTO_KAT_MAX], iv[KC_MAX_IV];
	uint32_t bs = kcapi_cipher_blocksize(j->h);
	ssize_t r1, r2;
	char msg[300];
	int ret;

	if (j->ivlen != (uint32_t)k->iv_len || !bs || bs > (uint32_t)k->in_len)
		return pp_fail(ctx, "%s: %s: IV size %u, block size %u, want IV size %d",
			       a->name, a->kernel, j->ivlen, bs, k->iv_len);
	ret = kcapi_cipher_setkey(j->h, k->key, (uint32_t)k->key_len);
	if (ret < 0)
		return pp_fail(ctx, "%s: %s: setkey: %s", a->name, a->kernel, strerror(-ret));
	memcpy(iv, k->iv, j->ivlen);
	r1 = kcapi_cipher_encrypt(j->h, k->in, bs, iv, out, bs, KCAPI_ACCESS_HEURISTIC);
	if (r1 == (ssize_t)bs) {
		memcpy(iv, out + bs - j->ivlen, j->ivlen);
		r2 = kcapi_cipher_encrypt(j->h, k->in + bs, (size_t)k->in_len - bs, iv,
					  out + bs, (size_t)k->in_len - bs,
					  KCAPI_ACCESS_HEURISTIC);
	} else {
		r2 = r1;
	}
	if (r1 != (ssize_t)bs || r2 != (ssize_t)(k->in_len - (int)bs))
		return pp_fail(ctx, "%s: %s: encrypt: %s", a->name, a->kernel,
			       r2 < 0 ? strerror((int)-r2) : "short result");
	if (pp_crypto_kat_check(k, out, (size_t)k->in_len, msg, sizeof(msg)))
		return pp_fail(ctx, "%s: %s: known-answer test (%s) FAILED: %s", a->name,
			       a->kernel, a->kat.source, msg);
	return 0;
}

static int digest_kat(struct pp_ctx *ctx, const struct pp_crypto_alg *a, struct kc_job *j,
		      const struct pp_crypto_kat_buf *k)
{
	uint8_t out[KC_MAX_MD];
	char msg[300];
	ssize_t r;

	r = kcapi_md_digest(j->h, k->in, (size_t)k->in_len, out, sizeof(out));
	if (r <= 0)
		return pp_fail(ctx, "%s: %s: digest: %s", a->name, a->kernel,
			       r < 0 ? strerror((int)-r) : "empty result");
	if (pp_crypto_kat_check(k, out, (size_t)r, msg, sizeof(msg)))
		return pp_fail(ctx, "%s: %s: known-answer test (%s) FAILED: %s", a->name,
			       a->kernel, a->kat.source, msg);
	return 0;
}

/* Record the driver behind a->kernel; asked after the handle exists. */
static void record_driver(struct pp_ctx *ctx, const struct pp_crypto_alg *a)
{
	struct pp_crypto_driver d;
	char name[PP_KEY_MAX];
	int ret;

	snprintf(name, sizeof(name), "crypto-kcapi-%s-driver", a->name);
	ret = pp_crypto_kernel_driver(a->kernel, &d);
	if (ret)
		pp_info(ctx, name, "unknown: %s: not in /proc/crypto (%s)", a->kernel,
			strerror(-ret));
	else
		pp_info(ctx, name, "%s (priority %d, module %s)", d.driver, d.priority,
			d.module[0] ? d.module : "?");
}

static int open_handle(struct pp_ctx *ctx, struct pp_crypto_run *run,
		       const struct pp_crypto_alg *a, struct kc_job *j)
{
	char why[256];
	int ret;

	if (a->kind == PP_CRYPTO_CIPHER)
		ret = kcapi_cipher_init(&j->h, a->kernel, 0);
	else
		ret = kcapi_md_init(&j->h, a->kernel, 0);
	if (!ret)
		return 0;
	j->h = NULL;
	if (ret == -ENOENT)
		snprintf(why, sizeof(why), "the kernel has no %s %s (algorithm, its module, or "
			 "algif_%s missing)", a->kind == PP_CRYPTO_CIPHER ? "skcipher" : "hash",
			 a->kernel, a->kind == PP_CRYPTO_CIPHER ? "skcipher" : "hash");
	else
		snprintf(why, sizeof(why), "%s: %s", a->kernel, strerror(-ret));
	pp_crypto_skip_alg(ctx, run, a, why);
	return 1;
}

static int run_alg(struct pp_ctx *ctx, struct pp_crypto_run *run, uint8_t *buf,
		   const struct pp_crypto_alg *a)
{
	struct kc_job j = { .buf = buf, .load = &run->load };
	struct pp_crypto_kat_buf k;
	int ret;

	if (pp_crypto_kat_load(a, &k))
		return pp_fail(ctx, "%s: bad known-answer vector", a->name);
	if (open_handle(ctx, run, a, &j))
		return 0;
	record_driver(ctx, a);
	if (a->kind == PP_CRYPTO_CIPHER) {
		j.ivlen = kcapi_cipher_ivsize(j.h);
		if (j.ivlen > KC_MAX_IV) {
			ret = pp_fail(ctx, "%s: IV of %u bytes", a->kernel, j.ivlen);
			goto out;
		}
		ret = cipher_kat(ctx, a, &j, &k);
		if (ret)
			goto out;
		memcpy(j.iv, k.iv, j.ivlen);
		ret = pp_crypto_time_sizes(ctx, run, a, cipher_loop, &j, &j.len);
	} else {
		ret = digest_kat(ctx, a, &j, &k);
		if (!ret)
			ret = pp_crypto_time_sizes(ctx, run, a, digest_loop, &j, &j.len);
	}
out:
	if (a->kind == PP_CRYPTO_CIPHER)
		kcapi_cipher_destroy(j.h);
	else
		kcapi_md_destroy(j.h);
	return ret;
}

static int crypto_kcapi_run(struct pp_ctx *ctx)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pp_crypto_run *run;
	uint8_t *buf = NULL;
	unsigned int i;
	int fd, ret = 0;

	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pp_skip(ctx, NULL, "socket(AF_ALG): %s: this kernel offers no user-space "
			       "crypto API (CONFIG_CRYPTO_USER_API, module af_alg)",
			       strerror(errno));
	close(fd);
	/* libkcapi asks the kernel for block and IV sizes over NETLINK_CRYPTO. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_CRYPTO);
	if (fd < 0)
		return pp_skip(ctx, NULL, "socket(AF_NETLINK, NETLINK_CRYPTO): %s: libkcapi needs "
			       "the crypto configuration interface (CONFIG_CRYPTO_USER, module "
			       "crypto_user)", strerror(errno));
	close(fd);
	/* Errors are reported as skips and failures, not printed by the library. */
	kcapi_set_verbosity(KCAPI_LOG_NONE);

	run = calloc(1, sizeof(*run));
	if (!run)
		return pp_fail(ctx, "out of memory");
	/* page aligned: libkcapi hands large blocks to the kernel by vmsplice() */
	if (posix_memalign((void **)&buf, page > 0 ? (size_t)page : 4096, PP_CRYPTO_MAX_BLOCK)) {
		ret = pp_fail(ctx, "out of memory");
		goto free_run;
	}
	memset(buf, 0x5a, PP_CRYPTO_MAX_BLOCK);
	run->prefix = "crypto-kcapi";
	for (i = 0; !ret && i < pp_crypto_nalgs; i++)
		ret = run_alg(ctx, run, buf, &pp_crypto_algs[i]);
	free(buf);
free_run:
	free(run);
	return ret;
}

static const struct pp_key_matrix matrix = {
	.title = "Kernel crypto API (AF_ALG) in 1000s of bytes per second - bigger is better",
	.rows = pp_crypto_rows, .cols = pp_crypto_cols, .col_head = "%s bytes", .prec = 2,
	.extra = "cpu_load", .extra_head = "CPU load %", .info = "driver", .info_head = "driver",
};

static const struct pp_key_decl keys[] = {
	{ .pattern = "crypto-kcapi-*-%u", .unit = "KB/s", .dir = PP_HIGHER_IS_BETTER,
	  .desc = "kernel crypto API (AF_ALG): an algorithm on N-byte blocks",
	  .show = PP_SHOW({ .matrix = &matrix }) },
	{ .pattern = "crypto-kcapi-*-cpu_load", .unit = "%", .dir = PP_LOWER_IS_BETTER,
	  .desc = "CPU time over wall time while the algorithm ran" },
	PP_KEYS_END
};

const struct pp_bench pp_bench_crypto_kcapi = {
	.name = "crypto_kcapi",
	.group = "crypto",
	.summary = "kernel crypto API (AF_ALG, libkcapi) cipher/digest throughput (KB/s)",
	.keys = keys,
	.run = crypto_kcapi_run,
	.by_name = true,
};
