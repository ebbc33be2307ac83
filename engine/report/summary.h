/*
 * summary.h - the normal report's answer, for a person reading one
 * screen: per job the median of what it measured over its runs, the 95%
 * interval of that median, the range and the number of runs; what each
 * job cost where the run read or wrote files (the page-cache phases);
 * the totals of groups of several jobs; and the counters the machine
 * could not count, said once for the whole run.  The runs one by one
 * are report.c's details (--verbose, --details=).
 */
#ifndef MEMJOB_SUMMARY_H
#define MEMJOB_SUMMARY_H

#include <stdio.h>

#include "run/result.h"

/* Jobs whose points are more than this many get one table (values of
 * their last swept option down, the other points across), not a line
 * each. */
#define SUMMARY_LIST_MAX	16

/* "counters not counted here (why): cycles instructions ...", a line
 * per reason, for the events that no run could count. */
void summary_counters_missing(FILE *f, const struct results *r);
/* The results table (a table per series of many points), then the
 * costs table and the group totals. */
void summary_report(FILE *f, const struct results *r);
/* costs.c: per job of a run that read or wrote files, medians over its
 * runs of its CPU time and faults and of the system's page-cache and
 * disk traffic (victims and aggressors are the interference table's). */
void summary_costs(FILE *f, const struct results *r);
/* costs.c: each group of 2+ jobs that measure a rate, its summed GB/s
 * over the runs: median, 95% interval, range, N. */
void summary_groups(FILE *f, const struct results *r);

#endif
