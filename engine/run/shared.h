/*
 * shared.h - what the threads of a segment share with the main thread
 * (exec.c) and each other (worker.c): the start gate, each job's count of
 * clones still running (a job may wait for an earlier one), the stop flag
 * and the victims still running.  Below both, so neither calls the other
 * back.
 */
#ifndef MEMJOB_SHARED_H
#define MEMJOB_SHARED_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

struct created_files;

/* The signal that wakes a job's thread blocked in a system call once the
 * stop flag is set, or its deadline (runtime=) has come (EINTR): sources
 * that retry on EINTR give up then.  Its handler (exec.c) does nothing. */
#define EXEC_SIGWAKE	(SIGRTMIN + 2)

struct job_sync {
	unsigned remaining;		/* clones still running */
	void *kernel_shared;		/* the kernel's shared_len bytes for
					   the job's clones, or NULL */
};

struct exec_shared {
	pthread_mutex_t lock;
	unsigned ready;			/* threads done with their setup */
	bool released;
	pthread_cond_t done;
	struct job_sync *sync;		/* one per job of the plan */
	atomic_int *stop;
	atomic_uint victims_left;
	const char *root;		/* the system's root (hostnoise.h) */
	const struct created_files *files;	/* memjob made (files.h) */
};

/* CLOCK_REALTIME ms from now: the deadline of a timed wait. */
struct timespec realtime_in(long ms);

/* The start gate: a thread that has set up waits here until the main
 * thread has seen every thread ready and releases them all at once. */
int shared_barrier_wait(struct exec_shared *sh);
/* The main thread opens the gate. */
void shared_release(struct exec_shared *sh);
/* Wait until every clone of job (an earlier one) is done, or stop. */
void job_sync_wait(struct exec_shared *sh, int job);
void job_sync_done(struct exec_shared *sh, unsigned job);
atomic_int *shared_stop(struct exec_shared *sh);
/* Victim threads of a loaded segment still running: aggressors stop when
 * it reaches 0. */
atomic_uint *shared_victims_left(struct exec_shared *sh);

#endif
