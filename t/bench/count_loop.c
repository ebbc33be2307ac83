/*
 * count_loop.c - the reference for t/bench/count-vs-loop.sh: seed 003's
 * "unrolled loop" over data already in RAM, as a hand-written program,
 * and the same kind of plain loop for memjob's other streaming kernels.
 *
 *	count_loop SIZE_BYTES LOOPS [KERNEL [BS]]
 *
 * KERNEL is count (the default), sum, fill, copy or triad.  Allocates
 * SIZE_BYTES (page aligned, every page touched), fills it with
 * pseudo-random integers 0..20 from its own xorshift generator, runs one
 * untimed warm-up pass and then LOOPS timed passes of the kernel:
 *
 *	count  the seed's unrolled loop: sixteen branch-free counters of 10s
 *	sum    the int32s added up, sign-extended, into 64 bits
 *	fill   10 stored into every int32
 *	copy   each BS-byte block (default 1 MiB) copied into one private
 *	       buffer of BS bytes, as memjob's kernel=copy does
 *	triad  STREAM's a = b + 3c over three arrays of SIZE_BYTES / 24
 *	       doubles each (24 bytes per element, as memjob counts)
 *
 * and prints
 *
 *	count=N gbps=X cpu_gbps=Y
 *
 * where N is the count (count), the sum (sum) or 0, X is SIZE_BYTES *
 * LOOPS / seconds / 1e9 on the wall clock, and Y the same on the thread's
 * CPU clock (which leaves out the time another process held the CPU: a
 * diagnostic for busy machines).  It deliberately shares no code with memjob: it
 * is the yardstick memjob's kernels are measured against, built with
 * -O3 -march=native as a user's own loop would be.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VALUE	10

static double clock_sec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

/* xorshift64: random ints 0..20, the same data on every run. */
static void fill_random(int32_t *p, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (int32_t)((x >> 32) % 21);
	}
}

/*
 * The seed's loop: sixteen independent counters, no branches, so that the
 * compiler vectorises it.  One change: the seed's counters are 64 bits
 * wide, which makes the compiler widen every compare result, and on the
 * machine this was written on that loop ran at 8.2 GB/s over 512 MiB in
 * RAM where 32-bit counters reach 10+.  A yardstick slower than what it
 * measures proves nothing, so the counters here are 32 bits, folded into
 * the 64-bit total every FOLD elements, long before one could wrap.
 */
#define FOLD	((size_t)1 << 20)

static uint64_t count_unrolled(const int32_t *data, size_t n)
{
	const int32_t *__restrict p = __builtin_assume_aligned(data, 4096);
	uint64_t total = 0;
	size_t i = 0;

	while (n - i >= 16) {
		size_t end = n - i > FOLD ? i + FOLD : i + (n - i) / 16 * 16;
		uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0,
			 c7 = 0, c8 = 0, c9 = 0, c10 = 0, c11 = 0, c12 = 0,
			 c13 = 0, c14 = 0, c15 = 0;

		for (; i < end; i += 16) {
			c0 += (unsigned)(p[i + 0] == VALUE);
			c1 += (unsigned)(p[i + 1] == VALUE);
			c2 += (unsigned)(p[i + 2] == VALUE);
			c3 += (unsigned)(p[i + 3] == VALUE);
			c4 += (unsigned)(p[i + 4] == VALUE);
			c5 += (unsigned)(p[i + 5] == VALUE);
			c6 += (unsigned)(p[i + 6] == VALUE);
			c7 += (unsigned)(p[i + 7] == VALUE);
			c8 += (unsigned)(p[i + 8] == VALUE);
			c9 += (unsigned)(p[i + 9] == VALUE);
			c10 += (unsigned)(p[i + 10] == VALUE);
			c11 += (unsigned)(p[i + 11] == VALUE);
			c12 += (unsigned)(p[i + 12] == VALUE);
			c13 += (unsigned)(p[i + 13] == VALUE);
			c14 += (unsigned)(p[i + 14] == VALUE);
			c15 += (unsigned)(p[i + 15] == VALUE);
		}
		total += (uint64_t)c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 +
			 c9 + c10 + c11 + c12 + c13 + c14 + c15;
	}
	for (; i < n; i++)
		total += (unsigned)(p[i] == VALUE);
	return total;
}

