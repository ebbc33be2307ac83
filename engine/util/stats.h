/*
 * stats.h - summaries of repeated measurements: median, min, max; the
 * median absolute deviation; and whether a series' first run stands out
 * from the rest as a warm-up.
 */
#ifndef MEMJOB_STATS_H
#define MEMJOB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stat_summary {
	double median, min, max;
	size_t n;
};

/* Sorts v in place. n == 0 gives all zeros. */
struct stat_summary stat_summarise(double *v, size_t n);

/* 1.4826 x MAD estimates a standard deviation for normal noise. */
#define STAT_MAD_SCALE		1.4826

/* The median of |v[i] - m| over v[0..n) (0 when n is 0); overwrites v. */
double stat_mad(double *v, size_t n, double m);

/*
 * The warm-up rule: the first of n costs (a time, or any figure where more
 * is worse), in the order they were measured, stands out when it is worse
 * than every other and worse than the others' median m by more than
 *
 *	max(STAT_WARMUP_K x 1.4826 x MAD, STAT_WARMUP_FLOOR x m)
 *
 * (MAD over the others, about m): beyond the others' own spread, and by
 * more than a few percent where they agree closely.  Judged with two
 * others or more (n >= 3) and m > 0.
 */
#define STAT_WARMUP_K		3.0
#define STAT_WARMUP_FLOOR	0.05

struct warmup {
	bool judged;			/* n >= 3 and m > 0 */
	bool outlier;
	double first, others_median;
	double excess_pct;		/* (first / others_median - 1) x 100 */
};

struct warmup stat_warmup(const double *cost, size_t n);

#endif
