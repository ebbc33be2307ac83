/*
 * test_interval.c - the Hodges-Lehmann shift and its 95% interval
 * (engine/interval.c).
 *
 * Exact values: the ranks against the printed two-sided 5% critical
 * values of the Mann-Whitney U table, the exact law against counting
 * every arrangement, small samples worked by hand, and the wording of
 * each verdict.  Coverage: many synthetic sample pairs drawn with a fixed
 * seed from distributions with a known shift (normal, lognormal, and a
 * skewed exponential noise), the share of intervals that hold the true
 * slowdown must lie between 93% and 97% (or within 1% of the exact
 * level where discreteness lifts it above 97%, as for 4 and 4), at every
 * repeat count memjob runs with, 4..30 a side; and a null pair (no
 * shift) must give "no effect" as often.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/interval.h"

/* splitmix64: reproducible draws in (0, 1) */
static double uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *s)
{
	return sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s));
}

/* Two-sided 5% critical values of U (reject when U <= c) for equal
 * sides n = 4..10, from the standard table: the rank is c + 1. */
static void test_rank_table(void **state)
{
	static const unsigned crit[] = { 0, 2, 5, 8, 13, 17, 23 };
	double level;

	(void)state;
	for (unsigned n = 4; n <= 10; n++)
		assert_int_equal(interval_rank(n, n, &level),
				 crit[n - 4] + 1);
	/* unequal sides: (5, 10) -> 8, (6, 9) -> 10 in the same table */
	assert_int_equal(interval_rank(5, 10, &level), 9);
	assert_int_equal(interval_rank(6, 9, &level), 11);
	/* 3 and 3: the smallest tail is 1/20 a side, no 95% interval */
	assert_int_equal(interval_rank(3, 3, &level), 0);
	assert_int_equal(interval_rank(3, 4, &level), 0);
	assert_int_equal(interval_rank(0, 10, &level), 0);
	assert_int_equal(interval_min_repeats(), 4);
	/* 4 and 4: min..max of the differences, 1 - 2/70 */
	assert_int_equal(interval_rank(4, 4, &level), 1);
	assert_true(fabs(level - (1 - 2.0 / 70)) < 1e-12);
	/* 10 and 10: P(U <= 23) = 0.021628 */
	interval_rank(10, 10, &level);
	assert_true(fabs(level - 0.956743) < 1e-6);
}

/* The exact law against counting: for m + n <= 14, every choice of which
 * positions hold x; U counts the (x, y) pairs with y before x. */
static void test_rank_counted(void **state)
{
	(void)state;
	for (unsigned m = 1; m <= 7; m++)
		for (unsigned n = 1; n + m <= 14; n++) {
			unsigned long cnt[64] = { 0 }, total = 0;
			unsigned k = 0;
			double level, cum = 0;

			for (unsigned mask = 0; mask < 1u << (m + n); mask++) {
				unsigned u = 0, ys = 0;

				if ((unsigned)__builtin_popcount(mask) != m)
					continue;
				for (unsigned b = 0; b < m + n; b++) {
					if (mask >> b & 1)
						u += ys;
					else
						ys++;
				}
				cnt[u]++;
				total++;
			}
			while (k <= m * n &&
			       (cum + (double)cnt[k]) / (double)total <= 0.025) {
				cum += (double)cnt[k];
				k++;
			}
			assert_int_equal(interval_rank(m, n, &level), k);
			if (k)
				assert_true(fabs(level - (1 - 2 * cum /
							  (double)total)) < 1e-12);
		}
}

/* Across the exact limit the rank goes on smoothly: 966 exact for 50
 * and 50 (the law's own value), 1008 and 1427 from the normal law for 51
 * and 51, 60 and 60, each at a level just over 95%. */
static void test_rank_normal(void **state)
{
	double level;

	(void)state;
	assert_int_equal(interval_rank(50, 50, &level), 966);
	assert_true(fabs(level - 0.950452) < 1e-5);
	assert_int_equal(interval_rank(51, 51, &level), 1008);
	assert_true(level >= 0.95 && level < 0.9502);
	assert_int_equal(interval_rank(60, 60, &level), 1427);
	assert_true(level >= 0.95 && level < 0.9501);
}

/* Worked by hand: x = 1..4, y = x + 10 shuffled: the differences run
 * 7..13, their median 10; with 4 and 4 the interval is min..max. */
static void test_shift_small(void **state)
{
	const double x[] = { 3, 1, 4, 2 }, y[] = { 12, 14, 11, 13 };
	const double y5[] = { 12, 14, 11, 13, 30 };
	struct interval iv;

	(void)state;
	iv = interval_shift(x, 4, y, 4);
	assert_int_equal(iv.status, INTERVAL_OK);
	assert_true(iv.est == 10 && iv.lo == 7 && iv.hi == 13);
	/* an outlier moves the estimate by half a step, not by its size */
	iv = interval_shift(x, 4, y5, 5);
	assert_int_equal(iv.status, INTERVAL_OK);
	assert_true(iv.est == 10.5);
	iv = interval_shift(x, 3, y, 3);
	assert_int_equal(iv.status, INTERVAL_TOO_FEW);
	assert_int_equal(iv.need, 4);
}

