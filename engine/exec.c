/*
 * exec.c - running a plan (see exec.h): create the files, then each
 * segment, each repeat, all threads released together.
 */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "filegen.h"
#include "value.h"

struct job_sync {
	unsigned remaining;		/* clones still running */
};

struct exec_shared {
	pthread_mutex_t lock;
	unsigned ready;			/* threads done with their setup */
	bool released;
	pthread_cond_t done;
	struct job_sync *sync;		/* one per job of the plan */
	atomic_int *stop;
	atomic_uint victims_left;
};

atomic_uint *shared_victims_left(struct exec_shared *sh)
{
	return &sh->victims_left;
}

atomic_int *shared_stop(struct exec_shared *sh)
{
	return sh->stop;
}

/* The start gate: a thread that has set up waits here until the main
 * thread has seen every thread ready and releases them all at once. */
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

static void release_when_ready(struct exec_shared *sh, unsigned nthreads)
{
	pthread_mutex_lock(&sh->lock);
	while (sh->ready < nthreads)
		pthread_cond_wait(&sh->done, &sh->lock);
	sh->released = true;
	pthread_cond_broadcast(&sh->done);
	pthread_mutex_unlock(&sh->lock);
}

/* Wait until every clone of job (an earlier one) is done, or stop. */
void job_sync_wait(struct exec_shared *sh, int job)
{
	if (job < 0)
		return;
	pthread_mutex_lock(&sh->lock);
	while (sh->sync[job].remaining &&
	       !atomic_load_explicit(sh->stop, memory_order_relaxed)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
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

static int create_files(struct exec_ctx *x)
{
	const struct plan *p = x->plan;

	x->created = calloc(p->ncreates ? p->ncreates : 1, sizeof(char *));
	if (!x->created)
		return -1;
	for (unsigned i = 0; i < p->ncreates; i++) {
		const struct file_to_create *c = &p->creates[i];
		char err[512], sz[32], pat[64];

		if (atomic_load(x->stop))
			return -1;
		if (x->progress) {
			value_format_size(c->size, sz, sizeof(sz));
			pattern_format(&c->pattern, pat, sizeof(pat));
			fprintf(x->progress, "memjob: creating '%s' (%s, "
				"pattern %s)\n", c->path, sz, pat);
		}
		if (filegen_create(c->path, c->size, &c->pattern, c->seed, err,
				   sizeof(err))) {
			fprintf(stderr, "memjob: job '%s': %s\n", c->by->name,
				err);
			return -1;
		}
		x->created[x->ncreated++] = c->path;
	}
	return 0;
}

void exec_cleanup(struct exec_ctx *x)
{
	const struct plan *p = x->plan;

	for (unsigned i = 0; i < x->ncreated; i++) {
		const struct file_to_create *c = &p->creates[i];

		if (c->by->keep_files)
			continue;
		if (unlink(c->path) && errno != ENOENT)
			fprintf(stderr, "memjob: cannot remove '%s': %s\n",
				c->path, strerror(errno));
	}
	free(x->created);
	x->created = NULL;
	x->ncreated = 0;
}

static int run_segment(struct exec_ctx *x, const struct segment *sg,
		       unsigned repeat)
{
	const struct plan *p = x->plan;
	struct exec_shared sh;
	struct worker *w;
	pthread_t *tids;
	unsigned nthreads = 0, t = 0, started = 0;
	sigset_t block, old;
	int ret = 0;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		nthreads += p->jobs[i].spec->numjobs;
	w = calloc(nthreads, sizeof(*w));
	tids = calloc(nthreads, sizeof(*tids));
	sh.sync = calloc(p->njobs, sizeof(*sh.sync));
	if (!w || !tids || !sh.sync) {
		ret = -1;
		goto out_free;
	}
	sh.stop = x->stop;
	atomic_init(&sh.victims_left, 0);
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		struct job_result *jr = results_get(x->res, i, repeat);
		const struct job_spec *j = p->jobs[i].spec;

		if (j->phase == PHASE_LOADED && j->role == ROLE_VICTIM)
			atomic_fetch_add(&sh.victims_left, j->numjobs);

		sh.sync[i].remaining = p->jobs[i].spec->numjobs;
		for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++) {
			w[t].pj = &p->jobs[i];
			w[t].clone = c;
			w[t].out = &jr->threads[c];
			w[t].sh = &sh;
			t++;
		}
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.done, NULL);
	sh.ready = 0;
	sh.released = false;

	/* Signals go to this thread only: the workers poll the stop flag. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (t = 0; t < nthreads; t++) {
		int err = pthread_create(&tids[t], NULL, worker_main, &w[t]);

		if (err) {
			fprintf(stderr, "memjob: cannot start thread %u of "
				"%u: %s\n", t + 1, nthreads, strerror(err));
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (t = started; t < nthreads; t++) {
		w[t].out->status = RUN_FAILED;
		snprintf(w[t].out->err, sizeof(w[t].out->err),
			 "could not start the thread");
		job_sync_done(&sh, w[t].pj->spec->index);
		if (w[t].pj->spec->phase == PHASE_LOADED &&
		    w[t].pj->spec->role == ROLE_VICTIM)
			atomic_fetch_sub(&sh.victims_left, 1);
		ret = -1;
	}
	release_when_ready(&sh, started);
	for (t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	pthread_cond_destroy(&sh.done);
	pthread_mutex_destroy(&sh.lock);
out_free:
	free(sh.sync);
	free(tids);
	free(w);
	return ret;
}

int exec_run(struct exec_ctx *x)
{
	const struct plan *p = x->plan;
	int ret = 0;

	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x->res->epoch_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			   (uint64_t)ts.tv_nsec;
	if (create_files(x))
		ret = 1;
	for (unsigned s = 0; s < p->nsegments && !ret; s++) {
		const struct segment *sg = &p->segments[s];

		for (unsigned r = 0; r < sg->repeat; r++) {
			if (atomic_load(x->stop))
				break;
			if (run_segment(x, sg, r))
				ret = 1;
		}
	}
	results_summarise(x->res);
	for (unsigned j = 0; j < p->njobs; j++)
		for (unsigned r = 0; r < p->segments[p->jobs[j].segment].repeat;
		     r++)
			if (results_get(x->res, j, r)->status != RUN_OK)
				ret = 1;
	return ret;
}
