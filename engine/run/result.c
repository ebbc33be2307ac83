/*
 * result.c - storage for measurements, and the sums over clones.
 */
#include <stdlib.h>
#include <string.h>

#include "run/result.h"

int results_init(struct results *r, const struct plan *p)
{
	memset(r, 0, sizeof(*r));
	r->plan = p;
	r->max_repeat = 1;
	for (unsigned s = 0; s < p->nsegments; s++)
		if (p->segments[s].repeat > r->max_repeat)
			r->max_repeat = p->segments[s].repeat;
	r->runs = calloc((size_t)p->njobs * r->max_repeat, sizeof(*r->runs));
	if (!r->runs)
		return -1;
	r->devidx = calloc(p->njobs ? p->njobs : 1, sizeof(*r->devidx));
	r->where = calloc(p->njobs ? p->njobs : 1, sizeof(*r->where));
	if (!r->devidx || !r->where)
		return -1;
	for (unsigned j = 0; j < p->njobs; j++) {
		r->devidx[j] = -1;
		for (unsigned k = 0; k < r->max_repeat; k++) {
			struct job_result *jr = results_get(r, j, k);

			jr->pj = &p->jobs[j];
			jr->repeat = k;
			jr->threads = calloc(p->jobs[j].spec->numjobs,
					     sizeof(*jr->threads));
			if (!jr->threads)
				return -1;
		}
	}
	return 0;
}

struct job_result *results_get(const struct results *r, unsigned job,
			       unsigned repeat)
{
	return &r->runs[(size_t)job * r->max_repeat + repeat];
}

static void summarise_job(struct job_result *jr)
{
	unsigned n = jr->pj->spec->numjobs;
	bool any = false;

	jr->status = RUN_OK;
	jr->info = "";
	hist_init(&jr->lat);
	jr->start_ns = UINT64_MAX;
	jr->end_ns = 0;
	for (unsigned c = 0; c < n; c++) {
		const struct thread_result *t = &jr->threads[c];

		if (t->status == RUN_NOT_RUN) {
			jr->status = jr->status == RUN_OK ? RUN_NOT_RUN
							  : jr->status;
			continue;
		}
		if (t->status == RUN_FAILED)
			jr->status = RUN_FAILED;
		else if (t->status == RUN_INTERRUPTED &&
			 jr->status != RUN_FAILED)
			jr->status = RUN_INTERRUPTED;
		if (!t->end_ns)
			continue;
		any = true;
		if (t->start_ns < jr->start_ns)
			jr->start_ns = t->start_ns;
		if (t->end_ns > jr->end_ns)
			jr->end_ns = t->end_ns;
		jr->bytes += t->bytes;
		jr->write_bytes += t->write_bytes;
		jr->ops += t->ops;
		jr->usr_ns += t->usr_ns;
		jr->sys_ns += t->sys_ns;
		jr->minflt += t->minflt;
		jr->majflt += t->majflt;
		jr->vcsw += t->vcsw;
		jr->ivcsw += t->ivcsw;
		jr->result += t->result;
		jr->items += t->items;
		if (t->ncounters && !jr->ncounters) {
			memcpy(jr->counters, t->counters,
			       t->ncounters * sizeof(*t->counters));
			jr->ncounters = t->ncounters;
		} else if (t->ncounters == jr->ncounters) {
			counters_merge(jr->counters, t->counters,
				       t->ncounters);
		}
		jr->emulated |= t->emulated;
		if (t->lat)
			hist_merge(&jr->lat, t->lat);
		first_touch_merge(&jr->touch, &t->touch);
		if (!jr->info[0])
			jr->info = t->info;
	}
	if (!any) {
		jr->start_ns = jr->end_ns = 0;
		return;
	}
	jr->elapsed_ns = jr->end_ns - jr->start_ns;
	if (jr->elapsed_ns) {
		jr->gbps = (double)jr->bytes / (double)jr->elapsed_ns;
		jr->ops_per_s = (double)jr->ops * 1e9 / (double)jr->elapsed_ns;
	}
	/* ns per item of one thread: with clones running side by side the
	 * time is shared, so use each clone's own window, averaged. */
	if (jr->items) {
		double sum = 0;
		unsigned k = 0;

		for (unsigned c = 0; c < n; c++) {
			const struct thread_result *t = &jr->threads[c];

			if (t->items && t->end_ns > t->start_ns) {
				sum += (double)(t->end_ns - t->start_ns) /
				       (double)t->items;
				k++;
			}
		}
		jr->ns_per_item = k ? sum / k : 0;
		jr->cpu_ns_per_item = (double)(jr->usr_ns + jr->sys_ns) /
				      (double)jr->items;
	}
}

void results_summarise(struct results *r)
{
	for (unsigned j = 0; j < r->plan->njobs; j++)
		for (unsigned k = 0; k < r->max_repeat; k++)
			summarise_job(results_get(r, j, k));
}

void results_free(struct results *r)
{
	if (!r->runs)
		return;
	for (unsigned j = 0; j < r->plan->njobs; j++)
		for (unsigned k = 0; k < r->max_repeat; k++) {
			struct job_result *jr = results_get(r, j, k);

			for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
				free(jr->threads[c].lat);
			free(jr->threads);
		}
	free(r->runs);
	r->runs = NULL;
	for (unsigned j = 0; r->where && j < r->plan->njobs; j++)
		free(r->where[j]);
	free(r->where);
	free(r->devidx);
	r->where = NULL;
	r->devidx = NULL;
}
