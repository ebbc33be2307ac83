/*
 * threads.c - the threads of a run (see threads.h): started with the
 * signals blocked, waited for at the gate, joined, and woken from
 * whatever they block in once the stop flag is set.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/kernel.h"
#include "run/threads.h"

/*
 * A stop must reach a thread wherever it blocks (open() of a FIFO nobody
 * writes, a read of a device that never answers).  Once the stop flag is
 * set, the main thread sends the threads still running EXEC_SIGWAKE every
 * KICK_MS; its handler does nothing and is installed without SA_RESTART,
 * so the blocked call returns EINTR and the thread sees the flag.  (Sent
 * again and again: a signal that comes just before the call blocks is
 * otherwise lost.)
 */
#define KICK_MS		100

static void on_wake(int sig)
{
	(void)sig;
}

void threads_install_wake(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sigaction(EXEC_SIGWAKE, &sa, NULL);
}

static void kick(atomic_int *stop, const pthread_t *tids, unsigned from,
		 unsigned to)
{
	if (!atomic_load(stop))
		return;
	for (unsigned t = from; t < to; t++)
		pthread_kill(tids[t], EXEC_SIGWAKE);
}

/* Until every thread has set up (and waits at the gate). */
void threads_wait_ready(struct exec_shared *sh, const pthread_t *tids,
			unsigned nthreads)
{
	pthread_mutex_lock(&sh->lock);
	while (sh->ready < nthreads) {
		struct timespec ts = realtime_in(KICK_MS);

		pthread_cond_timedwait(&sh->done, &sh->lock, &ts);
		kick(sh->stop, tids, 0, nthreads);
	}
	pthread_mutex_unlock(&sh->lock);
}

void threads_join_all(atomic_int *stop, const pthread_t *tids,
		      unsigned nthreads)
{
	for (unsigned t = 0; t < nthreads; t++)
		for (;;) {
			struct timespec ts = realtime_in(KICK_MS);

			if (pthread_timedjoin_np(tids[t], NULL, &ts) != ETIMEDOUT)
				break;
			kick(stop, tids, t, nthreads);
		}
}


/* The workers' threads, with SIGINT and SIGTERM blocked in them (the
 * main thread takes the signals; the workers poll the stop flag).
 * Returns how many started: those after the first failure did not. */
unsigned threads_start(struct worker *w, pthread_t *tids, unsigned n)
{
	sigset_t block, old;
	unsigned started = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (unsigned t = 0; t < n; t++) {
		int err = pthread_create(&tids[t], NULL, worker_main, &w[t]);

		if (err) {
			fprintf(stderr, "memjob: cannot start thread %u of "
				"%u: %s\n", t + 1, n, strerror(err));
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

int threads_sync_alloc(struct exec_shared *sh, const struct plan *p,
		       const struct segment *sg)
{
	sh->sync = calloc(p->njobs, sizeof(*sh->sync));
	if (!sh->sync)
		return -1;
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		sh->sync[i].remaining = j->numjobs;
		if (j->kernel->shared_len &&
		    !(sh->sync[i].kernel_shared =
		      kernel_shared_alloc(j->kernel->shared_len)))
			return -1;
	}
	return 0;
}

void threads_sync_free(struct exec_shared *sh, const struct segment *sg)
{
	for (unsigned i = sg->first; sh->sync && i < sg->first + sg->count;
	     i++)
		free(sh->sync[i].kernel_shared);
	free(sh->sync);
	sh->sync = NULL;
}
