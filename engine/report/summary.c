/*
 * summary.c - the normal report's answer (see summary.h): a job's runs
 * folded into one line, the figure it is judged by (job_metric: GB/s,
 * ns per item, or seconds) as median, 95% interval of the median,
 * min..max and N.
 *
 * The one idea: each table is built from the same job_metric() that CSV
 * and JSON carry in metric, so the summary never shows a figure that the
 * rows do not hold; it only folds repeats, and says what it folded.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "report/pairmatrix.h"
#include "report/report_int.h"
#include "report/series.h"
#include "report/summary.h"
#include "util/strbuf.h"
#include "util/interval.h"
#include "util/stats.h"
#include "util/texttable.h"
#include "util/value.h"

/* Decimals a metric is printed with in every table of the report. */
static int metric_decimals(const char *name)
{
	return name && !strcmp(name, "ns_per_item") ? 2 : 3;
}

/* A job's runs, folded. */
struct job_fold {
	struct metric m;		/* label and sense of its runs */
	unsigned runs, ok, failed, interrupted;
	double *v;			/* the OK runs' metric, sorted */
	struct stat_summary s;
	struct interval ci;
	const char *error;		/* the first failed run's */
	bool emulated;
	bool have_result, result_differs;
	uint64_t result;		/* the first OK run's */
	unsigned touch_runs;		/* first_touch=phase runs of fresh
					   pages */
	double touch_s;			/* their median wall time */
	bool touch_present;		/* a phase found its pages mapped */
	struct warmup warm;		/* run 1 a warm-up outlier? */
	unsigned short_runs;		/* runs with a clone that ran short */
	unsigned cut_runs;		/* runs runtime= cut short (exec) */
	bool clones;			/* clone_lo..clone_hi hold GB/s */
	double clone_lo, clone_hi;	/* a clone's GB/s, over the runs */
};

static void fold_touch(struct job_fold *jf, const struct results *r,
		       unsigned idx)
{
	unsigned reps = results_repeats(r, idx), n = 0;
	double *t = malloc((reps + 1) * sizeof(*t));

	for (unsigned k = 0; t && k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		if (jr->status != RUN_OK || jr->touch.mode != TOUCH_PHASE)
			continue;
		if (jr->touch.present)	/* nothing to time (firsttouch.h) */
			jf->touch_present = true;
		else
			t[n++] = jr->touch.fig.ns / 1e9;
	}
	jf->touch_runs = n;
	if (n)
		jf->touch_s = stat_summarise(t, n).median;
	free(t);
}

/* The GB/s of each clone of a run into the fold's range. */
static void fold_clones(struct job_fold *jf, const struct job_result *jr)
{
	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++) {
		const struct thread_result *t = &jr->threads[c];
		uint64_t ns = t->end_ns - t->start_ns;
		double g = ns ? (double)t->bytes / (double)ns : 0;

		if (!jf->clones || g < jf->clone_lo)
			jf->clone_lo = g;
		if (!jf->clones || g > jf->clone_hi)
			jf->clone_hi = g;
		jf->clones = true;
	}
}

/* 0, or -1 out of memory. */
static int fold_job(struct job_fold *jf, const struct results *r,
		    unsigned idx)
{
	const struct job_spec *j = r->plan->jobs[idx].spec;
	unsigned reps = results_repeats(r, idx);

	memset(jf, 0, sizeof(*jf));
	jf->v = malloc((reps + 1) * sizeof(*jf->v));
	if (!jf->v)
		return -1;
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		if (jr->status == RUN_NOT_RUN)
			continue;
		jf->runs++;
		jf->emulated |= jr->emulated;
		if (!jf->runs || jf->runs == 1)
			jf->m = job_metric(jr);
		if (jr->status == RUN_FAILED) {
			if (!jf->failed++)
				jf->error = report_first_error(jr);
			continue;
		}
		if (jr->status == RUN_INTERRUPTED) {
			jf->interrupted++;
			continue;
		}
		/* a timed run's result counts the work done in its time
		 * (codewalk's calls): no two runs need agree on it */
		if ((j->kernel->flags & KERN_RESULT) && !j->time_based) {
			if (!jf->have_result)
				jf->result = jr->result;
			else if (jr->result != jf->result)
				jf->result_differs = true;
			jf->have_result = true;
		}
		jf->v[jf->ok++] = job_metric(jr).value;
		jf->short_runs += jr->short_clones > 0;
		jf->cut_runs += jr->cut_short;
		if (j->numjobs > 1 && kernel_measures_rate(j->kernel))
			fold_clones(jf, jr);
	}
	if (!jf->runs)
		jf->m = job_metric(results_get(r, idx, 0));
	jf->s = stat_summarise(jf->v, jf->ok);		/* sorts v */
	jf->ci = interval_median(jf->v, jf->ok);
	jf->warm = series_warmup(r, idx);
	fold_touch(jf, r, idx);
	return 0;
}

