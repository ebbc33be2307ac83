/*
 * plotdata.c - read a memjob result CSV with libcsv and turn its rows into
 * the series of a plot (see plotdata.h).
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

#include <csv.h>

#include "plotdata.h"
#include "value.h"

#define CHUNK	65536

/* The CSV as strings: a header and rows (a short row reads as empty). */
struct table {
	char **head;
	unsigned ncols;
	char ***rows;
	unsigned *rowlen;
	unsigned nrows, cap;
	char **cur;		/* the row being read */
	unsigned ncur, curcap;
	bool oom;
};

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

static void free_row(char **r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(r[i]);
	free(r);
}

static void table_free(struct table *t)
{
	free_row(t->head, t->ncols);
	for (unsigned i = 0; i < t->nrows; i++)
		free_row(t->rows[i], t->rowlen[i]);
	free(t->rows);
	free(t->rowlen);
	free_row(t->cur, t->ncur);
}

static void on_field(void *s, size_t len, void *data)
{
	struct table *t = data;
	char *v;

	if (t->oom)
		return;
	if (t->ncur == t->curcap) {
		unsigned cap = t->curcap ? t->curcap * 2 : 64;
		char **c = realloc(t->cur, cap * sizeof(*c));

		if (!c) {
			t->oom = true;
			return;
		}
		t->cur = c;
		t->curcap = cap;
	}
	v = strndup(s ? (const char *)s : "", len);
	if (!v) {
		t->oom = true;
		return;
	}
	t->cur[t->ncur++] = v;
}

static bool same_as_head(const struct table *t)
{
	if (t->ncur != t->ncols)
		return false;
	for (unsigned i = 0; i < t->ncur; i++)
		if (strcmp(t->cur[i], t->head[i]))
			return false;
	return true;
}

static void on_row(int c, void *data)
{
	struct table *t = data;

	(void)c;
	if (t->oom)
		return;
	if (!t->head) {
		t->head = t->cur;
		t->ncols = t->ncur;
	} else if (same_as_head(t)) {
		free_row(t->cur, t->ncur);
	} else {
		if (t->nrows == t->cap) {
			unsigned cap = t->cap ? t->cap * 2 : 256;
			char ***r = realloc(t->rows, cap * sizeof(*r));
			unsigned *l;

			if (!r) {
				t->oom = true;
				return;
			}
			t->rows = r;
			l = realloc(t->rowlen, cap * sizeof(*l));
			if (!l) {
				t->oom = true;
				return;
			}
			t->rowlen = l;
			t->cap = cap;
		}
		t->rows[t->nrows] = t->cur;
		t->rowlen[t->nrows++] = t->ncur;
	}
	t->cur = NULL;
	t->ncur = t->curcap = 0;
}

static int table_read(struct table *t, FILE *f, const char *name, char *err,
		      size_t errlen)
{
	struct csv_parser p;
	char *buf = malloc(CHUNK);
	size_t n;
	int ret = -1;

	if (!buf || csv_init(&p, CSV_APPEND_NULL)) {
		free(buf);
		return fail(err, errlen, "out of memory");
	}
	while ((n = fread(buf, 1, CHUNK, f)) > 0) {
		if (csv_parse(&p, buf, n, on_field, on_row, t) != n) {
			fail(err, errlen, "%s: %s", name,
			     csv_strerror(csv_error(&p)));
			goto out;
		}
	}
	if (ferror(f)) {
		fail(err, errlen, "cannot read %s: %s", name, strerror(errno));
		goto out;
	}
	csv_fini(&p, on_field, on_row, t);
	if (t->oom)
		fail(err, errlen, "out of memory");
	else if (!t->head)
		fail(err, errlen, "%s is empty: no CSV header", name);
	else if (!t->nrows)
		fail(err, errlen, "%s has a header but no rows", name);
	else
		ret = 0;
out:
	csv_free(&p);
	free(buf);
	return ret;
}

static const char *cell(const struct table *t, unsigned r, int col)
{
	return col >= 0 && (unsigned)col < t->rowlen[r] ? t->rows[r][col] : "";
}

static int col_of(const struct table *t, const char *name)
{
	for (unsigned i = 0; i < t->ncols; i++)
		if (!strcmp(t->head[i], name))
			return (int)i;
	return -1;
}

/* A column that must exist, with a hint when it does not. */
static int need_col(const struct table *t, const char *name,
		    const char *file, int *col, char *err, size_t errlen)
{
	const char *near = NULL;
	unsigned best = 3;

	*col = col_of(t, name);
	if (*col >= 0)
		return 0;
	for (unsigned i = 0; i < t->ncols; i++) {
		unsigned d = value_distance(name, t->head[i]);

		if (d < best) {
			best = d;
			near = t->head[i];
		}
	}
	if (near)
		return fail(err, errlen, "no column '%s' in %s; did you mean "
			    "'%s'?", name, file, near);
	return fail(err, errlen, "no column '%s' in %s (see memjob(1), "
		    "CSV)", name, file);
}

