/*
 * calibrate.h - what rate=N% is a percentage of: each job paced to a
 * percentage is first measured without a limit, its segment run once
 * as it will run but free of every rate, and each clone is then paced to
 * the percentage of its job's mean rate per clone.
 */
#ifndef MEMJOB_CALIBRATE_H
#define MEMJOB_CALIBRATE_H

#include <stdatomic.h>

#include "plan/plan.h"
#include "run/files.h"
#include "run/result.h"

struct calibration {
	const struct plan *plan;
	struct results *res;		/* rate_base[] gets the rates */
	atomic_int *stop;
	const char *root;		/* MEMJOB_SYSROOT, or NULL */
	const struct created_files *files;
};

/* Every rate=N% job of segments [s, e) measured (before their block's
 * first round), or given the measurement of an earlier job that differs
 * only in rate.  -1 when a run failed (said on stderr) or a stop came. */
int calibrate_block(struct calibration *x, unsigned s, unsigned e);
/* Job i's pace per clone in bytes per second: rate=, or rate=N% of its
 * measured rate (0: none). */
uint64_t calibrate_clone_rate(const struct results *r, unsigned i);

#endif
