/*
 * pingpong_plain.c - the reference for t/bench/c2c-vs-plain.sh: a
 * cache-line ping-pong between two CPUs written the way one writes it by
 * hand (the c2c tests of multichase and of the core-to-core latency
 * tools), sharing no code with memjob.
 *
 *	pingpong_plain CPU_A CPU_B MILLISECONDS [nopause]
 *
 * Two threads, pinned to CPU_A and CPU_B, share one 64-byte line alone on
 * a 128-byte block.  It holds a counter: the thread on CPU_A writes it
 * when it is even, the other when it is odd, each writing the counter plus
 * one, and each spins on a load of it until its turn (with the CPU's spin
 * hint, pause or yield, unless "nopause").  Both start at a barrier; the
 * thread on CPU_A runs MILLISECONDS, then writes an end mark that stops
 * the other.  Timed with clock_gettime(CLOCK_MONOTONIC) around its loop.
 * Prints
 *
 *	ns_per_handoff=X handoffs=N
 *
 * X is the elapsed time over the handoffs (writes of the counter, by
 * either thread): the one-way time.  Exit status 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define END	UINT64_MAX

static _Alignas(128) _Atomic uint64_t counter;
static char after[128 - sizeof(uint64_t)] __attribute__((used));
static pthread_barrier_t start;
static int use_pause = 1;

struct side {
	int cpu;
	uint64_t first;		/* 0 or 1: the parity of its turns */
	uint64_t ms;		/* the timing side's run; 0 for the other */
	uint64_t ns, moves;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void spin_hint(void)
{
	if (!use_pause)
		return;
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static void *play(void *arg)
{
	struct side *s = arg;
	cpu_set_t set;
	uint64_t turn = s->first, t0, end = 0, v = 0;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "pingpong_plain: cannot pin to CPU %d\n",
			s->cpu);
		exit(1);
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	if (s->ms)
		end = t0 + s->ms * 1000000u;
	for (;;) {
		while ((v = atomic_load_explicit(&counter,
						  memory_order_acquire)) != turn) {
			if (v == END)
				goto out;
			spin_hint();
		}
		/* the timing side looks at the clock every 1024 moves */
		if (s->ms && turn % 1024 == 0 && now_ns() >= end) {
			atomic_store_explicit(&counter, END,
					      memory_order_release);
			break;
		}
		atomic_store_explicit(&counter, turn + 1,
				      memory_order_release);
		turn += 2;
	}
out:
	s->ns = now_ns() - t0;
	s->moves = v == END ? turn - 1 : turn;
	return NULL;
}

int main(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	pthread_t ta, tb;

	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "nopause"))) {
		fprintf(stderr, "usage: pingpong_plain CPU_A CPU_B "
			"MILLISECONDS [nopause]\n");
		return 1;
	}
	use_pause = argc < 5;
	a.cpu = atoi(argv[1]);
	b.cpu = atoi(argv[2]);
	a.ms = strtoull(argv[3], NULL, 10);
	a.first = 0;
	b.first = 1;
	if (!a.ms) {
		fprintf(stderr, "pingpong_plain: MILLISECONDS must be > 0\n");
		return 1;
	}
	pthread_barrier_init(&start, NULL, 2);
	if (pthread_create(&ta, NULL, play, &a) ||
	    pthread_create(&tb, NULL, play, &b)) {
		fprintf(stderr, "pingpong_plain: cannot start the threads\n");
		return 1;
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (!a.moves) {
		fprintf(stderr, "pingpong_plain: no handoff in %llu ms\n",
			(unsigned long long)a.ms);
		return 1;
	}
	printf("ns_per_handoff=%.3f handoffs=%llu\n",
	       (double)a.ns / (double)a.moves, (unsigned long long)a.moves);
	return 0;
}
