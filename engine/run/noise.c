/*
 * noise.c - the host's noise per job run and per run (see noise.h).
 *
 * The one idea: a job's CPUs are those its threads were bound to, or,
 * for a thread not bound to one, every CPU the process may run on; the
 * steal of those CPUs between the release and the join is the job's.  The
 * run's figure sums the segments' ticks over the union of their jobs'
 * CPUs, so that jobs sharing a CPU do not count it twice, and the waits
 * of every run but the loaded ones of interference segments.
 */
#include "run/noise.h"

#include <stdlib.h>

void noise_job_cpus(const struct job_result *jr, unsigned nthreads,
		    cpu_set_t *set)
{
	for (unsigned c = 0; c < nthreads; c++) {
		int cpu = jr->threads[c].cpu;

		if (cpu >= 0 && cpu < HOSTNOISE_MAX_CPUS) {
			CPU_SET((unsigned)cpu, set);
		} else {
			cpu_set_t any;

			CPU_ZERO(&any);
			if (!sched_getaffinity(0, sizeof(any), &any))
				CPU_OR(set, set, &any);
		}
	}
}

void noise_seg_begin(struct noise_seg *ns, const char *root,
		     const struct results *r, const struct segment *sg,
		     unsigned repeat)
{
	const struct plan *p = r->plan;

	CPU_ZERO(&ns->cpus);
	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		noise_job_cpus(results_get(r, i, repeat),
			       p->jobs[i].spec->numjobs, &ns->cpus);
	ns->before = malloc(sizeof(*ns->before));
	if (ns->before)
		hostnoise_snap(root, &ns->cpus, ns->before);
}

void noise_seg_end(struct noise_seg *ns, const char *root,
		   struct results *r, const struct segment *sg,
		   unsigned repeat)
{
	const struct plan *p = r->plan;
	struct hostnoise_snap *after = malloc(sizeof(*after));
	struct hostnoise seg = { 0 };

	if (!ns->before || !after)
		goto out;
	hostnoise_snap(root, &ns->cpus, after);
	hostnoise_set_steal(&seg, hostnoise_ticks(ns->before, after,
						  &ns->cpus));
	hostnoise_set_freq(&seg, ns->before, after, &ns->cpus);
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		struct job_result *jr = results_get(r, i, repeat);
		unsigned nthreads = p->jobs[i].spec->numjobs;
		struct hostnoise *n = &jr->noise;
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		noise_job_cpus(jr, nthreads, &cpus);
		*n = (struct hostnoise){ 0 };
		hostnoise_set_steal(n, hostnoise_ticks(ns->before, after,
						       &cpus));
		hostnoise_set_freq(n, ns->before, after, &cpus);
		for (unsigned c = 0; c < nthreads; c++) {
			const struct thread_result *tr = &jr->threads[c];

			if (tr->have_wait)
				hostnoise_add_wait(n, tr->wait_ns,
						   tr->wait_span_ns);
		}
		/* loaded, the wait is the aggressors' doing: the effect
		 * measured, not the host's noise */
		if (n->have_wait && p->jobs[i].spec->phase != PHASE_LOADED)
			hostnoise_add_wait(&seg, n->wait_ns, n->span_ns);
	}
	hostnoise_merge(&r->noise, &seg);
out:
	free(after);
	free(ns->before);
	ns->before = NULL;
}
