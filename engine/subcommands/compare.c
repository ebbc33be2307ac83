/*
 * compare.c - rows into points and runs, medians, and changes against a
 * baseline (see compare.h).
 *
 * The one idea: a point is its key columns' values joined into one
 * string, so grouping many hosts' rows is one tree lookup per row
 * (glibc's tsearch), and every table, whatever columns it has, is read
 * through the same list of column names.  Rows come one at a time (an
 * input may be far larger than memory) and leave only their value in
 * their point and run's cell: the names a comparison keeps (runs,
 * metrics, job hashes, the points' keys) are copied once each.
 */
#include <errno.h>
#include <math.h>
#include <search.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/compare.h"
#include "util/row.h"

const char *const cmp_verdict_names[] = {
	[CMP_BASELINE] = "baseline", [CMP_MISSING] = "missing",
	[CMP_NO_BASELINE] = "no_baseline",
	[CMP_METRIC_DIFFERS] = "metric_differs",
	[CMP_WITHIN_SPREAD] = "within_spread", [CMP_BETTER] = "better",
	[CMP_WORSE] = "worse", [CMP_HIGHER] = "higher", [CMP_LOWER] = "lower",
};

/* The columns of one table that grouping reads; -1 when absent. */
struct src_cols {
	int by, status, metric, metric_name, ns_per_item, gbps, job_hash;
	int *key;
};

/* The values of a point's key, joined by a separator no name holds. */
#define KEY_SEP	'\x1f'

/* A run or a point in its tree: its index, and its name or joined key. */
struct named {
	unsigned idx;
	const char *name;
};

struct grouping {
	const struct cmp_src *src;
	unsigned nsrc;
	const struct cmp_opts *o;
	struct src_cols *cols;
	void *runs, *points;		/* trees of struct named */
	struct point_cells {		/* per point, its cells by run so far */
		struct cmp_cell *cell;
		unsigned n;
	} *cells;
	unsigned point_cap, run_cap;
	char *joined;			/* the key of the row at hand */
	size_t joined_cap;
	char *err;
	size_t errlen;
};

int cmp_direction(const char *metric)
{
	static const char *const higher[] = { "gbps", "ops_per_s", "ipc",
					      NULL };
	static const char *const lower[] = {
		"ns_per_item", "cpu_ns_per_item", "elapsed_s", "elapsed_ns",
		"usr_ns", "sys_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns",
		"lat_p999_ns", "lat_max_ns", "slowdown_pct", "cache_miss_rate",
		"branch_miss_rate", "l1_dcache_load_miss_rate",
		"llc_load_miss_rate", NULL
	};

	for (unsigned i = 0; higher[i]; i++)
		if (!strcmp(metric, higher[i]))
			return 1;
	for (unsigned i = 0; lower[i]; i++)
		if (!strcmp(metric, lower[i]))
			return -1;
	return 0;
}

static bool in_list(const char **list, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool any_has(const struct cmp_src *src, unsigned n, const char *col)
{
	for (unsigned k = 0; k < n; k++)
		if (csv_table_col(src[k].t, col) >= 0)
			return true;
	return false;
}

/* job, phase (when some table has it), machine_type (with --by, when
 * some table has it), then every sweep_* column in the order first seen;
 * never the column runs are told apart by. */
static int default_key(struct cmp *c, const struct cmp_src *src, unsigned n,
		       const char *by)
{
	unsigned cap = 2, nkey = 0;
	const char **key;

	for (unsigned k = 0; k < n; k++)
		cap += src[k].t->ncols;
	key = malloc(cap * sizeof(*key));
	if (!key)
		return -1;
	if (!by || strcmp(by, "job"))
		key[nkey++] = "job";
	if (any_has(src, n, "phase") && (!by || strcmp(by, "phase")))
		key[nkey++] = "phase";
	/* a fleet's hosts are set against their own machine type's */
	if (by && strcmp(by, "machine_type") &&
	    any_has(src, n, "machine_type"))
		key[nkey++] = "machine_type";
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < src[k].t->ncols; i++) {
			const char *h = src[k].t->head[i];

			if (!strncmp(h, "sweep_", 6) && (!by || strcmp(h, by)) &&
			    !in_list(key, nkey, h))
				key[nkey++] = h;
		}
	c->key = key;
	c->nkey = nkey;
	return 0;
}

