/*
 * plotloaded.c - the loaded-latency chart (see plotloaded.h): a victim's
 * latency against the bandwidth its aggressors moved, from idle to
 * unlimited.
 *
 * The one idea: the chart is the loaded-latency table's rows, read back
 * from the CSV.  A loaded victim's rows (one per repeat) name their group
 * (the runs that ran together) and repeat; the aggressors' rows of that
 * group and repeat are what loaded it.  Their GB/s are summed and the
 * victim's figures summarised by the same functions the table uses
 * (report/interference.h), so the picture and the text cannot disagree.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/interference.h"
#include "subcommands/plotchart.h"
#include "subcommands/plotloaded.h"
#include "util/strbuf.h"

#define MAX_VICTIMS	PLOT_COLOURS
#define MAX_LEVELS	256

/* One point of the curve: a table row. */
struct level {
	double x, y, lo, hi;
	bool ci;			/* lo..hi is the 95% interval, not
					   the range of the runs */
	bool idle;			/* the victim alone, first */
	char label[160];
};

struct curve {
	struct level lv[MAX_LEVELS];
	unsigned n;
	unsigned ranges;		/* levels drawn with their range */
	char kernel[64], memory[512];
};

/* Whether row r is job's (any job's for NULL) in role and phase,
 * whatever its status. */
static bool is_run(const struct csv_table *t, unsigned r, const char *job,
		   const char *role, const char *phase)
{
	return (!job || !strcmp(plot_cell(t, r, "job"), job)) &&
	       !strcmp(plot_cell(t, r, "role"), role) &&
	       !strcmp(plot_cell(t, r, "phase"), phase);
}

/* The same, of a run that finished (status ok). */
static bool is_row(const struct csv_table *t, unsigned r, const char *job,
		   const char *role, const char *phase)
{
	return plot_usable(t, r) && is_run(t, r, job, role, phase);
}

/* Whether some row is an aggressor job called name[0..len). */
static bool aggressor_named(const struct csv_table *t, const char *name,
			    size_t len)
{
	for (unsigned r = 0; r < t->nrows; r++) {
		const char *j = plot_cell(t, r, "job");

		if (strlen(j) == len && !strncmp(j, name, len) &&
		    !strcmp(plot_cell(t, r, "role"), "aggressor"))
			return true;
	}
	return false;
}

/* Whether every item of the point sets an aggressor's rate ("rate=50%",
 * or "aggr.rate=50%" where several jobs sweep it). */
static bool only_rate(const struct csv_table *t, const char *point)
{
	if (!*point)
		return false;
	while (*point) {
		size_t item = strcspn(point, " "), name = strcspn(point, "=");
		const char *dot = memchr(point, '.', name < item ? name : item);
		const char *opt = dot ? dot + 1 : point;

		if (name > item || (size_t)(point + name - opt) != 4 ||
		    strncmp(opt, "rate", 4) ||
		    (dot && !aggressor_named(t, point, (size_t)(dot - point))))
			return false;
		point += item;
		point += *point == ' ';
	}
	return true;
}

/* Whether the victim job's loaded points are a rate curve: two points
 * or more, each only rate=, its figure a latency. */
static bool victim_curve(const struct csv_table *t, const char *job)
{
	char *points[MAX_LEVELS];
	unsigned np = 0;
	bool curve = true;

	for (unsigned r = 0; r < t->nrows && curve; r++) {
		if (!is_row(t, r, job, "victim", "loaded"))
			continue;
		curve = !strcmp(plot_cell(t, r, "metric_name"), "ns_per_item") &&
			only_rate(t, plot_cell(t, r, "point"));
		if (strlist_intern(points, &np, MAX_LEVELS,
				   plot_cell(t, r, "point")) < 0)
			curve = false;
	}
	for (unsigned i = 0; i < np; i++)
		free(points[i]);
	return curve && np > 1;
}

/* The victims that are curves, in the order of their first rows. */
static unsigned curve_victims(const struct csv_table *t, char **names)
{
	unsigned n = 0, k = 0;

	for (unsigned r = 0; r < t->nrows; r++)
		if (is_row(t, r, NULL, "victim", "loaded"))
			strlist_intern(names, &n, MAX_VICTIMS,
				       plot_cell(t, r, "job"));
	for (unsigned i = 0; i < n; i++) {
		if (victim_curve(t, names[i]))
			names[k++] = names[i];
		else
			free(names[i]);
	}
	return k;
}

bool plot_loaded_curve(const struct csv_table *t)
{
	char *names[MAX_VICTIMS];
	unsigned n = curve_victims(t, names);

	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	return n > 0;
}

