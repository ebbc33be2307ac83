/*
 * sysstat_sampler.c - a thread that snapshots the system counters every
 * interval, for sample_interval's time series (see sysstat.h).
 *
 * The one idea: deadlines are start + k * interval on CLOCK_MONOTONIC, so
 * rows do not drift, and the thread waits on a condition variable rather
 * than sleeping, so that stop wakes it at once instead of up to an
 * interval later.  The host's /proc/stat is read with each snapshot (one
 * file, whatever the number of CPUs); the CPUs' frequency is not, as that
 * is a sysfs file per CPU per row.
 */
#include "machine/sysstat.h"

#include "machine/hostnoise.h"
#include "util/clock.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

struct sysstat_sampler {
	const struct sysstat *s;
	uint64_t interval_ns;
	sysstat_sample_fn *cb;
	void *user;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;			/* under lock */
	struct sysstat_snap prev, cur;
	struct hostnoise_snap *hprev, *hcur;	/* NULL: no memory, no steal */
};

/* Wait until deadline (CLOCK_MONOTONIC) or stop; true when stopping. */
static bool wait_until(struct sysstat_sampler *sp, uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000ull),
		.tv_nsec = (long)(deadline % 1000000000ull),
	};
	bool stop;

	pthread_mutex_lock(&sp->lock);
	while (!sp->stop && mono_ns() < deadline)
		if (pthread_cond_timedwait(&sp->wake, &sp->lock, &ts) ==
		    ETIMEDOUT)
			break;
	stop = sp->stop;
	pthread_mutex_unlock(&sp->lock);
	return stop;
}

static void *sampler_main(void *arg)
{
	struct sysstat_sampler *sp = arg;
	uint64_t deadline = sp->prev.t_ns + sp->interval_ns;
	bool stop;

	do {
		stop = wait_until(sp, deadline);
		sysstat_snap(sp->s, &sp->cur);
		if (sp->hcur)
			hostnoise_snap(sp->s->root, NULL, sp->hcur);
		sp->cb(sp->user, &sp->prev, &sp->cur, sp->hprev, sp->hcur);
		sp->prev = sp->cur;
		if (sp->hcur) {
			struct hostnoise_snap *t = sp->hprev;

			sp->hprev = sp->hcur;
			sp->hcur = t;
		}
		/* Intervals missed while the machine was busy are skipped,
		 * not caught up with a burst of short ones. */
		deadline += sp->interval_ns;
		while (deadline <= sp->prev.t_ns)
			deadline += sp->interval_ns;
	} while (!stop);
	return NULL;
}

struct sysstat_sampler *sysstat_sampler_start(const struct sysstat *s,
					      uint64_t interval_ns,
					      sysstat_sample_fn *cb,
					      void *user)
{
	struct sysstat_sampler *sp;
	pthread_condattr_t ca;
	sigset_t all, old;
	int err;

	if (!interval_ns || !cb) {
		errno = EINVAL;
		return NULL;
	}
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->s = s;
	sp->interval_ns = interval_ns;
	sp->cb = cb;
	sp->user = user;
	err = pthread_condattr_init(&ca);
	if (err)
		goto out_free;
	err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&sp->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (err)
		goto out_free;
	err = pthread_mutex_init(&sp->lock, NULL);
	if (err)
		goto out_cond;
	sysstat_snap(s, &sp->prev);
	sp->hprev = malloc(sizeof(*sp->hprev));
	sp->hcur = sp->hprev ? malloc(sizeof(*sp->hcur)) : NULL;
	if (!sp->hcur) {
		free(sp->hprev);
		sp->hprev = NULL;
	} else {
		hostnoise_snap(s->root, NULL, sp->hprev);
	}
	/* Signals stay with the threads that handle them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&sp->tid, NULL, sampler_main, sp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		goto out_mutex;
	return sp;
out_mutex:
	free(sp->hprev);
	free(sp->hcur);
	pthread_mutex_destroy(&sp->lock);
out_cond:
	pthread_cond_destroy(&sp->wake);
out_free:
	free(sp);
	errno = err;
	return NULL;
}

void sysstat_sampler_stop(struct sysstat_sampler *sp)
{
	if (!sp)
		return;
	pthread_mutex_lock(&sp->lock);
	sp->stop = true;
	pthread_cond_signal(&sp->wake);
	pthread_mutex_unlock(&sp->lock);
	pthread_join(sp->tid, NULL);
	pthread_mutex_destroy(&sp->lock);
	pthread_cond_destroy(&sp->wake);
	free(sp->hprev);
	free(sp->hcur);
	free(sp);
}
