/*
 * test_knee.c - engine/knee.c: where a chase sweep leaves each cache
 * level.  Synthetic curves first (clean steps at 32 KiB, 1 MiB and 36 MiB,
 * the same with one-sided noise and single slow points, an LLC that never
 * shows, an LLC knee far below sysfs, a plateau that starts after an early
 * knee, too few sizes, repeats, any order, a soft step followed by a dip),
 * then a real sweep measured on the 2-CPU VM this was written on
 * (t/fixtures/cache-sweep/vm-2cpu.csv, read through plotdata.c as memjob
 * plot reads it): its L1d and L2 knees must be within a factor of 2 of the
 * 32 KiB and 1 MiB that its sysfs reports, in every series.
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

#include "fixture.h"
#include "report/knee.h"
#include "subcommands/plotdata.h"

#define KiB	1024ull
#define MiB	(1024ull * 1024)
#define MAXPTS	64

/* L1d 32 KiB, L2 1 MiB, L3 36 MiB, and an L1i that must be skipped. */
static const struct topo_cache l1d = { .level = 1, .type = 'd', .size = 32 * KiB };
static const struct topo_cache l1i = { .level = 1, .type = 'i', .size = 32 * KiB };
static const struct topo_cache l2 = { .level = 2, .type = 'u', .size = 1 * MiB };
static const struct topo_cache l3 = { .level = 3, .type = 'u', .size = 36 * MiB };
static const struct topo_cache *const levels[] = { &l1d, &l1i, &l2, &l3 };
#define NLEVELS	4

struct curve {
	uint64_t size[MAXPTS * 3];
	double ns[MAXPTS * 3];
	unsigned n;
};

/* 4 KiB to hi in steps of sqrt(2) (4k, 6k, 8k, 12k, ...). */
static void sizes_upto(struct curve *c, uint64_t hi)
{
	c->n = 0;
	for (uint64_t p = 4 * KiB; p <= hi; p *= 2) {
		c->size[c->n++] = p;
		if (p + p / 2 <= hi)
			c->size[c->n++] = p + p / 2;
	}
}

/* A clean staircase: each level's latency up to and including its size. */
static double step(uint64_t s, uint64_t llc_at)
{
	if (s <= 32 * KiB)
		return 1.5;
	if (s <= 1 * MiB)
		return 5.0;
	if (s <= llc_at)
		return 20.0;
	return 90.0;
}

static void fill(struct curve *c, uint64_t llc_at)
{
	for (unsigned i = 0; i < c->n; i++)
		c->ns[i] = step(c->size[i], llc_at);
}

static unsigned find(const struct curve *c, struct knee *k)
{
	int n = knee_find(c->size, c->ns, c->n, levels, NLEVELS, k);

	assert_int_equal(n, 3);		/* L1i left out */
	return (unsigned)n;
}

static void expect_knee(const struct knee *k, unsigned level,
			enum knee_status st, uint64_t knee, uint64_t end,
			double plateau)
{
	assert_int_equal(k->level, level);
	assert_int_equal(k->status, st);
	assert_int_equal(k->knee_size, knee);
	assert_int_equal(k->plateau_end, end);
	assert_float_equal(k->plateau_ns, plateau, plateau * 0.001);
}

static bool within2(uint64_t knee, uint64_t sysfs)
{
	return knee * 2 >= sysfs && knee <= sysfs * 2;
}

static void test_clean_steps(void **state)
{
	struct curve c;
	struct knee k[NLEVELS];

	(void)state;
	sizes_upto(&c, 256 * MiB);
	fill(&c, 36 * MiB);
	find(&c, k);
	expect_knee(&k[0], 1, KNEE_FOUND, 48 * KiB, 32 * KiB, 1.5);
	expect_knee(&k[1], 2, KNEE_FOUND, 1536 * KiB, 1 * MiB, 5.0);
	expect_knee(&k[2], 3, KNEE_FOUND, 48 * MiB, 32 * MiB, 20.0);
	assert_float_equal(k[0].after_ns, 5.0, 1e-9);
	assert_float_equal(k[2].after_ns, 90.0, 1e-9);
	assert_int_equal(k[0].type, 'd');
	assert_int_equal(k[2].cache_size, 36 * MiB);
	assert_int_equal(k[2].last_size, 256 * MiB);
	assert_string_equal(k[0].text, "1.50 ns up to 32 KiB, 5.00 ns at 48 KiB");
}

