// SPDX-License-Identifier: GPL-2.0
/*
 * The crypto group's algorithms, known answers, CPU-load bookkeeping and
 * /proc/crypto lookup; see crypto_alg.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "crypto_alg.h"
#include "util.h"

/* NIST SP 800-38A, F.2.1 / F.2.3 / F.2.5: CBC-AES*.Encrypt, four blocks. */
#define SP800_38A_IV	"000102030405060708090a0b0c0d0e0f"
#define SP800_38A_PT	"6bc1bee22e409f96e93d7e117393172a" \
			"ae2d8a571e03ac9c9eb76fac45af8e51" \
			"30c81c46a35ce411e5fbc1191a0a52ef" \
			"f69f2445df4f9b17ad2b417be66c3710"

const struct pp_crypto_alg pp_crypto_algs[] = {
	{ "aes-128-cbc", "AES-128-CBC", "cbc(aes)", PP_CRYPTO_CIPHER, false, {
		"2b7e151628aed2a6abf7158809cf4f3c", SP800_38A_IV, SP800_38A_PT,
		"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
		"73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
		"NIST SP 800-38A F.2.1" } },
	{ "aes-192-cbc", "AES-192-CBC", "cbc(aes)", PP_CRYPTO_CIPHER, false, {
		"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", SP800_38A_IV,
		SP800_38A_PT,
		"4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
		"571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
		"NIST SP 800-38A F.2.3" } },
	{ "aes-256-cbc", "AES-256-CBC", "cbc(aes)", PP_CRYPTO_CIPHER, false, {
		"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		SP800_38A_IV, SP800_38A_PT,
		"f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
		"39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
		"NIST SP 800-38A F.2.5" } },
	/* FIPS 81, the CBC example: "Now is the time for all ". */
	{ "des-cbc", "DES-CBC", "cbc(des)", PP_CRYPTO_CIPHER, true, {
		"0123456789abcdef", "1234567890abcdef",
		"4e6f77206973207468652074696d6520666f7220616c6c20",
		"e5c7cdde872bf27c43e934008c389c0f683788499a7c05f6",
		"FIPS 81 CBC example" } },
	/*
	 * NIST SP 800-67 Rev. 1 (TDEA) example, published in ECB: keys
	 * 0123456789ABCDEF 23456789ABCDEF01 456789ABCDEF0123, "The qufck
	 * brown fox jump".  In CBC with a zero IV and P'(i) = P(i) ^ C(i-1)
	 * the ciphertext is exactly the published one, chaining included.
	 */
	{ "des3", "DES-EDE3-CBC", "cbc(des3_ede)", PP_CRYPTO_CIPHER, false, {
		"0123456789abcdef23456789abcdef01456789abcdef0123",
		"0000000000000000",
		"5468652071756663c3069ffe8a4ceb7faa8d64a178500296",
		"a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900",
		"NIST SP 800-67 Rev. 1 example, chained for CBC" } },
	{ "md5", "MD5", "md5", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263", "900150983cd24fb0d6963f7d28e17f72",
		"RFC 1321 A.5 \"abc\"" } },
	{ "sha1", "SHA1", "sha1", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263", "a9993e364706816aba3e25717850c26c9cd0d89d",
		"FIPS 180 example \"abc\"" } },
	{ "sha224", "SHA224", "sha224", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263",
		"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
		"FIPS 180 example \"abc\"" } },
	{ "sha256", "SHA256", "sha256", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263",
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"FIPS 180 example \"abc\"" } },
	{ "sha384", "SHA384", "sha384", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263",
		"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
		"1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
		"FIPS 180 example \"abc\"" } },
	{ "sha512", "SHA512", "sha512", PP_CRYPTO_DIGEST, false, {
		NULL, NULL, "616263",
		"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		"2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
		"FIPS 180 example \"abc\"" } },
};

const unsigned int pp_crypto_nalgs = ARRAY_SIZE(pp_crypto_algs);

const unsigned int pp_crypto_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
const unsigned int pp_crypto_nsizes = ARRAY_SIZE(pp_crypto_sizes);

/* test_crypto.c checks them against the two above */
const char *const pp_crypto_rows[] = {
	"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "des-cbc", "des3", "md5",
	"sha1", "sha224", "sha256", "sha384", "sha512", NULL
};

