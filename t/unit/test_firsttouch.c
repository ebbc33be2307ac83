/*
 * test_firsttouch.c - first_touch=: what auto means for each kind of
 * source, what the report says for each mode, and that touching a region
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
	struct touch_figures f = {
		.bytes = 1ULL << 30, .ns = 612000000, .usr_ns = 12000000,
		.sys_ns = 410000000, .minflt = 262144, .majflt = 0,
	};
	char buf[256];

	(void)state;
	first_touch_describe(TOUCH_PHASE, &f, buf, sizeof(buf));
	assert_string_equal(buf, "first touch of 1 GiB: 0.612 s at 1.75 GB/s "
			    "with 262144 minor and 0 major faults and cpu usr "
			    "0.012 s sys 0.410 s (its own phase; untimed in the "
			    "passes)");
	first_touch_describe(TOUCH_UNTIMED, &f, buf, sizeof(buf));
	assert_string_equal(buf, "first touch untimed (before the clock)");
	first_touch_describe(TOUCH_TIMED, &f, buf, sizeof(buf));
	assert_string_equal(buf, "first touch timed (in the first pass)");
	/* a phase too short to time has no rate, not a division by 0 */
	f.ns = 0;
	first_touch_describe(TOUCH_PHASE, &f, buf, sizeof(buf));
	assert_non_null(strstr(buf, ": 0.000 s at 0.00 GB/s with"));
	/* cut to the buffer, terminated */
	first_touch_describe(TOUCH_PHASE, &f, buf, 10);
	assert_int_equal(strlen(buf), 9);
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
		cmocka_unit_test(test_touch_keeps_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
