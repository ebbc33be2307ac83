/*
 * interval.h - a 95% confidence interval for the shift between two
 * independent samples, and the slowdown and verdict built on it.
 *
 * The method is Hodges-Lehmann with its distribution-free interval: the
 * estimate of the shift is the median of all m * n differences y_j - x_i,
 * and the interval runs from the k-th smallest to the k-th largest of
 * them, k taken from the exact Mann-Whitney distribution (a normal
 * approximation beyond INTERVAL_EXACT_MAX values a side).  If y is x
 * shifted, the interval holds the shift with probability at least 95%
 * whatever the distribution: no normality, no bootstrap resampling, and
 * the same answer every time.  Discreteness makes the achieved level a
 * little above 95% (95.7% for 10 and 10); it is reported.  With fewer
 * than 4 values a side no 95% interval of this kind exists, and none is
 * made up.
 *
 * A slowdown is a shift of log(cost): cost is the metric itself when
 * lower is better and its inverse for throughputs, so an interval on the
 * log scale is one on the ratio, and slowdown % = 100 * (e^shift - 1).
 */
#ifndef MEMJOB_INTERVAL_H
#define MEMJOB_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>

#define INTERVAL_LEVEL		0.95
/* A slowdown interval's est, lo and hi are figures (util/row.h): rounded
 * once, to this many decimals of a percent, and printed from there by
 * every output, so the verdict words and the CSV's bounds always agree. */
#define INTERVAL_DECIMALS	4
#define INTERVAL_EXACT_MAX	50	/* values a side for the exact law */

enum interval_status {
	INTERVAL_OK,
	INTERVAL_TOO_FEW,	/* no 95% interval with so few values */
	INTERVAL_BAD,		/* a value <= 0 (no log), or out of memory */
};

struct interval {
	enum interval_status status;
	double est;		/* Hodges-Lehmann estimate */
	double lo, hi;		/* the interval, lo <= est <= hi */
	double level;		/* achieved confidence, >= INTERVAL_LEVEL */
	unsigned need;		/* TOO_FEW: values a side that would do */
};

/* The interval's rank k for m and n values (1-based: the k-th smallest
 * and k-th largest difference bound it), 0 when no interval reaches
 * INTERVAL_LEVEL; *level gets the achieved confidence. */
unsigned interval_rank(size_t m, size_t n, double *level);
/* Smallest count per side (equal sides) for which an interval exists. */
unsigned interval_min_repeats(void);

/* The interval of one sample's median: the k-th smallest to the k-th
 * largest of the n values, k the largest rank with P(B < k) <= 2.5% for
 * B ~ Binomial(n, 1/2), which holds the median of any continuous
 * distribution with probability >= 95% (the sign test's interval).  est
 * is the sample's median; TOO_FEW below 6 values (5 reach only 93.75%).
 * sorted must be in ascending order. */
struct interval interval_median(const double *sorted, size_t n);
/* Smallest count of values for which interval_median gives one: 6. */
unsigned interval_median_min(void);

/* The shift of y over x (y - x). */
struct interval interval_shift(const double *x, size_t m, const double *y,
			       size_t n);
/* The slowdown in % of loaded over alone, the metric's values (> 0);
 * lower_is_better as in interference.h; est, lo and hi rounded to
 * INTERVAL_DECIMALS. */
struct interval interval_slowdown(const double *alone, size_t m,
				  const double *loaded, size_t n,
				  bool lower_is_better);
/* Decimals to print the interval with: 2 for small effects, and for a
 * bound so near 0 that 1 would hide its sign; else 1. */
int interval_decimals(const struct interval *iv);
/* For people: "slower by 5.4% (95% CI 3.9..6.8%)", "faster by ...",
 * "no effect found: smaller than +-1.2% at 95%", "too few repeats for an
 * interval (need repeat=4)".  what is the word for an effect ("slower")
 * and its opposite ("faster"); none says what nothing found is ("no effect
 * found"). */
void interval_verdict(const struct interval *iv, const char *worse,
		      const char *better, const char *none, char *buf,
		      size_t len);

#endif
