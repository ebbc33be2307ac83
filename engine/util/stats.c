/*
 * stats.c - median, min and max of repeated measurements.  The median of
 * an even count is the mean of the two middle values.
 */
#include <stdlib.h>

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
