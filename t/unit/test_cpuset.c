/*
 * test_cpuset.c - unit tests for the CPU set expressions (engine/cpuset.c).
 *
 * The sets are taken on the fixture of seed 004's server (64 CPUs, even
 * ones on socket/node 0 and sharing one L3, CPU c and c+32 SMT siblings)
 * and of seed 000's laptop, so that "llc-of:2,!core-of:2" can be checked
 * against what the seed did by hand: the aggressors on CPU 2's L3 without
 * CPU 2 and its sibling 34.  Every error is checked on its message, which
 * must quote the expression and name the bad part.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "machine/cpuset.h"
#include "fixture.h"

#define WORDS	TOPO_WORDS

static bool has(const uint64_t *bits, unsigned cpu)
{
	return bits[cpu / 64] >> (cpu % 64) & 1;
}

static void parse_ok(const struct topo *t, const char *expr, uint64_t *bits)
{
	char err[1024] = "";

	memset(bits, 0, WORDS * sizeof(*bits));
	if (cpuset_parse(expr, t, bits, err, sizeof(err)))
		fail_msg("cpuset_parse('%s') failed: %s", expr, err);
}

/* expr gives exactly the CPUs of want, a list of ids ended by -1. */
static void parse_is(const struct topo *t, const char *expr, const int *want)
{
	uint64_t bits[WORDS], expect[WORDS] = { 0 };

	for (; *want >= 0; want++)
		expect[*want / 64] |= 1ULL << (*want % 64);
	parse_ok(t, expr, bits);
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++)
		if (has(bits, c) != has(expect, c))
			fail_msg("'%s': CPU %u is %s", expr, c,
				 has(expect, c) ? "missing" : "there but should not be");
}

/* expr gives first, first + step, ... last, less the ids in but (-1 ends). */
static void parse_range(const struct topo *t, const char *expr, unsigned first,
			unsigned last, unsigned step, const int *but)
{
	uint64_t bits[WORDS];

	parse_ok(t, expr, bits);
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++) {
		bool want = c >= first && c <= last && (c - first) % step == 0;

		for (const int *b = but; b && *b >= 0; b++)
			if ((unsigned)*b == c)
				want = false;
		if (has(bits, c) != want)
			fail_msg("'%s': CPU %u is %s", expr, c,
				 want ? "missing" : "there but should not be");
	}
}

/* The parse fails, leaves bits alone, and the message holds every want
 * (and none of those that start with '~'). */
static void parse_fails(const struct topo *t, const char *expr, ...)
{
	uint64_t bits[WORDS];
	char err[1024] = "";
	const char *want;
	va_list ap;

	memset(bits, 0xa5, sizeof(bits));
	if (!cpuset_parse(expr, t, bits, err, sizeof(err)))
		fail_msg("cpuset_parse('%s') was accepted", expr);
	for (unsigned w = 0; w < WORDS; w++)
		if (bits[w] != 0xa5a5a5a5a5a5a5a5ULL)
			fail_msg("cpuset_parse('%s') changed bits on error", expr);
	va_start(ap, expr);
	while ((want = va_arg(ap, const char *))) {
		if (want[0] == '~' && strstr(err, want + 1))
			fail_msg("cpuset_parse('%s'): '%s' has '%s'", expr,
				 err, want + 1);
		else if (want[0] != '~' && !strstr(err, want))
			fail_msg("cpuset_parse('%s'): '%s' lacks '%s'", expr,
				 err, want);
	}
	va_end(ap);
}

static void test_plain_lists(void **state)
{
	const struct topo *t = *state;

	parse_is(t, "0,2,4-7", (const int[]){ 0, 2, 4, 5, 6, 7, -1 });
	parse_range(t, "0-15:2", 0, 14, 2, NULL);
	parse_is(t, " 1 , 3 ", (const int[]){ 1, 3, -1 });
	parse_is(t, "63", (const int[]){ 63, -1 });
	parse_range(t, "0-63", 0, 63, 1, NULL);
	/* without a topology, only memjob's limit applies */
	parse_is(NULL, "1000,5", (const int[]){ 5, 1000, -1 });
}

static void test_words(void **state)
{
	const struct topo *t = *state;

	parse_range(t, "llc-of:2", 0, 62, 2, NULL);
	parse_range(t, "llc-of:35", 1, 63, 2, NULL);
	parse_is(t, "siblings-of:2", (const int[]){ 2, 34, -1 });
	parse_is(t, "siblings-of:34", (const int[]){ 2, 34, -1 });
	parse_is(t, "core-of:2", (const int[]){ 2, 34, -1 });
	parse_is(t, "core-of:63", (const int[]){ 31, 63, -1 });
	parse_range(t, "node:0", 0, 62, 2, NULL);
	parse_range(t, "node:1", 1, 63, 2, NULL);
	parse_range(t, "package-of:3", 1, 63, 2, NULL);
	parse_range(t, "package-of:0", 0, 62, 2, NULL);
	parse_range(t, "all", 0, 63, 1, NULL);
	parse_range(t, "LLC-of:2", 0, 62, 2, NULL);
	parse_range(t, "Node:1", 1, 63, 2, NULL);
}