/* The notes cell: the kernel's result, a first touch of its own, what
 * went wrong. */
static void fold_notes(const struct job_fold *jf, const struct job_spec *j,
		       char *buf, size_t len)
{
	size_t n = 0;
	char v[32];

	buf[0] = '\0';
#define NOTE(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, \
	"%s", n ? "; " : ""); if (n < len) n += (size_t)snprintf(buf + n, \
	len - n, __VA_ARGS__); } while (0)
	if (jf->have_result) {
		report_result_text(j, jf->result, v, sizeof(v));
		if (jf->result_differs)
			NOTE("%s differs between runs (first %s)",
			     j->kernel->result_name, v);
		else
			NOTE("%s %s", j->kernel->result_name, v);
	}
	if (jf->touch_runs && jf->touch_s < 1)
		NOTE("first touch %.3g ms", jf->touch_s * 1e3);
	else if (jf->touch_runs)
		NOTE("first touch %.3f s", jf->touch_s);
	if (jf->touch_present)
		NOTE("first touch: the pages were mapped before the job");
	if (jf->clones)
		NOTE("each of %u clones %.3f..%.3f GB/s", j->numjobs,
		     jf->clone_lo, jf->clone_hi);
	if (jf->short_runs)
		NOTE("a clone RAN SHORTER than the others in %u run%s",
		     jf->short_runs, jf->short_runs == 1 ? "" : "s");
	if (jf->cut_runs)
		NOTE("%u run%s cut short by runtime=", jf->cut_runs,
		     jf->cut_runs == 1 ? "" : "s");
	if (jf->warm.outlier)
		NOTE("run 1 a warm-up outlier: %+.1f%%", jf->warm.excess_pct);
	if (jf->emulated)
		NOTE("EMULATED");
	if (!jf->runs)
		NOTE("not run");
	if (jf->interrupted)
		NOTE("%u interrupted", jf->interrupted);
	if (jf->failed)
		NOTE("%u FAILED: %s", jf->failed, jf->error);
#undef NOTE
}

/* The cells of one folded job after its name: figure, median, 95% CI,
 * range, N, notes. */
static void fold_cells(struct text_table *t, const struct job_fold *jf,
		       const struct job_spec *j, bool *too_few)
{
	int d = metric_decimals(jf->m.name);
	char notes[640];

	text_table_add(t, jf->m.label);
	if (!jf->ok) {
		text_table_add(t, "-");
		text_table_add(t, "-");
		text_table_add(t, "-");
	} else {
		text_table_addf(t, "%.*f", d, jf->s.median);
		if (jf->ci.status == INTERVAL_OK) {
			text_table_addf(t, "%.*f..%.*f", d, jf->ci.lo, d,
					jf->ci.hi);
		} else {
			text_table_add(t, "-");
			*too_few = true;
		}
		text_table_addf(t, "%.*f..%.*f", d, jf->s.min, d, jf->s.max);
	}
	text_table_addf(t, "%u", jf->ok);
	fold_notes(jf, j, notes, sizeof(notes));
	text_table_add(t, notes);
}

/* The jobs that print as one series: same name, role and phase. */
static bool same_series(const struct job_spec *a, const struct job_spec *b)
{
	return !strcmp(a->name, b->name) && a->role == b->role &&
	       a->phase == b->phase;
}

