/*
 * test_hostnoise.c - unit tests for engine/machine/hostnoise.c: the
 * per-CPU /proc/stat parser, steal over a set of CPUs between two
 * snapshots, merging runs, the frequency from a cpufreq tree, the
 * per-thread run-queue wait, the words and the warning.
 *
 * /proc/stat text is written here (a fixture with fixed content would
 * give zero deltas): two texts a known number of ticks apart must give
 * exactly that steal.  Then this machine: two real snapshots around a
 * busy loop must give a steal between 0 and 100% over some ticks, and the
 * thread's own run-queue wait must not go backwards (skipped, with the
 * reason, where the kernel has no CONFIG_SCHED_INFO).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <time.h>

#include "scratch.h"
#include "machine/hostnoise.h"

/* cpu0 and cpu1 as on a 2-vCPU guest, with guest fields; cpu3 from a
 * kernel without steal (4 fields): not a figure. */
static const char stat_a[] =
	"cpu  300 0 200 1000 10 0 5 50 7 0\n"
	"cpu0 100 0 100 500 5 0 2 20 7 0\n"
	"cpu1 200 0 100 500 5 0 3 30 0 0\n"
	"cpu3 1 2 3 4\n"
	"intr 12345 1 2 3\n"
	"ctxt 999\n"
	"procs_running 3\n";

/* 1000 ticks later on each CPU: cpu0 lost 100 of them, cpu1 none. */
static const char stat_b[] =
	"cpu  800 0 400 2200 10 0 5 150 7 0\n"
	"cpu0 400 0 300 900 5 0 2 120 7 0\n"
	"cpu1 500 0 200 1100 5 0 3 30 0 0\n"
	"cpu3 5 6 7 8\n";

static struct hostnoise_snap *snap_of(const char *text)
{
	struct hostnoise_snap *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	assert_int_equal(hostnoise_parse_stat(text, s), 0);
	return s;
}

static void test_parse_stat(void **state)
{
	struct hostnoise_snap *s = snap_of(stat_a);

	(void)state;
	assert_true(s->have_stat);
	assert_true(s->cpu[0].have);
	/* guest (7) is inside user already: not added again */
	assert_int_equal(s->cpu[0].total, 100 + 100 + 500 + 5 + 2 + 20);
	assert_int_equal(s->cpu[0].steal, 20);
	assert_int_equal(s->cpu[1].steal, 30);
	assert_false(s->cpu[2].have);
	assert_false(s->cpu[3].have);	/* no steal field */
	assert_int_equal(hostnoise_parse_stat("intr 1\nctxt 2\n", s), -1);
	assert_false(s->have_stat);
	assert_false(s->cpu[0].have);
	free(s);
}

static void test_steal_over_cpus(void **state)
{
	struct hostnoise_snap *a = snap_of(stat_a), *b = snap_of(stat_b);
	struct hostnoise n = { 0 }, m = { 0 }, none = { 0 };
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	hostnoise_set_steal(&n, hostnoise_ticks(a, b, &set));
	assert_true(n.have_steal);
	assert_int_equal(n.ticks, 1000);
	assert_int_equal(n.steal_ticks, 100);
	assert_float_equal(n.steal_pct, 10.0, 1e-9);
	CPU_SET(1, &set);
	CPU_SET(3, &set);		/* read, but without steal: left out */
	hostnoise_set_steal(&m, hostnoise_ticks(a, b, &set));
	assert_int_equal(m.ticks, 2000);
	assert_float_equal(m.steal_pct, 5.0, 1e-9);
	/* the same snapshot twice: no tick passed, no figure (not 0%) */
	hostnoise_set_steal(&none, hostnoise_ticks(a, a, &set));
	assert_false(none.have_steal);
	/* a CPU whose counters went backwards (offline and back) is left
	 * out rather than giving a huge figure */
	hostnoise_set_steal(&none, hostnoise_ticks(b, a, &set));
	assert_false(none.have_steal);
	free(a);
	free(b);
}

static void test_merge(void **state)
{
	struct hostnoise x = { 0 }, y = { 0 }, all = { 0 };
	struct hostnoise_ticks tx = { 100, 10 }, ty = { 300, 0 };

	(void)state;
	hostnoise_set_steal(&x, tx);
	hostnoise_set_steal(&y, ty);
	hostnoise_add_wait(&x, 5, 100);
	hostnoise_add_wait(&x, 15, 100);
	assert_float_equal(x.wait_pct, 10.0, 1e-9);
	hostnoise_merge(&all, &x);
	hostnoise_merge(&all, &y);
	/* ticks weigh, not runs: 10 of 400, not the mean of 10% and 0% */
	assert_float_equal(all.steal_pct, 2.5, 1e-9);
	assert_int_equal(all.ticks, 400);
	assert_true(all.have_wait);
	assert_float_equal(all.wait_pct, 10.0, 1e-9);
	assert_false(all.have_freq);
}

