/*
 * jobopts.h - a hand-made job (no parser) with one data source's or
 * kernel's own options attached, as the parser attaches every group's.
 */
#ifndef MEMJOB_T_JOBOPTS_H
#define MEMJOB_T_JOBOPTS_H

#include "spec/options.h"

struct jobopts {
	const struct opt_group *groups[2];
	void *gdata[2];
	struct opt_space space;
};

/* j reads group g's options from data (which outlives j); w holds the
 * space that says so.  No option counts as set. */
void jobopts_attach(struct job_spec *j, struct jobopts *w,
		    const struct opt_group *g, void *data);

#endif
