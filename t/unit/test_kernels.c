/*
 * test_kernels.c - the compute kernels: every implementation of count
 * gives the reference answer on any length, alignment and value; sum,
 * fill and copy do exactly their job and nothing outside the block; all
 * of it at each vector level the CPU has (isa_levels.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ioengines/filegen.h"
#include "ioengines/ioengine.h"
#include "machine/isa.h"
#include "isa_levels.h"
#include "kernels/kernel.h"
#include "kernel_validate.h"

#define GUARD	0xab

/* xorshift64*, so every run tests the same data. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static void fill_rand(void *buf, size_t n, int32_t lo, int32_t hi, uint64_t seed)
{
	uint64_t s = seed | 1;
	size_t i;

	for (i = 0; i < n; i++) {
		int32_t x = (int32_t)((int64_t)lo +
				      (int64_t)(rnd(&s) % (uint64_t)((int64_t)hi - lo + 1)));

		memcpy((char *)buf + 4 * i, &x, 4);
	}
}

/* 64-byte aligned (aligned_alloc wants the size a multiple of it). */
static void *alloc64(size_t len)
{
	return aligned_alloc(64, (len + 63) / 64 * 64);
}

static int32_t load32(const void *p, size_t i)
{
	int32_t x;

	memcpy(&x, (const char *)p + 4 * i, 4);
	return x;
}

static uint64_t ref_count(const void *buf, size_t len, int32_t v)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < len / 4; i++)
		c += load32(buf, i) == v;
	return c;
}

static uint64_t ref_sum(const void *buf, size_t len)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < len / 4; i++)
		s += (uint64_t)(int64_t)load32(buf, i);
	return s;
}

static const struct kernel_ops *kernel(const char *name)
{
	const struct kernel_ops *k = kernel_find(name);

	assert_non_null(k);
	assert_string_equal(k->name, name);
	return k;
}

static int impl_index(const struct kernel_ops *k, const char *name)
{
	int i;

	for (i = 0; k->impls && k->impls[i]; i++)
		if (strcmp(k->impls[i], name) == 0)
			return i;
	fail_msg("kernel %s has no impl %s", k->name, name);
	return -1;
}

static int count_nimpls(const struct kernel_ops *k)
{
	int n = 0;

	while (k->impls && k->impls[n])
		n++;
	return n;
}

/* One kernel run over one block, as the engine does it. */
static uint64_t run_once(const struct kernel_ops *ops, const struct job_spec *job,
			 int impl, int32_t value, void *buf, size_t len)
{
	struct kstate k = { .job = job, .impl = impl, .value = value };
	uint64_t r;

	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, buf, len);
	r = k.result;
	ops->fini(&k);
	return r;
}

static uint64_t count_with(int impl, int32_t v, void *buf, size_t len)
{
	struct job_spec job = { .rw = RW_READ, .bs = 1 << 20 };

	return run_once(kernel("count"), &job, impl, v, buf, len);
}

/* ---- registry ------------------------------------------------------- */

static void test_registry(void **state)
{
	static const char *const order[] = { "none", "count", "sum", "copy", "fill" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct kernel_ops *k = kernel_registry[i];

		assert_non_null(k);
		assert_string_equal(k->name, order[i]);
		assert_ptr_equal(kernel_find(order[i]), k);
		assert_non_null(k->help);
		assert_non_null(k->run);
		assert_non_null(k->init);
		assert_non_null(k->fini);
		if (k->flags & KERN_RESULT)
			assert_non_null(k->result_name);
		if (k->flags & KERN_INT32)
			assert_non_null(k->validate);
		if (k->impls)
			assert_non_null(k->impls[0]);
	}
	/* later kernels (chase...) follow; names are unique */
	for (; kernel_registry[i]; i++)
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(kernel_registry[k]->name,
						kernel_registry[i]->name);
	assert_null(kernel_find("nope"));
	assert_null(kernel_find(""));
	assert_null(kernel_find(NULL));

	assert_string_equal(kernel("count")->impls[0], "simple");
	assert_string_equal(kernel("count")->result_name, "count");
	assert_int_equal(kernel("count")->flags, KERN_RESULT | KERN_INT32);
	assert_string_equal(kernel("sum")->result_name, "sum");
	assert_int_equal(kernel("fill")->flags, KERN_STORES | KERN_INT32);
	assert_string_equal(kernel("fill")->impls[0], "plain");
	assert_int_equal(impl_index(kernel("fill"), "nt"), 1);
	assert_int_equal(kernel("none")->flags, 0);
}

