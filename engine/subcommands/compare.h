/*
 * compare.h - what memjob report compares: the rows of result CSVs
 * grouped into points and runs, a metric summarised per point and run,
 * and every run set against a baseline run.
 *
 * A point is one value of the key columns (by default job, phase and
 * every sweep_* column); a run is one input file, or one value of the
 * column runs are told apart by (--by=host for a fleet's merged CSV).
 * The rows of a point and run (its repeats) give the median, min and max
 * of the metric: by default each row's own (its metric column, named by
 * metric_name), else the column asked for.  Rows whose status is not ok,
 * or without a value, are left out and counted.
 *
 * The change is (median - baseline's median) / baseline's median x 100,
 * signed as the metric moved, and has a 95% confidence interval (the
 * ratio's, interval.h) when both runs have 4 or more values.  The verdict
 * says whether the change is better or worse, and calls it within spread
 * when the interval holds 0 ("no change detected"), or, with too few
 * values for an interval, when the two runs' min..max ranges overlap: so
 * one noisy repeat does not read as a regression.
 */
#ifndef MEMJOB_COMPARE_H
#define MEMJOB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "subcommands/csvtable.h"
#include "util/interval.h"
#include "util/stats.h"

enum cmp_verdict {
	CMP_BASELINE,		/* this run is the baseline */
	CMP_MISSING,		/* this run has no value at this point */
	CMP_NO_BASELINE,	/* the baseline has none: nothing to set against */
	CMP_METRIC_DIFFERS,	/* not judged by the baseline's metric */
	CMP_WITHIN_SPREAD,	/* the min..max ranges overlap */
	CMP_BETTER,
	CMP_WORSE,
	CMP_HIGHER,		/* and which way is better is not known */
	CMP_LOWER,
};

/* Decimals of change_pct and deviation_pct: rounded to them once where
 * they are computed, the figure the table (with fewer), CSV and JSON all
 * print (one figure, one rounding: util/row.h). */
#define CMP_PCT_DECIMALS	4

/* "baseline", "missing", ..., as the CSV of the comparison writes them */
extern const char *const cmp_verdict_names[];

struct cmp_cell {
	double *v;		/* the values, while grouping */
	unsigned nv, cap;
	struct stat_summary s;	/* s.n == 0: no value */
	unsigned left_out;	/* rows not ok, or without a value */
	const char *metric;	/* the metric's name, NULL without a value */
	bool mixed;		/* rows judged by different metrics */
	bool has_change;	/* false: no change to give (see verdict) */
	double change_pct;
	/* of the change in %; status INTERVAL_BAD where there is none to
	 * give (no values, the baseline, a value <= 0) */
	struct interval ci;
	enum cmp_verdict verdict;
	/* set by fleet_judge (fleet.h) where the point was judged */
	bool has_deviation;
	double deviation_pct;	/* from the fleet's median, in % */
	bool outlier;		/* stands out by the MAD rule */
};

struct cmp_point {
	const char **key;	/* nkey values */
	struct cmp_cell *cell;	/* one per run (in cmp's cells) */
	/* the job_hash of its first row that has one, and whether another
	 * row's differs (its rows ran different jobs) */
	const char *job_hash;
	bool jobs_differ;
	/* set by fleet_judge: judged when FLEET_MIN_RUNS runs have a value */
	bool judged;
	unsigned fleet_runs;
	double fleet_median, fleet_mad;
};

/* One input: a table, and the run it is when runs are by file.  With
 * rows, its rows come from there, one at a time (t holds the header);
 * else from t. */
struct cmp_src {
	const struct csv_table *t;
	const char *run;
	struct csv_rows *rows;
};

struct cmp_opts {
	const char *const *key;	/* nkey columns; NULL: job, phase, sweep_* */
	unsigned nkey;
	const char *by;		/* a column, or NULL: the input */
	const char *metric;	/* a column, or NULL: each row's own */
};

/* The key's column names point into the tables' headers, which must
 * outlive the comparison; the rest is its own. */
struct cmp {
	const char **key;
	unsigned nkey;
	const char **run;	/* in the order first seen */
	unsigned *run_rows;	/* rows of each run */
	unsigned nruns;
	unsigned base;
	struct cmp_point *point;	/* in the order first seen */
	unsigned npoints;
	struct cmp_cell *cells;		/* npoints x nruns, by point */
	bool fleet;			/* fleet_judge ran (--by) */
	void *strings;			/* the names it keeps (a tsearch tree) */
};

/*
 * Group and summarise the rows of src[0..n).  The columns of o must
 * exist in some table (a table without one reads it as empty).  Returns
 * 0, or -1 with a sentence in err: a metric value that is not a number
 * (file:line), a row a source read as it came could not use (its
 * csv_rows_error), out of memory.
 */
int cmp_build(struct cmp *c, const struct cmp_src *src, unsigned n,
	      const struct cmp_opts *o, char *err, size_t errlen);
/* Set every run against the run named baseline (NULL: the first run):
 * the change and verdict of every cell.  -1 when no run has that name. */
int cmp_against(struct cmp *c, const char *baseline);
void cmp_free(struct cmp *c);

/* Which way a metric is better: 1 higher, -1 lower, 0 not known. */
int cmp_direction(const char *metric);

#endif
