/*
 * stats.c - median, min and max of repeated measurements, their median
 * absolute deviation, and the warm-up rule (stats.h).  The median of an
 * even count is the mean of the two middle values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat_summary stat_summarise(double *v, size_t n)
{
	struct stat_summary s = { 0 };

	if (!n)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	s.n = n;
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

double stat_mad(double *v, size_t n, double m)
{
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - m);
	return stat_summarise(v, n).median;
}

struct warmup stat_warmup(const double *cost, size_t n)
{
	struct warmup w = { 0 };
	struct stat_summary s;
	double *o, limit;

	if (n < 3 || !(o = malloc((n - 1) * sizeof(*o))))
		return w;
	memcpy(o, cost + 1, (n - 1) * sizeof(*o));
	s = stat_summarise(o, n - 1);
	if (s.median > 0) {
		limit = fmax(STAT_WARMUP_K * STAT_MAD_SCALE *
			     stat_mad(o, n - 1, s.median),
			     STAT_WARMUP_FLOOR * s.median);
		w.judged = true;
		w.first = cost[0];
		w.others_median = s.median;
		w.excess_pct = (cost[0] / s.median - 1) * 100;
		w.outlier = cost[0] > s.max && cost[0] - s.median > limit;
	}
	free(o);
	return w;
}