static void test_combinations(void **state)
{
	const struct topo *t = *state;
	uint64_t bits[WORDS];

	/* seed 004: the aggressors share CPU 2's L3, not its core */
	parse_range(t, "llc-of:2,!core-of:2", 0, 62, 2, (const int[]){ 2, 34, -1 });
	parse_ok(t, "llc-of:2,!core-of:2", bits);
	assert_int_equal(cpuset_count(bits), 30);
	assert_false(has(bits, 2));
	assert_false(has(bits, 34));
	parse_range(t, "llc-of:2, !siblings-of:2", 0, 62, 2, (const int[]){ 2, 34, -1 });
	/* left to right: what is added after a removal stays */
	parse_range(t, "llc-of:2,!core-of:2,2", 0, 62, 2, (const int[]){ 34, -1 });
	parse_is(t, "llc-of:2,!node:0,5", (const int[]){ 5, -1 });
	/* a removal that removes nothing there */
	parse_range(t, "node:0,!llc-of:1", 0, 62, 2, NULL);
	/* a leading removal starts from every CPU */
	parse_range(t, "!core-of:2", 0, 63, 1, (const int[]){ 2, 34, -1 });
	parse_range(t, "!0-31", 32, 63, 1, NULL);
	parse_ok(t, "!node:1,5", bits);
	assert_int_equal(cpuset_count(bits), 33);
	assert_true(has(bits, 5));
	assert_true(has(bits, 62));
	assert_false(has(bits, 7));
	parse_is(t, "4-7,!5,!6-7", (const int[]){ 4, -1 });
	parse_is(t, "siblings-of:2,package-of:1,!1-63:2", (const int[]){ 2, 34, -1 });
}

static void test_seed000(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed000");
	parse_is(&t, "llc-of:2,!core-of:2", (const int[]){ 0, 1, 3, 4, 5, 7, -1 });
	parse_is(&t, "siblings-of:1", (const int[]){ 1, 5, -1 });
	parse_range(&t, "node:0", 0, 7, 1, NULL);
	parse_fails(&t, "node:1", "NUMA node 1 does not exist",
		    "(this machine has node 0)", NULL);
	parse_fails(&t, "llc-of:8", "CPU 8 does not exist (this machine has CPUs 0-7)",
		    NULL);
	topo_free(&t);
}

static void test_errors(void **state)
{
	const struct topo *t = *state;

	parse_fails(t, "llc:2", "'llc:2': unknown word 'llc' (did you mean 'llc-of'?)",
		    "llc-of:C, siblings-of:C", NULL);
	parse_fails(t, "0,sibling-of:2", "'sibling-of:2' in '0,sibling-of:2'",
		    "did you mean 'siblings-of'?", NULL);
	parse_fails(t, "nodes:1", "did you mean 'node'?", NULL);
	parse_fails(t, "frobnicate:2", "unknown word 'frobnicate';", NULL);
	parse_fails(t, "llc-of:64", "'llc-of:64': CPU 64 does not exist "
		    "(this machine has CPUs 0-63)", "~' in '", NULL);
	parse_fails(t, " llc-of:64 ", "'llc-of:64' in ' llc-of:64 ': CPU 64",
		    NULL);
	parse_fails(t, "0,llc-of:64,!core-of:2", "'llc-of:64' in "
		    "'0,llc-of:64,!core-of:2': CPU 64 does not exist", NULL);
	parse_fails(t, "0-64", "CPU 64 does not exist (this machine has CPUs 0-63)",
		    NULL);
	parse_fails(t, "!70", "CPU 70 does not exist", NULL);
	parse_fails(t, "99999999999", "far too large", NULL);
	parse_fails(t, "node:2", "'node:2': NUMA node 2 does not exist "
		    "(this machine has nodes 0-1)", NULL);
	parse_fails(t, "llc-of:2,!llc-of:2", "'llc-of:2,!llc-of:2' leaves no CPU",
		    NULL);
	parse_fails(t, "5,!node:1", "'5,!node:1' leaves no CPU", NULL);
	parse_fails(t, "7-4", "'7-4': the range is reversed (did you mean 4-7?)",
		    NULL);
	parse_fails(t, "0-15:0", "step", "at least 1", NULL);
	parse_fails(t, "0,,2", "'0,,2': empty item", NULL);
	parse_fails(t, "0,", "'0,': empty item", "~''", NULL);
	parse_fails(t, ",0", "empty item", NULL);
	parse_fails(t, "0,!", "'!' in '0,!': '!' must be followed", NULL);
	parse_fails(t, "llc-of", "'llc-of': expected llc-of:C with one CPU number",
		    NULL);
	parse_fails(t, "llc-of:", "expected llc-of:C", NULL);
	parse_fails(t, "llc-of:x", "expected llc-of:C", NULL);
	parse_fails(t, "llc-of:2-3", "expected llc-of:C", NULL);
	parse_fails(t, "node:", "expected node:N with one node number", NULL);
	parse_fails(t, "all:3", "'all' takes no argument", NULL);
	parse_fails(t, "4x", "'4x': expected a CPU number, a range", NULL);
	parse_fails(t, "4-", "expected a CPU number", NULL);
	parse_fails(t, "1-3:", "expected a CPU number", NULL);
	parse_fails(t, "-1", "expected a CPU number", NULL);
	parse_fails(t, "", "got an empty value", NULL);
	parse_fails(t, NULL, "got an empty value", NULL);
	/* words need a topology */
	parse_fails(NULL, "llc-of:2", "'llc-of' needs the machine's CPU topology",
		    NULL);
	parse_fails(NULL, "!3", "needs the machine's CPU topology", NULL);
	parse_fails(NULL, "2000", "CPU 2000 is beyond memjob's limit of 1024",
		    NULL);
}

