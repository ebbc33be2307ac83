/*
 * firsttouch.h - the first touch of a job's memory from user space, done
 * before the clock starts (first_touch=untimed), measured as a phase of
 * its own (phase), or left to the first timed pass (timed).
 */
#ifndef MEMJOB_FIRSTTOUCH_H
#define MEMJOB_FIRSTTOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/job.h"

/* The touch as a phase: its bytes, wall time, CPU time and faults. */
struct touch_figures {
	uint64_t bytes, ns, sys_ns, usr_ns, minflt, majflt;
};

/* What a run did with the first touch: mode is TOUCH_AUTO where the
 * source maps no region (nothing to touch), else the resolved mode; fig
 * holds figures with TOUCH_PHASE only. */
struct touch_result {
	enum first_touch_mode mode;
	struct touch_figures fig;
};

/* What first_touch=auto means for a source that did (resident) or did
 * not put the data in memory before the job: untimed or timed. */
enum first_touch_mode first_touch_resolve(enum first_touch_mode mode,
					  bool resident);
/* Touch every page of [p, p + len) once from user space: a load, and
 * with store a store of the same byte (memory of the job's own only). */
void first_touch(void *p, size_t len, bool store);
/* The report's words for what was done ("first touch untimed (before
 * the clock)"; with phase, the figures) into buf, without a comma, so
 * that source_info stays one field even for a naive CSV split. */
void first_touch_describe(enum first_touch_mode mode,
			  const struct touch_figures *f, char *buf,
			  size_t len);

/* "untimed", "timed", "phase"; NULL for TOUCH_AUTO (no region). */
const char *first_touch_name(enum first_touch_mode mode);
/* Add a clone's touch into into (bytes, faults and CPU time add; the
 * wall time is the longest, the clones touching side by side). */
void first_touch_merge(struct touch_result *into,
		       const struct touch_result *from);
/* The normal report's lines for a run of passes (bytes of them over
 * size bytes per clone): which passes were timed, and with
 * first_touch=phase the touch's own figures.  Nothing for a source
 * that maps no region. */
void first_touch_report(FILE *f, const struct touch_result *t,
			uint64_t bytes, uint64_t size_all);

#endif
