/*
 * test_pingpong.c - kernel=pingpong: two clones on one shared line make
 * exactly alternating moves and count the same handoffs; clone 0 ends the
 * game at runtime=, clone 1 reads the end; a stop (a signal, the last
 * victim done) ends both; a side left alone gives up after its patience
 * instead of spinning for ever; validate() asks for two split clones and
 * a runtime.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "kernels/kernel.h"
#include "kernel_validate.h"
#include "util/clock.h"

static const struct kernel_ops *pingpong(void)
{
	const struct kernel_ops *k = kernel_find("pingpong");

	assert_non_null(k);
	assert_non_null(k->program);
	assert_true(k->flags & KERN_PROGRAM);
	assert_true(k->flags & KERN_ITEMS);
	assert_true(k->shared_len > 0 && k->shared_len <= KERN_SHARED_ALIGN);
	return k;
}

static struct job_spec make_job(uint64_t runtime_us)
{
	struct job_spec job = {
		.name = "pp", .where = { "t.ini", 3 }, .numjobs = 2,
		.cpus_policy = CPUS_SPLIT, .runtime_us = runtime_us,
		.kernel = kernel_find("pingpong"),
	};

	return job;
}

struct side {
	struct kstate k;
	struct program_run pr;
	int ret;
	uint64_t ns;
};

static void *play(void *arg)
{
	struct side *s = arg;
	uint64_t t0 = mono_ns();

	s->ret = pingpong()->program(&s->k, &s->pr);
	s->ns = mono_ns() - t0;
	return NULL;
}

static void set_side(struct side *s, const struct job_spec *job,
		     void *shared, unsigned clone, atomic_int *stop,
		     atomic_uint *until_zero)
{
	memset(s, 0, sizeof(*s));
	s->k.job = job;
	s->k.clone = clone;
	s->k.shared = shared;
	s->pr.stop = stop;
	s->pr.until_zero = until_zero;
	assert_int_equal(pingpong()->init(&s->k), 0);
}

/* Both clones for runtime: both count the same, even, number of moves,
 * and the line holds the end mark. */
