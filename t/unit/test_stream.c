/*
 * test_stream.c - STREAM's kernels (stream.c): stream_copy, stream_scale,
 * stream_add and triad.  prepare() lays a, b (and c) out over the region
 * (0, 2, 1); a pass of blocks of any size computes each a[i] exactly once,
 * in the block that holds its line of a[], and writes nothing else (nor
 * beyond the arrays); over arbitrary
 * doubles every impl at every vector level gives the same bits as the
 * scalar loop, whatever the region's alignment and the number of
 * elements (heads and tails of every loop); a region not on an 8-byte
 * boundary or too small is refused; validate() refuses data sources that
 * are not the job's own memory; the variant names the store width.
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

#include "ioengines/ioengine.h"
#include "isa_levels.h"
#include "kernels/kernel.h"
#include "kernel_validate.h"
#include "machine/isa.h"

#define GUARD	0xee

/* Each kernel: its arrays, and a[i] from b = 2, c = 1. */
static const struct {
	const char *name;
	size_t arrays;
	double want;
} kernels[] = {
	{ "stream_copy", 2, 2.0 },
	{ "stream_scale", 2, 6.0 },
	{ "stream_add", 3, 3.0 },
	{ "triad", 3, 5.0 },
};
#define NKERNELS	(sizeof(kernels) / sizeof(kernels[0]))

static const struct kernel_ops *kernel(const char *name)
{
	const struct kernel_ops *k = kernel_find(name);

	assert_non_null(k);
	return k;
}

static struct job_spec make_job(const char *kname, const char *engine,
				uint64_t size)
{
	struct job_spec job = {
		.name = "t", .where = { "t.ini", 5 }, .rw = RW_READ,
		.bs = 4096, .size = size, .kernel = kernel_find(kname),
		.ioengine = ioengine_find(engine),
	};

	return job;
}

static int impl_of(const struct kernel_ops *k, const char *name)
{
	int i;

	for (i = 0; k->impls[i]; i++)
		if (strcmp(k->impls[i], name) == 0)
			return i;
	fail_msg("%s has no impl %s", k->name, name);
	return -1;
}

/* The scalar reference: the product rounded before the sum. */
static double reference(const char *name, double b, double c)
{
	volatile double p;

	if (!strcmp(name, "stream_copy"))
		return b;
	if (!strcmp(name, "stream_scale")) {
		p = 3.0 * b;
		return p;
	}
	if (!strcmp(name, "stream_add"))
		return b + c;
	p = 3.0 * c;
	return b + p;
}

/*
 * One pass over a region of len bytes (8-byte aligned, guard bytes after
 * it) in blocks of bs, in order or backwards, then check every element.
 * b and c stay as laid out; each a[i] takes its value exactly once (the
 * pass sets b to 4 for the elements a block has done: a block range that
 * overlapped the one before would give another value).
 */
static void pass_and_check(size_t kn, const char *impl, size_t len,
			   size_t bs, int backwards)
{
	const char *name = kernels[kn].name;
	const size_t elem = kernels[kn].arrays * sizeof(double);
	struct job_spec job = make_job(name, "mem", len);
	const struct kernel_ops *ops = kernel(name);
	struct kstate k = { .job = &job, .impl = impl_of(ops, impl) };
	size_t n = len / elem, nblocks = (len + bs - 1) / bs, i;
	unsigned char *mem = aligned_alloc(64, (len + 64 + 63) / 64 * 64);
	double *a = (double *)mem, *b = a + n;
	double *c = kernels[kn].arrays == 3 ? b + n : NULL;

	assert_non_null(mem);
	memset(mem, GUARD, len + 64);
	assert_int_equal(ops->init(&k), 0);
	assert_int_equal(ops->prepare(&k, mem, len), 0);
	for (i = 0; i < n; i++) {
		assert_true(a[i] == 0.0);
		assert_true(b[i] == 2.0);
		assert_true(!c || c[i] == 1.0);
	}
	for (size_t j = 0; j < nblocks; j++) {
		size_t blk = backwards ? nblocks - 1 - j : j;
		size_t off = blk * bs, l = len - off < bs ? len - off : bs;
		/* whole lines of a[] (8 elements) but at the end */
		size_t lo = off / (8 * elem) * 8;
		size_t hi = off + l >= len ? n : (off + l) / (8 * elem) * 8;

		ops->run(&k, mem + off, l);
		for (i = lo; i < hi && i < n; i++) {
			assert_true(a[i] == kernels[kn].want);
			b[i] = 4.0;	/* a second visit changes a[i] */
		}
		/* nothing of the next line's elements yet */
		if (!backwards && hi < n && a[hi] != 0.0)
			fail_msg("%s %s len %zu bs %zu: a[%zu], of the line after the block's, was computed with it",
				 name, impl, len, bs, hi);
	}
	for (i = 0; i < n; i++) {
		if (a[i] != kernels[kn].want)
			fail_msg("%s %s len %zu bs %zu: a[%zu] = %g, not %g",
				 name, impl, len, bs, i, a[i], kernels[kn].want);
		assert_true(!c || c[i] == 1.0);
	}
	for (i = kernels[kn].arrays * n * sizeof(double); i < len + 64; i++)
		assert_int_equal(mem[i], GUARD);
	ops->fini(&k);
	free(mem);
}

