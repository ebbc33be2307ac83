/*
 * report.h - results as text for people (normal) and for programs (csv,
 * json).
 *
 * CSV and JSON write the same rows (report_row.c): a JSON result's keys
 * are the CSV columns.  The CSV header is a contract (documented in the
 * man page): columns are only ever added at the end, never renamed or
 * reordered, and every number is plain, in the unit its column name says.
 * Several formats go to the same stream in the order normal, csv, json,
 * separated by an empty line.
 */
#ifndef MEMJOB_REPORT_H
#define MEMJOB_REPORT_H

#include <stdio.h>

#include "report/machine.h"
#include "run/result.h"
#include "parse/sweep.h"
#include "machine/sysstat.h"
#include "machine/topology.h"

/* In the order they are printed. */
#define REPORT_NORMAL	0x1
#define REPORT_CSV	0x2
#define REPORT_JSON	0x4

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
	const char *host;
	const struct machine_id *machine;	/* rows' identity, or NULL */
	const struct sweep_notes *notes;	/* printed with the report */
	const struct sysstat *ss;		/* for the run header */
	const struct topo *topo;		/* for the knees, or NULL */
	struct report_facts facts;		/* report_header fills it */
	const char *stopped_by;			/* "SIGINT", or NULL */
};

/*
 * --output-format's value: normal, csv, json, or a comma list of them,
 * each at most once, as REPORT_* bits in *out (s NULL: the option had no
 * value).  0, or -1 with the whole complaint in why ("expected ...; got
 * 'jsn'; did you mean 'json'?").
 */
int report_parse_formats(const char *s, unsigned *out, char *why,
			 size_t len);
/* Before the block of format fmt: an empty line when formats holds one
 * that is printed before it. */
void report_separate(FILE *f, unsigned formats, unsigned fmt);
/* Gathers the header's facts into rc and prints the normal header. */
void report_header(struct report_ctx *rc, const struct plan *p);
/* The results in each format asked for; -1 when the JSON document could
 * not be made (out of memory: it is then left out, never cut short). */
int report_results(const struct report_ctx *rc, const struct results *r);
/* The fixed CSV columns, in the list's order, NULL-terminated: the
 * documented contract.  A row writes the leading ones (up to
 * write_bytes), then the counters' columns, then the rest of these, then
 * the swept options'. */
extern const char *const report_csv_columns[];
/* The leading fixed columns, NULL-terminated: what a merge of CSVs puts
 * first; the others follow in the order the inputs give them. */
const char *const *report_csv_leading_columns(void);
/* Whether memjob writes a column of its CSV as text (names, swept values
 * as given, a counter's status) rather than as numbers, whatever the
 * text looks like: a job called 1 is still "1" in JSON. */
bool report_column_is_text(const char *name);

#endif
