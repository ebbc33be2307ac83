/*
 * test_plotdata.c - engine/plotdata.c, what memjob plot draws: rows
 * grouped into series by job, phase and sweep point less the x option,
 * repeats folded into medians, rows that did not run left out, the y
 * column falling back to metric, sizes written as 64k, concatenated CSVs,
 * and a sentence for every CSV it cannot plot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "subcommands/plotdata.h"

/* Read text as the CSV "t.csv"; returns plot_data_read's result. */
static int read_csv(struct plot_data *pd, const char *text, const char *x,
		    const char *y, bool y_auto, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	err[0] = '\0';
	ret = plot_data_read(pd, f, "t.csv", x, y, y_auto, err, errlen);
	fclose(f);
	return ret;
}

static void read_ok(struct plot_data *pd, const char *text, const char *x,
		    const char *y, bool y_auto)
{
	char err[512];

	if (read_csv(pd, text, x, y, y_auto, err, sizeof(err)))
		fail_msg("plot_data_read: %s", err);
}

static void read_fails(const char *text, const char *x, const char *y,
		       bool y_auto, const char *want)
{
	struct plot_data pd;
	char err[512];

	assert_int_equal(read_csv(&pd, text, x, y, y_auto, err, sizeof(err)),
			 -1);
	assert_string_equal(err, want);
	assert_int_equal(pd.nseries, 0);
	assert_null(pd.series);
}

/* Two hugepage series, three repeats per size (one slow), out of order;
 * the swept size column repeats the name "size" after the fixed one. */
static const char sweep_csv[] =
	"host,job,status,size,ns_per_item,point,hugepage,size\n"
	"vm,c,ok,8192,2.0,hugepage=none size=8k,none,8k\n"
	"vm,c,ok,4096,1.0,hugepage=none size=4k,none,4k\n"
	"vm,c,ok,4096,9.0,hugepage=none size=4k,none,4k\n"
	"vm,c,ok,4096,1.2,hugepage=none size=4k,none,4k\n"
	"vm,c,ok,4096,3.0,hugepage=thp size=4k,thp,4k\n"
	"vm,c,ok,8192,4.0,hugepage=thp size=8k,thp,8k\n"
	"vm,c,ok,8192,5.0,hugepage=thp size=8k,thp,8k\n"
	"vm,c,failed,16384,99,hugepage=thp size=16k,thp,16k\n"
	"vm,c,ok,32768,,hugepage=thp size=32k,thp,32k\n";

static void test_series_and_medians(void **state)
{
	struct plot_data pd;

	(void)state;
	read_ok(&pd, sweep_csv, "size", "ns_per_item", true);
	assert_int_equal(pd.nseries, 2);
	assert_string_equal(pd.series[0].title, "c hugepage=none");
	assert_string_equal(pd.series[1].title, "c hugepage=thp");
	assert_int_equal(pd.series[0].n, 2);
	assert_float_equal(pd.series[0].x[0], 4096, 0);
	assert_float_equal(pd.series[0].y[0], 1.2, 1e-12);	/* median */
	assert_float_equal(pd.series[0].x[1], 8192, 0);
	assert_float_equal(pd.series[0].y[1], 2.0, 1e-12);
	assert_int_equal(pd.series[1].n, 2);			/* 16k failed */
	assert_float_equal(pd.series[1].y[1], 4.5, 1e-12);	/* even count */
	assert_true(pd.size_axis);
	assert_string_equal(pd.host, "vm");
	assert_float_equal(pd.xmin, 4096, 0);
	assert_float_equal(pd.xmax, 8192, 0);
	assert_float_equal(pd.ymin, 1.2, 1e-12);
	assert_float_equal(pd.ymax, 4.5, 1e-12);
	assert_string_equal(pd.ylabel, "ns per item (chase: per access)");
	plot_data_free(&pd);
}

static void test_metric_fallback(void **state)
{
	static const char csv[] =
		"host,job,status,bs,ns_per_item,point,metric_name,metric\n"
		"a,r,ok,4096,,bs=4k,gbps,1.5\n"
		"a,r,ok,65536,,bs=64k,gbps,6.5\n";
	struct plot_data pd;

	(void)state;
	read_ok(&pd, csv, "bs", "ns_per_item", true);
	assert_int_equal(pd.nseries, 1);
	assert_string_equal(pd.series[0].title, "r");
	assert_float_equal(pd.series[0].y[1], 6.5, 0);
	assert_string_equal(pd.ylabel, "gbps (metric)");
	plot_data_free(&pd);
	/* asked for by name, an empty column is an error, not a fallback */
	read_fails(csv, "bs", "ns_per_item", false, "nothing to plot: no row "
		   "of t.csv with status ok has both bs and ns_per_item");
}

