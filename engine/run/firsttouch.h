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

#include "spec/job.h"

/* The touch as a phase: its bytes, wall time, CPU time and faults. */
struct touch_figures {
	uint64_t bytes, ns, sys_ns, usr_ns, minflt, majflt;
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

#endif
