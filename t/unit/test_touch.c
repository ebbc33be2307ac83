/*
 * test_touch.c - kernel=touch: run() makes one access every touch_stride
 * bytes of the block, from its start, and counts them; a store writes
 * the byte 0 there and nowhere else; loads add up exactly the bytes at
 * those offsets (the sum the report leaves out, kept so the loads cannot
 * be dropped); a one-block pass under 16384 accesses is walked several
 * times, a block smaller than the job's size once; validate() refuses
 * what cannot work.  The kernel's option struct is private to its file:
 * the test writes its fields at the offsets of the group's own table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
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

static const struct kernel_ops *touch(void)
{
	const struct kernel_ops *k = kernel_find("touch");

	assert_non_null(k);
	return k;
}

/* The field of the kernel's own option called name in data. */
static void *field(void *data, const char *name)
{
	const struct opt_group *g = touch()->opts;

	for (size_t i = 0; i < g->nopts; i++)
		if (strcmp(g->opts[i].name, name) == 0)
			return (char *)data + g->opts[i].off;
	fail_msg("kernel=touch has no option %s", name);
	return NULL;
}

/* One job at a time is alive in these tests. */
static _Alignas(16) unsigned char touch_opts[256];
static struct jobopts jobopts;

/* op: 0 store, 1 load (the order of touch_op's words). */
static struct job_spec make_job(uint64_t stride, int op, uint64_t bs,
				uint64_t size, const char *ioengine,
				enum rw_mode rw)
{
	struct job_spec job = {
		.name = "t", .where = { "t.ini", 4 }, .rw = rw,
		.bs = bs, .size = size,
		.kernel = kernel_find("touch"),
		.ioengine = ioengine_find(ioengine),
	};
	uint64_t *s;
	int *o;

	assert_true(touch()->opts->size <= sizeof(touch_opts));
	memset(touch_opts, 0, sizeof(touch_opts));
	s = field(touch_opts, "touch_stride");
	o = field(touch_opts, "touch_op");
	*s = stride;
	*o = op;
	jobopts_attach(&job, &jobopts, touch()->opts, touch_opts);
	return job;
}

static void init(struct kstate *k, const struct job_spec *job)
{
	memset(k, 0, sizeof(*k));
	k->job = job;
	assert_int_equal(touch()->init(k), 0);
}

static void test_registered(void **state)
{
	const struct kernel_ops *k = touch();

	(void)state;
	assert_int_equal(k->flags, KERN_STORES | KERN_ITEMS | KERN_NO_GBPS);
	assert_string_equal(k->item_name, "access");
	assert_null(k->result_name);
	assert_false(k->store_default);
	assert_string_equal(k->opts->name, "touch");
	assert_int_equal(k->opts->nopts, 2);
	assert_string_equal(k->opts->opts[0].def, "64");
	assert_string_equal(k->opts->opts[1].def, "store");
}

/* Stores: 0 at every stride from the block's start, the rest untouched,
 * for strides that divide the block and one that does not. */
static void test_store(void **state)
{
	static const size_t strides[] = { 1, 8, 64, 100, 4096 };
	enum { LEN = 65536 };
	unsigned char *buf = malloc(LEN);

	(void)state;
	assert_non_null(buf);
	for (size_t s = 0; s < sizeof(strides) / sizeof(strides[0]); s++) {
		struct job_spec job = make_job(strides[s], 0, LEN, 1 << 20,
					       "mem", RW_WRITE);
		struct kstate k;
		size_t want = (LEN + strides[s] - 1) / strides[s];

		init(&k, &job);
		memset(buf, 0xee, LEN);
		touch()->run(&k, buf, LEN);
		for (size_t i = 0; i < LEN; i++)
			if (buf[i] != (i % strides[s] ? 0xee : 0))
				fail_msg("stride %zu: byte %zu is %#x",
					 strides[s], i, buf[i]);
		assert_int_equal(k.items, want);
		assert_int_equal(k.result, 0);
		touch()->fini(&k);
	}
	free(buf);
}

/* Loads: the sum of exactly the bytes at the stride offsets; the data
 * stays as it was; the sum and the count go on from call to call. */
