/*
 * test_result.c - run/result.c: the sums over a run's clones.  The ns per
 * item of a job is its clones' windows over their items, both summed (not
 * the mean of each clone's ratio, which weighs a clone that counted little
 * as much as one that counted much); a clone whose window is under 90% of
 * the longest clone's ran markedly shorter; the CPU-clock figure of a run
 * is its usr + sys per item.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/kernel.h"
#include "run/result.h"

struct one_job {
	struct job_spec spec;
	struct planned_job pj;
	struct segment seg;
	struct plan plan;
	struct results r;
};

/* One job of two clones counting items (kernel=chase), one repeat. */
static void one_job(struct one_job *o)
{
	memset(o, 0, sizeof(*o));
	o->spec.name = "c";
	o->spec.numjobs = 2;
	o->spec.repeat = 1;
	o->spec.baseline = -1;
	o->spec.kernel = kernel_find("chase");
	assert_non_null(o->spec.kernel);
	o->pj.spec = &o->spec;
	o->seg = (struct segment){ .first = 0, .count = 1, .repeat = 1 };
	o->plan = (struct plan){ .jobs = &o->pj, .njobs = 1,
				 .segments = &o->seg, .nsegments = 1 };
	assert_int_equal(results_init(&o->r, &o->plan), 0);
}

/* Clone c's window [start, end) with items counted and CPU time. */
static void clone_ran(struct one_job *o, unsigned c, uint64_t start,
		      uint64_t end, uint64_t items, uint64_t cpu)
{
	struct thread_result *t = &results_get(&o->r, 0, 0)->threads[c];

	t->status = RUN_OK;
	t->start_ns = start;
	t->end_ns = end;
	t->items = items;
	t->usr_ns = cpu;
}

static void test_ns_per_item_from_totals(void **state)
{
	struct one_job o;
	const struct job_result *jr;

	(void)state;
	one_job(&o);
	/* the same 1 us: 100 items (10 ns each), 900 (1.1 ns each) */
	clone_ran(&o, 0, 1000, 2000, 100, 1000);
	clone_ran(&o, 1, 1000, 2000, 900, 1000);
	results_summarise(&o.r);
	jr = results_get(&o.r, 0, 0);
	assert_int_equal(jr->items, 1000);
	/* 2000 ns of clone time over 1000 items, not (10 + 1.11) / 2 */
	assert_float_equal(jr->ns_per_item, 2.0, 1e-12);
	assert_float_equal(jr->cpu_ns_per_item, 2.0, 1e-12);
	assert_float_equal(job_cpu_metric(jr).value, 2.0, 1e-12);
	assert_string_equal(job_cpu_metric(jr).label, "CPU ns per access");
	assert_int_equal(jr->short_clones, 0);
	assert_false(clone_ran_short(jr, 0));
	assert_false(clone_ran_short(jr, 1));
	results_free(&o.r);
}

static void test_short_clone(void **state)
{
	struct one_job o;
	const struct job_result *jr;

	(void)state;
	one_job(&o);
	clone_ran(&o, 0, 1000, 11000, 1000, 10000);	/* 10 us */
	clone_ran(&o, 1, 1000, 9900, 1000, 8900);	/* 8.9 us: < 90% */
	results_summarise(&o.r);
	jr = results_get(&o.r, 0, 0);
	assert_false(clone_ran_short(jr, 0));
	assert_true(clone_ran_short(jr, 1));
	assert_int_equal(jr->short_clones, 1);
	assert_float_equal(jr->ns_per_item, 18900.0 / 2000, 1e-12);
	results_free(&o.r);

	one_job(&o);
	clone_ran(&o, 0, 1000, 11000, 1000, 10000);
	clone_ran(&o, 1, 1000, 10100, 1000, 9100);	/* 9.1 us: 91% */
	results_summarise(&o.r);
	jr = results_get(&o.r, 0, 0);
	assert_int_equal(jr->short_clones, 0);
	results_free(&o.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ns_per_item_from_totals),
		cmocka_unit_test(test_short_clone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
