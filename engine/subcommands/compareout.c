/*
 * compareout.c - a comparison as a table, and as the rows its CSV and
 * JSON are written from (see compareout.h).
 *
 * The table is built whole as strings first, so that every column can be
 * as wide as its widest cell; a key column that is empty at every point
 * (phase, for jobs without victims) is left out of it, never out of the
 * rows, whose columns stay the same whatever the data.  A fleet's table
 * (--by) has no line for a run without any row at a point (a host of
 * another machine type); its rows do.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/compareout.h"
#include "subcommands/fleet.h"

/* What the table calls a verdict. */
static const char *const verdict_words[] = {
	[CMP_BASELINE] = "baseline", [CMP_MISSING] = "missing",
	[CMP_NO_BASELINE] = "no baseline",
	[CMP_METRIC_DIFFERS] = "metric differs",
	[CMP_WITHIN_SPREAD] = "within spread", [CMP_BETTER] = "better",
	[CMP_WORSE] = "worse", [CMP_HIGHER] = "higher", [CMP_LOWER] = "lower",
};

#define CELL_MAX	64	/* a number, a word; names are strdup'd */

struct text_table {
	unsigned ncols;
	bool *right;		/* right-aligned column (numbers) */
	bool *shown;
	char **cell;		/* nrows x ncols, row-major */
	unsigned nrows, cap;
	bool oom;
};

static void tt_add_row(struct text_table *tt, const char *const *row)
{
	if (tt->oom)
		return;
	if (tt->nrows == tt->cap) {
		unsigned cap = tt->cap ? tt->cap * 2 : 64;
		char **c = realloc(tt->cell, (size_t)cap * tt->ncols *
					     sizeof(*c));

		if (!c) {
			tt->oom = true;
			return;
		}
		tt->cell = c;
		tt->cap = cap;
	}
	for (unsigned i = 0; i < tt->ncols; i++) {
		char *s = strdup(row[i] ? row[i] : "");

		if (!s)
			tt->oom = true;
		tt->cell[(size_t)tt->nrows * tt->ncols + i] = s;
	}
	tt->nrows++;
}

/* Two spaces between columns, no blanks at the end of a line. */
static void tt_print(FILE *f, const struct text_table *tt)
{
	size_t *w = calloc(tt->ncols, sizeof(*w));

	if (!w)
		return;
	for (unsigned r = 0; r < tt->nrows; r++)
		for (unsigned i = 0; i < tt->ncols; i++) {
			size_t n = strlen(tt->cell[(size_t)r * tt->ncols + i]);

			if (n > w[i])
				w[i] = n;
		}
	for (unsigned r = 0; r < tt->nrows; r++) {
		char *const *row = &tt->cell[(size_t)r * tt->ncols];
		unsigned last = 0, pad = 0;

		for (unsigned i = 0; i < tt->ncols; i++)
			if (tt->shown[i] && *row[i])
				last = i;
		for (unsigned i = 0; i <= last; i++) {
			if (!tt->shown[i])
				continue;
			if (tt->right[i])
				fprintf(f, "%*s%*s", (int)pad, "",
					(int)w[i], row[i]);
			else if (i == last)
				fprintf(f, "%*s%s", (int)pad, "", row[i]);
			else
				fprintf(f, "%*s%-*s", (int)pad, "", (int)w[i],
					row[i]);
			pad = 2;
		}
		fputc('\n', f);
	}
	free(w);
}

static void tt_free(struct text_table *tt)
{
	for (size_t i = 0; i < (size_t)tt->nrows * tt->ncols; i++)
		free(tt->cell[i]);
	free(tt->cell);
	free(tt->right);
	free(tt->shown);
}

/* Four significant digits, whole numbers from 1000 on. */
static const char *fmt_num(double v, char *buf)
{
	if (v >= 1000 || v <= -1000)
		snprintf(buf, CELL_MAX, "%.0f", v);
	else
		snprintf(buf, CELL_MAX, "%.4g", v);
	return buf;
}

const char *cmp_point_metric(const struct cmp *c, const struct cmp_point *p)
{
	const struct cmp_cell *b = &p->cell[c->base];

	if (b->s.n)
		return b->mixed ? "mixed" : b->metric;
	for (unsigned j = 0; j < c->nruns; j++)
		if (p->cell[j].s.n)
			return p->cell[j].mixed ? "mixed" : p->cell[j].metric;
	return "";
}

/* Whether every point is judged by the same metric.  The table leaves
 * out what the lines above it say: the metric when there is one, the run
 * and its change when there is one. */
static bool one_metric(const struct cmp *c)
{
	for (unsigned k = 1; k < c->npoints; k++)
		if (strcmp(cmp_point_metric(c, &c->point[k]),
			   cmp_point_metric(c, &c->point[0])))
			return false;
	return true;
}

