/*
 * worker.h - the body of one thread: one clone of one job (worker.c).
 */
#ifndef MEMJOB_WORKER_H
#define MEMJOB_WORKER_H

#include "plan/plan.h"
#include "run/result.h"
#include "run/shared.h"

struct worker {
	const struct planned_job *pj;
	unsigned clone;
	struct thread_result *out;
	struct exec_shared *sh;
	/* The clone's rate in bytes per second: rate=, or rate=N% of what
	 * the job's calibration measured (exec.c); 0: none. */
	uint64_t rate;
	/* Nonzero: a calibration run of rate=N%: the job alone, without a
	 * limit, ramp_ns untimed and then calibrate_ns timed, as no
	 * victim's aggressor. */
	uint64_t calibrate_ns, ramp_ns;
};
void *worker_main(void *arg);

#endif
