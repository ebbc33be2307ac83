/*
 * test_row.c - engine/row.c and engine/jsonout.c: one row, two writers.
 * The same cells through the CSV emitter (header from the names, quoting
 * only where needed, absent and empty as empty fields, doubles with their
 * precision) and the JSON emitter (numbers as numbers with the digits CSV
 * prints, absent and empty as null, text that is not UTF-8 kept as
 * ASCII, a name given twice kept as name#2), and the document writer.
 * Exact doubles and numbers given as text (fields read back from a CSV):
 * CSV keeps their digits, JSON makes them numbers.  Figures (fig_fixed,
 * fig_sig): a value rounded once as its cell prints it.
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

#include "util/jsonout.h"
#include "util/row.h"

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

typedef void rows_fn(struct row_emitter *e, const void *arg);

/* The CSV of a table, as text to free. */
static char *csv_of(rows_fn *fn)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	csv_table(f, fn, NULL);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* The rows of a table as an array of JSON objects. */
static json_t *json_of(rows_fn *fn)
{
	json_t *a = json_array();
	struct json_emitter je;

	assert_non_null(a);
	json_emitter_init(&je, a);
	fn(&je.base, NULL);
	assert_int_equal(json_emitter_finish(&je), 0);
	return a;
}

static void test_csv(void **state)
{
	char *text = csv_of(rows);

	(void)state;
	assert_string_equal(text,
		"name,quoted,blank,empty,null,u,i,gbps,metric,absent\n"
		"plain,\"a,b \"\"c\"\"\",\" x\",,,18446744073709551615,-42,"
		"5.153847,1234.57,\n"
		"second,,\"y \",z,\"line\nbreak\",0,7,0.500000,1e-07,\n");
	free(text);
}

static void test_json_rows(void **state)
{
	json_t *a = json_of(rows), *o;

	(void)state;
	assert_int_equal(json_array_size(a), 2);

	o = json_array_get(a, 0);
	assert_int_equal(json_object_size(o), 10);
	assert_string_equal(json_string_value(json_object_get(o, "name")),
			    "plain");
	assert_string_equal(json_string_value(json_object_get(o, "quoted")),
			    "a,b \"c\"");
	assert_true(json_is_null(json_object_get(o, "empty")));
	assert_true(json_is_null(json_object_get(o, "null")));
	assert_true(json_is_null(json_object_get(o, "absent")));
	/* past what jansson's integers hold: still a number */
	assert_true(json_is_real(json_object_get(o, "u")));
	assert_true(json_is_integer(json_object_get(o, "i")));
	assert_int_equal(json_integer_value(json_object_get(o, "i")), -42);
	/* a double is what CSV prints, not more */
	assert_true(json_real_value(json_object_get(o, "gbps")) == 5.153847);
	assert_true(json_real_value(json_object_get(o, "metric")) == 1234.57);

	o = json_array_get(a, 1);
	assert_true(json_is_null(json_object_get(o, "quoted")));
	assert_string_equal(json_string_value(json_object_get(o, "null")),
			    "line\nbreak");
	assert_int_equal(json_integer_value(json_object_get(o, "u")), 0);
	assert_true(json_real_value(json_object_get(o, "metric")) == 1e-7);
	/* keys in column order */
	{
		const char *want[] = { "name", "quoted", "blank", "empty",
				       "null", "u", "i", "gbps", "metric",
				       "absent" };
		void *it = json_object_iter(o);

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
			assert_non_null(it);
			assert_string_equal(json_object_iter_key(it), want[k]);
			it = json_object_iter_next(o, it);
		}
		assert_null(it);
	}
	json_decref(a);
}

static void test_json_edges(void **state)
{
	struct json_emitter je;
	json_t *o;

	(void)state;
	json_emitter_init(&je, NULL);
	row_str(&je.base, "text", "caf\xe9");		/* Latin-1, not UTF-8 */
	row_str(&je.base, "utf8", "caf\xc3\xa9");
	row_u64(&je.base, "twice", 1);
	row_u64(&je.base, "twice", 2);
	row_fixed(&je.base, "inf", INFINITY, 3);
	row_end(&je.base);			/* keeps the single object */
	row_u64(&je.base, "after", 3);
	o = json_emitter_take(&je);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "text")),
			    "caf?");
	assert_string_equal(json_string_value(json_object_get(o, "utf8")),
			    "caf\xc3\xa9");
	assert_int_equal(json_integer_value(json_object_get(o, "twice")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "twice#2")),
			 2);
	assert_true(json_is_null(json_object_get(o, "inf")));
	assert_int_equal(json_integer_value(json_object_get(o, "after")), 3);
	json_decref(o);
}

static void test_json_write(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *doc = json_pack("{s:s, s:f, s:[i, n]}", "b", "x", "a", 0.1,
				"c", 1);

	(void)state;
	assert_non_null(f);
	assert_non_null(doc);
	assert_int_equal(json_write(f, doc), 0);
	assert_int_equal(fclose(f), 0);
	/* keys as added, two blanks a level, a newline at the end */
	assert_string_equal(text, "{\n  \"b\": \"x\",\n  \"a\": 0.1,\n"
			    "  \"c\": [\n    1,\n    null\n  ]\n}\n");
	free(text);
	json_decref(doc);
}