/* Row r's whole-number cell of column name into *v; false if none. */
static bool cell_count(const struct csv_table *t, unsigned r,
		       const char *name, unsigned *v)
{
	double d;

	if (!plot_number(plot_cell(t, r, name), &d) || d < 0 || d > 1e9 ||
	    d != floor(d))
		return false;
	*v = (unsigned)d;
	return true;
}

/* A level from values v[0..n): its median, and the interval of that
 * median, else (too few runs) their range. */
static void level_figures(struct curve *c, struct level *lv, double *v,
			  unsigned n)
{
	struct stat_summary s;
	struct interval ci;

	point_figures(v, n, &s, &ci);
	lv->y = s.median;
	lv->ci = ci.status == INTERVAL_OK;
	lv->lo = lv->ci ? ci.lo : s.min;
	lv->hi = lv->ci ? ci.hi : s.max;
	c->ranges += !lv->ci;
}

/* The aggressors' GB/s of the loaded point whose victim rows ran in
 * group (its repeats 1..repeats): aggressor_sum over their rows, as the
 * table sums each round's, a failed aggressor's too where it has a gbps.
 * -1 with err when a finished one lacks its gbps or none ran there. */
static int level_bandwidth(const struct csv_table *t, const char *group,
			   unsigned repeats, const char *point,
			   struct level *lv, bool *limited, char *err,
			   size_t errlen)
{
	struct aggressor_sum *a = calloc(1, sizeof(*a));
	unsigned rows = 0, rep;

	*limited = false;
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned k = 0; k < repeats; k++)
		aggressor_sum_add(a, k, 0);
	for (unsigned r = 0; r < t->nrows; r++) {
		double g;

		if (!is_run(t, r, NULL, "aggressor", "loaded") ||
		    strcmp(plot_cell(t, r, "group"), group) ||
		    !cell_count(t, r, "repeat", &rep) || !rep || rep > repeats)
			continue;
		if (!plot_number(plot_cell(t, r, "gbps"), &g)) {
			if (!plot_usable(t, r))
				continue;	/* failed, and no figure */
			snprintf(err, errlen, "%s, line %u: aggressor '%s' at "
				 "%s has no gbps (its bandwidth, the chart's "
				 "x): a loaded-latency chart needs every "
				 "aggressor's", t->name, t->line[r],
				 plot_cell(t, r, "job"), point);
			free(a);
			return -1;
		}
		*limited |= *plot_cell(t, r, "rate_gbps") != '\0';
		aggressor_sum_add(a, rep - 1, g);
		rows++;
	}
	if (!rows) {
		snprintf(err, errlen, "%s: no aggressor's row (role aggressor, "
			 "status ok) ran with the victim at %s (group %s): "
			 "the aggressors' bandwidth, the chart's x, is "
			 "missing", t->name, point, group);
		free(a);
		return -1;
	}
	lv->x = aggressor_sum_summary(a).median;
	free(a);
	return 0;
}

/* The idle level: the victim's alone rows of repeats 1..repeats (those
 * of the rounds of its first loaded point, as the table's idle row). */
static int idle_level(const struct csv_table *t, const char *job,
		      unsigned repeats, struct curve *c, double *v, char *err,
		      size_t errlen)
{
	struct level *lv = &c->lv[c->n];
	unsigned n = 0, rep;

	for (unsigned r = 0; r < t->nrows && n < PRECISION_MAX_ROUNDS; r++)
		if (is_row(t, r, job, "victim", "alone") &&
		    cell_count(t, r, "repeat", &rep) && rep && rep <= repeats &&
		    plot_number(plot_cell(t, r, "metric"), &v[n])) {
			if (!*c->memory)
				snprintf(c->memory, sizeof(c->memory), "%s",
					 plot_cell(t, r, "source_info"));
			n++;
		}
	if (!n) {
		snprintf(err, errlen, "%s: victim '%s' has no run alone with "
			 "status ok and a metric (phase alone): the idle "
			 "point is missing", t->name, job);
		return -1;
	}
	lv->x = 0;	/* as the table's idle row: no aggressor ran */
	lv->idle = true;
	level_figures(c, lv, v, n);
	snprintf(lv->label, sizeof(lv->label), "idle");
	c->n++;
	return 0;
}

/* The victim's metric in its loaded rows at point in group, from row r
 * on, into v (those that finished); *repeats: the highest repeat among
 * them all, as the table's rounds of the point. */
