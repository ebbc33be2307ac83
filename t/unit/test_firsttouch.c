/*
 * test_firsttouch.c - first_touch=: what auto means for each kind of
 * source, what the report says for each mode (a rate only for a first
 * touch of pages not yet mapped), how clones merge, and that touching a region
 * (loads, or loads and stores of the same bytes) leaves every byte as it
 * was, whatever the region's alignment and length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "run/firsttouch.h"

static void test_resolve(void **state)
{
	(void)state;
	/* auto: untimed where the source filled the memory, else timed */
	assert_int_equal(first_touch_resolve(TOUCH_AUTO, true), TOUCH_UNTIMED);
	assert_int_equal(first_touch_resolve(TOUCH_AUTO, false), TOUCH_TIMED);
	/* an explicit choice holds either way */
	for (int r = 0; r < 2; r++) {
		assert_int_equal(first_touch_resolve(TOUCH_UNTIMED, r), TOUCH_UNTIMED);
		assert_int_equal(first_touch_resolve(TOUCH_TIMED, r), TOUCH_TIMED);
		assert_int_equal(first_touch_resolve(TOUCH_PHASE, r), TOUCH_PHASE);
	}
}

static void test_describe(void **state)
{
	struct touch_result t = {
		.mode = TOUCH_PHASE,
		.fig = { .bytes = 1ULL << 30, .ns = 612000000,
			 .usr_ns = 12000000, .sys_ns = 410000000,
			 .minflt = 262144, .majflt = 0 },
	};
	char buf[320];
	double gbps;

	(void)state;
	/* fresh pages: a first touch, with its rate */
	first_touch_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "first touch of 1 GiB (pages not yet mapped): "
			    "0.612 s at 1.75 GB/s with 262144 minor and 0 "
			    "major faults and cpu usr 0.012 s sys 0.410 s (its "
			    "own phase; untimed in the passes)");
	assert_true(first_touch_gbps(&t, &gbps));
	assert_float_equal(gbps, (double)(1ULL << 30) / 612000000, 1e-12);
	/* pages the source mapped: a re-touch, said so, and no rate */
	t.present = true;
	first_touch_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "first touch of 1 GiB not timed: the source "
			    "mapped its pages before the job and a walk over "
			    "them: 0.612 s with 262144 minor and 0 major faults "
			    "and cpu usr 0.012 s sys 0.410 s (a re-touch; "
			    "untimed in the passes)");
	assert_null(strstr(buf, "GB/s"));
	assert_false(first_touch_gbps(&t, &gbps));
	t.mode = TOUCH_UNTIMED;
	first_touch_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "first touch untimed (before the clock)");
	assert_false(first_touch_gbps(&t, &gbps));
	/* timed: in the first pass only where the pages were not mapped */
	t.mode = TOUCH_TIMED;
	first_touch_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "first touch before the clock (the source "
			    "mapped the pages before the job)");
	t.present = false;
	first_touch_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "first touch timed (in the first pass)");
	/* a phase too short to time has no rate, not a division by 0 */
	t.mode = TOUCH_PHASE;
	t.fig.ns = 0;
	first_touch_describe(&t, buf, sizeof(buf));
	assert_non_null(strstr(buf, ": 0.000 s with"));
	assert_false(first_touch_gbps(&t, &gbps));
	/* cut to the buffer, terminated */
	first_touch_describe(&t, buf, 10);
	assert_int_equal(strlen(buf), 9);
}

/* Clones merge: bytes, faults and CPU time add, the wall time is the
 * longest, and one clone's mapped pages make the whole touch a re-touch. */
static void test_merge(void **state)
{
	struct touch_result into = { .mode = TOUCH_AUTO };
	struct touch_result a = { .mode = TOUCH_PHASE,
				  .fig = { 4096, 100, 1, 2, 1, 0 } };
	struct touch_result b = a;

	(void)state;
	b.fig.ns = 300;
	first_touch_merge(&into, &a);
	first_touch_merge(&into, &b);
	assert_int_equal(into.mode, TOUCH_PHASE);
	assert_int_equal(into.fig.bytes, 8192);
	assert_int_equal(into.fig.ns, 300);
	assert_int_equal(into.fig.minflt, 2);
	assert_false(into.present);
	b.present = true;
	first_touch_merge(&into, &b);
	assert_true(into.present);
}

/* Loads and stores of the same bytes change nothing, at any offset and
 * length, across page boundaries and up to the last byte. */
static void test_touch_keeps_bytes(void **state)
{
	static const size_t offs[] = { 0, 1, 7, 4095, 4096, 5000 };
	static const size_t lens[] = { 0, 1, 4095, 4096, 4097, 3 * 4096 + 5 };
	size_t cap = 6 * 4096;
	unsigned char *p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *want = malloc(cap);

	(void)state;
	assert_true(p != MAP_FAILED);
	assert_non_null(want);
	for (size_t i = 0; i < cap; i++)
		p[i] = want[i] = (unsigned char)(i * 131 + 7);
	for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			if (offs[o] + lens[l] > cap)
				continue;
			first_touch(p + offs[o], lens[l], false);
			first_touch(p + offs[o], lens[l], true);
			assert_memory_equal(p, want, cap);
		}
	/* a read-only mapping is only read (a store would fault) */
	assert_int_equal(mprotect(p, cap, PROT_READ), 0);
	first_touch(p + 1, cap - 1, false);
	munmap(p, cap);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_touch_keeps_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
