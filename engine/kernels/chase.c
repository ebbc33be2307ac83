/*
 * kernel_chase.c - "chase": a dependent pointer chase, the load-to-use
 * latency of each level of the memory hierarchy in ns per access (what
 * Intel MLC's idle latency and multichase measure, and seed 000's
 * working-set sweep).
 *
 * prepare() turns the data source's whole region into one cycle of
 * pointers, one every stride bytes (a "slot"), each holding the absolute
 * address of the next slot to visit.  run() then follows them: every load
 * needs the value of the one before, so no two can overlap and the time
 * per step is the latency of wherever the line lives.  The hardware
 * prefetchers see no pattern in a random cycle, so they cannot help.
 *
 *   random  one random cycle over all the slots of the region: nearly
 *           every step lands on another page, so TLB misses are part of
 *           the figure once the region outgrows the TLB's reach.
 *   page    the 4 KiB pages in a random cyclic order and, within each
 *           page, its slots in a random order, leaving a page only after
 *           all of its slots (multichase's local layout): one TLB miss per
 *           page at most.  But a page visited whole is what the
 *           prefetchers that fetch a page's other lines wait for, and past
 *           the L1 they help: on a Zen 5 guest, THP both ways, 256 KiB
 *           read 2.20 ns here against 3.24 in layout random, 4 MiB 4.75
 *           against 11.7, 64 MiB 47.5 against 139.  So this is latency
 *           with that help, not the caches' or memory's own; those are
 *           layout random on huge pages (on 4 KiB pages the TLB adds its
 *           misses: 142 ns at 64 MiB).
 *           Pages are 4 KiB groups of slots even on huge pages.
 *
 * The permutation comes from job->pattern_seed, so a job gives the same
 * chase every run; randrepeat=0 mixes the clock in, a new cycle each run.
 * Between the L1 and the last-level cache the figure depends on the
 * cycle drawn far more than on the run (64 KiB, page layout, on a Zen 5
 * guest: 2.27 to 2.61 ns over eight seeds, two runs of one seed within
 * 2%): a short cycle is one draw of how the prefetchers happen to do
 * on it, so a figure there is a median over seeds, not over runs.
 *
 * run() ignores the address of the block the engine hands it: the block
 * only sets how many steps to take (len / stride, at least one), so a
 * pass over the region in bs-sized blocks is one full cycle.  Each call
 * continues where the previous one stopped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ioengines/ioengine.h"
#include "util/clock.h"
#include "kernels/chase.h"
#include "kernels/kernel.h"

#define CHASE_PAGE_SIZE	4096
#define CHASE_MIN_STRIDE	8	/* a slot holds one pointer */
/* A page holds at most this many slots (stride >= 8). */
#define CHASE_PAGE_SLOTS	(CHASE_PAGE_SIZE / 8)

_Static_assert(sizeof(void *) <= CHASE_MIN_STRIDE, "a pointer must fit a slot");

/*
 * How many whole cycles a pass makes (mult).  The engine spends ~20-50 ns
 * per block between two calls of run() (get, put, the clock every MiB,
 * bookkeeping): nothing beside a chase in memory, but 5% of a 16 KiB L1
 * chase done in one 4 KiB block (64 steps of ~1.4 ns).  So a region
 * small enough is chased several whole cycles per pass: at least
 * CHASE_MIN steps a pass and CHASE_CALL_MIN a call, which keeps the
 * engine's share of an L1 chase near 0.1% whatever bs is; the steps a
 * call makes for its block stay a plain loop of dependent loads.  A
 * region large enough that CHASE_CALL_MIN would make its pass longer
 * than CHASE_PASS_MAX steps gets no more than that (its loads cost tens
 * of ns, so the engine's share is small already).
 */
#define CHASE_MIN	8192
#define CHASE_CALL_MIN	16384
#define CHASE_PASS_MAX	((size_t)1 << 22)

/* cur stays the first member: t/unit/test_chase.c reads it. */

struct chase {
	void **cur;			/* where the next run() goes on */
	size_t stride;
	size_t mult;			/* cycles per pass (see CHASE_MIN) */
};

/* splitmix64: small, fast, and good enough to shuffle with. */
static uint64_t chase_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the modulo bias is below n / 2^64). */
static size_t chase_below(uint64_t *s, size_t n)
{
	return (size_t)(chase_rand(s) % n);
}

