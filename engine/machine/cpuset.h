/*
 * cpuset.h - CPU sets written with lists and topology words (cpus_allowed).
 *
 * An expression is a comma-separated list of items, applied left to right:
 *
 *	N, N-M, N-M:S	CPU ids and ranges, every S-th ("0,2,4-7", "0-15:2")
 *	all		every CPU of the machine
 *	llc-of:C	the CPUs sharing CPU C's last-level cache (C included)
 *	siblings-of:C	C's SMT siblings, C included
 *	core-of:C	the same set: C's core, all its hardware threads
 *	package-of:C	the CPUs of C's package (socket)
 *	node:N		the CPUs of NUMA node N
 *
 * An item adds its CPUs; prefixed with '!' it removes them.  When the first
 * item removes, the set starts from all CPUs, so "!core-of:2" is every CPU
 * but core 2.  Seed 004's aggressors are "llc-of:2,!core-of:2": the CPUs
 * sharing CPU 2's L3, less CPU 2 and its sibling 34.  Words are
 * case-insensitive; blanks around items are ignored.
 *
 * Only the CPUs this process may use count (taskset, cgroup cpusets): a
 * CPU named by number outside them is an error; words and "all" leave
 * them out.
 *
 * "A else B else C" is a fallback: A when it works on this machine and
 * gives the clones enough CPUs, else B, and so on.  A fails on this
 * machine when it leaves no CPU or too few, names a CPU or node the
 * machine lacks or this process may not use, or needs a fact nobody
 * knows (a CPU's caches).  A mistake in the text is an error whatever
 * follows.  Seed 004's aggressors on any machine:
 *	llc-of:0,!core-of:0 else !core-of:0
 */
#ifndef MEMJOB_CPUSET_H
#define MEMJOB_CPUSET_H

#include <stddef.h>
#include <stdint.h>

#include "machine/topology.h"

/*
 * Parse expr into bits (TOPO_WORDS words, MEMJOB_MAX_CPUS bits).  Every CPU
 * and node named must exist in t, and the result must not be empty.
 * t may be NULL when the topology could not be read: plain ids are then
 * only checked against MEMJOB_MAX_CPUS and the words are refused.
 * Returns 0, or -1 with a message in err that completes "option 'x': ",
 * quotes the expression and the bad item, and leaves bits untouched.
 */
int cpuset_parse(const char *expr, const struct topo *t, uint64_t *bits,
		 char *err, size_t errlen);

/*
 * cpuset_parse with the fallbacks: the first alternative that gives at
 * least want CPUs (else the first that gives any, and the caller says
 * why the clones do not fit).  note (may be NULL) gets a sentence when a
 * fallback was taken or allowed CPUs left out, else "".
 */
int cpuset_resolve(const char *expr, const struct topo *t, unsigned want,
		   uint64_t *bits, char *note, size_t notelen, char *err,
		   size_t errlen);

/* A job's CPU set as resolved on this machine, and what resolving it
 * had to say (a fallback taken, CPUs left out; "" when nothing): the
 * check's and the plan's, never written into the job spec. */
struct job_cpus {
	uint64_t cpus[TOPO_WORDS];
	char note[512];
};

/* How many CPUs bits holds. */
unsigned cpuset_count(const uint64_t *bits);
/* The n-th CPU of bits, counting from 0, or -1 when it has n or fewer. */
int cpuset_nth(const uint64_t *bits, unsigned n);

#endif
