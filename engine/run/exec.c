/*
 * exec.c - running a plan (see exec.h): create the files, then each
 * segment, each repeat, all threads released together; a block of
 * segments (a victim's alone and loaded runs, plan.h) repeat by repeat.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/busguard.h"
#include "run/calibrate.h"
#include "run/exec.h"
#include "machine/memcg.h"
#include "run/isolate.h"
#include "run/noise.h"
#include "run/progress.h"
#include "run/rounds.h"
#include "run/samples.h"
#include "run/threads.h"
#include "run/uncorerun.h"
#include "run/worker.h"
#include "util/value.h"
#include "util/clock.h"
#include "util/version.h"

void exec_cleanup(struct exec_ctx *x)
{
	char err[1024];

	files_cleanup(&x->files);
	if (x->memcg && memcg_close(x->memcg, err, sizeof(err)))
		fprintf(stderr, "memjob: memory_limit: %s\n", err);
}

/* Per job, where its file lives; before any sampler runs. */
static void find_devices(struct exec_ctx *x)
{
	const struct plan *p = x->plan;

	for (unsigned i = 0; i < p->njobs && x->ss; i++) {
		struct sysstat_mount m;
		char err[256], desc[512];

		if (!p->jobs[i].paths || !p->jobs[i].paths[0])
			continue;
		x->res->devidx[i] = sysstat_device_of(x->ss,
						      p->jobs[i].paths[0], &m,
						      err, sizeof(err));
		sysstat_mount_describe(x->ss, &m, desc, sizeof(desc));
		x->res->where[i] = strdup(desc);
	}
}

/* drop_caches=1 on any job of the segment: once, before its threads. */
static int drop_caches(struct exec_ctx *x, const struct segment *sg)
{
	const struct plan *p = x->plan;
	char err[512];

	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		if (!p->jobs[i].spec->drop_caches)
			continue;
		if (x->ss && !sysstat_drop_caches(x->ss, err, sizeof(err)))
			return 0;
		fprintf(stderr, "memjob: job '%s': drop_caches=1: %s\n",
			p->jobs[i].spec->name, x->ss ? err :
			"no /proc to write to");
		return -1;
	}
	return 0;
}

/* memory_limit: the process moves into the run's cgroup before the files
 * are made, so that their pages are charged to it too. */
static int open_memcg(struct exec_ctx *x)
{
	char err[1024];

	if (!x->memcg || !memcg_open(x->memcg, err, sizeof(err)))
		return 0;
	fprintf(stderr, "memjob: memory_limit: %s\n", err);
	return -1;
}

/* Each segment's limit (they agree within a segment: plan.c). */
static int limit_memory(struct exec_ctx *x, const struct segment *sg)
{
	uint64_t limit = x->plan->jobs[sg->first].spec->memory_limit;
	char err[1024];

	if (!x->memcg || !memcg_set_limit(x->memcg, limit, err, sizeof(err)))
		return 0;
	fprintf(stderr, "memjob: memory_limit: %s\n", err);
	return -1;
}


