// SPDX-License-Identifier: GPL-2.0
/*
 * lat_ops: latency of basic arithmetic, as lmbench's lat_ops.
 *
 * Each operation runs as a chain in which every result is the next
 * operand, so one operation cannot start before the one before it ends:
 * the time per operation is its latency, not its throughput.  The chains
 * are lmbench's, with its operands and counts:
 *
 *   bit    r ^= i; s ^= r; r |= s              3 operations
 *   add    a += b; b -= a                       2 operations
 *   mul    10 x (r *= s), then r -= t, twice   20 multiplies, less 2 adds
 *   div    r = s / r                            1 division
 *   mod    r %= s; r |= s                       1 modulo, less 1 add
 *   float and double:
 *   add    10 x (f += f), then f += g, twice   22 additions
 *   mul    f *= f; f *= g                       2 multiplies
 *   div    10 x (f = g / f), 10 x (g = f / g)  1 division each
 *
 * t = r * s^10 - r brings r back after ten multiplies and g = -1023 after
 * ten doublings, so the values never overflow or vanish.  As lmbench,
 * mul and mod subtract the helper operation's time: int's add, int64's
 * bit.
 *
 * lmbench's C lets a modern compiler fold the chains (a += b; b -= a is
 * (a + b, -a)); here an empty asm after every operation makes its result
 * opaque, so the compiler emits each operation and nothing else.  The
 * generated code is checked in Documentation/bench/lat_ops.rst.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Hide a value from the optimiser, in the register it lives in. */
#define OPAQUE(x)	__asm__("" : "+r"(x))
#if defined(__x86_64__) || defined(__i386__)
#define OPAQUE_FP(x)	__asm__("" : "+x"(x))
#elif defined(__aarch64__) || defined(__arm__)
#define OPAQUE_FP(x)	__asm__("" : "+w"(x))
#else
/* No algebra on floating point without -ffast-math: nothing to hide. */
#define OPAQUE_FP(x)	do { } while (0)
#endif

#define X5(a)		a a a a a
#define X10(a)		X5(a) X5(a)
#define X100(a)		X10(X10(a))

/* Operands come from here at run time: nothing is a constant. */
struct ops_seed {
	int n;		/* 1 */
	int k;		/* -1023 */
	int m;		/* 1000 */
};

static volatile int64_t sink;

static struct ops_seed seed = { .n = 1, .k = -1023, .m = 1000 };

static __noinline int do_int_bit(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	unsigned int r = (unsigned int)o->n, s = (unsigned int)it;

	while (it-- > 0) {
		unsigned int i = (unsigned int)it;

		X100(r ^= i; OPAQUE(r); s ^= r; OPAQUE(s); r |= s; OPAQUE(r);)
	}
	sink = r;
	return 0;
}

static __noinline int do_int_add(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	unsigned int a = (unsigned int)o->n + 57, b = (unsigned int)o->n + 31;

	while (it-- > 0) {
		X100(a += b; OPAQUE(a); b -= a; OPAQUE(b);)
	}
	sink = a + b;
	return 0;
}

static __noinline int do_int_mul(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	unsigned int r = (unsigned int)o->n + 37431, s = (unsigned int)o->n + 4;
	unsigned int t = r * s * s * s * s * s * s * s * s * s * s - r;

	while (it-- > 0) {
		X10(r *= s; OPAQUE(r);) r -= t; OPAQUE(r);
		X10(r *= s; OPAQUE(r);) r -= t; OPAQUE(r);
	}
	sink = r;
	return 0;
}

static __noinline int do_int_div(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	int r = o->n + 36, s = (r + 1) << 20;

	while (it-- > 0) {
		X100(r = s / r; OPAQUE(r);)
	}
	sink = r;
	return 0;
}

static __noinline int do_int_mod(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	int r = o->n + 7, s = o->n + 62;

	while (it-- > 0) {
		X100(r %= s; OPAQUE(r); r |= s; OPAQUE(r);)
	}
	sink = r;
	return 0;
}

static __noinline int do_int64_bit(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	uint64_t r = (uint64_t)o->n | (uint64_t)o->n << 32, s = it | it << 32;
	uint64_t i = it << 33;

	while (it-- > 0) {
		X100(r ^= i; OPAQUE(r); s ^= r; OPAQUE(s); r |= s; OPAQUE(r);)
		i--;
	}
	sink = (int64_t)r;
	return 0;
}

static __noinline int do_int64_add(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	uint64_t a = (uint64_t)o->n + 37420 + ((uint64_t)(0xfe + o->n) << 30);
	uint64_t b = (uint64_t)o->n + 21698324 + ((uint64_t)(0xfffe + o->n) << 29);

	while (it-- > 0) {
		X100(a += b; OPAQUE(a); b -= a; OPAQUE(b);)
	}
	sink = (int64_t)(a + b);
	return 0;
}

