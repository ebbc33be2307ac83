/*
 * csvmerge.c - the union of result CSVs (see csvmerge.h).
 *
 * A column is known by its name and which of that name it is in its
 * header (the first "size", the second), so that the merge never folds
 * two columns of one file into one.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "csvmerge.h"

/* Which column of its name column i of t is: 0 for the first. */
static unsigned occurrence(const struct csv_table *t, unsigned i)
{
	unsigned n = 0;

	for (unsigned j = 0; j < i; j++)
		n += !strcmp(t->head[j], t->head[i]);
	return n;
}

/* The merged columns, as they are found: name and occurrence. */
struct plan {
	struct column {
		const char *name;
		unsigned occ;
	} *col;
	unsigned n;
};

static int find(const struct plan *p, const char *name, unsigned occ)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->col[i].occ == occ && !strcmp(p->col[i].name, name))
			return (int)i;
	return -1;
}

static int add(struct plan *p, const char *name, unsigned occ)
{
	struct column *c;

	if (find(p, name, occ) >= 0)
		return 0;
	c = realloc(p->col, (p->n + 1) * sizeof(*c));
	if (!c)
		return -1;
	p->col = c;
	p->col[p->n++] = (struct column){ name, occ };
	return 0;
}

static bool is_sweep(const char *name)
{
	return !strncmp(name, "sweep_", 6);
}

/* The columns of every table that are swept (or not), as first seen. */
static int add_seen(struct plan *p, const struct csv_table *t, unsigned n,
		    bool sweep)
{
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < t[k].ncols; i++)
			if (is_sweep(t[k].head[i]) == sweep &&
			    add(p, t[k].head[i], occurrence(&t[k], i)))
				return -1;
	return 0;
}

static int add_fixed(struct plan *p, const struct csv_table *t, unsigned n,
		     const char *const *fixed)
{
	for (unsigned f = 0; fixed && fixed[f]; f++)
		for (unsigned k = 0; k < n; k++)
			if (csv_table_col(&t[k], fixed[f]) >= 0 &&
			    add(p, fixed[f], 0))
				return -1;
	return 0;
}

int csv_merge_plan(struct csv_merge *m, const struct csv_table *t,
		   unsigned n, const char *const *fixed)
{
	struct plan p = { 0 };
	int ret = -1;

	memset(m, 0, sizeof(*m));
	m->map = calloc(n + 1, sizeof(*m->map));
	if (!m->map || add_fixed(&p, t, n, fixed) ||
	    add_seen(&p, t, n, false) || add_seen(&p, t, n, true))
		goto out;
	m->ncols = p.n;
	m->col = calloc(p.n + 1, sizeof(*m->col));
	m->row = calloc(p.n + 1, sizeof(*m->row));
	if (!m->col || !m->row)
		goto out;
	for (unsigned i = 0; i < p.n; i++)
		m->col[i] = p.col[i].name;
	for (unsigned k = 0; k < n; k++) {
		m->map[k] = calloc(t[k].ncols + 1, sizeof(**m->map));
		if (!m->map[k])
			goto out;
		for (unsigned i = 0; i < t[k].ncols; i++)
			m->map[k][i] = (unsigned)find(&p, t[k].head[i],
						      occurrence(&t[k], i));
	}
	ret = 0;
out:
	free(p.col);
	if (ret)
		csv_merge_free(m, n);
	return ret;
}

static void put_row(FILE *f, const char *const *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		csv_table_put(f, v[i]);
	}
	fputc('\n', f);
}

void csv_merge_write(FILE *f, const struct csv_merge *m,
		     const struct csv_table *t, unsigned n)
{
	const char **v = m->row;

	put_row(f, m->col, m->ncols);
	for (unsigned k = 0; k < n; k++)
		for (unsigned r = 0; r < t[k].nrows; r++) {
			for (unsigned i = 0; i < m->ncols; i++)
				v[i] = "";
			for (unsigned i = 0; i < t[k].ncols; i++)
				v[m->map[k][i]] = t[k].rows[r][i];
			put_row(f, v, m->ncols);
		}
}

void csv_merge_free(struct csv_merge *m, unsigned n)
{
	for (unsigned k = 0; m->map && k < n; k++)
		free(m->map[k]);
	free(m->map);
	free(m->col);
	free(m->row);
	memset(m, 0, sizeof(*m));
}