static void test_snap_and_freq_from_tree(void **state)
{
	struct hostnoise_snap *a = calloc(1, sizeof(*a));
	struct hostnoise_snap *b = calloc(1, sizeof(*b));
	struct hostnoise n = { 0 }, q = { 0 };
	char root[4096], d[256];
	cpu_set_t set;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(scratch_dir(root, sizeof(root), "hostnoise"), 0);
	scratch_put(root, "proc/stat", stat_a);
	scratch_put(root, "sys/devices/system/cpu/cpu0/cpufreq/"
		    "scaling_cur_freq", "2400000\n");
	scratch_put(root, "sys/devices/system/cpu/cpu1/cpufreq/"
		    "scaling_cur_freq", "1200000\n");
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	hostnoise_snap(root, &set, a);
	assert_true(a->have_stat);
	assert_int_equal(a->cpu[0].khz, 2400000);
	scratch_put(root, "proc/stat", stat_b);
	scratch_put(root, "sys/devices/system/cpu/cpu1/cpufreq/"
		    "scaling_cur_freq", "1800000\n");
	hostnoise_snap(root, &set, b);
	hostnoise_set_steal(&n, hostnoise_ticks(a, b, &set));
	hostnoise_set_freq(&n, a, b, &set);
	assert_float_equal(n.steal_pct, 5.0, 1e-9);
	assert_true(n.have_freq);
	assert_float_equal(n.mhz, (2400 + 1200 + 2400 + 1800) / 4.0, 1e-9);
	assert_float_equal(n.mhz_min, 1200, 1e-9);
	assert_float_equal(n.mhz_max, 2400, 1e-9);
	hostnoise_describe(&n, d, sizeof(d));
	assert_string_equal(d, "steal 5.0% (of 2000 ticks), waited for a CPU "
			    "not readable, frequency 1950 MHz (1200-2400)");
	/* CPU 2 has no cpufreq: not readable, never 0 MHz */
	CPU_ZERO(&set);
	CPU_SET(2, &set);
	hostnoise_snap(root, &set, b);
	hostnoise_set_freq(&q, b, b, &set);
	assert_false(q.have_freq);
	hostnoise_describe(&q, d, sizeof(d));
	assert_string_equal(d, "steal not readable, waited for a CPU not "
			    "readable, frequency not readable");
	/* no proc/stat at all */
	scratch_put(root, "proc/stat", "");
	hostnoise_snap(root, NULL, b);
	assert_false(b->have_stat);
	assert_int_equal(scratch_remove(root), 0);
	free(a);
	free(b);
}

static void test_schedstat(void **state)
{
	uint64_t ns = 0;
	char root[4096];

	(void)state;
	assert_int_equal(hostnoise_parse_schedstat("2155613 17733785 34\n",
						   &ns), 0);
	assert_int_equal(ns, 17733785);
	assert_int_equal(hostnoise_parse_schedstat("2155613\n", &ns), -1);
	assert_int_equal(scratch_dir(root, sizeof(root), "hostnoise"), 0);
	assert_int_equal(hostnoise_thread_wait(root, &ns), -1);
	scratch_put(root, "proc/thread-self/schedstat", "10 20 3\n");
	assert_int_equal(hostnoise_thread_wait(root, &ns), 0);
	assert_int_equal(ns, 20);
	assert_int_equal(scratch_remove(root), 0);
}

static void test_warning(void **state)
{
	struct hostnoise n = { 0 };
	struct hostnoise_ticks t = { 1000, 41 };
	char w[256];

	(void)state;
	hostnoise_set_steal(&n, t);
	hostnoise_warning(&n, 1.2, 5.0, true, "the victim's", w, sizeof(w));
	assert_string_equal(w, "steal 4.1% of the victim's CPU time: effects "
			    "below ~4.1% cannot be told from the host's "
			    "noise");
	/* an interval wider than the noise, an effect larger: no warning */
	hostnoise_warning(&n, 6.0, 20.0, true, "the victim's", w, sizeof(w));
	assert_string_equal(w, "");
	/* ... but a significant effect no larger than the noise warns */
	hostnoise_warning(&n, 6.0, -3.0, true, "the victim's", w, sizeof(w));
	assert_string_not_equal(w, "");
	hostnoise_warning(&n, 6.0, 3.0, false, "the victim's", w, sizeof(w));
	assert_string_equal(w, "");
	/* the larger of steal and wait speaks */
	hostnoise_add_wait(&n, 80, 1000);
	hostnoise_warning(&n, 1.0, 5.0, true, "the victim's", w, sizeof(w));
	assert_string_equal(w, "the victim's threads waited for a CPU 8.0% "
			    "of their time: effects below ~8.0% cannot be "
			    "told from the host's noise");
	/* nothing readable: nothing to warn about */
	n = (struct hostnoise){ 0 };
	hostnoise_warning(&n, 0.0, 0.0, true, "the victim's", w, sizeof(w));
	assert_string_equal(w, "");
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* This machine: real snapshots around 200 ms of work. */
static void test_this_machine(void **state)
{
	struct hostnoise_snap *a = calloc(1, sizeof(*a));
	struct hostnoise_snap *b = calloc(1, sizeof(*b));
	struct hostnoise n = { 0 };
	uint64_t w0, w1, end;
	volatile uint64_t spin = 0;
	bool have_wait;
	cpu_set_t set;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	hostnoise_snap("", &set, a);
	if (!a->have_stat) {
		free(a);
		free(b);
		print_message("skipped: no /proc/stat to read\n");
		skip();
	}
	have_wait = !hostnoise_thread_wait("", &w0);
	end = mono_ns() + 200000000ull;
	while (mono_ns() < end)
		spin++;
	hostnoise_snap("", &set, b);
	hostnoise_set_steal(&n, hostnoise_ticks(a, b, &set));
	assert_true(n.have_steal);	/* 200 ms: ticks passed */
	assert_true(n.steal_pct >= 0 && n.steal_pct <= 100);
	print_message("steal %.2f%% of %llu ticks\n", n.steal_pct,
		      (unsigned long long)n.ticks);
	if (have_wait) {
		assert_int_equal(hostnoise_thread_wait("", &w1), 0);
		assert_true(w1 >= w0);
		assert_true(w1 - w0 <= 200000000ull * 4);
	} else {
		print_message("no /proc/thread-self/schedstat "
			      "(CONFIG_SCHED_INFO): wait not checked\n");
	}
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_steal_over_cpus),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_snap_and_freq_from_tree),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
