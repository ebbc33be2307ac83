/*
 * csvmerge.c - the union of result CSVs, as rows (see csvmerge.h).
 *
 * A column is known by its name and which of that name it is in its
 * header (the first "size", the second), so that the merge never folds
 * two columns of one file into one.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/csvmerge.h"

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

/* Which merged columns hold text: those is_text names, and those with a
 * field that is not a number. */
static void find_text(struct csv_merge *m, bool (*is_text)(const char *))
{
	for (unsigned i = 0; i < m->ncols; i++)
		m->text[i] = is_text && is_text(m->col[i]);
	for (unsigned k = 0; k < m->n; k++)
		for (unsigned r = 0; r < m->t[k].nrows; r++)
			for (unsigned i = 0; i < m->t[k].ncols; i++) {
				const char *v = m->t[k].rows[r][i];
				unsigned at = m->map[k][i];

				if (!m->text[at] && *v && !row_is_number(v))
					m->text[at] = true;
			}
}

int csv_merge_plan(struct csv_merge *m, const struct csv_table *t,
		   unsigned n, const char *const *fixed,
		   bool (*is_text)(const char *col))
{
	struct plan p = { 0 };
	int ret = -1;

	memset(m, 0, sizeof(*m));
	m->t = t;
	m->n = n;
	m->map = calloc(n + 1, sizeof(*m->map));
	if (!m->map || add_fixed(&p, t, n, fixed) ||
	    add_seen(&p, t, n, false) || add_seen(&p, t, n, true))
		goto out;
	m->ncols = p.n;
	m->col = calloc(p.n + 1, sizeof(*m->col));
	m->row = calloc(p.n + 1, sizeof(*m->row));
	m->text = calloc(p.n + 1, sizeof(*m->text));
	if (!m->col || !m->row || !m->text)
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
	find_text(m, is_text);
	ret = 0;
out:
	free(p.col);
	if (ret)
		csv_merge_free(m);
	return ret;
}

void csv_merge_rows(struct row_emitter *e, const void *arg)
{
	const struct csv_merge *m = arg;
	const char **v = m->row;

	for (unsigned k = 0; k < m->n; k++)
		for (unsigned r = 0; r < m->t[k].nrows; r++) {
			for (unsigned i = 0; i < m->ncols; i++)
				v[i] = "";
			for (unsigned i = 0; i < m->t[k].ncols; i++)
				v[m->map[k][i]] = m->t[k].rows[r][i];
			for (unsigned i = 0; i < m->ncols; i++)
				row_put(e, m->col[i], m->text[i]
						      ? cell_str(v[i])
						      : cell_numtext(v[i]));
			row_end(e);
		}
}

void csv_merge_free(struct csv_merge *m)
{
	for (unsigned k = 0; m->map && k < m->n; k++)
		free(m->map[k]);
	free(m->map);
	free(m->col);
	free(m->text);
	free(m->row);
	memset(m, 0, sizeof(*m));
}