/* The last "opt=value" item of a label, or NULL. */
static const char *last_item(const char *label)
{
	const char *sp = label ? strrchr(label, ' ') : NULL;

	return sp ? sp + 1 : label;
}

/* A label's items without the last, as text ("" for one item). */
static void head_items(const char *label, char *buf, size_t len)
{
	const char *last = last_item(label);

	buf[0] = '\0';
	if (label && last > label)
		snprintf(buf, len, "%.*s", (int)(last - label - 1), label);
}

/* The names of a label's items ("a=1 b=2" -> "a b"). */
static void item_names(const char *label, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (label && *label && n + 1 < len) {
		size_t item = strcspn(label, " "), k = strcspn(label, "=");

		n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "",
				      (int)(k < item ? k : item), label);
		label += item;
		label += *label == ' ';
	}
}

/* The series of job first, in plan order, into idx; returns how many. */
static unsigned series_members(const struct plan *p, unsigned first,
			       unsigned *idx)
{
	unsigned n = 0;

	for (unsigned i = first; i < p->njobs; i++)
		if (same_series(p->jobs[i].spec, p->jobs[first].spec))
			idx[n++] = i;
	return n;
}

/* Whether a series can be one table: summary=matrix, or more than
 * SUMMARY_LIST_MAX points with summary=auto, each of two or more items
 * with the same names. */
static bool pivotable(const struct plan *p, const unsigned *idx, unsigned n)
{
	char first[512], names[512];
	const char *l0 = p->jobs[idx[0]].spec->point_label;

	enum summary_mode mode = p->jobs[idx[0]].spec->summary;

	if (mode == SUMMARY_LIST || (mode == SUMMARY_AUTO &&
				     n <= SUMMARY_LIST_MAX) ||
	    !l0 || !strchr(l0, ' '))
		return false;
	item_names(l0, first, sizeof(first));
	for (unsigned i = 1; i < n; i++) {
		item_names(p->jobs[idx[i]].spec->point_label, names,
			   sizeof(names));
		if (strcmp(names, first))
			return false;
	}
	return true;
}

/* The n-th (from 0) space-separated word of s, after its '=' when
 * value is set ("a=1 b=2", 1 -> "b=2", or "2"); "" past the end. */
static void nth_word(const char *s, unsigned n, bool value, char *buf,
		     size_t len)
{
	size_t w;

	for (unsigned i = 0; i < n && s; i++) {
		s = strchr(s, ' ');
		s = s ? s + 1 : NULL;
	}
	if (!s) {
		buf[0] = '\0';
		return;
	}
	w = strcspn(s, " ");
	if (value && memchr(s, '=', w)) {
		const char *eq = memchr(s, '=', w);

		w -= (size_t)(eq + 1 - s);
		s = eq + 1;
	}
	snprintf(buf, len, "%.*s", (int)w, s);
}

#define PIVOT_COLS	12
#define PIVOT_ROWS	512

/* The pivot's cells and what they leave out. */
struct pivot {
	char *cols[PIVOT_COLS], *rows[PIVOT_ROWS];
	unsigned ncols, nrows;
	double *cell;			/* median, or -1 */
	unsigned runs_lo, runs_hi;
	double worst_ci, worst_range;	/* relative to the median */
	struct metric m;
};

/* Where point i of the series goes: its column and row, made as they
 * come; -1 out of memory or room. */
static int pivot_place(struct pivot *pv, const char *label, unsigned *c,
		       unsigned *rw)
{
	char head[512], item[128];
	int ci, ri;

	head_items(label, head, sizeof(head));
	nth_word(last_item(label), 0, true, item, sizeof(item));
	ci = strlist_intern(pv->cols, &pv->ncols, PIVOT_COLS, head);
	ri = strlist_intern(pv->rows, &pv->nrows, PIVOT_ROWS, item);
	if (ci < 0 || ri < 0)
		return -1;
	*c = (unsigned)ci;
	*rw = (unsigned)ri;
	return 0;
}

