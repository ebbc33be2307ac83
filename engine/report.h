/*
 * report.h - results as text for people (normal) and for programs (csv).
 *
 * A CSV row is written cell by cell through a row emitter (row.h,
 * report_row.c).  The CSV header is a contract (documented in the man
 * page): columns are only ever added at the end, never renamed or
 * reordered, and every number is plain, in the unit its column name says.
 */
#ifndef MEMJOB_REPORT_H
#define MEMJOB_REPORT_H

#include <stdio.h>

#include "result.h"
#include "sweep.h"
#include "sysstat.h"
#include "topology.h"

#define REPORT_NORMAL	0x1
#define REPORT_CSV	0x2

struct report_ctx {
	FILE *out;
	unsigned formats;
	const char *host;
	const struct sweep_notes *notes;	/* printed with the report */
	const struct sysstat *ss;		/* for the run header */
	const struct topo *topo;		/* for the knees, or NULL */
};

void report_header(const struct report_ctx *rc, const struct plan *p);
void report_results(const struct report_ctx *rc, const struct results *r);

#endif
