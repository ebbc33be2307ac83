/*
 * test_sizeexpr.c - unit tests for relative sizes (engine/sizeexpr.c).
 *
 * Sizes are evaluated on the fixture trees of seed 004's server (L1d 32K,
 * L2 1 MiB, L3 22 MiB, 192 GiB) and seed 000's laptop (L1d 48K, L2 512K,
 * L3 6 MiB, MemTotal 7729028 kB), where the expected bytes are known
 * exactly, including how a fraction is rounded down.  Errors are checked
 * on their message and on leaving the output alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "machine/sizeexpr.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define GiB	(1024 * MiB)
#define SEED004_RAM	(192 * GiB)
#define SEED000_RAM	(7729028 * KiB)

static void eval_is(const struct topo *t, unsigned cpu, const char *s,
		    uint64_t want)
{
	char err[512] = "";
	uint64_t v = 12345;

	if (sizeexpr_eval(s, t, cpu, &v, err, sizeof(err)))
		fail_msg("sizeexpr_eval('%s') failed: %s", s, err);
	if (v != want)
		fail_msg("sizeexpr_eval('%s') = %llu, want %llu", s,
			 (unsigned long long)v, (unsigned long long)want);
}

/* Refused, output untouched, and the message quotes s and says want. */
static void eval_fails(const struct topo *t, unsigned cpu, const char *s,
		       const char *want)
{
	char err[1024] = "", quoted[300];
	uint64_t v = 12345;

	if (!sizeexpr_eval(s, t, cpu, &v, err, sizeof(err)))
		fail_msg("sizeexpr_eval('%s') was accepted: %llu", s,
			 (unsigned long long)v);
	if (v != 12345)
		fail_msg("sizeexpr_eval('%s') changed the output on error", s);
	if (!strstr(err, want))
		fail_msg("sizeexpr_eval('%s'): '%s' lacks '%s'", s, err, want);
	snprintf(quoted, sizeof(quoted), "'%s'", s);
	if (*s && !strstr(err, quoted))
		fail_msg("sizeexpr_eval('%s'): '%s' does not quote it", s, err);
}

static void test_caches(void **state)
{
	const struct topo *t = *state;

	eval_is(t, 0, "llc", 22528 * KiB);
	eval_is(t, 0, "llc/2", 11 * MiB);
	eval_is(t, 2, "2*l2", 2 * MiB);
	eval_is(t, 2, "l2*2", 2 * MiB);
	eval_is(t, 0, "llc*4", 88 * MiB);
	eval_is(t, 0, "l1d", 32 * KiB);
	eval_is(t, 0, "l1i", 32 * KiB);
	eval_is(t, 0, "l1d/2", 16 * KiB);
	eval_is(t, 0, "l2", MiB);
	eval_is(t, 63, "l3", 22 * MiB);
	eval_is(t, 0, "LLC/2", 11 * MiB);
	eval_is(t, 0, "L1D", 32 * KiB);
	eval_is(t, 0, " llc / 2 ", 11 * MiB);
	eval_is(t, 0, "2 * l2", 2 * MiB);
	/* fractions are exact; only the result is rounded down */
	eval_is(t, 0, "llc*1.5", 33 * MiB);
	eval_is(t, 0, "1.5*llc", 33 * MiB);
	eval_is(t, 0, ".5*llc", 11 * MiB);
	eval_is(t, 0, "llc/0.5", 44 * MiB);
	eval_is(t, 0, "llc/3", 7689557);	/* 7689557.33 */
	eval_is(t, 0, "llc/1.5", 15379114);	/* 15379114.67 */
	eval_is(t, 0, "l1d/3", 10922);		/* 10922.67 */
	eval_is(t, 0, "l1d*1.00", 32 * KiB);
}

