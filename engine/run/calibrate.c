/*
 * calibrate.c - rate=N%'s measurement (see calibrate.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/calibrate.h"
#include "run/threads.h"

/*
 * rate=N%: before a block's first round, each segment with a job paced to
 * a percentage runs once with every job of it free of its rate (victims
 * and aggressors alike, so the machine is as loaded as it will be),
 * RATE_CAL_RAMP_NS untimed and then RATE_CAL_NS timed; the mean rate of
 * such a job's clones is what its percentage is of.  Jobs whose points
 * differ only in rate (sweep=rate:...) share one measurement: the first.
 */
#define RATE_CAL_RAMP_NS	100000000ull
#define RATE_CAL_NS		400000000ull

/* "NAME\n" and the point's label without its rate items. */
static void rate_key(const struct job_spec *j, char *buf, size_t len)
{
	const char *l = j->point_label ? j->point_label : "";
	size_t n = (size_t)snprintf(buf, len, "%s\n", j->name);

	while (*l && n < len) {
		size_t item = strcspn(l, " "), name = strcspn(l, "=");
		const char *dot = memchr(l, '.', name < item ? name : item);
		const char *opt = dot ? dot + 1 : l;

		if (name > item || (size_t)(l + name - opt) != 4 ||
		    strncmp(opt, "rate", 4))
			n += (size_t)snprintf(buf + n, len - n, "%.*s ",
					      (int)item, l);
		l += item;
		l += *l == ' ';
	}
}

/* Each rate=N% job of segment sg, from what its clones moved. */
static int calibration_rates(struct calibration *x, const struct segment *sg,
			     const struct thread_result *tr)
{
	const struct plan *p = x->plan;
	unsigned t = 0;
	int ret = 0;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		unsigned ok = 0;
		double sum = 0;

		for (unsigned c = 0; c < j->numjobs; c++, t++) {
			if (tr[t].status == RUN_OK &&
			    tr[t].end_ns > tr[t].start_ns) {
				sum += (double)tr[t].bytes * 1e9 /
				       (double)(tr[t].end_ns - tr[t].start_ns);
				ok++;
			} else if (tr[t].status == RUN_FAILED) {
				fprintf(stderr, "memjob: job '%s': the run "
					"that measures the rates without a "
					"limit (rate=N%%) failed (clone %u): "
					"%s\n", j->name, c, tr[t].err);
				ret = -1;
			}
		}
		if (!(j->rate_pct > 0) || ret)
			continue;
		if (ok < j->numjobs || !(sum > 0)) {
			fprintf(stderr, "memjob: job '%s': rate=%g%%: it moved "
				"no bytes without a limit\n", j->name,
				j->rate_pct);
			ret = -1;
			continue;
		}
		x->res->rate_base[i] = sum / j->numjobs;
	}
	return ret;
}

/* Segment sg's jobs together, free of their rates.  -1 when a clone
 * failed (said on stderr) or a stop came. */
static int calibrate_segment(struct calibration *x,
			     const struct segment *sg)
{
	const struct plan *p = x->plan;
	unsigned n = 0, t = 0, started;
	struct thread_result *tr;
	struct worker *w;
	pthread_t *tids;
	struct exec_shared sh = { .stop = x->stop };
	int ret = -1;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		n += p->jobs[i].spec->numjobs;
	tr = calloc(n, sizeof(*tr));
	w = calloc(n, sizeof(*w));
	tids = calloc(n, sizeof(*tids));
	if (!tr || !w || !tids || threads_sync_alloc(&sh, p, sg))
		goto out_free;
	sh.root = x->root ? x->root : "";
	sh.files = x->files;
	atomic_init(&sh.victims_left, 0);
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		for (unsigned c = 0; c < j->numjobs; c++, t++)
			w[t] = (struct worker){ .pj = &p->jobs[i], .clone = c,
						.out = &tr[t], .sh = &sh,
						.calibrate_ns = RATE_CAL_NS,
						.ramp_ns = RATE_CAL_RAMP_NS };
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.done, NULL);
	started = threads_start(w, tids, n);
	threads_wait_ready(&sh, tids, started);
	shared_release(&sh);
	threads_join_all(x->stop, tids, started);
	pthread_cond_destroy(&sh.done);
	pthread_mutex_destroy(&sh.lock);
	if (started == n && !atomic_load(x->stop))
		ret = calibration_rates(x, sg, tr);
	for (unsigned k = 0; k < n; k++)
		free(tr[k].lat);
out_free:
	threads_sync_free(&sh, sg);
	free(tids);
	free(w);
	free(tr);
	return ret;
}

/* Whether job i has a rate to measure, no earlier job's measurement to
 * share, after sharing any it can. */
static bool rate_unknown(struct calibration *x, unsigned i)
{
	const struct plan *p = x->plan;
	char key[1200], other[1200];

	if (!(p->jobs[i].spec->rate_pct > 0) || x->res->rate_base[i] > 0)
		return false;
	rate_key(p->jobs[i].spec, key, sizeof(key));
	for (unsigned k = 0; k < p->njobs; k++) {
		if (!(x->res->rate_base[k] > 0))
			continue;
		rate_key(p->jobs[k].spec, other, sizeof(other));
		if (!strcmp(key, other)) {
			x->res->rate_base[i] = x->res->rate_base[k];
			return false;
		}
	}
	return true;
}

/* Every rate=N% job of segments [s, e) measured, or given an earlier
 * job's measurement.  -1 when one failed or a stop came. */
int calibrate_block(struct calibration *x, unsigned s, unsigned e)
{
	const struct plan *p = x->plan;

	for (unsigned g = s; g < e; g++) {
		const struct segment *sg = &p->segments[g];
		bool need = false;

		for (unsigned i = sg->first; i < sg->first + sg->count; i++)
			need |= rate_unknown(x, i);
		if (!need)
			continue;
		if (atomic_load(x->stop) || calibrate_segment(x, sg))
			return -1;
	}
	return 0;
}

uint64_t calibrate_clone_rate(const struct results *r, unsigned i)
{
	const struct job_spec *j = r->plan->jobs[i].spec;
	double bps;

	if (!(j->rate_pct > 0))
		return j->rate;
	bps = r->rate_base[i] * j->rate_pct / 100;
	return bps >= 1 ? (uint64_t)bps : 1;
}
