/*
 * test_rwmix.c - kernel=rwmix (rwmix.c) at each vector level the CPU has
 * (isa_levels.h; SVE's own loop, sve.c, under qemu at several vector
 * lengths in .ci/arm64): for MLC's mixes and odd ones, plain and nt, any
 * number of lines, the checksum is the XOR of every 64-bit word of the
 * lines read, the lines written hold the constant line, write_bytes counts
 * them, and nothing else changes (neither a block's partial last line nor
 * the bytes after it), as a scalar loop here says.  The variant names the
 * level that runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "ioengines/ioengine.h"
#include "isa_levels.h"
#include "jobopts.h"
#include "kernels/kernel.h"
#include "kernels/rwmix.h"
#include "kernels/vec.h"
#include "machine/isa.h"

#define LINE	64
#define TAIL	24	/* a partial last line, which rwmix leaves alone */
#define GUARD	128	/* bytes after the block that nothing may touch */

static const char *const ratios[] = { "1:0", "3:1", "1:1", "0:1", "7:3",
				      "2:1", "1:7", "64:64" };
static const size_t line_counts[] = { 1, 3, 5, 7, 9, 13, 37, 101, 257 };

/* xorshift64*, so every run tests the same data. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static void fill_rand(unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(rnd(&s) >> 56);
}

/* What rwmix does to lines whole lines from p, a line at a time; the
 * bytes it writes into *stored. */
static uint64_t reference(unsigned char *p, size_t lines, unsigned r,
			  unsigned w, uint64_t *stored)
{
	uint64_t sum = 0, x;
	size_t i = 0;

	*stored = 0;
	while (i < lines) {
		for (unsigned k = 0; k < r && i < lines; k++, i++)
			for (size_t b = 0; b < LINE; b += 8) {
				memcpy(&x, p + i * LINE + b, 8);
				sum ^= x;
			}
		for (unsigned k = 0; k < w && i < lines; k++, i++) {
			memset(p + i * LINE, 0x5a, LINE);
			*stored += LINE;
		}
	}
	return sum;
}

static int impl_of(const struct kernel_ops *k, const char *name)
{
	for (int i = 0; k->impls[i]; i++)
		if (strcmp(k->impls[i], name) == 0)
			return i;
	fail_msg("%s has no impl %s", k->name, name);
	return -1;
}

/* One block of lines (and a partial line), off bytes into a line-aligned
 * buffer, through the kernel and through the reference. */
static void check_one(const char *ratio, const char *impl, size_t lines,
		      size_t off)
{
	const struct kernel_ops *ops = kernel_find("rwmix");
	struct rwmix_opts o = { .ratio = (char *)ratio };
	struct job_spec job = {
		.name = "t", .where = { "t.ini", 3 }, .rw = RW_READ,
		.bs = lines * LINE, .size = lines * LINE,
		.kernel = ops, .ioengine = ioengine_find("mem"),
	};
	struct jobopts jo;
	struct kstate k = { .job = &job };
	size_t len = lines * LINE + TAIL, total = off + len + GUARD;
	unsigned char *got = aligned_alloc(LINE, (total + LINE - 1) / LINE * LINE);
	unsigned char *want = malloc(total);
	uint64_t sum, stored;
	unsigned r, w;
	const char *why;

	assert_non_null(ops);
	assert_non_null(got);
	assert_non_null(want);
	assert_int_equal(rwmix_parse(ratio, &r, &w, &why), 0);
	jobopts_attach(&job, &jo, &kernel_rwmix_opts, &o);
	k.impl = impl_of(ops, impl);
	fill_rand(got, total, lines * 131 + off + r * 7 + w);
	memcpy(want, got, total);
	sum = reference(want + off, lines, r, w, &stored);

	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, got + off, len);
	if (k.result != sum || k.stored != stored ||
	    memcmp(got, want, total) != 0) {
		size_t i = 0;

		while (i < total && got[i] == want[i])
			i++;
		fail_msg("rwmix_ratio=%s impl=%s, %zu lines at +%zu (%s): "
			 "checksum %#llx, want %#llx; wrote %llu bytes, want "
			 "%llu; first wrong byte at %zd", ratio, impl, lines,
			 off, isa_name(isa_level()),
			 (unsigned long long)k.result, (unsigned long long)sum,
			 (unsigned long long)k.stored,
			 (unsigned long long)stored,
			 i < total ? (ssize_t)i - (ssize_t)off : (ssize_t)-1);
	}
	ops->fini(&k);
	free(got);
	free(want);
}

