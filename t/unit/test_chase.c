/*
 * test_chase.c - kernel=chase: prepare() lays one single cycle through
 * every slot of the region (both layouts, many sizes and strides, the
 * 2-slot minimum, lengths that are not a multiple of the stride), the
 * page layout finishes each 4 KiB page before it leaves it, the seed
 * fixes the permutation, run() counts its steps and goes on along the
 * chain from call to call, and validate() refuses what cannot work.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "jobopts.h"
#include "kernel_validate.h"
#include "kernels/chase.h"

#define PAGE	4096

static const struct kernel_ops *chase(void)
{
	const struct kernel_ops *k = kernel_find("chase");

	assert_non_null(k);
	return k;
}

/* The job's chase options: one job at a time is alive in these tests. */
static struct chase_opts chase_opts;
static struct jobopts jobopts;

/* randrepeat of the jobs make_job() makes: 0 draws a new cycle each run */
static bool repeat = true;

static struct job_spec make_job(uint64_t stride, enum chase_layout layout,
				uint64_t seed)
{
	struct job_spec job = {
		.name = "c", .where = { "t.ini", 4 }, .rw = RW_READ,
		.bs = 4096, .size = 1 << 20, .pattern_seed = seed,
		.randrepeat = repeat,
		.kernel = kernel_find("chase"),
		.ioengine = ioengine_find("mem"),
	};

	chase_opts = (struct chase_opts){ .stride = stride,
					  .chase_layout = layout };
	jobopts_attach(&job, &jobopts, &kernel_chase_opts, &chase_opts);
	return job;
}

/* A kstate after init() and prepare() over [region, region + len). */
static void setup(struct kstate *k, const struct job_spec *job, void *region,
		  size_t len)
{
	memset(k, 0, sizeof(*k));
	k->job = job;
	assert_int_equal(chase()->init(k), 0);
	assert_int_equal(chase()->prepare(k, region, len), 0);
}

/* Page-aligned memory with room for an offset start; 0xee everywhere. */
static void *region_alloc(size_t len)
{
	size_t n = (len + 2 * PAGE) / PAGE * PAGE;
	void *p = aligned_alloc(PAGE, n);

	assert_non_null(p);
	memset(p, 0xee, n);
	return p;
}

/*
 * The kernel keeps its position as the first member of its private
 * state (kernel_chase.c says so); the test reads it to follow the chain.
 */
static void *chase_pos(const struct kstate *k)
{
	void *p;

	memcpy(&p, k->priv, sizeof(p));
	return p;
}

/* The pointer stored at p: the next slot of the chase. */
static void *next_of(const void *p)
{
	void *next;

	memcpy(&next, p, sizeof(next));
	return next;
}

/*
 * Follow the chain from base for n steps.  Every step must land on a
 * slot of the region not yet visited, and step n must be back at base.
 * seq (if not NULL) gets the slot index of every step.
 */
static void walk_cycle(char *base, size_t len, size_t stride, size_t n,
		       size_t *seq)
{
	unsigned char *seen = calloc(n, 1);
	char *p = base;
	size_t i;

	assert_non_null(seen);
	for (i = 0; i < n; i++) {
		size_t off, slot;

		assert_true(p >= base && p < base + len);
		off = (size_t)(p - base);
		assert_int_equal(off % stride, 0);
		slot = off / stride;
		assert_true(slot < n);
		assert_int_equal(seen[slot], 0);
		seen[slot] = 1;
		if (seq)
			seq[i] = slot;
		p = next_of(p);
	}
	assert_ptr_equal(p, base);
	free(seen);
}

/* How many steps of the cycle (seq of n slots, closed) change page. */
static size_t page_changes(const char *base, const size_t *seq, size_t n,
			   size_t stride)
{
	size_t changes = 0, i;

	for (i = 0; i < n; i++) {
		uintptr_t a = (uintptr_t)(base + seq[i] * stride) / PAGE;
		uintptr_t b = (uintptr_t)(base + seq[(i + 1) % n] * stride) / PAGE;

		changes += a != b;
	}
	return changes;
}

/* How many distinct pages hold a slot. */
static size_t pages_used(const char *base, size_t n, size_t stride)
{
	uintptr_t first = (uintptr_t)base / PAGE;
	uintptr_t last = (uintptr_t)(base + (n - 1) * stride) / PAGE;

	if (stride <= PAGE)
		return (size_t)(last - first + 1);
	return n;		/* at most one slot per page */
}

