/*
 * interference.c - metrics, baselines, slowdowns and their table (see
 * interference.h).
 */
#include <stdio.h>
#include <string.h>

#include "interference.h"
#include "kernel.h"
#include "stats.h"

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
	return m;
}

static unsigned runs_of(const struct results *r, unsigned idx)
{
	return r->plan->segments[r->plan->jobs[idx].segment].repeat;
}

/* The metric of each OK repeat of job idx into v; returns how many. */
static unsigned metric_values(const struct results *r, unsigned idx,
			      double *v, unsigned max)
{
	unsigned n = 0;

	for (unsigned k = 0; k < runs_of(r, idx) && n < max; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		if (jr->status == RUN_OK)
			v[n++] = job_metric(jr).value;
	}
	return n;
}

double metric_median(const struct results *r, unsigned idx)
{
	double v[1000];
	unsigned n = metric_values(r, idx, v, 1000);

	return stat_summarise(v, n).median;
}

double slowdown_pct(double alone, double loaded, bool lower_is_better)
{
	if (alone <= 0 || loaded <= 0)
		return 0;
	if (lower_is_better)
		return (loaded - alone) / alone * 100.0;
	return (alone / loaded - 1.0) * 100.0;
}

bool row_slowdown(const struct results *r, const struct job_result *jr,
		  double *baseline, double *slowdown)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m;

	if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
	    j->baseline < 0 || jr->status != RUN_OK)
		return false;
	m = job_metric(jr);
	*baseline = metric_median(r, (unsigned)j->baseline);
	if (*baseline <= 0)
		return false;
	*slowdown = slowdown_pct(*baseline, m.value, m.lower_is_better);
	return true;
}

/* GB/s of the aggressors that ran with loaded victim idx: median over
 * repeats of their summed throughput. */
static double aggressor_gbps(const struct results *r, unsigned idx)
{
	const struct plan *p = r->plan;
	unsigned seg = p->jobs[idx].segment;
	const struct segment *sg = &p->segments[seg];
	double v[1000];
	unsigned n = 0;

	for (unsigned k = 0; k < sg->repeat && n < 1000; k++) {
		double sum = 0;

		for (unsigned i = sg->first; i < sg->first + sg->count; i++)
			if (p->jobs[i].spec->role == ROLE_AGGRESSOR)
				sum += results_get(r, i, k)->gbps;
		v[n++] = sum;
	}
	return stat_summarise(v, n).median;
}

static unsigned aggressor_threads(const struct results *r, unsigned idx)
{
	const struct plan *p = r->plan;
	const struct segment *sg = &p->segments[p->jobs[idx].segment];
	unsigned t = 0;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		if (p->jobs[i].spec->role == ROLE_AGGRESSOR)
			t += p->jobs[i].spec->numjobs;
	return t;
}

static void victim_table(FILE *f, const struct results *r, const char *name)
{
	const struct plan *p = r->plan;
	bool header = false;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		double alone[1000], loaded[1000], slow[1000];
		struct stat_summary a, l, s;
		unsigned na, nl;
		struct metric m;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
		    strcmp(j->name, name) || j->baseline < 0)
			continue;
		m = job_metric(results_get(r, i, 0));
		na = metric_values(r, (unsigned)j->baseline, alone, 1000);
		nl = metric_values(r, i, loaded, 1000);
		if (!header) {
			fprintf(f, "\ninterference: victim '%s', %s (%s is "
				"better); slowdown %% = %s\n", name, m.label,
				m.lower_is_better ? "lower" : "higher",
				m.lower_is_better ? "(loaded - alone) / alone"
						  : "alone / loaded - 1");
			fprintf(f, "  %-32s %-24s %-24s %-22s %s\n", "point",
				"alone (min-max)", "loaded (min-max)",
				"slowdown % (min..max)", "aggressors");
			header = true;
		}
		a = stat_summarise(alone, na);
		l = stat_summarise(loaded, nl);
		for (unsigned k = 0; k < nl; k++)
			slow[k] = slowdown_pct(a.median, loaded[k],
					       m.lower_is_better);
		s = stat_summarise(slow, nl);
		if (!na || !nl) {
			fprintf(f, "  %-32s (a run failed: no figures)\n",
				j->point_label ? j->point_label : "-");
			continue;
		}
		char ab[64], lb[64], sb[64];

		snprintf(ab, sizeof(ab), "%.2f (%.2f-%.2f)", a.median, a.min,
			 a.max);
		snprintf(lb, sizeof(lb), "%.2f (%.2f-%.2f)", l.median, l.min,
			 l.max);
		snprintf(sb, sizeof(sb), "%+.2f (%+.2f..%+.2f)",
			 slowdown_pct(a.median, l.median, m.lower_is_better),
			 s.min, s.max);
		fprintf(f, "  %-32s %-24s %-24s %-22s %u thread%s, %.2f GB/s\n",
			j->point_label ? j->point_label : "-", ab, lb, sb,
			aggressor_threads(r, i),
			aggressor_threads(r, i) == 1 ? "" : "s",
			aggressor_gbps(r, i));
	}
}

void interference_table(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		bool seen = false;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM)
			continue;
		for (unsigned k = 0; k < i; k++)
			if (p->jobs[k].spec->phase == PHASE_LOADED &&
			    p->jobs[k].spec->role == ROLE_VICTIM &&
			    !strcmp(p->jobs[k].spec->name, j->name))
				seen = true;
		if (!seen)
			victim_table(f, r, j->name);
	}
}
