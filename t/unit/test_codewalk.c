/*
 * test_codewalk.c - kernel=codewalk and its generated footprint: the
 * table holds CODEWALK_NFUNCS distinct functions back to back, exactly
 * CODEWALK_FUNC_BYTES apart, each touching exactly the items it is given;
 * code_size maps to whole functions; a pass is a seeded permutation of the
 * first functions and calls each one exactly once per pass on batch items;
 * the run ends on its loops, its runtime, the stop flag or the victims.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "kernels/codewalk.h"
#include "kernels/kernel.h"
#include "jobopts.h"
#include "kernel_validate.h"

#define PROBE	0x0123456789abcdefull

static const struct kernel_ops *codewalk(void)
{
	const struct kernel_ops *k = kernel_find("codewalk");

	assert_non_null(k);
	return k;
}

/* The job's codewalk options: one job at a time is alive in these tests. */
static struct codewalk_opts cw_opts;
static struct jobopts jobopts;

static struct job_spec make_job(uint64_t code_size, unsigned batch,
				uint64_t loops, uint64_t seed)
{
	struct job_spec job = {
		.name = "w", .where = { "t.ini", 7 }, .loops = loops,
		.pattern_seed = seed, .kernel = kernel_find("codewalk"),
	};

	cw_opts = (struct codewalk_opts){ .code_size = code_size,
					  .batch = batch };
	jobopts_attach(&job, &jobopts, &kernel_codewalk_opts, &cw_opts);
	return job;
}

static void setup(struct kstate *k, const struct job_spec *job)
{
	memset(k, 0, sizeof(*k));
	k->job = job;
	assert_int_equal(codewalk()->init(k), 0);
	assert_non_null(k->priv);
}

static uintptr_t addr_of(codewalk_fn *f)
{
	return (uintptr_t)f;
}

/* Index in the table of the function at f (the table is in address
 * order, one function every CODEWALK_FUNC_BYTES). */
