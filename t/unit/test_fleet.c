/*
 * test_fleet.c - what a fleet run is made of: the hosts that stand out
 * from the fleet's median by the MAD rule (engine/fleet.c), machine
 * types kept apart, the machine identity of the rows (engine/machine.c:
 * topology summary, CPU model, the hashes) and --output's file name
 * pattern (engine/outname.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "subcommands/compare.h"
#include "fixture.h"
#include "subcommands/fleet.h"
#include "report/machine.h"
#include "report/outname.h"

struct judged {
	struct csv_table t;
	struct cmp_src src;
	struct cmp c;
};

/* The fleet of the CSV text, by host, with the default key. */
static void judge(struct judged *j, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct cmp_opts o = { .by = "host" };
	char err[512];

	assert_non_null(f);
	if (csv_table_read(&j->t, f, "fleet.csv", NULL, err, sizeof(err)))
		fail_msg("csv_table_read: %s", err);
	fclose(f);
	j->src = (struct cmp_src){ &j->t, "fleet.csv", NULL };
	if (cmp_build(&j->c, &j->src, 1, &o, err, sizeof(err)))
		fail_msg("cmp_build: %s", err);
	assert_int_equal(cmp_against(&j->c, NULL), 0);
	assert_int_equal(fleet_judge(&j->c), 0);
}

static void judged_free(struct judged *j)
{
	cmp_free(&j->c);
	csv_table_free(&j->t);
}

static const struct cmp_cell *cell_of(const struct judged *j, unsigned point,
				      const char *run)
{
	for (unsigned i = 0; i < j->c.nruns; i++)
		if (!strcmp(j->c.run[i], run))
			return &j->c.point[point].cell[i];
	fail_msg("no run %s", run);
	return NULL;
}

static void test_one_slow_host(void **state)
{
	struct judged j;

	(void)state;
	judge(&j, "host,job,status,metric_name,metric\n"
		  "a,s,ok,gbps,10\n" "a,s,ok,gbps,10.4\n" "a,s,ok,gbps,9\n"
		  "b,s,ok,gbps,9.8\n" "c,s,ok,gbps,10.1\n"
		  "d,s,ok,gbps,9.9\n" "e,s,ok,gbps,6\n");
	assert_int_equal(j.c.npoints, 1);
	assert_true(j.c.point[0].judged);
	assert_int_equal(j.c.point[0].fleet_runs, 5);
	/* medians 10, 9.8, 10.1, 9.9, 6: the fleet's is 9.9 */
	assert_float_equal(j.c.point[0].fleet_median, 9.9, 1e-9);
	/* |x - 9.9|: 0.1, 0.1, 0.2, 0, 3.9: MAD 0.1, floor 0.099 */
	assert_float_equal(j.c.point[0].fleet_mad, 0.1, 1e-9);
	assert_true(cell_of(&j, 0, "e")->outlier);
	/* (6 - 9.9) / 9.9 * 100, as a figure of 4 decimals */
	assert_float_equal(cell_of(&j, 0, "e")->deviation_pct, -39.3939,
			   1e-12);
	for (const char *h = "abcd"; *h; h++) {
		char run[2] = { *h, 0 };

		assert_false(cell_of(&j, 0, run)->outlier);
		assert_true(cell_of(&j, 0, run)->has_deviation);
	}
	assert_int_equal(fleet_outliers(&j.c), 1);
	judged_free(&j);
}

/* MAD 0 (equal hosts): 1% of the median is the floor, so 3 x 1.4826 x
 * 1% = 4.45% is the least deviation that stands out. */
static void test_mad_floor(void **state)
{
	struct judged j;

	(void)state;
	judge(&j, "host,job,metric_name,metric\n"
		  "a,s,gbps,100\n" "b,s,gbps,100\n" "c,s,gbps,100\n"
		  "d,s,gbps,104.4\n" "e,s,gbps,95.5\n");
	assert_float_equal(j.c.point[0].fleet_mad, 0, 0);
	assert_false(cell_of(&j, 0, "d")->outlier);
	assert_true(cell_of(&j, 0, "e")->outlier);
	judged_free(&j);
}

