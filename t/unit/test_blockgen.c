/*
 * test_blockgen.c - the offsets a pass hands out: sequential with a short
 * tail, and random orders that are permutations, new each pass and seed,
 * and the same again for the same seed and pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ioengines/blockgen.h"

static void test_sequential(void **state)
{
	struct blockgen g;
	uint64_t off;
	size_t len;

	(void)state;
	blockgen_init(&g, 1000, 10 * 4096 + 100, 4096, false, 7);
	assert_int_equal(g.nblocks, 11);
	blockgen_rewind(&g);
	for (uint64_t i = 0; i < 10; i++) {
		assert_int_equal(blockgen_next(&g, &off, &len), 1);
		assert_int_equal(off, 1000 + i * 4096);
		assert_int_equal(len, 4096);
	}
	assert_int_equal(blockgen_next(&g, &off, &len), 1);
	assert_int_equal(off, 1000 + 10 * 4096);
	assert_int_equal(len, 100);
	assert_int_equal(blockgen_next(&g, &off, &len), 0);
	assert_int_equal(blockgen_next(&g, &off, &len), 0);

	/* A new pass starts from the beginning again. */
	blockgen_rewind(&g);
	assert_int_equal(g.pass, 1);
	assert_int_equal(blockgen_next(&g, &off, &len), 1);
	assert_int_equal(off, 1000);
}

static void test_exact_division(void)
{
	struct blockgen g;
	uint64_t off;
	size_t len, n = 0;

	blockgen_init(&g, 0, 64 * 1024, 16 * 1024, false, 1);
	blockgen_rewind(&g);
	while (blockgen_next(&g, &off, &len)) {
		assert_int_equal(len, 16 * 1024);
		n++;
	}
	assert_int_equal(n, 4);
}

static void test_sizes(void **state)
{
	struct blockgen g;
	uint64_t off;
	size_t len;

	(void)state;
	test_exact_division();

	/* size 0: no blocks, in either order, in any pass. */
	for (int r = 0; r < 2; r++) {
		blockgen_init(&g, 4096, 0, 4096, r, 3);
		assert_int_equal(g.nblocks, 0);
		for (int pass = 0; pass < 3; pass++) {
			blockgen_rewind(&g);
			assert_int_equal(blockgen_next(&g, &off, &len), 0);
		}
	}

	/* Smaller than a block: one short block. */
	blockgen_init(&g, 0, 10, 4096, true, 3);
	blockgen_rewind(&g);
	assert_int_equal(blockgen_next(&g, &off, &len), 1);
	assert_int_equal(off, 0);
	assert_int_equal(len, 10);
	assert_int_equal(blockgen_next(&g, &off, &len), 0);
}

/* Every block once, in the order blockgen_next gives them. */
static void check_permutation(uint64_t nblocks, uint64_t seed, uint64_t passes)
{
	unsigned char *seen = calloc(nblocks, 1);
	uint64_t bs = 512, size = nblocks * bs - (nblocks > 1 ? 17 : 0);
	struct blockgen g;
	uint64_t off, total;
	size_t len;

	assert_non_null(seen);
	blockgen_init(&g, 1 << 20, size, bs, true, seed);
	assert_int_equal(g.nblocks, nblocks);
	for (uint64_t pass = 0; pass < passes; pass++) {
		blockgen_rewind(&g);
		memset(seen, 0, nblocks);
		total = 0;
		for (uint64_t i = 0; i < nblocks; i++) {
			uint64_t blk;

			assert_int_equal(blockgen_next(&g, &off, &len), 1);
			assert_true(off >= (1 << 20));
			assert_int_equal((off - (1 << 20)) % bs, 0);
			blk = (off - (1 << 20)) / bs;
			assert_true(blk < nblocks);
			assert_int_equal(seen[blk], 0);
			seen[blk] = 1;
			/* Only the last block of the range is short. */
			assert_int_equal(len, blk == nblocks - 1 ? size - blk * bs : bs);
			total += len;
		}
		assert_int_equal(blockgen_next(&g, &off, &len), 0);
		assert_int_equal(total, size);
	}
	free(seen);
}