static size_t index_of(codewalk_fn *f)
{
	uintptr_t off = addr_of(f) - addr_of(codewalk_table[0]);

	assert_int_equal(off % CODEWALK_FUNC_BYTES, 0);
	return off / CODEWALK_FUNC_BYTES;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_registered(void **state)
{
	const struct kernel_ops *k = codewalk();

	(void)state;
	assert_string_equal(k->name, "codewalk");
	assert_int_equal(k->flags, KERN_PROGRAM | KERN_ITEMS | KERN_RESULT |
				   KERN_NO_GBPS);
	assert_string_equal(k->item_name, "item");
	assert_string_equal(k->result_name, "calls");
	assert_non_null(k->program);
	assert_non_null(k->validate);
}

/* NFUNCS functions, each at a line boundary, exactly FUNC_BYTES after the
 * one before: n functions are n * FUNC_BYTES bytes of code. */
static void test_table_layout(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(codewalk_nfuncs, CODEWALK_NFUNCS);
	assert_int_equal(addr_of(codewalk_table[0]) % 64, 0);
	for (i = 1; i < codewalk_nfuncs; i++)
		if (addr_of(codewalk_table[i]) - addr_of(codewalk_table[i - 1])
		    != CODEWALK_FUNC_BYTES)
			fail_msg("function %zu is not %d bytes after %zu", i,
				 CODEWALK_FUNC_BYTES, i - 1);
}

/* Every function computes something else: one probe value through each
 * gives NFUNCS different results. */
static void test_functions_distinct(void **state)
{
	uint64_t *out = malloc(codewalk_nfuncs * sizeof(*out));
	size_t i;

	(void)state;
	assert_non_null(out);
	for (i = 0; i < codewalk_nfuncs; i++) {
		struct codewalk_item it = { PROBE };

		codewalk_table[i](&it, 1);
		assert_true(it.v != PROBE);
		out[i] = it.v;
	}
	qsort(out, codewalk_nfuncs, sizeof(*out), cmp_u64);
	for (i = 1; i < codewalk_nfuncs; i++)
		if (out[i] == out[i - 1])
			fail_msg("two functions give %llx",
				 (unsigned long long)out[i]);
	free(out);
}

/* A call touches its n items and nothing else, and each item alone:
 * n items in one call give what n calls of one item give. */
static void test_function_items(void **state)
{
	static const size_t picks[] = { 0, 1, 4095, 65535 };
	struct codewalk_item it[12], one;

	(void)state;
	for (size_t p = 0; p < sizeof(picks) / sizeof(picks[0]); p++) {
		codewalk_fn *f = codewalk_table[picks[p] % codewalk_nfuncs];

		for (unsigned i = 0; i < 12; i++)
			it[i].v = codewalk_item_start(i);
		f(it + 1, 0);
		for (unsigned i = 0; i < 12; i++)
			assert_true(it[i].v == codewalk_item_start(i));
		f(it + 1, 10);
		assert_true(it[0].v == codewalk_item_start(0));
		assert_true(it[11].v == codewalk_item_start(11));
		for (unsigned i = 1; i < 11; i++) {
			one.v = codewalk_item_start(i);
			f(&one, 1);
			assert_true(it[i].v == one.v);
		}
	}
}

static void test_code_size(void **state)
{
	(void)state;
	assert_int_equal(codewalk_funcs_for(0), 0);
	assert_int_equal(codewalk_funcs_for(63), 0);
	assert_int_equal(codewalk_funcs_for(64), 1);
	assert_int_equal(codewalk_funcs_for(127), 1);
	assert_int_equal(codewalk_funcs_for(16 << 10), 256);
	assert_int_equal(codewalk_funcs_for(1 << 20), 16384);
	assert_int_equal(codewalk_funcs_for(4 << 20), 65536);
	assert_int_equal(codewalk_funcs_for(UINT64_MAX), codewalk_nfuncs);
}

static unsigned validate(const struct job_spec *job, char *msg, size_t len)
{
	return kernel_validate_msg(codewalk(), job, msg, len);
}

static void test_validate(void **state)
{
	struct job_spec job = make_job(64, 1, 1, 0);
	char msg[512];

	(void)state;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	cw_opts.code_size = 4 << 20;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	cw_opts.code_size = 63;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:7: option 'code_size': kernel=codewalk needs at least one function (64 bytes), got 63\n");
	cw_opts.code_size = (4 << 20) + 64;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:7: option 'code_size': kernel=codewalk has 4194304 bytes of code (65536 functions of 64 bytes), got 4194368\n");
}

/* The pass: the first code_size / 64 functions of the table, each once,
 * in an order the seed fixes. */
static void test_permutation(void **state)
{
	struct job_spec job = make_job(16 << 10, 4, 1, 11);
	struct kstate a, b, c;
	struct codewalk *cw;
	unsigned char seen[256] = { 0 };
	size_t i, moved = 0;

	(void)state;
	setup(&a, &job);
	cw = a.priv;
	assert_int_equal(cw->nfuncs, 256);
	assert_int_equal(cw->batch, 4);
	assert_int_equal((uintptr_t)cw->items % 64, 0);
	for (i = 0; i < cw->nfuncs; i++) {
		size_t f = index_of(cw->order[i]);

		assert_true(f < 256);
		assert_int_equal(seen[f], 0);
		seen[f] = 1;
		moved += f != i;
	}
	assert_true(moved > 200);	/* shuffled, not the table's order */

	setup(&b, &job);		/* same seed: same order */
	assert_memory_equal(((struct codewalk *)b.priv)->order, cw->order,
			    256 * sizeof(*cw->order));
	job.pattern_seed = 12;		/* another: another order */
	setup(&c, &job);
	assert_memory_not_equal(((struct codewalk *)c.priv)->order, cw->order,
				256 * sizeof(*cw->order));
	codewalk()->fini(&a);
	codewalk()->fini(&b);
	codewalk()->fini(&c);
	assert_null(a.priv);
}

/* Run program() to its end with a stop flag that stays clear. */
static int run(struct kstate *k, struct program_run *pr, atomic_int *stop)
{
	memset(pr, 0, sizeof(*pr));
	pr->stop = stop;
	return codewalk()->program(k, pr);
}

/*
 * Every pass calls each chosen function exactly once, in the laid-out
 * order, on all batch items: the items end where the same calls made here
 * leave them.  The functions are different bijections, so a call left
 * out, made twice or made on the wrong items would show.
 */
static void check_passes(uint64_t code_size, unsigned batch, uint64_t loops)
{
	struct job_spec job = make_job(code_size, batch, loops, 5);
	struct codewalk_item *ref = calloc(batch, sizeof(*ref));
	struct program_run pr;
	atomic_int stop = 0;
	struct codewalk *cw;
	struct kstate k;

	assert_non_null(ref);
	setup(&k, &job);
	cw = k.priv;
	for (unsigned i = 0; i < batch; i++) {
		ref[i].v = codewalk_item_start(i);
		assert_true(cw->items[i].v == ref[i].v);
	}
	assert_int_equal(run(&k, &pr, &stop), 0);
	assert_false(pr.stopped);
	assert_int_equal(k.result, loops * cw->nfuncs);
	assert_int_equal(k.items, loops * cw->nfuncs * batch);
	for (uint64_t p = 0; p < loops; p++)
		for (size_t i = 0; i < cw->nfuncs; i++)
			codewalk_table[index_of(cw->order[i])](ref, batch);
	for (unsigned i = 0; i < batch; i++)
		if (cw->items[i].v != ref[i].v)
			fail_msg("code_size %llu batch %u loops %llu: item %u",
				 (unsigned long long)code_size, batch,
				 (unsigned long long)loops, i);
	codewalk()->fini(&k);
	free(ref);
}

static void test_passes(void **state)
{
	(void)state;
	check_passes(64, 1, 1);
	check_passes(64, 1, 70000);	/* passes shorter than a check */
	check_passes(8 << 10, 5, 3);
	check_passes(100 << 10, 32, 2);	/* 1600 functions */
	check_passes(4 << 20, 1, 1);	/* the whole footprint */
	check_passes(1 << 20, 3000, 1);	/* chunks of 21 calls */
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A set stop flag ends a run at the first check (after about 65536
 * items), and says so.  Without the flag these runs would go on for a
 * million calls; runtime is only a backstop.
 */
static void test_stop(void **state)
{
	struct job_spec job = make_job(64, 1, 1 << 20, 1);
	struct program_run pr;
	atomic_int stop = 1;
	struct kstate k;

	(void)state;
	job.runtime_us = 5000000;
	setup(&k, &job);
	assert_int_equal(run(&k, &pr, &stop), 0);
	assert_true(pr.stopped);
	assert_int_equal(k.result, 65536);
	assert_int_equal(k.items, 65536);
	codewalk()->fini(&k);

	job = make_job(16 << 10, 8, 4096, 1);
	job.runtime_us = 5000000;
	setup(&k, &job);
	assert_int_equal(run(&k, &pr, &stop), 0);
	assert_true(pr.stopped);
	assert_int_equal(k.result, 8192);	/* 65536 items in 32 passes */
	assert_int_equal(k.items, 8192 * 8);
	codewalk()->fini(&k);
}

/* An aggressor runs whatever loops says, until the last victim is done
 * (here: already). */
static void test_until_zero(void **state)
{
	struct job_spec job = make_job(1 << 10, 2, 1, 1);
	struct program_run pr = { 0 };
	atomic_uint victims = 0;
	atomic_int stop = 0;
	struct kstate k;

	(void)state;
	job.runtime_us = 5000000;
	setup(&k, &job);
	pr.stop = &stop;
	pr.until_zero = &victims;
	assert_int_equal(codewalk()->program(&k, &pr), 0);
	assert_true(pr.stopped);
	assert_int_equal(k.result, 32768);	/* the first check */
	codewalk()->fini(&k);
}

/*
 * runtime ends a run of many loops early (a million passes would take
 * seconds), and a time_based run, whose passes never end by themselves.
 */
static void test_runtime(void **state)
{
	struct job_spec job = make_job(64 << 10, 4, 1000000, 1);
	struct program_run pr;
	atomic_int stop = 0;
	struct kstate k;
	uint64_t t0, ns;

	(void)state;
	job.runtime_us = 30000;
	setup(&k, &job);
	t0 = mono_ns();
	assert_int_equal(run(&k, &pr, &stop), 0);
	ns = mono_ns() - t0;
	assert_false(pr.stopped);
	assert_true(ns >= 30000000ull && ns < 2000000000ull);
	assert_true(k.result > 1024);	/* more than one pass */
	assert_true(k.result < 1000000ull * 1024);
	codewalk()->fini(&k);

	job.time_based = true;
	setup(&k, &job);
	t0 = mono_ns();
	assert_int_equal(run(&k, &pr, &stop), 0);
	ns = mono_ns() - t0;
	assert_false(pr.stopped);
	assert_true(ns >= 30000000ull && ns < 2000000000ull);
	assert_true(pr.ru.ru_utime.tv_sec || pr.ru.ru_utime.tv_usec ||
		    pr.ru.ru_stime.tv_sec || pr.ru.ru_stime.tv_usec);
	codewalk()->fini(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_table_layout),
		cmocka_unit_test(test_functions_distinct),
		cmocka_unit_test(test_function_items),
		cmocka_unit_test(test_code_size),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_until_zero),
		cmocka_unit_test(test_runtime),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
