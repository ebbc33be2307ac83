/*
 * test_csvtable.c - engine/csvtable.c and engine/csvmerge.c: a result CSV
 * read into strings with the line of every row, quoted fields, a repeated
 * header passed over, a sentence with file:line for every CSV that cannot
 * be used; and the union of several CSVs' columns, in the documented
 * order, each column numbers or text throughout in JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "subcommands/csvmerge.h"
#include "subcommands/csvtable.h"
#include "util/jsonout.h"

static const char *const need[] = { "host", "job", NULL };

static int read_text(struct csv_table *t, const char *text, char *err,
		     size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	err[0] = '\0';
	ret = csv_table_read(t, f, "t.csv", need, err, errlen);
	fclose(f);
	return ret;
}

static void read_ok(struct csv_table *t, const char *text)
{
	char err[512];

	if (read_text(t, text, err, sizeof(err)))
		fail_msg("csv_table_read: %s", err);
}

static void read_fails(const char *text, const char *want)
{
	struct csv_table t;
	char err[512];

	assert_int_equal(read_text(&t, text, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_null(t.rows);
	assert_null(t.head);
}

static void test_rows_and_lines(void **state)
{
	struct csv_table t;

	(void)state;
	/* a blank line, a quoted comma and a quoted line break, CRLF */
	read_ok(&t, "host,job,point\r\n"
		    "h,a,\"cpus=0,1\"\r\n"
		    "\n"
		    "h,\"b\nc\",x\n"
		    "h,d,\n");
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.head_line, 1);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(csv_table_cell(&t, 0, 2), "cpus=0,1");
	assert_int_equal(t.line[0], 2);
	assert_string_equal(csv_table_cell(&t, 1, 1), "b\nc");
	assert_int_equal(t.line[1], 5);		/* where the row ends */
	assert_string_equal(csv_table_cell(&t, 2, 2), "");
	assert_int_equal(t.line[2], 6);
	assert_int_equal(csv_table_col(&t, "job"), 1);
	assert_int_equal(csv_table_col(&t, "jobs"), -1);
	assert_string_equal(csv_table_cell(&t, 0, -1), "");
	assert_string_equal(csv_table_nearest(&t, 1, "hots"), "host");
	assert_null(csv_table_nearest(&t, 1, "metric"));
	assert_string_equal(t.name, "t.csv");
	csv_table_free(&t);
	assert_null(t.rows);
}

/* cat a.csv b.csv: the same header again is passed over. */
static void test_repeated_header(void **state)
{
	struct csv_table t;

	(void)state;
	read_ok(&t, "host,job\nh,a\nhost,job\nh,b\n");
	assert_int_equal(t.nrows, 2);
	assert_string_equal(csv_table_cell(&t, 1, 1), "b");
	assert_int_equal(t.line[1], 4);
	csv_table_free(&t);
}

static void test_errors(void **state)
{
	(void)state;
	read_fails("", "t.csv is empty: no CSV header");
	read_fails("host,job\n", "t.csv has a header but no rows");
	read_fails("job,host_name\nj,h\n", "t.csv:1: not a memjob result "
		   "CSV: its header has no 'host' column");
	read_fails("run: a.csv (6 rows)\n", "t.csv:1: not a memjob result "
		   "CSV: its header has no 'host' column");
	read_fails("host,job,bs\nh,a,1\nh,a\n",
		   "t.csv:3: 2 fields, but the header on line 1 has 3");
	read_fails("host,job,bs\nh,a,1\nh,a,1,2\n",
		   "t.csv:3: 4 fields, but the header on line 1 has 3");
	read_fails("host,job,bs\n\nh\n",
		   "t.csv:3: 1 field, but the header on line 1 has 3");
	read_fails("host,job,bs\nh,a,1\nhost,job,size\nh,a,2\n",
		   "t.csv:3: a second header, unlike the one on line 1: CSVs "
		   "with other columns go in as files of their own");
}

/* A row at a time: each row's fields and its line, however the rows
 * fall on lines (two in one line with a bare CR, one over three lines),
 * a repeated header passed over; the fields of a row stay as they were
 * while the following rows are read in. */
static void test_rows_one_by_one(void **state)
{
	static const char text[] =
		"host,job,note\n"
		"h,a,1\rh,b,2\n"
		"host,job,note\n"
		"h,c,\"x\ny\nz\"\n"
		"h,d,4";
	static const struct { const char *job, *note; unsigned line; } want[] = {
		{ "a", "1", 2 }, { "b", "2", 2 }, { "c", "x\ny\nz", 6 },
		{ "d", "4", 7 },
	};
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	const char *const *row;
	struct csv_table t;
	struct csv_rows *r;
	unsigned line, n = 0;
	char err[512];
	int got;

	(void)state;
	assert_non_null(f);
	r = csv_rows_open(&t, f, "t.csv", need, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.head[2], "note");
	assert_null(t.rows);
	while ((got = csv_rows_next(r, &row, &line)) > 0) {
		assert_true(n < 4);
		assert_string_equal(row[0], "h");
		assert_string_equal(row[1], want[n].job);
		assert_string_equal(row[2], want[n].note);
		assert_int_equal(line, want[n].line);
		n++;
		assert_int_equal(t.nrows, n);
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, 4);
	csv_rows_close(r);
	csv_table_free(&t);
	fclose(f);
}

/* The errors of a stream are csv_table_read's, at the row they are in,
 * after the rows before it. */