/*
 * prepare() writes the first 8 bytes of each of the n slots and nothing
 * else: not the rest of a slot, not past the last one, not around the
 * region (region_alloc() leaves a page of 0xee after it).
 */
static void check_untouched(const char *mem, size_t head, size_t len, size_t n,
			    size_t stride)
{
	size_t i;

	for (i = 0; i < head + len + PAGE; i++) {
		size_t off = i - head;

		if (i >= head && off < n * stride && off % stride < 8)
			continue;
		if ((unsigned char)mem[i] != 0xee)
			fail_msg("byte %zu of the region (head %zu, len %zu, stride %zu) changed",
				 off, head, len, stride);
	}
}

/*
 * Lay the chase in a region at byte 'head' of a page, of len bytes, and
 * check it: one cycle over all floor(len / stride) slots; for the page
 * layout, exactly one run of steps per page used (so each page's slots
 * are visited back to back, the cycle entering and leaving it once).
 */
static void check_layout(enum chase_layout layout, size_t head, size_t len,
			 size_t stride)
{
	struct job_spec job = make_job(stride, layout, 42);
	char *mem = region_alloc(head + len);
	char *base = mem + head;
	size_t n = len / stride, pages, changes;
	size_t *seq = calloc(n, sizeof(*seq));
	struct kstate k;

	assert_non_null(seq);
	setup(&k, &job, base, len);
	assert_ptr_equal(chase_pos(&k), base);
	walk_cycle(base, len, stride, n, seq);
	check_untouched(mem, head, len, n, stride);

	pages = pages_used(base, n, stride);
	changes = page_changes(base, seq, n, stride);
	if (layout == CHASE_PAGE)
		assert_int_equal(changes, pages > 1 ? pages : 0);
	else if (pages >= 16 && n >= 64)
		/* one random cycle: nearly every step changes page */
		assert_true(changes > n / 2);
	chase()->fini(&k);
	assert_null(k.priv);
	free(seq);
	free(mem);
}

static void test_cycle_random(void **state)
{
	static const size_t strides[] = { 8, 16, 24, 64, 256, 4096, 8192 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(strides) / sizeof(strides[0]); i++) {
		size_t s = strides[i];

		check_layout(CHASE_RANDOM, 0, 2 * s, s);	/* the minimum */
		check_layout(CHASE_RANDOM, 0, 3 * s - 8, s);	/* 2, not 3 */
		check_layout(CHASE_RANDOM, 0, 64 * PAGE, s);
		check_layout(CHASE_RANDOM, 0, 64 * PAGE + 40, s);
		check_layout(CHASE_RANDOM, 0, 1 << 20, s);
	}
}

static void test_cycle_page(void **state)
{
	static const size_t strides[] = { 8, 24, 64, 192, 256, 4096, 8192 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(strides) / sizeof(strides[0]); i++) {
		size_t s = strides[i];

		check_layout(CHASE_PAGE, 0, 2 * s, s);
		check_layout(CHASE_PAGE, 0, 3 * s - 8, s);
		check_layout(CHASE_PAGE, 0, PAGE, s < PAGE ? s : 8);
		check_layout(CHASE_PAGE, 0, 64 * PAGE, s);
		check_layout(CHASE_PAGE, 0, 64 * PAGE + 40, s);
		check_layout(CHASE_PAGE, 0, 1 << 20, s);
		/* a region that starts inside a page: a short first page */
		check_layout(CHASE_PAGE, PAGE - 72, 16 * PAGE, s);
		check_layout(CHASE_PAGE, 8, 16 * PAGE + 8, s);
	}
}

/*
 * The page layout, step by step: from its first step on the page, the
 * chase takes (slots in the page) steps before it leaves it.  Both orders
 * are shuffled: the next page is rarely the page after, and within a page
 * the next slot is rarely the slot after (which a prefetcher would catch).
 */
