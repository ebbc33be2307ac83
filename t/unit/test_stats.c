/*
 * test_stats.c - util/stats.c: the median of odd and even counts, the
 * median absolute deviation, and the warm-up rule: a first run that costs
 * more than every other and more than the others' median by their spread
 * (3 x 1.4826 x MAD) and by 5% is flagged; one inside either is not; a
 * fast first run never is; fewer than three runs are not judged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "util/stats.h"

static void test_summary_and_mad(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
	double v[] = { 1, 2, 3, 4, 100 };

	(void)state;
	assert_float_equal(stat_summarise(odd, 3).median, 2, 0);
	assert_float_equal(stat_summarise(even, 4).median, 2.5, 0);
	/* |v - 3| = 2 1 0 1 97: median 1, whatever the far point */
	assert_float_equal(stat_mad(v, 5, 3), 1, 0);
	assert_float_equal(stat_mad(v, 0, 3), 0, 0);
}

static void test_warmup(void **state)
{
	/* icache-sqlite, grouped: 1.614 s then about 1.27 */
	const double slow[] = { 1.614, 1.274, 1.281, 1.268 };
	/* a first run 4% above the rest: inside the 5% floor */
	const double near[] = { 1.04, 1.00, 1.00, 1.00 };
	/* others spread 1.0 .. 1.4: 1.5 is above all, inside 3 MADs */
	const double wide[] = { 1.5, 1.0, 1.2, 1.4, 1.1, 1.3 };
	/* the first is the fastest */
	const double fast[] = { 0.5, 1.0, 1.1, 1.0 };
	/* slow, but one other is slower still */
	const double tie[] = { 2.0, 1.0, 1.0, 2.1 };
	struct warmup w;

	(void)state;
	w = stat_warmup(slow, 4);
	assert_true(w.judged);
	assert_true(w.outlier);
	assert_float_equal(w.others_median, 1.274, 1e-12);
	assert_float_equal(w.excess_pct, (1.614 / 1.274 - 1) * 100, 1e-9);
	w = stat_warmup(near, 4);
	assert_true(w.judged);
	assert_false(w.outlier);
	w = stat_warmup(wide, 6);
	assert_true(w.judged);
	assert_false(w.outlier);
	w = stat_warmup(fast, 4);
	assert_true(w.judged);
	assert_false(w.outlier);
	assert_true(w.excess_pct < 0);
	w = stat_warmup(tie, 4);
	assert_false(w.outlier);
	/* three runs are enough; two are not */
	w = stat_warmup(slow, 3);
	assert_true(w.judged && w.outlier);
	w = stat_warmup(slow, 2);
	assert_false(w.judged);
	assert_false(w.outlier);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_and_mad),
		cmocka_unit_test(test_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