/* ---- count ---------------------------------------------------------- */

/* A buffer whose count is known without running any loop. */
static void test_count_known(void **state)
{
	const struct kernel_ops *k = kernel("count");
	int32_t *p = malloc(1000 * sizeof(*p));
	int impl, i;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < 1000; i++)
		p[i] = i % 7 == 3 ? 10 : i % 5;		/* 3, 10, ..., 997 */
	for (impl = 0; impl < count_nimpls(k); impl++) {
		assert_int_equal(count_with(impl, 10, p, 4000), 143);
		assert_int_equal(count_with(impl, 4, p, 4000), 172);
		assert_int_equal(count_with(impl, 10, p, 4 * 997), 142);
		assert_int_equal(count_with(impl, 10, p, 4 * 998), 143);
	}
	free(p);
}

/* Every impl against the reference: lengths 0..2 KiB, 32 alignments. */
static void test_count_lengths_alignments(void **state)
{
	const struct kernel_ops *k = kernel("count");
	size_t cap = 20 << 10, off, len;
	unsigned char *base = alloc64(cap + 128);
	int impl;

	(void)state;
	assert_non_null(base);
	fill_rand(base, (cap + 128) / 4, 0, 20, 3);
	for (off = 0; off < 128; off += 4) {
		for (len = 0; len <= 2048; len += 4) {
			uint64_t want = ref_count(base + off, len, 10);

			for (impl = 0; impl < count_nimpls(k); impl++)
				if (count_with(impl, 10, base + off, len) != want)
					fail_msg("impl %s off %zu len %zu: got %llu, want %llu",
						 k->impls[impl], off, len,
						 (unsigned long long)count_with(impl, 10, base + off, len),
						 (unsigned long long)want);
		}
	}
	/* Longer blocks, odd multiples of 4, a few alignments. */
	for (off = 0; off < 128; off += 28) {
		for (len = 2052; len + off <= cap; len += 4 * 331) {
			uint64_t want = ref_count(base + off, len, 10);

			assert_true(want > 0);
			for (impl = 0; impl < count_nimpls(k); impl++)
				assert_int_equal(count_with(impl, 10, base + off, len), want);
		}
	}
	free(base);
}

static void test_count_absent_and_all(void **state)
{
	const struct kernel_ops *k = kernel("count");
	size_t n = 4099, off;
	unsigned char *base = alloc64(4 * n + 64);
	int impl;

	(void)state;
	assert_non_null(base);
	fill_rand(base, n + 16, 0, 20, 5);
	for (off = 0; off < 64; off += 12)
		for (impl = 0; impl < count_nimpls(k); impl++) {
			assert_int_equal(count_with(impl, 21, base + off, 4 * n), 0);
			assert_int_equal(count_with(impl, -10, base + off, 4 * n), 0);
		}

	for (size_t i = 0; i < n + 16; i++)
		memcpy(base + 4 * i, &(int32_t){ 10 }, 4);
	for (off = 0; off < 64; off += 12)
		for (impl = 0; impl < count_nimpls(k); impl++) {
			assert_int_equal(count_with(impl, 10, base + off, 4 * n), n);
			assert_int_equal(count_with(impl, 11, base + off, 4 * n), 0);
		}
	free(base);
}

static void test_count_negative(void **state)
{
	const struct kernel_ops *k = kernel("count");
	static const int32_t vals[] = { -1, -3, 5, INT32_MIN, INT32_MAX, 0 };
	size_t n = 3001, v;
	int32_t *p = malloc(4 * n);
	int impl;

	(void)state;
	assert_non_null(p);
	fill_rand(p, n, -5, 5, 7);
	p[17] = INT32_MIN;
	p[1000] = INT32_MAX;
	p[2999] = INT32_MIN;
	for (v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
		uint64_t want = ref_count(p, 4 * n, vals[v]);

		assert_true(want > 0);
		for (impl = 0; impl < count_nimpls(k); impl++)
			assert_int_equal(count_with(impl, vals[v], p + 1, 4 * (n - 1)),
					 want - (p[0] == vals[v]));
	}
	assert_int_equal(ref_count(p, 4 * n, INT32_MIN), 2);

	memset(p, 0xff, 4 * n);		/* every element is -1 */
	for (impl = 0; impl < count_nimpls(k); impl++)
		assert_int_equal(count_with(impl, -1, p, 4 * n), n);
	free(p);
}

