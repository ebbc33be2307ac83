/*
 * kneereport.h - the knee table of size sweeps (see kneereport.c).
 */
#ifndef MEMJOB_KNEEREPORT_H
#define MEMJOB_KNEEREPORT_H

#include <stdio.h>

#include "report/knee.h"
#include "run/result.h"
#include "util/row.h"
#include "machine/topology.h"

/* One series of a size sweep: a job's points that differ only in size. */
struct knee_series {
	const char *job;
	const char *series;		/* its other swept values, or "" */
	unsigned cpu;			/* whose caches it is set against */
	const char *item;		/* "access" */
	const struct knee *knees;	/* one per data cache level */
	unsigned n;
};

/* Each series of each job that swept size with an items kernel. */
void knee_series_each(const struct results *r, const struct topo *t,
		      void (*fn)(void *user, const struct knee_series *ks),
		      void *user);
/* The knee tables, for the normal report. */
void knee_report(FILE *f, const struct results *r, const struct topo *t);
/* A row per level (for JSON): the series, then knee_cells. */
void knee_series_rows(struct row_emitter *e, const struct knee_series *ks);

#endif
