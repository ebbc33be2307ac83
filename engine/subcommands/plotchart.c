/*
 * plotchart.c - choose a result table's chart, and write the gnuplot
 * script of the bar, slowdown and time-series charts (see plotchart.h).
 *
 * The one idea: the columns already say what was varied.  A sample log
 * has t_s; an interference run has loaded victims with slowdown columns;
 * a sweep has sweep_OPTION columns whose values are numbers or not.  The
 * chart follows from those, never from the job's name.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/plotchart.h"
#include "util/strbuf.h"
#include "util/stats.h"
#include "util/value.h"

#define MAX_CATS	64	/* x categories of a bar chart */
#define MAX_COLOURS	PLOT_COLOURS	/* bar colours (series) */
#define MAX_PANELS	4	/* kinds of figure side by side */

const char *const plot_palette[PLOT_COLOURS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
	"#8c6d31", "#843c39", "#7b4173", "#3182bd",
};

const char *plot_kind_name(enum plot_kind k)
{
	static const char *const names[] = {
		[PLOT_LINES] = "lines", [PLOT_BARS] = "bars",
		[PLOT_SLOWDOWN] = "slowdown", [PLOT_SERIES] = "time series",
		[PLOT_LOADED] = "loaded latency",
	};

	return names[k];
}

static const char *const kind_words[] = {
	[PLOT_LINES] = "lines", [PLOT_BARS] = "bars",
	[PLOT_SLOWDOWN] = "slowdown", [PLOT_SERIES] = "series",
	[PLOT_LOADED] = "loaded-latency",
};

int plot_kind_parse(const char *word, enum plot_kind *k)
{
	for (unsigned i = 0; i < sizeof(kind_words) / sizeof(*kind_words); i++)
		if (!strcmp(word, kind_words[i])) {
			*k = (enum plot_kind)i;
			return 0;
		}
	return -1;
}

const char *plot_kind_word(enum plot_kind k)
{
	return kind_words[k];
}

/* s in single quotes; tic: a tic label, which gnuplot reads as a format
 * for the tic's value, so a '%' in it (rate=5%) is doubled */
static void put_quoted(FILE *f, const char *s, bool tic)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if (tic && *s == '%')
			fputs("%%", f);
		else if ((unsigned char)*s < ' ')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

void plot_put_quoted(FILE *f, const char *s)
{
	put_quoted(f, s, false);
}

const char *plot_cell(const struct csv_table *t, unsigned r,
		      const char *name)
{
	return csv_table_cell(t, r, csv_table_col(t, name));
}

bool plot_usable(const struct csv_table *t, unsigned r)
{
	int c = csv_table_col(t, "status");

	return c < 0 || !strcmp(csv_table_cell(t, r, c), "ok");
}

bool plot_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && end != s && !*end && !errno && isfinite(*v);
}

/* A loaded victim's row, with a slowdown to draw. */
static bool loaded_victim(const struct csv_table *t, unsigned r)
{
	return plot_usable(t, r) && !strcmp(plot_cell(t, r, "role"), "victim") &&
	       !strcmp(plot_cell(t, r, "phase"), "loaded") &&
	       (*plot_cell(t, r, "slowdown_est_pct") || *plot_cell(t, r, "slowdown_pct"));
}

/* Whether every usable row's value in column c is a number or a size
 * (*sized: one had a unit, "64k"), with at least two distinct values. */
static bool numeric_column(const struct csv_table *t, int c, bool *sized)
{
	const char *first = NULL;
	bool two = false;

	*sized = false;
	for (unsigned r = 0; r < t->nrows; r++) {
		const char *s = csv_table_cell(t, r, c), *why;
		uint64_t u;
		double v;

		if (!plot_usable(t, r) || !*s)
			continue;
		if (!plot_number(s, &v)) {
			if (value_size(s, &u, &why))
				return false;
			*sized = true;
		}
		two |= first && strcmp(first, s);
		if (!first)
			first = s;
	}
	return two;
}

/* Without sweep_ columns (a CSV of an older memjob, or cut down): the
 * last option of the point that has a numeric column of its name, a size
 * first; -1 when none. */
