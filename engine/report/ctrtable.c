/*
 * ctrtable.c - the counters' table of an experiment: for each job that
 * named its events (an event set such as @llc, or events by name), the
 * median of each event over the job's runs, per point (alone, each
 * loaded point, each swept value), per item where the kernel counts
 * items (a victim's accesses, a code walk's calls), else per run.
 *
 * It says which events the set became on this machine (the vendor's
 * row, or perf's generic events and why), and where none of them could
 * be counted (a VM without a PMU) it says so in one line instead of a
 * table of empty columns: the run itself goes on without them.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "machine/evsets.h"
#include "machine/pmu.h"
#include "report/ctrtable.h"
#include "util/stats.h"

#define MAX_RUNS	256	/* a point's runs the median is taken over */

/* Did the job name its events (a set, or one by a vendor's name)? */
static bool names_events(const struct job_spec *j)
{
	if (j->perf_none)
		return false;
	if (j->perf.has_set)
		return true;
	for (unsigned k = 0; k < j->perf.n; k++)
		if (j->perf.ids[k] >= CTR_NEVENTS)
			return true;
	return false;
}

static const struct counter_value *value_in(const struct job_result *jr,
					    const char *name)
{
	return counters_value(jr->counters, jr->ncounters, name);
}

/* The median over job's runs of event name (per item when the kernel
 * counts them); false when a run did not count it. */
static bool point_median(const struct results *r, unsigned job,
			 const char *name, double *out)
{
	double v[MAX_RUNS];
	unsigned n = 0, reps = results_repeats(r, job);
	bool per_item = r->plan->jobs[job].spec->kernel->flags & KERN_ITEMS;

	for (unsigned k = 0; k < reps && n < MAX_RUNS; k++) {
		const struct job_result *jr = results_get(r, job, k);
		const struct counter_value *cv = value_in(jr, name);

		if (jr->status != RUN_OK)
			continue;
		if (!cv || cv->status != COUNTER_OK ||
		    (per_item && !jr->items))
			return false;
		v[n++] = per_item ? (double)cv->value / (double)jr->items
				  : (double)cv->value;
	}
	if (!n)
		return false;
	*out = stat_summarise(v, n).median;
	return true;
}

/* Which events the set became here, and why, in one line. */
static void say_set(FILE *f, const struct job_spec *j)
{
	const struct evset_row *row = evsets_get(j->perf.set, j->perf.row);
	const char *core = pmu_core(), *why, *fix;

	fprintf(f, "  @%s here: %s", evsets_name(j->perf.set), row->family);
	if (row->note)
		fprintf(f, ", %s", row->note);
	else if (!pmu_built(&why, &fix))
		fprintf(f, " (this memjob has no libpfm4: %s)", fix);
	else if (!core)
		fputs(" (no hardware PMU is exposed to this machine)", f);
	else if (j->perf.row == evsets_row(j->perf.set, core))
		fprintf(f, " (no row for this machine's PMU, %s)", core);
	else
		fprintf(f, " (the row for %s did not encode with this "
			"libpfm4)", core);
	fputc('\n', f);
}

/* One line per point of the jobs named name; counted[k] is set for the
 * events counted at some point. */
static void points(FILE *f, const struct results *r, const char *name,
		   const struct job_spec *first, bool *counted)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const char *label = j->phase == PHASE_ALONE ? "alone" :
				    j->point_label ? j->point_label : "-";
		bool any = false;

		if (strcmp(j->name, name))
			continue;
		for (unsigned k = 0; k < first->perf.n; k++) {
			const char *ev = counters_name(first->perf.ids[k]);
			double m;

			if (!point_median(r, i, ev, &m))
				continue;
			if (!any)
				fprintf(f, "  %-32s", label);
			fprintf(f, "%s %s %.4g", any ? "," : "", ev, m);
			any = true;
			counted[k] = true;
		}
		if (any)
			fputc('\n', f);
	}
}

/* Why event name was not counted in a run of the jobs named job. */
static const char *why_not(const struct results *r, const char *job,
			   const char *name)
{
	for (unsigned i = 0; i < r->plan->njobs; i++)
		for (unsigned k = 0; k < results_repeats(r, i); k++) {
			const struct job_result *jr = results_get(r, i, k);
			const struct counter_value *cv = value_in(jr, name);

			if (strcmp(r->plan->jobs[i].spec->name, job) || !cv ||
			    cv->status == COUNTER_OK)
				continue;
			return cv->why[0] ? cv->why :
			       counters_status_name(cv->status);
		}
	return "no run counted it to its end";
}

/* The events no point counted: one line per reason. */
static void absent(FILE *f, const struct results *r, const char *name,
		   const struct job_spec *first, const bool *counted)
{
	for (unsigned k = 0; k < first->perf.n; k++) {
		const char *why = why_not(r, name,
					  counters_name(first->perf.ids[k]));
		bool said = false;

		if (counted[k])
			continue;
		for (unsigned m = 0; m < k && !said; m++)
			said = !counted[m] &&
			       !strcmp(why, why_not(r, name, counters_name(
						    first->perf.ids[m])));
		if (said)
			continue;
		fprintf(f, "  counter columns absent (%s):", why);
		for (unsigned m = k; m < first->perf.n; m++)
			if (!counted[m] &&
			    !strcmp(why, why_not(r, name, counters_name(
						 first->perf.ids[m]))))
				fprintf(f, " %s",
					counters_name(first->perf.ids[m]));
		fputc('\n', f);
	}
}

void counters_table(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct kernel_ops *k = j->kernel;
		bool seen = false;

		for (unsigned m = 0; m < i && !seen; m++)
			seen = !strcmp(p->jobs[m].spec->name, j->name);
		if (seen || !names_events(j))
			continue;
		fprintf(f, "\ncounters: job '%s', median of the runs, per %s\n",
			j->name, k->flags & KERN_ITEMS && k->item_name ?
			k->item_name : k->flags & KERN_ITEMS ? "item" : "run");
		if (j->perf.has_set)
			say_set(f, j);
		bool counted[COUNTERS_MAX] = { false };

		points(f, r, j->name, j, counted);
		absent(f, r, j->name, j, counted);
	}
}