static int run_segment(struct exec_ctx *x, const struct segment *sg,
		       unsigned repeat, bool isolated,
		       const struct isolate_wait *iw)
{
	const struct plan *p = x->plan;
	struct exec_shared sh;
	struct isolate_warm warm;
	struct worker *w;
	pthread_t *tids;
	unsigned nthreads = 0, t = 0, started = 0;
	int ret = 0;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		nthreads += p->jobs[i].spec->numjobs;
	w = calloc(nthreads, sizeof(*w));
	tids = calloc(nthreads, sizeof(*tids));
	sh.sync = NULL;
	if (!w || !tids || threads_sync_alloc(&sh, p, sg)) {
		ret = -1;
		goto out_free;
	}
	sh.stop = x->stop;
	sh.root = x->root ? x->root : "";
	sh.files = &x->files;
	atomic_init(&sh.victims_left, 0);
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		struct job_result *jr = results_get(x->res, i, repeat);
		const struct job_spec *j = p->jobs[i].spec;

		if (j->phase == PHASE_LOADED && j->role == ROLE_VICTIM)
			atomic_fetch_add(&sh.victims_left, j->numjobs);

		for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++) {
			w[t].pj = &p->jobs[i];
			w[t].clone = c;
			w[t].out = &jr->threads[c];
			w[t].sh = &sh;
			w[t].rate = calibrate_clone_rate(x->res, i);
			t++;
		}
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.done, NULL);
	sh.ready = 0;
	sh.released = false;

	/* Signals go to this thread only: the workers poll the stop flag. */
	if (drop_caches(x, sg)) {
		for (unsigned i = sg->first; i < sg->first + sg->count; i++)
			for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++) {
				struct thread_result *tr =
					&results_get(x->res, i, repeat)->threads[c];

				tr->status = RUN_FAILED;
				snprintf(tr->err, sizeof(tr->err), "drop_caches "
					 "failed (see above)");
			}
		ret = -1;
		goto out_sync;
	}
	/* last before the threads: they allocate what it warmed */
	warm = isolate_warm_memory(p, sg, x->quirks);
	started = threads_start(w, tids, nthreads);
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
	{
		struct sysstat_snap before, after;
		struct sysstat_sampler *sampler = NULL;
		struct sampling sm = {
			.plan = p, .res = x->res, .ss = x->ss,
			.logs = x->samples, .sg = sg, .repeat = repeat,
		};
		struct dirty_level lv;
		struct noise_seg ns;
		struct uncore_seg us;
		bool have;

		/* The system's counters count from the release: what the
		 * threads did to set up (a file loaded into memory, preread,
		 * a pattern written) is not the jobs' doing. */
		threads_wait_ready(&sh, tids, started);
		uncore_seg_open(&us, p, sg, x->root);
		lv = dirty_level_now();
		have = x->ss && !sysstat_snap(x->ss, &before);
		noise_seg_begin(&ns, sh.root, x->res, sg, repeat);
		sampler = samples_start(&sm);
		struct progress_where where = {
			(unsigned)(sg - p->segments), p->nsegments,
			repeat, repeat < sg->repeat ? sg->repeat : repeat + 1,
		};
		struct progress *pg;

		uncore_seg_start(&us);
		shared_release(&sh);
		pg = progress_start(x->progress, p, sg, x->res, &where);
		threads_join_all(x->stop, tids, started);
		uncore_seg_end(&us, x->res, sg, repeat);
		progress_stop(pg);
		isolate_note(x->res, &x->files, sg, repeat, &lv, isolated, iw,
			     &warm);
		samples_stop(&sm, sampler);
		have = have && !sysstat_snap(x->ss, &after);
		noise_seg_end(&ns, sh.root, x->res, sg, repeat);
		for (unsigned i = sg->first; have && i < sg->first + sg->count;
		     i++) {
			struct job_result *jr = results_get(x->res, i, repeat);

			sysstat_delta(&before, &after, &jr->sys);
			jr->have_sys = true;
		}
	}
out_sync:
	pthread_cond_destroy(&sh.done);
	pthread_mutex_destroy(&sh.lock);
out_free:
	threads_sync_free(&sh, sg);
	free(tids);
	free(w);
	return ret;
}

/* The runs in the order they run: a block of segments repeat by repeat
 * (plan.h), each segment once per repeat.  *n gets their number. */
static struct run_ref *run_order(const struct plan *p, unsigned *n)
{
	unsigned total = 0, k = 0;
	struct run_ref *o;

	for (unsigned s = 0; s < p->nsegments; s++)
		total += p->segments[s].repeat;
	o = calloc(total ? total : 1, sizeof(*o));
	if (!o)
		return NULL;
	for (unsigned s = 0, e; s < p->nsegments; s = e) {
		unsigned reps = 0;

		for (e = s; e < p->nsegments && p->segments[e].block == s; e++)
			if (p->segments[e].repeat > reps)
				reps = p->segments[e].repeat;
		for (unsigned r = 0; r < reps; r++)
			for (unsigned g = s; g < e; g++)
				if (r < p->segments[g].repeat)
					o[k++] = (struct run_ref){ g, r };
	}
	*n = k;
	return o;
}

/*
 * After segment g ran in round r of block b: isolate it from what comes
 * next (isolate.c), which looks ahead in the runs still to come to tell
 * a file no later run uses from one the next run writes again.  Those
 * are the rest of this round, a whole next round of the block where
 * precision= may add one (a file is then kept rather than deleted), and
 * the later blocks as planned.  *rest is the scratch list, grown here.
 */