const char *const pp_crypto_cols[] = {
	"16", "64", "256", "1024", "8192", "16384", NULL
};

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int pp_crypto_unhex(const char *hex, uint8_t *out, size_t size)
{
	size_t len = strlen(hex), i;

	if (len % 2 || len / 2 > size)
		return -1;
	for (i = 0; i < len / 2; i++) {
		int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(len / 2);
}

void pp_crypto_hex(const uint8_t *in, size_t len, char *out, size_t size)
{
	size_t i;

	if (!size)
		return;
	out[0] = '\0';
	for (i = 0; i < len && 2 * i + 2 < size; i++)
		snprintf(out + 2 * i, 3, "%02x", in[i]);
}

/* Is alg listed in $PERFPROBE_CRYPTO_BREAK_KAT ("all" or comma-separated)? */
static bool kat_broken(const char *alg)
{
	const char *env = getenv(PP_CRYPTO_BREAK_ENV), *p;
	size_t len = strlen(alg);

	if (!env)
		return false;
	for (p = env; *p; ) {
		size_t n = strcspn(p, ",");

		if ((n == 3 && !strncmp(p, "all", 3)) || (n == len && !strncmp(p, alg, n)))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

int pp_crypto_kat_load(const struct pp_crypto_alg *a, struct pp_crypto_kat_buf *k)
{
	const struct pp_crypto_kat *v = &a->kat;

	memset(k, 0, sizeof(*k));
	k->in_len = pp_crypto_unhex(v->in, k->in, sizeof(k->in));
	k->out_len = pp_crypto_unhex(v->out, k->out, sizeof(k->out));
	if (v->key)
		k->key_len = pp_crypto_unhex(v->key, k->key, sizeof(k->key));
	if (v->iv)
		k->iv_len = pp_crypto_unhex(v->iv, k->iv, sizeof(k->iv));
	if (k->in_len <= 0 || k->out_len <= 0 || k->key_len < 0 || k->iv_len < 0)
		return -EINVAL;
	k->broken = kat_broken(a->name);
	if (k->broken)
		k->in[0] ^= 0x01;	/* changes the output of every algorithm */
	return 0;
}

int pp_crypto_kat_check(const struct pp_crypto_kat_buf *k, const uint8_t *got,
			size_t len, char *msg, size_t size)
{
	char g[2 * PP_CRYPTO_KAT_MAX + 1], w[2 * PP_CRYPTO_KAT_MAX + 1];

	if (len == (size_t)k->out_len && !memcmp(got, k->out, len))
		return 0;
	pp_crypto_hex(got, len < PP_CRYPTO_KAT_MAX ? len : PP_CRYPTO_KAT_MAX, g, sizeof(g));
	pp_crypto_hex(k->out, (size_t)k->out_len, w, sizeof(w));
	snprintf(msg, size, "got %.40s%s, want %.40s%s%s", g, strlen(g) > 40 ? "..." : "",
		 w, strlen(w) > 40 ? "..." : "",
		 k->broken ? " (input corrupted by " PP_CRYPTO_BREAK_ENV ")" : "");
	return -1;
}

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The CPU interval lies inside the wall interval: reading the process CPU
 * clock is a system call, and counting it on the CPU side only would put
 * the load above 100%.
 */
void pp_crypto_mark(struct pp_crypto_mark *m)
{
	m->wall_ns = pp_now_ns();
	m->cpu_ns = cpu_now_ns();
}

void pp_crypto_pass(struct pp_crypto_load *l, const struct pp_crypto_mark *m)
{
	unsigned int i = l->passes % PP_CRYPTO_PASSES;

	l->cpu_ns[i] = (double)(cpu_now_ns() - m->cpu_ns);
	l->wall_ns[i] = (double)(pp_now_ns() - m->wall_ns);
	l->passes++;
}

void pp_crypto_fold(const struct pp_crypto_load *l, unsigned int n, double *cpu,
		    double *wall)
{
	unsigned int i;

	if (n > l->passes || n > PP_CRYPTO_PASSES)
		n = l->passes < PP_CRYPTO_PASSES ? l->passes : PP_CRYPTO_PASSES;
	for (i = 0; i < n; i++) {
		unsigned int p = (l->passes - n + i) % PP_CRYPTO_PASSES;

		cpu[i] += l->cpu_ns[p];
		wall[i] += l->wall_ns[p];
	}
}

/* One block size: sample, convert to KB/s, report; add to the CPU load. */
static int measure(struct pp_ctx *ctx, struct pp_crypto_run *run,
		   const struct pp_crypto_alg *a, pp_loop_fn fn, void *job,
		   unsigned int size)
{
	const struct pp_timing_opts to = { .no_overhead = true };
	double v[PP_MAX_SAMPLES];
	char key[PP_KEY_MAX];
	unsigned int i;
	int ret;

	snprintf(key, sizeof(key), "%s-%s-%u", run->prefix, a->name, size);
	ret = pp_sample(ctx, fn, job, &to, &run->s);
	if (ret)
		return pp_fail(ctx, "%s: %s", key, strerror(-ret));
	pp_crypto_fold(&run->load, run->s.n, run->cpu, run->wall);
	/* ns per block -> 1000s of bytes per second */
	for (i = 0; i < run->s.n; i++)
		v[i] = (double)size * 1e6 / run->s.ns_per_op[i];
	return pp_report(ctx, key, v, run->s.n, run->s.iters);
}

int pp_crypto_time_sizes(struct pp_ctx *ctx, struct pp_crypto_run *run,
			 const struct pp_crypto_alg *a, pp_loop_fn fn, void *job,
			 size_t *len)
{
	double v[PP_MAX_SAMPLES];
	char key[PP_KEY_MAX];
	unsigned int i;

	memset(run->cpu, 0, sizeof(run->cpu));
	memset(run->wall, 0, sizeof(run->wall));
	for (i = 0; i < pp_crypto_nsizes; i++) {
		*len = pp_crypto_sizes[i];
		if (measure(ctx, run, a, fn, job, pp_crypto_sizes[i]))
			return -1;
	}
	snprintf(key, sizeof(key), "%s-%s-cpu_load", run->prefix, a->name);
	for (i = 0; i < run->s.n; i++)
		v[i] = run->wall[i] > 0 ? 100.0 * run->cpu[i] / run->wall[i] : 0;
	return pp_report(ctx, key, v, run->s.n, 0);
}

void pp_crypto_skip_alg(struct pp_ctx *ctx, const struct pp_crypto_run *run,
			const struct pp_crypto_alg *a, const char *why)
{
	char key[PP_KEY_MAX];
	unsigned int i;

	for (i = 0; i < pp_crypto_nsizes; i++) {
		snprintf(key, sizeof(key), "%s-%s-%u", run->prefix, a->name, pp_crypto_sizes[i]);
		pp_skip(ctx, key, "%s", why);
	}
	snprintf(key, sizeof(key), "%s-%s-cpu_load", run->prefix, a->name);
	pp_skip(ctx, key, "%s", why);
}

/* "key      : value" -> value, or NULL when line is not that key. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
		return NULL;
	line += n;
	line += strspn(line, " \t");
	if (*line != ':')
		return NULL;
	line++;
	return line + strspn(line, " \t");
}

/* One /proc/crypto entry, fields as text. */
struct entry {
	char name[128];
	struct pp_crypto_driver d;
	bool internal, have_prio;
};

static void copy_value(char *dst, size_t size, const char *v, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, v, len);
	dst[len] = '\0';
}

static void parse_line(struct entry *e, const char *line, size_t len)
{
	const char *v;
	char buf[256];

	copy_value(buf, sizeof(buf), line, len);
	if ((v = field(buf, "name")))
		pp_strlcpy(e->name, v, sizeof(e->name));
	else if ((v = field(buf, "driver")))
		pp_strlcpy(e->d.driver, v, sizeof(e->d.driver));
	else if ((v = field(buf, "module")))
		pp_strlcpy(e->d.module, v, sizeof(e->d.module));
	else if ((v = field(buf, "type")))
		pp_strlcpy(e->d.type, v, sizeof(e->d.type));
	else if ((v = field(buf, "internal")))
		e->internal = !strcmp(v, "yes");
	else if ((v = field(buf, "priority"))) {
		e->d.priority = atoi(v);
		e->have_prio = true;
	}
}

static void consider(const struct entry *e, const char *name,
		     struct pp_crypto_driver *best, bool *found)
{
	if (strcmp(e->name, name) || e->internal || !e->have_prio || !e->d.driver[0])
		return;
	if (!*found || e->d.priority > best->priority)
		*best = e->d;
	*found = true;
}

int pp_crypto_find_driver(const char *text, const char *name,
			  struct pp_crypto_driver *d)
{
	struct entry e;
	bool found = false;
	const char *p = text;

	memset(&e, 0, sizeof(e));
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len == 0) {		/* a blank line ends an entry */
			consider(&e, name, d, &found);
			memset(&e, 0, sizeof(e));
		} else {
			parse_line(&e, p, len);
		}
		p += len;
		if (*p)
			p++;
	}
	consider(&e, name, d, &found);
	return found ? 0 : -ENOENT;
}

int pp_crypto_kernel_driver(const char *name, struct pp_crypto_driver *d)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int fd, ret;

	if (!buf)
		return -ENOMEM;
	fd = open("/proc/crypto", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				ret = -ENOMEM;
				goto out_close;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_close;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	ret = pp_crypto_find_driver(buf, name, d);
out_close:
	close(fd);
out:
	free(buf);
	return ret;
}