/* Several jobs sweeping one option name it job.option in point. */
static void test_point_without_x(void **state)
{
	static const char csv[] =
		"host,job,phase,size,ns_per_item,point\n"
		"h1,v,alone,4096,1,v.size=4k a.size=8k flush=clwb\n"
		"h1,v,loaded,4096,2,v.size=4k a.size=8k flush=clwb\n"
		"h2,v,alone,4096,3,\"cpus_allowed=0,1 v.size=4k\"\n";
	struct plot_data pd;

	(void)state;
	read_ok(&pd, csv, "size", "ns_per_item", true);
	assert_int_equal(pd.nseries, 3);
	assert_null(pd.host);			/* two hosts: in the titles */
	assert_string_equal(pd.series[0].title, "h1 v alone flush=clwb");
	assert_string_equal(pd.series[1].title, "h1 v loaded flush=clwb");
	assert_string_equal(pd.series[2].title, "h2 v alone cpus_allowed=0,1");
	plot_data_free(&pd);
}

/* A swept size column holds sizes as written: 64k is 65536 bytes. */
static void test_size_words(void **state)
{
	static const char csv[] =
		"job,ns_per_item,point,stride\n"
		"c,3,stride=64,64\n"
		"c,4,stride=4k,4k\n"
		"c,5,stride=1m,1m\n";
	struct plot_data pd;

	(void)state;
	read_ok(&pd, csv, "stride", "ns_per_item", true);
	assert_true(pd.size_axis);
	assert_int_equal(pd.series[0].n, 3);
	assert_float_equal(pd.series[0].x[1], 4096, 0);
	assert_float_equal(pd.series[0].x[2], 1048576, 0);
	plot_data_free(&pd);
	/* a plain number column is not a size axis */
	read_ok(&pd, "job,numjobs,metric\nc,1,5\nc,2,6\n", "numjobs", "metric",
		false);
	assert_false(pd.size_axis);
	plot_data_free(&pd);
}

/* cat a.csv b.csv: the second header is not a row. */
static void test_concatenated(void **state)
{
	static const char csv[] =
		"job,size,ns_per_item\nc,4096,1\n"
		"job,size,ns_per_item\nc,8192,2\n";
	struct plot_data pd;

	(void)state;
	read_ok(&pd, csv, "size", "ns_per_item", true);
	assert_int_equal(pd.nseries, 1);
	assert_int_equal(pd.series[0].n, 2);
	plot_data_free(&pd);
}

static void test_errors(void **state)
{
	struct plot_data pd;
	char err[512];

	(void)state;
	read_fails("", "size", "ns_per_item", true,
		   "t.csv is empty: no CSV header");
	read_fails("job,size,ns_per_item\n", "size", "ns_per_item", true,
		   "t.csv has a header but no rows");
	read_fails(sweep_csv, "sise", "ns_per_item", true,
		   "no column 'sise' in t.csv; did you mean 'size'?");
	read_fails(sweep_csv, "size", "latency_of_everything", false,
		   "no column 'latency_of_everything' in t.csv (see "
		   "memjob(1), CSV)");
	read_fails(sweep_csv, "hugepage", "ns_per_item", true,
		   "t.csv:2: hugepage 'none' is not a number");
	read_fails("job,size,ns_per_item\nc,4096,fast\n", "size",
		   "ns_per_item", true,
		   "t.csv:2: ns_per_item 'fast' is not a number");
	read_fails("job,size,ns_per_item\nc,0,1\n", "size", "ns_per_item",
		   true, "t.csv: a size of 0 cannot go on a log axis");
	assert_int_equal(plot_data_load(&pd, "/nonexistent/x.csv", "size",
					"ns_per_item", true, err,
					sizeof(err)), -1);
	assert_string_equal(err, "cannot open /nonexistent/x.csv: No such "
			    "file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_and_medians),
		cmocka_unit_test(test_metric_fallback),
		cmocka_unit_test(test_point_without_x),
		cmocka_unit_test(test_size_words),
		cmocka_unit_test(test_concatenated),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
