/*
 * check.h - the checks that need the whole job (not one option): options
 * that contradict each other, names that must exist, CPUs and NUMA nodes
 * that must exist on this machine.  It also settles the choices that
 * depend on several options (the kernel's implementation, the default
 * kernel of a mapped write).  Runs after parsing, before planning: once
 * on the jobs as written (jobs_check: every error once, with the line
 * that set it; what --dump shows), then on each point of their sweeps as
 * sweep.c expands them (jobs_expand).  Expansion never calls back here.
 */
#ifndef MEMJOB_CHECK_H
#define MEMJOB_CHECK_H

#include "util/diag.h"
#include "spec/job.h"
#include "machine/topology.h"
#include "parse/sweep.h"

/* t is the machine's topology, or NULL when it could not be read (then
 * topology words and relative sizes are refused). */
unsigned jobs_check(struct jobset *js, const struct topo *t, struct diag *d);
/* The CPUs of a checked job's cpus_allowed on this machine (t, or NULL:
 * the affinity), chosen as the check chose them (a split job needs one
 * per clone); none when it has no cpus_allowed.  For the plan. */
int job_cpus_of(const struct job_spec *j, const struct topo *t,
		uint64_t *bits);
/* The index in kernel->impls of a checked job's impl (0, the kernel's
 * default, when it names none).  For the plan and --dump. */
int job_impl_of(const struct job_spec *j);
/* in expanded over its sweeps into out, point by point (see sweep.h),
 * each point's jobs checked once before they are emitted (all but the
 * checks that involve other jobs).  Returns the number of errors
 * reported. */
unsigned jobs_expand(const struct jobset *in, struct jobset *out,
		     struct sweep_notes *notes, const struct topo *t,
		     struct diag *d);

#endif
