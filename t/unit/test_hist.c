/*
 * test_hist.c - the log-linear latency histogram (engine/hist.c).
 *
 * Percentiles are checked against the exact nearest-rank percentile of
 * the same values, computed here by sorting them: the histogram must be
 * within 1/HIST_SUB (the header's promise, under 1%) everywhere, and exact
 * where buckets are one value wide (below 2 * HIST_SUB).  Also: merge is
 * the same as recording everything into one histogram, min/max/mean are
 * exact, an empty histogram answers 0, and values up to UINT64_MAX have a
 * bucket.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/hist.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact nearest-rank percentile of sorted v[0..n). */
static uint64_t exact_percentile(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* Record v[0..n), then compare every percentile we report. */
static void check_against_exact(uint64_t *v, size_t n, double tolerance)
{
	static const double ps[] = { 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	struct hist *h = new_hist();
	long double sum = 0;

	for (size_t i = 0; i < n; i++) {
		hist_record(h, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	if (sum < (long double)UINT64_MAX)	/* else the sum saturates */
		assert_true(fabsl((long double)hist_mean(h) - sum / n) <=
			    sum / n * 1e-9);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t want = exact_percentile(v, n, ps[i]);
		uint64_t got = hist_percentile(h, ps[i]);
		double err = fabs((double)got - (double)want);

		if (err > tolerance * (double)want)
			fail_msg("p%g: histogram says %llu, exact %llu (error %.4f%%)",
				 ps[i], (unsigned long long)got,
				 (unsigned long long)want,
				 100.0 * err / (double)want);
	}
	free(h);
}

/* xorshift64*: the same numbers on every machine. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static void test_empty(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_percentile(h, 100), 0);
	assert_true(hist_mean(h) == 0.0);
	free(h);
}

/* Below 2 * HIST_SUB every bucket is one value wide: exact answers. */
static void test_small_values_exact(void **state)
{
	uint64_t v[2 * HIST_SUB];

	(void)state;
	for (size_t i = 0; i < 2 * HIST_SUB; i++)
		v[i] = i;
	check_against_exact(v, 2 * HIST_SUB, 0);
}

/* Uniform 1..1e6 ns (1 us .. 1 ms): every percentile within 1/HIST_SUB. */
static void test_uniform(void **state)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 42;

	(void)state;
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = 1 + rnd(&s) % 1000000;
	check_against_exact(v, n, 1.0 / HIST_SUB);
	free(v);
}

/* Exponential with a heavy tail (log-uniform over 12 decades). */
static void test_log_uniform(void **state)
{
	const size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 7;

	(void)state;
	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		double u = (double)(rnd(&s) >> 11) / 9007199254740992.0;

		v[i] = (uint64_t)pow(10.0, 12.0 * u) + 1;
	}
	check_against_exact(v, n, 1.0 / HIST_SUB);
	free(v);
}

/* The promise holds at the edges of every group, where rounding bites. */
static void test_group_edges(void **state)
{
	uint64_t v[3 * 63];
	size_t n = 0;

	(void)state;
	for (unsigned b = 1; b < 64; b++) {
		uint64_t p2 = 1ULL << b;

		v[n++] = p2 - 1;
		v[n++] = p2;
		v[n++] = p2 + 1;
	}
	/* One value each: every percentile is one of them, 0.4% at most. */
	for (size_t i = 0; i < n; i++) {
		struct hist *h = new_hist();
		uint64_t got;

		hist_record(h, v[i]);
		got = hist_percentile(h, 50);
		assert_int_equal(got, v[i]);	/* clamped to [min, max] */
		free(h);
	}
	check_against_exact(v, n, 1.0 / HIST_SUB);
}

/* Two values in one wide bucket: the midpoint, clamped to what was seen,
 * never further from the truth than 1/(2 * HIST_SUB). */
static void test_midpoint(void **state)
{
	struct hist *h = new_hist();
	const uint64_t base = 1000000000ULL;	/* 1 s: buckets ~4 ms wide */
	uint64_t got;

	(void)state;
	for (int i = 0; i < 10; i++)
		hist_record(h, base);
	for (int i = 0; i < 10; i++)
		hist_record(h, base + 1000);
	got = hist_percentile(h, 50);
	assert_true(got >= base && got <= base + 1000);
	assert_true(fabs((double)got - (double)base) <= (double)base / (2 * HIST_SUB));
	free(h);
}

static void test_merge(void **state)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct hist *empty = new_hist();
	uint64_t s = 99;

	(void)state;
	for (int i = 0; i < 50000; i++) {
		uint64_t x = rnd(&s) % 5000000;

		hist_record(i % 3 ? a : b, x);
		hist_record(all, x);
	}
	hist_merge(a, b);
	hist_merge(a, empty);		/* changes nothing: min stays */
	assert_memory_equal(a, all, sizeof(*a));
	hist_merge(empty, all);		/* into an empty one: a copy */
	assert_memory_equal(empty, all, sizeof(*all));
	free(a);
	free(b);
	free(all);
	free(empty);
}

/* Values up to UINT64_MAX: a bucket each, max exact, the sum saturates. */
static void test_huge(void **state)
{
	struct hist *h = new_hist();
	uint64_t v[] = { UINT64_MAX, UINT64_MAX - 1, 1ULL << 63,
			 (1ULL << 63) - 1, 1ULL << 62 };

	(void)state;
	for (size_t i = 0; i < 5; i++)
		hist_record(h, v[i]);
	assert_int_equal(h->count, 5);
	assert_int_equal(h->max, UINT64_MAX);
	assert_int_equal(h->min, 1ULL << 62);
	assert_int_equal(hist_percentile(h, 100), UINT64_MAX);
	assert_int_equal(h->sum, UINT64_MAX);	/* saturated, not wrapped */
	assert_true(hist_mean(h) >= (double)h->min);	/* not a wrapped sum */
	free(h);
	check_against_exact(v, 5, 1.0 / HIST_SUB);
}

/* p out of range: nothing below 0, the maximum from 100 up. */
static void test_percentile_range(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	for (uint64_t x = 1; x <= 1000; x++)
		hist_record(h, x * 1000);
	assert_int_equal(hist_percentile(h, 0), 0);
	assert_int_equal(hist_percentile(h, -5), 0);
	assert_int_equal(hist_percentile(h, 100), 1000000);
	assert_int_equal(hist_percentile(h, 250), 1000000);
	/* Rank 999 of 1000, not 1000: p99.9 of 1..1000 is 999 (times 1000). */
	assert_true(fabs((double)hist_percentile(h, 99.9) - 999000.0) <=
		    999000.0 / HIST_SUB);
	assert_true(hist_percentile(h, 99.9) < 1000000);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_log_uniform),
		cmocka_unit_test(test_group_edges),
		cmocka_unit_test(test_midpoint),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_percentile_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
