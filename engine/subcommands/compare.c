/*
 * compare.c - rows into points and runs, medians, and changes against a
 * baseline (see compare.h).
 *
 * The one idea: a point is its key columns' values joined into one
 * string, so grouping many hosts' rows is one hash lookup per row (glibc's
 * hsearch_r), and every table, whatever columns it has, is read through
 * the same list of column names.
 */
#include <errno.h>
#include <math.h>
#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/compare.h"

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

struct grouping {
	const struct cmp_src *src;
	unsigned nsrc;
	const struct cmp_opts *o;
	struct src_cols *cols;
	struct hsearch_data runs, points;
	char **keys;		/* the joined keys the point table holds */
	unsigned nkeys;
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

/* The index of key in table h, adding it as next when new (*added). */
static int lookup(struct hsearch_data *h, char *key, unsigned next,
		  unsigned *idx, bool *added)
{
	ENTRY e = { .key = key, .data = (void *)(uintptr_t)next }, *found;

	if (!hsearch_r(e, ENTER, &found, h))
		return -1;
	*idx = (unsigned)(uintptr_t)found->data;
	*added = *idx == next;
	return 0;
}

static const char *run_of(const struct grouping *g, unsigned k, unsigned r)
{
	if (!g->o->by)
		return g->src[k].run;
	return csv_table_cell(g->src[k].t, r, g->cols[k].by);
}

/* The index of row r's run, adding it when first seen. */
static int run_index(struct grouping *g, struct cmp *c, unsigned k,
		     unsigned r, unsigned *i)
{
	const char *name = run_of(g, k, r);
	bool added;

	if (lookup(&g->runs, (char *)name, c->nruns, i, &added))
		return -1;
	if (added)
		c->run[c->nruns++] = name;
	c->run_rows[*i]++;
	return 0;
}

static char *joined_key(const struct grouping *g, const struct cmp *c,
			unsigned k, unsigned r)
{
	size_t len = 1;
	char *s, *p;

	for (unsigned i = 0; i < c->nkey; i++)
		len += strlen(csv_table_cell(g->src[k].t, r,
					     g->cols[k].key[i])) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	for (unsigned i = 0; i < c->nkey; i++) {
		const char *v = csv_table_cell(g->src[k].t, r,
					       g->cols[k].key[i]);
		size_t n = strlen(v);

		memcpy(p, v, n);
		p += n;
		*p++ = KEY_SEP;
	}
	*p = '\0';
	return s;
}

/* The index of row r's point, adding it when first seen. */
static int point_index(struct grouping *g, struct cmp *c, unsigned k,
		       unsigned r, unsigned *i)
{
	char *key = joined_key(g, c, k, r);
	const char **values;
	bool added;

	if (!key || lookup(&g->points, key, c->npoints, i, &added)) {
		free(key);
		return -1;
	}
	if (!added) {
		free(key);
		return 0;
	}
	g->keys[g->nkeys++] = key;
	values = calloc(c->nkey + 1, sizeof(*values));
	if (!values)
		return -1;
	for (unsigned j = 0; j < c->nkey; j++)
		values[j] = csv_table_cell(g->src[k].t, r, g->cols[k].key[j]);
	c->point[c->npoints++] = (struct cmp_point){ .key = values };
	return 0;
}

/* Row r's metric: its name, and the column its value is in (-1: none). */
static int metric_of(const struct grouping *g, unsigned k, unsigned r,
		     const char **name)
{
	const struct csv_table *t = g->src[k].t;
	const struct src_cols *sc = &g->cols[k];
	const char *own = csv_table_cell(t, r, sc->metric_name);

	if (g->o->metric) {
		*name = strcmp(g->o->metric, "metric") || !*own ? g->o->metric
								 : own;
		return sc->metric;
	}
	if (sc->metric >= 0 && *own) {
		*name = own;
		return sc->metric;
	}
	if (*csv_table_cell(t, r, sc->ns_per_item)) {
		*name = "ns_per_item";
		return sc->ns_per_item;
	}
	*name = "gbps";
	return sc->gbps;
}

static int cell_add(struct cmp_cell *cell, const char *name, double v)
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
		cell->metric = name;
	else if (strcmp(cell->metric, name))
		cell->mixed = true;
	return 0;
}

