/*
 * result.c - storage for measurements, and the sums over clones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "run/result.h"
#include "util/row.h"

void thread_fail(struct thread_result *out, const char *fmt, const char *a,
		 int err)
{
	out->status = RUN_FAILED;
	snprintf(out->err, sizeof(out->err), fmt, a, strerror(err));
}

/* Repeats [from, to) of job j, fresh. */
static int init_runs(struct results *r, unsigned j, unsigned from,
		     unsigned to)
{
	const struct planned_job *pj = &r->plan->jobs[j];

	for (unsigned k = from; k < to; k++) {
		struct job_result *jr = &r->runs[j][k];

		jr->pj = pj;
		jr->repeat = k;
		jr->threads = calloc(pj->spec->numjobs, sizeof(*jr->threads));
		if (!jr->threads)
			return -1;
	}
	return 0;
}

int results_init(struct results *r, const struct plan *p)
{
	unsigned n = 1;

	memset(r, 0, sizeof(*r));
	r->plan = p;
	for (unsigned s = 0; s < p->nsegments; s++)
		if (p->segments[s].repeat > n)
			n = p->segments[s].repeat;
	r->runs = calloc(p->njobs ? p->njobs : 1, sizeof(struct job_result *));
	r->repeats = calloc(p->nsegments ? p->nsegments : 1,
			    sizeof(*r->repeats));
	r->prec = calloc(p->njobs ? p->njobs : 1, sizeof(*r->prec));
	r->devidx = calloc(p->njobs ? p->njobs : 1, sizeof(*r->devidx));
	r->where = calloc(p->njobs ? p->njobs : 1, sizeof(*r->where));
	r->rate_base = calloc(p->njobs ? p->njobs : 1, sizeof(*r->rate_base));
	if (!r->runs || !r->repeats || !r->prec || !r->devidx || !r->where ||
	    !r->rate_base)
		return -1;
	for (unsigned s = 0; s < p->nsegments; s++)
		r->repeats[s] = p->segments[s].repeat;
	for (unsigned j = 0; j < p->njobs; j++) {
		const struct job_spec *js = p->jobs[j].spec;

		r->devidx[j] = -1;
		if (js->phase == PHASE_LOADED && js->role == ROLE_VICTIM &&
		    js->baseline >= 0 && js->precision_pct > 0) {
			r->prec[j].state = PRECISION_RUNNING;
			r->prec[j].target = js->precision_pct;
		}
	}
	return results_reserve(r, n);
}

int results_reserve(struct results *r, unsigned n)
{
	unsigned had = r->max_repeat, want = had ? had : n;

	if (n <= had)
		return 0;
	while (want < n)	/* doubling: precision= adds one at a time */
		want *= 2;
	/* every array first, so a failure leaves max_repeat true */
	for (unsigned j = 0; j < r->plan->njobs; j++) {
		struct job_result *g = realloc(r->runs[j],
					       (size_t)want * sizeof(*g));

		if (!g)
			return -1;
		memset(g + had, 0, (size_t)(want - had) * sizeof(*g));
		r->runs[j] = g;
	}
	r->max_repeat = want;
	for (unsigned j = 0; j < r->plan->njobs; j++)
		if (init_runs(r, j, had, want))
			return -1;
	return 0;
}

struct job_result *results_get(const struct results *r, unsigned job,
			       unsigned repeat)
{
	return &r->runs[job][repeat];
}

unsigned results_repeats(const struct results *r, unsigned job)
{
	return r->repeats[r->plan->jobs[job].segment];
}

struct metric job_metric(const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m;

	if ((j->kernel->flags & KERN_PROGRAM) &&
	    !(j->kernel->flags & KERN_ITEMS)) {
		m.name = "elapsed_s";
		snprintf(m.label, sizeof(m.label), "seconds");
		m.value = jr->elapsed_ns / 1e9;
		m.lower_is_better = true;
	} else if (j->kernel->flags & KERN_ITEMS) {
		m.name = "ns_per_item";
		snprintf(m.label, sizeof(m.label), "ns per %s",
			 j->kernel->item_name ? j->kernel->item_name : "item");
		m.value = jr->ns_per_item;
		m.lower_is_better = true;
	} else {
		m.name = "gbps";
		snprintf(m.label, sizeof(m.label), "GB/s");
		m.value = jr->gbps;
		m.lower_is_better = false;
	}
	m.value = fig_sig(m.value, METRIC_DIGITS);
	return m;
}

struct metric job_cpu_metric(const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	double cpu = (double)(jr->usr_ns + jr->sys_ns);
	struct metric m = { .lower_is_better = true };

	if ((j->kernel->flags & KERN_PROGRAM) &&
	    !(j->kernel->flags & KERN_ITEMS)) {
		m.name = "cpu_s";
		snprintf(m.label, sizeof(m.label), "CPU seconds");
		m.value = cpu / 1e9;
	} else if (j->kernel->flags & KERN_ITEMS) {
		m.name = "cpu_ns_per_item";
		snprintf(m.label, sizeof(m.label), "CPU ns per %s",
			 j->kernel->item_name ? j->kernel->item_name : "item");
		m.value = jr->items ? cpu / (double)jr->items : 0;
	} else {
		m.name = "cpu_s_per_gb";
		snprintf(m.label, sizeof(m.label), "CPU s per GB");
		m.value = jr->bytes ? cpu / (double)jr->bytes : 0;
	}
	m.value = fig_sig(m.value, METRIC_DIGITS);
	return m;
}