static unsigned point_values(const struct csv_table *t, unsigned r,
			     const char *job, const char *point,
			     const char *group, double *v, unsigned *repeats)
{
	unsigned n = 0, rep;

	*repeats = 0;
	for (unsigned k = r; k < t->nrows && n < PRECISION_MAX_ROUNDS; k++) {
		if (!is_run(t, k, job, "victim", "loaded") ||
		    strcmp(plot_cell(t, k, "point"), point) ||
		    strcmp(plot_cell(t, k, "group"), group) ||
		    !cell_count(t, k, "repeat", &rep) || !rep)
			continue;
		if (rep > *repeats)
			*repeats = rep;
		if (plot_usable(t, k) &&
		    plot_number(plot_cell(t, k, "metric"), &v[n]))
			n++;
	}
	return n;
}

/* Each loaded point of victim job, in the order of the rows, then the
 * idle level; *first: the repeats of the first point. */
static int loaded_levels(const struct csv_table *t, const char *job,
			 struct curve *c, double *v, unsigned *first,
			 char *err, size_t errlen)
{
	char *done[MAX_LEVELS];
	unsigned ndone = 0;
	int ret = 0;

	*first = 0;
	for (unsigned r = 0; r < t->nrows && !ret &&
	     c->n < MAX_LEVELS - 1; r++) {
		const char *point = plot_cell(t, r, "point");
		const char *group = plot_cell(t, r, "group");
		struct level *lv = &c->lv[c->n];
		unsigned n, repeats, before = ndone;
		bool limited;

		if (!is_row(t, r, job, "victim", "loaded") ||
		    strlist_intern(done, &ndone, MAX_LEVELS, point) < 0 ||
		    ndone == before)
			continue;
		n = point_values(t, r, job, point, group, v, &repeats);
		if (!n)
			continue;
		if (!*first)
			*first = repeats;
		level_figures(c, lv, v, n);
		ret = level_bandwidth(t, group, repeats, point, lv, &limited,
				      err, errlen);
		snprintf(lv->label, sizeof(lv->label), "%s%s", point,
			 limited || csv_table_col(t, "rate_gbps") < 0 ? "" :
			 " (unlimited)");
		c->n += !ret;
	}
	for (unsigned i = 0; i < ndone; i++)
		free(done[i]);
	return ret;
}

static int by_x(const void *a, const void *b)
{
	const struct level *p = a, *q = b;

	if (p->idle != q->idle)
		return p->idle ? -1 : 1;
	return (p->x > q->x) - (p->x < q->x);
}

/* The curve of victim job, sorted by bandwidth. */
static int build_curve(const struct csv_table *t, const char *job,
		       struct curve *c, char *err, size_t errlen)
{
	double *v = malloc(PRECISION_MAX_ROUNDS * sizeof(*v));
	unsigned first;
	int ret;

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned r = 0; r < t->nrows && !*c->kernel; r++)
		if (is_row(t, r, job, "victim", "loaded"))
			snprintf(c->kernel, sizeof(c->kernel), "%s",
				 plot_cell(t, r, "kernel"));
	ret = loaded_levels(t, job, c, v, &first, err, errlen);
	if (!ret && !c->n) {
		snprintf(err, errlen, "%s: victim '%s' has no loaded run with "
			 "status ok and a metric", t->name, job);
		ret = -1;
	}
	if (!ret)
		ret = idle_level(t, job, first, c, v, err, errlen);
	free(v);
	if (!ret)
		qsort(c->lv, c->n, sizeof(c->lv[0]), by_x);
	return ret;
}

/* s as a double-quoted data field (a " in it becomes '). */
static void put_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : (unsigned char)*s < ' ' ? ' ' : *s, f);
	fputc('"', f);
}

static void put_axes(FILE *f, const struct curve *c, unsigned ranges)
{
	bool chase = !strcmp(c->kernel, "chase");
	char y[384];

	snprintf(y, sizeof(y), "victim %s latency, ns per %s (median, %s)",
		 chase ? "chase" : c->kernel, chase ? "access" : "item",
		 ranges ? "95% interval, or min..max where too few runs" :
		 "95% interval");
	fputs("set xlabel 'aggressors'' bandwidth, GB/s (all clones, "
	      "measured; median of the runs)'\nset ylabel ", f);
	plot_put_quoted(f, y);
	fputs("\nset xrange [0:*]\nset grid\nset key top left box opaque\n"
	      "set offsets graph 0.02, graph 0.12, graph 0.08, graph 0.04\n",
	      f);
}