static bool isolate_next(struct exec_ctx *x, const struct rounds *b,
			 const struct run_ref *order, unsigned n, unsigned g,
			 unsigned r, struct run_ref **rest)
{
	const struct plan *p = x->plan;
	unsigned k = 0, later = 0;
	struct run_ref *o;
	bool isolated = isolate_after(&x->files, &p->segments[g]);

	while (later < n && order[later].seg < b->end)
		later++;
	o = realloc(*rest, (n - later + 2 * (b->end - b->first) + 1) *
			   sizeof(*o));
	if (!o)
		return isolated;	/* files stay as they are */
	*rest = o;
	o[k++] = (struct run_ref){ g, r };
	for (unsigned h = g + 1; h < b->end; h++)
		if (rounds_runs(b, h, r))
			o[k++] = (struct run_ref){ h, r };
	if (rounds_open(b, r))
		for (unsigned h = b->first; h < b->end; h++)
			o[k++] = (struct run_ref){ h, r + 1 };
	for (unsigned i = later; i < n; i++)
		o[k++] = order[i];
	isolate_files(&x->files, o, k, 0);
	return isolated;
}

int exec_run(struct exec_ctx *x)
{
	const struct plan *p = x->plan;
	bool isolated = true;		/* the first run: nothing before it */
	struct run_ref *order;
	uint64_t first = 0;		/* Dirty + Writeback before it */
	struct run_ref *rest = NULL;
	bool ran = false, stopped = false;
	unsigned n = 0;
	int ret = 0;

	threads_install_wake();
	busguard_install();
	x->res->epoch_ns = mono_ns();
	find_devices(x);
	order = run_order(p, &n);
	x->files.plan = p;
	x->files.progress = x->progress;
	/* the cgroup first: the files' pages are charged to it */
	if (!order || open_memcg(x) || files_create_all(&x->files, x->stop) ||
	    !(x->samples = samples_open(p)))
		ret = 1;
	struct calibration cal = { p, x->res, x->stop, x->root, &x->files };

	for (unsigned s = 0, e; order && s < p->nsegments && !ret; s = e) {
		struct rounds b;

		/* a block, repeat by repeat (plan.h), then precision='s
		 * rounds (rounds.h); a failure ends the run at the end of
		 * its block */
		for (e = s; e < p->nsegments && p->segments[e].block == s; e++)
			;
		if (calibrate_block(&cal, s, e)) {
			ret = 1;
			break;
		}
		rounds_begin(&b, x->res, s, e);
		for (unsigned r = 0; rounds_next(&b, r, atomic_load(x->stop));
		     r++) {
			for (unsigned g = s; g < e && !stopped; g++) {
				const struct segment *sg = &p->segments[g];
				struct isolate_wait w = { false, false, 0, 0 };

				if (!rounds_runs(&b, g, r))
					continue;
				if (!ran) {	/* the machine as memjob found it */
					struct dirty_level lv = dirty_level_now();

					first = lv.dirty + lv.writeback;
				} else {
					w = isolate_wait_level(p, sg, isolated,
							       first, x->stop);
				}
				if (atomic_load(x->stop) || limit_memory(x, sg)) {
					stopped = true;
					ret |= !atomic_load(x->stop);
					break;
				}
				if (run_segment(x, sg, r, isolated, &w))
					ret = 1;
				ran = true;
				rounds_ran(&b, g, r);
				/* not after the plan's last run, nor when
				 * stopped */
				if ((e < p->nsegments || rounds_open(&b, r) ||
				     g + 1 < e) && !atomic_load(x->stop))
					isolated = isolate_next(x, &b, order, n,
								g, r, &rest);
			}
			rounds_judge(&b, r);
		}
		rounds_finish(&b);
		if (stopped)
			break;
	}
	free(rest);
	free(order);
	samples_close(x->samples, p);
	x->samples = NULL;
	results_summarise(x->res);
	for (unsigned j = 0; j < p->njobs; j++)
		for (unsigned r = 0; r < results_repeats(x->res, j); r++)
			if (results_get(x->res, j, r)->status != RUN_OK)
				ret = 1;
	return ret;
}
