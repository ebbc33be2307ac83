/*
 * ctrtable.h - the counters' table of an experiment (see ctrtable.c).
 */
#ifndef MEMJOB_CTRTABLE_H
#define MEMJOB_CTRTABLE_H

#include <stdio.h>

#include "run/result.h"

/* For each job that named its events: their medians per point, or why
 * its counter columns are absent. */
void counters_table(FILE *f, const struct results *r);

#endif