static int point_column(const struct csv_table *t)
{
	const char *point = "";
	int pick = -1;
	bool sized, pick_sized = false;

	for (unsigned r = 0; r < t->nrows && !*point; r++)
		if (plot_usable(t, r))
			point = plot_cell(t, r, "point");
	while (*point) {
		size_t item = strcspn(point, " "), k = strcspn(point, "=");
		char name[128];
		int c;

		snprintf(name, sizeof(name), "%.*s", (int)(k < item ? k : item),
			 point);
		c = csv_table_col(t, name);
		if (c >= 0 && numeric_column(t, c, &sized) &&
		    (sized || !strcmp(name, "size") || !pick_sized)) {
			pick = c;
			pick_sized |= sized || !strcmp(name, "size");
		}
		point += item;
		point += *point == ' ';
	}
	return pick;
}

enum plot_kind plot_choose(const struct csv_table *t, char *x, size_t xlen)
{
	int pick = -1;
	bool pick_sized = false;

	if (csv_table_col(t, "t_s") >= 0 && csv_table_col(t, "job_mbps") >= 0)
		return PLOT_SERIES;
	for (unsigned r = 0; r < t->nrows; r++)
		if (loaded_victim(t, r))
			return PLOT_SLOWDOWN;
	/* the swept option that is a size, else the last that is a number */
	for (unsigned c = 0; c < t->ncols; c++) {
		bool sized;

		if (strncmp(t->head[c], "sweep_", 6) ||
		    !numeric_column(t, (int)c, &sized))
			continue;
		if (sized || !strcmp(t->head[c], "sweep_size") ||
		    !pick_sized) {
			pick = (int)c;
			pick_sized |= sized || !strcmp(t->head[c],
							"sweep_size");
		}
	}
	if (pick < 0)
		pick = point_column(t);
	if (pick < 0)
		return PLOT_BARS;
	/* a swept size is also in the fixed column, resolved to bytes */
	snprintf(x, xlen, "%s", !strcmp(t->head[pick], "sweep_size") &&
		 csv_table_col(t, "size") >= 0 ? "size" : t->head[pick]);
	return PLOT_LINES;
}

void plot_title(const struct csv_table *t, char *buf, size_t len)
{
	const char *ver = t->nrows ? plot_cell(t, 0, "memjob_version") : "";
	const char *host = t->nrows ? plot_cell(t, 0, "host") : "";
	const char *cpu = t->nrows ? plot_cell(t, 0, "cpu_model") : "";
	char jobs[256] = "";
	size_t n = 0;

	for (unsigned r = 0; r < t->nrows && n + 2 < sizeof(jobs); r++) {
		const char *j = plot_cell(t, r, "job");
		size_t jl = strlen(j);
		bool seen = false;

		for (const char *p = strstr(jobs, j); p && !seen;
		     p = strstr(p + 1, j))
			seen = (p == jobs || p[-1] == ' ') &&
			       (p[jl] == ',' || !p[jl]);
		if (*j && !seen)
			n += (size_t)snprintf(jobs + n, sizeof(jobs) - n,
					      "%s%s", n ? ", " : "", j);
	}
	if (n >= sizeof(jobs) - 2)
		snprintf(jobs + sizeof(jobs) - 5, 5, "...");
	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s",
		 *ver ? "memjob " : "memjob (version not recorded)",
		 ver, *host ? " on " : "", host, *cpu ? " (" : "", cpu,
		 *cpu ? ")" : "", *jobs ? ": " : "", jobs);
}

/* ---- bars and slowdown: categories along x, colours side by side ---- */

struct bar {
	unsigned cat, colour;
	double y, lo, hi;
	bool whisker;
};

struct bar_chart {
	char *cats[MAX_CATS], *colours[MAX_COLOURS];
	unsigned ncats, ncolours;
	struct bar bars[MAX_CATS * MAX_COLOURS];
	unsigned nbars;
	char ylabel[256], xlabel[128];
	bool dropped;			/* more than fits */
};

/* Whether s is in list[0..n) already; if not, it is added (when there
 * is room: *full says when there was none). */
static bool seen(char **list, unsigned *n, unsigned max, const char *s,
		 bool *full)
{
	unsigned before = *n;
	int i = strlist_intern(list, n, max, s);

	if (i < 0)
		*full = true;
	return i < 0 || *n == before;
}

static void bar_add(struct bar_chart *bc, const char *cat,
		    const char *colour, double y, double lo, double hi,
		    bool whisker)
{
	int c = strlist_intern(bc->cats, &bc->ncats, MAX_CATS, cat);
	int k = strlist_intern(bc->colours, &bc->ncolours, MAX_COLOURS, colour);

	if (c < 0 || k < 0) {
		bc->dropped = true;
		return;
	}
	bc->bars[bc->nbars++] = (struct bar){ (unsigned)c, (unsigned)k, y,
					      lo, hi, whisker };
}

