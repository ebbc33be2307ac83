/*
 * loadedlat.c - the loaded-latency table (see loadedlat.h): a victim's
 * latency at each injection rate of its aggressors, against the
 * bandwidth they moved, from idle (the victim alone) to unlimited.
 *
 * The one idea: it is the interference table's figures turned the way
 * MLC's --loaded_latency prints them.  Each row is a point of the sweep
 * of the aggressors' rate, with the aggressors' summed GB/s (the x of
 * the curve, as measured, not as asked), the victim's median latency with
 * the 95% interval of that median, and its slowdown against idle with the
 * slowdown's own interval; a first row is the victim alone.  Under it:
 * what rate=N% was a percentage of, which pages the victim got, how long
 * it waited for a CPU, and where the hardware prefetchers helped.
 */
#include <stdio.h>
#include <string.h>

#include "kernels/chase.h"
#include "kernels/kernel.h"
#include "report/interference.h"
#include "report/loadedlat.h"
#include "util/texttable.h"

struct curve {
	FILE *f;
	const struct results *r;
	struct text_table *t;
	const char *victim;
	int decimals;
};

/* Whether the aggressors that ran with the loaded victim of point ran
 * without a limit (the curve's last point). */
static bool unlimited(const struct results *r, const char *victim,
		      const char *point)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct segment *sg = &p->segments[p->jobs[i].segment];
		bool free_run = true;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
		    strcmp(j->name, victim) || !j->point_label || !point ||
		    strcmp(j->point_label, point))
			continue;
		for (unsigned k = sg->first; k < sg->first + sg->count; k++) {
			const struct job_spec *a = p->jobs[k].spec;

			if (a->role == ROLE_AGGRESSOR &&
			    (a->rate || a->rate_pct > 0 || a->rate_iops))
				free_run = false;
		}
		return free_run;
	}
	return false;
}

static void add_interval(struct text_table *t, const struct interval *iv,
			 int d)
{
	if (iv->status == INTERVAL_OK)
		text_table_addf(t, "%.*f..%.*f", d, iv->lo, d, iv->hi);
	else
		text_table_add(t, "-");
}

static void add_wait(struct text_table *t, bool have, double pct)
{
	if (have)
		text_table_addf(t, "%.0f%%", pct);
	else
		text_table_add(t, "?");
}

/* The idle row: the victim alone, its figures from the first point. */
static void idle_row(struct curve *c, const struct interference_line *l)
{
	struct text_table *t = c->t;
	int d = c->decimals;

	text_table_add(t, "idle (alone)");
	text_table_add(t, "0");
	text_table_addf(t, "%.*f", d, l->alone.median);
	add_interval(t, &l->alone_ci, d);
	text_table_addf(t, "%.*f..%.*f", d, l->alone.min, d, l->alone.max);
	text_table_add(t, "");
	add_wait(t, l->noise.have_wait, l->noise.wait_pct);
	text_table_addf(t, "%zu", l->alone.n);
}

static void point_row(void *user, const struct interference_line *l)
{
	struct curve *c = user;
	struct text_table *t;
	int d = c->decimals;
	char slow[96];

	if (strcmp(l->victim, c->victim))
		return;
	t = c->t;
	if (l->first)
		idle_row(c, l);
	text_table_add(t, l->point ? l->point : "-");
	if (!l->have) {
		for (unsigned k = 0; k < 7; k++)
			text_table_add(t, k ? "" : "a run failed");
		return;
	}
	if (l->aggressor_rate)
		text_table_addf(t, "%.2f (%.2f-%.2f)%s", l->aggressors.median,
				l->aggressors.min, l->aggressors.max,
				unlimited(c->r, l->victim, l->point) ?
				" unlimited" : "");
	else
		text_table_add(t, "-");
	text_table_addf(t, "%.*f", d, l->loaded.median);
	add_interval(t, &l->loaded_ci, d);
	text_table_addf(t, "%.*f..%.*f", d, l->loaded.min, d, l->loaded.max);
	if (l->ci.status == INTERVAL_OK)
		snprintf(slow, sizeof(slow), "%+.1f (%+.1f..%+.1f)",
			 l->slowdown_pct, l->ci.lo, l->ci.hi);
	else
		snprintf(slow, sizeof(slow), "%+.1f", l->slowdown_pct);
	text_table_add(t, slow);
	add_wait(t, l->loaded_wait.have, l->loaded_wait.pct);
	text_table_addf(t, "%zu", l->loaded.n);
}

/* "rate=N% is of ..." for each aggressor job of the victim's points that
 * was paced to a percentage. */