static __noinline int do_int64_mul(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	uint64_t r = (uint64_t)o->n + 37420 + ((uint64_t)(o->n + 6) << 32);
	uint64_t s = (uint64_t)o->n + 4;
	uint64_t t = r * s * s * s * s * s * s * s * s * s * s - r;

	while (it-- > 0) {
		X10(r *= s; OPAQUE(r);) r -= t; OPAQUE(r);
		X10(r *= s; OPAQUE(r);) r -= t; OPAQUE(r);
	}
	sink = (int64_t)r;
	return 0;
}

static __noinline int do_int64_div(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	int64_t r = o->n + 36, s;

	r += r << 33;
	s = (r + 17) << 13;
	while (it-- > 0) {
		X100(r = s / r; OPAQUE(r);)
	}
	sink = r;
	return 0;
}

static __noinline int do_int64_mod(uint64_t it, void *arg)
{
	const struct ops_seed *o = arg;
	int64_t r = (int64_t)(o->n + 2) << 32, s = (int64_t)(o->n + 1) << 56;

	while (it-- > 0) {
		X100(r %= s; OPAQUE(r); r |= s; OPAQUE(r);)
	}
	sink = r;
	return 0;
}

#define FP_OPS(type, name)							\
static __noinline int do_##name##_add(uint64_t it, void *arg)			\
{										\
	const struct ops_seed *o = arg;						\
	type f = (type)o->n, g = (type)o->k;					\
										\
	while (it-- > 0) {							\
		X10(f += f; OPAQUE_FP(f);) f += g; OPAQUE_FP(f);		\
		X10(f += f; OPAQUE_FP(f);) f += g; OPAQUE_FP(f);		\
	}									\
	sink = (int64_t)f;							\
	return 0;								\
}										\
										\
static __noinline int do_##name##_mul(uint64_t it, void *arg)			\
{										\
	const struct ops_seed *o = arg;						\
	type f = (type)8 * (type)o->n, g = (type)0.125 * (type)o->m / (type)1000; \
										\
	while (it-- > 0) {							\
		X10(f *= f; OPAQUE_FP(f); f *= g; OPAQUE_FP(f);)		\
		X10(f *= f; OPAQUE_FP(f); f *= g; OPAQUE_FP(f);)		\
	}									\
	sink = (int64_t)f;							\
	return 0;								\
}										\
										\
static __noinline int do_##name##_div(uint64_t it, void *arg)			\
{										\
	const struct ops_seed *o = arg;						\
	type f = (type)1.41421356 * (type)o->n;					\
	type g = (type)3.14159265 * (type)o->m / (type)1000;			\
										\
	while (it-- > 0) {							\
		X5(X10(f = g / f; OPAQUE_FP(f);) X10(g = f / g; OPAQUE_FP(g);)) \
	}									\
	sink = (int64_t)(f + g);						\
	return 0;								\
}

FP_OPS(float, float)
FP_OPS(double, double)

enum { HELPER_NONE = -1 };

struct op {
	const char *key;
	pp_loop_fn fn;
	unsigned int ops;		/* operations per loop iteration */
	int helper;			/* index of the op whose time is taken out */
	unsigned int nhelper;		/* helper operations per iteration */
};

/* In run order: a helper runs before the ops that subtract it. */
static const struct op ops[] = {
	{ "lat_ops-int-bit", do_int_bit, 300, HELPER_NONE, 0 },
	{ "lat_ops-int-add", do_int_add, 200, HELPER_NONE, 0 },
	{ "lat_ops-int-mul", do_int_mul, 20, 1, 2 },
	{ "lat_ops-int-div", do_int_div, 100, HELPER_NONE, 0 },
	{ "lat_ops-int-mod", do_int_mod, 100, 1, 100 },
	{ "lat_ops-int64-bit", do_int64_bit, 300, HELPER_NONE, 0 },
	{ "lat_ops-int64-add", do_int64_add, 200, HELPER_NONE, 0 },
	{ "lat_ops-int64-mul", do_int64_mul, 20, 5, 2 },
	{ "lat_ops-int64-div", do_int64_div, 100, HELPER_NONE, 0 },
	{ "lat_ops-int64-mod", do_int64_mod, 100, 5, 100 },
	{ "lat_ops-float-add", do_float_add, 22, HELPER_NONE, 0 },
	{ "lat_ops-float-mul", do_float_mul, 40, HELPER_NONE, 0 },
	{ "lat_ops-float-div", do_float_div, 100, HELPER_NONE, 0 },
	{ "lat_ops-double-add", do_double_add, 22, HELPER_NONE, 0 },
	{ "lat_ops-double-mul", do_double_mul, 40, HELPER_NONE, 0 },
	{ "lat_ops-double-div", do_double_div, 100, HELPER_NONE, 0 },
};

struct op_job {
	const struct op *op;
	double extra;			/* the helper's ns per iteration */
};

static int measure_op(struct pp_ctx *ctx, void *arg, unsigned int attempt,
		      struct pp_sampling *s, double *overhead_ns)
{
	const struct op_job *j = arg;
	struct pp_timing_opts to = { .no_overhead = true };

	(void)attempt;
	*overhead_ns = j->extra;
	return pp_sample(ctx, j->op->fn, &seed, &to, s);
}

