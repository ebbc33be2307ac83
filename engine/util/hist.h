/*
 * hist.h - a log-linear latency histogram.
 *
 * Values (nanoseconds) are binned by their power of two and, within it,
 * into HIST_SUB linear sub-buckets, so every bucket's width is at most
 * 1/HIST_SUB of its value: a percentile read from the histogram is within
 * 1/HIST_SUB (under 1%) of the true value.  Recording is a few integer
 * instructions and no allocation; histograms of several threads merge by
 * adding their counts.
 */
#ifndef MEMJOB_HIST_H
#define MEMJOB_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	7			/* 128 sub-buckets */
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_GROUPS	(64 - HIST_SUB_BITS + 1)
#define HIST_BUCKETS	(HIST_GROUPS * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max, sum;
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_record(struct hist *h, uint64_t ns);
void hist_merge(struct hist *into, const struct hist *from);
/* The value at percentile p (0 < p <= 100); 0 when empty.  Returns the
 * midpoint of the bucket that holds it (max for p = 100). */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);

#endif