static void bar_free(struct bar_chart *bc)
{
	for (unsigned i = 0; i < bc->ncats; i++)
		free(bc->cats[i]);
	for (unsigned i = 0; i < bc->ncolours; i++)
		free(bc->colours[i]);
}

static double bar_min(const struct bar_chart *bc)
{
	double m = 0;

	for (unsigned b = 0; b < bc->nbars; b++)
		m = fmin(m, fmin(bc->bars[b].y, bc->bars[b].lo));
	return m;
}

static double bar_max(const struct bar_chart *bc)
{
	double m = 0;

	for (unsigned b = 0; b < bc->nbars; b++)
		m = fmax(m, fmax(bc->bars[b].y, bc->bars[b].hi));
	return m;
}

/* One panel: categorical x tics, a bar and a whisker per colour. */
static void put_bars(FILE *f, const struct bar_chart *bc, unsigned panel)
{
	double w = 0.8 / bc->ncolours;

	for (unsigned k = 0; k < bc->ncolours; k++) {
		fprintf(f, "$p%uc%u << EOD\n", panel, k);
		for (unsigned b = 0; b < bc->nbars; b++) {
			const struct bar *br = &bc->bars[b];

			if (br->colour != k)
				continue;
			fprintf(f, "%.6g %.10g", br->cat + (k - (bc->ncolours -
				1) / 2.0) * w, br->y);
			if (br->whisker)
				fprintf(f, " %.10g %.10g\n", br->lo, br->hi);
			else
				fprintf(f, " %.10g %.10g\n", br->y, br->y);
		}
		fputs("EOD\n", f);
	}
	fputs("set style fill solid 0.6 border -1\n", f);
	fprintf(f, "set boxwidth %.6g absolute\n", w * 0.9);
	fprintf(f, "set xrange [-0.6:%.6g]\n", bc->ncats - 0.4);
	fputs("set xtics (", f);
	for (unsigned c = 0; c < bc->ncats; c++) {
		fputs(c ? ", " : "", f);
		put_quoted(f, bc->cats[c], true);
		fprintf(f, " %u", c);
	}
	fputs(")", f);
	if (bc->ncats > 4)
		fputs(" rotate by -30", f);
	fputs("\nset grid ytics\n", f);
	/* bars stand on 0, whichever side of it they reach */
	fprintf(f, "set yrange [%s:%s]\nset xlabel ", bar_min(bc) < 0 ? "*" : "0",
		bar_max(bc) > 0 ? "*" : "0");
	plot_put_quoted(f, bc->xlabel);
	fputs("\nset ylabel ", f);
	plot_put_quoted(f, bc->ylabel);
	/* the zero line: a slowdown's sign is the point */
	fputs("\nset xzeroaxis linetype -1 linewidth 1\nplot ", f);
	for (unsigned k = 0; k < bc->ncolours; k++) {
		fprintf(f, "%s$p%uc%u using 1:2 with boxes linecolor rgb '%s' "
			"title ", k ? ", \\\n     " : "", panel, k,
			plot_palette[k]);
		plot_put_quoted(f, *bc->colours[k] ? bc->colours[k] : " ");
		fprintf(f, ", \\\n     $p%uc%u using 1:2:3:4 with yerrorbars "
			"linecolor rgb '#202020' pointtype 7 pointsize 0.6 "
			"notitle", panel, k);
	}
	fputc('\n', f);
}

/* The point without its last item, and that item: "flush=clwb
 * numjobs=4" is coloured "flush=clwb" and placed at "numjobs=4". */
static void split_point(const char *point, char *head, size_t hl,
			const char **last)
{
	const char *sp = strrchr(point, ' ');

	*last = sp ? sp + 1 : point;
	snprintf(head, hl, "%.*s", sp ? (int)(sp - point) : 0, point);
}

/* The x axis's name: the option of the last item ("numjobs"). */
static void last_option(const char *point, char *buf, size_t len)
{
	const char *sp = strrchr(point, ' '), *item = sp ? sp + 1 : point;

	snprintf(buf, len, "%.*s", (int)strcspn(item, "="), item);
}

/* The victims' slowdown per point: the interval memjob computed where
 * there is one, else the median of the runs' and their range. */
