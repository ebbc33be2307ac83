/*
 * rounds.c - a block's rounds, and precision='s extra ones (see
 * rounds.h).
 */
#include <time.h>

#include "run/rounds.h"
#include "util/clock.h"

static bool in_block(const struct rounds *b, unsigned job)
{
	unsigned s = b->res->plan->jobs[job].segment;

	return s >= b->first && s < b->end;
}

/* Whether a point still too wide needs segment s: it runs there, or
 * its victim's alone runs do. */
static bool needed(const struct rounds *b, unsigned s)
{
	const struct plan *p = b->res->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		int base = p->jobs[i].spec->baseline;

		if (b->res->prec[i].state != PRECISION_RUNNING ||
		    !in_block(b, i))
			continue;
		if (p->jobs[i].segment == s ||
		    (base >= 0 && p->jobs[base].segment == s))
			return true;
	}
	return false;
}

static bool needed_any(const struct rounds *b)
{
	for (unsigned s = b->first; s < b->end; s++)
		if (needed(b, s))
			return true;
	return false;
}

void rounds_begin(struct rounds *b, struct results *res, unsigned first,
		  unsigned end)
{
	const struct plan *p = res->plan;

	*b = (struct rounds){ .res = res, .first = first, .end = end };
	for (unsigned s = first; s < end; s++)
		if (p->segments[s].repeat > b->min)
			b->min = p->segments[s].repeat;
	for (unsigned i = 0; i < p->njobs; i++) {
		uint64_t ns = p->jobs[i].spec->precision_budget_us * 1000;

		if (!in_block(b, i) || res->prec[i].state == PRECISION_OFF)
			continue;
		b->adaptive = true;
		if (ns > b->budget_ns)
			b->budget_ns = ns;
	}
	b->start_ns = mono_ns();
}

bool rounds_next(struct rounds *b, unsigned r, bool stop)
{
	uint64_t now = mono_ns();

	if (stop) {
		b->why = PRECISION_STOPPED;
		return false;
	}
	if (r >= b->min) {
		if (!b->adaptive || !needed_any(b))
			return false;
		if (r >= PRECISION_MAX_ROUNDS) {
			b->why = PRECISION_CAP;
			return false;
		}
		if (!precision_round_fits(now - b->start_ns, b->last_ns,
					  b->budget_ns)) {
			b->why = PRECISION_BUDGET;
			return false;
		}
	}
	if (results_reserve(b->res, r + 1)) {
		b->why = PRECISION_STOPPED;
		return false;
	}
	b->round_start_ns = now;
	return true;
}

bool rounds_runs(const struct rounds *b, unsigned s, unsigned r)
{
	if (r < b->min)
		return r < b->res->plan->segments[s].repeat;
	return needed(b, s);
}

void rounds_ran(struct rounds *b, unsigned s, unsigned r)
{
	const struct segment *sg = &b->res->plan->segments[s];

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		results_summarise_run(b->res, i, r);
	if (b->res->repeats[s] < r + 1)
		b->res->repeats[s] = r + 1;
}

void rounds_judge(struct rounds *b, unsigned r)
{
	const struct plan *p = b->res->plan;

	b->last_ns = mono_ns() - b->round_start_ns;
	for (unsigned i = 0; i < p->njobs; i++) {
		struct precision_point *pt = &b->res->prec[i];
		int base = p->jobs[i].spec->baseline;
		struct interval iv;

		if (pt->state == PRECISION_OFF || !in_block(b, i) ||
		    results_repeats(b->res, i) <= r ||
		    !results_point_interval(b->res, i, &iv))
			continue;
		precision_update(pt, &iv, results_repeats(b->res, i), b->min);
		if (results_get(b->res, i, r)->status != RUN_OK ||
		    results_get(b->res, (unsigned)base, r)->status != RUN_OK)
			pt->state = PRECISION_STOPPED;
	}
}

bool rounds_open(const struct rounds *b, unsigned r)
{
	return r + 1 < b->min || b->adaptive;
}

void rounds_finish(struct rounds *b)
{
	const struct plan *p = b->res->plan;

	for (unsigned i = 0; i < p->njobs; i++)
		if (in_block(b, i))
			precision_finish(&b->res->prec[i], b->why ? b->why :
					 PRECISION_STOPPED);
}
