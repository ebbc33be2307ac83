/*
 * hostquirks.h - the host's quirks for a run (machine/quirks.h): the
 * machine's, probed once before the report's header, and the disk of
 * each job that does direct I/O.
 */
#ifndef MEMJOB_HOSTQUIRKS_H
#define MEMJOB_HOSTQUIRKS_H

#include "machine/quirks.h"
#include "machine/sysstat.h"
#include "machine/topology.h"
#include "plan/plan.h"

/* Probe the machine (its sysfs below root, NULL for "/"; t for the size
 * of the last level cache, may be NULL) and the devices behind the files
 * of p's jobs with direct=1 (found through ss; none without it). */
void run_probe_quirks(struct machine_quirks *q, const struct plan *p,
		      struct sysstat *ss, const struct topo *t,
		      const char *root);

#endif