static int slowdown_chart(FILE *f, const struct csv_table *t, char *err,
			  size_t errlen)
{
	struct bar_chart bc = { .ncats = 0 };
	char *done[MAX_CATS * MAX_COLOURS];
	unsigned ndone = 0, victims = 0, ranges = 0;
	char *names[MAX_COLOURS];
	bool emulated = false;

	for (unsigned r = 0; r < t->nrows; r++)
		if (loaded_victim(t, r))
			strlist_intern(names, &victims, MAX_COLOURS, plot_cell(t, r, "job"));
	for (unsigned r = 0; r < t->nrows; r++) {
		const char *point = plot_cell(t, r, "point"), *job = plot_cell(t, r, "job");
		char key[768], head[512], colour[640];
		const char *last;
		double est, lo, hi, v[1024];
		unsigned n = 0;
		bool ci;

		emulated |= !strcmp(plot_cell(t, r, "emulated"), "1");
		if (!loaded_victim(t, r))
			continue;
		snprintf(key, sizeof(key), "%s\n%s", job, point);
		if (seen(done, &ndone, MAX_CATS * MAX_COLOURS, key,
			 &bc.dropped))
			continue;	/* a later repeat */
		split_point(point, head, sizeof(head), &last);
		snprintf(colour, sizeof(colour), "%s%s%s",
			 victims > 1 ? job : "", victims > 1 && *head ? " " : "",
			 head);
		ci = plot_number(plot_cell(t, r, "slowdown_est_pct"), &est) &&
		     plot_number(plot_cell(t, r, "slowdown_ci_lo_pct"), &lo) &&
		     plot_number(plot_cell(t, r, "slowdown_ci_hi_pct"), &hi);
		if (!ci) {
			for (unsigned k = r; k < t->nrows && n < 1024; k++)
				if (loaded_victim(t, k) &&
				    !strcmp(plot_cell(t, k, "job"), job) &&
				    !strcmp(plot_cell(t, k, "point"), point) &&
				    plot_number(plot_cell(t, k, "slowdown_pct"), &v[n]))
					n++;
			if (!n)
				continue;
			est = stat_summarise(v, n).median;
			lo = v[0];
			hi = v[n - 1];
			ranges++;
		}
		if (!bc.ncats)
			last_option(point, bc.xlabel, sizeof(bc.xlabel));
		bar_add(&bc, *last ? last : job, colour, est, lo, hi, true);
	}
	for (unsigned i = 0; i < ndone; i++)
		free(done[i]);
	for (unsigned i = 0; i < victims; i++)
		free(names[i]);
	if (!bc.nbars) {
		bar_free(&bc);
		snprintf(err, errlen, "nothing to plot: no loaded victim with "
			 "status ok has a slowdown");
		return -1;
	}
	if (!*bc.xlabel)
		snprintf(bc.xlabel, sizeof(bc.xlabel), "point");
	else
		snprintf(bc.xlabel + strlen(bc.xlabel),
			 sizeof(bc.xlabel) - strlen(bc.xlabel),
			 " (the last swept option)");
	snprintf(bc.ylabel, sizeof(bc.ylabel), "victim slowdown, %% of its "
		 "time alone (whiskers: %s)", ranges ? "95% CI, or the range "
		 "of the runs where too few for one" : "95% CI");
	if (emulated)
		fputs("set style textbox opaque noborder\n"
		      "set label 'EMULATED: the writers wrote to ordinary "
		      "memory standing in for the device (dax_emulate=1)' at "
		      "graph 0.99, graph 0.97 right front boxed textcolor "
		      "rgb '#a00000'\n", f);
	fputs("set key top left box opaque\n", f);
	put_bars(f, &bc, 0);
	bar_free(&bc);
	return 0;
}

/* "GB/s (10^9 bytes per second)" for a metric_name. */
static const char *metric_label(const char *name)
{
	if (!strcmp(name, "gbps"))
		return "GB/s (10^9 bytes per second)";
	if (!strcmp(name, "ns_per_item"))
		return "ns per item (chase: per access)";
	if (!strcmp(name, "elapsed_s"))
		return "seconds (lower is better)";
	return name;
}

/* The figure of row r: metric (by metric_name), else gbps. */
static bool row_figure(const struct csv_table *t, unsigned r,
		       const char **name, double *v)
{
	*name = plot_cell(t, r, "metric_name");
	if (**name && plot_number(plot_cell(t, r, "metric"), v))
		return true;
	*name = "gbps";
	return plot_number(plot_cell(t, r, "gbps"), v);
}

/* One panel of bars: the rows whose figure is metric, each job (and
 * point) its median and range. */