unsigned cmp_run_at(const struct cmp *c, unsigned i)
{
	if (i == 0)
		return c->base;
	return i <= c->base ? i - 1 : i;
}

static const char *key_title(const char *col)
{
	return strncmp(col, "sweep_", 6) ? col : col + 6;
}

enum { K_METRIC, K_RUN, K_ROWS, K_MEDIAN, K_MIN, K_MAX, K_CHANGE, K_CI,
       K_VERDICT, K_FLEET, K_DEVIATION, K_OUTLIER, K_FIXED };

/* Whether some run has an interval for its change: the table's column. */
static bool any_interval(const struct cmp *c)
{
	for (size_t i = 0; i < (size_t)c->npoints * c->nruns; i++)
		if (c->cells[i].ci.status == INTERVAL_OK)
			return true;
	return false;
}

static void table_row(struct text_table *tt, const struct cmp *c,
		      const struct cmp_point *p, unsigned j, bool first)
{
	const struct cmp_cell *x = &p->cell[j];
	const char **row = calloc(tt->ncols, sizeof(*row)), **fx;
	char b[K_FIXED][CELL_MAX];

	if (!row) {
		tt->oom = true;
		return;
	}
	for (unsigned i = 0; first && i < c->nkey; i++)
		row[i] = p->key[i];
	fx = row + c->nkey;	/* the fixed columns after the key */
	fx[K_METRIC] = first ? cmp_point_metric(c, p) : "";
	fx[K_RUN] = *c->run[j] ? c->run[j] : "(none)";
	if (x->left_out)
		snprintf(b[K_ROWS], CELL_MAX, "%zu (+%u left out)", x->s.n,
			 x->left_out);
	else
		snprintf(b[K_ROWS], CELL_MAX, "%zu", x->s.n);
	fx[K_ROWS] = b[K_ROWS];
	if (x->s.n) {
		fx[K_MEDIAN] = fmt_num(x->s.median, b[K_MEDIAN]);
		fx[K_MIN] = fmt_num(x->s.min, b[K_MIN]);
		fx[K_MAX] = fmt_num(x->s.max, b[K_MAX]);
	} else {
		fx[K_MEDIAN] = fx[K_MIN] = fx[K_MAX] = "-";
	}
	if (x->has_change) {
		snprintf(b[K_CHANGE], CELL_MAX, "%+.1f%%", x->change_pct);
		fx[K_CHANGE] = b[K_CHANGE];
	}
	if (x->ci.status == INTERVAL_OK) {
		int dec = interval_decimals(&x->ci);

		snprintf(b[K_CI], CELL_MAX, "%+.*f..%+.*f%%", dec, x->ci.lo,
			 dec, x->ci.hi);
		fx[K_CI] = b[K_CI];
	}
	fx[K_VERDICT] = verdict_words[x->verdict];
	if (x->verdict == CMP_WITHIN_SPREAD && x->ci.status == INTERVAL_OK)
		fx[K_VERDICT] = "no change detected";
	if (x->verdict == CMP_METRIC_DIFFERS) {
		snprintf(b[K_VERDICT], CELL_MAX, "metric differs (%s)",
			 x->mixed ? "mixed" : x->metric);
		fx[K_VERDICT] = b[K_VERDICT];
	}
	if (p->judged && first)
		fx[K_FLEET] = fmt_num(p->fleet_median, b[K_FLEET]);
	if (x->has_deviation) {
		snprintf(b[K_DEVIATION], CELL_MAX, "%+.1f%%",
			 x->deviation_pct);
		fx[K_DEVIATION] = b[K_DEVIATION];
	}
	fx[K_OUTLIER] = x->outlier ? "stands out" : "";
	tt_add_row(tt, row);
	free(row);
}