/* The median's interval: ranks from the binomial law, worked by hand
 * (n = 6: 1/64 a side; n = 10: P(B <= 1) = 11/1024; n = 20: P(B <= 5) =
 * 21700/2^20), and none below 6 values. */
static void test_median(void **state)
{
	double v[20];
	struct interval iv;

	(void)state;
	for (unsigned i = 0; i < 20; i++)
		v[i] = i + 1;
	assert_int_equal(interval_median_min(), 6);
	iv = interval_median(v, 5);
	assert_int_equal(iv.status, INTERVAL_TOO_FEW);
	assert_int_equal(iv.need, 6);
	assert_true(iv.est == 3);
	iv = interval_median(v, 6);
	assert_int_equal(iv.status, INTERVAL_OK);
	assert_true(iv.lo == 1 && iv.hi == 6 && iv.est == 3.5);
	assert_true(fabs(iv.level - (1 - 2.0 / 64)) < 1e-12);
	iv = interval_median(v, 10);
	assert_true(iv.lo == 2 && iv.hi == 9);
	assert_true(fabs(iv.level - (1 - 22.0 / 1024)) < 1e-12);
	iv = interval_median(v, 20);
	assert_true(iv.lo == 6 && iv.hi == 15);
	assert_true(fabs(iv.level - (1 - 2 * 21700.0 / 1048576)) < 1e-12);
}

static void test_slowdown(void **state)
{
	const double a[] = { 100, 100, 100, 100 };
	const double l[] = { 110, 110, 110, 110 };
	const double g[] = { 10, 10, 10, 10 }, gl[] = { 8, 8, 8, 8 };
	const double bad[] = { 1, 0, 1, 1 };
	struct interval iv;

	(void)state;
	iv = interval_slowdown(a, 4, l, 4, true);
	assert_int_equal(iv.status, INTERVAL_OK);
	assert_true(fabs(iv.est - 10) < 1e-9 && fabs(iv.lo - 10) < 1e-9);
	/* a throughput: 10 -> 8 GB/s is 25% more time */
	iv = interval_slowdown(g, 4, gl, 4, false);
	assert_true(fabs(iv.est - 25) < 1e-9 && fabs(iv.hi - 25) < 1e-9);
	iv = interval_slowdown(bad, 4, l, 4, true);
	assert_int_equal(iv.status, INTERVAL_BAD);
}

static void test_verdict(void **state)
{
	struct interval iv = { .status = INTERVAL_OK, .est = 5.4, .lo = 3.9,
			       .hi = 6.8 };
	char b[128];

	(void)state;
	interval_verdict(&iv, "slower", "faster", "no effect found", b,
			 sizeof(b));
	assert_string_equal(b, "slower by 5.4% (95% CI 3.9..6.8%)");
	iv.est = -5.4;
	iv.lo = -6.8;
	iv.hi = -3.9;
	interval_verdict(&iv, "slower", "faster", "no effect found", b,
			 sizeof(b));
	assert_string_equal(b, "faster by 5.4% (95% CI 3.9..6.8%)");
	iv.est = 0.1;
	iv.lo = -0.4;
	iv.hi = 0.55;
	interval_verdict(&iv, "slower", "faster", "no effect found", b,
			 sizeof(b));
	assert_string_equal(b, "no effect found: smaller than +-0.55% at 95%");
	iv.lo = -1.2;
	interval_verdict(&iv, "slower", "faster", "no change detected", b,
			 sizeof(b));
	assert_string_equal(b, "no change detected: smaller than +-1.2% at 95%");
	iv.status = INTERVAL_TOO_FEW;
	iv.need = 4;
	interval_verdict(&iv, "slower", "faster", "no effect found", b,
			 sizeof(b));
	assert_string_equal(b, "too few repeats for an interval (need "
			    "repeat=4)");
}

enum law { LAW_NORMAL, LAW_LOGNORMAL, LAW_EXPONENTIAL };

/* A positive metric value: around 100, noise of the given law. */
static double draw(uint64_t *s, enum law law)
{
	switch (law) {
	case LAW_NORMAL:
		return 100 + 5 * normal(s);
	case LAW_LOGNORMAL:
		return 100 * exp(0.3 * normal(s));
	case LAW_EXPONENTIAL:	/* a floor and a long right tail */
		return 100 - 20 * log(uniform(s));
	}
	return 0;
}

/* Share of the trials' intervals (m alone, n loaded) holding the true
 * slowdown; loaded = alone's law times (1 + slow/100).  2000 trials give
 * the share within +-1% (two standard errors); 1000 for large samples,
 * to keep the test short. */
