/*
 * cacheflush.h - the CPU's cache-line flush instructions: which ones it
 * has (cpuid), the line they work on, and what each really does here to
 * the line it flushes.
 *
 * The manuals say clflush and clflushopt evict the line and that clwb
 * "may" keep it; which one a CPU (or a hypervisor's CPU model) does
 * changes what a flushing writer costs its neighbours: a writer whose
 * flushes keep lines cached fills the shared cache like a plain reader.
 * flush_probe() finds out with a short timing probe: a load right after
 * each instruction, against a load of a line known to be cached and of
 * one known to be evicted (pushed out by reading a buffer twice the last
 * level cache); flush_judge() turns the three medians into a verdict.
 *
 * x86-64 for now: another architecture's port adds its instructions to
 * the table in cacheflush.c and its timed load to the probe; until then
 * the probe says it did not run, and why.
 */
#ifndef MEMJOB_CACHEFLUSH_H
#define MEMJOB_CACHEFLUSH_H

#include <stdbool.h>
#include <stddef.h>

enum flush_kind { FLUSH_NONE, FLUSH_CLFLUSH, FLUSH_CLFLUSHOPT, FLUSH_CLWB,
		  FLUSH_KINDS };

/* "clwb"; "none" for FLUSH_NONE. */
const char *flush_name(enum flush_kind k);
/* Whether this CPU has instruction k (cpuid); false for FLUSH_NONE and
 * on architectures without these instructions. */
bool flush_cpu_has(enum flush_kind k);
/* Where cpuid says so, for messages: "cpuid leaf 7, EBX bit 24". */
const char *flush_cpuid_bit(enum flush_kind k);
/* The line the instructions work on, in bytes (cpuid leaf 1; 64 when it
 * cannot be read). */
size_t flush_line_size(void);

enum flush_effect {
	FLUSH_NOT_PROBED,		/* the CPU lacks it, or no probe ran */
	FLUSH_KEEPS,			/* a load after it is a cache hit */
	FLUSH_EVICTS,			/* a load after it goes to memory */
	FLUSH_UNCLEAR,			/* neither near enough to call */
};

/* What the probe measured: medians of one timed load, in time-stamp
 * counter ticks. */
struct flush_probe {
	bool ran;
	char why[128];			/* !ran: the reason */
	double cached;			/* a line just stored to */
	double evicted;			/* a line pushed out by the walk */
	double after[FLUSH_KINDS];	/* a line just flushed by each */
	enum flush_effect effect[FLUSH_KINDS];
};

/*
 * Time loads after each flush instruction the CPU has.  walk (len bytes,
 * at least twice the last level cache, already faulted in) is read
 * through to evict the reference lines; without one (NULL) the probe
 * does not run.  A few milliseconds.
 */
void flush_probe(struct flush_probe *fp, const void *walk, size_t len);
/* The verdict on a load after a flush that took `after` ticks, given
 * loads of a cached line (cached) and an evicted one (evicted): keeps
 * below the middle, evicts above it, unclear when cached and evicted are
 * not far enough apart to tell (the timer too coarse, a probe disturbed)
 * or when after lies close to the middle. */
enum flush_effect flush_judge(double cached, double evicted, double after);

#endif