static void test_passes(void **state)
{
	static const size_t lens[] = { 48, 1000, 4096, 24 * 1024, 100003 };
	static const size_t bss[] = { 8, 24, 100, 4096, 1 << 20 };

	(void)state;
	for (size_t kn = 0; kn < NKERNELS; kn++)
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
			for (size_t s = 0; s < sizeof(bss) / sizeof(bss[0]); s++)
				for (int back = 0; back < 2; back++) {
					pass_and_check(kn, "plain", lens[l],
						       bss[s], back);
					pass_and_check(kn, "nt", lens[l],
						       bss[s], back);
				}
}

/* Doubles with every bit of the mantissa in play, of both signs, no
 * denormals, infinities or NaNs. */
static double arbitrary(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(*s >> 11) / 9007199254740992.0 - 0.5) *
	       (double)(1 << (*s % 20));
}

/*
 * Every element of one run over n elements of arrays that start at
 * 8 * shift bytes past a line, against the scalar reference, bit for
 * bit; the guard after the arrays and before them untouched.
 */
static void exact_run(size_t kn, const char *impl, size_t shift, size_t n)
{
	const char *name = kernels[kn].name;
	const size_t arrays = kernels[kn].arrays;
	const size_t len = arrays * n * sizeof(double);
	struct job_spec job = make_job(name, "mem", len);
	const struct kernel_ops *ops = kernel(name);
	struct kstate k = { .job = &job, .impl = impl_of(ops, impl) };
	size_t cap = (8 * shift + len + 128 + 63) / 64 * 64, i;
	unsigned char *mem = aligned_alloc(64, cap);
	double *a = (double *)(mem + 8 * shift), *b = a + n;
	double *c = arrays == 3 ? b + n : b;
	uint64_t seed = n * 31 + shift;

	assert_non_null(mem);
	memset(mem, GUARD, cap);
	assert_int_equal(ops->init(&k), 0);
	assert_int_equal(ops->prepare(&k, a, len), 0);
	for (i = 0; i < n; i++) {
		b[i] = arbitrary(&seed);
		if (arrays == 3)
			c[i] = arbitrary(&seed);
	}
	ops->run(&k, a, len);
	for (i = 0; i < n; i++) {
		double want = reference(name, b[i], c[i]);

		if (memcmp(&a[i], &want, sizeof(want)))
			fail_msg("%s %s at %s, %zu elements %zu bytes past a line: a[%zu] = %a, the scalar loop gives %a",
				 name, impl, isa_name(isa_level()), n, 8 * shift,
				 i, a[i], want);
	}
	for (i = 0; i < 8 * shift; i++)
		assert_int_equal(mem[i], GUARD);
	for (i = 8 * shift + len; i < cap; i++)
		assert_int_equal(mem[i], GUARD);
	ops->fini(&k);
	free(mem);
}

/* Every alignment of a[] within a line, lengths from 1 element to past
 * several 4-line steps, none a multiple of every vector width. */
static void test_exact(void **state)
{
	static const size_t more[] = { 255, 257, 1000, 1021, 4099 };

	(void)state;
	for (size_t kn = 0; kn < NKERNELS; kn++)
		for (size_t shift = 0; shift < 8; shift++) {
			for (size_t n = 1; n <= 80; n++) {
				exact_run(kn, "plain", shift, n);
				exact_run(kn, "nt", shift, n);
			}
			for (size_t m = 0; m < sizeof(more) / sizeof(more[0]); m++) {
				exact_run(kn, "plain", shift, more[m]);
				exact_run(kn, "nt", shift, more[m]);
			}
		}
}

