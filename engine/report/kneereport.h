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
	bool paged;			/* chase_layout=page: prefetch-helped */
};

/* The point label without the items of the options in drop (NULL
 * terminated): "code_size=16k batch=8" without code_size is "batch=8". */
void sweep_label_without(const char *label, const char *const *drop,
			 char *buf, size_t len);
/* Job idx's ns per item, median over its repeats that ran to the end
 * (0 when none did): CPU time (cpu) or wall time, as ns_per_item. */
double report_ns_median(const struct results *r, unsigned idx, bool cpu);
/* The CPU whose caches job idx's figures are set against: the first of
 * its cpus_allowed, or 0. */
unsigned report_job_cpu(const struct plan *p, unsigned idx);

/* Each series of each job that swept size with an items kernel. */
void knee_series_each(const struct results *r, const struct topo *t,
		      void (*fn)(void *user, const struct knee_series *ks),
		      void *user);
/* The knee tables, for the normal report. */
void knee_report(FILE *f, const struct results *r, const struct topo *t);
/* A row per level (for JSON): the series, then knee_cells. */
void knee_series_rows(struct row_emitter *e, const struct knee_series *ks);

#endif