/* splitmix64, for reproducible noise */
static double unit_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/*
 * A busy machine: every point up to 35% slower, and single points inside
 * each plateau twice as slow (a context switch in the measurement).  The
 * knees must stay where they are, and the plateaus near the true ones.
 */
static void test_noisy_steps(void **state)
{
	static const uint64_t spikes[] = { 12 * KiB, 256 * KiB, 8 * MiB };
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		uint64_t s = seed;

		sizes_upto(&c, 256 * MiB);
		fill(&c, 36 * MiB);
		for (unsigned i = 0; i < c.n; i++) {
			c.ns[i] *= 1 + 0.35 * unit_rand(&s);
			for (unsigned j = 0; j < 3; j++)
				if (c.size[i] == spikes[j])
					c.ns[i] *= 2.2;
		}
		find(&c, k);
		for (unsigned l = 0; l < 3; l++) {
			if (k[l].status != KNEE_FOUND)
				fail_msg("seed %llu, L%u: %s",
					 (unsigned long long)seed, l + 1,
					 k[l].text);
			assert_true(within2(k[l].knee_size, k[l].cache_size));
		}
		assert_true(k[0].plateau_ns >= 1.5 && k[0].plateau_ns < 1.5 * 1.35);
		assert_true(k[1].plateau_ns >= 5.0 && k[1].plateau_ns < 5.0 * 1.35);
		assert_true(k[2].plateau_ns >= 20 && k[2].plateau_ns < 20 * 1.35);
	}
}

/* One slow point is not a knee: the rise has to stay. */
static void test_single_spike(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	sizes_upto(&c, 256 * MiB);
	fill(&c, 36 * MiB);
	for (unsigned i = 0; i < c.n; i++)
		if (c.size[i] == 16 * KiB || c.size[i] == 4 * MiB)
			c.ns[i] = 40;
	find(&c, k);
	expect_knee(&k[0], 1, KNEE_FOUND, 48 * KiB, 32 * KiB, 1.5);
	expect_knee(&k[2], 3, KNEE_FOUND, 48 * MiB, 32 * MiB, 20.0);
}

/* The sweep goes to 256 MiB and latency never leaves the L3 plateau. */
static void test_missing_knee(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	sizes_upto(&c, 256 * MiB);
	fill(&c, 1024 * MiB);
	find(&c, k);
	assert_int_equal(k[1].status, KNEE_FOUND);
	assert_int_equal(k[2].status, KNEE_NONE);
	assert_int_equal(k[2].knee_size, 0);
	assert_float_equal(k[2].plateau_ns, 20.0, 1e-9);
	assert_string_equal(k[2].text, "no knee near 36 MiB: latency stays "
			    "at 20.0 ns up to 256 MiB");
}

/* A VM whose host shares the LLC: the L3 knee at 4 MiB, not 36. */
static void test_far_knee(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	sizes_upto(&c, 256 * MiB);
	fill(&c, 4 * MiB);
	find(&c, k);
	assert_int_equal(k[1].status, KNEE_FOUND);
	expect_knee(&k[2], 3, KNEE_FAR, 6 * MiB, 4 * MiB, 20.0);
	assert_string_equal(k[2].text, "knee at 6 MiB, far from the 36 MiB "
			    "the topology says (20.0 ns up to 4 MiB, 90.0 ns at 6 MiB)");
	/* and an L2 far above its sysfs size */
	for (unsigned i = 0; i < c.n; i++)
		c.ns[i] = c.size[i] <= 32 * KiB ? 1.5 :
			  c.size[i] <= 8 * MiB ? 5 : 90;
	find(&c, k);
	assert_int_equal(k[1].status, KNEE_FAR);
	assert_int_equal(k[1].knee_size, 12 * MiB);
}