static void test_game_to_runtime(void **state)
{
	struct job_spec job = make_job(50000);	/* 50 ms */
	void *shared = kernel_shared_alloc(pingpong()->shared_len);
	atomic_int stop = 0;
	struct side a, b;
	pthread_t ta, tb;

	(void)state;
	assert_non_null(shared);
	set_side(&a, &job, shared, 0, &stop, NULL);
	set_side(&b, &job, shared, 1, &stop, NULL);
	assert_int_equal(pthread_create(&tb, NULL, play, &b), 0);
	assert_int_equal(pthread_create(&ta, NULL, play, &a), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(a.ret, 0);
	assert_int_equal(b.ret, 0);
	assert_false(a.pr.stopped);
	assert_false(b.pr.stopped);
	/* clone 0 stops at its turn: an even count, the same on both */
	assert_true(a.k.items > 0);
	assert_int_equal(a.k.items % 2, 0);
	assert_int_equal(a.k.items, b.k.items);
	assert_true(a.ns >= 50000000ull);
	assert_int_equal(*(uint64_t *)shared, UINT64_MAX);
	free(shared);
}

/* A stop while both play: both end, stopped, without an error; the
 * counts agree within the one move in flight. */
struct stopper {
	atomic_int *stop;
	unsigned ms;
};

static void *stop_later(void *arg)
{
	struct stopper *s = arg;
	struct timespec ts = { 0, (long)s->ms * 1000000L };

	nanosleep(&ts, NULL);
	atomic_store(s->stop, 2);
	return NULL;
}

static void test_stop_ends_both(void **state)
{
	struct job_spec job = make_job(60ull * 1000000);	/* a minute */
	void *shared = kernel_shared_alloc(pingpong()->shared_len);
	atomic_int stop = 0;
	struct stopper st = { &stop, 30 };
	struct side a, b;
	pthread_t ta, tb, ts;

	(void)state;
	set_side(&a, &job, shared, 0, &stop, NULL);
	set_side(&b, &job, shared, 1, &stop, NULL);
	pthread_create(&ta, NULL, play, &a);
	pthread_create(&tb, NULL, play, &b);
	pthread_create(&ts, NULL, stop_later, &st);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_join(ts, NULL);
	assert_int_equal(a.ret, 0);
	assert_int_equal(b.ret, 0);
	assert_true(a.pr.stopped || b.pr.stopped);
	assert_true(a.ns < 10ull * 1000000000);
	assert_true(b.ns < 10ull * 1000000000);
	assert_true(a.k.items + 1 >= b.k.items && b.k.items + 1 >= a.k.items);
	free(shared);
}

/* An aggressor's game ends with the last victim (until_zero at 0). */
static void test_aggressor_ends_with_victims(void **state)
{
	struct job_spec job = make_job(0);
	void *shared = kernel_shared_alloc(pingpong()->shared_len);
	atomic_int stop = 0;
	atomic_uint victims = 0;	/* already done */
	struct side a, b;
	pthread_t ta, tb;

	(void)state;
	job.role = ROLE_AGGRESSOR;
	set_side(&a, &job, shared, 0, &stop, &victims);
	set_side(&b, &job, shared, 1, &stop, &victims);
	pthread_create(&ta, NULL, play, &a);
	pthread_create(&tb, NULL, play, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(a.ret, 0);
	assert_int_equal(b.ret, 0);
	assert_true(a.pr.stopped || b.pr.stopped);
	free(shared);
}

/* Clone 1 alone (clone 0 never came): it gives up with the reason,
 * after its patience, and marks the game over. */
static void test_alone_gives_up(void **state)
{
	struct job_spec job = make_job(100000);
	void *shared = kernel_shared_alloc(pingpong()->shared_len);
	atomic_int stop = 0;
	struct side b;

	(void)state;
	set_side(&b, &job, shared, 1, &stop, NULL);
	play(&b);
	assert_int_equal(b.ret, -1);
	assert_non_null(strstr(b.pr.err, "clone 1 waited"));
	assert_true(b.ns >= 2000000000ull && b.ns < 20000000000ull);
	assert_int_equal(b.k.items, 0);
	assert_int_equal(*(uint64_t *)shared, UINT64_MAX);
	free(shared);
}

static void test_init_needs_the_line(void **state)
{
	struct job_spec job = make_job(1000);
	struct kstate k = { .job = &job };

	(void)state;
	assert_int_equal(pingpong()->init(&k), -EINVAL);
}

static void test_validate(void **state)
{
	struct job_spec job = make_job(100000);
	char msg[1024];

	(void)state;
	assert_int_equal(kernel_validate_msg(pingpong(), &job, msg,
					     sizeof(msg)), 0);
	job.numjobs = 3;
	assert_int_equal(kernel_validate_msg(pingpong(), &job, msg,
					     sizeof(msg)), 1);
	assert_non_null(strstr(msg, "numjobs must be 2, got 3"));
	job = make_job(100000);
	job.cpus_policy = CPUS_SHARED;
	assert_int_equal(kernel_validate_msg(pingpong(), &job, msg,
					     sizeof(msg)), 1);
	assert_non_null(strstr(msg, "cpus_allowed_policy=split"));
	job = make_job(0);
	assert_int_equal(kernel_validate_msg(pingpong(), &job, msg,
					     sizeof(msg)), 1);
	assert_non_null(strstr(msg, "runtime"));
	job.role = ROLE_AGGRESSOR;	/* it plays as long as its victims */
	assert_int_equal(kernel_validate_msg(pingpong(), &job, msg,
					     sizeof(msg)), 0);
}

static void test_shared_alloc(void **state)
{
	unsigned char *p = kernel_shared_alloc(100);

	(void)state;
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % KERN_SHARED_ALIGN, 0);
	for (unsigned i = 0; i < KERN_SHARED_ALIGN; i++)
		assert_int_equal(p[i], 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_to_runtime),
		cmocka_unit_test(test_stop_ends_both),
		cmocka_unit_test(test_aggressor_ends_with_victims),
		cmocka_unit_test(test_alone_gives_up),
		cmocka_unit_test(test_init_needs_the_line),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_shared_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
