/*
 * compareout.h - a comparison (compare.h) as an aligned table for people,
 * and as rows (row.h) for programs: CSV, and the JSON document of
 * reportcmd_json.h.
 *
 * Both give one line per point and run, the baseline run first within a
 * point.  The CSV's header is
 *
 *	run,metric_name,rows,left_out,median,min,max,baseline,change_pct,
 *	verdict,fleet_median,fleet_mad,deviation_pct,outlier, then the key
 *	columns by their names in the input (the fleet's four are empty
 *	unless fleet_judge ran: --by), then change_ci_lo_pct,
 *	change_ci_hi_pct,ci_level_pct,finding (the change's interval)
 *
 * (a contract, documented in memjob(1), REPORTS); numbers are written
 * with as few digits as give back the same double, change_pct with 4
 * decimals as slowdown_pct is.
 */
#ifndef MEMJOB_COMPAREOUT_H
#define MEMJOB_COMPAREOUT_H

#include <stdio.h>

#include "subcommands/compare.h"
#include "util/row.h"

/* 0, or -1 when out of memory (nothing is printed then). */
int cmp_print_normal(FILE *f, const struct cmp *c);

/* The CSV's rows: one per point and run; arg is the struct cmp. */
void cmp_rows(struct row_emitter *e, const void *arg);
/* The cells of run j at point p: the CSV's first fourteen columns. */
void cmp_cells(struct row_emitter *e, const struct cmp *c,
	       const struct cmp_point *p, unsigned j);
/* The interval of run j's change at point p: the CSV's last four
 * columns. */
void cmp_interval_cells(struct row_emitter *e, const struct cmp_point *p,
			unsigned j);
/* Point p's key: a cell per key column. */
void cmp_key_cells(struct row_emitter *e, const struct cmp *c,
		   const struct cmp_point *p);

/* The run printed i-th: the baseline, then the others as seen. */
unsigned cmp_run_at(const struct cmp *c, unsigned i);
/* The metric of point p: the baseline's, else the first run's that has
 * one ("mixed" when its rows have several, "" when none has a value). */
const char *cmp_point_metric(const struct cmp *c, const struct cmp_point *p);

#endif