static void test_random_is_permutation(void **state)
{
	static const uint64_t counts[] = {
		1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 100, 255, 256, 257, 1000,
		4095, 4097, 65536, 65537, 300000,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (uint64_t seed = 0; seed < 3; seed++)
			check_permutation(counts[i], seed * 0x1234567 + 1, 3);
}

/* blockgen_permute() must be a bijection on [0, n) for huge n too. */
static void test_permute_large(void **state)
{
	struct blockgen g;
	uint64_t n = (1ULL << 40) + 12345;

	(void)state;
	blockgen_init(&g, 0, n * 4096, 4096, true, 99);
	assert_int_equal(g.nblocks, n);
	assert_int_equal(g.half_bits, 21);
	blockgen_rewind(&g);
	for (uint64_t i = 0; i < 100000; i++) {
		uint64_t x = blockgen_permute(&g, i * 10995116);

		assert_true(x < n);
	}
	/* The full 64-bit domain (bs 1 over 2^63 bytes) must work as well. */
	blockgen_init(&g, 0, 1ULL << 63, 1, true, 5);
	assert_int_equal(g.half_bits, 32);
	blockgen_rewind(&g);
	for (uint64_t i = 0; i < 1000; i++)
		assert_true(blockgen_permute(&g, i) < (1ULL << 63));
}

static void collect(struct blockgen *g, uint64_t *order)
{
	uint64_t off;
	size_t len, i = 0;

	while (blockgen_next(g, &off, &len))
		order[i++] = off;
	assert_int_equal(i, g->nblocks);
}

static void test_random_orders(void **state)
{
	enum { N = 1000 };
	uint64_t a[N], b[N], c[N], d[N], seq[N];
	struct blockgen g, h;

	(void)state;
	for (uint64_t i = 0; i < N; i++)
		seq[i] = i * 4096;

	blockgen_init(&g, 0, N * 4096, 4096, true, 42);
	blockgen_rewind(&g);
	collect(&g, a);			/* seed 42, pass 0 */
	blockgen_rewind(&g);
	collect(&g, b);			/* seed 42, pass 1 */
	assert_memory_not_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, seq, sizeof(a));

	blockgen_init(&h, 0, N * 4096, 4096, true, 43);
	blockgen_rewind(&h);
	collect(&h, c);			/* seed 43, pass 0 */
	assert_memory_not_equal(a, c, sizeof(a));

	/* Same seed, same pass: the same order, also without a rewind. */
	blockgen_init(&h, 0, N * 4096, 4096, true, 42);
	collect(&h, d);
	assert_memory_equal(a, d, sizeof(a));
	blockgen_rewind(&h);
	collect(&h, d);
	assert_memory_equal(a, d, sizeof(a));
	blockgen_rewind(&h);
	collect(&h, d);
	assert_memory_equal(b, d, sizeof(b));

	/* Sequential ignores the seed and the pass. */
	blockgen_init(&g, 0, N * 4096, 4096, false, 42);
	blockgen_rewind(&g);
	blockgen_rewind(&g);
	collect(&g, d);
	assert_memory_equal(seq, d, sizeof(seq));
}

/* A random order should not keep many blocks in place or in sequence. */
static void test_random_looks_random(void **state)
{
	enum { N = 65537 };
	struct blockgen g;
	uint64_t fixed = 0, ascending = 0, prev = 0;

	(void)state;
	blockgen_init(&g, 0, N, 1, true, 1);
	blockgen_rewind(&g);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t x = blockgen_permute(&g, i);

		fixed += x == i;
		ascending += i && x == prev + 1;
		prev = x;
	}
	/* A uniform permutation has about 1 of each. */
	assert_true(fixed < 20);
	assert_true(ascending < 20);
}


/* fio's rw=read:SKIP: blocks at multiples of bs + SKIP, the last short. */
static void test_fio_skip(void **state)
{
	struct blockgen g;
	uint64_t off;
	size_t len;
	unsigned n = 0;

	(void)state;
	blockgen_init(&g, 100, 40, 4, false, 1);
	blockgen_set_fio(&g, 8, 0, false);
	blockgen_rewind(&g);
	while (blockgen_next(&g, &off, &len)) {
		assert_int_equal(off, 100 + 12 * n);
		assert_int_equal(len, n == 3 ? 4 : 4);
		n++;
	}
	assert_int_equal(n, 4);		/* 0, 12, 24, 36 */
	blockgen_init(&g, 0, 38, 4, false, 1);
	blockgen_set_fio(&g, 8, 0, false);
	blockgen_rewind(&g);
	for (n = 0; blockgen_next(&g, &off, &len); n++)
		if (off == 36)
			assert_int_equal(len, 2);
	assert_int_equal(n, 4);
}

/* rw=randread:RUN: every block once, RUN in a row from each place. */
static void test_fio_runs(void **state)
{
	struct blockgen g;
	uint64_t off, prev = 0;
	size_t len;
	unsigned seen[103] = { 0 }, n = 0;

	(void)state;
	blockgen_init(&g, 0, 103 * 512, 512, true, 7);
	blockgen_set_fio(&g, 0, 4, false);
	blockgen_rewind(&g);
	while (blockgen_next(&g, &off, &len)) {
		uint64_t b = off / 512;

		assert_true(b < 103);
		seen[b]++;
		if (b % 4)	/* inside a run: right after its neighbour */
			assert_int_equal(b, prev + 1);
		prev = b;
		n++;
	}
	assert_int_equal(n, 103);
	for (unsigned i = 0; i < 103; i++)
		assert_int_equal(seen[i], 1);
}

/* norandommap: as many blocks as the region, some of them twice. */
static void test_fio_repeats(void **state)
{
	struct blockgen g;
	uint64_t off;
	size_t len;
	unsigned seen[256] = { 0 }, n = 0, twice = 0;

	(void)state;
	blockgen_init(&g, 0, 256 * 4096, 4096, true, 3);
	blockgen_set_fio(&g, 0, 0, true);
	blockgen_rewind(&g);
	while (blockgen_next(&g, &off, &len)) {
		assert_true(off / 4096 < 256);
		twice += ++seen[off / 4096] == 2;
		n++;
	}
	assert_int_equal(n, 256);
	assert_true(twice > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_random_is_permutation),
		cmocka_unit_test(test_permute_large),
		cmocka_unit_test(test_random_orders),
		cmocka_unit_test(test_random_looks_random),
		cmocka_unit_test(test_fio_skip),
		cmocka_unit_test(test_fio_runs),
		cmocka_unit_test(test_fio_repeats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
