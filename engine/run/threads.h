/*
 * threads.h - the worker threads of a segment's run (exec.c) or of a rate
 * calibration (calibrate.c): started, released together at the gate
 * (shared.h), joined; a stop reaches each thread wherever it blocks.
 */
#ifndef MEMJOB_THREADS_H
#define MEMJOB_THREADS_H

#include <pthread.h>
#include <stdatomic.h>

#include "run/shared.h"
#include "run/worker.h"

/* The handler of EXEC_SIGWAKE (it does nothing, without SA_RESTART). */
void threads_install_wake(void);
/* The workers' threads, with SIGINT and SIGTERM blocked in them (the
 * main thread takes the signals; the workers poll the stop flag).
 * Returns how many started: those after the first failure did not. */
unsigned threads_start(struct worker *w, pthread_t *tids, unsigned n);
/* Until every thread has set up (and waits at the gate). */
void threads_wait_ready(struct exec_shared *sh, const pthread_t *tids,
			unsigned nthreads);
/* Join them all, kicking those still running once stop is set. */
void threads_join_all(atomic_int *stop, const pthread_t *tids,
		      unsigned nthreads);
/* sh->sync for plan p's jobs, each of segment sg's with its count of
 * clones and its kernel's shared block (kernel_ops.shared_len, zeroed);
 * -1 out of memory (threads_sync_free frees what was made). */
int threads_sync_alloc(struct exec_shared *sh, const struct plan *p,
		       const struct segment *sg);
/* What threads_sync_alloc made (sh->sync may be NULL). */
void threads_sync_free(struct exec_shared *sh, const struct segment *sg);

#endif
