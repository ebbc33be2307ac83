/*
 * test_envexpand.c - unit tests for ${VAR} in a shell command
 * (env_expand_shell, engine/util/envexpand.c): each ${...} is checked as
 * in any job file line but left for the shell, in double quotes where
 * the text around it is plain, with a '...' closed around it, and as it
 * is inside "..." (also "$(...)" and `...` nested in quotes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/envexpand.h"

static void expect(const char *in, const char *want)
{
	char err[256] = "";
	char *out = env_expand_shell(in, err, sizeof(err));

	if (!out)
		fail_msg("'%s' refused: %s", in, err);
	if (strcmp(out, want))
		fail_msg("'%s' became '%s', expected '%s'", in, out, want);
	free(out);
}

static int setup(void **state)
{
	(void)state;
	setenv("MJ_X", "a; touch /tmp/x '$(id)' \"q\"", 1);
	unsetenv("MJ_UNSET");
	return 0;
}

static void test_plain_is_quoted(void **state)
{
	(void)state;
	expect("echo ${MJ_X}", "echo \"${MJ_X}\"");
	expect("prog --in=${MJ_X} -v", "prog --in=\"${MJ_X}\" -v");
	expect("${MJ_UNSET:-def} x", "\"${MJ_UNSET:-def}\" x");
	expect("no variables; at all", "no variables; at all");
}

static void test_inside_quotes(void **state)
{
	(void)state;
	expect("echo \"a ${MJ_X} b\"", "echo \"a ${MJ_X} b\"");
	expect("echo 'a ${MJ_X} b'", "echo 'a '\"${MJ_X}\"' b'");
	expect("echo 'it''s' ${MJ_X}", "echo 'it''s' \"${MJ_X}\"");
	expect("echo \"it's\" ${MJ_X}", "echo \"it's\" \"${MJ_X}\"");
}

static void test_substitutions_start_plain(void **state)
{
	(void)state;
	expect("echo \"$(cat ${MJ_X})\"", "echo \"$(cat \"${MJ_X}\")\"");
	expect("echo \"$(f (1) ${MJ_X}) ${MJ_X}\"",
	       "echo \"$(f (1) \"${MJ_X}\") ${MJ_X}\"");
	expect("echo `cat ${MJ_X}` ${MJ_X}",
	       "echo `cat \"${MJ_X}\"` \"${MJ_X}\"");
	expect("echo \"`cat ${MJ_X}`\"", "echo \"`cat \"${MJ_X}\"`\"");
}

static void test_escaped_dollar_is_the_shells(void **state)
{
	(void)state;
	expect("echo \\${MJ_UNSET} ${MJ_X}", "echo \\${MJ_UNSET} \"${MJ_X}\"");
	expect("echo \"\\\"${MJ_X}\"", "echo \"\\\"${MJ_X}\"");
}

static void test_refusals(void **state)
{
	char err[256];

	(void)state;
	assert_null(env_expand_shell("echo ${MJ_UNSET}", err, sizeof(err)));
	assert_non_null(strstr(err, "'MJ_UNSET' is not set"));
	assert_null(env_expand_shell("echo ${MJ X}", err, sizeof(err)));
	assert_non_null(strstr(err, "use ${NAME}"));
	assert_null(env_expand_shell("echo ${MJ_X", err, sizeof(err)));
	assert_non_null(strstr(err, "without a closing"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_is_quoted),
		cmocka_unit_test(test_inside_quotes),
		cmocka_unit_test(test_substitutions_start_plain),
		cmocka_unit_test(test_escaped_dollar_is_the_shells),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
