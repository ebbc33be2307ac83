/*
 * series.h - what a job's series of runs says beyond its figures: the
 * order the runs had against the other jobs' (repeat_order, plan.h), and
 * whether its first run stood out as a warm-up (the rule in stats.h).
 */
#ifndef MEMJOB_SERIES_H
#define MEMJOB_SERIES_H

#include <stdio.h>

#include "run/result.h"
#include "util/stats.h"

/* "interleaved" (job idx's runs took turns with other segments', round
 * by round) or "grouped" (all its repeats back to back). */
const char *series_order(const struct results *r, unsigned idx);

/* The warm-up rule on job idx's runs in the order they ran, its metric
 * as a cost (the metric where lower is better, its inverse for a rate):
 * judged when its first run and at least two others are OK. */
struct warmup series_warmup(const struct results *r, unsigned idx);

/* The run's line on the order of its repeats, e.g. "repeats:
 * interleaved, round by round: batch-1, batch-8 (3 rounds)"; nothing
 * when no job runs more than once. */
void series_order_line(FILE *f, const struct results *r);

#endif