/* Fold each point into its cell; -1 out of memory or room. */
static int pivot_fill(struct pivot *pv, const struct results *r,
		      const unsigned *idx, unsigned n)
{
	unsigned c, rw;

	for (unsigned i = 0; i < n; i++)
		if (pivot_place(pv, r->plan->jobs[idx[i]].spec->point_label,
				&c, &rw))
			return -1;
	pv->cell = malloc(pv->ncols * pv->nrows * sizeof(*pv->cell));
	if (!pv->cell)
		return -1;
	for (unsigned i = 0; i < pv->ncols * pv->nrows; i++)
		pv->cell[i] = -1;
	pv->runs_lo = ~0u;
	for (unsigned i = 0; i < n; i++) {
		struct job_fold jf;

		pivot_place(pv, r->plan->jobs[idx[i]].spec->point_label, &c,
			    &rw);
		if (fold_job(&jf, r, idx[i]))
			return -1;
		pv->m = jf.m;
		if (jf.ok)
			pv->cell[rw * pv->ncols + c] = jf.s.median;
		if (jf.ok && jf.s.median > 0) {
			double w = (jf.s.max - jf.s.min) / jf.s.median;

			if (w > pv->worst_range)
				pv->worst_range = w;
			w = (jf.ci.hi - jf.ci.lo) / 2 / jf.s.median;
			if (jf.ci.status == INTERVAL_OK && w > pv->worst_ci)
				pv->worst_ci = w;
		}
		if (jf.ok < pv->runs_lo)
			pv->runs_lo = jf.ok;
		if (jf.ok > pv->runs_hi)
			pv->runs_hi = jf.ok;
		free(jf.v);
	}
	return 0;
}

/* The header rows (one per swept option across, then the option down)
 * and a row per value down. */
static void pivot_table(struct text_table *t, const struct pivot *pv,
			const char *label)
{
	unsigned across = 0;
	char name[128], v[128];
	int d = metric_decimals(pv->m.name);

	for (const char *s = pv->cols[0]; *s; s++)
		across += *s == ' ';
	across += *pv->cols[0] != '\0';
	for (unsigned h = 0; h <= across; h++) {
		nth_word(label, h, false, name, sizeof(name));
		*strchrnul(name, '=') = '\0';
		text_table_add(t, name);
		for (unsigned c = 0; c < pv->ncols; c++) {
			if (h < across)
				nth_word(pv->cols[c], h, true, v, sizeof(v));
			else
				v[0] = '\0';
			text_table_add(t, v);
		}
	}
	for (unsigned rw = 0; rw < pv->nrows; rw++) {
		text_table_add(t, pv->rows[rw]);
		for (unsigned c = 0; c < pv->ncols; c++)
			text_table_add_figure(t, pv->cell[rw * pv->ncols + c], d);
	}
}

/* A series of many points as one table: the last swept option's values
 * down, the other swept values across, medians in the cells. */
static void pivot_series(FILE *f, const struct results *r,
			 const unsigned *idx, unsigned n)
{
	const struct job_spec *j = r->plan->jobs[idx[0]].spec;
	struct pivot pv = { .ncols = 0 };
	struct text_table *t = NULL;
	char align[PIVOT_COLS + 2];

	if (pivot_fill(&pv, r, idx, n) || !pv.ncols)
		goto out;
	memset(align, 'r', sizeof(align));
	align[0] = 'l';
	align[pv.ncols + 1] = '\0';
	t = text_table_new(pv.ncols + 1, align);
	pivot_table(t, &pv, j->point_label);
	fprintf(f, "\n%s%s%s: %s, the median of %u", j->name,
		j->phase != PHASE_RUN ? " " : "",
		report_phase_names[j->phase], pv.m.label, pv.runs_lo);
	if (pv.runs_hi != pv.runs_lo)
		fprintf(f, " to %u", pv.runs_hi);
	fprintf(f, " run%s at each of %u points\n", pv.runs_hi == 1 ? "" : "s",
		n);
	text_table_print(t, f, "  ");
	fputs("  ", f);
	if (pv.worst_ci > 0)
		fprintf(f, "the widest 95%% interval of a median is +-%.1f%% "
			"of it, ", 100 * pv.worst_ci);
	fprintf(f, "the widest range %.1f%% of its median (each point: "
		"--details=runs, or the CSV)\n", 100 * pv.worst_range);
out:
	text_table_free(t);
	free(pv.cell);
	for (unsigned i = 0; i < pv.ncols; i++)
		free(pv.cols[i]);
	for (unsigned i = 0; i < pv.nrows; i++)
		free(pv.rows[i]);
}