/*
 * A title line continued as further lines of at most TITLE_WIDTH
 * characters, broken after "; " or ", " where it can be (a run's
 * source_info is a few clauses and easily wider than the chart), else
 * after TITLE_WIDTH characters.
 */
#define TITLE_WIDTH	110

static void put_wrapped(FILE *f, const char *s)
{
	char piece[TITLE_WIDTH + 1];

	while (*s) {
		size_t n = strlen(s), cut = n;

		if (n > TITLE_WIDTH) {
			cut = TITLE_WIDTH;
			for (size_t i = TITLE_WIDTH; i > TITLE_WIDTH / 2; i--)
				if ((s[i - 1] == ';' || s[i - 1] == ',') &&
				    s[i] == ' ') {
					cut = i;
					break;
				}
		}
		memcpy(piece, s, cut);
		piece[cut] = '\0';
		fputs(".\"\\n\".", f);
		plot_put_quoted(f, piece);
		s += cut;
		s += strspn(s, " ");
	}
}

static void put_title(FILE *f, const struct csv_table *t, char **names,
		      unsigned n, const struct curve *c)
{
	char title[768], what[640];
	size_t k;

	plot_title(t, title, sizeof(title));
	k = (size_t)snprintf(what, sizeof(what), "loaded latency of victim%s ",
			     n > 1 ? "s" : "");
	for (unsigned i = 0; i < n && k < sizeof(what); i++)
		k += (size_t)snprintf(what + k, sizeof(what) - k, "%s'%s'",
				      i ? ", " : "", names[i]);
	fputs("set title ", f);
	plot_put_quoted(f, title);
	fputs(".\"\\n\".", f);
	plot_put_quoted(f, what);
	if (n == 1 && *c->memory) {
		snprintf(what, sizeof(what), "victim's memory: %s", c->memory);
		put_wrapped(f, what);
	}
	fputc('\n', f);
}

int plot_loaded_script(FILE *f, const struct csv_table *t, char *err,
		       size_t errlen)
{
	static const char *const need[] = { "job", "role", "phase", "point",
					    "group", "repeat", "metric",
					    "metric_name", "gbps", NULL };
	char *names[MAX_VICTIMS];
	struct curve *c;
	unsigned n, ranges = 0;
	int ret = 0;

	for (unsigned i = 0; need[i]; i++)
		if (csv_table_col(t, need[i]) < 0) {
			snprintf(err, errlen, "%s has no column '%s': a "
				 "loaded-latency chart needs %s", t->name,
				 need[i], !strcmp(need[i], "gbps") ?
				 "the aggressors' bandwidth" :
				 "each run's job, role, phase, point, group, "
				 "repeat and metric");
			return -1;
		}
	n = curve_victims(t, names);
	if (!n) {
		snprintf(err, errlen, "%s: no victim whose loaded points differ "
			 "only in their aggressors' rate= and whose figure is "
			 "ns_per_item (a loaded-latency run, as "
			 "jobs/loaded-latency.ini)", t->name);
		return -1;
	}
	c = calloc(n, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	for (unsigned i = 0; c && i < n && !ret; i++) {
		ret = build_curve(t, names[i], &c[i], err, errlen);
		ranges += c[i].ranges;
	}
	if (!ret) {
		put_title(f, t, names, n, &c[0]);
		put_axes(f, &c[0], ranges);
		for (unsigned i = 0; i < n; i++) {
			fprintf(f, "# bandwidth GB/s, median ns, low, high, "
				"level\n$ll%u << EOD\n", i);
			for (unsigned k = 0; k < c[i].n; k++) {
				const struct level *lv = &c[i].lv[k];

				fprintf(f, "%.10g %.10g %.10g %.10g ", lv->x,
					lv->y, lv->lo, lv->hi);
				put_field(f, lv->label);
				fputc('\n', f);
			}
			fputs("EOD\n", f);
		}
		fputs("plot ", f);
		for (unsigned i = 0; i < n; i++) {
			fprintf(f, "%s$ll%u using 1:2 with lines linecolor rgb "
				"'%s' linewidth 1.5 title ", i ? ", \\\n     " : "",
				i, plot_palette[i]);
			plot_put_quoted(f, names[i]);
			fprintf(f, ", \\\n     $ll%u using 1:2:3:4 with yerrorbars "
				"linecolor rgb '%s' pointtype 7 pointsize 0.8 "
				"notitle, \\\n     $ll%u using 1:2:5 with labels "
				"left offset character 0.6,0.6 font ',8' "
				"notitle", i, plot_palette[i], i);
		}
		fputc('\n', f);
	}
	free(c);
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	return ret;
}