/* Numbers as a CSV holds them, and medians of such. */
static void exact_rows(struct row_emitter *e, const void *arg)
{
	(void)arg;
	row_put(e, "whole", cell_exact(300));
	row_put(e, "half", cell_exact(4.5));
	row_put(e, "sum", cell_exact(0.1 + 0.2));	/* needs 17 digits */
	row_put(e, "big", cell_exact(1e20));
	row_put(e, "fifteen", cell_exact(123456789012345.0));
	row_put(e, "neg", cell_exact(-0.25));
	row_put(e, "fixed", cell_numtext("1.500000"));
	row_put(e, "int", cell_numtext("42"));
	row_put(e, "minus", cell_numtext("-7"));
	row_put(e, "huge", cell_numtext("18446744073709551615"));
	row_put(e, "nan", cell_numtext("-nan"));
	row_put(e, "word", cell_numtext("4k"));
	row_put(e, "empty", cell_numtext(""));
	row_end(e);
}

static void test_exact_and_numtext(void **state)
{
	char *text = csv_of(exact_rows);
	json_t *a = json_of(exact_rows), *o;

	(void)state;
	assert_string_equal(text,
		"whole,half,sum,big,fifteen,neg,fixed,int,minus,huge,nan,"
		"word,empty\n"
		"300,4.5,0.30000000000000004,1e+20,123456789012345,-0.25,"
		"1.500000,42,-7,18446744073709551615,-nan,4k,\n");
	free(text);

	o = json_array_get(a, 0);
	assert_true(json_real_value(json_object_get(o, "sum")) == 0.1 + 0.2);
	assert_true(json_real_value(json_object_get(o, "whole")) == 300);
	assert_true(json_is_real(json_object_get(o, "fixed")));
	assert_true(json_real_value(json_object_get(o, "fixed")) == 1.5);
	assert_true(json_is_integer(json_object_get(o, "int")));
	assert_int_equal(json_integer_value(json_object_get(o, "int")), 42);
	assert_int_equal(json_integer_value(json_object_get(o, "minus")), -7);
	assert_true(json_is_real(json_object_get(o, "huge")));
	assert_true(json_is_null(json_object_get(o, "nan")));
	assert_string_equal(json_string_value(json_object_get(o, "word")),
			    "4k");
	assert_true(json_is_null(json_object_get(o, "empty")));
	json_decref(a);
}

/* A figure is the value its cell prints, read back: printing it again at
 * the same precision gives the same text, rounding it again changes
 * nothing, and a table that prints it with fewer digits says what the
 * CSV's text, rounded, says, where the raw value would not (1.74996:
 * the CSV's 1.7500, a table's 1.8, not 1.7). */
static void test_figures(void **state)
{
	const double v[] = { 1.74996, 1.74995, 2.345, 0.125, -0.05,
			     -1.74996, 12345.65, 1e-7, 0, 99.99995 };
	char raw[64], fig[64], csv[64], back[64];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double f = fig_fixed(v[i], 4), g = fig_sig(v[i], 6);

		snprintf(raw, sizeof(raw), "%.4f", v[i]);
		snprintf(fig, sizeof(fig), "%.4f", f);
		assert_string_equal(raw, fig);
		assert_true(fig_fixed(f, 4) == f);
		assert_true(fig_sig(g, 6) == g);
		snprintf(raw, sizeof(raw), "%.6g", v[i]);
		snprintf(fig, sizeof(fig), "%.6g", g);
		assert_string_equal(raw, fig);
		/* the table's fewer digits, from the figure and from the
		 * CSV's text of it, agree */
		snprintf(csv, sizeof(csv), "%.4f", f);
		snprintf(fig, sizeof(fig), "%.1f", f);
		snprintf(back, sizeof(back), "%.1f", strtod(csv, NULL));
		assert_string_equal(fig, back);
	}
	snprintf(raw, sizeof(raw), "%+.1f", 1.74996);
	snprintf(fig, sizeof(fig), "%+.1f", fig_fixed(1.74996, 4));
	assert_string_equal(raw, "+1.7");
	assert_string_equal(fig, "+1.8");
	assert_true(isnan(fig_fixed(NAN, 4)));
	assert_true(isinf(fig_sig(INFINITY, 6)));
}

static void test_is_number(void **state)
{
	static const char *const yes[] = {
		"0", "42", "-7", "+3", "1.5", "0.500000", "-0.25", "1e+20",
		"1e-07", "2.5E3", "nan", "-nan", "inf", "-Infinity", NULL
	};
	static const char *const no[] = {
		"", "-", ".", "e5", "1e", "1-2", " 1", "1 ", "0x10", "4k",
		"nan(1)", "1,5", "infinite", NULL
	};

	(void)state;
	for (unsigned i = 0; yes[i]; i++)
		if (!row_is_number(yes[i]))
			fail_msg("'%s' is a number", yes[i]);
	for (unsigned i = 0; no[i]; i++)
		if (row_is_number(no[i]))
			fail_msg("'%s' is not a number", no[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json_rows),
		cmocka_unit_test(test_json_edges),
		cmocka_unit_test(test_json_write),
		cmocka_unit_test(test_exact_and_numtext),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_is_number),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