/* A topology with parts unknown: the words that need them say so. */
static void test_unknown_parts(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed000");
	memset(t.cpus[1].caches[3].shared, 0, sizeof(t.cpus[1].caches[3].shared));
	memset(t.cpus[3].siblings, 0, sizeof(t.cpus[3].siblings));
	t.cpus[5].package_id = -1;
	t.cpus[6].ncaches = 0;
	memset(t.cpus[2].siblings, 0, sizeof(t.cpus[2].siblings));
	t.cpus[2].siblings[0] = 1U << 6;	/* a list without the CPU */
	memset(t.node_cpus[0], 0, sizeof(t.node_cpus[0]));
	parse_fails(&t, "llc-of:1", "the CPUs sharing CPU 1's L3 are unknown",
		    NULL);
	parse_fails(&t, "core-of:3", "the SMT siblings of CPU 3 are unknown",
		    NULL);
	parse_fails(&t, "package-of:5", "the package of CPU 5 is unknown", NULL);
	parse_fails(&t, "llc-of:6", "no cache of CPU 6 is known", NULL);
	parse_fails(&t, "node:0", "NUMA node 0 has no CPUs", NULL);
	parse_is(&t, "siblings-of:2", (const int[]){ 2, 6, -1 });
	/* the others still work */
	parse_is(&t, "llc-of:0,!core-of:0", (const int[]){ 1, 2, 3, 5, 6, 7, -1 });
	topo_free(&t);
}

/* cpuset_resolve with want clones: the CPUs (-1 ends), and the note
 * holds every string of notes (NULL ends; "" for an empty note). */
static void resolve_is(const struct topo *t, const char *expr, unsigned want,
		       const int *cpus, ...)
{
	uint64_t bits[WORDS] = { 0 }, expect[WORDS] = { 0 };
	char err[1024] = "", note[512];
	const char *n;
	va_list ap;

	for (; *cpus >= 0; cpus++)
		expect[*cpus / 64] |= 1ULL << (*cpus % 64);
	if (cpuset_resolve(expr, t, want, bits, note, sizeof(note), err,
			   sizeof(err)))
		fail_msg("cpuset_resolve('%s', %u) failed: %s", expr, want, err);
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++)
		if (has(bits, c) != has(expect, c))
			fail_msg("'%s': CPU %u is %s", expr, c,
				 has(expect, c) ? "missing" : "there but should not be");
	va_start(ap, cpus);
	while ((n = va_arg(ap, const char *))) {
		if (!n[0] && note[0])
			fail_msg("'%s': unexpected note '%s'", expr, note);
		if (n[0] && !strstr(note, n))
			fail_msg("'%s': note '%s' lacks '%s'", expr, note, n);
	}
	va_end(ap);
}

/* "A else B": B where A leaves no CPU or too few for the clones, or
 * needs what this machine lacks; a mistake in the text stays an error. */
