/*
 * planlist.h - memjob --plan: where each clone of each run would go.
 *
 * For every run that the sweeps and the interference expansion make (in
 * the order memjob would run them), each clone's CPUs and the memory
 * node(s) its pages would come from, on the topology at hand: this
 * machine's, or a topology file's (--topology-file), so a scenario can be
 * checked for a machine one does not have.  Grid points left out, and
 * fallbacks taken, are the sweep's notes, printed after the first line.
 */
#ifndef MEMJOB_PLANLIST_H
#define MEMJOB_PLANLIST_H

#include <stdio.h>

#include "spec/job.h"
#include "parse/sweep.h"
#include "machine/topology.h"

/*
 * The topology's origin, the notes, then one line per clone under a line
 * per run:
 *	run 3: aggressor [loaded] {flush=clwb numjobs=4}, size 64 MiB
 *	  clone 0: CPU 4, memory node 0 (local to its CPU)
 * t may be NULL (the topology could not be read): CPUs are then the sets
 * as resolved, nodes unknown.  Returns 0, -1 on a write error.
 */
int plan_list(FILE *f, const struct jobset *runs,
	      const struct sweep_notes *notes, const struct topo *t);

#endif
