/*
 * test_pmu.c - unit tests for the parts of named events that need no PMU:
 * a build without libpfm4 (pmu_absent.c, compiled into this test in
 * place of pmu.c, so that counters_parse() runs as it does in such a
 * build), the event sets' rows per PMU, and the sysfs facts of uncore
 * PMUs read from a fixture tree (t/fixtures/pmu).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "machine/counters.h"
#include "machine/evsets.h"
#include "machine/pmu.h"

/* This test's pmu.h is the one of a build without libpfm4: its
 * definitions come first, so the archive's pmu.o is never linked. */
#include "engine/machine/pmu_absent.c"

#define ERRLEN	512

static void test_without_libpfm4(void **state)
{
	struct counter_list l;
	const char *why, *fix;
	char err[ERRLEN];

	(void)state;
	assert_false(pmu_built(&why, &fix));
	assert_non_null(strstr(fix, "libpfm4-dev"));
	assert_null(pmu_core());
	/* generic names work */
	assert_int_equal(counters_parse("cycles,task-clock", &l, err,
					 sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	/* a vendor's name is refused with the package to install */
	assert_int_equal(counters_parse("task-clock,INST_RETIRED:ANY_P", &l,
					 err, sizeof(err)), -1);
	assert_non_null(strstr(err, "event 'INST_RETIRED:ANY_P' is not one "
			       "of perf's generic names"));
	assert_non_null(strstr(err, "libpfm4-dev"));
	/* a typo of a generic name is still a typo */
	assert_int_equal(counters_parse("cylces", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'cycles'?"));
	/* a set falls back to perf's generic events, and says which */
	assert_int_equal(counters_parse("@llc,task-clock", &l, err,
					 sizeof(err)), 0);
	assert_true(l.has_set);
	assert_int_equal(l.row, evsets_generic(l.set));
	assert_int_equal(l.nset, 4);
	assert_string_equal(counters_name(l.ids[0]), "LLC-load-misses");
	assert_string_equal(counters_name(l.ids[4]), "task-clock");
	counters_format(&l, err, sizeof(err));
	assert_string_equal(err, "@llc,task-clock");
}

static void test_set_errors(void **state)
{
	struct counter_list l;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(counters_parse("@lcc", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean '@llc'?"));
	assert_int_equal(counters_parse("@llc,@icache", &l, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "one event set a list"));
	assert_int_equal(counters_parse("cycles,@llc", &l, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "event 'cycles' is in @llc already"));
	assert_int_equal(counters_parse("@icache,instructions", &l, err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "is in @icache already"));
	assert_int_equal(counters_parse("@paging,none", &l, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "stands alone"));
}

/* The row a PMU gets, by its family. */
static void row_is(int set, const char *core, const char *family)
{
	const struct evset_row *row = evsets_get(set, evsets_row(set, core));

	if (!strstr(row->family, family))
		fail_msg("@%s on %s: row '%s', want '%s'", evsets_name(set),
			 core ? core : "(none)", row->family, family);
}

static void test_set_rows(void **state)
{
	int llc = evsets_find("llc"), icache = evsets_find("icache");
	int paging = evsets_find("paging");

	(void)state;
	assert_true(llc >= 0 && icache >= 0 && paging >= 0);
	assert_int_equal(evsets_find("nope"), -1);
	row_is(llc, "skl", "Intel");
	row_is(llc, "icx", "Ice Lake");
	row_is(llc, "amd64_fam19h_zen4", "Zen 4");
	row_is(llc, "amd64_fam19h_zen3", "Zen 3");
	row_is(llc, "arm_n1", "Neoverse");
	row_is(llc, NULL, "generic");
	row_is(llc, "amd64_fam1ah_zen5", "generic");	/* not in 4.13 */
	/* a name holding another one is not it */
	row_is(llc, "sk", "generic");
	row_is(icache, "spr", "Sapphire Rapids");
	row_is(icache, "amd64_fam17h_zen1", "Zen 1");
	row_is(paging, "arm_v2", "Neoverse");
	/* every set ends with its generic row, and only it has no PMUs */
	for (int s = 0; s < evsets_count(); s++)
		for (int r = 0; r < evsets_rows(s); r++)
			assert_int_equal(evsets_get(s, r)->pmus == NULL,
					 r == evsets_generic(s));
}

static void test_sysfs(void **state)
{
	uint64_t bits[4];
	char root[4096], name[64], list[256];

	(void)state;
	fixture_path("pmu", root, sizeof(root));
	assert_int_equal(pmu_cpumask(root, "amd_l3", bits, 4), 3);
	assert_int_equal(bits[0], (1ull << 0) | (1ull << 8) | (1ull << 9));
	assert_int_equal(pmu_cpumask(root, "uncore_imc_0", bits, 4), 2);
	assert_int_equal(bits[0], (1ull << 0) | (1ull << 28));
	/* no cpumask: a core PMU, or none at all */
	assert_int_equal(pmu_cpumask(root, "cpu", bits, 4), -1);
	assert_int_equal(pmu_cpumask(root, "nope", bits, 4), -1);
	assert_int_equal(pmu_sysfs_name(root, 11, name, sizeof(name)), 0);
	assert_string_equal(name, "amd_l3");
	assert_int_equal(pmu_sysfs_name(root, 14, name, sizeof(name)), 0);
	assert_string_equal(name, "uncore_imc_0");
	assert_int_equal(pmu_sysfs_name(root, 77, name, sizeof(name)), -1);
	pmu_sysfs_list(root, list, sizeof(list));
	assert_string_equal(list, "amd_l3 cpu software uncore_imc_0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_without_libpfm4),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_set_rows),
		cmocka_unit_test(test_sysfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
