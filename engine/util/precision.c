/*
 * precision.c - precision='s stopping rule and its words (see
 * precision.h).
 */
#include <stdio.h>

#include "util/precision.h"
#include "util/row.h"

double interval_half_width(const struct interval *iv)
{
	return fig_fixed((iv->hi - iv->lo) / 2, INTERVAL_DECIMALS);
}

void precision_update(struct precision_point *pt, const struct interval *iv,
		      unsigned pairs, unsigned min_pairs)
{
	if (pt->state == PRECISION_OFF)
		return;
	pt->pairs = pairs;
	pt->have_width = iv->status == INTERVAL_OK;
	pt->half_width = pt->have_width ? interval_half_width(iv) : 0;
	pt->state = pt->have_width && pairs >= min_pairs &&
		    pt->half_width <= pt->target ? PRECISION_REACHED
						 : PRECISION_RUNNING;
}

bool precision_round_fits(uint64_t elapsed_ns, uint64_t last_ns,
			  uint64_t budget_ns)
{
	return elapsed_ns < budget_ns && last_ns <= budget_ns - elapsed_ns;
}

void precision_finish(struct precision_point *pt, enum precision_state why)
{
	if (pt->state == PRECISION_RUNNING)
		pt->state = why;
}

const char *precision_state_name(enum precision_state s)
{
	switch (s) {
	case PRECISION_REACHED:
		return "reached";
	case PRECISION_BUDGET:
		return "budget";
	case PRECISION_CAP:
		return "cap";
	case PRECISION_STOPPED:
		return "stopped";
	default:
		return NULL;
	}
}

void precision_describe(const struct precision_point *pt, char *buf,
			size_t len)
{
	static const char *const lead[] = {
		[PRECISION_REACHED] = "reached ",
		[PRECISION_BUDGET] = "budget spent: ",
		[PRECISION_CAP] = "round limit hit: ",
		[PRECISION_STOPPED] = "stopped early (interrupted or a run failed): ",
	};
	char width[48];

	if (pt->state == PRECISION_OFF || pt->state == PRECISION_RUNNING) {
		snprintf(buf, len, "%s", pt->state == PRECISION_OFF ?
			 "no precision asked" : "still running");
		return;
	}
	if (pt->have_width)
		snprintf(width, sizeof(width), "+-%.*f%%",
			 pt->half_width < 1 ? 2 : 1, pt->half_width);
	else
		snprintf(width, sizeof(width), "no interval");
	snprintf(buf, len, "%s%s after %u pair%s (asked +-%g%%)",
		 lead[pt->state], width, pt->pairs, pt->pairs == 1 ? "" : "s",
		 pt->target);
}