/* len % 4 != 0: the last 1..3 bytes are not an integer and not counted. */
static void test_count_ignores_trailing_bytes(void **state)
{
	const struct kernel_ops *k = kernel("count");
	int32_t p[40];
	size_t i, extra;
	int impl;

	(void)state;
	for (i = 0; i < 40; i++)
		p[i] = 10;
	for (impl = 0; impl < count_nimpls(k); impl++) {
		for (extra = 1; extra < 4; extra++) {
			assert_int_equal(count_with(impl, 10, p, 4 * 4 + extra), 4);
			assert_int_equal(count_with(impl, 10, p, 4 * 33 + extra), 33);
			assert_int_equal(count_with(impl, 10, p, extra), 0);
		}
	}
}

/* k->result sums over blocks; init starts it again from zero. */
static void test_count_accumulates(void **state)
{
	const struct kernel_ops *ops = kernel("count");
	struct job_spec job = { .rw = RW_READ, .bs = 8192 };
	size_t n = 6000;
	int32_t *p = malloc(4 * n);
	uint64_t want;
	int impl;

	(void)state;
	assert_non_null(p);
	fill_rand(p, n, 0, 20, 11);
	want = ref_count(p, 4 * n, 10);
	for (impl = 0; impl < count_nimpls(ops); impl++) {
		struct kstate k = { .job = &job, .impl = impl, .value = 10 };
		size_t off;

		assert_int_equal(ops->init(&k), 0);
		for (off = 0; off < 4 * n; off += 8192)
			ops->run(&k, (char *)p + off, 4 * n - off < 8192 ? 4 * n - off : 8192);
		assert_int_equal(k.result, want);
		ops->run(&k, p, 4 * n);
		assert_int_equal(k.result, 2 * want);
		ops->fini(&k);

		k.result = 12345;
		assert_int_equal(ops->init(&k), 0);
		assert_int_equal(k.result, 0);
		ops->fini(&k);
	}
	free(p);
}

/* More elements than the vector loops' 32-bit counters fold at. */
static void test_count_large(void **state)
{
	const struct kernel_ops *k = kernel("count");
	size_t n = (5u << 20) + 37, i;
	int32_t *p = malloc(4 * n);
	int impl;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < n; i++)
		p[i] = 10;
	for (impl = 0; impl < count_nimpls(k); impl++)
		assert_int_equal(count_with(impl, 10, p, 4 * n), n);
	for (i = 0; i < n; i += 3)
		p[i] = 9;
	for (impl = 0; impl < count_nimpls(k); impl++)
		assert_int_equal(count_with(impl, 10, p + 1, 4 * (n - 1)),
				 n - 1 - (n - 1) / 3);
	free(p);
}

/* ---- sum ------------------------------------------------------------ */

static uint64_t sum_of(void *buf, size_t len)
{
	struct job_spec job = { .rw = RW_READ, .bs = 1 << 20 };

	return run_once(kernel("sum"), &job, 0, 0, buf, len);
}

static void test_sum(void **state)
{
	size_t n = 5000, off, len, i;
	unsigned char *base = alloc64(4 * n + 64);
	int32_t *p = (int32_t *)base;

	(void)state;
	assert_non_null(base);
	for (i = 0; i < 1000; i++)
		p[i] = (int32_t)i - 600;	/* -600 .. 399 */
	assert_int_equal(sum_of(p, 4000), (uint64_t)-100500);
	assert_int_equal(sum_of(p, 4000 + 3), (uint64_t)-100500);
	assert_int_equal(sum_of(p, 0), 0);
	for (i = 0; i < 1000; i++)
		p[i] = INT32_MIN;
	assert_int_equal(sum_of(p, 4000), (uint64_t)(-1000 * (int64_t)2147483648));
	for (i = 0; i < 1000; i++)
		p[i] = INT32_MAX;
	assert_int_equal(sum_of(p, 4000), 1000 * (uint64_t)INT32_MAX);

	fill_rand(base, n + 16, INT32_MIN, INT32_MAX, 13);
	for (off = 0; off < 64; off += 4)
		for (len = 0; len + off <= 4 * n; len += 4 * 97 + off)
			assert_int_equal(sum_of(base + off, len), ref_sum(base + off, len));
	free(base);
}

