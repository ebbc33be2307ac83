/*
 * diag.h - one place that formats every diagnostic memjob prints.
 *
 * A bad input is reported as "file:line: option 'bs': must be ..., got 3000"
 * so the user can jump straight to it.  Parsing collects every error it can
 * find before giving up; the caller decides the exit status (2 for input).
 */
#ifndef MEMJOB_DIAG_H
#define MEMJOB_DIAG_H

#include <stdarg.h>
#include <stdio.h>

/* Where a value came from: a job file line, or a command-line argument. */
struct srcloc {
	const char *file;	/* "jobs/x.ini", "<stdin>", or "command line" */
	int line;		/* 1-based line; for the command line, argv index */
};

struct diag {
	FILE *out;		/* stderr, or a memstream in unit tests */
	unsigned errors;
	unsigned warnings;
};

void diag_init(struct diag *d, FILE *out);

/* "file:line: option 'opt': <message>"; opt may be NULL. */
__attribute__((format(printf, 4, 5)))
void diag_error(struct diag *d, const struct srcloc *loc, const char *opt,
		const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void diag_warn(struct diag *d, const struct srcloc *loc, const char *opt,
	       const char *fmt, ...);
/* A message with no location, e.g. "memjob: cannot open foo.ini: ..." */
__attribute__((format(printf, 2, 3)))
void diag_plain(struct diag *d, const char *fmt, ...);

#endif
