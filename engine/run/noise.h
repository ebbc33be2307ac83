/*
 * noise.h - the host's noise around each run of a segment (hostnoise.h):
 * which CPUs a segment's jobs ran on, snapshots at the release and after
 * the join, and the figures per job run and for the whole run.
 */
#ifndef MEMJOB_RUN_NOISE_H
#define MEMJOB_RUN_NOISE_H

#include "machine/hostnoise.h"
#include "plan/plan.h"
#include "run/result.h"

struct noise_seg {
	struct hostnoise_snap *before;	/* NULL: out of memory, no figures */
	cpu_set_t cpus;			/* every job's of the segment */
};

/*
 * Add to set the CPUs of a job run's nthreads threads: the one each was
 * bound to, or every CPU the process may run on for a thread not bound.
 */
void noise_job_cpus(const struct job_result *jr, unsigned nthreads,
		    cpu_set_t *set);
/* At the release, the threads bound: the first snapshot. */
void noise_seg_begin(struct noise_seg *ns, const char *root,
		     const struct results *r, const struct segment *sg,
		     unsigned repeat);
/* After the join: each job run's figures, and the run's, then free. */
void noise_seg_end(struct noise_seg *ns, const char *root,
		   struct results *r, const struct segment *sg,
		   unsigned repeat);

#endif