/*
 * The next level's plateau starts after the knee that was measured, not
 * only after the sysfs size: here L2 ends at 512 KiB and the LLC serves
 * only up to 2 MiB, a plateau that a window starting at 2 x 1 MiB would
 * miss (it would see memory latency there and call it the LLC's plateau).
 */
static void test_window_after_knee(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	sizes_upto(&c, 256 * MiB);
	for (unsigned i = 0; i < c.n; i++)
		c.ns[i] = c.size[i] <= 32 * KiB ? 1.5 :
			  c.size[i] <= 512 * KiB ? 5 :
			  c.size[i] <= 2 * MiB ? 20 : 90;
	find(&c, k);
	expect_knee(&k[1], 2, KNEE_FOUND, 768 * KiB, 512 * KiB, 5.0);
	expect_knee(&k[2], 3, KNEE_FAR, 3 * MiB, 2 * MiB, 20.0);
}

/* Levels too close for the usual window, (2 P, S/2], take (P, S]. */
static void test_tight_levels(void **state)
{
	static const struct topo_cache a = { .level = 1, .type = 'd', .size = 32 * KiB };
	static const struct topo_cache b = { .level = 2, .type = 'u', .size = 96 * KiB };
	const struct topo_cache *const lv[] = { &a, &b };
	struct knee k[2];
	struct curve c;

	(void)state;
	sizes_upto(&c, 1 * MiB);
	for (unsigned i = 0; i < c.n; i++)
		c.ns[i] = c.size[i] <= 32 * KiB ? 1.5 :
			  c.size[i] <= 96 * KiB ? 5 : 20;
	assert_int_equal(knee_find(c.size, c.ns, c.n, lv, 2, k), 2);
	expect_knee(&k[0], 1, KNEE_FOUND, 48 * KiB, 32 * KiB, 1.5);
	expect_knee(&k[1], 2, KNEE_FOUND, 128 * KiB, 96 * KiB, 5.0);
}

static void test_too_few(void **state)
{
	uint64_t sz[] = { 4 * KiB, 8 * KiB };
	double ns[] = { 1.5, 1.6 };
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	assert_int_equal(knee_find(NULL, NULL, 0, levels, NLEVELS, k), 3);
	for (unsigned l = 0; l < 3; l++) {
		assert_int_equal(k[l].status, KNEE_NO_DATA);
		assert_string_equal(k[l].text, "no sizes measured");
	}

	assert_int_equal(knee_find(sz, ns, 2, levels, NLEVELS, k), 3);
	assert_int_equal(k[0].status, KNEE_NO_DATA);
	assert_float_equal(k[0].plateau_ns, 1.55, 1e-9);
	assert_string_equal(k[0].text, "latency stays at 1.55 ns up to 8 KiB, "
			    "where the sweep ends; it must go past 64 KiB to "
			    "show this knee");
	assert_int_equal(k[1].status, KNEE_NO_DATA);
	assert_string_equal(k[1].text, "no size measured between 32 KiB and "
			    "1 MiB");

	/* a sweep that stops at 16 MiB cannot see a 36 MiB LLC */
	sizes_upto(&c, 16 * MiB);
	fill(&c, 36 * MiB);
	find(&c, k);
	assert_int_equal(k[0].status, KNEE_FOUND);
	assert_int_equal(k[1].status, KNEE_FOUND);
	assert_int_equal(k[2].status, KNEE_NO_DATA);

	/* points that cannot count are left out, not trusted */
	sizes_upto(&c, 256 * MiB);
	fill(&c, 36 * MiB);
	c.ns[0] = NAN;
	c.ns[1] = 0;
	c.ns[2] = -3;
	c.size[3] = 0;
	find(&c, k);
	expect_knee(&k[0], 1, KNEE_FOUND, 48 * KiB, 32 * KiB, 1.5);
}

