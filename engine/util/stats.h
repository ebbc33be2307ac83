/*
 * stats.h - summaries of repeated measurements: median, min, max.
 */
#ifndef MEMJOB_STATS_H
#define MEMJOB_STATS_H

#include <stddef.h>

struct stat_summary {
	double median, min, max;
	size_t n;
};

/* Sorts v in place. n == 0 gives all zeros. */
struct stat_summary stat_summarise(double *v, size_t n);

#endif