static int build_table(struct text_table *tt, const struct cmp *c)
{
	static const char *const titles[K_FIXED] = {
		"metric", "run", "rows", "median", "min", "max", "change",
		"95% CI", "verdict", "fleet", "deviation", "outlier"
	};
	const char **head;

	tt->ncols = c->nkey + K_FIXED;
	tt->right = calloc(tt->ncols, sizeof(*tt->right));
	tt->shown = calloc(tt->ncols, sizeof(*tt->shown));
	head = calloc(tt->ncols, sizeof(*head));
	if (!tt->right || !tt->shown || !head) {
		free(head);
		return -1;
	}
	for (unsigned i = 0; i < c->nkey; i++) {
		head[i] = key_title(c->key[i]);
		for (unsigned k = 0; k < c->npoints; k++)
			tt->shown[i] |= *c->point[k].key[i] != '\0';
	}
	for (unsigned i = 0; i < K_FIXED; i++) {
		head[c->nkey + i] = titles[i];
		tt->shown[c->nkey + i] = i == K_METRIC ? !one_metric(c) :
					 i == K_RUN || i == K_CHANGE ||
					 i == K_VERDICT ? c->nruns > 1 :
					 i == K_CI ? any_interval(c) :
					 i >= K_FLEET ? c->fleet : true;
		tt->right[c->nkey + i] = (i >= K_MEDIAN && i <= K_CI) ||
					 i == K_FLEET || i == K_DEVIATION;
	}
	tt_add_row(tt, head);
	free(head);
	for (unsigned k = 0; k < c->npoints; k++) {
		bool first = true;

		for (unsigned i = 0; i < c->nruns; i++) {
			unsigned j = cmp_run_at(c, i);
			const struct cmp_cell *x = &c->point[k].cell[j];

			/* a fleet's hosts of other machine types: no line */
			if (c->fleet && !x->s.n && !x->left_out)
				continue;
			table_row(tt, c, &c->point[k], j, first);
			first = false;
		}
	}
	return tt->oom ? -1 : 0;
}

/* "gbps (higher is better), ns_per_item (lower is better)" */
static void print_metrics(FILE *f, const struct cmp *c)
{
	const char **seen = calloc(c->npoints + 1, sizeof(*seen));
	unsigned n = 0;

	if (!seen)
		return;
	fputs("metric:", f);
	for (unsigned k = 0; k < c->npoints; k++) {
		const char *m = cmp_point_metric(c, &c->point[k]);
		unsigned i;
		int dir;

		for (i = 0; i < n && strcmp(seen[i], m); i++)
			;
		if (i < n || !*m)
			continue;
		seen[n++] = m;
		dir = cmp_direction(m);
		fprintf(f, "%s %s%s", n > 1 ? "," : "", m,
			dir > 0 ? " (higher is better)" :
			dir < 0 ? " (lower is better)" : "");
	}
	fputs(n ? "\n" : " none\n", f);
	free(seen);
}

static void print_runs(FILE *f, const struct cmp *c)
{
	unsigned shown = c->nruns > 4 ? 3 : c->nruns;

	fputs(c->nruns == 1 ? "run:" : "runs:", f);
	for (unsigned i = 0; i < shown; i++) {
		unsigned j = cmp_run_at(c, i);

		fprintf(f, "%s %s (%s%u row%s)", i ? "," : "",
			*c->run[j] ? c->run[j] : "(none)",
			i || c->nruns == 1 ? "" : "baseline, ", c->run_rows[j],
			c->run_rows[j] == 1 ? "" : "s");
	}
	if (shown < c->nruns)
		fprintf(f, " and %u more", c->nruns - shown);
	fputc('\n', f);
}

/* After a fleet's table: the runs that stand out, and where. */
static void print_outliers(FILE *f, const struct cmp *c)
{
	unsigned n = fleet_outliers(c);

	fprintf(f, "\n%u run%s stand%s out%s\n", n, n == 1 ? "" : "s",
		n == 1 ? "s" : "", n ? ":" : "");
	for (unsigned k = 0; n && k < c->npoints; k++)
		for (unsigned j = 0; j < c->nruns; j++) {
			const struct cmp_point *p = &c->point[k];

			if (!p->cell[j].outlier)
				continue;
			fprintf(f, "  %s at", *c->run[j] ? c->run[j] : "(none)");
			for (unsigned i = 0; i < c->nkey; i++)
				if (*p->key[i])
					fprintf(f, " %s=%s", key_title(c->key[i]),
						p->key[i]);
			fprintf(f, ": %s %.4g, fleet %.4g (%+.1f%%)\n",
				cmp_point_metric(c, p), p->cell[j].s.median,
				p->fleet_median, p->cell[j].deviation_pct);
		}
}

/* After a fleet's table: the points whose rows ran different jobs. */
static void print_job_notes(FILE *f, const struct cmp *c)
{
	unsigned n = 0;

	for (unsigned k = 0; k < c->npoints; k++) {
		const struct cmp_point *p = &c->point[k];

		if (!p->jobs_differ)
			continue;
		if (!n++)
			fputs("\nnote: the rows of these points ran different "
			      "jobs (their job_hash differs):\n", f);
		if (n > 3)
			continue;
		fputs(" ", f);
		for (unsigned i = 0; i < c->nkey; i++)
			if (*p->key[i])
				fprintf(f, " %s=%s", key_title(c->key[i]),
					p->key[i]);
		fputc('\n', f);
	}
	if (n > 3)
		fprintf(f, "  and %u more\n", n - 3);
}