static void test_load(void **state)
{
	enum { LEN = 65536 };
	unsigned char *buf = malloc(LEN), *copy = malloc(LEN);
	struct job_spec job = make_job(64, 1, LEN, 1 << 20, "mem", RW_READ);
	struct kstate k;
	uint64_t want = 0;

	(void)state;
	assert_non_null(buf);
	assert_non_null(copy);
	for (size_t i = 0; i < LEN; i++)
		buf[i] = (unsigned char)(i * 7 + i / 64);
	for (size_t i = 0; i < LEN; i += 64)
		want += buf[i];
	memcpy(copy, buf, LEN);
	init(&k, &job);
	touch()->run(&k, buf, LEN);
	assert_int_equal(k.result, want);
	assert_int_equal(k.items, LEN / 64);
	assert_memory_equal(buf, copy, LEN);
	touch()->run(&k, buf, 100);		/* a short block: 0 and 64 */
	assert_int_equal(k.result, want + buf[0] + buf[64]);
	assert_int_equal(k.items, LEN / 64 + 2);
	touch()->fini(&k);
	free(copy);
	free(buf);
}

/* A block that is the job's whole working set and holds fewer than 16384
 * accesses is walked ceil(16384 / n) times; one smaller than the working
 * set, or with enough accesses, once. */
static void test_repeats(void **state)
{
	unsigned char *buf = malloc(1 << 20);
	struct kstate k;

	(void)state;
	assert_non_null(buf);
	memset(buf, 7, 1 << 20);
	{
		struct job_spec job = make_job(64, 1, 1 << 30, 4096, "mem",
					       RW_READ);

		init(&k, &job);
		touch()->run(&k, buf, 4096);	/* 64 accesses, 256 times */
		assert_int_equal(k.items, 16384);
		assert_int_equal(k.result, 7 * 16384);
		touch()->fini(&k);
	}
	{
		struct job_spec job = make_job(3000, 1, 8000, 8000, "mem",
					       RW_READ);

		init(&k, &job);
		touch()->run(&k, buf, 8000);	/* 3 accesses, 5462 times */
		assert_int_equal(k.items, 3 * 5462);
		touch()->fini(&k);
	}
	{
		struct job_spec job = make_job(64, 1, 4096, 1 << 20, "mem",
					       RW_READ);

		init(&k, &job);
		touch()->run(&k, buf, 4096);	/* one block of several */
		assert_int_equal(k.items, 64);
		assert_int_equal(k.result, 7 * 64);
		touch()->fini(&k);
	}
	{
		struct job_spec job = make_job(64, 1, 1 << 30, 1 << 20, "mem",
					       RW_READ);

		init(&k, &job);
		touch()->run(&k, buf, 1 << 20);	/* 16384: enough */
		assert_int_equal(k.items, 16384);
		touch()->fini(&k);
	}
	free(buf);
}

static unsigned validate(const struct job_spec *job, char *msg, size_t len)
{
	return kernel_validate_msg(touch(), job, msg, len);
}

static void test_validate(void **state)
{
	struct job_spec job;
	char msg[512];

	(void)state;
	job = make_job(64, 0, 16384, 1 << 20, "mem", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	job = make_job(64, 0, 1 << 30, 4096, "mem", RW_WRITE);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	/* bs need not be a multiple when a pass is one block */
	job = make_job(3000, 1, 8000, 8000, "mem", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);

	job = make_job(8192, 0, 4096, 1 << 20, "mem", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "touch_stride=8192 is larger than the block (bs=4096)"));
	job = make_job(8192, 0, 1 << 30, 4096, "mem", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "larger than the block (size=4096)"));
	job = make_job(64, 0, 4000, 1 << 20, "mem", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "got bs=4000 touch_stride=64"));
	job = make_job(64, 1, 16384, 1 << 20, "mem", RW_WRITE);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "touch_op=load stores nothing"));
	job = make_job(64, 0, 16384, 1 << 20, "mmap", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "maps a read job's file read-only"));
	/* what a mapping allows: loads from a read, stores into a write;
	 * psync's buffer takes either */
	job = make_job(64, 1, 16384, 1 << 20, "mmap", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	job = make_job(64, 0, 16384, 1 << 20, "mmap", RW_WRITE);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	job = make_job(64, 1, 16384, 1 << 20, "psync", RW_WRITE);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
	job = make_job(64, 0, 16384, 1 << 20, "psync", RW_READ);
	assert_int_equal(validate(&job, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_validate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