void summary_report(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;
	unsigned *idx = malloc((p->njobs + 1) * sizeof(*idx));
	bool *done = calloc(p->njobs + 1, sizeof(*done)), too_few = false;
	struct text_table *t = text_table_new(7, "llrrrrl");
	unsigned listed = 0;

	if (!idx || !done || !t)
		goto out;
	text_table_add(t, "job");
	text_table_add(t, "figure");
	text_table_add(t, "median");
	text_table_add(t, "95% CI");
	text_table_add(t, "range");
	text_table_add(t, "N");
	text_table_add(t, "");
	for (unsigned i = 0; i < p->njobs; i++) {
		unsigned n;

		if (done[i])
			continue;
		n = series_members(p, i, idx);
		for (unsigned k = 0; k < n; k++)
			done[idx[k]] = true;
		if (pivotable(p, idx, n)) {
			pivot_series(f, r, idx, n);
			continue;
		}
		if (pair_matrix(f, r, idx, n))
			continue;
		for (unsigned k = 0; k < n; k++) {
			struct job_fold jf;
			char label[512];

			if (fold_job(&jf, r, idx[k]))
				goto out;
			report_job_label(&p->jobs[idx[k]], label,
					 sizeof(label));
			text_table_add(t, label);
			fold_cells(t, &jf, p->jobs[idx[k]].spec, &too_few);
			free(jf.v);
			listed++;
		}
	}
	if (listed) {
		fputs("\nresults: per job, the median of its runs, the 95% "
		      "interval of that median, the range (min..max) and the "
		      "runs (N)\n", f);
		text_table_print(t, f, "  ");
		if (too_few)
			fprintf(f, "  (95%% CI \"-\": the interval of a median "
				"needs %u runs or more: repeat=%u)\n",
				interval_median_min(), interval_median_min());
	}
	summary_costs(f, r);
	summary_groups(f, r);
out:
	text_table_free(t);
	free(done);
	free(idx);
}

/* The events of every run that were not counted, one line per reason:
 * what the per-run blocks used to repeat under each run. */
void summary_counters_missing(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;
	const char *name[CTR_IDS], *why[CTR_IDS];	/* a name per id */
	bool counted[CTR_IDS] = { false };
	unsigned n = 0;

	for (unsigned i = 0; i < p->njobs; i++)
		for (unsigned k = 0; k < results_repeats(r, i); k++) {
			const struct job_result *jr = results_get(r, i, k);

			for (unsigned c = 0; c < jr->ncounters; c++) {
				const struct counter_value *cv =
					&jr->counters[c];
				unsigned e = 0;

				while (e < n && strcmp(name[e], cv->name))
					e++;
				if (e == n) {
					if (n == CTR_IDS)
						continue;
					name[n] = cv->name;
					why[n++] = NULL;
				}
				if (cv->status == COUNTER_OK)
					counted[e] = true;
				else if (!why[e])
					why[e] = cv->why[0] ? cv->why :
						 counters_status_name(
							 cv->status);
			}
		}
	for (unsigned e = 0; e < n; e++) {
		bool first = true;

		if (counted[e] || !why[e])
			continue;
		for (unsigned k = 0; k < e && first; k++)
			first = counted[k] || !why[k] || strcmp(why[k], why[e]);
		if (!first)
			continue;
		fprintf(f, "counters not counted in any run (%s):", why[e]);
		for (unsigned k = e; k < n; k++)
			if (!counted[k] && why[k] && !strcmp(why[k], why[e]))
				fprintf(f, " %s", name[k]);
		fputc('\n', f);
	}
}