static uint64_t sum_plain(const int32_t *p, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += (uint64_t)(int64_t)p[i];
	return s;
}

static void fill_plain(int32_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = VALUE;
}

static void copy_plain(char *__restrict dst, const char *__restrict src,
		       size_t size, size_t bs)
{
	size_t off, i;

	for (off = 0; off < size; off += bs) {
		size_t len = size - off < bs ? size - off : bs;

		for (i = 0; i < len; i++)
			dst[i] = src[off + i];
	}
}

static void triad_plain(double *__restrict a, const double *__restrict b,
			const double *__restrict c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = b[i] + 3.0 * c[i];
}

enum kernel { K_COUNT, K_SUM, K_FILL, K_COPY, K_TRIAD };

/* One pass of kernel k; its result (count, sum) or 0. */
static uint64_t pass(enum kernel k, int32_t *data, size_t size, char *priv,
		     size_t bs)
{
	size_t n = size / sizeof(*data), e = size / 24;
	double *a = (double *)(void *)data;

	/* The data "may have changed": keeps the compiler from computing
	 * one pass for all of them. */
	__asm__ volatile("" : : "r"(data) : "memory");
	switch (k) {
	case K_COUNT:
		return count_unrolled(data, n);
	case K_SUM:
		return sum_plain(data, n);
	case K_FILL:
		fill_plain(data, n);
		return 0;
	case K_COPY:
		copy_plain(priv, (const char *)data, size, bs);
		return 0;
	case K_TRIAD:
		triad_plain(a, a + e, a + 2 * e, e);
		return 0;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "count", "sum", "fill", "copy",
					     "triad" };
	uint64_t size, loops, bs = 1 << 20, count = 0, l;
	enum kernel k = K_COUNT;
	char *priv = NULL;
	int32_t *data;
	size_t n, i;
	double t, cpu;

	if (argc >= 4) {
		for (i = 0; i < 5 && strcmp(argv[3], names[i]); i++)
			;
		k = (enum kernel)i;
	}
	if (argc < 3 || argc > 5 || parse_u64(argv[1], &size) ||
	    parse_u64(argv[2], &loops) || size < 24 || loops == 0 ||
	    (argc >= 4 && k > K_TRIAD) ||
	    (argc == 5 && (parse_u64(argv[4], &bs) || bs == 0))) {
		fprintf(stderr, "usage: count_loop SIZE_BYTES LOOPS [count|sum|fill|copy|triad [BS]]\n");
		return 2;
	}
	data = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
	if (k == K_COPY)
		priv = aligned_alloc(64, (bs + 63) / 64 * 64);
	if (!data || (k == K_COPY && !priv)) {
		fprintf(stderr, "count_loop: cannot allocate %" PRIu64 " bytes\n", size);
		return 1;
	}
	n = size / sizeof(*data);
	fill_random(data, n);
	if (k == K_TRIAD)
		for (i = 0; i < size / 24; i++) {
			((double *)(void *)data)[i] = 0.0;
			((double *)(void *)data)[size / 24 + i] = 2.0;
			((double *)(void *)data)[2 * (size / 24) + i] = 1.0;
		}
	if (priv)
		memset(priv, 0, bs);

	count = pass(k, data, size, priv, bs);	/* warm-up, untimed */
	t = clock_sec(CLOCK_MONOTONIC);
	cpu = clock_sec(CLOCK_THREAD_CPUTIME_ID);
	for (l = 0; l < loops; l++) {
		uint64_t c = pass(k, data, size, priv, bs);

		if (c != count) {
			fprintf(stderr, "count_loop: pass %" PRIu64 " gave %" PRIu64
				", expected %" PRIu64 "\n", l, c, count);
			free(data);
			return 1;
		}
	}
	cpu = clock_sec(CLOCK_THREAD_CPUTIME_ID) - cpu;
	t = clock_sec(CLOCK_MONOTONIC) - t;
	printf("count=%" PRIu64 " gbps=%.3f cpu_gbps=%.3f\n", count,
	       (double)size * (double)loops / t / 1e9,
	       (double)size * (double)loops / cpu / 1e9);
	free(priv);
	free(data);
	return 0;
}
