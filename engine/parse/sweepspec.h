/*
 * sweepspec.h - the value of the option sweep=: which option a job sweeps
 * and over which values.  The option is looked up in the space of the job
 * it is parsed into, never in the parse stage's own, so that the option
 * table (options.c) can point at this parser without this file reaching
 * back into the table; the expansion of sweeps into runs is sweep.h's.
 */
#ifndef MEMJOB_SWEEPSPEC_H
#define MEMJOB_SWEEPSPEC_H

#include "spec/job.h"
#include "spec/options.h"

#define SWEEP_MAX_VALUES	10000

/*
 * Words a sweep's value may hold that stand for the machine's parts, one
 * value per part (sweep.c expands them with the topology: this machine's,
 * or a topology file's):
 *	@cpu-nodes	each NUMA node with CPUs this process may use
 *	@mem-nodes	each NUMA node
 *	@cpu-pairs	each pair of CPUs this process may use, "A,B" (A < B)
 * A value holds at most one; the rest of it is kept (bind:@mem-nodes ->
 * bind:0, bind:1).  At parse time a value is checked with the word as
 * its first part (node 0, CPUs 0,1).
 */
enum sweep_word { SWEEP_WORD_NONE, SWEEP_CPU_NODES, SWEEP_MEM_NODES,
		  SWEEP_CPU_PAIRS };
/* The word value holds (*at: where), or SWEEP_WORD_NONE. */
enum sweep_word sweep_word_in(const char *value, const char **at);
/* Its text ("@cpu-nodes"). */
const char *sweep_word_name(enum sweep_word w);

/* "OPTION:v1,v2" / "OPTION:A..B:*F" / "OPTION:A..B:+S" into s, the option
 * one of space sp's, every value checked against it.  On error *why
 * (maybe in buf). */
int sweep_parse(const struct opt_space *sp, const char *spec,
		struct sweep *s, const char **why, char *buf, size_t buflen);
/* s (an option of space sp) as sweep= writes it. */
void sweep_format(const struct opt_space *sp, const struct sweep *s,
		  char *buf, size_t len);
/* The option sweep=, over the job's own space (j->space): each line adds
 * a sweep; the same option twice is an error.  Its format gives the
 * first sweep only (--dump prints each on its own line). */
int optv_parse_sweep(const struct opt_def *o, struct job_spec *j,
		     const char *val, const char **why, char *buf,
		     size_t buflen);
void optv_format_sweep(const struct opt_def *o, const struct job_spec *j,
		       char *buf, size_t len);

#endif
