/*
 * sweep.h - the expansion of a checked jobset into what actually runs
 * (the sweep= values themselves: sweepspec.h).
 *
 * Expansion takes each segment (jobs between stonewalls) and emits one
 * copy per point of the grid its jobs' sweeps span, each job materialized
 * with that point's values; check.c checks each point's jobs before they
 * are emitted (a value may be fine for the parser and not for the
 * machine: flush=clwb on a CPU without clwb).  A
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
#include "spec/options.h"
#include "machine/cpuset.h"
#include "machine/topology.h"

#define SWEEP_MAX_POINTS	100000

/* Notes for the report (what was left out of a grid, and why). */
struct sweep_notes {
	char **text;
	unsigned n;
};

/*
 * The expansion of a jobset, segment by segment and point by point; the
 * caller (check.c) checks each point's jobs between sweep_point() and
 * sweep_emit(), so that expansion never calls the check back:
 *
 *	sweep_begin(&x, in, out, notes, topo, d);
 *	for (a = 0; a < in->njobs; a = b) {
 *		if (sweep_segment(&x, a, &b)) break;
 *		for (p = 0; p < x.npoints; p++) {
 *			sweep_point(&x, p);	x.mats: x.count jobs
 *			... check them; on an error sweep_drop(&x), break
 *			sweep_emit(&x, the check's CPUs of each);
 *		}
 *		sweep_segment_done(&x);
 *	}
 *	errors = sweep_end(&x);
 *
 * Each failing step (-1) has said why.
 */
#define SWEEP_MAX_DIMS	64

struct sweep_dim {
	unsigned job;			/* index within the segment */
	const struct sweep *sw;
};

struct sweep_baseline;

struct sweep_expander {
	const struct jobset *in;
	const struct topo *topo;	/* expands @cpu-nodes... (may be NULL) */
	struct jobset *out;
	size_t cap;
	struct sweep_notes *notes;
	struct diag *d;
	unsigned errors;		/* d's before the expansion */
	/* the segment: jobs a .. a + count - 1 of in */
	unsigned a, count;
	struct sweep_dim dims[SWEEP_MAX_DIMS];
	unsigned ndims;
	/* the segment's sweeps whose words were expanded (dims point at
	 * them): freed with the segment */
	struct sweep owned[SWEEP_MAX_DIMS];
	unsigned nowned;
	uint64_t npoints;
	bool interference;		/* victims and aggressors */
	struct sweep_baseline *bases;
	unsigned nbases;
	/* the point: its jobs, its label and its victims' values */
	struct job_spec *mats;
	char label[1024], vkey[1024];
	const char *vlabel;		/* the victims' values, for emit() */
};

void sweep_begin(struct sweep_expander *x, const struct jobset *in,
		 struct jobset *out, struct sweep_notes *notes,
		 const struct topo *t, struct diag *d);
/* The segment starting at job a (up to the next stonewall, *end). */
int sweep_segment(struct sweep_expander *x, unsigned a, unsigned *end);
/* Point p's jobs, materialized in x->mats. */
int sweep_point(struct sweep_expander *x, uint64_t p);
/* The point's checked jobs into out (they are out's then), or left out
 * with a note when a split job has more clones than CPUs; cpus: the
 * check's CPUs of each (x->count). */
int sweep_emit(struct sweep_expander *x, const struct job_cpus *cpus);
/* Free the point's jobs instead. */
void sweep_drop(struct sweep_expander *x);
void sweep_segment_done(struct sweep_expander *x);
/* Prints the notes; the number of errors of the whole expansion. */
unsigned sweep_end(struct sweep_expander *x);
void sweep_notes_free(struct sweep_notes *n);

#endif