static void test_page_runs(void **state)
{
	const size_t stride = 64, per_page = PAGE / stride;
	const size_t len = 256 * PAGE, n = len / stride;
	size_t next_page = 0, next_slot = 0;
	struct job_spec job = make_job(stride, CHASE_PAGE, 7);
	char *base = region_alloc(len);
	size_t *seq = calloc(n, sizeof(*seq));
	size_t i, start;
	struct kstate k;

	(void)state;
	assert_non_null(seq);
	setup(&k, &job, base, len);
	walk_cycle(base, len, stride, n, seq);
	/* rotate to the first step that enters a new page */
	for (start = 0; start < n; start++)
		if (seq[start] / per_page != seq[(start + n - 1) % n] / per_page)
			break;
	assert_true(start < n);
	for (i = 0; i < n; i++) {
		size_t page = seq[(start + i) % n] / per_page;
		size_t run_page = seq[(start + i / per_page * per_page) % n] / per_page;

		assert_int_equal(page, run_page);
		if (i % per_page == per_page - 1)
			next_page += seq[(start + i + 1) % n] / per_page == page + 1;
		else
			next_slot += seq[(start + i + 1) % n] == seq[(start + i) % n] + 1;
	}
	/* about 1 and n / per_page expected; sorted orders give 255, 3840 */
	assert_true(next_page < 256 / 8);
	assert_true(next_slot < n / 8);
	chase()->fini(&k);
	free(seq);
	free(base);
}

/* The order of the visit, as slot indices, for one layout and seed. */
static void permutation(enum chase_layout layout, uint64_t seed, size_t len,
			size_t stride, size_t *seq)
{
	struct job_spec job = make_job(stride, layout, seed);
	char *base = region_alloc(len);
	struct kstate k;

	setup(&k, &job, base, len);
	walk_cycle(base, len, stride, len / stride, seq);
	chase()->fini(&k);
	free(base);
}

static void test_seed(void **state)
{
	const size_t len = 256 * 1024, stride = 64, n = len / stride;
	size_t *a = calloc(n, sizeof(*a));
	size_t *b = calloc(n, sizeof(*b));
	int layout;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (layout = CHASE_RANDOM; layout <= CHASE_PAGE; layout++) {
		permutation(layout, 1, len, stride, a);
		permutation(layout, 1, len, stride, b);
		assert_memory_equal(a, b, n * sizeof(*a));
		permutation(layout, 2, len, stride, b);
		assert_memory_not_equal(a, b, n * sizeof(*a));
	}
	/* the two layouts are different permutations */
	permutation(CHASE_RANDOM, 1, len, stride, a);
	permutation(CHASE_PAGE, 1, len, stride, b);
	assert_memory_not_equal(a, b, n * sizeof(*a));
	/* randrepeat=0: the same seed draws a new cycle each run */
	repeat = false;
	for (layout = CHASE_RANDOM; layout <= CHASE_PAGE; layout++) {
		permutation(layout, 1, len, stride, a);
		permutation(layout, 1, len, stride, b);
		assert_memory_not_equal(a, b, n * sizeof(*a));
	}
	repeat = true;
	free(a);
	free(b);
}

/*
 * Small regions are chased whole extra cycles per pass: at least 8192
 * steps a pass and 16384 a call, unless that makes a pass longer than
 * 2^22 steps; a large region is chased once a pass.
 */
static void test_cycles_per_pass(void **state)
{
	(void)state;
	assert_int_equal(chase_cycles_per_pass(256, 256), 64);	/* 16k, bs=16k */
	assert_int_equal(chase_cycles_per_pass(256, 64), 256);	/* 16k, bs=4k */
	assert_int_equal(chase_cycles_per_pass(4096, 4096), 4);	/* 256k */
	assert_int_equal(chase_cycles_per_pass(4096, 16384), 2);	/* 8192 */
	assert_int_equal(chase_cycles_per_pass(2, 0), 16384);
	assert_int_equal(chase_cycles_per_pass(3, 8), 2731);
	/* 8 MiB in 4 KiB blocks: held to 2^22 steps a pass */
	assert_int_equal(chase_cycles_per_pass(131072, 64), 32);
	assert_int_equal(chase_cycles_per_pass((size_t)1 << 24, 64), 1);
	assert_int_equal(chase_cycles_per_pass((size_t)1 << 24, 16384), 1);
}

/* Where n steps along the chain from p lead. */
static void *follow(void *p, size_t n)
{
	while (n--)
		p = next_of(p);
	return p;
}

