/*
 * sweep.h - sweeps over option values, and the expansion of a checked
 * jobset into what actually runs.
 *
 * Expansion takes each segment (jobs between stonewalls) and emits one
 * copy per point of the grid its jobs' sweeps span, each job materialized
 * with that point's values and checked again (a value may be fine for the
 * parser and not for the machine: flush=clwb on a CPU without clwb).  A
 * segment with victims and aggressors becomes, per point, a victims-only
 * baseline (PHASE_ALONE; emitted once for each distinct set of victim
 * values) followed by the loaded run (PHASE_LOADED).  Plan and exec then
 * see ordinary segments, which the plan links into blocks that run
 * alternately, repeat by repeat (plan.h).
 */
#ifndef MEMJOB_SWEEP_H
#define MEMJOB_SWEEP_H

#include "util/diag.h"
#include "spec/job.h"
#include "machine/topology.h"

#define SWEEP_MAX_VALUES	10000
#define SWEEP_MAX_POINTS	100000

/* "OPTION:v1,v2" / "OPTION:A..B:*F" / "OPTION:A..B:+S" into s, every value
 * checked against the option.  On error *why (maybe in buf). */
int sweep_parse(const char *spec, struct sweep *s, const char **why,
		char *buf, size_t buflen);
void sweep_format(const struct sweep *s, char *buf, size_t len);

/* Notes for the report (what was left out of a grid, and why). */
struct sweep_notes {
	char **text;
	unsigned n;
};

/* in is checked; out receives the expanded jobs.  Returns the number of
 * errors reported. */
unsigned sweep_expand(const struct jobset *in, struct jobset *out,
		      struct sweep_notes *notes, const struct topo *t,
		      struct diag *d);
void sweep_notes_free(struct sweep_notes *n);

#endif
