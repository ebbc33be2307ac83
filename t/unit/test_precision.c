/*
 * test_precision.c - precision='s stopping rule (engine/util/precision.c):
 * a point is judged only after the minimum of rounds, reached at or
 * below its target and not above it, judged again when it runs again;
 * another round starts only when it fits in what is left of the budget;
 * the end of a block marks only the points still running; and the words
 * the report prints for each outcome.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/precision.h"

static struct interval ok(double lo, double hi)
{
	struct interval iv = { .status = INTERVAL_OK, .lo = lo, .hi = hi,
			       .est = (lo + hi) / 2, .level = 0.96 };

	return iv;
}

static struct precision_point asked(double target)
{
	struct precision_point pt = { .state = PRECISION_RUNNING,
				      .target = target };

	return pt;
}

static void test_half_width(void **state)
{
	struct interval iv = ok(3.9, 6.8);

	(void)state;
	assert_float_equal(interval_half_width(&iv), 1.45, 1e-12);
	iv = ok(-2, 2);
	assert_float_equal(interval_half_width(&iv), 2, 1e-12);
}

static void test_update(void **state)
{
	struct precision_point pt = asked(1.0);
	struct interval iv = ok(4, 6);		/* +-1: at the target */
	struct interval wide = ok(4, 6.5);
	struct interval none = { .status = INTERVAL_TOO_FEW, .need = 4 };

	(void)state;
	/* narrow enough, but fewer pairs than the minimum */
	precision_update(&pt, &iv, 4, 5);
	assert_int_equal(pt.state, PRECISION_RUNNING);
	assert_int_equal(pt.pairs, 4);
	assert_true(pt.have_width);
	/* at the target is reached */
	precision_update(&pt, &iv, 5, 5);
	assert_int_equal(pt.state, PRECISION_REACHED);
	assert_float_equal(pt.half_width, 1.0, 1e-12);
	/* ran again and widened: running again, the record is the last */
	precision_update(&pt, &wide, 6, 5);
	assert_int_equal(pt.state, PRECISION_RUNNING);
	assert_int_equal(pt.pairs, 6);
	assert_float_equal(pt.half_width, 1.25, 1e-12);
	/* no interval yet */
	precision_update(&pt, &none, 3, 1);
	assert_int_equal(pt.state, PRECISION_RUNNING);
	assert_false(pt.have_width);
	/* a point without precision= stays off */
	pt.state = PRECISION_OFF;
	precision_update(&pt, &iv, 9, 1);
	assert_int_equal(pt.state, PRECISION_OFF);
}

static void test_round_fits(void **state)
{
	(void)state;
	assert_true(precision_round_fits(0, 10, 100));
	assert_true(precision_round_fits(90, 10, 100));	/* ends on it */
	assert_false(precision_round_fits(91, 10, 100));
	assert_false(precision_round_fits(100, 0, 100));
	assert_false(precision_round_fits(150, 10, 100));
	assert_false(precision_round_fits(0, UINT64_MAX, 100));
}

static void test_finish(void **state)
{
	struct precision_point run = asked(1), done = asked(1);
	struct interval iv = ok(0, 1);

	(void)state;
	precision_update(&done, &iv, 8, 4);
	precision_finish(&run, PRECISION_BUDGET);
	precision_finish(&done, PRECISION_BUDGET);
	assert_int_equal(run.state, PRECISION_BUDGET);
	assert_int_equal(done.state, PRECISION_REACHED);
}

static void test_words(void **state)
{
	struct precision_point pt = asked(1);
	struct interval iv = ok(4.1, 6.1);
	char buf[128];

	(void)state;
	precision_update(&pt, &iv, 14, 5);
	precision_describe(&pt, buf, sizeof(buf));
	assert_string_equal(buf, "reached +-1.0% after 14 pairs (asked +-1%)");
	assert_string_equal(precision_state_name(pt.state), "reached");

	iv = ok(-0.2, 5.2);
	precision_update(&pt, &iv, 30, 5);
	precision_finish(&pt, PRECISION_BUDGET);
	precision_describe(&pt, buf, sizeof(buf));
	assert_string_equal(buf, "budget spent: +-2.7% after 30 pairs "
			    "(asked +-1%)");
	assert_string_equal(precision_state_name(pt.state), "budget");

	pt = asked(0.5);
	iv = ok(1, 2.2);
	precision_update(&pt, &iv, 1000, 5);
	precision_finish(&pt, PRECISION_CAP);
	precision_describe(&pt, buf, sizeof(buf));
	assert_string_equal(buf, "round limit hit: +-0.60% after 1000 pairs "
			    "(asked +-0.5%)");
	pt = asked(0.5);
	iv = ok(1, 3);
	precision_update(&pt, &iv, 1, 1);
	pt.have_width = false;
	precision_finish(&pt, PRECISION_STOPPED);
	precision_describe(&pt, buf, sizeof(buf));
	assert_string_equal(buf, "stopped early (interrupted or a run "
			    "failed): no interval after 1 pair (asked +-0.5%)");
	assert_string_equal(precision_state_name(PRECISION_CAP), "cap");
	assert_null(precision_state_name(PRECISION_OFF));
	assert_null(precision_state_name(PRECISION_RUNNING));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_width),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_round_fits),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
