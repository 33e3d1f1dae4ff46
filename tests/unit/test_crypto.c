// SPDX-License-Identifier: GPL-2.0
/* The crypto group's helpers: hex, known answers, CPU load, /proc/crypto. */
#include <errno.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "benchlib/crypto_alg.h"
#include "results.h"

/* The summary's matrix rows and columns are the algorithms and sizes, as text. */
static void test_summary_names(void **state)
{
	char size[16];
	unsigned int i;

	(void)state;
	for (i = 0; i < pp_crypto_nalgs; i++)
		assert_string_equal(pp_crypto_rows[i], pp_crypto_algs[i].name);
	assert_null(pp_crypto_rows[i]);
	for (i = 0; i < pp_crypto_nsizes; i++) {
		snprintf(size, sizeof(size), "%u", pp_crypto_sizes[i]);
		assert_string_equal(pp_crypto_cols[i], size);
	}
	assert_null(pp_crypto_cols[i]);
}

static void test_hex(void **state)
{
	uint8_t b[4];
	char s[9];

	(void)state;
	assert_int_equal(pp_crypto_unhex("00ff7Aa5", b, sizeof(b)), 4);
	assert_true(b[0] == 0x00 && b[1] == 0xff && b[2] == 0x7a && b[3] == 0xa5);
	assert_int_equal(pp_crypto_unhex("abc", b, sizeof(b)), -1);
	assert_int_equal(pp_crypto_unhex("zz", b, sizeof(b)), -1);
	assert_int_equal(pp_crypto_unhex("0011223344", b, sizeof(b)), -1);
	pp_crypto_hex(b, 4, s, sizeof(s));
	assert_string_equal(s, "00ff7aa5");
}

/* Every vector decodes, has the sizes of its algorithm, and a source. */
static void test_vectors(void **state)
{
	unsigned int i;

	(void)state;
	unsetenv(PP_CRYPTO_BREAK_ENV);
	assert_int_equal(pp_crypto_nalgs, 11);
	for (i = 0; i < pp_crypto_nalgs; i++) {
		const struct pp_crypto_alg *a = &pp_crypto_algs[i];
		struct pp_crypto_kat_buf k;
		char msg[256];

		assert_int_equal(pp_crypto_kat_load(a, &k), 0);
		assert_false(k.broken);
		assert_non_null(a->kat.source);
		if (a->kind == PP_CRYPTO_CIPHER) {
			assert_int_equal(k.in_len, k.out_len);
			assert_int_equal(k.in_len % 8, 0);
			assert_true(k.iv_len == 8 || k.iv_len == 16);
		}
		assert_int_equal(pp_crypto_kat_check(&k, k.out, (size_t)k.out_len, msg,
						     sizeof(msg)), 0);
	}
}

static void test_break(void **state)
{
	const struct pp_crypto_alg *md5 = NULL, *sha1 = NULL;
	struct pp_crypto_kat_buf k;
	unsigned int i;
	char msg[256];

	(void)state;
	for (i = 0; i < pp_crypto_nalgs; i++) {
		if (!strcmp(pp_crypto_algs[i].name, "md5"))
			md5 = &pp_crypto_algs[i];
		if (!strcmp(pp_crypto_algs[i].name, "sha1"))
			sha1 = &pp_crypto_algs[i];
	}
	assert_non_null(md5);
	assert_non_null(sha1);
	setenv(PP_CRYPTO_BREAK_ENV, "des3,md5", 1);
	assert_int_equal(pp_crypto_kat_load(md5, &k), 0);
	assert_true(k.broken && k.in[0] == ('a' ^ 1));
	assert_int_equal(pp_crypto_kat_load(sha1, &k), 0);
	assert_false(k.broken);
	setenv(PP_CRYPTO_BREAK_ENV, "all", 1);
	assert_int_equal(pp_crypto_kat_load(sha1, &k), 0);
	assert_true(k.broken);
	/* a wrong answer: the message names both */
	k.out[0] ^= 0xff;
	assert_int_equal(pp_crypto_kat_check(&k, k.in, 3, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "got 606263, want"));
	unsetenv(PP_CRYPTO_BREAK_ENV);
}

