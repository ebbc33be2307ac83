/*
 * groups.c - a reporting group's figures over one repeat (report_int.h):
 * computed once here for the normal report and the JSON document alike.
 */
#include <stdint.h>

#include "kernels/kernel.h"
#include "report/report_int.h"

void group_totals_each(const struct results *r,
		       void (*fn)(void *user, const struct group_total *g),
		       void *user)
{
	const struct plan *p = r->plan;

	for (unsigned g = 0; g < p->ngroups; g++) {
		struct group_total t = { .group = g, .repeats = 1 };

		for (unsigned i = 0; i < p->njobs; i++)
			if (p->jobs[i].group == g) {
				t.jobs++;
				t.data_jobs += kernel_measures_rate(
					p->jobs[i].spec->kernel);
				t.threads += p->jobs[i].spec->numjobs;
				t.repeats = results_repeats(r, i);
			}
		if (t.jobs < 2)
			continue;
		for (t.repeat = 0; t.repeat < t.repeats; t.repeat++) {
			uint64_t start = UINT64_MAX, end = 0;

			t.bytes = 0;
			for (unsigned i = 0; i < p->njobs; i++) {
				const struct job_result *jr;

				if (p->jobs[i].group != g)
					continue;
				jr = results_get(r, i, t.repeat);
				if (!jr->end_ns)
					continue;
				if (kernel_measures_rate(
					    p->jobs[i].spec->kernel))
					t.bytes += jr->bytes;
				if (jr->start_ns < start)
					start = jr->start_ns;
				if (jr->end_ns > end)
					end = jr->end_ns;
			}
			if (!end)
				continue;
			t.elapsed_ns = end - start;
			t.gbps = end > start ?
				 fig_fixed((double)t.bytes / (end - start),
					   RESULT_GBPS_DECIMALS) : 0.0;
			fn(user, &t);
		}
	}
}