static void test_ram(void **state)
{
	const struct topo *t = *state;

	eval_is(t, 0, "10%ram", SEED004_RAM / 10);	/* 20615843020.8 */
	assert_int_equal(SEED004_RAM / 10, 20615843020ULL);
	eval_is(t, 0, "12.5%ram", 24 * GiB);
	eval_is(t, 0, "100%ram", SEED004_RAM);
	eval_is(t, 0, "200%ram", 2 * SEED004_RAM);
	eval_is(t, 0, "0.5%ram", 1030792151);		/* .04 dropped */
	eval_is(t, 0, " 50 % RAM ", 96 * GiB);
	/* RAM does not depend on the CPU */
	eval_is(t, 63, "50%ram", 96 * GiB);
}

static void test_seed000(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed000");
	eval_is(&t, 1, "l1d", 48 * KiB);
	eval_is(&t, 1, "l1i", 32 * KiB);
	eval_is(&t, 1, "l2", 512 * KiB);
	eval_is(&t, 1, "llc", 6 * MiB);
	eval_is(&t, 1, "llc/2", 3 * MiB);
	eval_is(&t, 5, "2*l2", MiB);
	eval_is(&t, 0, "10%ram", 791452467);	/* 791452467.2 */
	eval_is(&t, 0, "100%ram", SEED000_RAM);
	eval_fails(&t, 8, "llc", "CPU 8 does not exist");
	/* without an L3 the last level is L2 */
	t.cpus[0].ncaches = 3;
	eval_is(&t, 0, "llc", 512 * KiB);
	eval_fails(&t, 0, "l3", "CPU 0 has no L3 cache (it has L1d, L1i, L2)");
	eval_is(&t, 1, "l3", 6 * MiB);
	t.cpus[0].ncaches = 0;
	eval_fails(&t, 0, "llc", "no cache of CPU 0 is known");
	eval_fails(&t, 0, "l2", "CPU 0 has no L2 cache (none is known)");
	/* sizes and memory the topology did not give */
	t.cpus[1].caches[3].size = 0;
	eval_fails(&t, 1, "llc/2", "the size of CPU 1's L3 is unknown");
	t.ram = 0;
	eval_fails(&t, 1, "10%ram", "the memory size is unknown");
	topo_free(&t);
}

/* size=2*l2 on each machine shape of t/fixtures/topo, and on one where
 * nothing knows a cache: the error says what is unknown and what to do. */
static void test_machines(void **state)
{
	static const struct { const char *name; unsigned cpu; uint64_t l2x2,
			      llc; } m[] = {
		{ "seed004", 2, 2 * MiB, 22528 * KiB },
		{ "seed000", 0, MiB, 6 * MiB },
		{ "epyc7313", 0, MiB, 32 * MiB },
		{ "i5-1235u", 0, 2560 * KiB, 12 * MiB },	/* a P-core */
		{ "i5-1235u", 4, 4 * MiB, 12 * MiB },		/* an E-core */
		{ "vm-2cpu", 0, 2 * MiB, 508 * MiB },
		{ "graviton3", 63, 2 * MiB, 32 * MiB },
	};
	struct topo t;

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		fixture_load_topo(&t, m[i].name);
		eval_is(&t, m[i].cpu, "2*l2", m[i].l2x2);
		eval_is(&t, m[i].cpu, "llc", m[i].llc);
		topo_free(&t);
	}
	fixture_load_topo(&t, "vm-2cpu");
	for (unsigned c = 0; c < t.ncpus; c++)
		t.cpus[c].ncaches = 0;
	eval_fails(&t, 0, "2*l2", "the size of l2 is unknown: neither sysfs "
		   "nor CPUID lists a cache for this machine; give the size in "
		   "bytes (e.g. 1m), or describe the machine with "
		   "--topology-file");
	eval_fails(&t, 1, "llc/2", "the size of llc is unknown");
	topo_free(&t);
}

