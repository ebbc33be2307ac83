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

#include "report/context.h"
#include "run/result.h"

/*
 * --output-format's value: normal, csv, json, or a comma list of them,
 * each at most once, as REPORT_* bits in *out (s NULL: the option had no
 * value).  0, or -1 with the whole complaint in why ("expected ...; got
 * 'jsn'; did you mean 'json'?").
 */
int report_parse_formats(const char *s, unsigned *out, char *why,
			 size_t len);
/* --details's value: runs, counters, system, clones, groups, all, or a
 * comma list of them, as REPORT_DETAIL_* bits; as report_parse_formats. */
int report_parse_details(const char *s, unsigned *out, char *why,
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
