/*
 * isolate.h - phase isolation: what one run (a stonewall group, a sweep
 * point, a repeat) leaves in the page cache must not slow the next.
 *
 * After each run but the last, memjob fsyncs the files the run's jobs
 * used (fsync waits for their writeback), so that a next job with
 * invalidate=1 really drops them (only clean pages can be dropped), and
 * deletes the files memjob created that the run wrote: at once when no
 * later run uses them, deleted and created afresh when the next run that
 * uses one is the same job's (its next point or repeat), kept when it is
 * another job's (the scenario reuses the file on purpose).  Before each
 * run but the first, memjob waits (bounded) for the machine's Dirty +
 * Writeback to fall to isolate_dirty (or back to where it was before the
 * first run), so that every point starts from the same level.  A job
 * with isolate_phases=0 opts out of all of it.
 * Each file job's result then holds the system's Dirty and Writeback
 * (/proc/meminfo) at its release, the wait, and whether it was isolated.
 *
 * On a host that takes free memory back (machine/quirks.h), memjob also
 * faults in, right before each run, as much memory as the run will write
 * into, and frees it, so that every run starts from memory that is the
 * guest's, whatever ran before it (isolate_mem.c).
 */
#ifndef MEMJOB_ISOLATE_H
#define MEMJOB_ISOLATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "machine/quirks.h"
#include "plan/plan.h"
#include "run/files.h"
#include "run/result.h"

struct dirty_level {
	bool have;			/* false: /proc/meminfo unreadable */
	uint64_t dirty, writeback;	/* bytes */
};

/* One run of the plan, in the order exec_run runs them. */
struct run_ref {
	unsigned seg, repeat;
};

/* What waiting for isolate_dirty before a run came to. */
struct isolate_wait {
	bool asked, reached;
	uint64_t ns;
	uint64_t level;			/* waited for Dirty + Writeback <= */
};

/* What warming a run's memory came to. */
struct isolate_warm {
	bool asked;			/* the host takes memory back, and
					   the run writes into memory */
	uint64_t want;			/* bytes it writes into */
	struct touch_cost cost;		/* what was faulted in, how long */
	char why[96];			/* less than want, or none: why */
};

/* Sync the files of segment sg's jobs that say isolate_phases=1 (those
 * memjob made, cf, through the descriptors it holds); returns
 * false when one of its file jobs opted out, so the next run is not
 * isolated. */
bool isolate_after(const struct created_files *cf, const struct segment *sg);
/* After isolate_after of run order[pos]: delete (and where its own job
 * uses it next, create afresh) the files memjob created that the run
 * wrote, as isolate_phases says. */
void isolate_files(struct created_files *cf, const struct run_ref *order,
		   unsigned n, unsigned pos);
/* Before a run of segment sg but the first (isolated: the run before it
 * was): wait for the machine's Dirty + Writeback to fall to its file
 * jobs' isolate_dirty, or to first (the level before the first run) when
 * that is higher, for at most their isolate_wait, or until *stop. */
struct isolate_wait isolate_wait_level(const struct plan *p,
				       const struct segment *sg,
				       bool isolated, uint64_t first,
				       atomic_int *stop);
/* Right before a run of segment sg: on a host that takes free memory
 * back (q says so), fault in and free as much memory as the run will
 * write into, within the free memory. */
struct isolate_warm isolate_warm_memory(const struct plan *p,
					const struct segment *sg,
					const struct machine_quirks *q);
/* "memory warmed first: 1 GiB faulted in and freed in 2.41 s", or the
 * reason it was not; "" when no warm-up was asked for. */
void isolate_warm_text(const struct isolate_warm *w, char *buf, size_t len);
/* The system's Dirty and Writeback now. */
struct dirty_level dirty_level_now(void);
/* Record in segment sg's file jobs' results (repeat) the level they
 * started from, the wait before it and whether the run was isolated, and
 * say it in their source_info, with what isolate_files did to their
 * files ("a fresh file", or kept from the job that wrote it); and in
 * every isolating job's result the memory warmed before the run (warm). */
void isolate_note(struct results *r, const struct created_files *cf,
		  const struct segment *sg,
		  unsigned repeat, const struct dirty_level *lv,
		  bool isolated, const struct isolate_wait *w,
		  const struct isolate_warm *warm);

#endif