static void test_fold(void **state)
{
	struct pp_crypto_load *l = calloc(1, sizeof(*l));
	double cpu[3] = { 0 }, wall[3] = { 0 };
	unsigned int i;

	(void)state;
	assert_non_null(l);
	/* 2000 passes wrap the ring; the last three are 1997..1999 */
	for (i = 0; i < 2000; i++) {
		l->cpu_ns[l->passes % PP_CRYPTO_PASSES] = i;
		l->wall_ns[l->passes % PP_CRYPTO_PASSES] = 2.0 * i;
		l->passes++;
	}
	pp_crypto_fold(l, 3, cpu, wall);
	pp_crypto_fold(l, 3, cpu, wall);
	assert_true(cpu[0] == 2 * 1997.0 && cpu[2] == 2 * 1999.0);
	assert_true(wall[1] == 4 * 1998.0);
	free(l);
}

static const char proc_crypto[] =
	"name         : cbc(aes)\n"
	"driver       : cbc(aes-generic)\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"type         : skcipher\n"
	"\n"
	"name         : __cbc(aes)\n"
	"driver       : __cbc-aes-aesni\n"
	"module       : aesni_intel\n"
	"priority     : 400\n"
	"internal     : yes\n"
	"type         : skcipher\n"
	"\n"
	"name         : cbc(aes)\n"
	"driver       : cbc-aes-aesni\n"
	"module       : aesni_intel\n"
	"priority     : 400\n"
	"internal     : no\n"
	"type         : skcipher\n"
	"\n"
	"name         : cbc(aes)\n"
	"driver       : cryptd(__cbc-aes-aesni)\n"
	"module       : cryptd\n"
	"priority     : 450\n"
	"internal     : yes\n"
	"type         : skcipher\n"
	"\n"
	"name         : sha256\n"
	"driver       : sha256-generic\n"
	"module       : kernel\n"
	"priority     : 100\n"
	"type         : shash";

static void test_driver(void **state)
{
	struct pp_crypto_driver d;

	(void)state;
	assert_int_equal(pp_crypto_find_driver(proc_crypto, "cbc(aes)", &d), 0);
	assert_string_equal(d.driver, "cbc-aes-aesni");
	assert_string_equal(d.module, "aesni_intel");
	assert_int_equal(d.priority, 400);
	/* the last entry has no blank line after it */
	assert_int_equal(pp_crypto_find_driver(proc_crypto, "sha256", &d), 0);
	assert_string_equal(d.driver, "sha256-generic");
	assert_string_equal(d.type, "shash");
	assert_int_equal(pp_crypto_find_driver(proc_crypto, "md5", &d), -ENOENT);
	assert_int_equal(pp_crypto_find_driver(proc_crypto, "cbc", &d), -ENOENT);
}

/* The driver info survives a save and a load; absent infos stay absent. */
static void test_info_roundtrip(void **state)
{
	char dir[] = "/tmp/pp-unit-crypto.XXXXXX", path[64], err[256];
	const double v[] = { 1, 2, 3, 4, 5 };
	struct pp_run run, back;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	pp_run_init(&run);
	assert_non_null(pp_run_add(&run, "crypto-kcapi-md5-16", "KB/s", PP_HIGHER_IS_BETTER, v, 5));
	pp_run_info(&run, "crypto-kcapi-md5-driver", "md5-generic (priority 0, module kernel)");
	assert_int_equal(pp_run_save(&run, path), 0);
	assert_int_equal(pp_run_load(&back, path, err, sizeof(err)), 0);
	assert_int_equal(back.ninfos, 1);
	assert_string_equal(pp_run_find_info(&back, "crypto-kcapi-md5-driver"),
			    "md5-generic (priority 0, module kernel)");
	assert_null(pp_run_find_info(&back, "crypto-kcapi-sha1-driver"));
	pp_run_free(&run);
	pp_run_free(&back);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_names),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_break),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_driver),
		cmocka_unit_test(test_info_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