static int add_row(struct grouping *g, struct cmp_cell *cell, unsigned k,
		   unsigned r)
{
	const struct csv_table *t = g->src[k].t;
	const char *name, *text;
	char *end;
	double v;
	int col;

	col = metric_of(g, k, r, &name);
	text = csv_table_cell(t, r, col);
	if ((g->cols[k].status >= 0 &&
	     strcmp(csv_table_cell(t, r, g->cols[k].status), "ok")) ||
	    !*text) {
		cell->left_out++;
		return 0;
	}
	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v)) {
		snprintf(g->err, g->errlen, "%s:%u: column '%s': expected a "
			 "number, got '%s'", t->name, t->line[r],
			 t->head[col], text);
		return 1;	/* not out of memory: err says what */
	}
	return cell_add(cell, name, v);
}

/* A row's job_hash (empty: unknown) against its point's first. */
static void note_job(struct cmp_point *p, const char *hash)
{
	if (!*hash)
		return;
	if (!p->job_hash)
		p->job_hash = hash;
	else if (strcmp(p->job_hash, hash))
		p->jobs_differ = true;
}

/* Where each row goes: its point and run. */
struct place {
	unsigned point, run;
};

/* First every row's point and run, then the cells of all points and
 * runs at once, then the rows' values into them. */
static int group(struct grouping *g, struct cmp *c)
{
	unsigned total = 0, row = 0;
	struct place *at;
	int ret = -1;

	for (unsigned k = 0; k < g->nsrc; k++)
		total += g->src[k].t->nrows;
	if (!hcreate_r(total + 1, &g->runs) ||
	    !hcreate_r(total + 1, &g->points))
		return -1;
	at = calloc(total + 1, sizeof(*at));
	g->keys = malloc((total + 1) * sizeof(*g->keys));
	c->point = calloc(total + 1, sizeof(*c->point));
	c->run = malloc((total + 1) * sizeof(*c->run));
	c->run_rows = calloc(total + 1, sizeof(*c->run_rows));
	if (!at || !g->keys || !c->point || !c->run || !c->run_rows)
		goto out;
	for (unsigned k = 0; k < g->nsrc; k++)
		for (unsigned r = 0; r < g->src[k].t->nrows; r++, row++)
			if (run_index(g, c, k, r, &at[row].run) ||
			    point_index(g, c, k, r, &at[row].point))
				goto out;
	c->cells = calloc((size_t)c->npoints * c->nruns + 1,
			  sizeof(*c->cells));
	if (!c->cells)
		goto out;
	for (unsigned i = 0; i < c->npoints; i++)
		c->point[i].cell = &c->cells[(size_t)i * c->nruns];
	row = 0;
	for (unsigned k = 0; k < g->nsrc; k++)
		for (unsigned r = 0; r < g->src[k].t->nrows; r++, row++) {
			size_t i = (size_t)at[row].point * c->nruns +
				   at[row].run;

			note_job(&c->point[at[row].point],
				 csv_table_cell(g->src[k].t, r,
						g->cols[k].job_hash));
			ret = add_row(g, &c->cells[i], k, r);
			if (ret)
				goto out;
		}
	for (size_t i = 0; i < (size_t)c->npoints * c->nruns; i++)
		c->cells[i].s = stat_summarise(c->cells[i].v, c->cells[i].nv);
	ret = 0;
out:
	free(at);
	return ret;
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
	hdestroy_r(&g.runs);
	hdestroy_r(&g.points);
	for (unsigned i = 0; i < g.nkeys; i++)
		free(g.keys[i]);
	free(g.keys);
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
		x->change_pct = (x->s.median - b->s.median) / b->s.median *
				100;
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
	memset(c, 0, sizeof(*c));
}