static unsigned values_of(const struct results *r, unsigned job,
			  unsigned n, double *v, unsigned max,
			  struct metric (*of)(const struct job_result *))
{
	unsigned got = 0;

	if (n > results_repeats(r, job))
		n = results_repeats(r, job);
	for (unsigned k = 0; k < n && got < max; k++) {
		const struct job_result *jr = results_get(r, job, k);

		if (jr->status == RUN_OK)
			v[got++] = of(jr).value;
	}
	return got;
}

unsigned results_metric_values(const struct results *r, unsigned job,
			       unsigned n, double *v, unsigned max)
{
	return values_of(r, job, n, v, max, job_metric);
}

unsigned results_cpu_values(const struct results *r, unsigned job,
			    unsigned n, double *v, unsigned max)
{
	return values_of(r, job, n, v, max, job_cpu_metric);
}

bool results_point_interval(const struct results *r, unsigned job,
			    struct interval *iv)
{
	const struct job_spec *j = r->plan->jobs[job].spec;
	unsigned n = results_repeats(r, job), na, nl;
	double *alone, *loaded;

	if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
	    j->baseline < 0)
		return false;
	alone = malloc((n + 1) * sizeof(*alone));
	loaded = malloc((n + 1) * sizeof(*loaded));
	iv->status = INTERVAL_BAD;
	if (alone && loaded) {
		na = results_metric_values(r, (unsigned)j->baseline, n, alone,
					   n);
		nl = results_metric_values(r, job, n, loaded, n);
		*iv = interval_slowdown(alone, na, loaded, nl,
					job_metric(results_get(r, job, 0))
					.lower_is_better);
	}
	free(alone);
	free(loaded);
	return true;
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
		jr->cut_short |= t->cut_short;
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
		jr->io_cpu_ns += t->io_cpu_ns;
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
	for (unsigned u = 0; u < jr->nuncore && jr->ncounters < COUNTERS_MAX;
	     u++)
		jr->counters[jr->ncounters++] = jr->uncore[u];
	if (!any) {
		jr->start_ns = jr->end_ns = 0;
		return;
	}
	jr->elapsed_ns = jr->end_ns - jr->start_ns;
	if (jr->elapsed_ns) {
		jr->gbps = fig_fixed((double)jr->bytes /
				     (double)jr->elapsed_ns,
				     RESULT_GBPS_DECIMALS);
		jr->ops_per_s = fig_fixed((double)jr->ops * 1e9 /
					  (double)jr->elapsed_ns,
					  RESULT_RATE_DECIMALS);
	}
	/* ns per item of one thread: with clones running side by side the
	 * time is shared, so the clones' own windows, summed, over their
	 * items, summed (a clone that ran briefly weighs as little as it
	 * counted, not as much as one that ran throughout) */
	if (jr->items) {
		uint64_t ns = 0, items = 0;

		for (unsigned c = 0; c < n; c++) {
			const struct thread_result *t = &jr->threads[c];

			if (t->items && t->end_ns > t->start_ns) {
				ns += t->end_ns - t->start_ns;
				items += t->items;
			}
		}
		jr->ns_per_item = fig_fixed(items ? (double)ns / (double)items
						  : 0, RESULT_NS_DECIMALS);
		jr->cpu_ns_per_item = fig_fixed((double)(jr->usr_ns +
							 jr->sys_ns) /
						(double)jr->items,
						RESULT_NS_DECIMALS);
	}
	for (unsigned c = 0; c < n; c++)
		jr->short_clones += clone_ran_short(jr, c);
}

bool clone_ran_short(const struct job_result *jr, unsigned c)
{
	const struct thread_result *t = &jr->threads[c];
	uint64_t longest = 0;

	if (jr->pj->spec->numjobs < 2 || !t->end_ns)
		return false;
	for (unsigned k = 0; k < jr->pj->spec->numjobs; k++) {
		const struct thread_result *o = &jr->threads[k];

		if (o->end_ns && o->end_ns - o->start_ns > longest)
			longest = o->end_ns - o->start_ns;
	}
	return (double)(t->end_ns - t->start_ns) <
	       CLONE_SHORT_FRAC * (double)longest;
}

void results_summarise_run(struct results *r, unsigned job, unsigned repeat)
{
	struct job_result *jr = results_get(r, job, repeat);

	if (!jr->summarised)
		summarise_job(jr);
	jr->summarised = true;
}

void results_summarise(struct results *r)
{
	for (unsigned j = 0; j < r->plan->njobs; j++)
		for (unsigned k = 0; k < r->max_repeat; k++)
			results_summarise_run(r, j, k);
}

void results_free(struct results *r)
{
	if (!r->runs)
		return;
	for (unsigned j = 0; j < r->plan->njobs; j++) {
		for (unsigned k = 0; r->runs[j] && k < r->max_repeat; k++) {
			struct job_result *jr = results_get(r, j, k);

			if (!jr->pj)
				continue;
			for (unsigned c = 0; jr->threads &&
			     c < jr->pj->spec->numjobs; c++)
				free(jr->threads[c].lat);
			free(jr->threads);
		}
		free(r->runs[j]);
	}
	free(r->runs);
	r->runs = NULL;
	free(r->repeats);
	free(r->prec);
	r->repeats = NULL;
	r->prec = NULL;
	for (unsigned j = 0; r->where && j < r->plan->njobs; j++)
		free(r->where[j]);
	free(r->where);
	free(r->devidx);
	free(r->rate_base);
	r->where = NULL;
	r->devidx = NULL;
	r->rate_base = NULL;
}
