/*
 * precision.h - the stopping rule of precision=: when a point's slowdown
 * interval is narrow enough, when a block's time budget is spent, and
 * how to say which happened.
 *
 * A point is judged after each round it ran (a round: the victim alone,
 * then each point still running, loaded), from its interval over all its
 * pairs so far: reached when the half-width (hi - lo) / 2, in percentage
 * points, is at or below the target, once the minimum of rounds (repeat)
 * has run.  A block starts another round only when the time it has taken
 * plus the last round's time stays within the budget, so the budget is
 * kept to within the error of that guess rather than passed by a round.
 * Pure logic: the runner (run/rounds.c) feeds it figures and times.
 */
#ifndef MEMJOB_PRECISION_H
#define MEMJOB_PRECISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/interval.h"

/* Rounds a block may run at most: results are kept per repeat, and this
 * is repeat's own upper limit. */
#define PRECISION_MAX_ROUNDS	1000

enum precision_state {
	PRECISION_OFF,		/* no precision= for this point */
	PRECISION_RUNNING,	/* still wider than asked: more rounds */
	PRECISION_REACHED,	/* as narrow as asked */
	PRECISION_BUDGET,	/* another round would pass the budget */
	PRECISION_CAP,		/* PRECISION_MAX_ROUNDS rounds run */
	PRECISION_STOPPED,	/* interrupted, or a run of it failed */
};

struct precision_point {
	enum precision_state state;
	double target;		/* the half-width asked for, in % */
	unsigned pairs;		/* rounds the point ran (loaded runs) */
	bool have_width;	/* an interval exists (>= 4 pairs, values > 0) */
	double half_width;	/* of that interval, in percentage points */
};

/* (hi - lo) / 2 of an interval that exists, rounded to INTERVAL_DECIMALS
 * as its bounds are (one figure, one rounding: util/row.h). */
double interval_half_width(const struct interval *iv);
/* After a round the point ran: its interval over pairs pairs; it is
 * judged once pairs >= min_pairs.  A point may run again after reaching
 * its target (another point of its segment still runs): it is judged
 * again, so its record always tells of its last round. */
void precision_update(struct precision_point *pt, const struct interval *iv,
		      unsigned pairs, unsigned min_pairs);
/* Whether a round of last_ns may start when the block has taken
 * elapsed_ns of budget_ns. */
bool precision_round_fits(uint64_t elapsed_ns, uint64_t last_ns,
			  uint64_t budget_ns);
/* A point still RUNNING when its block ends gets why (BUDGET, CAP or
 * STOPPED); others keep theirs. */
void precision_finish(struct precision_point *pt, enum precision_state why);
/* "reached", "budget", "cap", "stopped" (CSV, JSON); NULL for OFF and
 * RUNNING. */
const char *precision_state_name(enum precision_state s);
/* For people: "reached +-0.9% after 12 pairs (asked +-1%)", "budget
 * spent: +-2.7% after 30 pairs (asked +-1%)". */
void precision_describe(const struct precision_point *pt, char *buf,
			size_t len);

#endif
