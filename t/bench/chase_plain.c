/*
 * chase_plain.c - the reference for t/bench/chase-vs-plain.sh: a dependent
 * pointer chase written the way one writes it by hand (lmbench's lat_mem_rd,
 * multichase), sharing no code with memjob.
 *
 *	chase_plain SIZE STRIDE LAYOUT ACCESSES SEED [thp]
 *
 * SIZE bytes of anonymous memory (MADV_NOHUGEPAGE, or with "thp" 2 MiB
 * aligned and MADV_HUGEPAGE, as memjob's hugepage=none|thp), every page
 * touched; one pointer every STRIDE bytes, linked into a single cycle:
 *
 *	random  all the slots in one random order
 *	page    the 4 KiB pages in random order, and the slots of each page
 *	        in random order before the next page (a "page" is 4096/STRIDE
 *	        consecutive slots: exact when STRIDE divides 4096)
 *
 * The order is a Fisher-Yates shuffle of the visit order from its own
 * xorshift generator seeded with SEED (not memjob's permutation, the same
 * kind).  An untimed warm-up of one cycle (or of ACCESSES loads if that is
 * less: over a region many times the LLC every load misses anyway), then
 * ACCESSES dependent loads timed with clock_gettime() on each side of the
 * loop, on the wall clock (CLOCK_MONOTONIC) and on the thread's CPU clock.
 * Prints
 *
 *	ns_per_access=X cpu_ns_per_access=Y slots=N
 *
 * X is the figure to compare; Y leaves out the time the thread was not
 * running (a diagnostic for busy machines).
 *
 * Exit status 0, or 1 with a message on bad arguments or no memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PAGE	4096UL
#define HUGE	(2UL << 20)

struct rng {
	uint64_t a, b;
};

/* xorshift128+ */
static uint64_t rng_next(struct rng *r)
{
	uint64_t x = r->a, y = r->b;

	r->a = y;
	x ^= x << 23;
	r->b = x ^ y ^ (x >> 17) ^ (y >> 26);
	return r->b + y;
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	r->a = seed ^ 0x6a09e667f3bcc909ULL;
	r->b = ~seed ^ 0xbb67ae8584caa73bULL;
	if (!r->a && !r->b)
		r->a = 1;
	for (i = 0; i < 16; i++)
		rng_next(r);
}

static void shuffle(size_t *v, size_t n, struct rng *r)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(rng_next(r) % i);
		size_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

static void *map_buffer(size_t size, int thp, void **map, size_t *maplen)
{
	size_t len = thp ? size + HUGE : size;
	char *p, *start;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = thp ? (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1)) : p;
	if (madvise(start, size, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) && thp) {
		fprintf(stderr, "chase_plain: madvise(MADV_HUGEPAGE): %s\n",
			strerror(errno));
		munmap(p, len);
		return NULL;
	}
	memset(start, 0, size);		/* fault every page in now */
	*map = p;
	*maplen = len;
	return start;
}

/* The visit order of the slots: all at random, or page by page. */
static size_t *visit_order(size_t n, size_t stride, int page, struct rng *r)
{
	size_t *order = malloc(n * sizeof(*order));
	size_t per = stride < PAGE ? PAGE / stride : 1;
	size_t npages = (n + per - 1) / per, *pages, i, k = 0;

	if (!order)
		return NULL;
	if (!page) {
		for (i = 0; i < n; i++)
			order[i] = i;
		shuffle(order, n, r);
		return order;
	}
	pages = malloc(npages * sizeof(*pages));
	if (!pages) {
		free(order);
		return NULL;
	}
	for (i = 0; i < npages; i++)
		pages[i] = i;
	shuffle(pages, npages, r);
	for (i = 0; i < npages; i++) {
		size_t first = pages[i] * per, m = n - first < per ? n - first : per;
		size_t j;

		for (j = 0; j < m; j++)
			order[k + j] = first + j;
		shuffle(order + k, m, r);
		k += m;
	}
	free(pages);
	return order;
}

static double now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t size, stride, accesses, seed, i;
	void *map = NULL, *volatile sink;
	size_t maplen = 0, n, *order;
	int page, thp;
	struct rng r;
	char *buf;
	void **p;
	double t0, t1, c0, c1;

	if (argc < 6 || argc > 7 || parse_u64(argv[1], &size) ||
	    parse_u64(argv[2], &stride) || parse_u64(argv[4], &accesses) ||
	    parse_u64(argv[5], &seed) ||
	    (strcmp(argv[3], "random") && strcmp(argv[3], "page")) ||
	    (argc == 7 && strcmp(argv[6], "thp"))) {
		fprintf(stderr, "usage: chase_plain SIZE STRIDE random|page ACCESSES SEED [thp]\n");
		return 1;
	}
	if (stride < sizeof(void *) || stride % sizeof(void *) ||
	    size / stride < 2 || accesses == 0) {
		fprintf(stderr, "chase_plain: need stride >= 8, a multiple of 8, size/stride >= 2, accesses >= 1\n");
		return 1;
	}
	page = !strcmp(argv[3], "page");
	thp = argc == 7;
	n = (size_t)(size / stride);

	buf = map_buffer((size_t)size, thp, &map, &maplen);
	if (!buf) {
		fprintf(stderr, "chase_plain: cannot map %" PRIu64 " bytes\n", size);
		return 1;
	}
	rng_seed(&r, seed);
	order = visit_order(n, (size_t)stride, page, &r);
	if (!order) {
		fprintf(stderr, "chase_plain: out of memory\n");
		munmap(map, maplen);
		return 1;
	}
	for (i = 0; i < n; i++)
		*(void **)(buf + order[i] * stride) =
			buf + order[(i + 1) % n] * stride;
	free(order);

	p = (void **)buf;
	for (i = 0; i < n && i < accesses; i++)	/* warm-up */
		p = (void **)*p;

	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < accesses; i++)
		p = (void **)*p;
	t1 = now_ns(CLOCK_MONOTONIC);
	c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	sink = p;
	(void)sink;

	printf("ns_per_access=%.3f cpu_ns_per_access=%.3f slots=%zu\n",
	       (t1 - t0) / (double)accesses, (c1 - c0) / (double)accesses, n);
	munmap(map, maplen);
	return 0;
}