/* Two hosts of another type would stand out against four of this one;
 * with machine_type in the key they are a point of their own, too small
 * to judge. */
static void test_machine_types_apart(void **state)
{
	struct judged j;

	(void)state;
	judge(&j, "host,job,machine_type,metric_name,metric\n"
		  "a,s,x,gbps,10\n" "b,s,x,gbps,10.1\n" "c,s,x,gbps,9.9\n"
		  "d,s,x,gbps,10\n" "e,s,y,gbps,5\n" "f,s,y,gbps,5\n");
	assert_int_equal(j.c.nkey, 2);
	assert_string_equal(j.c.key[1], "machine_type");
	assert_int_equal(j.c.npoints, 2);
	assert_true(j.c.point[0].judged);
	assert_false(j.c.point[1].judged);	/* 2 runs < FLEET_MIN_RUNS */
	assert_false(cell_of(&j, 1, "e")->has_deviation);
	assert_int_equal(fleet_outliers(&j.c), 0);
	judged_free(&j);
}

/* Points judged by different metrics are not a fleet. */
static void test_mixed_metrics(void **state)
{
	struct judged j;

	(void)state;
	judge(&j, "host,job,metric_name,metric\n"
		  "a,s,gbps,1\n" "b,s,gbps,1\n" "c,s,ns_per_item,50\n");
	assert_false(j.c.point[0].judged);
	judged_free(&j);
}

static void test_topo_summary(void **state)
{
	struct topo t;
	char buf[160];

	(void)state;
	fixture_load_topo(&t, "seed004");
	machine_topo_summary(&t, buf, sizeof(buf));
	assert_string_equal(buf, "2s/32c/64t L1d 32k L1i 32k L2 1m L3 22m");
	topo_free(&t);
	fixture_load_topo(&t, "seed000");
	machine_topo_summary(&t, buf, sizeof(buf));
	assert_string_equal(buf, "1s/4c/8t L1d 48k L1i 32k L2 512k L3 6m");
	/* an unknown package: '?' rather than a guess */
	t.cpus[0].package_id = -1;
	machine_topo_summary(&t, buf, sizeof(buf));
	assert_string_equal(buf, "?s/?c/8t L1d 48k L1i 32k L2 512k L3 6m");
	topo_free(&t);
	machine_topo_summary(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "unknown");
}