static void **slot_at(char *base, size_t stride, size_t i)
{
	return (void **)(base + i * stride);
}

/*
 * Sattolo's algorithm, done in the region itself so that a region of
 * gigabytes needs no index array as large: every slot first holds its own
 * index; swapping each slot i with a random j < i leaves the mapping
 * i -> slot[i] a single cycle through all n slots; a last sequential pass
 * turns the indices into addresses.
 */
static void lay_random(char *base, size_t n, size_t stride, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		*slot_at(base, stride, i) = (void *)(uintptr_t)i;
	for (i = n - 1; i > 0; i--) {
		void **a = slot_at(base, stride, i);
		void **b = slot_at(base, stride, chase_below(&seed, i));
		void *t = *a;

		*a = *b;
		*b = t;
	}
	for (i = 0; i < n; i++) {
		void **s = slot_at(base, stride, i);

		*s = slot_at(base, stride, (size_t)(uintptr_t)*s);
	}
}

/*
 * The first slot at or after the start of page p of the region, where
 * page 0 is the page the region starts in (head bytes into it).
 */
static size_t page_first(size_t p, size_t head, size_t stride)
{
	if (p == 0)
		return 0;
	return (p * CHASE_PAGE_SIZE - head + stride - 1) / stride;
}

static void shuffle(size_t *a, size_t n, uint64_t *seed)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = chase_below(seed, i);
		size_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/*
 * Fisher-Yates over the pages, then over the slots of each page, gives
 * the order of the visit; linking each slot to the next in that order and
 * the last to the first closes the cycle.  Pages are those of the address
 * space, so a region that does not start on a page boundary has a short
 * first page; with stride > 4 KiB some pages have no slot at all.
 */
static int lay_page(char *base, size_t n, size_t stride, uint64_t seed)
{
	size_t head = (uintptr_t)base % CHASE_PAGE_SIZE;
	size_t npages = (head + (n - 1) * stride) / CHASE_PAGE_SIZE + 1;
	size_t in_page[CHASE_PAGE_SLOTS];
	void **first = NULL, **prev = NULL;
	size_t *order, p, i;

	order = malloc(npages * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (p = 0; p < npages; p++)
		order[p] = p;
	shuffle(order, npages, &seed);

	for (p = 0; p < npages; p++) {
		size_t lo = page_first(order[p], head, stride);
		size_t hi = page_first(order[p] + 1, head, stride);
		size_t m;

		if (hi > n)
			hi = n;
		m = hi > lo ? hi - lo : 0;
		for (i = 0; i < m; i++)
			in_page[i] = lo + i;
		shuffle(in_page, m, &seed);
		for (i = 0; i < m; i++) {
			void **s = slot_at(base, stride, in_page[i]);

			if (prev)
				*prev = s;
			else
				first = s;
			prev = s;
		}
	}
	free(order);
	if (!prev)			/* no slot (the caller has n >= 2) */
		return -EINVAL;
	*prev = first;
	return 0;
}

static const struct chase_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &kernel_chase_opts);
}

static int chase_validate(const struct job_spec *job, struct diag *d)
{
	const struct chase_opts *o = opts_of(job);
	int ret = 0;

	if (o->stride < CHASE_MIN_STRIDE || o->stride % CHASE_MIN_STRIDE) {
		diag_error(d, job_loc(job, "stride"), "stride",
			   "kernel=chase lays a pointer every stride bytes; stride must be a multiple of %d, got %llu",
			   CHASE_MIN_STRIDE, (unsigned long long)o->stride);
		ret = -EINVAL;
	} else if (job->size && job->size / o->stride < 2) {
		diag_error(d, job_loc(job, "stride"), "stride",
			   "kernel=chase needs at least 2 pointers, so size/stride must be at least 2; got size=%llu stride=%llu",
			   (unsigned long long)job->size,
			   (unsigned long long)o->stride);
		ret = -EINVAL;
	}
	/* prepare() overwrites the region with pointers */
	if (kernel_check_own_memory(job, d, "its pointers"))
		ret = -EINVAL;
	return ret;
}

