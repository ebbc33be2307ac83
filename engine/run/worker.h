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
};
void *worker_main(void *arg);

#endif
