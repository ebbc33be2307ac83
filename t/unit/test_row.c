/*
 * test_row.c - engine/row.c: rows of typed cells through the CSV emitter
 * (header from the names, quoting only where needed, absent and empty as
 * empty fields, doubles with their precision).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "row.h"

/* Two rows of every kind of cell. */
static void rows(struct row_emitter *e, const void *arg)
{
	(void)arg;
	row_str(e, "name", "plain");
	row_str(e, "quoted", "a,b \"c\"");
	row_str(e, "blank", " x");
	row_str(e, "empty", "");
	row_str(e, "null", NULL);
	row_u64(e, "u", UINT64_C(18446744073709551615));
	row_i64(e, "i", -42);
	row_fixed(e, "gbps", 5.1538471, 6);
	row_sig(e, "metric", 1234.56789, 6);
	row_absent(e, "absent");
	row_end(e);
	row_str(e, "name", "second");
	row_str(e, "quoted", "");
	row_str(e, "blank", "y ");
	row_str(e, "empty", "z");
	row_str(e, "null", "line\nbreak");
	row_u64(e, "u", 0);
	row_i64(e, "i", 7);
	row_fixed(e, "gbps", 0.5, 6);
	row_sig(e, "metric", 1e-7, 6);
	row_absent(e, "absent");
	row_end(e);
}

static void test_csv(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	csv_table(f, rows, NULL);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(text,
		"name,quoted,blank,empty,null,u,i,gbps,metric,absent\n"
		"plain,\"a,b \"\"c\"\"\",\" x\",,,18446744073709551615,-42,"
		"5.153847,1234.57,\n"
		"second,,\"y \",z,\"line\nbreak\",0,7,0.500000,1e-07,\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
