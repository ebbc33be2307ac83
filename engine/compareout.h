/*
 * compareout.h - a comparison (compare.h) as an aligned table for people
 * and as a CSV for programs.
 *
 * Both give one line per point and run, the baseline run first within a
 * point.  The CSV's header is
 *
 *	run,metric_name,rows,left_out,median,min,max,baseline,change_pct,
 *	verdict, then the key columns by their names in the input
 *
 * (a contract, documented in memjob(1), REPORTS); numbers are written
 * with as few digits as give back the same double, change_pct with 4
 * decimals as slowdown_pct is.
 */
#ifndef MEMJOB_COMPAREOUT_H
#define MEMJOB_COMPAREOUT_H

#include <stdio.h>

#include "compare.h"

extern const char *const cmp_csv_columns[];

/* 0, or -1 when out of memory (nothing is printed then). */
int cmp_print_normal(FILE *f, const struct cmp *c);
void cmp_print_csv(FILE *f, const struct cmp *c);

#endif