/* A sysroot with only proc/cpuinfo holding text. */
static void cpuinfo_root(char *root, size_t len, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(root, len, "/tmp/memjob-fleet.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void cpuinfo_gone(const char *root)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

static void test_cpu_model_and_type(void **state)
{
	struct machine_id x86, x86b, arm, none;
	char root[64];

	(void)state;
	cpuinfo_root(root, sizeof(root), "processor\t: 0\nvendor_id\t: X\n"
		     "model name\t: Some CPU @ 2.0GHz\nflags\t\t: fpu\n");
	machine_id_init(&x86, NULL, root);
	machine_id_init(&x86b, NULL, root);
	cpuinfo_gone(root);
	assert_string_equal(x86.cpu_model, "Some CPU @ 2.0GHz");
	assert_string_equal(x86.machine_type, x86b.machine_type);
	assert_int_equal(strlen(x86.machine_type), MACHINE_HASH_LEN);

	cpuinfo_root(root, sizeof(root), "processor\t: 0\nBogoMIPS\t: 50\n"
		     "CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n");
	machine_id_init(&arm, NULL, root);
	cpuinfo_gone(root);
	assert_string_equal(arm.cpu_model, "arm64 implementer 0x41 part 0xd0c");
	assert_string_not_equal(arm.machine_type, x86.machine_type);

	machine_id_init(&none, NULL, "/nonexistent-root");
	assert_string_equal(none.cpu_model, "unknown");
}

static void test_job_hash(void **state)
{
	struct machine_id a, b, c;
	static const char one[] = "; jobs as memjob resolved them\n[a]\n"
				  "size=llc/2\n; size=llc/2 is 16m here\n";
	static const char two[] = "; jobs as memjob resolved them\n[a]\n"
				  "size=llc/2\n; size=llc/2 is 1m here\n";
	static const char other[] = "[a]\nsize=llc/4\n";

	(void)state;
	machine_job_hash(&a, one, strlen(one));
	machine_job_hash(&b, two, strlen(two));
	machine_job_hash(&c, other, strlen(other));
	assert_string_equal(a.job_hash, b.job_hash);	/* comments aside */
	assert_string_not_equal(a.job_hash, c.job_hash);
	assert_int_equal(strlen(a.job_hash), MACHINE_HASH_LEN);
}

static void test_outname(void **state)
{
	char buf[256], why[512];

	(void)state;
	assert_int_equal(outname_check("r-%h-%j-%A_%a-%t-%p-%%.csv", why,
				       sizeof(why)), 0);
	assert_int_equal(outname_check("r-%x.csv", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'%x'"));
	assert_int_equal(outname_check("r-%", why, sizeof(why)), -1);
	assert_false(outname_is_pattern("plain.csv"));
	assert_true(outname_is_pattern("r-%%.csv"));

	setenv("SLURM_JOB_ID", "12", 1);
	setenv("SLURM_ARRAY_JOB_ID", "10", 1);
	setenv("SLURM_ARRAY_TASK_ID", "3", 1);
	setenv("SLURM_PROCID", "a/b", 1);
	assert_int_equal(outname_expand("r-%h-%j-%A_%a-%t-%%.csv", "n1", buf,
					sizeof(buf), why, sizeof(why)), 0);
	assert_string_equal(buf, "r-n1-12-10_3-a_b-%.csv");
	/* a name too long for buf */
	assert_int_equal(outname_expand("%h%h%h", "0123456789", buf, 20,
					why, sizeof(why)), -1);
	/* a newline or another control character, and . or .., never
	 * reach a name: refused, not cleaned */
	setenv("SLURM_JOB_ID", "12\n34", 1);
	assert_int_equal(outname_expand("r-%j.csv", "n1", buf, sizeof(buf),
					why, sizeof(why)), -1);
	assert_string_equal(why, "'%j' in 'r-%j.csv' is the Slurm job id, but "
			    "SLURM_JOB_ID holds a control character (byte "
			    "0x0a): memjob puts none in a file name");
	assert_int_equal(outname_expand("r-%h.csv", "n\x1b[1", buf,
					sizeof(buf), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "the host name holds a control character "
			       "(byte 0x1b)"));
	setenv("SLURM_JOB_ID", "..", 1);
	assert_int_equal(outname_expand("%j/r.csv", "n1", buf, sizeof(buf),
					why, sizeof(why)), -1);
	assert_non_null(strstr(why, "SLURM_JOB_ID is '..', which names a "
			       "directory"));
	setenv("SLURM_JOB_ID", "..5", 1);
	assert_int_equal(outname_expand("%j/r.csv", "n1", buf, sizeof(buf),
					why, sizeof(why)), 0);
	assert_string_equal(buf, "..5/r.csv");
	unsetenv("SLURM_JOB_ID");
	assert_int_equal(outname_expand("r-%j.csv", "n1", buf, sizeof(buf),
					why, sizeof(why)), -1);
	assert_non_null(strstr(why, "SLURM_JOB_ID is not set"));
	unsetenv("SLURM_ARRAY_JOB_ID");
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("SLURM_PROCID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_slow_host),
		cmocka_unit_test(test_mad_floor),
		cmocka_unit_test(test_machine_types_apart),
		cmocka_unit_test(test_mixed_metrics),
		cmocka_unit_test(test_topo_summary),
		cmocka_unit_test(test_cpu_model_and_type),
		cmocka_unit_test(test_job_hash),
		cmocka_unit_test(test_outname),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
