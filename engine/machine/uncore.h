/*
 * uncore.h - uncore events (an L3's, a socket's caching agents' or
 * memory controllers'), counted for a whole run rather than a thread.
 *
 * An uncore PMU counts what every core of its socket or LLC does: perf
 * opens its events on one CPU per instance (the PMU's cpumask in sysfs)
 * and for no task (pid -1).  memjob opens each on every CPU of the mask,
 * counts from the release of a run's threads to their end, and sums the
 * instances: the figure is the machine's over the run, the job's own
 * traffic and that of every other job and process together, which the
 * report says.  Counting the whole machine needs perf_event_paranoid <=
 * 0 or CAP_PERFMON; without it the events come back denied, with why.
 */
#ifndef MEMJOB_UNCORE_H
#define MEMJOB_UNCORE_H

#include <stdbool.h>

#include "machine/counters.h"

struct uncore;

/* Does the list hold an uncore event? */
bool uncore_wanted(const unsigned *ids, unsigned n);
/*
 * Open the uncore events of ids (the others are left out), disabled,
 * on the CPUs of their PMU's cpumask below root (NULL: this machine).
 * Those that do not open keep their status; NULL only on out of memory
 * or when ids hold no uncore event.
 */
struct uncore *uncore_open(const unsigned *ids, unsigned n, const char *root);
/* Reset and enable every instance; 0, or -1 when an ioctl failed. */
int uncore_start(struct uncore *u);
int uncore_stop(struct uncore *u);
/* The counts since uncore_start(), summed over the instances (each
 * scaled when multiplexed), one per uncore event in request order. */
void uncore_read(const struct uncore *u, struct counter_value *out,
		 unsigned *n);
void uncore_close(struct uncore *u);

#endif
