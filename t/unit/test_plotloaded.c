/*
 * test_plotloaded.c - engine/subcommands/plotloaded.c, memjob plot's
 * loaded-latency chart, and the sums it shares with the loaded-latency
 * table (report/interference.h: aggressor_sum, point_figures): which
 * CSVs are a rate curve, the aggressors' GB/s summed over every
 * aggressor job of the victim's group and repeat (not another group's),
 * the median over the repeats, idle at 0 first, the points in order of
 * bandwidth, the range where too few runs give an interval, "unlimited"
 * where no aggressor was paced, and a sentence for what is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/interference.h"
#include "subcommands/plotloaded.h"

#define HEAD "job,group,repeat,status,role,phase,point,metric_name,metric," \
	     "gbps,rate_gbps,kernel,source_info\n"

/* A victim v alone (group 0) and at two rates and unlimited (groups
 * 1-3), two aggressor jobs a and b each, three repeats; group 1's
 * aggressor sums 3, 4, 2 GB/s. */
static const char curve_csv[] = HEAD
	"v,0,1,ok,victim,alone,,ns_per_item,100,,,chase,hugepage=auto: 2m\n"
	"v,0,2,ok,victim,alone,,ns_per_item,102,,,chase,hugepage=auto: 2m\n"
	"v,0,3,ok,victim,alone,,ns_per_item,101,,,chase,hugepage=auto: 2m\n"
	"v,3,1,ok,victim,loaded,rate=0,ns_per_item,150,,,chase,\n"
	"v,3,2,ok,victim,loaded,rate=0,ns_per_item,160,,,chase,\n"
	"v,3,3,ok,victim,loaded,rate=0,ns_per_item,155,,,chase,\n"
	"a,3,1,ok,aggressor,loaded,rate=0,gbps,20,20,,rwmix,\n"
	"a,3,2,ok,aggressor,loaded,rate=0,gbps,20,20,,rwmix,\n"
	"a,3,3,ok,aggressor,loaded,rate=0,gbps,20,20,,rwmix,\n"
	"v,1,1,ok,victim,loaded,rate=10%,ns_per_item,110,,,chase,\n"
	"v,1,2,ok,victim,loaded,rate=10%,ns_per_item,104,,,chase,\n"
	"v,1,3,ok,victim,loaded,rate=10%,ns_per_item,108,,,chase,\n"
	"a,1,1,ok,aggressor,loaded,rate=10%,gbps,1,1,1,rwmix,\n"
	"b,1,1,ok,aggressor,loaded,rate=10%,gbps,2,2,2,rwmix,\n"
	"a,1,2,ok,aggressor,loaded,rate=10%,gbps,1.5,1.5,1,rwmix,\n"
	"b,1,2,ok,aggressor,loaded,rate=10%,gbps,2.5,2.5,2,rwmix,\n"
	"a,1,3,ok,aggressor,loaded,rate=10%,gbps,1,1,1,rwmix,\n"
	"b,1,3,ok,aggressor,loaded,rate=10%,gbps,1,1,2,rwmix,\n"
	"v,2,1,ok,victim,loaded,rate=50%,ns_per_item,120,,,chase,\n"
	"v,2,2,ok,victim,loaded,rate=50%,ns_per_item,125,,,chase,\n"
	"v,2,3,failed,victim,loaded,rate=50%,ns_per_item,,,,chase,\n"
	"a,2,1,ok,aggressor,loaded,rate=50%,gbps,9,9,10,rwmix,\n"
	"a,2,2,ok,aggressor,loaded,rate=50%,gbps,11,11,10,rwmix,\n"
	"a,2,3,ok,aggressor,loaded,rate=50%,gbps,40,40,10,rwmix,\n"
	"a,9,1,ok,aggressor,loaded,rate=50%,gbps,99,99,10,rwmix,\n";

static void load(struct csv_table *t, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[512];

	assert_non_null(f);
	if (csv_table_read(t, f, "t.csv", NULL, err, sizeof(err)))
		fail_msg("csv_table_read: %s", err);
	fclose(f);
}

/* The script of text (0 or -1 from plot_loaded_script) into buf. */
static int script(const char *text, char *buf, size_t len, char *err,
		  size_t errlen)
{
	struct csv_table t;
	FILE *f = fmemopen(buf, len, "w");
	int ret;

	assert_non_null(f);
	load(&t, text);
	err[0] = '\0';
	ret = plot_loaded_script(f, &t, err, errlen);
	fclose(f);
	csv_table_free(&t);
	return ret;
}

