/*
 * ctrtable.c - the counters' table of an experiment: for the jobs that
 * named their events (an event set such as @llc, or events by name),
 * the median of each event over a job's runs, a line per job and point
 * (alone, each loaded point, each swept value), per item where the
 * kernel counts items (a victim's accesses, a code walk's calls), else
 * per run.  Jobs that asked for the same events share one table.
 *
 * It says which events a set became on this machine (the vendor's row,
 * or perf's generic events and why), and where an event could be counted
 * at no point (a VM without a PMU) its column is left out and one line
 * says why, instead of a column of dashes: the run itself goes on
 * without it.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "machine/evsets.h"
#include "machine/pmu.h"
#include "report/ctrtable.h"
#include "report/report_int.h"
#include "util/stats.h"
#include "util/texttable.h"

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

/* Did a and b ask for the same events (the same set, the same row)? */
static bool same_events(const struct job_spec *a, const struct job_spec *b)
{
	return a->perf.n == b->perf.n && a->perf.has_set == b->perf.has_set &&
	       (!a->perf.has_set || (a->perf.set == b->perf.set &&
				     a->perf.row == b->perf.row)) &&
	       !memcmp(a->perf.ids, b->perf.ids,
		       a->perf.n * sizeof(a->perf.ids[0]));
}

/* What a job's counts are per: its kernel's item, or a run. */
static const char *per_what(const struct job_spec *j)
{
	const struct kernel_ops *k = j->kernel;

	if (!(k->flags & KERN_ITEMS))
		return "run";
	return k->item_name ? k->item_name : "item";
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

/* Why event name was not counted in a run of the table's jobs (in[i]:
 * job i is in it). */
static const char *why_not(const struct results *r, const bool *in,
			   const char *name)
{
	for (unsigned i = 0; i < r->plan->njobs; i++)
		for (unsigned k = 0; in[i] && k < results_repeats(r, i); k++) {
			const struct job_result *jr = results_get(r, i, k);
			const struct counter_value *cv = value_in(jr, name);

			if (!cv || cv->status == COUNTER_OK)
				continue;
			return cv->why[0] ? cv->why :
			       counters_status_name(cv->status);
		}
	return "no run counted it to its end";
}

/* The events no point counted: one line per reason. */
static void absent(FILE *f, const struct results *r, const bool *in,
		   const struct counter_list *ev, const bool *counted)
{
	const char *why[COUNTERS_MAX];

	for (unsigned k = 0; k < ev->n; k++)
		why[k] = counted[k] ? NULL :
			 why_not(r, in, counters_name(ev->ids[k]));
	for (unsigned k = 0; k < ev->n; k++) {
		bool said = false;

		if (!why[k])
			continue;
		for (unsigned m = 0; m < k && !said; m++)
			said = why[m] && !strcmp(why[k], why[m]);
		if (said)
			continue;
		fprintf(f, "  counter columns absent (%s):", why[k]);
		for (unsigned m = k; m < ev->n; m++)
			if (why[m] && !strcmp(why[k], why[m]))
				fprintf(f, " %s", counters_name(ev->ids[m]));
		fputc('\n', f);
	}
}

/* A median as a cell: whole numbers from 100 up, else 3 digits. */
static void add_value(struct text_table *t, double v)
{
	if (v >= 100)
		text_table_addf(t, "%.0f", v);
	else
		text_table_addf(t, "%.3g", v);
}

/* The table of the jobs in[]; first is the first of them. */
static void one_table(FILE *f, const struct results *r, const bool *in,
		      const struct job_spec *first)
{
	const struct plan *p = r->plan;
	const struct counter_list *ev = &first->perf;
	bool counted[COUNTERS_MAX] = { false }, mixed = false;
	unsigned ncol = 0, col[COUNTERS_MAX], lead;
	struct text_table *t = NULL;
	char align[COUNTERS_MAX + 3];
	double m;

	for (unsigned i = 0; i < p->njobs; i++) {
		if (!in[i])
			continue;
		mixed |= strcmp(per_what(p->jobs[i].spec), per_what(first));
		for (unsigned k = 0; k < ev->n; k++)
			counted[k] |= point_median(r, i,
						   counters_name(ev->ids[k]),
						   &m);
	}
	fprintf(f, "\ncounters: per job, the median of its runs, per %s\n",
		mixed ? "item where its kernel counts them (see 'per'), else "
			"per run" : per_what(first));
	if (ev->has_set)
		say_set(f, first);
	for (unsigned k = 0; k < ev->n; k++)
		if (counted[k])
			col[ncol++] = k;
	lead = mixed ? 2 : 1;		/* job, and per where it varies */
	memset(align, 'r', sizeof(align));
	memcpy(align, "ll", lead);
	align[lead + ncol] = '\0';
	if (ncol)
		t = text_table_new(lead + ncol, align);
	if (t) {
		text_table_add(t, "job");
		if (mixed)
			text_table_add(t, "per");
		for (unsigned c = 0; c < ncol; c++)
			text_table_add(t, counters_name(ev->ids[col[c]]));
	}
	for (unsigned i = 0; t && i < p->njobs; i++) {
		char label[512];

		if (!in[i])
			continue;
		report_job_label(&p->jobs[i], label, sizeof(label));
		text_table_add(t, label);
		if (mixed)
			text_table_add(t, per_what(p->jobs[i].spec));
		for (unsigned c = 0; c < ncol; c++) {
			if (point_median(r, i, counters_name(ev->ids[col[c]]),
					 &m))
				add_value(t, m);
			else
				text_table_add(t, "-");
		}
	}
	if (t)
		text_table_print(t, f, "  ");
	text_table_free(t);
	absent(f, r, in, ev, counted);
}

void counters_table(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;
	bool *done = calloc(p->njobs + 1, sizeof(*done));
	bool *in = calloc(p->njobs + 1, sizeof(*in));

	for (unsigned i = 0; done && in && i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (done[i] || !names_events(j))
			continue;
		for (unsigned k = 0; k < p->njobs; k++) {
			in[k] = !done[k] && names_events(p->jobs[k].spec) &&
				same_events(j, p->jobs[k].spec);
			done[k] |= in[k];
		}
		one_table(f, r, in, j);
	}
	free(in);
	free(done);
}
