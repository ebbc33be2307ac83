/*
 * test_quirks.c - unit tests for the host's quirks (engine/machine/
 * quirks.c, quirks_dev.c, cacheflush.c, memprobe.c): the judgements on
 * fed figures (a flush that keeps its line, memory the host had taken
 * back, a disk faster than its kind), the sysfs reads on the fixture
 * roots of t/fixtures/quirks (free page reporting, a balloon, THP), and
 * on this machine what must hold whatever it is: a touch of fresh memory
 * counts its bytes and takes time, and the flush probe, where it runs,
 * finds an evicted line dearer than a cached one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "machine/arch.h"
#include "machine/quirks.h"

static void test_flush_judge(void **state)
{
	(void)state;
	/* the Zen 5 guest: cached 52 ticks, evicted 416 */
	assert_int_equal(flush_judge(52, 416, 78), FLUSH_KEEPS);
	assert_int_equal(flush_judge(52, 416, 364), FLUSH_EVICTS);
	/* the middle third: neither */
	assert_int_equal(flush_judge(52, 416, 230), FLUSH_UNCLEAR);
	/* a miss no dearer than a hit tells nothing */
	assert_int_equal(flush_judge(52, 60, 58), FLUSH_UNCLEAR);
	assert_int_equal(flush_judge(40, 65, 64), FLUSH_UNCLEAR);
	assert_int_equal(flush_judge(0, 416, 78), FLUSH_UNCLEAR);
	assert_int_equal(flush_judge(52, 416, 0), FLUSH_UNCLEAR);
}

/* A probe of n cold blocks, the first slow of them taking slow_ms and
 * the rest fast_ms, against warm_ms a block just freed (32 of them). */
static void judge(struct mem_return *r, unsigned n, unsigned slow,
		  double slow_ms, double fast_ms, double warm_ms)
{
	memset(r, 0, sizeof(*r));
	r->probed = true;
	r->nblocks = n;
	for (unsigned i = 0; i < n; i++)
		r->block_ns[i] = (i < slow ? slow_ms : fast_ms) * 1e6;
	r->warm.bytes = 32 * MEMPROBE_HUGE;
	r->warm.ns = (uint64_t)(32 * warm_ms * 1e6);
	quirks_judge_memory(r);
}

static void test_judge_memory(void **state)
{
	struct mem_return r;

	(void)state;
	/* the KVM guest: 23 of 32 blocks handed back at 5.1 ms, a block
	 * just freed 0.13 ms: 2.55 s per GiB more */
	judge(&r, 32, 23, 5.1, 0.13, 0.13);
	assert_true(r.costly);
	assert_int_equal(r.returned, 23);
	assert_true(r.extra_s_per_gib > 2.5 && r.extra_s_per_gib < 2.6);
	/* memory still the guest's: all alike */
	judge(&r, 32, 0, 0.2, 0.14, 0.13);
	assert_false(r.costly);
	assert_int_equal(r.returned, 0);
	assert_true(r.extra_s_per_gib == 0);
	/* one slow block: a hiccup, not the host */
	judge(&r, 32, 1, 6, 0.13, 0.13);
	assert_int_equal(r.returned, 1);
	assert_false(r.costly);
	/* three times as slow but not 0.1 ms more: too small to name */
	judge(&r, 32, 10, 0.09, 0.03, 0.03);
	assert_int_equal(r.returned, 0);
	/* no probe, no verdict */
	judge(&r, 32, 23, 5.1, 0.13, 0.13);
	r.probed = false;
	quirks_judge_memory(&r);
	assert_false(r.costly);
	assert_int_equal(r.returned, 0);
}

static void test_judge_device(void **state)
{
	(void)state;
	/* a rotational virtio disk answering in 45 us: the host's cache */
	assert_true(quirks_judge_device("vda", 1, 45));
	assert_false(quirks_judge_device("sda", 1, 6000));
	/* flash at flash speed; below 10 us it is memory */
	assert_false(quirks_judge_device("nvme0n1", 0, 80));
	assert_true(quirks_judge_device("vdb", 0, 5));
	/* memory by kind, or a file of this system: nothing hidden */
	assert_false(quirks_judge_device("zram0", 0, 3));
	assert_false(quirks_judge_device("ram0", 1, 3));
	assert_false(quirks_judge_device("loop0", 1, 20));
	/* unknown kind, or no figure */
	assert_false(quirks_judge_device("vdc", -1, 5));
	assert_false(quirks_judge_device("vda", 1, 0));
}

static void read_root(const char *name, struct mem_return *r)
{
	char root[1024];

	fixture_path(name, root, sizeof(root));
	quirks_read_return(r, root);
}