/* ---- fill ----------------------------------------------------------- */

/* Fill [off, off + len) of a guarded buffer; check inside and outside. */
static void check_fill(int impl, size_t off, size_t len, int32_t v)
{
	struct job_spec job = { .rw = RW_WRITE, .bs = 1 << 20 };
	size_t cap = off + len + 128, i, whole = len / 4 * 4;
	unsigned char *base = alloc64(cap);

	assert_non_null(base);
	memset(base, GUARD, cap);
	assert_int_equal(run_once(kernel("fill"), &job, impl, v, base + off, len), 0);
	for (i = 0; i < off; i++)
		assert_int_equal(base[i], GUARD);
	for (i = 0; i < whole / 4; i++)
		if (load32(base + off, i) != v)
			fail_msg("impl %d off %zu len %zu: slot %zu is %d", impl, off,
				 len, i, load32(base + off, i));
	for (i = off + whole; i < cap; i++)
		if (base[i] != GUARD)
			fail_msg("impl %d off %zu len %zu: byte %zu outside was written",
				 impl, off, len, i);
	free(base);
}

static void test_fill(void **state)
{
	const struct kernel_ops *k = kernel("fill");
	static const size_t lens[] = {
		0, 1, 3, 4, 7, 12, 60, 63, 64, 68, 124, 128, 131, 252, 4096,
		4100, 4103, 65536 + 44,
	};
	size_t off, l;
	int impl;

	(void)state;
	for (impl = 0; impl < count_nimpls(k); impl++)
		for (off = 0; off < 128; off += 4)
			for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				check_fill(impl, off, lens[l], 10);
				check_fill(impl, off, lens[l], -123456789);
			}
	check_fill(impl_index(k, "nt"), 0, 32 << 20, 7);
}

/* ---- copy and none -------------------------------------------------- */

static void test_copy_read(void **state)
{
	const struct kernel_ops *ops = kernel("copy");
	struct job_spec job = { .rw = RW_READ, .bs = 4096 };
	struct kstate k = { .job = &job };
	unsigned char *block = malloc(4096);
	unsigned char *save = malloc(4096);

	(void)state;
	assert_non_null(block);
	assert_non_null(save);
	fill_rand(block, 1024, INT32_MIN, INT32_MAX, 17);
	memcpy(save, block, 4096);
	assert_int_equal(ops->init(&k), 0);
	assert_non_null(k.priv);
	assert_int_equal(k.priv_len, 4096);
	assert_int_equal((uintptr_t)k.priv % 64, 0);

	ops->run(&k, block, 4096);
	assert_memory_equal(k.priv, block, 4096);
	assert_memory_equal(block, save, 4096);		/* source untouched */

	memset(k.priv, 0, 4096);			/* a short last block */
	ops->run(&k, block + 4, 101);
	assert_memory_equal(k.priv, block + 4, 101);
	assert_int_equal(((unsigned char *)k.priv)[101], 0);
	assert_int_equal(k.result, 0);
	ops->fini(&k);
	assert_null(k.priv);

	job.rw = RW_RANDREAD;				/* odd bs */
	job.bs = 1001;
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, block, 1001);
	assert_memory_equal(k.priv, block, 1001);
	ops->fini(&k);
	free(save);
	free(block);
}

