/*
 * samples.h - sample_interval's time series: while a segment runs, a row
 * per job that asked for one, every interval, into its sample log: the
 * bytes it moved and the system's counters (sysstat.h) over the interval.
 * The logs are opened before the first run (made by the open, never
 * through a symbolic link) and closed after the last.
 */
#ifndef MEMJOB_SAMPLES_H
#define MEMJOB_SAMPLES_H

#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "machine/sysstat.h"
#include "plan/plan.h"
#include "run/result.h"

/* One segment's sampling. */
struct sampling {
	const struct plan *plan;
	const struct results *res;
	const struct sysstat *ss;	/* NULL: no counters, no samples */
	FILE **logs;			/* per job: its log, or NULL */
	const struct segment *sg;
	unsigned repeat;
	uint64_t *last_bytes;		/* per job of the segment */
	cpu_set_t *cpus;		/* per job of the segment: its CPUs */
};

/* Every job's sample log, per job (jobs of a sweep share theirs); NULL
 * after a message naming the path and what is there, or out of memory. */
FILE **samples_open(const struct plan *p);
void samples_close(FILE **logs, const struct plan *p);
/* Start sampling sm's segment (after its threads are ready), or NULL
 * when none of its jobs asked for samples. */
struct sysstat_sampler *samples_start(struct sampling *sm);
void samples_stop(struct sampling *sm, struct sysstat_sampler *sampler);

#endif