static int find_cols(struct grouping *g, const struct cmp *c)
{
	g->cols = calloc(g->nsrc, sizeof(*g->cols));
	if (!g->cols)
		return -1;
	for (unsigned k = 0; k < g->nsrc; k++) {
		const struct csv_table *t = g->src[k].t;
		struct src_cols *sc = &g->cols[k];

		sc->by = g->o->by ? csv_table_col(t, g->o->by) : -1;
		sc->status = csv_table_col(t, "status");
		sc->metric = csv_table_col(t, g->o->metric ? g->o->metric
							   : "metric");
		sc->metric_name = csv_table_col(t, "metric_name");
		sc->ns_per_item = csv_table_col(t, "ns_per_item");
		sc->gbps = csv_table_col(t, "gbps");
		sc->job_hash = csv_table_col(t, "job_hash");
		sc->key = calloc(c->nkey + 1, sizeof(*sc->key));
		if (!sc->key)
			return -1;
		for (unsigned i = 0; i < c->nkey; i++)
			sc->key[i] = csv_table_col(t, c->key[i]);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
		      ((const struct named *)b)->name);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The one copy of s that c keeps, NULL when out of memory. */
static const char *intern(struct cmp *c, const char *s)
{
	char **found = tfind(s, &c->strings, by_text), *copy;

	if (found)
		return *found;
	copy = strdup(s);
	if (!copy)
		return NULL;
	found = tsearch(copy, &c->strings, by_text);
	if (!found) {
		free(copy);
		return NULL;
	}
	return *found;
}

/* The index of name in tree (next, and *added, when it is new: the
 * entry then keeps name, which must outlive the tree). */
static int lookup(void **tree, const char *name, unsigned next,
		  unsigned *idx, bool *added)
{
	struct named probe = { .name = name }, **found, *e;

	found = tfind(&probe, tree, by_name);
	*added = !found;
	if (found) {
		*idx = (*found)->idx;
		return 0;
	}
	e = malloc(sizeof(*e));
	if (!e)
		return -1;
	*e = (struct named){ .idx = next, .name = name };
	if (!tsearch(e, tree, by_name)) {
		free(e);
		return -1;
	}
	*idx = next;
	return 0;
}

static const char *cell_of(const char *const *row, int col)
{
	return col >= 0 ? row[col] : "";
}

/* Room for n elements of size at *p, holding *cap; a new part zeroed. */
static int room(void *p, unsigned *cap, unsigned n, size_t size)
{
	void **a = p;
	unsigned c = *cap ? *cap : 16;
	char *grown;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	grown = realloc(*a, (size_t)c * size);
	if (!grown)
		return -1;
	memset(grown + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
	*a = grown;
	*cap = c;
	return 0;
}

/* The index of the row's run, adding it when first seen. */
static int run_index(struct grouping *g, struct cmp *c, unsigned k,
		     const char *const *row, unsigned *i)
{
	const char *name = g->o->by ? cell_of(row, g->cols[k].by)
				    : g->src[k].run;
	bool added;

	if (g->o->by && !(name = intern(c, name)))
		return -1;
	if (lookup(&g->runs, name, c->nruns, i, &added))
		return -1;
	if (added) {
		unsigned cap = g->run_cap;

		if (room(&c->run, &cap, c->nruns + 1, sizeof(*c->run)) ||
		    room(&c->run_rows, &g->run_cap, c->nruns + 1,
			 sizeof(*c->run_rows)))
			return -1;
		c->run[c->nruns++] = name;
	}
	c->run_rows[*i]++;
	return 0;
}

/* The row's key values joined in g->joined. */
static int join_key(struct grouping *g, const struct cmp *c, unsigned k,
		    const char *const *row)
{
	size_t len = 1, at = 0;

	for (unsigned i = 0; i < c->nkey; i++)
		len += strlen(cell_of(row, g->cols[k].key[i])) + 1;
	if (len > g->joined_cap) {
		char *j = realloc(g->joined, len);

		if (!j)
			return -1;
		g->joined = j;
		g->joined_cap = len;
	}
	for (unsigned i = 0; i < c->nkey; i++) {
		const char *v = cell_of(row, g->cols[k].key[i]);
		size_t n = strlen(v);

		memcpy(g->joined + at, v, n);
		at += n;
		g->joined[at++] = KEY_SEP;
	}
	g->joined[at] = '\0';
	return 0;
}

/* A new point's key in one block (cmp_free frees it): the pointers to
 * its values, the values each ending in '\0', then the joined key the
 * tree of points compares (*joined). */
static const char **key_values(const struct cmp *c, const char *key,
			       const char **joined)
{
	size_t len = strlen(key) + 1;
	const char **v = malloc((c->nkey + 1) * sizeof(*v) + 2 * len);
	char *s;

	if (!v)
		return NULL;
	s = memcpy((char *)(v + c->nkey + 1), key, len);
	*joined = memcpy(s + len, key, len);
	for (unsigned i = 0; i < c->nkey; i++) {
		v[i] = s;
		s = strchr(s, KEY_SEP);
		*s++ = '\0';
	}
	v[c->nkey] = NULL;
	return v;
}

/* The index of the row's point, adding it when first seen. */
static int point_index(struct grouping *g, struct cmp *c, unsigned k,
		       const char *const *row, unsigned *i)
{
	struct named probe, **found;
	const char **values, *joined;
	unsigned cap = g->point_cap;
	bool added;

	if (join_key(g, c, k, row))
		return -1;
	probe.name = g->joined;
	found = tfind(&probe, &g->points, by_name);
	if (found) {
		*i = (*found)->idx;
		return 0;
	}
	/* (the two arrays grow together, from the same capacity) */
	if (room(&c->point, &cap, c->npoints + 1, sizeof(*c->point)) ||
	    room(&g->cells, &g->point_cap, c->npoints + 1, sizeof(*g->cells)))
		return -1;
	values = key_values(c, g->joined, &joined);
	if (!values)
		return -1;
	if (lookup(&g->points, joined, c->npoints, i, &added)) {
		free(values);
		return -1;
	}
	c->point[c->npoints++] = (struct cmp_point){ .key = values };
	return 0;
}

/* Row's metric: its name, and the column its value is in (-1: none). */
static int metric_of(const struct grouping *g, unsigned k,
		     const char *const *row, const char **name)
{
	const struct src_cols *sc = &g->cols[k];
	const char *own = cell_of(row, sc->metric_name);

	if (g->o->metric) {
		*name = strcmp(g->o->metric, "metric") || !*own ? g->o->metric
								 : own;
		return sc->metric;
	}
	if (sc->metric >= 0 && *own) {
		*name = own;
		return sc->metric;
	}
	if (*cell_of(row, sc->ns_per_item)) {
		*name = "ns_per_item";
		return sc->ns_per_item;
	}
	*name = "gbps";
	return sc->gbps;
}

static int cell_add(struct cmp *c, struct cmp_cell *cell, const char *name,
		    double v)
{
	if (cell->nv == cell->cap) {
		unsigned cap = cell->cap ? cell->cap * 2 : 8;
		double *nv = realloc(cell->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		cell->v = nv;
		cell->cap = cap;
	}
	cell->v[cell->nv++] = v;
	if (!cell->metric)
		return (cell->metric = intern(c, name)) ? 0 : -1;
	if (strcmp(cell->metric, name))
		cell->mixed = true;
	return 0;
}

static int add_row(struct grouping *g, struct cmp *c, struct cmp_cell *cell,
		   unsigned k, const char *const *row, unsigned line)
{
	const struct csv_table *t = g->src[k].t;
	const char *name, *text;
	char *end;
	double v;
	int col;

	col = metric_of(g, k, row, &name);
	text = cell_of(row, col);
	if ((g->cols[k].status >= 0 &&
	     strcmp(cell_of(row, g->cols[k].status), "ok")) || !*text) {
		cell->left_out++;
		return 0;
	}
	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v)) {
		snprintf(g->err, g->errlen, "%s:%u: column '%s': expected a "
			 "number, got '%s'", t->name, line, t->head[col],
			 text);
		return 1;	/* not out of memory: err says what */
	}
	return cell_add(c, cell, name, v);
}

/* A row's job_hash (empty: unknown) against its point's first. */
static int note_job(struct cmp *c, struct cmp_point *p, const char *hash)
{
	if (!*hash)
		return 0;
	if (!p->job_hash)
		return (p->job_hash = intern(c, hash)) ? 0 : -1;
	if (strcmp(p->job_hash, hash))
		p->jobs_differ = true;
	return 0;
}

/* One row: its run and point, and its value into their cell. */
static int take(struct grouping *g, struct cmp *c, unsigned k,
		const char *const *row, unsigned line)
{
	struct point_cells *pc;
	unsigned run, point;

	if (run_index(g, c, k, row, &run) ||
	    point_index(g, c, k, row, &point) ||
	    note_job(c, &c->point[point], cell_of(row, g->cols[k].job_hash)))
		return -1;
	pc = &g->cells[point];
	if (room(&pc->cell, &pc->n, run + 1, sizeof(*pc->cell)))
		return -1;
	return add_row(g, c, &pc->cell[run], k, row, line);
}

/* Every row of source k, from its table or read as it comes. */
static int take_all(struct grouping *g, struct cmp *c, unsigned k)
{
	const struct cmp_src *s = &g->src[k];
	const char *const *row;
	unsigned line;
	int ret = 0, got;

	if (!s->rows) {
		for (unsigned r = 0; !ret && r < s->t->nrows; r++)
			ret = take(g, c, k, (const char *const *)s->t->rows[r],
				   s->t->line[r]);
		return ret;
	}
	while (!ret && (got = csv_rows_next(s->rows, &row, &line)) > 0)
		ret = take(g, c, k, row, line);
	if (!ret && got < 0) {
		snprintf(g->err, g->errlen, "%s", csv_rows_error(s->rows));
		ret = 1;
	}
	return ret;
}

/* The cells of every point and run, by point, in one array. */
static int gather(struct grouping *g, struct cmp *c)
{
	c->cells = calloc((size_t)c->npoints * c->nruns + 1, sizeof(*c->cells));
	if (!c->cells)
		return -1;
	for (unsigned i = 0; g->cells && i < c->npoints; i++) {
		struct point_cells *pc = &g->cells[i];

		c->point[i].cell = &c->cells[(size_t)i * c->nruns];
		for (unsigned j = 0; j < pc->n && j < c->nruns; j++)
			c->point[i].cell[j] = pc->cell[j];
		free(pc->cell);
		*pc = (struct point_cells){ 0 };
	}
	for (size_t i = 0; i < (size_t)c->npoints * c->nruns; i++)
		c->cells[i].s = stat_summarise(c->cells[i].v, c->cells[i].nv);
	return 0;
}

static int group(struct grouping *g, struct cmp *c)
{
	int ret = 0;

	for (unsigned k = 0; !ret && k < g->nsrc; k++)
		ret = take_all(g, c, k);
	return ret ? ret : gather(g, c);
}

int cmp_build(struct cmp *c, const struct cmp_src *src, unsigned n,
	      const struct cmp_opts *o, char *err, size_t errlen)
{
	struct grouping g = { .src = src, .nsrc = n, .o = o, .err = err,
			      .errlen = errlen };
	int ret = -1;

	memset(c, 0, sizeof(*c));
	if (o->key) {
		c->key = malloc((o->nkey + 1) * sizeof(*c->key));
		if (c->key) {
			memcpy(c->key, o->key, o->nkey * sizeof(*c->key));
			c->nkey = o->nkey;
		}
	} else {
		default_key(c, src, n, o->by);
	}
	if (c->key && !find_cols(&g, c))
		ret = group(&g, c);
	if (ret < 0)
		snprintf(err, errlen, "out of memory");
	tdestroy(g.runs, free);
	tdestroy(g.points, free);
	for (unsigned i = 0; g.cells && i < c->npoints; i++) {
		for (unsigned j = 0; j < g.cells[i].n; j++)
			free(g.cells[i].cell[j].v);
		free(g.cells[i].cell);
	}
	free(g.cells);
	free(g.joined);
	for (unsigned k = 0; g.cols && k < n; k++)
		free(g.cols[k].key);
	free(g.cols);
	if (ret)
		cmp_free(c);
	return ret ? -1 : 0;
}

static enum cmp_verdict verdict(const struct cmp_cell *x,
				const struct cmp_cell *b)
{
	bool up = x->s.median > b->s.median;
	int dir;

	if (x->ci.status == INTERVAL_OK) {
		if (x->ci.lo <= 0 && x->ci.hi >= 0)
			return CMP_WITHIN_SPREAD;
		up = x->ci.lo > 0;
	} else if (x->s.min <= b->s.max && b->s.min <= x->s.max) {
		return CMP_WITHIN_SPREAD;
	}
	dir = cmp_direction(x->metric);
	if (!dir)
		return up ? CMP_HIGHER : CMP_LOWER;
	return up == (dir > 0) ? CMP_BETTER : CMP_WORSE;
}

static void set_against(struct cmp_cell *x, const struct cmp_cell *b,
			bool is_base)
{
	x->has_change = false;
	x->ci.status = INTERVAL_BAD;
	if (!x->s.n)
		x->verdict = CMP_MISSING;
	else if (is_base)
		x->verdict = CMP_BASELINE;
	else if (!b->s.n)
		x->verdict = CMP_NO_BASELINE;
	else if (x->mixed || b->mixed || strcmp(x->metric, b->metric))
		x->verdict = CMP_METRIC_DIFFERS;
	else {
		/* the ratio's interval: "lower is better" keeps its sign */
		x->ci = interval_slowdown(b->v, b->nv, x->v, x->nv, true);
		x->verdict = verdict(x, b);
	}
	/* the verdicts from within spread on compare two values */
	if (x->verdict >= CMP_WITHIN_SPREAD && b->s.median != 0) {
		x->change_pct = fig_fixed((x->s.median - b->s.median) /
					  b->s.median * 100, CMP_PCT_DECIMALS);
		x->has_change = true;
	}
}

int cmp_against(struct cmp *c, const char *baseline)
{
	unsigned b = 0;

	if (baseline) {
		for (b = 0; b < c->nruns && strcmp(c->run[b], baseline); b++)
			;
		if (b == c->nruns)
			return -1;
	}
	c->base = b;
	for (unsigned i = 0; i < c->npoints; i++)
		for (unsigned j = 0; j < c->nruns; j++)
			set_against(&c->point[i].cell[j],
				    &c->point[i].cell[b], j == b);
	return 0;
}

void cmp_free(struct cmp *c)
{
	for (size_t i = 0; c->cells && i < (size_t)c->npoints * c->nruns; i++)
		free(c->cells[i].v);
	for (unsigned i = 0; c->point && i < c->npoints; i++)
		free(c->point[i].key);
	free(c->cells);
	free(c->point);
	free(c->key);
	free(c->run);
	free(c->run_rows);
	tdestroy(c->strings, free);
	memset(c, 0, sizeof(*c));
}
