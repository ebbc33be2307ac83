/*
 * pairmatrix.c - a two-clone job's points as a CPU-to-CPU matrix (see
 * pairmatrix.h).
 *
 * The one idea: the plan already knows each clone's CPU (split puts clone
 * i on the i-th CPU of the job's set), so a point is a cell: clone 0's
 * CPU down, clone 1's across.  A handoff between two CPUs costs the same
 * either way, so each point fills its mirror cell too, unless that pair
 * was measured the other way round; the diagonal, never measured, is
 * '-'.  A cell holds the median of the point's runs.
 */
#include <stdlib.h>
#include <string.h>

#include "machine/cpuset.h"
#include "report/pairmatrix.h"
#include "util/stats.h"
#include "util/texttable.h"

#define MATRIX_MAX_CPUS	256	/* rows and columns */

/* Whether job's points are its cpus_allowed alone, two split clones. */
static bool pair_job(const struct job_spec *j)
{
	const char *l = j->point_label;

	return j->summary == SUMMARY_MATRIX && j->numjobs == 2 &&
	       j->cpus_policy == CPUS_SPLIT && l &&
	       !strncmp(l, "cpus_allowed=", 13) && !strchr(l, ' ');
}

/* The CPUs of clone 0 and clone 1 of planned job pj. */
static bool clone_pair(const struct planned_job *pj, unsigned *a,
		       unsigned *b)
{
	int c0 = cpuset_nth(pj->cpus, 0), c1 = cpuset_nth(pj->cpus, 1);

	if (c0 < 0 || c1 < 0 || c0 >= MATRIX_MAX_CPUS ||
	    c1 >= MATRIX_MAX_CPUS)
		return false;
	*a = (unsigned)c0;
	*b = (unsigned)c1;
	return true;
}

struct matrix {
	int row[MATRIX_MAX_CPUS];	/* CPU -> its index, or -1 */
	unsigned cpus[MATRIX_MAX_CPUS], n;
	double *cell;			/* n x n, -1: none */
	bool *own;			/* measured that way round */
};

static void add_cpu(struct matrix *m, unsigned c)
{
	if (m->row[c] < 0) {
		m->row[c] = 0;
		m->cpus[m->n++] = c;
	}
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

static void put(struct matrix *m, unsigned a, unsigned b, double v,
		bool own)
{
	size_t k = (size_t)m->row[a] * m->n + (size_t)m->row[b];

	if (m->own[k] && !own)
		return;
	m->cell[k] = v;
	m->own[k] = own;
}

static void print_matrix(FILE *f, const struct matrix *m, int decimals)
{
	char align[MATRIX_MAX_CPUS + 2];
	struct text_table *t;

	memset(align, 'r', m->n + 1);
	align[0] = 'l';
	align[m->n + 1] = '\0';
	t = text_table_new(m->n + 1, align);
	if (!t)
		return;
	text_table_add(t, "CPU");
	for (unsigned c = 0; c < m->n; c++)
		text_table_addf(t, "%u", m->cpus[c]);
	for (unsigned r = 0; r < m->n; r++) {
		text_table_addf(t, "%u", m->cpus[r]);
		for (unsigned c = 0; c < m->n; c++)
			text_table_add_figure(t, m->cell[r * m->n + c],
					      decimals);
	}
	text_table_print(t, f, "  ");
	text_table_free(t);
}

bool pair_matrix(FILE *f, const struct results *r, const unsigned *idx,
		 unsigned n)
{
	const struct plan *p = r->plan;
	const struct job_spec *j0 = p->jobs[idx[0]].spec;
	struct matrix m = { .n = 0 };
	unsigned a, b, runs_lo = ~0u, runs_hi = 0;
	struct metric met = { .name = NULL };
	double *v = NULL;
	size_t cells;

	for (unsigned i = 0; i < n; i++)
		if (!pair_job(p->jobs[idx[i]].spec) ||
		    !clone_pair(&p->jobs[idx[i]], &a, &b))
			return false;
	memset(m.row, -1, sizeof(m.row));
	for (unsigned i = 0; i < n; i++) {
		clone_pair(&p->jobs[idx[i]], &a, &b);
		add_cpu(&m, a);
		add_cpu(&m, b);
	}
	cells = (size_t)m.n * m.n;
	if (!cells)
		return false;
	qsort(m.cpus, m.n, sizeof(*m.cpus), cmp_uint);
	for (unsigned c = 0; c < m.n; c++)
		m.row[m.cpus[c]] = (int)c;
	m.cell = malloc(cells * sizeof(*m.cell));
	m.own = calloc(cells, sizeof(*m.own));
	if (!m.cell || !m.own)
		goto out;
	for (size_t k = 0; k < cells; k++)
		m.cell[k] = -1;
	for (unsigned i = 0; i < n; i++) {
		unsigned reps = results_repeats(r, idx[i]), got;
		double *nv = realloc(v, (reps + 1) * sizeof(*v));

		if (!nv)
			goto out;
		v = nv;
		got = results_metric_values(r, idx[i], reps, v, reps);
		if (got < runs_lo)
			runs_lo = got;
		if (got > runs_hi)
			runs_hi = got;
		if (!met.name)
			met = job_metric(results_get(r, idx[i], 0));
		if (!got)
			continue;
		clone_pair(&p->jobs[idx[i]], &a, &b);
		put(&m, a, b, stat_summarise(v, got).median, true);
		put(&m, b, a, m.cell[m.row[a] * m.n + m.row[b]], false);
	}
	fprintf(f, "\n%s: %s, the median of %u", j0->name, met.label, runs_lo);
	if (runs_hi != runs_lo)
		fprintf(f, " to %u", runs_hi);
	fprintf(f, " run%s at each of %u pair%s of CPUs (clone 0's CPU down, "
		"clone 1's across; a pair measured one way fills both "
		"cells)\n", runs_hi == 1 ? "" : "s", n, n == 1 ? "" : "s");
	print_matrix(f, &m, met.name && !strcmp(met.name, "ns_per_item") ?
		     2 : 3);
out:
	free(v);
	free(m.cell);
	free(m.own);
	return true;
}
