/*
 * isolate.h - phase isolation: what one run (a stonewall group, a sweep
 * point, a repeat) leaves in the page cache must not slow the next.
 *
 * Before each run but the first, memjob fsyncs the files the previous
 * run's jobs used (fsync waits for their writeback), so that a next job
 * with invalidate=1 really drops them (only clean pages can be dropped);
 * a job with isolate_phases=0 opts out.
 * Each file job's source_info then says the system's Dirty and Writeback
 * (/proc/meminfo) at its release, and whether it was isolated.
 */
#ifndef MEMJOB_ISOLATE_H
#define MEMJOB_ISOLATE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "run/result.h"

struct dirty_level {
	bool have;			/* false: /proc/meminfo unreadable */
	uint64_t dirty, writeback;	/* bytes */
};

/* Sync the files of segment sg's jobs that say isolate_phases=1; returns false when one of its file jobs opted
 * out, so the next run is not isolated. */
bool isolate_after(const struct plan *p, const struct segment *sg);
/* The system's Dirty and Writeback now. */
struct dirty_level dirty_level_now(void);
/* Append to the source_info of segment sg's file jobs (repeat) the level
 * they started from and whether the run was isolated. */
void isolate_note(struct results *r, const struct segment *sg,
		  unsigned repeat, const struct dirty_level *lv,
		  bool isolated);

#endif
