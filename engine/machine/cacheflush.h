/*
 * cacheflush.h - the CPU's cache-maintenance instructions, which write a
 * stored line back towards memory (ioengine=dax's flush=, seed 004), and
 * the fences that wait for them: which ones each architecture has, which
 * ones this CPU has, the line they work on, and the loops that run them.
 *
 * Every instruction of every architecture has a name here, so that a job
 * file can say any of them and be refused with the right reason: an
 * instruction of another architecture (flush=clwb on arm64) is not
 * offered by this build (flush_here()), one of this architecture that the
 * CPU lacks (DC CVAP without ARMv8.2's DCPOP) is not there
 * (flush_cpu_has(), with flush_feature() saying where that is read).
 *
 *   x86-64  clflush     write back and evict; ordered with every other
 *                       clflush, so one is in flight at a time
 *           clflushopt  write back and evict, ordered only by a fence
 *           clwb        write back, ordered only by a fence; may keep
 *                       the line cached (clean)
 *           fence: sfence
 *   arm64   dc_cvac     DC CVAC, clean to the point of coherency (memory)
 *           dc_cvap     DC CVAP, clean to the point of persistence (where
 *                       a store survives power loss: persistent memory)
 *           dc_civac    DC CIVAC, clean and invalidate to the point of
 *                       coherency: written back and evicted
 *           fence: dsb (DSB SY): waits until every cache operation
 *                  before it is complete, system-wide
 * The arm64 operations are ordered only by a DSB, like clflushopt and
 * clwb by sfence: without one, many are in flight at once.
 *
 * The manuals say clflush, clflushopt and DC CIVAC evict the line and
 * that clwb and DC CVAC "may" keep it; which one a CPU (or a hypervisor's
 * CPU model) does changes what a flushing writer costs its neighbours: a
 * writer whose flushes keep lines cached fills the shared cache like a
 * plain reader.  flush_probe() finds out with a short timing probe: a
 * load right after each instruction, against a load of a line known to
 * be cached and of one known to be evicted (pushed out by reading a
 * buffer twice the last level cache); flush_judge() turns the three
 * medians into a verdict.  The probe is the same on every architecture;
 * its clock and its full fence are the architecture's
 * (cacheflush_int.h).
 */
#ifndef MEMJOB_CACHEFLUSH_H
#define MEMJOB_CACHEFLUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum flush_kind {
	FLUSH_NONE,
	FLUSH_CLFLUSH, FLUSH_CLFLUSHOPT, FLUSH_CLWB,		/* x86-64 */
	FLUSH_DC_CVAC, FLUSH_DC_CVAP, FLUSH_DC_CIVAC,		/* arm64 */
	FLUSH_KINDS
};

enum fence_kind { FENCE_NONE, FENCE_SFENCE, FENCE_DSB, FENCE_KINDS };

/* "clwb", "dc_cvac"; "none" for FLUSH_NONE. */
const char *flush_name(enum flush_kind k);
/* The architecture whose instruction k is ("x86-64", "arm64"). */
const char *flush_arch(enum flush_kind k);
/* Whether this build's architecture has instruction k (FLUSH_NONE: yes). */
bool flush_here(enum flush_kind k);
/* Whether this CPU has it (cpuid, HWCAP); false for one not here and for
 * FLUSH_NONE. */
bool flush_cpu_has(enum flush_kind k);
/* Where the CPU says whether it has k, for messages: "cpuid leaf 7, EBX
 * bit 24", "HWCAP_DCPOP". */
const char *flush_feature(enum flush_kind k);
/* The instructions this build and this CPU have, for messages:
 * "clflush, clflushopt or clwb"; "none" where there is none. */
void flush_list_here(char *buf, size_t len);

/* NULL where this build and this CPU have instruction k (or k is none);
 * else why not, to follow a list of names: "arm64's", "this CPU lacks
 * it". */
const char *flush_unavailable(enum flush_kind k);

/* "sfence", "dsb"; "none". */
const char *fence_name(enum fence_kind f);
/* Whether this build's architecture has fence f (FENCE_NONE: yes). */
bool fence_here(enum fence_kind f);
/* The architecture whose fence f is ("x86-64", "arm64"). */
const char *fence_arch(enum fence_kind f);
/* NULL where it has f; else whose fence it is ("arm64's"). */
const char *fence_unavailable(enum fence_kind f);

/* The line the instructions work on, in bytes (x86-64: cpuid leaf 1;
 * arm64: CTR_EL0's DminLine; 64 when it cannot be read). */
size_t flush_line_size(void);

/*
 * Runs instruction k on every line of [p, end) (p line-aligned), with the
 * architecture's fence after each line or not, nothing else in the loop.
 * NULL for FLUSH_NONE and for an instruction not here.
 */
typedef void (*flush_loop_fn)(uintptr_t p, uintptr_t end, size_t line);
flush_loop_fn flush_loop(enum flush_kind k, bool fence_each_line);
/* The architecture's fence (sfence, DSB SY); nothing where it has none. */
void flush_fence(void);

enum flush_effect {
	FLUSH_NOT_PROBED,		/* the CPU lacks it, or no probe ran */
	FLUSH_KEEPS,			/* a load after it is a cache hit */
	FLUSH_EVICTS,			/* a load after it goes to memory */
	FLUSH_UNCLEAR,			/* neither near enough to call */
};

/* What the probe measured: medians of one timed load, in ticks of the
 * architecture's counter (x86-64: the time-stamp counter; arm64: the
 * generic timer's virtual count). */
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
 * through to evict the reference lines; without one (NULL), or where the
 * architecture's counter is too coarse to time one load, the probe does
 * not run and why says so.  A few milliseconds.
 */
void flush_probe(struct flush_probe *fp, const void *walk, size_t len);
/* The verdict on a load after a flush that took `after` ticks, given
 * loads of a cached line (cached) and an evicted one (evicted): keeps
 * below the middle, evicts above it, unclear when cached and evicted are
 * not far enough apart to tell (the timer too coarse, a probe disturbed)
 * or when after lies close to the middle. */
enum flush_effect flush_judge(double cached, double evicted, double after);

#endif