int cmp_print_normal(FILE *f, const struct cmp *c)
{
	struct text_table tt = { 0 };

	if (build_table(&tt, c)) {
		tt_free(&tt);
		return -1;
	}
	print_runs(f, c);
	print_metrics(f, c);
	if (c->nruns > 1 && any_interval(c))
		fputs("change: (median - baseline's median) / baseline's "
		      "median, in %;\n95% CI: the change's confidence "
		      "interval, where the rows allow one:\nbetter or worse "
		      "when it excludes 0, else no change detected;\nwith "
		      "fewer rows, better or worse when the min..max ranges do "
		      "not overlap,\nelse within spread\n", f);
	else if (c->nruns > 1)
		fputs("change: (median - baseline's median) / baseline's "
		      "median, in %;\nbetter or worse when the two runs' "
		      "min..max ranges do not overlap,\nelse within spread\n",
		      f);
	if (c->fleet)
		fprintf(f, "fleet: the median of the runs' medians at each "
			"point of %u+ runs;\ndeviation from it in %%; a run "
			"stands out when |x - fleet| > %g x %g x MAD\n(MAD at "
			"least %g%% of the fleet median)\n", FLEET_MIN_RUNS,
			FLEET_MAD_K, FLEET_MAD_SCALE, FLEET_MAD_FLOOR * 100);
	fputc('\n', f);
	tt_print(f, &tt);
	tt_free(&tt);
	if (c->fleet) {
		print_outliers(f, c);
		print_job_notes(f, c);
	}
	return 0;
}

void cmp_interval_cells(struct row_emitter *e, const struct cmp_point *p,
			unsigned j)
{
	const struct interval *iv = &p->cell[j].ci;
	struct cell none = { .type = CELL_ABSENT };
	bool ok = iv->status == INTERVAL_OK;
	char finding[96];

	row_put(e, "change_ci_lo_pct", ok ? cell_fixed(iv->lo, INTERVAL_DECIMALS) : none);
	row_put(e, "change_ci_hi_pct", ok ? cell_fixed(iv->hi, INTERVAL_DECIMALS) : none);
	row_put(e, "ci_level_pct", ok ? cell_fixed(iv->level * 100, 2) : none);
	interval_verdict(iv, "higher", "lower", "no change detected", finding,
			 sizeof(finding));
	row_str(e, "finding", iv->status == INTERVAL_BAD ? NULL : finding);
}

void cmp_cells(struct row_emitter *e, const struct cmp *c,
	       const struct cmp_point *p, unsigned j)
{
	const struct cmp_cell *x = &p->cell[j], *b = &p->cell[c->base];
	struct cell none = { .type = CELL_ABSENT };

	row_str(e, "run", c->run[j]);
	row_str(e, "metric_name",
		x->s.n ? (x->mixed ? "mixed" : x->metric) : NULL);
	row_u64(e, "rows", x->s.n);
	row_u64(e, "left_out", x->left_out);
	row_put(e, "median", x->s.n ? cell_exact(x->s.median) : none);
	row_put(e, "min", x->s.n ? cell_exact(x->s.min) : none);
	row_put(e, "max", x->s.n ? cell_exact(x->s.max) : none);
	row_put(e, "baseline", b->s.n ? cell_exact(b->s.median) : none);
	row_put(e, "change_pct",
		x->has_change ? cell_fixed(x->change_pct, CMP_PCT_DECIMALS)
			       : none);
	row_str(e, "verdict", cmp_verdict_names[x->verdict]);
	row_put(e, "fleet_median",
		p->judged ? cell_exact(p->fleet_median) : none);
	row_put(e, "fleet_mad", p->judged ? cell_exact(p->fleet_mad) : none);
	row_put(e, "deviation_pct",
		x->has_deviation ? cell_fixed(x->deviation_pct,
					       CMP_PCT_DECIMALS) : none);
	row_put(e, "outlier", p->judged && x->s.n ? cell_u64(x->outlier)
						  : none);
}

void cmp_key_cells(struct row_emitter *e, const struct cmp *c,
		   const struct cmp_point *p)
{
	for (unsigned i = 0; i < c->nkey; i++)
		row_str(e, c->key[i], p->key[i]);
}

void cmp_rows(struct row_emitter *e, const void *arg)
{
	const struct cmp *c = arg;

	for (unsigned k = 0; k < c->npoints; k++)
		for (unsigned i = 0; i < c->nruns; i++) {
			cmp_cells(e, c, &c->point[k], cmp_run_at(c, i));
			cmp_key_cells(e, c, &c->point[k]);
			cmp_interval_cells(e, &c->point[k],
					   cmp_run_at(c, i));
			row_end(e);
		}
}