/* Repeats count as their median, and the order of the points is free. */
static void test_repeats_any_order(void **state)
{
	struct knee a[NLEVELS], b[NLEVELS];
	struct curve c, r;
	uint64_t s = 7;

	(void)state;
	sizes_upto(&c, 256 * MiB);
	fill(&c, 36 * MiB);
	find(&c, a);

	/* three repeats per size, one of them far off, in shuffled order */
	r.n = 0;
	for (unsigned i = 0; i < c.n; i++) {
		r.size[r.n] = c.size[i];
		r.ns[r.n++] = c.ns[i];
		r.size[r.n] = c.size[i];
		r.ns[r.n++] = c.ns[i] * 50;
		r.size[r.n] = c.size[i];
		r.ns[r.n++] = c.ns[i];
	}
	for (unsigned i = r.n - 1; i > 0; i--) {
		unsigned j = (unsigned)(unit_rand(&s) * (i + 1));
		uint64_t ts = r.size[i];
		double tn = r.ns[i];

		r.size[i] = r.size[j];
		r.ns[i] = r.ns[j];
		r.size[j] = ts;
		r.ns[j] = tn;
	}
	find(&r, b);
	for (unsigned l = 0; l < 3; l++) {
		assert_int_equal(a[l].status, b[l].status);
		assert_int_equal(a[l].knee_size, b[l].knee_size);
		assert_float_equal(a[l].plateau_ns, b[l].plateau_ns, 1e-9);
	}
}

/*
 * jobs/cache-loop.ini (streaming stores, one per line) on the 2-vCPU EPYC
 * guest (L1d 48 KiB, L2 1 MiB, L3 32 MiB) while other builds ran: the
 * stores step up by only 1.4x at L2 (0.63 -> 0.88 ns at 1 MiB), and the
 * curve dips again at 4-8 MiB before the L3 step at 16 MiB.  The L2 knee
 * is at 1 MiB, not at 16 MiB "far from 1 MiB".  A bump that comes back
 * down to the plateau is no step.
 */
static void test_soft_step_then_dip(void **state)
{
	static const struct topo_cache g1 = { .level = 1, .type = 'd', .size = 48 * KiB };
	static const struct topo_cache g3 = { .level = 3, .type = 'u', .size = 32 * MiB };
	const struct topo_cache *const lv[] = { &g1, &l2, &g3 };
	static const double loop[] = {
		0.45, 0.43, 0.44, 0.47, 0.63, 0.62, 0.61,
		0.63, 0.88, 0.97, 0.84, 0.86, 2.61, 4.62,
	};
	uint64_t sz[14];
	double ns[14];
	struct knee k[3];

	(void)state;
	for (unsigned i = 0; i < 14; i++) {
		sz[i] = (4 * KiB) << i;		/* 4 KiB .. 32 MiB */
		ns[i] = loop[i];
	}
	assert_int_equal(knee_find(sz, ns, 14, lv, 3, k), 3);
	expect_knee(&k[0], 1, KNEE_FOUND, 64 * KiB, 32 * KiB, 0.44);
	expect_knee(&k[1], 2, KNEE_FOUND, 1 * MiB, 512 * KiB, 0.62);
	assert_float_equal(k[1].after_ns, 0.88, 1e-9);
	assert_string_equal(k[1].text, "0.62 ns up to 512 KiB, 0.88 ns at 1 MiB");
	expect_knee(&k[2], 3, KNEE_FOUND, 16 * MiB, 8 * MiB, 0.85);

	/* the same rise coming back to the plateau at 2 and 4 MiB: a bump */
	ns[9] = 0.66;
	ns[10] = 0.64;
	assert_int_equal(knee_find(sz, ns, 14, lv, 3, k), 3);
	assert_true(k[1].knee_size != 1 * MiB);
	/* and a dip that stays up but leaves the median below the rise */
	ns[9] = 0.75;
	ns[10] = 0.74;
	assert_int_equal(knee_find(sz, ns, 14, lv, 3, k), 3);
	assert_true(k[1].knee_size != 1 * MiB);
}

/* The knee can be the last size measured: nothing left to confirm it. */
static void test_knee_at_end(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;

	(void)state;
	sizes_upto(&c, 48 * MiB);
	fill(&c, 36 * MiB);
	find(&c, k);
	assert_int_equal(c.size[c.n - 1], 48 * MiB);
	expect_knee(&k[2], 3, KNEE_FOUND, 48 * MiB, 32 * MiB, 20.0);
}