static void rate_bases(FILE *f, const struct results *r, const char *victim)
{
	const struct plan *p = r->plan;
	const char *said[16];
	unsigned nsaid = 0;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct segment *sg = &p->segments[p->jobs[i].segment];
		bool mine = false, dup = false;

		if (j->role != ROLE_AGGRESSOR || !(j->rate_pct > 0))
			continue;
		for (unsigned k = sg->first; k < sg->first + sg->count; k++)
			mine |= p->jobs[k].spec->role == ROLE_VICTIM &&
				!strcmp(p->jobs[k].spec->name, victim);
		for (unsigned k = 0; k < nsaid; k++)
			dup |= !strcmp(said[k], j->name);
		if (!mine || dup || nsaid == 16)
			continue;
		said[nsaid++] = j->name;
		if (r->rate_base[i] > 0)
			fprintf(f, "  rate=N%% of '%s': of %.2f GB/s per clone, "
				"what its %u clone%s moved without a limit, "
				"with the victim, before the first round (100 "
				"ms untimed, 400 ms timed)\n", j->name,
				r->rate_base[i] / 1e9, j->numjobs,
				j->numjobs == 1 ? "" : "s");
		else
			fprintf(f, "  rate=N%% of '%s': its rate without a "
				"limit was not measured (the run stopped "
				"first)\n", j->name);
	}
}

/* The victim's pages, as its source said at setup (hugepage=). */
static void victim_pages(FILE *f, const struct results *r, const char *victim)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct job_result *jr;

		if (j->phase != PHASE_ALONE || strcmp(j->name, victim))
			continue;
		jr = results_get(r, i, 0);
		if (jr->info && *jr->info)
			fprintf(f, "  victim's memory: %s\n", jr->info);
		return;
	}
}

/* Where the hardware prefetchers could make a figure better than a
 * demand miss: aggressors that read in order, and a victim that chases
 * in layout page (it stays in a page until it has read every line). */
static void prefetch_note(FILE *f, const struct results *r,
			  const char *victim)
{
	const struct plan *p = r->plan;
	bool seq = false, chase = false, paged = false;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (j->role == ROLE_AGGRESSOR && j->phase == PHASE_LOADED &&
		    !RW_IS_RANDOM(j->rw))
			seq = true;
		if (j->role == ROLE_VICTIM && !strcmp(j->name, victim) &&
		    !strcmp(j->kernel->name, "chase")) {
			const struct chase_opts *o =
				job_opts(j, &kernel_chase_opts);

			chase = true;
			paged |= o && o->chase_layout == CHASE_PAGE;
		}
	}
	if (chase && paged)
		fputs("  prefetch: the victim chases in chase_layout=page, a "
		      "page's lines before the next page, and the prefetchers "
		      "that fetch a page's other lines help it: its latency is "
		      "below a demand miss's (chase_layout=random is "
		      "prefetch-proof)\n", f);
	else if (chase)
		fputs("  prefetch: the victim's chase is prefetch-proof (each "
		      "load's address is the value of the one before, in a "
		      "random order)\n", f);
	if (seq)
		fputs("  prefetch: the aggressors read in order, so the "
		      "hardware prefetchers fetch ahead of them: their GB/s "
		      "is what streaming with prefetch reaches, as MLC's "
		      "traffic with its prefetchers on\n", f);
}

static void curve_of(FILE *f, const struct results *r, const char *victim,
		     const struct metric *m)
{
	struct curve c = { .f = f, .r = r, .victim = victim, .decimals = 2 };

	c.t = text_table_new(8, "lrrrrrrr");
	if (!c.t)
		return;
	fprintf(f, "\nloaded latency: victim '%s', %s (lower is better), "
		"against its aggressors' bandwidth (GB/s, all their clones: "
		"median, min-max over the repeats); the latency's 95%% "
		"interval is of its median; slowdown %% = (loaded - idle) / "
		"idle, with its 95%% interval\n", victim, m->label);
	text_table_add(c.t, "injection");
	text_table_add(c.t, "aggressors GB/s");
	text_table_add(c.t, m->label);
	text_table_add(c.t, "95% CI");
	text_table_add(c.t, "range");
	text_table_add(c.t, "slowdown %");
	text_table_add(c.t, "waited");
	text_table_add(c.t, "N");
	interference_each(r, point_row, &c);
	text_table_print(c.t, f, "  ");
	text_table_free(c.t);
	fputs("  (waited: the share of its time the victim was ready to run "
	      "but waited for a CPU, in its alone runs and in each point's "
	      "loaded runs; its latency includes that wait)\n", f);
	rate_bases(f, r, victim);
	victim_pages(f, r, victim);
	prefetch_note(f, r, victim);
}

void loadedlat_report(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		bool seen = false;
		struct metric m;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM)
			continue;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = p->jobs[k].spec->phase == PHASE_LOADED &&
			       p->jobs[k].spec->role == ROLE_VICTIM &&
			       !strcmp(p->jobs[k].spec->name, j->name);
		if (seen || !interference_rate_curve(r, j->name))
			continue;
		m = job_metric(results_get(r, i, 0));
		curve_of(f, r, j->name, &m);
	}
}