/* The data block $ll0 of a script. */
static const char *block(const char *s)
{
	const char *b = strstr(s, "$ll0 << EOD\n");

	assert_non_null(b);
	return b + strlen("$ll0 << EOD\n");
}

static void test_curve_points(void **state)
{
	static char buf[16384];
	char err[512];
	const char *b;

	(void)state;
	if (script(curve_csv, buf, sizeof(buf), err, sizeof(err)))
		fail_msg("%s", err);
	b = block(buf);
	/* idle: 0 GB/s, median 101, range 100..102 (3 runs: no interval);
	 * rate=10%: a + b per repeat 3, 4, 2, median 3 */
	assert_non_null(strstr(b, "0 101 100 102 \"idle\"\n"
				  "3 108 104 110 \"rate=10%\"\n"));
	assert_non_null(strstr(buf, "\"rate=50%\"\n20 155 150 160 "
				    "\"rate=0 (unlimited)\"\nEOD\n"));
	assert_non_null(strstr(buf, "min..max where too few runs"));
	assert_non_null(strstr(buf, "victim chase latency, ns per access"));
	assert_non_null(strstr(buf, "loaded latency of victim ''v''"));
	assert_non_null(strstr(buf, "victim''s memory: hugepage=auto: 2m"));
}

/* rate=50%: the victim's figures of its 2 runs that finished, the
 * aggressors' of all 3 rounds as the table's (9, 11, 40: median 11), of
 * group 2 only (not group 9's 99). */
static void test_repeats_of_the_victim(void **state)
{
	static char buf[16384];
	char err[512];

	(void)state;
	if (script(curve_csv, buf, sizeof(buf), err, sizeof(err)))
		fail_msg("%s", err);
	assert_non_null(strstr(buf, "11 122.5 120 125 \"rate=50%\"\n"));
}

static void test_which_are_curves(void **state)
{
	struct csv_table t;
	char *other = strdup(curve_csv), *p;

	assert_non_null(other);
	(void)state;
	load(&t, curve_csv);
	assert_true(plot_loaded_curve(&t));
	csv_table_free(&t);
	/* a point that sets another option is no rate curve */
	p = strstr(other, "rate=10%,ns");
	memcpy(p, "size=10%", 8);
	load(&t, other);
	assert_false(plot_loaded_curve(&t));
	csv_table_free(&t);
	free(other);
	/* nor a figure that is no latency */
	other = strdup(curve_csv);
	assert_non_null(other);
	while ((p = strstr(other, "ns_per_item")))
		memcpy(p, "gbps_xxxxxx", 11);
	load(&t, other);
	assert_false(plot_loaded_curve(&t));
	csv_table_free(&t);
	free(other);
}

static void test_missing(void **state)
{
	static char buf[16384];
	char err[512], *text = strdup(curve_csv), *p;

	(void)state;
	assert_non_null(text);
	/* an aggressor's gbps gone: named, with its line */
	p = strstr(text, "gbps,1.5,1.5,1,");
	memmove(p + 9, p + 12, strlen(p + 12) + 1);	/* "gbps,1.5,,1," */
	assert_int_equal(script(text, buf, sizeof(buf), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.csv, line 16: aggressor 'a' at "
				    "rate=10% has no gbps"));
	free(text);
	/* no curve at all */
	assert_int_equal(script(HEAD "v,0,1,ok,victim,alone,,ns_per_item,1,,,"
				"chase,\n", buf, sizeof(buf), err,
				sizeof(err)), -1);
	assert_non_null(strstr(err, "no victim whose loaded points differ "
				    "only in their aggressors' rate="));
}

static void test_aggressor_sum(void **state)
{
	struct aggressor_sum *a = calloc(1, sizeof(*a));
	struct stat_summary s;

	(void)state;
	assert_non_null(a);
	aggressor_sum_add(a, 2, 5);	/* repeats 0 and 1 count, as 0 */
	aggressor_sum_add(a, 0, 1);
	aggressor_sum_add(a, 0, 2);
	assert_int_equal(a->n, 3);
	s = aggressor_sum_summary(a);
	assert_true(s.median == 3 && s.min == 0 && s.max == 5);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_points),
		cmocka_unit_test(test_repeats_of_the_victim),
		cmocka_unit_test(test_which_are_curves),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_aggressor_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
