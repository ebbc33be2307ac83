/*
 * uncorerun.c - a segment's uncore events (see uncorerun.h).
 */
#include <stdlib.h>

#include "run/uncorerun.h"

void uncore_seg_open(struct uncore_seg *us, const struct plan *p,
		     const struct segment *sg, const char *root)
{
	us->count = sg->count;
	us->u = NULL;
	for (unsigned k = 0; k < sg->count; k++) {
		const struct job_spec *j = p->jobs[sg->first + k].spec;

		if (j->perf_none || !uncore_wanted(j->perf.ids, j->perf.n))
			continue;
		if (!us->u &&
		    !(us->u = calloc(sg->count, sizeof(struct uncore *))))
			return;		/* out of memory: not counted */
		us->u[k] = uncore_open(j->perf.ids, j->perf.n, root);
	}
}

void uncore_seg_start(struct uncore_seg *us)
{
	for (unsigned k = 0; us->u && k < us->count; k++)
		uncore_start(us->u[k]);
}

void uncore_seg_end(struct uncore_seg *us, struct results *r,
		    const struct segment *sg, unsigned repeat)
{
	for (unsigned k = 0; us->u && k < us->count; k++) {
		struct job_result *jr = results_get(r, sg->first + k, repeat);

		if (!us->u[k])
			continue;
		uncore_stop(us->u[k]);
		uncore_read(us->u[k], jr->uncore, &jr->nuncore);
		uncore_close(us->u[k]);
	}
	free(us->u);
	us->u = NULL;
}