#define TRIALS 2000
static double coverage(enum law law, unsigned m, unsigned n, double slow,
		       uint64_t seed, unsigned *found)
{
	unsigned trials = m * n > 1000 ? TRIALS / 2 : TRIALS;
	double a[64], l[64];
	unsigned hit = 0;

	*found = 0;
	for (unsigned t = 0; t < trials; t++) {
		struct interval iv;

		for (unsigned i = 0; i < m; i++)
			a[i] = draw(&seed, law);
		for (unsigned i = 0; i < n; i++)
			l[i] = draw(&seed, law) * (1 + slow / 100);
		iv = interval_slowdown(a, m, l, n, true);
		assert_int_equal(iv.status, INTERVAL_OK);
		assert_true(iv.lo <= iv.est && iv.est <= iv.hi);
		if (iv.lo <= slow && slow <= iv.hi)
			hit++;
		if (iv.lo > 0 || iv.hi < 0)
			(*found)++;
	}
	*found = *found * TRIALS / trials;	/* per TRIALS */
	return (double)hit / trials;
}

/* The share a 95% interval must cover: 93% to 97%, except where the
 * exact law's discreteness makes the interval wider than asked (4 and 4
 * reach 97.14%, 5 and 5 96.83%): there the achieved level, which is what
 * the report prints, must be met within 1%. */
static void assert_covers(double c, double level)
{
	assert_true(c >= 0.93);
	assert_true(c <= fmax(0.97, level + 0.01));
}

static void check_coverage(enum law law, unsigned m, unsigned n,
			   uint64_t seed)
{
	static const double slows[] = { 0, 5, 40 };
	double level;

	interval_rank(m, n, &level);
	for (size_t i = 0; i < sizeof(slows) / sizeof(slows[0]); i++) {
		unsigned found;
		double c = coverage(law, m, n, slows[i], seed + i, &found);

		print_message("law %d, %u and %u, slowdown %g%%: coverage "
			      "%.1f%%, effect found %.1f%%\n", (int)law, m, n,
			      slows[i], 100 * c, 100.0 * found / TRIALS);
		assert_covers(c, level);
		/* no shift: an effect is claimed only when the interval
		 * misses 0, so as rarely as it misses the truth */
		if (slows[i] == 0)
			assert_true(found <= TRIALS * 7 / 100);
	}
}

static void test_coverage_normal(void **state)
{
	(void)state;
	check_coverage(LAW_NORMAL, 10, 10, 1);
	check_coverage(LAW_NORMAL, 8, 12, 101);
}

static void test_coverage_lognormal(void **state)
{
	(void)state;
	check_coverage(LAW_LOGNORMAL, 10, 10, 2);
	check_coverage(LAW_LOGNORMAL, 30, 30, 202);
}

static void test_coverage_skewed(void **state)
{
	(void)state;
	check_coverage(LAW_EXPONENTIAL, 10, 10, 3);
	check_coverage(LAW_EXPONENTIAL, 60, 60, 404);	/* normal law for k */
}

/* A large effect is found every time with ten repeats a side. */
static void test_power(void **state)
{
	unsigned found;

	(void)state;
	coverage(LAW_NORMAL, 10, 10, 20, 4, &found);
	assert_int_equal(found, TRIALS);
}

/* The repeats memjob runs with (repeat=3..30 a side): every size from 4
 * to 12, then 15, 20, 25, 30, and unequal sides, under each law.  All
 * three laws are shifts on the log scale, where the interval is made, and
 * it moves with the shift: one slowdown (10%) stands for all, and the
 * share of intervals missing 0 under no shift is 1 - coverage.  Three a
 * side give no interval (test_shift_small).  The table printed is the
 * measured coverage beside the exact level the report states. */
static void test_coverage_repeats(void **state)
{
	static const unsigned sizes[][2] = {
		{ 4, 4 }, { 5, 5 }, { 6, 6 }, { 7, 7 }, { 8, 8 }, { 9, 9 },
		{ 10, 10 }, { 11, 11 }, { 12, 12 }, { 15, 15 }, { 20, 20 },
		{ 25, 25 }, { 30, 30 }, { 4, 8 }, { 5, 12 }, { 8, 30 },
	};
	static const char *const laws[] = { "normal", "lognormal",
					    "exponential" };
	double lo = 1, hi = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned m = sizes[i][0], n = sizes[i][1];
		double level;

		interval_rank(m, n, &level);
		print_message("repeats %2u and %2u (level %.2f%%):", m, n,
			      100 * level);
		for (int law = LAW_NORMAL; law <= LAW_EXPONENTIAL; law++) {
			unsigned found;
			double c = coverage((enum law)law, m, n, 10,
					    1000 + 10 * i + (unsigned)law,
					    &found);

			print_message(" %s %.1f%%", laws[law], 100 * c);
			assert_covers(c, level);
			lo = fmin(lo, c);
			hi = fmax(hi, c);
		}
		print_message("\n");
	}
	print_message("coverage over repeat=4..30: %.1f%% to %.1f%% "
		      "(%u trials each)\n", 100 * lo, 100 * hi, TRIALS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_table),
		cmocka_unit_test(test_rank_counted),
		cmocka_unit_test(test_rank_normal),
		cmocka_unit_test(test_shift_small),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_slowdown),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_coverage_normal),
		cmocka_unit_test(test_coverage_lognormal),
		cmocka_unit_test(test_coverage_skewed),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_coverage_repeats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