static bool usable(const struct table *t, const struct cols *c, unsigned r)
{
	return c->status < 0 || !strcmp(cell(t, r, c->status), "ok");
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

static void find_cols(const struct table *t, struct cols *c)
{
	c->status = col_of(t, "status");
	c->job = col_of(t, "job");
	c->phase = col_of(t, "phase");
	c->point = col_of(t, "point");
	c->host = col_of(t, "host");
	c->metric_name = col_of(t, "metric_name");
}

/* ns_per_item unless no usable row has one: then metric. */
static const char *auto_y(const struct table *t, const struct cols *c,
			  const char *y)
{
	int col = col_of(t, y);

	if (strcmp(y, "ns_per_item") || col_of(t, "metric") < 0)
		return y;
	for (unsigned r = 0; col >= 0 && r < t->nrows; r++)
		if (usable(t, c, r) && *cell(t, r, col))
			return y;
	return "metric";
}

/* The host every row shares, or NULL. */
static char *one_host(const struct table *t, const struct cols *c)
{
	if (c->host < 0)
		return NULL;
	for (unsigned r = 1; r < t->nrows; r++)
		if (strcmp(cell(t, r, c->host), cell(t, 0, c->host)))
			return NULL;
	return *cell(t, 0, c->host) ? strdup(cell(t, 0, c->host)) : NULL;
}

static void set_ylabel(struct plot_data *pd, const struct table *t,
		       const struct cols *c, const char *y)
{
	const char *mname = "";

	for (unsigned r = 0; r < t->nrows && c->metric_name >= 0; r++)
		if (usable(t, c, r) && *cell(t, r, c->y)) {
			mname = cell(t, r, c->metric_name);
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

static int add_row(struct plot_data *pd, const struct table *t,
		   const struct cols *c, unsigned r, const char *x,
		   const char *name, char *err, size_t errlen)
{
	const char *xs = cell(t, r, c->x), *ys = cell(t, r, c->y);
	char title[1024], rest[768];
	struct plot_series *s;
	double xv, yv;

	if (!usable(t, c, r) || !*xs || !*ys)
		return 0;
	if (!parse_x(xs, &xv, &pd->size_axis))
		return fail(err, errlen, "%s, row %u: %s '%s' is not a number",
			    name, r + 1, t->head[c->x], xs);
	if (!parse_y(ys, &yv))
		return fail(err, errlen, "%s, row %u: %s '%s' is not a number",
			    name, r + 1, t->head[c->y], ys);
	point_without(cell(t, r, c->point), x, rest, sizeof(rest));
	snprintf(title, sizeof(title), "%s%s%s%s%s%s%s",
		 pd->host || c->host < 0 ? "" : cell(t, r, c->host),
		 pd->host || c->host < 0 ? "" : " ", cell(t, r, c->job),
		 *cell(t, r, c->phase) ? " " : "", cell(t, r, c->phase),
		 *rest ? " " : "", rest);
	s = series_of(pd, title);
	if (!s || series_add(s, xv, yv))
		return fail(err, errlen, "out of memory");
	return 0;
}

static bool bytes_column(const char *x)
{
	static const char *const names[] = { "size", "bs", "offset", "stride",
					     "rate", NULL };

	return value_word(x, names) >= 0;
}

static int build(struct plot_data *pd, const struct table *t, const char *x,
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

int plot_data_read(struct plot_data *pd, FILE *f, const char *name,
		   const char *x, const char *y, bool y_auto, char *err,
		   size_t errlen)
{
	struct table t = { 0 };
	int ret;

	memset(pd, 0, sizeof(*pd));
	ret = table_read(&t, f, name, err, errlen);
	if (!ret)
		ret = build(pd, &t, x, y, y_auto, name, err, errlen);
	table_free(&t);
	if (ret)
		plot_data_free(pd);
	return ret;
}

int plot_data_load(struct plot_data *pd, const char *path, const char *x,
		   const char *y, bool y_auto, char *err, size_t errlen)
{
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "r");
	int ret;

	if (!f) {
		memset(pd, 0, sizeof(*pd));
		return fail(err, errlen, "cannot open %s: %s", path,
			    strerror(errno));
	}
	ret = plot_data_read(pd, f, in ? "standard input" : path, x, y,
			     y_auto, err, errlen);
	if (!in)
		fclose(f);
	return ret;
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
