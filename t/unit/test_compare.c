/*
 * test_compare.c - engine/compare.c, what memjob report compares: rows
 * grouped into points (job, phase, sweep_* by default, or --key) and runs
 * (by file, or by a column), medians of the repeats, rows left out, points
 * a run lacks, the change against the baseline and its verdict, and which
 * way each metric is better; and the comparison written as CSV and as a
 * JSON document, from the same cells.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "subcommands/compare.h"
#include "subcommands/compareout.h"
#include "subcommands/reportcmd_json.h"

static void table(struct csv_table *t, const char *name, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[512];

	assert_non_null(f);
	if (csv_table_read(t, f, name, NULL, err, sizeof(err)))
		fail_msg("csv_table_read: %s", err);
	fclose(f);
}

/* Two runs of a sweep over bs: base has 4k and 64k, new 4k and 1m. */
static const char base_csv[] =
	"host,job,status,phase,metric_name,metric,sweep_bs\n"
	"h1,a,ok,,gbps,1,4k\n"
	"h1,a,ok,,gbps,3,4k\n"
	"h1,a,ok,,gbps,2,4k\n"
	"h1,a,ok,,gbps,10,64k\n"
	"h1,a,failed,,gbps,,64k\n";
static const char new_csv[] =
	"host,job,status,metric_name,metric,sweep_bs,extra\n"
	"h2,a,ok,gbps,4,4k,x\n"
	"h2,a,ok,gbps,5,4k,x\n"
	"h2,a,ok,gbps,7,1m,x\n";

/* Runs side by side, each a table read from text named after its run. */
struct runs {
	struct csv_table t[2];
	struct cmp_src src[2];
	unsigned n;
};

static void runs_of(struct runs *w, const char *name1, const char *csv1,
		    const char *name2, const char *csv2)
{
	w->n = name2 ? 2 : 1;
	table(&w->t[0], name1, csv1);
	w->src[0] = (struct cmp_src){ &w->t[0], name1, NULL };
	if (name2) {
		table(&w->t[1], name2, csv2);
		w->src[1] = (struct cmp_src){ &w->t[1], name2, NULL };
	}
}

static void runs_free(struct runs *w)
{
	for (unsigned k = 0; k < w->n; k++)
		csv_table_free(&w->t[k]);
}