static void test_read_return(void **state)
{
	struct mem_return r;

	(void)state;
	read_root("quirks/reporting", &r);
	assert_true(r.reporting);
	assert_int_equal(r.order, 9);
	assert_int_equal(r.balloon, 0);
	assert_string_equal(r.how, "virtio-balloon free page reporting, "
			    "free blocks of 2 MiB and more");

	read_root("quirks/balloon", &r);
	assert_false(r.reporting);
	assert_int_equal(r.balloon, 1ull << 30);
	assert_string_equal(r.how, "a virtio balloon (no free page "
			    "reporting)");

	read_root("quirks/counted", &r);
	assert_true(r.reporting);
	assert_int_equal(r.order, 10);
	assert_int_equal(r.reported, 3459352ull * 1024);
	assert_string_equal(r.how, "free page reporting, free blocks of 4 MiB "
			    "and more");

	read_root("quirks/none", &r);
	assert_false(r.reporting);
	assert_int_equal(r.order, 0);
	assert_string_equal(r.how, "");
}

static void test_read_thp(void **state)
{
	struct thp_mode t;
	char root[1024];

	(void)state;
	fixture_path("quirks/reporting", root, sizeof(root));
	quirks_read_thp(&t, root);
	assert_true(t.have);
	assert_string_equal(t.enabled, "madvise");
	assert_string_equal(t.defrag, "madvise");
	fixture_path("quirks/none", root, sizeof(root));
	quirks_read_thp(&t, root);
	assert_false(t.have);
}

/* This machine: whatever it is, a touch counts what it touched. */
static void test_touch(void **state)
{
	struct touch_cost c;
	void *keep = NULL;

	(void)state;
	assert_int_equal(memprobe_touch(3 << 20, false, &c, NULL), 0);
	assert_int_equal(c.bytes, 4 << 20);	/* whole 2 MiB blocks */
	assert_true(c.ns > 0);
	assert_int_equal(memprobe_touch(2 << 20, true, &c, &keep), 0);
	assert_non_null(keep);
	assert_int_equal(((volatile char *)keep)[4096], 1);
	memprobe_unmap(keep, 2 << 20);
}

static bool never(const double *ns, unsigned n, void *user)
{
	(void)ns;
	(void)n;
	(void)user;
	return false;
}

static bool after_two(const double *ns, unsigned n, void *user)
{
	(void)ns;
	(void)user;
	return n == 2;
}

/* Block by block: as many blocks as asked, each timed, or fewer when
 * told enough. */
static void test_touch_blocks(void **state)
{
	double ns[8] = { 0 };

	(void)state;
	assert_int_equal(memprobe_touch_blocks(8 << 20, 10000000000ull, ns,
					       never, NULL), 4);
	for (int i = 0; i < 4; i++)
		assert_true(ns[i] > 0);
	assert_int_equal(ns[4], 0);
	assert_int_equal(memprobe_touch_blocks(8 << 20, 10000000000ull, ns,
					       after_two, NULL), 2);
}

/* This machine: a line pushed out of every cache costs more to load than
 * one just stored to; a flush the probe calls "keeps" loads nearer the
 * cached time than the evicted one, and one it calls "evicts" nearer the
 * evicted. */
static void test_flush_probe(void **state)
{
	struct touch_cost c;
	struct flush_probe fp;
	void *walk = NULL;
	uint64_t len = 128ull << 20;

	(void)state;
	flush_probe(&fp, NULL, 0);
	assert_false(fp.ran);
	assert_true(fp.why[0] != '\0');
	assert_int_equal(memprobe_touch(len, true, &c, &walk), 0);
	flush_probe(&fp, walk, len);
	memprobe_unmap(walk, len);
	if (!fp.ran) {
		/* x86-64's time-stamp counter always times a load; arm64's
		 * generic timer may be too coarse (qemu-user's is) */
		assert_string_not_equal(ARCH_NAME, "x86-64");
		assert_true(fp.why[0] != '\0');
		print_message("skipped: flush probe: %s\n", fp.why);
		skip();
	}
	assert_true(fp.evicted > fp.cached);
	for (int k = FLUSH_NONE + 1; k < FLUSH_KINDS; k++) {
		double mid = (fp.cached + fp.evicted) / 2;

		if (fp.effect[k] == FLUSH_KEEPS)
			assert_true(fp.after[k] < mid);
		else if (fp.effect[k] == FLUSH_EVICTS)
			assert_true(fp.after[k] > mid);
		else if (!flush_cpu_has((enum flush_kind)k))
			assert_int_equal(fp.effect[k], FLUSH_NOT_PROBED);
		if (!flush_here((enum flush_kind)k))	/* another arch's */
			assert_int_equal(fp.effect[k], FLUSH_NOT_PROBED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flush_judge),
		cmocka_unit_test(test_judge_memory),
		cmocka_unit_test(test_judge_device),
		cmocka_unit_test(test_read_return),
		cmocka_unit_test(test_read_thp),
		cmocka_unit_test(test_touch),
		cmocka_unit_test(test_touch_blocks),
		cmocka_unit_test(test_flush_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