static void test_print(void **state)
{
	struct knee k[NLEVELS];
	struct curve c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	sizes_upto(&c, 256 * MiB);
	fill(&c, 4 * MiB);
	find(&c, k);
	knee_print(f, k, 3);
	fclose(f);
	assert_string_equal(buf,
		"  cache       size    plateau       knee\n"
		"  L1d       32 KiB    1.50 ns     48 KiB  1.50 ns up to 32 KiB, 5.00 ns at 48 KiB\n"
		"  L2         1 MiB    5.00 ns    1.5 MiB  5.00 ns up to 1 MiB, 20.0 ns at 1.5 MiB\n"
		"  L3        36 MiB    20.0 ns      6 MiB  knee at 6 MiB, far from the 36 MiB the topology says (20.0 ns up to 4 MiB, 90.0 ns at 6 MiB)\n");
	free(buf);
}

/* knee_levels takes L1d, L2 and L3 from a topology, not L1i. */
static void test_levels(void **state)
{
	const struct topo_cache *lv[KNEE_MAX_LEVELS];
	struct topo t;
	unsigned n;

	(void)state;
	fixture_load_topo(&t, "seed000");
	n = knee_levels(&t, 0, lv, KNEE_MAX_LEVELS);
	assert_int_equal(n, 3);
	assert_int_equal(lv[0]->size, 48 * KiB);
	assert_int_equal(lv[0]->type, 'd');
	assert_int_equal(lv[1]->size, 512 * KiB);
	assert_int_equal(lv[2]->size, 6 * MiB);
	assert_int_equal(knee_levels(&t, 0, lv, 2), 2);
	topo_free(&t);
}

/*
 * jobs/cache-sweep.ini as run on the 2-CPU KVM guest (Xeon, L1d 32 KiB,
 * L2 1 MiB, L3 35.75 MiB shared with the host's other guests) while other
 * jobs ran on it: four series (random and page layout, 4 KiB and huge
 * pages), three repeats per size.
 */
static void test_real_sweep(void **state)
{
	static const struct topo_cache vl3 = { .level = 3, .type = 'u',
					       .size = 37486592 };
	const struct topo_cache *const vm[] = { &l1d, &l2, &vl3 };
	struct plot_data pd;
	char path[4096], err[512];

	(void)state;
	fixture_path("cache-sweep/vm-2cpu.csv", path, sizeof(path));
	if (plot_data_load(&pd, path, "size", "ns_per_item", false, err,
			   sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pd.nseries, 4);
	for (unsigned s = 0; s < pd.nseries; s++) {
		const struct plot_series *ps = &pd.series[s];
		uint64_t sz[MAXPTS];
		struct knee k[3];

		assert_true(ps->n >= 30 && ps->n <= MAXPTS);
		for (unsigned i = 0; i < ps->n; i++)
			sz[i] = (uint64_t)ps->x[i];
		assert_int_equal(knee_find(sz, ps->y, ps->n, vm, 3, k), 3);
		for (unsigned l = 0; l < 2; l++)
			if (k[l].status != KNEE_FOUND ||
			    !within2(k[l].knee_size, k[l].cache_size))
				fail_msg("%s, L%u: %s", ps->title, l + 1,
					 k[l].text);
		/* L1 hits take a few ns, L2 hits a few more */
		assert_true(k[0].plateau_ns > 0.5 && k[0].plateau_ns < 8);
		assert_true(k[1].plateau_ns > 1.5 * k[0].plateau_ns);
		/* whatever the LLC does here, it has a plateau and a verdict */
		assert_true(k[2].plateau_ns > k[1].plateau_ns);
	}
	plot_data_free(&pd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_steps),
		cmocka_unit_test(test_noisy_steps),
		cmocka_unit_test(test_single_spike),
		cmocka_unit_test(test_missing_knee),
		cmocka_unit_test(test_far_knee),
		cmocka_unit_test(test_window_after_knee),
		cmocka_unit_test(test_tight_levels),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_repeats_any_order),
		cmocka_unit_test(test_knee_at_end),
		cmocka_unit_test(test_soft_step_then_dip),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_real_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