static void test_copy_write(void **state)
{
	const struct kernel_ops *ops = kernel("copy");
	struct job_spec job = { .rw = RW_WRITE, .bs = 8192 };
	struct kstate k = { .job = &job };
	unsigned char *block = malloc(8192 + 16);
	unsigned char *want = malloc(8192);
	size_t i;

	(void)state;
	assert_non_null(block);
	assert_non_null(want);
	job.pattern.kind = PATTERN_BYTE;
	job.pattern.byte = 0x5a;
	memset(block, GUARD, 8192 + 16);
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, block, 8192);
	for (i = 0; i < 8192; i++)
		assert_int_equal(block[i], 0x5a);
	for (; i < 8192 + 16; i++)
		assert_int_equal(block[i], GUARD);
	ops->fini(&k);

	/* randint: each block gets the pattern as it starts at offset 0 */
	job.rw = RW_RANDWRITE;
	job.pattern.kind = PATTERN_RANDINT;
	job.pattern.lo = 0;
	job.pattern.hi = 20;
	job.pattern_seed = 42;
	pattern_fill(&job.pattern, job.pattern_seed, 0, want, 8192);
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, block, 8192);
	assert_memory_equal(block, want, 8192);
	memset(block, GUARD, 8192 + 16);
	ops->run(&k, block + 8, 100);			/* a short block */
	assert_memory_equal(block + 8, want, 100);
	assert_int_equal(block[108], GUARD);
	assert_int_equal(block[7], GUARD);
	ops->fini(&k);
	free(want);
	free(block);
}

/*
 * Every length around the vector widths (16, 32, 64 bytes, four of them
 * a step) and the tail, from and into every alignment: the bytes of the
 * block and nothing else, whichever level runs.
 */
static void test_copy_lengths_alignments(void **state)
{
	static const size_t big[] = { 1000, 4095, 4096, 4097, 65536 + 77 };
	const struct kernel_ops *ops = kernel("copy");
	struct job_spec job = { .rw = RW_READ, .bs = 65536 + 128 };
	struct kstate k = { .job = &job };
	unsigned char *src = malloc(65536 + 256);
	size_t off, len, b;

	(void)state;
	assert_non_null(src);
	fill_rand(src, (65536 + 256) / 4, INT32_MIN, INT32_MAX, 5);
	assert_int_equal(ops->init(&k), 0);
	for (off = 0; off < 8; off++) {
		for (len = 0; len <= 300; len++) {
			memset(k.priv, GUARD, k.priv_len);
			ops->run(&k, src + off, len);
			assert_memory_equal(k.priv, src + off, len);
			assert_int_equal(((unsigned char *)k.priv)[len], GUARD);
		}
		for (b = 0; b < sizeof(big) / sizeof(big[0]); b++) {
			memset(k.priv, GUARD, k.priv_len);
			ops->run(&k, src + off, big[b]);
			assert_memory_equal(k.priv, src + off, big[b]);
			assert_int_equal(((unsigned char *)k.priv)[big[b]], GUARD);
		}
	}
	ops->fini(&k);

	job.rw = RW_WRITE;		/* into a block at every alignment */
	job.pattern.kind = PATTERN_RANDINT;
	job.pattern.lo = -5;
	job.pattern.hi = 1000000;
	job.pattern_seed = 9;
	job.bs = 4096;
	assert_int_equal(ops->init(&k), 0);
	for (off = 0; off < 8; off++)
		for (len = 0; len <= 4096; len += len < 300 ? 1 : 191) {
			memset(src, GUARD, 4096 + 16);
			ops->run(&k, src + off, len);
			assert_memory_equal(src + off, k.priv, len);
			assert_int_equal(src[off + len], GUARD);
			if (off)
				assert_int_equal(src[off - 1], GUARD);
		}
	ops->fini(&k);
	free(src);
}

static void test_copy_bad_bs(void **state)
{
	struct job_spec job = { .rw = RW_READ, .bs = 0 };
	struct kstate k = { .job = &job };

	(void)state;
	assert_int_equal(kernel("copy")->init(&k), -EINVAL);
	assert_null(k.priv);
}