/* Measure one op; samples become ns per op, less the helper's share. */
static int run_op(struct pp_ctx *ctx, const struct op *op, const double *helper_ns,
		  struct pp_sampling *s, double *ns_per_op)
{
	struct op_job j = { op, 0 };
	int ret;

	*ns_per_op = NAN;
	if (op->helper != HELPER_NONE) {
		if (isnan(helper_ns[op->helper]))
			return pp_skip(ctx, op->key, "%s, taken out of it, was skipped",
				       ops[op->helper].key);
		j.extra = op->nhelper * helper_ns[op->helper];
	}
	ret = pp_sample_net(ctx, op->key, measure_op, &j, op->ops, s);
	if (ret)
		return ret;
	s->iters *= op->ops;
	*ns_per_op = pp_median(s->ns_per_op, s->n);
	return pp_report_sampling(ctx, op->key, s);
}

static int lat_ops_run(struct pp_ctx *ctx)
{
	struct pp_sampling *s = malloc(sizeof(*s));
	double ns[ARRAY_SIZE(ops)];
	unsigned int i;
	int ret = 0;

	if (!s)
		return pp_fail(ctx, "lat_ops: out of memory");
	for (i = 0; i < ARRAY_SIZE(ops) && ret >= 0; i++)
		ret |= run_op(ctx, &ops[i], ns, s, &ns[i]);
	free(s);
	return ret;
}

static const struct pp_key_decl keys[] = {
	{ .pattern = "lat_ops-%s-%s", .unit = "ns", .dir = PP_LOWER_IS_BETTER,
	  .desc = "one operation (bit add mul div mod) of a type (int int64 float double)",
	  .show = PP_SHOW({ .key = "lat_ops-int-bit", .table = "ops-int", .lm_col = 1 },
		  { .key = "lat_ops-int-bit", .lm_line = "integer bit:" },
		  { .key = "lat_ops-int-add", .table = "ops-int", .lm_col = 2 },
		  { .key = "lat_ops-int-add", .lm_line = "integer add:" },
		  { .key = "lat_ops-int-mul", .table = "ops-int", .lm_col = 3 },
		  { .key = "lat_ops-int-mul", .lm_line = "integer mul:" },
		  { .key = "lat_ops-int-div", .table = "ops-int", .lm_col = 4 },
		  { .key = "lat_ops-int-div", .lm_line = "integer div:" },
		  { .key = "lat_ops-int-mod", .table = "ops-int", .lm_col = 5 },
		  { .key = "lat_ops-int-mod", .lm_line = "integer mod:" },
		  { .key = "lat_ops-int64-bit", .table = "ops-int64", .lm_col = 1 },
		  { .key = "lat_ops-int64-bit", .lm_line = "int64 bit:" },
		  { .key = "lat_ops-int64-bit", .lm_line = "uint64 bit:" },
		  { .key = "lat_ops-int64-add", .table = "ops-int64", .lm_col = 2 },
		  { .key = "lat_ops-int64-add", .lm_line = "int64 add:" },
		  { .key = "lat_ops-int64-add", .lm_line = "uint64 add:" },
		  { .key = "lat_ops-int64-mul", .table = "ops-int64", .lm_col = 3 },
		  { .key = "lat_ops-int64-mul", .lm_line = "int64 mul:" },
		  { .key = "lat_ops-int64-mul", .lm_line = "uint64 mul:" },
		  { .key = "lat_ops-int64-div", .table = "ops-int64", .lm_col = 4 },
		  { .key = "lat_ops-int64-div", .lm_line = "int64 div:" },
		  { .key = "lat_ops-int64-div", .lm_line = "uint64 div:" },
		  { .key = "lat_ops-int64-mod", .table = "ops-int64", .lm_col = 5 },
		  { .key = "lat_ops-int64-mod", .lm_line = "int64 mod:" },
		  { .key = "lat_ops-int64-mod", .lm_line = "uint64 mod:" },
		  { .key = "lat_ops-float-add", .table = "ops-float", .lm_col = 1 },
		  { .key = "lat_ops-float-add", .lm_line = "float add:" },
		  { .key = "lat_ops-float-mul", .table = "ops-float", .lm_col = 2 },
		  { .key = "lat_ops-float-mul", .lm_line = "float mul:" },
		  { .key = "lat_ops-float-div", .table = "ops-float", .lm_col = 3 },
		  { .key = "lat_ops-float-div", .lm_line = "float div:" },
		  { .key = "lat_ops-double-add", .table = "ops-double", .lm_col = 1 },
		  { .key = "lat_ops-double-add", .lm_line = "double add:" },
		  { .key = "lat_ops-double-mul", .table = "ops-double", .lm_col = 2 },
		  { .key = "lat_ops-double-mul", .lm_line = "double mul:" },
		  { .key = "lat_ops-double-div", .table = "ops-double", .lm_col = 3 },
		  { .key = "lat_ops-double-div", .lm_line = "double div:" }) },
	PP_KEYS_END
};

const struct pp_bench pp_bench_lat_ops = {
	.name = "lat_ops",
	.group = "ops",
	.summary = "latency of int, int64, float, double add/mul/div/mod/bit (ns)",
	.keys = keys,
	.run = lat_ops_run,
};
