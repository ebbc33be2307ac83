/*
 * rounds.h - a block of segments (plan.h) run round by round: a round
 * runs each segment of the block once, in order.  The first rounds are
 * the block's repeat; with precision= (util/precision.h) more follow,
 * each with only the segments a point still too wide needs (its loaded
 * runs, and its victim's alone runs), while the block's budget lets
 * another round fit.
 */
#ifndef MEMJOB_ROUNDS_H
#define MEMJOB_ROUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "run/result.h"

struct rounds {
	struct results *res;
	unsigned first, end;		/* segments [first, end) */
	unsigned min;			/* rounds always run: the repeat */
	bool adaptive;			/* a point of the block has precision= */
	uint64_t budget_ns;
	uint64_t start_ns, round_start_ns, last_ns;
	enum precision_state why;	/* what ended the rounds */
};

void rounds_begin(struct rounds *b, struct results *res, unsigned first,
		  unsigned end);
/* Whether round r runs (false once stop is set); makes room for it. */
bool rounds_next(struct rounds *b, unsigned r, bool stop);
/* Whether segment s runs in round r. */
bool rounds_runs(const struct rounds *b, unsigned s, unsigned r);
/* After segment s ran in round r: its runs summed, its count kept. */
void rounds_ran(struct rounds *b, unsigned s, unsigned r);
/* After round r: each point that ran in it judged. */
void rounds_judge(struct rounds *b, unsigned r);
/* Whether rounds after r may come (so r is not known to be the last). */
bool rounds_open(const struct rounds *b, unsigned r);
/* The points still too wide get what ended the block. */
void rounds_finish(struct rounds *b);

#endif
