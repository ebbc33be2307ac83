/*
 * progress.h - the progress line: one line on standard error, rewritten in
 * place while a segment runs, so a long run shows that it is alive, where
 * it is and how long it has left.
 *
 * It reads what the workers already publish (each thread's live_bytes) and
 * the clock; it never touches a worker's path.  Nothing is printed for the
 * first second of a segment, so short runs stay quiet, and the line is
 * erased when the segment ends, so the report that follows starts clean.
 */
#ifndef MEMJOB_PROGRESS_H
#define MEMJOB_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"
#include "run/result.h"

enum progress_when { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };

/* Where the segment stands in the run, for the line's "[2/5]" prefix. */
struct progress_where {
	unsigned segment, nsegments;	/* 0-based, and how many */
	unsigned repeat, nrepeats;	/* 0-based, and how many */
};

struct progress;

/* Starts the line's thread for the jobs of sg, whose results are those of
 * repeat; NULL (nothing to do, or no thread) when tty is NULL. */
struct progress *progress_start(FILE *tty, const struct plan *p,
				const struct segment *sg, struct results *res,
				const struct progress_where *where);
/* Stops the thread and erases the line. */
void progress_stop(struct progress *pg);

/* The line for the state at `now` (CLOCK_MONOTONIC ns) into buf, cut to
 * width columns; pure, for tests.  done[i] is bytes done by job i of the
 * segment, rate[i] its recent bytes per second (negative: unknown yet). */
void progress_format(char *buf, size_t len, unsigned width,
		     const struct plan *p, const struct segment *sg,
		     const struct progress_where *where, uint64_t elapsed_ns,
		     const uint64_t *done, const double *rate);

#endif
