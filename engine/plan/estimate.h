/*
 * estimate.h - how long a plan will take, said before it runs, and what
 * would shorten it.
 *
 * A segment's run takes as long as its longest job: startdelay, ramp_time
 * and runtime for a time_based job; for one bound by its size, its bytes
 * at a nominal rate (ESTIMATE_FILE_GBPS through files, ESTIMATE_MEM_GBPS
 * in memory), capped by its runtime.  Segments run one after another,
 * each repeat times (a block of precision= segments round by round, its
 * rounds all the segments of the block), and the files the plan creates
 * are written first.  With precision=, a block runs on until its
 * intervals are narrow enough or its precision_budget is spent: the
 * estimate is then a range, from the planned rounds to the budget.  The
 * time a program (kernel=exec) takes is its own and is not counted.
 */
#ifndef MEMJOB_ESTIMATE_H
#define MEMJOB_ESTIMATE_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"

#define ESTIMATE_FILE_GBPS	1.0	/* through a file, read or written */
#define ESTIMATE_MEM_GBPS	5.0	/* in memory */
#define ESTIMATE_SAY_S		20.0	/* say it when it may take longer */

struct run_estimate {
	double lo_s;		/* the planned runs (the repeat rounds) */
	double hi_s;		/* with precision=: up to the budgets */
	double sized_s;		/* of lo_s: size-bound work at nominal rates */
	unsigned runs;		/* segment runs planned */
	bool precision;		/* a block may go on up to its budget */
	bool programs;		/* kernel=exec jobs, their time not counted */
};

void plan_estimate(const struct plan *p, struct run_estimate *e);
/* "about 20 s, up to 2 min 20 s", in the units a person reads. */
void estimate_duration(double s, char *buf, size_t len);
/*
 * The line said before a long run (on stderr) and in --plan: how long,
 * from what, and what shortens it, naming the ${VAR}s of the job files
 * that set repeat, precision, precision_budget, runtime and size where
 * the line that set them used one (else the option, --repeat=3).
 */
void estimate_print(FILE *f, const struct plan *p,
		    const struct run_estimate *e);

#endif
