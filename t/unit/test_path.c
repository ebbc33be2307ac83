/*
 * test_path.c - unit tests for the parts of a path (engine/util/path.c):
 * the directory of a path, and whether a relative name climbs out of the
 * directory it starts in, judged part by part as written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <cmocka.h>

#include "util/path.h"

static void test_climbs_out(void **state)
{
	static const char *const out[] = {
		"..", "../x", "../../x", "a/../..", "a/../../b", "./../x",
		"a//..//..//b", "a/b/../../../c", "x/./../..",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(out) / sizeof(*out); i++) {
		if (!path_climbs_out(out[i]))
			fail_msg("'%s' climbs out, but was let in", out[i]);
	}
}

static void test_stays_inside(void **state)
{
	static const char *const in[] = {
		"x", "a/b", "a/../b", "a/b/../..", "./x", "..x", "x..",
		"a/..b/c", "...", "a/.../b", "", ".", "a/./b/", "x/..",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
		if (path_climbs_out(in[i]))
			fail_msg("'%s' stays inside, but was refused", in[i]);
	}
}

static void test_dir(void **state)
{
	char d[64];

	(void)state;
	path_dir("a/b/c", d, sizeof(d));
	assert_string_equal(d, "a/b");
	path_dir("c", d, sizeof(d));
	assert_string_equal(d, ".");
	path_dir("/c", d, sizeof(d));
	assert_string_equal(d, "/");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_climbs_out),
		cmocka_unit_test(test_stays_inside),
		cmocka_unit_test(test_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
