/*
 * costs.c - the normal report's lines after the results (summary.h): what
 * each job of a run with files cost the system, and the totals of groups
 * of several jobs, each folded over the runs as the results are.
 */
#include <stdlib.h>
#include <unistd.h>

#include "report/report_int.h"
#include "report/summary.h"
#include "util/interval.h"
#include "util/stats.h"
#include "util/texttable.h"
#include "util/value.h"

/* The median of v[0..n) (sorted in place), as "%.*f", or "-" for none. */
static void median_cell(struct text_table *t, double *v, unsigned n,
			int decimals)
{
	if (n)
		text_table_addf(t, "%.*f", decimals,
				stat_summarise(v, n).median);
	else
		text_table_add(t, "-");
}

static void median_bytes_cell(struct text_table *t, double *v, unsigned n)
{
	char b[32];

	if (n)
		text_table_add(t, value_format_bytes(
					  stat_summarise(v, n).median, b,
					  sizeof(b)));
	else
		text_table_add(t, "-");
}

enum { COST_CPU, COST_MINFLT, COST_MAJFLT, COST_PGPGIN, COST_PGPGOUT,
       COST_DIRTIED, COST_DIRTY, COST_N };

/* One job's row of the costs table: medians over its runs that ended. */
static int cost_row(struct text_table *t, const struct results *r,
		    unsigned idx, double page)
{
	unsigned reps = results_repeats(r, idx), n[COST_N] = { 0 };
	double *v[COST_N] = { NULL };
	char label[512];
	int ret = -1;

	for (unsigned c = 0; c < COST_N; c++)
		if (!(v[c] = malloc((reps + 1) * sizeof(double))))
			goto out;
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);
		const struct sysstat_delta *d = &jr->sys;

		if (jr->status != RUN_OK)
			continue;
		v[COST_CPU][n[COST_CPU]++] = (jr->usr_ns + jr->sys_ns) / 1e9;
		v[COST_MINFLT][n[COST_MINFLT]++] = (double)jr->minflt;
		v[COST_MAJFLT][n[COST_MAJFLT]++] = (double)jr->majflt;
		if (!jr->have_sys)
			continue;
		if (d->vm_have[SV_PGPGIN])
			v[COST_PGPGIN][n[COST_PGPGIN]++] =
				(double)d->vm[SV_PGPGIN] * 1024;
		if (d->vm_have[SV_PGPGOUT])
			v[COST_PGPGOUT][n[COST_PGPGOUT]++] =
				(double)d->vm[SV_PGPGOUT] * 1024;
		if (d->vm_have[SV_NR_DIRTIED])
			v[COST_DIRTIED][n[COST_DIRTIED]++] =
				(double)d->vm[SV_NR_DIRTIED] * page;
		if (d->mem_have[SM_DIRTY])
			v[COST_DIRTY][n[COST_DIRTY]++] =
				(double)d->mem_end_kb[SM_DIRTY] * 1024;
	}
	report_job_label(&r->plan->jobs[idx], label, sizeof(label));
	text_table_add(t, label);
	median_cell(t, v[COST_CPU], n[COST_CPU], 3);
	median_cell(t, v[COST_MINFLT], n[COST_MINFLT], 0);
	median_cell(t, v[COST_MAJFLT], n[COST_MAJFLT], 0);
	for (unsigned c = COST_PGPGIN; c < COST_N; c++)
		median_bytes_cell(t, v[c], n[c]);
	ret = 0;
out:
	for (unsigned c = 0; c < COST_N; c++)
		free(v[c]);
	return ret;
}

/* What each job of a run that read or wrote files cost: its CPU time
 * and faults, and the system's page-cache and disk traffic over its runs
 * (the page-cache phases).  Victims and aggressors are left to the
 * interference table. */
void summary_costs(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;
	double page = (double)sysconf(_SC_PAGESIZE);
	struct text_table *t;
	bool files = false;
	static const char *const head[] = {
		"job", "cpu s", "faults", "major", "read from disk",
		"written to disk", "dirtied", "Dirty at end", NULL
	};

	for (unsigned i = 0; r->where && i < p->njobs; i++)
		files |= r->where[i] != NULL;
	if (!files)
		return;
	t = text_table_new(COST_N + 1, "lrrrrrrr");
	for (unsigned h = 0; head[h]; h++)
		text_table_add(t, head[h]);
	for (unsigned i = 0; i < p->njobs; i++)
		if (p->jobs[i].spec->role == ROLE_NONE &&
		    cost_row(t, r, i, page > 0 ? page : 4096))
			break;
	if (text_table_rows(t) > 1) {
		fputs("\ncosts: per job, medians over its runs: its CPU time "
		      "and page faults; the disk and page-cache columns are "
		      "the system's (vmstat, meminfo), over the jobs that ran "
		      "with it\n", f);
		text_table_print(t, f, "  ");
	}
	text_table_free(t);
}

struct group_fold {
	unsigned jobs, threads, n, cap;
	double *gbps;
};

static void group_collect(void *user, const struct group_total *g)
{
	struct group_fold *all = user, *gf = &all[g->group];

	gf->jobs = g->jobs;
	gf->threads = g->threads;
	if (g->data_jobs < 2 || gf->n == gf->cap)
		return;
	gf->gbps[gf->n++] = g->gbps;
}

/* The groups of several jobs that measure a rate: their summed GB/s per
 * run, folded. */
void summary_groups(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;
	struct group_fold *all = calloc(p->ngroups + 1, sizeof(*all));
	bool any = false;

	for (unsigned g = 0; all && g < p->ngroups; g++) {
		all[g].cap = r->max_repeat;
		all[g].gbps = malloc((all[g].cap + 1) * sizeof(double));
		if (!all[g].gbps)
			all[g].cap = 0;
	}
	if (all)
		group_totals_each(r, group_collect, all);
	for (unsigned g = 0; all && g < p->ngroups; g++) {
		struct stat_summary s;
		struct interval ci;

		if (!all[g].n)
			continue;
		s = stat_summarise(all[g].gbps, all[g].n);
		ci = interval_median(all[g].gbps, all[g].n);
		if (!any)
			fputs("\ngroups: the jobs of a group together, GB/s "
			      "over the group's whole time, median of its "
			      "runs\n", f);
		any = true;
		fprintf(f, "  group %u (%u jobs, %u threads): %.3f GB/s", g,
			all[g].jobs, all[g].threads, s.median);
		if (ci.status == INTERVAL_OK)
			fprintf(f, ", 95%% CI %.3f..%.3f", ci.lo, ci.hi);
		fprintf(f, ", range %.3f..%.3f, N %u\n", s.min, s.max,
			all[g].n);
	}
	for (unsigned g = 0; all && g < p->ngroups; g++)
		free(all[g].gbps);
	free(all);
}

