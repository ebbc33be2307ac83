/*
 * reportcmd_json.h - memjob report's JSON (man page: REPORTS): the
 * comparison as one document, and the merged rows as another.
 *
 * Both are built from the rows their CSVs are written from (compareout.h,
 * csvmerge.h), so a JSON object's keys are the CSV's columns and its
 * values the CSV's fields: numbers as numbers, text as text, empty as
 * null.  Each document is built whole and written at once.
 */
#ifndef MEMJOB_REPORTCMD_JSON_H
#define MEMJOB_REPORTCMD_JSON_H

#include <stdio.h>

#include "subcommands/compare.h"
#include "subcommands/csvmerge.h"

/*
 * {"memjob", "inputs": [{file, rows}], "key": [column...], "by",
 *  "metric", "baseline", "runs": [{run, rows}],
 *  "points": [{"key": {column: value}, "metric_name", "better",
 *              "runs": [the CSV's first fourteen columns]}]}
 * with the runs in the CSV's order, the baseline first.  src are the
 * inputs as given (run: the name on the command line), o what was asked.
 * 0, or -1 when out of memory (nothing is written then).
 */
int cmp_json(FILE *f, const struct cmp *c, const struct cmp_opts *o,
	     const struct cmp_src *src, unsigned n);
/* {"memjob", "inputs": [{file, rows}], "results": [a row per CSV row]},
 * "results" as a run's document has it.  0, or -1 as cmp_json. */
int merge_json(FILE *f, const struct csv_merge *m, const struct cmp_src *src,
	       unsigned n);

#endif