static void test_none(void **state)
{
	struct job_spec job = { .rw = RW_READ, .bs = 4096 };
	unsigned char buf[4096], save[4096];

	(void)state;
	fill_rand(buf, 1024, 0, 20, 19);
	memcpy(save, buf, sizeof(buf));
	assert_int_equal(run_once(kernel("none"), &job, 0, 10, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, save, sizeof(buf));
}

/* ---- validate ------------------------------------------------------- */

/* Run ops->validate on a job with this bs; what it printed, in msg. */
static unsigned validate_bs(const char *name, uint64_t bs, char *msg, size_t len)
{
	const struct kernel_ops *ops = kernel(name);
	struct job_spec job = {
		.name = "j", .where = { "t.ini", 7 }, .rw = RW_READ, .bs = bs,
		.kernel = ops,
	};

	return kernel_validate_msg(ops, &job, msg, len);
}

static void test_validate(void **state)
{
	static const char *const int32[] = { "count", "sum", "fill" };
	char msg[512];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char want[160];

		assert_int_equal(validate_bs(int32[i], 4096, msg, sizeof(msg)), 0);
		assert_string_equal(msg, "");
		assert_int_equal(validate_bs(int32[i], 4098, msg, sizeof(msg)), 1);
		snprintf(want, sizeof(want),
			 "t.ini:7: option 'bs': kernel=%s views blocks as 32-bit integers; bs must be a multiple of 4, got 4098\n",
			 int32[i]);
		assert_string_equal(msg, want);
	}
	assert_int_equal(validate_bs("copy", 4098, msg, sizeof(msg)), 0);
	assert_int_equal(validate_bs("none", 4097, msg, sizeof(msg)), 0);
}

/* Streaming stores are fenced after each block only where the block goes
 * on to a file, a device or DAX: never the job's own memory. */
static void test_block_leaves(void **state)
{
	struct job_spec job = { .rw = RW_WRITE, .bs = 4096 };
	struct kstate k = { .job = &job };
	static const char *const on[] = { "psync", "mmap", "io_uring", "dax" };

	(void)state;
	assert_true(kernel_block_leaves(&k));		/* unknown: fence */
	job.ioengine = ioengine_find("mem");
	assert_non_null(job.ioengine);
	assert_false(kernel_block_leaves(&k));
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		job.ioengine = ioengine_find(on[i]);
		assert_non_null(job.ioengine);
		if (!kernel_block_leaves(&k))
			fail_msg("ioengine=%s: its blocks go on, but no fence", on[i]);
	}
	k.job = NULL;
	assert_true(kernel_block_leaves(&k));
}

/* The report names the variant that runs: the forced level. */
static void test_variant(void **state)
{
	struct job_spec job = { .rw = RW_READ, .bs = 4096 };
	const char *level = isa_name(isa_level());
	struct kstate k = { .job = &job };
	const struct kernel_ops *c = kernel("count"), *f = kernel("fill");

	(void)state;
	k.impl = impl_index(c, "simple");
	assert_string_equal(c->variant(&k), "scalar");
	k.impl = impl_index(c, "unrolled");
	assert_string_equal(c->variant(&k), level);
	assert_string_equal(kernel("sum")->variant(&k), level);
	k.impl = impl_index(f, "plain");
	assert_string_equal(f->variant(&k), level);
	/* nt: the streaming stores of the level, as wide as its registers */
	k.impl = impl_index(f, "nt");
#ifdef __x86_64__
	assert_string_equal(f->variant(&k),
			    isa_level() == ISA_AVX512 ? "avx512 64-byte streaming stores" :
			    isa_level() == ISA_AVX2 ? "avx2 32-byte streaming stores" :
			    "sse2 16-byte streaming stores");
#elif defined(__aarch64__)
	assert_string_equal(f->variant(&k),
			    isa_level() == ISA_SVE ? "sve non-temporal stores (STNT1)" :
			    "neon non-temporal pair stores (STNP)");
#else
	assert_string_equal(f->variant(&k),
			    "plain stores (memjob has no streaming store for this CPU)");
#endif
	k.impl = 0;
	assert_string_equal(kernel("copy")->variant(&k), level);
#ifdef __x86_64__
	k.impl = impl_index(c, "simd");
	assert_string_equal(c->variant(&k), level);
	k.impl = impl_index(c, "sse2");
	assert_string_equal(c->variant(&k), "sse2");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_count_known),
		cmocka_unit_test(test_count_lengths_alignments),
		cmocka_unit_test(test_count_absent_and_all),
		cmocka_unit_test(test_count_negative),
		cmocka_unit_test(test_count_ignores_trailing_bytes),
		cmocka_unit_test(test_count_accumulates),
		cmocka_unit_test(test_count_large),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_copy_read),
		cmocka_unit_test(test_copy_write),
		cmocka_unit_test(test_copy_lengths_alignments),
		cmocka_unit_test(test_copy_bad_bs),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_block_leaves),
		cmocka_unit_test(test_variant),
	};

	return RUN_AT_EACH_ISA(tests);
}