static void test_fallback(void **state)
{
	struct topo vm, laptop;

	(void)state;
	fixture_load_topo(&vm, "vm-2cpu");
	fixture_load_topo(&laptop, "seed000");
	/* the VM: CPU 0's L3 is its own, so the aggressors take CPU 1 */
	parse_fails(&vm, "llc-of:0,!core-of:0", "leaves no CPU", NULL);
	resolve_is(&vm, "llc-of:0,!core-of:0 else !core-of:0", 1,
		   (const int[]){ 1, -1 }, "'llc-of:0,!core-of:0' leaves no CPU",
		   "using the fallback '!core-of:0' (CPU 1)",
		   "contention in the memory system, not LLC sharing", NULL);
	/* the laptop shares its L3: no fallback, no note */
	resolve_is(&laptop, "llc-of:0,!core-of:0 else !core-of:0", 1,
		   (const int[]){ 1, 2, 3, 5, 6, 7, -1 }, "", NULL);
	/* too few for 2 clones: the next alternative */
	resolve_is(&vm, "llc-of:0 ELSE 0-1", 2, (const int[]){ 0, 1, -1 },
		   "'llc-of:0' gives 1 CPU for 2 clones", NULL);
	/* none has enough: the first that gives any, and no error (the
	 * sweep leaves the point out and says why) */
	resolve_is(&laptop, "llc-of:0,!core-of:0 else 1-2", 8,
		   (const int[]){ 1, 2, 3, 5, 6, 7, -1 }, NULL);
	/* a CPU or node the machine lacks falls through too */
	resolve_is(&vm, "34 else node:3 else 1", 1, (const int[]){ 1, -1 },
		   "CPU 34 does not exist", "using the fallback '1'", NULL);
	/* all fail: both reasons */
	parse_fails(&vm, "llc-of:0,!core-of:0 else 5",
		    "'llc-of:0,!core-of:0' leaves no CPU",
		    "and the fallback '5': CPU 5 does not exist", NULL);
	/* the text is wrong: an error whatever follows */
	parse_fails(&vm, "llc-off:0 else 1", "unknown word 'llc-off'", NULL);
	parse_fails(&vm, "34 else 1-", "expected a CPU number", NULL);
	parse_fails(&vm, "0 else ", "an empty alternative", NULL);
	parse_fails(&vm, "else 0", "an empty alternative", NULL);
	/* "else" inside a word is not the operator */
	parse_fails(&vm, "elsewhere", "unknown word 'elsewhere'", NULL);
	topo_free(&vm);
	topo_free(&laptop);
}

/* A container allowed CPUs 1-3 and 5-7 (seed000's core 0 is not its
 * own): nothing lands on 0 or 4, and naming them says why. */
static void test_allowed(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "laptop-cgroup");
	assert_true(topo_has_cpu(&t, 0));
	assert_false(topo_cpu_allowed(&t, 0));
	assert_true(topo_restricted(&t));
	parse_fails(&t, "0", "CPU 0 is outside the CPUs this process may use",
		    "(1-3,5-7; taskset or a cgroup cpuset", NULL);
	parse_fails(&t, "2-4", "CPU 4 is outside", NULL);
	parse_is(&t, "all", (const int[]){ 1, 2, 3, 5, 6, 7, -1 });
	parse_is(&t, "!core-of:1", (const int[]){ 2, 3, 6, 7, -1 });
	parse_fails(&t, "siblings-of:0", "leaves no CPU", NULL);
	resolve_is(&t, "llc-of:1", 1, (const int[]){ 1, 2, 3, 5, 6, 7, -1 },
		   "'llc-of:1' leaves out CPUs 0,4: outside the CPUs this "
		   "process may use", NULL);
	resolve_is(&t, "0 else siblings-of:0 else 1", 1, (const int[]){ 1, -1 },
		   "CPU 0 is outside the CPUs", "using the fallback '1'", NULL);
	topo_free(&t);
}

static void test_count_nth(void **state)
{
	const struct topo *t = *state;
	uint64_t bits[WORDS] = { 0 };

	assert_int_equal(cpuset_count(bits), 0);
	assert_int_equal(cpuset_nth(bits, 0), -1);
	parse_ok(t, "llc-of:2,!core-of:2", bits);
	assert_int_equal(cpuset_count(bits), 30);
	assert_int_equal(cpuset_nth(bits, 0), 0);
	assert_int_equal(cpuset_nth(bits, 1), 4);
	assert_int_equal(cpuset_nth(bits, 15), 32);
	assert_int_equal(cpuset_nth(bits, 29), 62);
	assert_int_equal(cpuset_nth(bits, 30), -1);
	memset(bits, 0, sizeof(bits));
	bits[WORDS - 1] = 1ULL << 63;
	bits[1] = 1;
	assert_int_equal(cpuset_count(bits), 2);
	assert_int_equal(cpuset_nth(bits, 0), 64);
	assert_int_equal(cpuset_nth(bits, 1), MEMJOB_MAX_CPUS - 1);
	assert_int_equal(cpuset_nth(bits, 2), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_lists),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_seed000),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unknown_parts),
		cmocka_unit_test(test_count_nth),
	};

	return cmocka_run_group_tests(tests, fixture_setup_seed004,
				      fixture_teardown_topo);
}