static void build(struct cmp *c, const struct runs *w,
		  const struct cmp_opts *o)
{
	char err[512];

	if (cmp_build(c, w->src, w->n, o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
}

static void test_points_and_runs(void **state)
{
	struct cmp_opts o = { 0 };
	struct runs w;
	struct cmp c;

	(void)state;
	runs_of(&w, "base.csv", base_csv, "new.csv", new_csv);
	build(&c, &w, &o);
	assert_int_equal(c.nkey, 3);
	assert_string_equal(c.key[0], "job");
	assert_string_equal(c.key[1], "phase");
	assert_string_equal(c.key[2], "sweep_bs");
	assert_int_equal(c.nruns, 2);
	assert_string_equal(c.run[1], "new.csv");
	assert_int_equal(c.run_rows[0], 5);
	assert_int_equal(c.npoints, 3);		/* 4k, 64k, 1m: first seen */
	assert_string_equal(c.point[1].key[2], "64k");
	assert_string_equal(c.point[2].key[2], "1m");
	assert_string_equal(c.point[2].key[1], "");	/* new has no phase */
	/* 4k: the median of 1, 3, 2; of 4, 5 */
	assert_int_equal(c.point[0].cell[0].s.n, 3);
	assert_float_equal(c.point[0].cell[0].s.median, 2, 0);
	assert_float_equal(c.point[0].cell[1].s.median, 4.5, 0);
	assert_string_equal(c.point[0].cell[1].metric, "gbps");
	/* 64k: one row ok, one failed; new has none */
	assert_int_equal(c.point[1].cell[0].s.n, 1);
	assert_int_equal(c.point[1].cell[0].left_out, 1);
	assert_int_equal(c.point[1].cell[1].s.n, 0);
	assert_null(c.point[1].cell[1].metric);

	assert_int_equal(cmp_against(&c, NULL), 0);
	assert_int_equal(c.base, 0);
	assert_int_equal(c.point[0].cell[0].verdict, CMP_BASELINE);
	assert_false(c.point[0].cell[0].has_change);
	assert_int_equal(c.point[0].cell[1].verdict, CMP_BETTER);
	assert_true(c.point[0].cell[1].has_change);
	assert_float_equal(c.point[0].cell[1].change_pct, 125, 1e-12);
	assert_int_equal(c.point[1].cell[1].verdict, CMP_MISSING);
	assert_int_equal(c.point[2].cell[0].verdict, CMP_MISSING);
	assert_int_equal(c.point[2].cell[1].verdict, CMP_NO_BASELINE);
	assert_false(c.point[2].cell[1].has_change);

	assert_int_equal(cmp_against(&c, "new.csv"), 0);
	assert_int_equal(c.base, 1);
	assert_int_equal(c.point[0].cell[0].verdict, CMP_WORSE);
	/* -100 * 2.5 / 4.5, as a figure of 4 decimals */
	assert_float_equal(c.point[0].cell[0].change_pct, -55.5556, 1e-12);
	assert_int_equal(c.point[2].cell[1].verdict, CMP_BASELINE);
	assert_int_equal(cmp_against(&c, "old.csv"), -1);
	cmp_free(&c);
	runs_free(&w);
}

static void test_by_column_and_key(void **state)
{
	static const char *const key[] = { "job" };
	struct cmp_opts o = { .key = key, .nkey = 1, .by = "host" };
	struct runs w;
	struct cmp c;

	(void)state;
	runs_of(&w, "base.csv", base_csv, "new.csv", new_csv);
	build(&c, &w, &o);
	assert_int_equal(c.nruns, 2);
	assert_string_equal(c.run[0], "h1");
	assert_string_equal(c.run[1], "h2");
	assert_int_equal(c.npoints, 1);
	assert_int_equal(c.point[0].cell[0].s.n, 4);	/* 1, 2, 3, 10 */
	assert_float_equal(c.point[0].cell[0].s.median, 2.5, 0);
	assert_float_equal(c.point[0].cell[0].s.max, 10, 0);
	assert_float_equal(c.point[0].cell[1].s.median, 5, 0);
	assert_int_equal(cmp_against(&c, "h1"), 0);
	assert_int_equal(c.point[0].cell[1].verdict, CMP_WITHIN_SPREAD);
	assert_float_equal(c.point[0].cell[1].change_pct, 100, 1e-12);
	cmp_free(&c);

	/* a default key leaves the by column out */
	o = (struct cmp_opts){ .by = "sweep_bs" };
	build(&c, &w, &o);
	assert_int_equal(c.nkey, 2);
	assert_string_equal(c.key[1], "phase");
	assert_int_equal(c.nruns, 3);
	cmp_free(&c);
	runs_free(&w);
}

/* A column asked for: direction known or not, and its own name. */
static void test_metric_column(void **state)
{
	static const char csv[] =
		"host,job,metric_name,metric,ns_per_item,bytes\n"
		"h,a,ns_per_item,2,2,100\n"
		"h,b,ns_per_item,4,4,\n";
	static const char csv2[] =
		"host,job,metric_name,metric,ns_per_item,bytes\n"
		"h,a,ns_per_item,3,3,50\n"
		"h,b,gbps,4,,70\n";
	struct cmp_opts o = { .metric = "bytes" };
	struct runs w;
	struct cmp c;

	(void)state;
	runs_of(&w, "x.csv", csv, "y.csv", csv2);
	build(&c, &w, &o);
	cmp_against(&c, NULL);
	assert_string_equal(c.point[0].cell[0].metric, "bytes");
	assert_int_equal(c.point[0].cell[1].verdict, CMP_LOWER);
	assert_float_equal(c.point[0].cell[1].change_pct, -50, 1e-12);
	assert_int_equal(c.point[1].cell[0].left_out, 1);  /* empty bytes */
	assert_int_equal(c.point[1].cell[1].verdict, CMP_NO_BASELINE);
	cmp_free(&c);

	/* each row's own: a and b differ in kind at b */
	o.metric = NULL;
	build(&c, &w, &o);
	cmp_against(&c, NULL);
	assert_int_equal(c.point[0].cell[1].verdict, CMP_WORSE);
	assert_int_equal(c.point[1].cell[1].verdict, CMP_METRIC_DIFFERS);
	assert_false(c.point[1].cell[1].has_change);
	cmp_free(&c);
	runs_free(&w);
}

/* Without metric columns: ns_per_item where a row has one, else gbps. */
static void test_fallback_metric(void **state)
{
	static const char csv[] =
		"host,job,ns_per_item,gbps\n"
		"h,a,1.5,9\n"
		"h,b,,9\n";
	struct cmp_opts o = { 0 };
	struct runs w;
	struct cmp c;

	(void)state;
	runs_of(&w, "z.csv", csv, NULL, NULL);
	build(&c, &w, &o);
	assert_string_equal(c.point[0].cell[0].metric, "ns_per_item");
	assert_float_equal(c.point[0].cell[0].s.median, 1.5, 0);
	assert_string_equal(c.point[1].cell[0].metric, "gbps");
	cmp_free(&c);
	runs_free(&w);
}

static void test_not_a_number(void **state)
{
	static const char csv[] =
		"host,job,status,metric_name,metric\n"
		"h,a,ok,gbps,1\n"
		"h,a,failed,gbps,oops\n"	/* not ok: not read */
		"h,a,ok,gbps,1.5x\n";
	static const char *const bad[] = { "nan", "inf", "1e999" };
	struct cmp_opts o = { 0 };
	struct runs w;
	struct cmp c;
	char err[512], text[256];

	(void)state;
	runs_of(&w, "n.csv", csv, NULL, NULL);
	assert_int_equal(cmp_build(&c, w.src, 1, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "n.csv:4: column 'metric': expected a "
			    "number, got '1.5x'");
	assert_null(c.point);
	runs_free(&w);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "host,job,metric_name,metric\n"
			 "h,a,gbps,%s\n", bad[i]);
		runs_of(&w, "n.csv", text, NULL, NULL);
		assert_int_equal(cmp_build(&c, w.src, 1, &o, err, sizeof(err)),
				 -1);
		runs_free(&w);
	}
}

static void test_direction(void **state)
{
	(void)state;
	assert_int_equal(cmp_direction("gbps"), 1);
	assert_int_equal(cmp_direction("ops_per_s"), 1);
	assert_int_equal(cmp_direction("ns_per_item"), -1);
	assert_int_equal(cmp_direction("elapsed_s"), -1);
	assert_int_equal(cmp_direction("lat_p99_ns"), -1);
	assert_int_equal(cmp_direction("bytes"), 0);
	assert_string_equal(cmp_verdict_names[CMP_WITHIN_SPREAD],
			    "within_spread");
	assert_string_equal(cmp_verdict_names[CMP_LOWER], "lower");
}

/* base.csv and new.csv compared against baseline, written as CSV or as
 * the JSON document: the text, to free. */
static char *written(const char *baseline, bool json)
{
	struct cmp_opts o = { 0 };
	struct runs w;
	struct cmp c;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	runs_of(&w, "base.csv", base_csv, "new.csv", new_csv);
	build(&c, &w, &o);
	assert_int_equal(cmp_against(&c, baseline), 0);
	if (json)
		assert_int_equal(cmp_json(f, &c, &o, w.src, w.n), 0);
	else
		csv_table(f, cmp_rows, &c);
	assert_int_equal(fclose(f), 0);
	cmp_free(&c);
	runs_free(&w);
	return text;
}

static void test_csv(void **state)
{
	char *text = written(NULL, false);

	(void)state;
	assert_string_equal(text,
		"run,metric_name,rows,left_out,median,min,max,baseline,"
		"change_pct,verdict,fleet_median,fleet_mad,deviation_pct,"
		"outlier,job,phase,sweep_bs,change_ci_lo_pct,change_ci_hi_pct,"
		"ci_level_pct,finding\n"
		"base.csv,gbps,3,0,2,1,3,2,,baseline,,,,,a,,4k,,,,\n"
		"new.csv,gbps,2,0,4.5,4,5,2,125.0000,better,,,,,a,,4k,,,,"
		"too few repeats for an interval (need repeat=4)\n"
		"base.csv,gbps,1,1,10,10,10,10,,baseline,,,,,a,,64k,,,,\n"
		"new.csv,,0,0,,,,10,,missing,,,,,a,,64k,,,,\n"
		"base.csv,,0,0,,,,,,missing,,,,,a,,1m,,,,\n"
		"new.csv,gbps,1,0,7,7,7,,,no_baseline,,,,,a,,1m,,,,\n");
	free(text);
}

/* doc's value at a path of keys and indexes: "points", 0, "runs", 1 */
static json_t *at(json_t *doc, const char *path)
{
	char *copy = strdup(path), *save = NULL;
	json_t *v = doc;

	assert_non_null(copy);
	for (char *p = strtok_r(copy, ".", &save); p && v;
	     p = strtok_r(NULL, ".", &save))
		v = *p >= '0' && *p <= '9' ?
			json_array_get(v, strtoul(p, NULL, 10)) :
			json_object_get(v, p);
	free(copy);
	if (!v)
		fail_msg("no %s in the document", path);
	return v;
}

static void test_json(void **state)
{
	char *text = written("new.csv", true);
	json_error_t jerr;
	json_t *doc;

	(void)state;
	doc = json_loads(text, 0, &jerr);
	if (!doc)
		fail_msg("not JSON: %s", jerr.text);
	assert_string_equal(json_string_value(at(doc, "inputs.1.file")),
			    "new.csv");
	assert_int_equal(json_integer_value(at(doc, "inputs.0.rows")), 5);
	assert_string_equal(json_string_value(at(doc, "key.2")), "sweep_bs");
	assert_string_equal(json_string_value(at(doc, "by")), "file");
	assert_true(json_is_null(at(doc, "metric")));
	assert_string_equal(json_string_value(at(doc, "baseline")),
			    "new.csv");
	/* the baseline first, as in the CSV */
	assert_string_equal(json_string_value(at(doc, "runs.0.run")),
			    "new.csv");
	assert_int_equal(json_integer_value(at(doc, "runs.1.rows")), 5);
	assert_int_equal(json_array_size(at(doc, "points")), 3);
	assert_string_equal(json_string_value(at(doc, "points.0.key.job")),
			    "a");
	assert_true(json_is_null(at(doc, "points.0.key.phase")));
	assert_string_equal(json_string_value(at(doc, "points.0.better")),
			    "higher");
	assert_true(json_real_value(at(doc, "points.0.runs.0.median")) == 4.5);
	assert_true(json_real_value(at(doc, "points.0.runs.1.median")) == 2);
	assert_true(json_real_value(at(doc, "points.0.runs.1.baseline")) ==
		    4.5);
	assert_float_equal(json_real_value(at(doc, "points.0.runs.1.change_pct")),
			   -55.5556, 0);
	assert_string_equal(json_string_value(at(doc, "points.0.runs.1.verdict")),
			    "worse");
	assert_true(json_is_null(at(doc, "points.0.runs.0.change_pct")));
	/* 64k: the baseline has no value: null, never 0 */
	assert_true(json_is_null(at(doc, "points.1.runs.0.median")));
	assert_true(json_is_null(at(doc, "points.1.runs.0.metric_name")));
	assert_int_equal(json_integer_value(at(doc, "points.1.runs.0.rows")), 0);
	assert_true(json_is_null(at(doc, "points.1.runs.1.baseline")));
	assert_string_equal(json_string_value(at(doc, "points.1.runs.1.verdict")),
			    "no_baseline");
	assert_string_equal(json_string_value(at(doc, "points.1.metric_name")),
			    "gbps");
	json_decref(doc);
	free(text);
}

/* With 5 rows a side the interval decides, not the ranges: 10..14
 * against 13.5..17.5 overlap, yet only 1 of the 25 ratios is below 1 and
 * the interval (from the 3rd smallest to the 3rd largest) excludes 0:
 * better.  Against 11.5..15.5 three ratios are below 1: no change
 * detected, within_spread.  Against itself: 0 exactly at the middle. */
static void test_interval_decides(void **state)
{
	static const char base[] =
		"host,job,metric_name,metric\n"
		"h,a,gbps,10\nh,a,gbps,11\nh,a,gbps,12\nh,a,gbps,13\n"
		"h,a,gbps,14\n";
	static const char up[] =
		"host,job,metric_name,metric\n"
		"h,a,gbps,13.5\nh,a,gbps,14.5\nh,a,gbps,15.5\n"
		"h,a,gbps,16.5\nh,a,gbps,17.5\n";
	static const char near[] =
		"host,job,metric_name,metric\n"
		"h,a,gbps,11.5\nh,a,gbps,12.5\nh,a,gbps,13.5\n"
		"h,a,gbps,14.5\nh,a,gbps,15.5\n";
	struct cmp_opts o = { 0 };
	const struct cmp_cell *x;
	struct runs w;
	struct cmp c;

	(void)state;
	runs_of(&w, "base.csv", base, "up.csv", up);
	build(&c, &w, &o);
	assert_int_equal(cmp_against(&c, NULL), 0);
	x = &c.point[0].cell[1];
	assert_int_equal(x->ci.status, INTERVAL_OK);
	assert_true(x->ci.lo > 0);
	/* ratios from the smallest: 13.5 / 14, 14.5 / 14, 13.5 / 13; the
	 * bound (13.5 / 13 - 1) * 100 as a figure of 4 decimals */
	assert_float_equal(x->ci.lo, 3.8462, 1e-12);
	assert_int_equal(x->verdict, CMP_BETTER);
	assert_int_equal(c.point[0].cell[0].ci.status, INTERVAL_BAD);
	cmp_free(&c);
	runs_free(&w);

	runs_of(&w, "base.csv", base, "near.csv", near);
	build(&c, &w, &o);
	assert_int_equal(cmp_against(&c, NULL), 0);
	x = &c.point[0].cell[1];
	assert_int_equal(x->ci.status, INTERVAL_OK);
	assert_true(x->ci.lo < 0 && x->ci.hi > 0);
	assert_int_equal(x->verdict, CMP_WITHIN_SPREAD);
	cmp_free(&c);
	runs_free(&w);

	runs_of(&w, "base.csv", base, "same.csv", base);
	build(&c, &w, &o);
	assert_int_equal(cmp_against(&c, NULL), 0);
	x = &c.point[0].cell[1];
	assert_float_equal(x->ci.est, 0, 1e-12);
	assert_int_equal(x->verdict, CMP_WITHIN_SPREAD);
	cmp_free(&c);
	runs_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_and_runs),
		cmocka_unit_test(test_by_column_and_key),
		cmocka_unit_test(test_metric_column),
		cmocka_unit_test(test_fallback_metric),
		cmocka_unit_test(test_not_a_number),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_interval_decides),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
