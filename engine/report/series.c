/*
 * series.c - the order of a job's runs and its warm-up outlier (see
 * series.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/series.h"

const char *series_order(const struct results *r, unsigned idx)
{
	return plan_interleaved(r->plan, r->plan->jobs[idx].segment) ?
	       "interleaved" : "grouped";
}

struct warmup series_warmup(const struct results *r, unsigned idx)
{
	unsigned reps = results_repeats(r, idx), n = 0;
	struct warmup w = { 0 };
	double *cost;

	if (reps < 3 || results_get(r, idx, 0)->status != RUN_OK)
		return w;
	cost = malloc(reps * sizeof(*cost));
	if (!cost)
		return w;
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);
		struct metric m = job_metric(jr);

		if (jr->status != RUN_OK || m.value <= 0) {
			if (!k)
				break;	/* the first run has no figure */
			continue;
		}
		cost[n++] = m.lower_is_better ? m.value : 1 / m.value;
	}
	if (n)
		w = stat_warmup(cost, n);
	free(cost);
	return w;
}

/* The rounds block b ran: the most repeats of its segments. */
static unsigned block_rounds(const struct results *r, unsigned b)
{
	const struct plan *p = r->plan;
	unsigned rounds = 0;

	for (unsigned s = b; s < p->nsegments && p->segments[s].block == b;
	     s++)
		if (r->repeats[s] > rounds)
			rounds = r->repeats[s];
	return rounds;
}

/* The jobs of the blocks of more than one round that are (or are not)
 * interleaved, "a, b, c", at most four named; *most gets their most
 * rounds.  Returns how many. */
static unsigned name_jobs(FILE *f, const struct results *r, bool inter,
			  unsigned *most)
{
	const struct plan *p = r->plan;
	unsigned all = 0;

	*most = 0;
	for (unsigned i = 0; i < p->njobs; i++) {
		unsigned s = p->jobs[i].segment;
		unsigned rounds = block_rounds(r, p->segments[s].block);

		bool seen = false;

		if (rounds < 2 || plan_interleaved(p, s) != inter)
			continue;
		for (unsigned k = 0; k < i && !seen; k++)	/* sweep points */
			seen = !strcmp(p->jobs[k].spec->name,
				       p->jobs[i].spec->name) &&
			       plan_interleaved(p, p->jobs[k].segment) == inter &&
			       block_rounds(r, p->segments[p->jobs[k].segment]
						.block) >= 2;
		if (seen)
			continue;
		if (all < 4 && f)
			fprintf(f, "%s%s", all ? ", " : "", p->jobs[i].spec->name);
		if (rounds > *most)
			*most = rounds;
		all++;
	}
	if (all > 4 && f)
		fprintf(f, " and %u more", all - 4);
	return all;
}

void series_order_line(FILE *f, const struct results *r)
{
	unsigned rounds, inter = name_jobs(NULL, r, true, &rounds);
	unsigned grouped = name_jobs(NULL, r, false, &rounds);

	if (!inter && !grouped)
		return;
	fputs("repeats: ", f);
	if (inter) {
		fputs("interleaved, one run of each job per round: ", f);
		name_jobs(f, r, true, &rounds);
		fprintf(f, " (%u rounds)%s", rounds, grouped ? "; " : "");
	}
	if (grouped) {
		fputs("grouped, each job's repeats back to back: ", f);
		name_jobs(f, r, false, &rounds);
		fprintf(f, " (up to %u each)", rounds);
	}
	fputc('\n', f);
}
