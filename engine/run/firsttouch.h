/*
 * firsttouch.h - the first touch of a job's memory from user space, done
 * before the clock starts (first_touch=untimed), measured as a phase of
 * its own (phase), or left to the first timed pass (timed).
 *
 * Only a touch of pages not yet mapped is a first touch: its page faults
 * are what it costs.  Where the source mapped the pages before the job (a
 * pread or pattern fill, MAP_POPULATE), they are "present": a walk over
 * them is a re-touch, and the reports say so instead of giving it a rate.
 */
#ifndef MEMJOB_FIRSTTOUCH_H
#define MEMJOB_FIRSTTOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/job.h"

struct ioe;

/* The touch as a phase: its bytes, wall time, CPU time and faults. */
struct touch_figures {
	uint64_t bytes, ns, sys_ns, usr_ns, minflt, majflt;
};

/* What a run did with the first touch: mode is TOUCH_AUTO where the
 * source maps no region (nothing to touch), else the resolved mode;
 * present: the source had mapped the pages before the touch (phase) or
 * before the clock (timed), so the walk or the first pass was no first
 * touch; fig holds figures with TOUCH_PHASE only. */
struct touch_result {
	enum first_touch_mode mode;
	bool present;
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
void first_touch_describe(const struct touch_result *t, char *buf,
			  size_t len);
/* The touch's rate in GB/s (bytes over ns): only for a first touch of
 * pages not yet mapped, measured as a phase; false otherwise.  A figure
 * (util/row.h) of TOUCH_GBPS_DECIMALS, which every output prints. */
#define TOUCH_GBPS_DECIMALS	6
bool first_touch_gbps(const struct touch_result *t, double *gbps);
/* The passes over the data of bytes over size_all (0 without a size): a
 * figure of TOUCH_PASSES_DIGITS significant digits. */
#define TOUCH_PASSES_DIGITS	6
double first_touch_passes(uint64_t bytes, uint64_t size_all);

/* Between the source's setup and its fill (ioengine.h): with
 * first_touch=phase, time the first touch of the fresh region into t,
 * the one moment it has one. */
void first_touch_fresh(const struct job_spec *j, const struct ioe *io,
		       struct touch_result *t);
/* After the fill (filled: the source had one) and the kernel's prepare:
 * touch the region from user space now, before the release (untimed;
 * phase where first_touch_fresh had nothing to time), or leave it to the
 * first pass (timed); t gets what was done, and its words are added to
 * extra (len bytes, "; "-separated) for source_info. */
void first_touch_region(const struct job_spec *j, const struct ioe *io,
			bool filled, char *extra, size_t len,
			struct touch_result *t);

/* "untimed", "timed", "phase"; NULL for TOUCH_AUTO (no region). */
const char *first_touch_name(enum first_touch_mode mode);
/* Add a clone's touch into into (bytes, faults and CPU time add; the
 * wall time is the longest, the clones touching side by side; present
 * if any clone's pages were). */
void first_touch_merge(struct touch_result *into,
		       const struct touch_result *from);
/* The normal report's lines for a run of passes (bytes of them over
 * size bytes per clone): which passes were timed, and with
 * first_touch=phase the touch's own figures.  Nothing for a source
 * that maps no region. */
void first_touch_report(FILE *f, const struct touch_result *t,
			uint64_t bytes, uint64_t size_all);

#endif
