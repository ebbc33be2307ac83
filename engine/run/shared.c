/*
 * shared.c - the meeting points of a segment's threads (see shared.h).
 */
#include "run/shared.h"

atomic_uint *shared_victims_left(struct exec_shared *sh)
{
	return &sh->victims_left;
}

atomic_int *shared_stop(struct exec_shared *sh)
{
	return sh->stop;
}

int shared_barrier_wait(struct exec_shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	sh->ready++;
	pthread_cond_broadcast(&sh->done);
	while (!sh->released)
		pthread_cond_wait(&sh->done, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	return 0;
}

struct timespec realtime_in(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += ms % 1000 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

void shared_release(struct exec_shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	sh->released = true;
	pthread_cond_broadcast(&sh->done);
	pthread_mutex_unlock(&sh->lock);
}

void job_sync_wait(struct exec_shared *sh, int job)
{
	if (job < 0)
		return;
	pthread_mutex_lock(&sh->lock);
	while (sh->sync[job].remaining &&
	       !atomic_load_explicit(sh->stop, memory_order_relaxed)) {
		struct timespec ts = realtime_in(20);

		pthread_cond_timedwait(&sh->done, &sh->lock, &ts);
	}
	pthread_mutex_unlock(&sh->lock);
}

void job_sync_done(struct exec_shared *sh, unsigned job)
{
	pthread_mutex_lock(&sh->lock);
	if (sh->sync[job].remaining)
		sh->sync[job].remaining--;
	pthread_cond_broadcast(&sh->done);
	pthread_mutex_unlock(&sh->lock);
}
