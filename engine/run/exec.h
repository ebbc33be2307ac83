/*
 * exec.h - running a plan: files, segments, repeats, threads.
 *
 * For each segment and each of its repeats, every clone of every job gets
 * a thread.  The threads bind themselves, set their memory policy, set up
 * their data source and kernel, and then wait at one barrier, so the jobs
 * of a group are released together and no setup cost lands in anyone's
 * measurement.  The stop flag (set by SIGINT/SIGTERM) is polled by every
 * thread between blocks.
 */
#ifndef MEMJOB_EXEC_H
#define MEMJOB_EXEC_H

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>

#include "plan/plan.h"
#include "run/files.h"
#include "run/result.h"
#include "run/shared.h"
#include "machine/sysstat.h"

struct memcg;
struct machine_quirks;

struct exec_ctx {
	const struct plan *plan;
	struct results *res;
	atomic_int *stop;		/* nonzero: stop now (the signal number) */
	FILE *progress;			/* the progress line's, or NULL */
	struct created_files files;	/* the files this run created */
	struct sysstat *ss;		/* system counters, or NULL */
	const char *root;		/* MEMJOB_SYSROOT, or NULL for "/" */
	FILE **samples;			/* per job: its sample log, or NULL */
	struct memcg *memcg;		/* memory_limit's cgroup (located, not
					 * made yet), or NULL */
	const struct machine_quirks *quirks;	/* the host's, or NULL */
};


/* 0 when every job ran to completion, 1 when one failed or was stopped. */
int exec_run(struct exec_ctx *x);
/* Remove the files this run created, except those of keep_files jobs,
 * and the run's memory cgroup. */
void exec_cleanup(struct exec_ctx *x);

#endif
