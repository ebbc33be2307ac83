/*
 * check.h - the checks that need the whole job (not one option): options
 * that contradict each other, names that must exist, CPUs and NUMA nodes
 * that must exist on this machine.  It also settles the choices that
 * depend on several options (the kernel's implementation, the default
 * kernel of a mapped write).  Runs after parsing, before planning.
 */
#ifndef MEMJOB_CHECK_H
#define MEMJOB_CHECK_H

#include "util/diag.h"
#include "spec/job.h"
#include "machine/topology.h"

/* t is the machine's topology, or NULL when it could not be read (then
 * topology words and relative sizes are refused). */
unsigned jobs_check(struct jobset *js, const struct topo *t, struct diag *d);
/* The same checks for one job materialized from a sweep point (all but
 * those that involve other jobs). */
unsigned job_recheck(struct job_spec *j, const struct topo *t,
		     struct diag *d);

#endif
