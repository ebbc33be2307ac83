/*
 * parse.h - job files and command-line job options into a jobset.
 *
 * Semantics (as fio, plus command-line overrides):
 *  - [global] sets defaults for the jobs that follow it in the same file;
 *    several [global] sections may appear, each adding to the defaults.
 *  - every other [section] is a job named after it.
 *  - on the command line, --name=NAME starts a job; job options before
 *    the first --name apply to every job, overriding the job files.
 */
#ifndef MEMJOB_PARSE_H
#define MEMJOB_PARSE_H

#include "util/diag.h"
#include "spec/job.h"

struct parser;

/* The most jobs memjob reads, in all its job files and the command line
 * together: each parsed job takes about 12 KiB and its checks some time,
 * so a file of millions is refused at its first job past the limit
 * rather than filling memory.  (sweep= makes many runs of one job.) */
#define MEMJOB_MAX_JOBS	65536

/* Report the job files' values that did not parse and that no command-
 * line override replaces (parser_finish() does it too; once). */
void parser_report_pending(struct parser *p);

struct parser *parser_new(struct diag *d);
/* Add the jobs of a job file ("-" is standard input). */
int parser_add_file(struct parser *p, const char *path);
/* Add a job file held in memory (tests). */
int parser_add_string(struct parser *p, const char *name, const char *text);
/* One command-line job option; argi is its position for error messages.
 * "name" starts a new command-line job.  val NULL means a bare --flag. */
int parser_add_cmdline(struct parser *p, const char *key, const char *val,
		       int argi);
/*
 * Finish: apply command-line overrides, keep only the named sections when
 * sections is non-empty, and hand the jobs over.  Returns the number of
 * errors reported (0 on success).  The parser must outlive the jobset
 * (locations point at file names it owns).
 */
unsigned parser_finish(struct parser *p, const char *const *sections,
		       size_t nsections, struct jobset *out);
void parser_free(struct parser *p);
void jobset_free(struct jobset *js);
/* A copy of every job of src, sweeps included; -1 when out of memory. */
int jobset_copy(struct jobset *dst, const struct jobset *src);

#endif
