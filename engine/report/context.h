/*
 * context.h - the types every report file shares: what a report is
 * written to and in which formats (struct report_ctx), and the run
 * header's facts.  Types only, no code: report.h (for the rest of the
 * engine) and report_int.h (for the report's own files) both include it,
 * so that report_json.c needs the context without report.h.
 */
#ifndef MEMJOB_REPORT_CONTEXT_H
#define MEMJOB_REPORT_CONTEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/machine.h"
#include "parse/sweep.h"
#include "machine/quirks.h"
#include "machine/sysstat.h"
#include "machine/topology.h"

/* In the order they are printed. */
#define REPORT_NORMAL	0x1
#define REPORT_CSV	0x2
#define REPORT_JSON	0x4

/* The normal report's per-run details (--details=LIST, --verbose: all),
 * below its answer. */
#define REPORT_DETAIL_RUNS	0x1	/* each run: figures, cpu, host... */
#define REPORT_DETAIL_COUNTERS	0x2	/* each run's perf counters */
#define REPORT_DETAIL_SYSTEM	0x4	/* each run's vmstat, meminfo, disk */
#define REPORT_DETAIL_CLONES	0x8	/* each clone of each run */
#define REPORT_DETAIL_GROUPS	0x10	/* each group's totals per run */
#define REPORT_DETAIL_ALL	0x1f

/* The run header's facts, as the jobs are about to start. */
struct report_facts {
	long cpus;			/* online */
	char release[65];		/* uname -r */
	unsigned njobs, ngroups;
	bool have_info;
	struct sysstat_info info;	/* kernel, RAM, vm.dirty_* ... */
};

struct report_ctx {
	FILE *out;
	unsigned formats;
	unsigned details;			/* REPORT_DETAIL_* */
	const char *host;
	const struct machine_id *machine;	/* rows' identity, or NULL */
	const struct sweep_notes *notes;	/* printed with the report */
	const struct sysstat *ss;		/* for the run header */
	const struct topo *topo;		/* for the knees, or NULL */
	const struct memcg *memcg;		/* memory_limit's, or NULL */
	const struct machine_quirks *quirks;	/* the host's, or NULL */
	struct report_facts facts;		/* report_header fills it */
	const char *stopped_by;			/* "SIGINT", or NULL */
};

#endif