static void test_plain(void **state)
{
	const struct topo *t = *state;

	eval_is(NULL, 0, "4k", 4096);
	eval_is(NULL, 0, "1g", GiB);
	eval_is(t, 0, "4096", 4096);
	eval_is(t, 5000, "16m", 16 * MiB);	/* the CPU does not matter */
	eval_fails(NULL, 0, "4x", "expected a size such as");
	eval_fails(NULL, 0, "", "empty");
}

static void test_is_relative(void **state)
{
	static const char *const yes[] = {
		"llc", "llc/2", "2*l2", "10%ram", " l1d", "L2", "ram/2", "abc",
		"16k*2",
	};
	static const char *const no[] = { "4k", "4096", "1g", "0x10", "", " 4k" };

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!sizeexpr_is_relative(yes[i]))
			fail_msg("'%s' is relative", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (sizeexpr_is_relative(no[i]))
			fail_msg("'%s' is not relative", no[i]);
	assert_false(sizeexpr_is_relative(NULL));
}

static void test_errors(void **state)
{
	const struct topo *t = *state;

	eval_fails(t, 0, "l5", "CPU 0 has no L5 cache (it has L1d, L1i, L2, L3)");
	eval_fails(t, 0, "l1", "write l1d (data) or l1i (instruction)");
	eval_fails(t, 0, "lcc", "unknown cache 'lcc' (did you mean 'llc'?)");
	eval_fails(t, 0, "l2d", "(did you mean 'l2'?)");
	eval_fails(t, 0, "abc/2", "unknown cache 'abc'; expected l1d, l1i, l2, "
		   "l3, llc or N%ram");
	eval_fails(t, 0, "ram/2", "as in 50%ram");
	eval_fails(t, 0, "llc/0", "division by zero");
	eval_fails(t, 0, "llc/0.00", "division by zero");
	eval_fails(t, 0, "l1d/100000", "comes to less than one byte");
	eval_fails(t, 0, "llc*0", "comes to less than one byte");
	eval_fails(t, 0, "0%ram", "comes to less than one byte");
	eval_fails(t, 0, "llc/2/2", "at most one '*' or '/'");
	eval_fails(t, 0, "llc*2*2", "at most one '*' or '/'");
	eval_fails(t, 0, "llc*2/2", "at most one '*' or '/'");
	eval_fails(t, 0, "2/llc", "one side of '/' must be a cache name");
	eval_fails(t, 0, "16k*2", "one side of '*' must be a cache name");
	eval_fails(t, 0, "llc*", "needs a cache name on one side and a number");
	eval_fails(t, 0, "/2", "needs a cache name on one side and a number");
	eval_fails(t, 0, "llc*x", "'x' is not a number such as 2 or 1.5");
	eval_fails(t, 0, "llc*l2", "'l2' is not a number");
	eval_fails(t, 0, "llc*1e3", "'1e3' is not a number");
	eval_fails(t, 0, "llc*-2", "'-2' is not a number");
	eval_fails(t, 0, "llc*.", "'.' is not a number");
	eval_fails(t, 0, "llc*2k", "'2k' is not a number");
	eval_fails(t, 0, "llc*999999999999999", "too large for a size");
	eval_fails(t, 0, "llc*99999999999999999999999", "is not a number");
	eval_fails(t, 0, "llc*1.000000000000000001", "is not a number");
	eval_fails(t, 0, "10%mem", "written as N%ram");
	eval_fails(t, 0, "x%ram", "'x' is not a number");
	eval_fails(t, 0, "%ram", "a number is missing");
	eval_fails(t, 64, "llc", "CPU 64 does not exist");
	eval_fails(t, 64, "l2", "CPU 64 does not exist");
	eval_fails(NULL, 0, "llc/2", "need the machine's topology");
	eval_fails(NULL, 0, "10%ram", "the memory size is unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caches),
		cmocka_unit_test(test_ram),
		cmocka_unit_test(test_seed000),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_is_relative),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, fixture_setup_seed004,
				      fixture_teardown_topo);
}
