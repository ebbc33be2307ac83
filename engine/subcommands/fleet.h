/*
 * fleet.h - which hosts (or tasks) of a fleet stand out: memjob report
 * --by=COLUMN sets each run's median at a point against the median of
 * all the runs' medians there, the fleet's.
 *
 * The rule is robust to the outliers it looks for: with m the median of
 * the runs' medians at a point and MAD the median of |x - m| over them,
 * a run stands out when
 *
 *	|x - m| > 3 x 1.4826 x max(MAD, 1% of |m|)
 *
 * (1.4826 x MAD estimates a standard deviation for normal noise; the 1%
 * floor keeps a fleet of nearly equal hosts, MAD about 0, from flagging a
 * 1% wobble).  A point needs 3 runs with a value to be judged.  Its
 * deviation is (x - m) / m x 100, in %.
 *
 * Machine types are kept apart by the key: with --by and the default
 * key, the machine_type column joins it (compare.c), so a point holds one
 * machine type and its fleet median is that type's.
 */
#ifndef MEMJOB_FLEET_H
#define MEMJOB_FLEET_H

#include "subcommands/compare.h"

#define FLEET_MIN_RUNS		3u
#define FLEET_MAD_SCALE		STAT_MAD_SCALE
#define FLEET_MAD_K		3.0
#define FLEET_MAD_FLOOR		0.01	/* of |median| */

/* Judge every point of c (built with --by): each point's fleet figures
 * and each cell's deviation and outlier flag.  -1 when out of memory. */
int fleet_judge(struct cmp *c);

/* How many (point, run) cells stand out. */
unsigned fleet_outliers(const struct cmp *c);

#endif
