/*
 * hist.c - the log-linear latency histogram (see hist.h).
 *
 * Values below HIST_SUB have a bucket each (group 0, exact).  A value v
 * whose highest set bit is b >= HIST_SUB_BITS lands in group
 * g = b - HIST_SUB_BITS + 1, in sub-bucket (v >> (g - 1)) - HIST_SUB: the
 * top HIST_SUB_BITS + 1 bits of v choose the bucket.  Group g starts at
 * HIST_SUB << (g - 1) and its buckets are 2^(g - 1) wide, so a bucket is
 * never wider than 1/HIST_SUB of the values in it, and its midpoint is
 * within 1/(2 * HIST_SUB) of each of them.  The last group (b = 63) ends
 * at UINT64_MAX: every 64-bit value has a bucket.
 */
#include <math.h>
#include <string.h>

#include "util/hist.h"

static unsigned hist_bucket(uint64_t v)
{
	unsigned g;

	if (v < HIST_SUB)
		return (unsigned)v;
	g = 63 - (unsigned)__builtin_clzll(v) - HIST_SUB_BITS + 1;
	return g * HIST_SUB + (unsigned)((v >> (g - 1)) - HIST_SUB);
}

/* The smallest value of bucket i and its width (values lo..lo+width-1). */
static void hist_bucket_range(unsigned i, uint64_t *lo, uint64_t *width)
{
	unsigned g = i / HIST_SUB, s = i % HIST_SUB;

	if (g == 0) {
		*lo = s;
		*width = 1;
		return;
	}
	*width = 1ULL << (g - 1);
	*lo = ((uint64_t)HIST_SUB + s) << (g - 1);
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_record(struct hist *h, uint64_t ns)
{
	h->buckets[hist_bucket(ns)]++;
	h->count++;
	/* A sum that would wrap stays at its ceiling: the mean of such
	 * values means nothing, but it must not look small. */
	if (__builtin_add_overflow(h->sum, ns, &h->sum))
		h->sum = UINT64_MAX;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	if (__builtin_add_overflow(into->sum, from->sum, &into->sum))
		into->sum = UINT64_MAX;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

/*
 * The nearest-rank percentile: the smallest recorded value that at least
 * p% of the values do not exceed, i.e. the value of rank ceil(p/100 * n).
 * The rank is computed with a little slack below, so that 99.9% of 1000
 * values is rank 999 even when p/100 * n comes out as 999.0000000001.
 */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;
	double x;

	if (!h->count || !(p > 0))
		return 0;
	if (p >= 100)
		return h->max;
	x = p / 100.0 * (double)h->count;
	rank = (uint64_t)ceil(x - x * 1e-12);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo, width, mid;

		seen += h->buckets[i];
		if (seen < rank)
			continue;
		hist_bucket_range(i, &lo, &width);
		mid = lo + width / 2;
		/* The true value lies in [min, max] as well. */
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

/* Clamped to [min, max]: a saturated sum would otherwise say less. */
double hist_mean(const struct hist *h)
{
	double m;

	if (!h->count)
		return 0.0;
	m = (double)h->sum / (double)h->count;
	if (m < (double)h->min)
		m = (double)h->min;
	if (m > (double)h->max)
		m = (double)h->max;
	return m;
}
