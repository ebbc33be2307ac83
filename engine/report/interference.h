/*
 * interference.h - victims alone versus loaded: the metric each job is
 * judged by, its baseline, the slowdown, and the summary table.
 *
 * A job's metric is job_metric's (run/result.h).  Slowdown in % is
 * (loaded - alone) / alone for lower-is-better metrics and alone / loaded
 * - 1 for throughputs, so that +10% means "10% more time" either way.
 * The baseline of a loaded victim is the median of its alone runs of the
 * same rounds (with precision=, the alone runs go on after a point has
 * stopped; those are another point's).
 *
 * A point's slowdown also comes with its 95% confidence interval, from
 * the alone and loaded repeats as two samples (interval.h), and a
 * verdict in words: "slower by 5.4% (95% CI 3.9..6.8%)".  The same
 * slowdown on the victim's CPU clock leaves out the time it waited for a
 * CPU (an aggressor on its CPU, the host): set beside the wall-time one,
 * it tells the cache's share from the scheduler's.
 */
#ifndef MEMJOB_INTERFERENCE_H
#define MEMJOB_INTERFERENCE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/interval.h"
#include "report/noisereport.h"
#include "run/result.h"
#include "util/row.h"
#include "util/stats.h"

/* A slowdown in % is a figure (util/row.h) of this many decimals:
 * slowdown_pct rounds it, every output prints it from there. */
#define SLOWDOWN_DECIMALS	4

/* Median of job idx's metric over its first n repeats (0 when none
 * ran), rounded to METRIC_DIGITS as a metric is. */
double metric_median(const struct results *r, unsigned idx, unsigned n);
/* The slowdown of loaded over alone (figures), rounded to
 * SLOWDOWN_DECIMALS. */
double slowdown_pct(double alone, double loaded, bool lower_is_better);
/* For a loaded victim row: its baseline median and slowdown; false when
 * the row is not one. */
bool row_slowdown(const struct results *r, const struct job_result *jr,
		  double *baseline, double *slowdown);
/* For a loaded victim row: its slowdown on the CPU clock, this run's
 * job_cpu_metric against the median of its baseline's; false when the
 * row is not one or a figure is missing. */
bool row_cpu_slowdown(const struct results *r, const struct job_result *jr,
		      double *slowdown);
/* For a loaded victim row: its point's slowdown, of the medians over
 * the repeats (the interference table's; the same for each repeat);
 * false when the row is not one or a median is missing. */
bool point_slowdown(const struct results *r, const struct job_result *jr,
		    double *slowdown);
/* For a loaded victim row: the interval of its point's slowdown (the
 * same for each repeat of the point); false when the row is not one. */
bool row_interval(const struct results *r, const struct job_result *jr,
		  struct interval *iv);
/* The verdict on a slowdown's interval, in words (interval_verdict). */
void slowdown_verdict(const struct interval *iv, char *buf, size_t len);
/* The interval's cells (slowdown_est_pct, slowdown_ci_lo_pct,
 * slowdown_ci_hi_pct, ci_level_pct, verdict), absent for NULL; the
 * verdict's text is made in verdict[len], which must outlive the cell. */
void interval_cells(struct row_emitter *e, const struct interval *iv,
		    char *verdict, size_t len);
/* precision='s cells (precision_pct, precision_status,
 * precision_half_width_pct, precision_pairs), absent when it is off. */
void precision_cells(struct row_emitter *e, const struct precision_point *pt);
/* The aggressors' GB/s at one loaded point, repeat by repeat: every
 * aggressor job's run (all its clones, as its row's gbps) adds to its
 * repeat's sum.  The loaded-latency table (a run's results) and memjob
 * plot's chart of it (a CSV's rows) both sum them here. */
struct aggressor_sum {
	double gbps[PRECISION_MAX_ROUNDS];
	unsigned n;			/* repeats 0..n-1 */
};
/* Add an aggressor's gbps to repeat (from 0); a repeat past the last
 * seen makes the ones between count, as 0 until added to. */
void aggressor_sum_add(struct aggressor_sum *a, unsigned repeat,
		       double gbps);
/* The sums over the repeats (a->gbps sorted in place), the median a
 * figure (METRIC_DIGITS): the table's "aggressors GB/s". */
struct stat_summary aggressor_sum_summary(struct aggressor_sum *a);
/* A point's figures over its repeats, v[0..n) (sorted in place): min,
 * max and the median, made a figure as metric_median's is, and the 95%
 * interval of that median (interval_median), as the tables print them. */
void point_figures(double *v, unsigned n, struct stat_summary *s,
		   struct interval *ci);
/* One line of the table: a loaded victim at one point, its metric alone
 * and loaded over the repeats, the slowdown, and its aggressors. */
struct interference_line {
	const char *victim;
	const char *point;		/* the point label, or NULL */
	bool first;			/* the victim's first line */
	bool have;			/* false: a run failed, no figures */
	struct metric m;
	struct stat_summary alone, loaded;
	double slowdown_pct;		/* of the medians */
	struct stat_summary slowdown;	/* of each loaded run */
	struct interval ci;		/* of the slowdown, alone vs loaded */
	struct precision_point prec;	/* precision='s outcome, or OFF */
	unsigned aggressor_threads;
	bool aggressor_rate;		/* every aggressor measures a rate
					   (kernel_measures_rate()) */
	double aggressor_gbps;		/* median of their summed GB/s,
					   where aggressor_rate */
	struct stat_summary aggressors;	/* their summed GB/s over the
					   repeats, where aggressor_rate */
	/* the intervals of the medians alone and loaded (interval_median) */
	struct interval alone_ci, loaded_ci;
	bool emulated;			/* a job of the point (or of its
					   baseline) ran in emulation */
	struct hostnoise noise;		/* noisereport.h: noise_of_point */
	struct wait_range loaded_wait;	/* the loaded runs' wait */
	/* The same slowdown on the victim's CPU clock (job_cpu_metric):
	 * the medians alone and loaded, and the slowdown of the medians;
	 * have_cpu false where a median is missing. */
	bool have_cpu;
	struct metric cpu_m;
	double cpu_alone, cpu_loaded, cpu_slowdown_pct;
	char quirk[256];		/* what a host quirk does to the
					   point's aggressors, or "" */
};

/* Each line, victim by victim in plan order. */
void interference_each(const struct results *r,
		       void (*fn)(void *user,
				  const struct interference_line *l),
		       void *user);
/* Whether victim's loaded points differ only in their aggressors'
 * rate= (sweep=rate:... in the aggressors' sections), and the victim's
 * figure is a latency (ns per item): a loaded-latency curve, which
 * report/loadedlat.c prints instead of the interference table. */
bool interference_rate_curve(const struct results *r, const char *victim);
/* The table per victim: point, alone, loaded, slowdown, aggressors
 * (victims that are a rate curve are left to loadedlat.c). */
void interference_table(FILE *f, const struct results *r);
/* A line as a row (for JSON): its figures as numbers, absent when a run
 * failed. */
void interference_row(struct row_emitter *e,
		      const struct interference_line *l);
/* How many points there are, and how many warn of the host's noise. */
void interference_noise_count(const struct results *r,
			      struct noise_count *c);

#endif
