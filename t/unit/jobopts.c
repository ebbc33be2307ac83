/*
 * jobopts.c - see jobopts.h.
 */
#include "jobopts.h"

void jobopts_attach(struct job_spec *j, struct jobopts *w,
		    const struct opt_group *g, void *data)
{
	w->groups[0] = NULL;
	w->groups[1] = g;
	w->gdata[0] = NULL;
	w->gdata[1] = data;
	w->space = (struct opt_space){ .groups = w->groups, .ngroups = 2 };
	j->space = &w->space;
	j->gdata = w->gdata;
}
