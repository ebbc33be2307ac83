/*
 * test_triad.c - kernel=triad: prepare() lays out a, b and c (0, 2, 1)
 * over the region; a pass of blocks of any size computes a = b + 3c for
 * every element exactly once and writes nothing else (nor beyond the
 * arrays); both impls agree; a region not on an 8-byte boundary or too
 * small is refused; validate() refuses data sources that are not the
 * job's own memory.
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

#define GUARD	0xee

static const struct kernel_ops *triad(void)
{
	const struct kernel_ops *k = kernel_find("triad");

	assert_non_null(k);
	return k;
}

static struct job_spec make_job(const char *engine, uint64_t size)
{
	struct job_spec job = {
		.name = "t", .where = { "t.ini", 5 }, .rw = RW_READ,
		.bs = 4096, .size = size, .kernel = kernel_find("triad"),
		.ioengine = ioengine_find(engine),
	};

	return job;
}

static int impl_of(const char *name)
{
	int i;

	for (i = 0; triad()->impls[i]; i++)
		if (strcmp(triad()->impls[i], name) == 0)
			return i;
	fail_msg("triad has no impl %s", name);
	return -1;
}

/*
 * One pass over a region of len bytes (8-byte aligned, guard bytes after
 * it) in blocks of bs, in order or backwards, then check every element.
 * The counts of b and c stay as laid out; each a[i] is 5 exactly once
 * (a second run over an element would leave 5 too, so the pass is made
 * with b changed to 4 afterwards for the elements it has done: a block
 * range that overlapped the one before would then give 7).
 */
static void pass_and_check(const char *impl, size_t len, size_t bs,
			   int backwards)
{
	struct job_spec job = make_job("mem", len);
	struct kstate k = { .job = &job, .impl = impl_of(impl) };
	size_t n = len / 24, nblocks = (len + bs - 1) / bs, i;
	unsigned char *mem = aligned_alloc(64, (len + 64 + 63) / 64 * 64);
	double *a = (double *)mem, *b = a + n, *c = b + n;

	assert_non_null(mem);
	memset(mem, GUARD, len + 64);
	assert_int_equal(triad()->init(&k), 0);
	assert_int_equal(triad()->prepare(&k, mem, len), 0);
	for (i = 0; i < n; i++) {
		assert_true(a[i] == 0.0);
		assert_true(b[i] == 2.0);
		assert_true(c[i] == 1.0);
	}
	for (size_t j = 0; j < nblocks; j++) {
		size_t blk = backwards ? nblocks - 1 - j : j;
		size_t off = blk * bs, l = len - off < bs ? len - off : bs;
		size_t lo = off / 24, hi = (off + l) / 24;

		triad()->run(&k, mem + off, l);
		for (i = lo; i < hi && i < n; i++) {
			assert_true(a[i] == 5.0);
			b[i] = 4.0;		/* a second visit would give 7 */
		}
	}
	for (i = 0; i < n; i++) {
		if (a[i] != 5.0)
			fail_msg("%s len %zu bs %zu: a[%zu] = %g, not 5", impl,
				 len, bs, i, a[i]);
		assert_true(c[i] == 1.0);
	}
	for (i = 3 * n * sizeof(double); i < len + 64; i++)
		assert_int_equal(mem[i], GUARD);
	triad()->fini(&k);
	free(mem);
}

static void test_passes(void **state)
{
	static const size_t lens[] = { 24, 48, 1000, 4096, 24 * 1024, 100003 };
	static const size_t bss[] = { 8, 24, 100, 4096, 1 << 20 };

	(void)state;
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (size_t s = 0; s < sizeof(bss) / sizeof(bss[0]); s++)
			for (int back = 0; back < 2; back++) {
				pass_and_check("plain", lens[l], bss[s], back);
				pass_and_check("nt", lens[l], bss[s], back);
			}
}

/* a[] at an odd element: nt stores one plain element to reach 16 bytes */
static void test_nt_unaligned(void **state)
{
	struct job_spec job = make_job("mem", 3 * 8 * 9);
	struct kstate k = { .job = &job, .impl = impl_of("nt") };
	double *mem = aligned_alloc(64, 4096);
	size_t n = 9, i;

	(void)state;
	assert_non_null(mem);
	assert_int_equal(triad()->init(&k), 0);
	assert_int_equal(triad()->prepare(&k, mem + 1, 3 * 8 * n), 0);
	triad()->run(&k, mem + 1, 3 * 8 * n);
	for (i = 0; i < n; i++)
		assert_true(mem[1 + i] == 5.0);
	triad()->fini(&k);
	free(mem);
}

static void test_prepare_errors(void **state)
{
	struct job_spec job = make_job("mem", 4096);
	struct kstate k = { .job = &job };
	char *mem = aligned_alloc(64, 4096);

	(void)state;
	assert_non_null(mem);
	assert_int_equal(triad()->init(&k), 0);
	assert_int_equal(triad()->prepare(&k, mem, 23), -EINVAL);
	assert_int_equal(triad()->prepare(&k, mem + 4, 4000), -EINVAL);
	assert_int_equal(triad()->prepare(&k, NULL, 4096), -EINVAL);
	/* run() before a successful prepare() touches nothing */
	memset(mem, GUARD, 4096);
	triad()->run(&k, mem, 4096);
	for (int i = 0; i < 4096; i++)
		assert_int_equal((unsigned char)mem[i], GUARD);
	triad()->fini(&k);
	free(mem);
}

static void test_validate(void **state)
{
	struct job_spec job = make_job("mem", 1 << 20);
	char msg[512];

	(void)state;
	assert_int_equal(kernel_validate_msg(triad(), &job, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	job.size = 23;
	assert_int_equal(kernel_validate_msg(triad(), &job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:5: option 'size': kernel=triad needs room for one element of each of its three arrays of doubles (24 bytes), got 23\n");
	job = make_job("psync", 1 << 20);
	assert_int_equal(kernel_validate_msg(triad(), &job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:5: option 'kernel': kernel=triad needs a mapped data source (ioengine=mem): it writes its three arrays into the job's memory, which ioengine=psync does not map\n");
	job = make_job("mmap", 1 << 20);
	assert_int_equal(kernel_validate_msg(triad(), &job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "which ioengine=mmap maps from a file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_nt_unaligned),
		cmocka_unit_test(test_prepare_errors),
		cmocka_unit_test(test_validate),
	};

	return RUN_AT_EACH_ISA(tests);
}
