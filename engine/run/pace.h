/*
 * pace.h - the pace of a clone: rate= and rate_iops= (it sleeps while it
 * is ahead, never past its deadline), ratemin= (it fails below it), and
 * the sleep they and startdelay= share, which wakes on a stop and, for
 * an aggressor, when the last victim is done.
 */
#ifndef MEMJOB_PACE_H
#define MEMJOB_PACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/result.h"
#include "spec/job.h"

/* Sleep up to us, waking early when *stop is set or until_zero (not
 * NULL: an aggressor's victims still running) reaches 0. */
void pace_nap(atomic_int *stop, atomic_uint *until_zero, uint64_t us);
/* rate=, rate_iops=: sleep (or spin, rate_wait=spin) while the clone
 * (bytes and ops since t0) is ahead of its budget, but not past until (the deadline, or the ramp's
 * end: the caller looks at the clock then).  rate is the clone's bytes
 * per second (rate=, or its percentage resolved: exec.c), 0 for
 * rate_iops.  Whether it slept. */
bool pace_keep_rate(const struct job_spec *j, uint64_t rate, uint64_t t0,
		    uint64_t bytes, uint64_t ops, uint64_t until,
		    atomic_int *stop, atomic_uint *until_zero);
/* ratemin=: 0, or -1 with out failed when bytes in ns fall below it
 * (fio's rate_min). */
int pace_below_ratemin(const struct job_spec *j, uint64_t bytes, uint64_t ns,
		       struct thread_result *out);

#endif