static void test_rows_errors(void **state)
{
	static const char text[] = "host,job\nh,a\nh,b,c\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	const char *const *row;
	struct csv_table t;
	struct csv_rows *r;
	unsigned line;
	char err[512];

	(void)state;
	r = csv_rows_open(&t, f, "t.csv", need, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(csv_rows_next(r, &row, &line), 1);
	assert_string_equal(row[1], "a");
	assert_int_equal(csv_rows_next(r, &row, &line), -1);
	assert_string_equal(csv_rows_error(r),
			    "t.csv:3: 3 fields, but the header on line 1 has 2");
	csv_rows_close(r);
	csv_table_free(&t);
	fclose(f);
	f = fmemopen((void *)"host,job\n", 9, "r");
	r = csv_rows_open(&t, f, "t.csv", need, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(csv_rows_next(r, &row, &line), -1);
	assert_string_equal(csv_rows_error(r), "t.csv has a header but no rows");
	csv_rows_close(r);
	csv_table_free(&t);
	fclose(f);
	f = fmemopen((void *)"job,x\n", 6, "r");
	assert_null(csv_rows_open(&t, f, "t.csv", need, err, sizeof(err)));
	assert_string_equal(err, "t.csv:1: not a memjob result CSV: its header "
			    "has no 'host' column");
	assert_null(t.head);
	fclose(f);
}

static void test_load(void **state)
{
	struct csv_table t;
	char err[512];

	(void)state;
	assert_int_equal(csv_table_load(&t, "/nonexistent/x.csv", NULL, err,
					sizeof(err)), -1);
	assert_string_equal(err, "cannot open /nonexistent/x.csv: No such "
			    "file or directory");
}

/* What f received, as a string the caller frees. */
static char *written(void (*write)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	write(f, arg);
	fclose(f);
	return text;
}

struct merge_case {
	struct csv_table *t;
	unsigned n;
};

static void merge_all(FILE *f, const void *arg)
{
	static const char *const fixed[] = { "host", "job", "status", "gbps",
					     "metric", NULL };
	const struct merge_case *mc = arg;
	struct csv_merge m;

	assert_int_equal(csv_merge_plan(&m, mc->t, mc->n, fixed, NULL), 0);
	csv_table(f, csv_merge_rows, &m);
	csv_merge_free(&m);
}

static void test_merge(void **state)
{
	struct csv_table t[3];
	struct merge_case mc = { t, 3 };
	char *text;

	(void)state;
	read_ok(&t[0], "sweep_bs,note,job,host,gbps\n4k,\"a,b\",j,h1,1.5\n");
	read_ok(&t[1], "host,job,metric,size,sweep_size,size\n"
		       "h2,k,2,1,64k,2\n");
	read_ok(&t[2], "host,job,status\nh3,l,ok\n");
	text = written(merge_all, &mc);
	/* fixed first, in their order; then as seen, swept last; the
	 * second "size" stays a column of its own */
	assert_string_equal(text,
		"host,job,status,gbps,metric,note,size,size,sweep_bs,sweep_size\n"
		"h1,j,,1.5,,\"a,b\",,,4k,\n"
		"h2,k,,,2,,1,2,,64k\n"
		"h3,l,ok,,,,,,,\n");
	free(text);
	for (unsigned k = 0; k < 3; k++)
		csv_table_free(&t[k]);
}

static bool job_is_text(const char *col)
{
	return !strcmp(col, "job");
}

/* In JSON, a column is numbers only when every field in it is one and
 * it is not a column of text that looks like numbers. */
static void test_merge_types(void **state)
{
	struct csv_table t[2];
	struct csv_merge m;
	json_t *rows, *o;

	(void)state;
	read_ok(&t[0], "host,job,gbps,note,size\n"
		       "h,1,1.500000,7,4096\nh,2,nan,x,\n");
	read_ok(&t[1], "host,job,gbps,size\nh,3,2,-5\n");
	assert_int_equal(csv_merge_plan(&m, t, 2, NULL, job_is_text), 0);
	rows = json_rows(csv_merge_rows, &m);
	assert_non_null(rows);
	assert_int_equal(json_array_size(rows), 3);
	o = json_array_get(rows, 0);
	assert_string_equal(json_string_value(json_object_get(o, "job")), "1");
	assert_true(json_real_value(json_object_get(o, "gbps")) == 1.5);
	assert_string_equal(json_string_value(json_object_get(o, "note")),
			    "7");
	assert_int_equal(json_integer_value(json_object_get(o, "size")), 4096);
	o = json_array_get(rows, 1);
	assert_true(json_is_null(json_object_get(o, "gbps")));	/* nan */
	assert_string_equal(json_string_value(json_object_get(o, "note")),
			    "x");
	assert_true(json_is_null(json_object_get(o, "size")));
	o = json_array_get(rows, 2);
	assert_true(json_is_null(json_object_get(o, "note")));	/* lacks it */
	assert_int_equal(json_integer_value(json_object_get(o, "gbps")), 2);
	assert_int_equal(json_integer_value(json_object_get(o, "size")), -5);
	json_decref(rows);
	csv_merge_free(&m);
	for (unsigned k = 0; k < 2; k++)
		csv_table_free(&t[k]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_lines),
		cmocka_unit_test(test_repeated_header),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_rows_one_by_one),
		cmocka_unit_test(test_rows_errors),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
