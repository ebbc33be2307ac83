/*
 * plotdata.c - turn the rows of a memjob result CSV (read by csvtable.c)
 * into the series of a plot (see plotdata.h).
 *
 * The one idea: the CSV already says which rows belong together.  Its
 * point column names every swept option's value, so dropping the x
 * option's pair from it leaves exactly what distinguishes one line of the
 * plot from another, whatever the job swept.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/csvtable.h"
#include "subcommands/plotdata.h"
#include "util/value.h"

/* The columns plot looks at; -1 when absent. */
struct cols {
	int x, y, status, job, phase, point, host, metric_name;
};

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A column that must exist, with a hint when it does not. */
static int need_col(const struct csv_table *t, const char *name,
		    const char *file, int *col, char *err, size_t errlen)
{
	const char *near;

	*col = csv_table_col(t, name);
	if (*col >= 0)
		return 0;
	near = csv_table_nearest(t, 1, name);
	if (near)
		return fail(err, errlen, "no column '%s' in %s; did you mean "
			    "'%s'?", name, file, near);
	return fail(err, errlen, "no column '%s' in %s (see memjob(1), "
		    "CSV)", name, file);
}

static bool usable(const struct csv_table *t, const struct cols *c, unsigned r)
{
	return c->status < 0 || !strcmp(csv_table_cell(t, r, c->status), "ok");
}

/* A plain number, or (*bytes set) a size such as 64k. */
static bool parse_x(const char *s, double *v, bool *bytes)
{
	const char *why;
	uint64_t u;
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end != s && !*end && !errno)
		return true;
	if (value_size(s, &u, &why))
		return false;
	*v = (double)u;
	*bytes = true;
	return true;
}

static bool parse_y(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno;
}

