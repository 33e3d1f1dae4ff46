/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmarks a test build plants after tools/perfprobe/benches.h's
 * (tests/integration/plant.t): one line each, as there.
 * (No include guard: an X-macro list.)
 */
PP_BENCH(plant_memset)