static void check_impl(const char *impl)
{
	for (size_t a = 0; a < sizeof(ratios) / sizeof(ratios[0]); a++)
		for (size_t n = 0; n < sizeof(line_counts) /
				       sizeof(line_counts[0]); n++) {
			check_one(ratios[a], impl, line_counts[n], 0);
			/* streaming stores want whole lines (x86-64's
			 * movntdq faults off a 16-byte boundary); the
			 * engine's blocks are lines of its own region */
			if (strcmp(impl, "nt") != 0)
				check_one(ratios[a], impl, line_counts[n], 8);
		}
}

static void test_plain(void **state)
{
	(void)state;
	check_impl("plain");
}

static void test_nt(void **state)
{
	(void)state;
	check_impl("nt");
}

/* Blocks add up: the checksum of two blocks is the XOR of theirs, the
 * bytes written their sum; a block whose every line is read gives a
 * checksum that the data decides (not a constant). */
static void test_blocks_add_up(void **state)
{
	const struct kernel_ops *ops = kernel_find("rwmix");
	struct rwmix_opts o = { .ratio = "3:1" };
	struct job_spec job = { .rw = RW_READ, .bs = 4096, .kernel = ops,
				.ioengine = ioengine_find("mem") };
	struct jobopts jo;
	struct kstate k = { .job = &job };
	unsigned char *buf = aligned_alloc(LINE, 8192), *ref = malloc(8192);
	uint64_t s1, s2, w1, w2;

	(void)state;
	assert_non_null(buf);
	assert_non_null(ref);
	jobopts_attach(&job, &jo, &kernel_rwmix_opts, &o);
	fill_rand(buf, 8192, 99);
	memcpy(ref, buf, 8192);
	s1 = reference(ref, 64, 3, 1, &w1);
	s2 = reference(ref + 4096, 64, 3, 1, &w2);
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, buf, 4096);
	ops->run(&k, buf + 4096, 4096);
	assert_true(k.result == (s1 ^ s2));
	assert_true(k.stored == w1 + w2);
	assert_memory_equal(buf, ref, 8192);
	ops->fini(&k);

	o.ratio = "1:0";
	fill_rand(buf, 8192, 7);
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, buf, 8192);
	s1 = k.result;
	ops->fini(&k);
	buf[4000] ^= 1;
	assert_int_equal(ops->init(&k), 0);
	ops->run(&k, buf, 8192);
	assert_true(k.result == (s1 ^ (1ull << (4000 % 8 * 8))));
	assert_true(k.stored == 0);
	ops->fini(&k);
	free(buf);
	free(ref);
}

/* The report names what runs: the forced level, or its streaming
 * stores. */
static void test_variant(void **state)
{
	const struct kernel_ops *ops = kernel_find("rwmix");
	struct rwmix_opts o = { .ratio = "1:1" };
	struct job_spec job = { .rw = RW_READ, .bs = 4096, .kernel = ops };
	struct jobopts jo;
	struct kstate k = { .job = &job };

	(void)state;
	jobopts_attach(&job, &jo, &kernel_rwmix_opts, &o);
	k.impl = impl_of(ops, "plain");
	assert_string_equal(ops->variant(&k), isa_name(isa_level()));
	k.impl = impl_of(ops, "nt");
	assert_string_equal(ops->variant(&k), vec_nt_name(isa_level()));
#if defined(__aarch64__) && ISA_SVE_BUILT
	if (isa_level() == ISA_SVE)
		assert_string_equal(ops->variant(&k),
				    "sve non-temporal stores (STNT1)");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_nt),
		cmocka_unit_test(test_blocks_add_up),
		cmocka_unit_test(test_variant),
	};

	return RUN_AT_EACH_ISA(tests);
}