/* The point column without the pairs of option x ("x=" or "job.x="). */
static void point_without(const char *point, const char *x, char *out,
			  size_t len)
{
	const char *p = point;
	size_t xl = strlen(x), o = 0;

	out[0] = '\0';
	while (*p) {
		const char *end = strchr(p, ' '), *eq;
		size_t n = end ? (size_t)(end - p) : strlen(p);
		size_t k;

		eq = memchr(p, '=', n);
		k = eq ? (size_t)(eq - p) : n;
		if (n && !((k == xl || (k > xl && p[k - xl - 1] == '.')) &&
			   !strncmp(p + k - xl, x, xl)) && o + n + 2 < len) {
			o += (size_t)snprintf(out + o, len - o, "%s%.*s",
					      o ? " " : "", (int)n, p);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

static struct plot_series *series_of(struct plot_data *pd, const char *title)
{
	struct plot_series *s;

	for (unsigned i = 0; i < pd->nseries; i++)
		if (!strcmp(pd->series[i].title, title))
			return &pd->series[i];
	s = realloc(pd->series, (pd->nseries + 1) * sizeof(*s));
	if (!s)
		return NULL;
	pd->series = s;
	s = &pd->series[pd->nseries];
	memset(s, 0, sizeof(*s));
	s->title = strdup(title);
	if (!s->title)
		return NULL;
	pd->nseries++;
	return s;
}

static int series_add(struct plot_series *s, double x, double y)
{
	if (s->n == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 32;
		double *nx = realloc(s->x, cap * sizeof(*nx)), *ny;

		if (!nx)
			return -1;
		s->x = nx;
		ny = realloc(s->y, cap * sizeof(*ny));
		if (!ny)
			return -1;
		s->y = ny;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n++] = y;
	return 0;
}

struct xy {
	double x, y;
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->y > q->y) - (p->y < q->y);
}

/* Sort by x and fold the ys of one x into their median. */
static int series_fold(struct plot_series *s)
{
	struct xy *v = malloc(s->n * sizeof(*v) + 1);
	unsigned i, j, k = 0;

	if (!v)
		return -1;
	for (i = 0; i < s->n; i++)
		v[i] = (struct xy){ s->x[i], s->y[i] };
	qsort(v, s->n, sizeof(*v), cmp_xy);
	for (i = 0; i < s->n; i = j) {
		unsigned c;

		for (j = i; j < s->n && v[j].x == v[i].x; j++)
			;
		c = j - i;	/* sorted by y within one x */
		s->x[k] = v[i].x;
		s->y[k++] = c % 2 ? v[i + c / 2].y
				  : (v[i + c / 2 - 1].y + v[i + c / 2].y) / 2;
	}
	s->n = k;
	free(v);
	return 0;
}

static void find_cols(const struct csv_table *t, struct cols *c)
{
	c->status = csv_table_col(t, "status");
	c->job = csv_table_col(t, "job");
	c->phase = csv_table_col(t, "phase");
	c->point = csv_table_col(t, "point");
	c->host = csv_table_col(t, "host");
	c->metric_name = csv_table_col(t, "metric_name");
}

/* ns_per_item unless no usable row has one: then metric. */
static const char *auto_y(const struct csv_table *t, const struct cols *c,
			  const char *y)
{
	int col = csv_table_col(t, y);

	if (strcmp(y, "ns_per_item") || csv_table_col(t, "metric") < 0)
		return y;
	for (unsigned r = 0; col >= 0 && r < t->nrows; r++)
		if (usable(t, c, r) && *csv_table_cell(t, r, col))
			return y;
	return "metric";
}

/* The host every row shares, or NULL. */
static char *one_host(const struct csv_table *t, const struct cols *c)
{
	const char *h = csv_table_cell(t, 0, c->host);

	for (unsigned r = 1; r < t->nrows; r++)
		if (strcmp(csv_table_cell(t, r, c->host), h))
			return NULL;
	return *h ? strdup(h) : NULL;
}

static void set_ylabel(struct plot_data *pd, const struct csv_table *t,
		       const struct cols *c, const char *y)
{
	const char *mname = "";

	for (unsigned r = 0; r < t->nrows && c->metric_name >= 0; r++)
		if (usable(t, c, r) && *csv_table_cell(t, r, c->y)) {
			mname = csv_table_cell(t, r, c->metric_name);
			break;
		}
	if (!strcmp(y, "ns_per_item"))
		snprintf(pd->ylabel, sizeof(pd->ylabel),
			 "ns per item (chase: per access)");
	else if (!strcmp(y, "metric") && *mname)
		snprintf(pd->ylabel, sizeof(pd->ylabel), "%s (metric)", mname);
	else
		snprintf(pd->ylabel, sizeof(pd->ylabel), "%s", y);
}

static int add_row(struct plot_data *pd, const struct csv_table *t,
		   const struct cols *c, unsigned r, const char *x,
		   const char *name, char *err, size_t errlen)
{
	const char *xs = csv_table_cell(t, r, c->x);
	const char *ys = csv_table_cell(t, r, c->y);
	const char *host, *phase;
	char title[1024], rest[768];
	struct plot_series *s;
	double xv, yv;

	if (!usable(t, c, r) || !*xs || !*ys)
		return 0;
	if (!parse_x(xs, &xv, &pd->size_axis))
		return fail(err, errlen, "%s:%u: %s '%s' is not a number",
			    name, t->line[r], t->head[c->x], xs);
	if (!parse_y(ys, &yv))
		return fail(err, errlen, "%s:%u: %s '%s' is not a number",
			    name, t->line[r], t->head[c->y], ys);
	/* a swept option's column is sweep_NAME; the point says NAME= */
	point_without(csv_table_cell(t, r, c->point),
		      strncmp(x, "sweep_", 6) ? x : x + 6, rest, sizeof(rest));
	host = pd->host ? "" : csv_table_cell(t, r, c->host);
	phase = csv_table_cell(t, r, c->phase);
	snprintf(title, sizeof(title), "%s%s%s%s%s%s%s", host,
		 *host ? " " : "", csv_table_cell(t, r, c->job),
		 *phase ? " " : "", phase, *rest ? " " : "", rest);
	s = series_of(pd, title);
	if (!s || series_add(s, xv, yv))
		return fail(err, errlen, "out of memory");
	return 0;
}

static bool bytes_column(const char *x)
{
	static const char *const names[] = { "size", "bs", "offset", "stride",
					     "rate", NULL };

	return value_word(strncmp(x, "sweep_", 6) ? x : x + 6, names) >= 0;
}

static int build(struct plot_data *pd, const struct csv_table *t, const char *x,
		 const char *y, bool y_auto, const char *name, char *err,
		 size_t errlen)
{
	struct cols c;
	unsigned r, s, i;
	bool first = true;

	find_cols(t, &c);
	if (y_auto)
		y = auto_y(t, &c, y);
	if (need_col(t, x, name, &c.x, err, errlen) ||
	    need_col(t, y, name, &c.y, err, errlen))
		return -1;
	pd->host = one_host(t, &c);
	pd->size_axis = bytes_column(x);
	set_ylabel(pd, t, &c, y);
	for (r = 0; r < t->nrows; r++)
		if (add_row(pd, t, &c, r, x, name, err, errlen))
			return -1;
	if (!pd->nseries)
		return fail(err, errlen, "nothing to plot: no row of %s with "
			    "status ok has both %s and %s", name, x, y);
	for (s = 0; s < pd->nseries; s++) {
		struct plot_series *ps = &pd->series[s];

		if (series_fold(ps))
			return fail(err, errlen, "out of memory");
		for (i = 0; i < ps->n; i++) {
			if (first || ps->x[i] < pd->xmin)
				pd->xmin = ps->x[i];
			if (first || ps->x[i] > pd->xmax)
				pd->xmax = ps->x[i];
			if (first || ps->y[i] < pd->ymin)
				pd->ymin = ps->y[i];
			if (first || ps->y[i] > pd->ymax)
				pd->ymax = ps->y[i];
			first = false;
		}
	}
	if (pd->size_axis && pd->xmin <= 0)
		return fail(err, errlen, "%s: a %s of 0 cannot go on a log "
			    "axis", name, x);
	return 0;
}

int plot_data_build(struct plot_data *pd, const struct csv_table *t,
		    const char *x, const char *y, bool y_auto, char *err,
		    size_t errlen)
{
	int ret;

	memset(pd, 0, sizeof(*pd));
	ret = build(pd, t, x, y, y_auto, t->name, err, errlen);
	if (ret)
		plot_data_free(pd);
	return ret;
}

/* Series from a table read by the caller (ret: how that went). */
static int from_table(struct plot_data *pd, struct csv_table *t, int ret,
		      const char *x, const char *y, bool y_auto, char *err,
		      size_t errlen)
{
	memset(pd, 0, sizeof(*pd));
	if (ret)
		return ret;
	ret = plot_data_build(pd, t, x, y, y_auto, err, errlen);
	csv_table_free(t);
	return ret;
}

int plot_data_read(struct plot_data *pd, FILE *f, const char *name,
		   const char *x, const char *y, bool y_auto, char *err,
		   size_t errlen)
{
	struct csv_table t;

	return from_table(pd, &t, csv_table_read(&t, f, name, NULL, err,
						 errlen),
			  x, y, y_auto, err, errlen);
}

int plot_data_load(struct plot_data *pd, const char *path, const char *x,
		   const char *y, bool y_auto, char *err, size_t errlen)
{
	struct csv_table t;

	return from_table(pd, &t, csv_table_load(&t, path, NULL, err, errlen),
			  x, y, y_auto, err, errlen);
}

void plot_data_free(struct plot_data *pd)
{
	for (unsigned i = 0; i < pd->nseries; i++) {
		free(pd->series[i].title);
		free(pd->series[i].x);
		free(pd->series[i].y);
	}
	free(pd->series);
	free(pd->host);
	memset(pd, 0, sizeof(*pd));
}