static void bars_panel(FILE *f, const struct csv_table *t,
		       const char *metric, unsigned panel, bool *dropped)
{
	struct bar_chart bc = { .ncats = 0 };
	char *done[MAX_CATS * MAX_COLOURS];
	unsigned ndone = 0;
	bool points = false;

	for (unsigned r = 0; r < t->nrows; r++)
		points |= plot_usable(t, r) && *plot_cell(t, r, "point");
	for (unsigned r = 0; r < t->nrows; r++) {
		const char *name, *job = plot_cell(t, r, "job");
		const char *phase = plot_cell(t, r, "phase");
		const char *point = plot_cell(t, r, "point");
		char key[768], who[256];
		double v[1024], x;
		unsigned n = 0;
		struct stat_summary s;

		if (!plot_usable(t, r) || !row_figure(t, r, &name, &x) ||
		    strcmp(name, metric))
			continue;
		snprintf(key, sizeof(key), "%s\n%s\n%s", job, phase, point);
		if (seen(done, &ndone, MAX_CATS * MAX_COLOURS, key,
			 &bc.dropped))
			continue;
		for (unsigned k = r; k < t->nrows && n < 1024; k++)
			if (plot_usable(t, k) && !strcmp(plot_cell(t, k, "job"), job) &&
			    !strcmp(plot_cell(t, k, "phase"), phase) &&
			    !strcmp(plot_cell(t, k, "point"), point) &&
			    row_figure(t, k, &name, &v[n]) &&
			    !strcmp(name, metric))
				n++;
		s = stat_summarise(v, n);
		snprintf(who, sizeof(who), "%s%s%s", job, *phase ? " " : "",
			 phase);
		if (points)
			bar_add(&bc, *point ? point : who, who, s.median, s.min,
				s.max, n > 1);
		else
			bar_add(&bc, who, "", s.median, s.min, s.max, n > 1);
	}
	for (unsigned i = 0; i < ndone; i++)
		free(done[i]);
	*dropped |= bc.dropped;
	snprintf(bc.xlabel, sizeof(bc.xlabel), "%s", points ? "point" :
		 "job, in the order run");
	snprintf(bc.ylabel, sizeof(bc.ylabel), "%s, median of the runs "
		 "(whiskers: min..max)", metric_label(metric));
	fputs(points ? "set key top left box opaque\n" : "unset key\n", f);
	put_bars(f, &bc, panel);
	bar_free(&bc);
}

static int bars_chart(FILE *f, const struct csv_table *t, const char *title,
		      char *err, size_t errlen)
{
	char *metrics[MAX_PANELS];
	unsigned n = 0;
	bool dropped = false;

	for (unsigned r = 0; r < t->nrows; r++) {
		const char *name;
		double v;

		if (plot_usable(t, r) && row_figure(t, r, &name, &v) &&
		    strlist_intern(metrics, &n, MAX_PANELS, name) < 0)
			dropped = true;
	}
	if (!n) {
		snprintf(err, errlen, "nothing to plot: no row with status ok "
			 "has a figure (metric or gbps)");
		return -1;
	}
	if (n > 1) {
		fprintf(f, "set multiplot layout 1,%u title ", n);
		plot_put_quoted(f, title);
		fputs("\nunset title\n", f);
	}
	for (unsigned i = 0; i < n; i++) {
		bars_panel(f, t, metrics[i], i, &dropped);
		free(metrics[i]);
	}
	if (n > 1)
		fputs("unset multiplot\n", f);
	if (dropped)
		fprintf(stderr, "memjob plot: more jobs, points or kinds of "
			"figure than one chart shows (%d x %d, %d panels): "
			"some are left out\n", MAX_CATS, MAX_COLOURS,
			MAX_PANELS);
	return 0;
}

void plot_put_title(FILE *f, const struct csv_table *t)
{
	char title[768];

	plot_title(t, title, sizeof(title));
	fputs("set title ", f);
	plot_put_quoted(f, title);
	fputc('\n', f);
}

int plot_bars_script(FILE *f, const struct csv_table *t, char *err,
		     size_t errlen)
{
	char title[768];

	plot_title(t, title, sizeof(title));
	plot_put_title(f, t);
	return bars_chart(f, t, title, err, errlen);
}

int plot_slowdown_script(FILE *f, const struct csv_table *t, char *err,
			 size_t errlen)
{
	plot_put_title(f, t);
	return slowdown_chart(f, t, err, errlen);
}
