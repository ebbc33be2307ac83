/*
 * uncorerun.h - a segment's uncore events (uncore.h): opened for the
 * jobs that list one once their threads are set up, counting from the
 * release to the join, and their figures kept in each job run's result
 * (job_result.uncore), where the sums over clones find them.
 */
#ifndef MEMJOB_RUN_UNCORERUN_H
#define MEMJOB_RUN_UNCORERUN_H

#include "machine/uncore.h"
#include "plan/plan.h"
#include "run/result.h"

struct uncore_seg {
	struct uncore **u;		/* per job of the segment, or NULL */
	unsigned count;
};

/* Open the segment's uncore events (root: NULL for this machine). */
void uncore_seg_open(struct uncore_seg *us, const struct plan *p,
		     const struct segment *sg, const char *root);
/* At the release. */
void uncore_seg_start(struct uncore_seg *us);
/* After the join: each job run's figures, then close. */
void uncore_seg_end(struct uncore_seg *us, struct results *r,
		    const struct segment *sg, unsigned repeat);

#endif
