/*
 * fleet.c - the fleet's median at each point, and the runs that stand
 * out from it (the rule is in fleet.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/fleet.h"
#include "util/row.h"

static void judge_point(struct cmp_point *p, unsigned nruns, double *v)
{
	const char *metric = NULL;
	struct stat_summary s;
	unsigned n = 0;
	double limit;

	for (unsigned j = 0; j < nruns; j++) {
		const struct cmp_cell *x = &p->cell[j];

		if (!x->s.n)
			continue;
		if (x->mixed || (metric && strcmp(metric, x->metric)))
			return;		/* not one metric: no fleet */
		metric = x->metric;
		v[n++] = x->s.median;
	}
	if (n < FLEET_MIN_RUNS)
		return;
	s = stat_summarise(v, n);
	p->fleet_mad = stat_mad(v, n, s.median);
	p->fleet_median = s.median;
	p->fleet_runs = n;
	p->judged = true;
	limit = FLEET_MAD_K * FLEET_MAD_SCALE *
		fmax(p->fleet_mad, FLEET_MAD_FLOOR * fabs(s.median));
	for (unsigned j = 0; j < nruns; j++) {
		struct cmp_cell *x = &p->cell[j];

		if (!x->s.n)
			continue;
		x->outlier = fabs(x->s.median - s.median) > limit;
		x->has_deviation = s.median != 0;
		if (x->has_deviation)
			x->deviation_pct = fig_fixed((x->s.median - s.median) /
						     s.median * 100,
						     CMP_PCT_DECIMALS);
	}
}

int fleet_judge(struct cmp *c)
{
	double *v = malloc((c->nruns + 1) * sizeof(*v));

	if (!v)
		return -1;
	for (unsigned i = 0; i < c->npoints; i++)
		judge_point(&c->point[i], c->nruns, v);
	free(v);
	c->fleet = true;
	return 0;
}

unsigned fleet_outliers(const struct cmp *c)
{
	unsigned n = 0;

	for (size_t i = 0; i < (size_t)c->npoints * c->nruns; i++)
		n += c->cells[i].outlier;
	return n;
}