static int chase_init(struct kstate *k)
{
	const struct chase_opts *o = k->job ? opts_of(k->job) : NULL;
	struct chase *c;

	if (!o || o->stride < CHASE_MIN_STRIDE ||
	    o->stride % CHASE_MIN_STRIDE || o->stride > SIZE_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->stride = (size_t)o->stride;
	k->priv = c;
	k->priv_len = sizeof(*c);
	k->items = 0;
	return 0;
}

size_t chase_cycles_per_pass(size_t slots, uint64_t per_block)
{
	size_t mult = (CHASE_MIN + slots - 1) / slots;
	size_t call, most;

	if (per_block == 0)
		per_block = 1;
	call = per_block >= CHASE_CALL_MIN ? 1 :
	       (size_t)((CHASE_CALL_MIN + per_block - 1) / per_block);
	if (call <= mult)
		return mult;
	most = CHASE_PASS_MAX / slots;
	if (most < mult)
		most = mult;
	return call < most ? call : most;
}

/*
 * floor(len / stride) slots from the first 8-byte boundary of the region
 * (a mapping always starts on one); the chase starts at slot 0.
 */
static int chase_prepare(struct kstate *k, void *region, size_t len)
{
	struct chase *c = k->priv;
	size_t skip = (size_t)(-(uintptr_t)region % CHASE_MIN_STRIDE);
	uint64_t seed;
	char *base;
	size_t n;

	if (!c || !region || len < skip)
		return -EINVAL;
	base = (char *)region + skip;
	n = (len - skip) / c->stride;
	if (n < 2)
		return -EINVAL;
	seed = k->job->pattern_seed ^ (k->job->randrepeat ? 0 : mono_ns());
	if (opts_of(k->job)->chase_layout == CHASE_PAGE) {
		int ret = lay_page(base, n, c->stride, seed);

		if (ret)
			return ret;
	} else {
		lay_random(base, n, c->stride, seed);
	}
	c->cur = (void **)base;
	c->mult = chase_cycles_per_pass(n, k->job->bs / c->stride);
	return 0;
}

/*
 * The hot loop: one chain (each load's address is the previous load's
 * value), so neither the compiler nor the CPU can overlap two steps, and
 * nothing else in it: the clock is read by the engine between blocks,
 * and the steps of a block are counted before and added after.  The end
 * of the chain goes back into the state, so the loads cannot be dropped.
 *
 * It is unrolled to CHASE_UNROLL distinct load instructions, and that is
 * for the prefetchers more than for the loop counter: the L1 prefetchers
 * of current cores keep their history per load instruction, and with
 * chase_layout=page the shape of the loop moves the figure.  Against
 * multichase (whose loop is 200 loads), layout page, 6 rounds twice on
 * the EPYC guest this was measured on (t/bench/chase-vs-plain.sh,
 * memjob / multichase at 64 KiB, 256 KiB, 1 MiB, 64 MiB):
 *	 8 loads  0.94  0.98-0.99  0.93-0.96  0.88-0.90
 *	32 loads  0.96-1.00  0.99-1.00  0.99-1.03  0.89-0.91
 *	64 loads  1.00  1.08-1.12  1.13-1.16  0.93-0.98
 * 32 is the closest over the caches (with 8, each load instruction
 * touched 8 lines of every page); none closes the gap at 64 MiB, and
 * 128, 200 and 256 loads were further off over the caches (1.02-1.22
 * from 64 KiB to 1 MiB); 33 loads, so that no one load instruction
 * opens every page, read as 32 do (0.86 at 64 MiB, 0.99 at 256 KiB).
 * The 128-256 load rows had a flaw: the steps short of a whole turn (184
 * a call at 200) ran in a one-load loop after it, which alone made a
 * 200-load loop 7% slower at 256 KiB (a plain program: 2.32 against
 * 2.16 ns).  Measured again with the rest carried to the next call and
 * a cycle drawn per round (SEEDS=rotate), 200 loads read 0.95, 0.99,
 * 1.04, 1.01 at 64 KiB, 256 KiB, 1 MiB, 4 MiB and 0.94, 0.93 at 32 and
 * 64 MiB; 32 loads in the same hour 1.02, 1.02, 1.05, 1.00 and 0.88,
 * 0.89.  Closer in memory, further at 64 KiB, within 5% of multichase
 * at every size with neither; 32 stays (it needs no carry).
 * The random layout, where no two steps in a row share a page, is at
 * parity with any of them.  objdump -d chase_run: 32 "mov (%rcx),%rcx"
 * in a row, a sub and a jne.
 */
#define CHASE_UNROLL	32

#define STEP1	p = (void **)*p;
#define STEP8	STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1 STEP1
#define STEP32	STEP8 STEP8 STEP8 STEP8

_Static_assert(CHASE_UNROLL == 32, "the loop body below is STEP32");

static void chase_run(struct kstate *k, void *buf, size_t len)
{
	struct chase *c = k->priv;
	void **p = c->cur;
	size_t n = len / c->stride, i;

	(void)buf;
	n += !n;
	n *= c->mult;
	if (!p)				/* prepare() never ran */
		return;
	for (i = n / CHASE_UNROLL; i; i--) {
		STEP32
	}
	for (i = n % CHASE_UNROLL; i; i--)
		STEP1
	c->cur = p;
	k->items += n;
}

static const char *const layout_words[] = { "random", "page", NULL };

#define F(field)	offsetof(struct chase_opts, field)

/* Listed among the kernels' options in the order they always were. */
static const struct opt_def chase_opt_table[] = {
	{ .name = "stride", .type = OPT_SIZE, .cat = CAT_KERNEL,
	  .off = F(stride), .def = "64", .min = 8, .max = 1ULL << 30,
	  .arg = "SIZE", .after = "command",
	  .help = "kernel=chase: bytes between the pointers of the chase "
		  "(one pointer per cache line by default)." },
	{ .name = "chase_layout", .type = OPT_ENUM, .cat = CAT_KERNEL,
	  .off = F(chase_layout), .def = "random", .words = layout_words,
	  .arg = "random|page", .after = "batch",
	  .help = "kernel=chase: random visits the pointers in one random "
		  "cycle over the whole buffer (TLB misses included, few on "
		  "huge pages): the latency; page "
		  "visits the pages in random order and the pointers of each "
		  "page in random order before leaving it, so TLB misses "
		  "stay out (as multichase's -T 4096 does), but the "
		  "prefetchers that fetch a page's other lines come in: past "
		  "the L1 its figure is well below the latency (random on huge "
		  "pages gives that)." },
};

const struct opt_group kernel_chase_opts =
	OPT_GROUP("chase", chase_opt_table, struct chase_opts);

const struct kernel_ops kernel_chase_ops = {
	.opts = &kernel_chase_opts,
	.name = "chase",
	.help = "dependent pointer chase over the region (stride, chase_layout): "
		"ns per access; a small region is chased several whole cycles "
		"per pass, so that the engine's work between blocks stays "
		"negligible.  In layout random it is prefetch-proof: each "
		"load's address is the value the load before it read, in an "
		"order no stride predicts, so no hardware prefetcher can fetch "
		"ahead and its ns per access is the latency, with the "
		"prefetchers on (no MSR is touched); on huge pages (hugepage=thp "
		"or 2m) TLB misses stay out of it too.  In layout page it is "
		"not: the prefetchers that fetch the rest of a page once a few "
		"of its lines missed do, because the chase stays in a page until "
		"it has read every line (on a Zen 5 guest, THP: 4.75 ns at 4 MiB "
		"against 11.7 in layout random, 47.5 against 139 at 64 MiB), as "
		"in multichase's page-local chase.  Kernels that stream in "
		"address order (sum, count, copy, fill, triad, rwmix, touch) "
		"are helped by the prefetchers, as the loaded-latency table "
		"says where a victim's aggressors stream.  "
		"The cycle comes from pattern_seed (randrepeat=0: a new one "
		"each run).  Between the L1 and the last-level cache the "
		"figure depends on the cycle drawn more than on the run (on "
		"a Zen 5 guest, 64 KiB in layout page: 2.27 to 2.61 ns over "
		"eight seeds, one seed's runs within 2%): there, compare "
		"medians over seeds",
	.item_name = "access",
	.flags = KERN_REGION | KERN_ITEMS | KERN_NO_GBPS,
	.validate = chase_validate,
	.init = chase_init,
	.prepare = chase_prepare,
	.run = chase_run,
	.fini = kernel_fini_free,
};