static void test_run(void **state)
{
	static const size_t lens[] = { 640, 1000, 64, 10, 0, 7 * 64, 8 * 64,
				       9 * 64, 4096, 100000 };
	const size_t stride = 64, len = 64 * PAGE, n = len / stride;
	/* 4096 slots chased in blocks of 64 steps: 256 cycles a pass, so
	 * that a call makes 16384 steps (chase_cycles_per_pass) */
	const size_t mult = 256;
	struct job_spec job = make_job(stride, CHASE_RANDOM, 3);
	char *base = region_alloc(len);
	char block[16] = { 0 };
	uint64_t total = 0;
	struct kstate k;
	void *want = base;
	size_t i;

	(void)state;
	setup(&k, &job, base, len);
	assert_int_equal(k.items, 0);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t steps = ((lens[i] / stride) ? lens[i] / stride : 1) *
			       mult;

		/* the block's address does not matter, only its length */
		chase()->run(&k, i % 2 ? block : base, lens[i]);
		total += steps;
		want = follow(want, steps);
		assert_int_equal(k.items, total);
		assert_ptr_equal(chase_pos(&k), want);
	}
	/* a pass of whole blocks over the region is one full cycle */
	want = chase_pos(&k);
	for (i = 0; i < len / 4096; i++)
		chase()->run(&k, base + i * 4096, 4096);
	assert_int_equal(k.items, total + n * mult);
	assert_ptr_equal(chase_pos(&k), want);
	chase()->fini(&k);
	free(base);
}

/* The stride the job gives is the one init() and prepare() use. */
static void test_prepare_errors(void **state)
{
	struct job_spec job = make_job(64, CHASE_RANDOM, 1);
	char *base = region_alloc(PAGE);
	struct kstate k = { .job = &job };

	(void)state;
	assert_int_equal(chase()->init(&k), 0);
	assert_int_equal(chase()->prepare(&k, base, 127), -EINVAL);
	assert_int_equal(chase()->prepare(&k, base, 0), -EINVAL);
	assert_int_equal(chase()->prepare(&k, NULL, PAGE), -EINVAL);
	assert_int_equal(chase()->prepare(&k, base, 128), 0);
	walk_cycle(base, 128, 64, 2, NULL);
	chase()->fini(&k);

	chase_opts.stride = 12;
	memset(&k, 0, sizeof(k));
	k.job = &job;
	assert_int_equal(chase()->init(&k), -EINVAL);
	assert_null(k.priv);
	free(base);
}

/* A region that does not start on 8 bytes: the slots start on the next. */
static void test_unaligned_region(void **state)
{
	const size_t len = 16 * PAGE;
	struct job_spec job = make_job(64, CHASE_PAGE, 5);
	char *mem = region_alloc(len + 8);
	struct kstate k;

	(void)state;
	setup(&k, &job, mem + 3, len);
	assert_ptr_equal(chase_pos(&k), mem + 8);
	walk_cycle(mem + 8, len - 5, 64, (len - 5) / 64, NULL);
	chase()->fini(&k);
	free(mem);
}

/* ---- validate ------------------------------------------------------- */

static unsigned validate(const struct job_spec *job, char *msg, size_t len)
{
	return kernel_validate_msg(chase(), job, msg, len);
}

static void test_validate(void **state)
{
	struct job_spec job = make_job(64, CHASE_RANDOM, 1);
	char msg[512];

	(void)state;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	chase_opts.stride = 8;
	job.size = 16;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);

	chase_opts.stride = 12;
	job.size = 1 << 20;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:4: option 'stride': kernel=chase lays a pointer every stride bytes; stride must be a multiple of 8, got 12\n");
	chase_opts.stride = 4;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);

	chase_opts.stride = 64;
	job.size = 127;
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:4: option 'stride': kernel=chase needs at least 2 pointers, so size/stride must be at least 2; got size=127 stride=64\n");
	job.size = 0;			/* the file's size: known at run time */
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);

	job.size = 1 << 20;
	job.ioengine = ioengine_find("psync");
	assert_non_null(job.ioengine);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "t.ini:4: option 'kernel': kernel=chase needs a mapped data source (ioengine=mem): it writes its pointers into the job's memory, which ioengine=psync does not map\n");
	job.ioengine = ioengine_find("mmap");
	assert_non_null(job.ioengine);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "ioengine=mmap maps from a file"));

	chase_opts.stride = 20;		/* both at once */
	assert_int_equal(validate(&job, msg, sizeof(msg)), 2);
}

static void test_registered(void **state)
{
	const struct kernel_ops *k = chase();

	(void)state;
	assert_string_equal(k->name, "chase");
	assert_int_equal(k->flags, KERN_REGION | KERN_ITEMS | KERN_NO_GBPS);
	assert_string_equal(k->item_name, "access");
	assert_null(k->impls);
	assert_non_null(k->prepare);
	assert_non_null(k->validate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_cycle_random),
		cmocka_unit_test(test_cycle_page),
		cmocka_unit_test(test_page_runs),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_cycles_per_pass),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_prepare_errors),
		cmocka_unit_test(test_unaligned_region),
		cmocka_unit_test(test_validate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