static void test_prepare_errors(void **state)
{
	(void)state;
	for (size_t kn = 0; kn < NKERNELS; kn++) {
		const struct kernel_ops *ops = kernel(kernels[kn].name);
		struct job_spec job = make_job(kernels[kn].name, "mem", 4096);
		struct kstate k = { .job = &job };
		char *mem = aligned_alloc(64, 4096);
		size_t elem = kernels[kn].arrays * sizeof(double);

		assert_non_null(mem);
		assert_int_equal(ops->init(&k), 0);
		assert_int_equal(ops->prepare(&k, mem, elem - 1), -EINVAL);
		assert_int_equal(ops->prepare(&k, mem + 4, 4000), -EINVAL);
		assert_int_equal(ops->prepare(&k, NULL, 4096), -EINVAL);
		/* run() before a successful prepare() touches nothing */
		memset(mem, GUARD, 4096);
		ops->run(&k, mem, 4096);
		for (int i = 0; i < 4096; i++)
			assert_int_equal((unsigned char)mem[i], GUARD);
		ops->fini(&k);
		free(mem);
	}
}

static void test_validate(void **state)
{
	char msg[512], want[512];

	(void)state;
	for (size_t kn = 0; kn < NKERNELS; kn++) {
		const char *name = kernels[kn].name;
		const struct kernel_ops *ops = kernel(name);
		const char *count = kernels[kn].arrays == 2 ? "two" : "three";
		size_t elem = kernels[kn].arrays * sizeof(double);
		struct job_spec job = make_job(name, "mem", 1 << 20);

		assert_int_equal(kernel_validate_msg(ops, &job, msg, sizeof(msg)), 0);
		assert_string_equal(msg, "");
		job.size = elem - 1;
		assert_int_equal(kernel_validate_msg(ops, &job, msg, sizeof(msg)), 1);
		snprintf(want, sizeof(want), "t.ini:5: option 'size': kernel=%s needs room for one element of each of its %s arrays of doubles (%zu bytes), got %zu\n",
			 name, count, elem, elem - 1);
		assert_string_equal(msg, want);
		job = make_job(name, "psync", 1 << 20);
		assert_int_equal(kernel_validate_msg(ops, &job, msg, sizeof(msg)), 1);
		snprintf(want, sizeof(want), "t.ini:5: option 'kernel': kernel=%s needs a mapped data source (ioengine=mem): it writes its %s arrays into the job's memory, which ioengine=psync does not map\n",
			 name, count);
		assert_string_equal(msg, want);
		job = make_job(name, "mmap", 1 << 20);
		assert_int_equal(kernel_validate_msg(ops, &job, msg, sizeof(msg)), 1);
		assert_non_null(strstr(msg, "which ioengine=mmap maps from a file"));
	}
}

/* source_info: the level; for nt, the streaming stores' width too. */
static void test_variant(void **state)
{
	struct job_spec job = make_job("triad", "mem", 4096);
	struct kstate k = { .job = &job };
	const char *nt;

	(void)state;
#ifdef __x86_64__
	nt = isa_level() == ISA_AVX512 ? "avx512 64-byte streaming stores" :
	     isa_level() == ISA_AVX2 ? "avx2 32-byte streaming stores" :
	     "sse2 16-byte streaming stores";
#elif defined(__aarch64__)
	nt = isa_level() == ISA_SVE ? "sve non-temporal stores (STNT1)" :
	     "neon non-temporal pair stores (STNP)";
#else
	nt = "plain stores (memjob has no streaming store for this CPU)";
#endif
	for (size_t kn = 0; kn < NKERNELS; kn++) {
		const struct kernel_ops *ops = kernel(kernels[kn].name);

		job.kernel = ops;
		k.impl = impl_of(ops, "plain");
		assert_string_equal(ops->variant(&k), isa_name(isa_level()));
		k.impl = impl_of(ops, "nt");
		assert_string_equal(ops->variant(&k), nt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_prepare_errors),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_variant),
	};

	return RUN_AT_EACH_ISA(tests);
}
