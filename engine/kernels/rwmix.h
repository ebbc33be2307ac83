/*
 * rwmix.h - the option of kernel=rwmix (rwmix_ratio=R:W), which it
 * declares and parses into its own struct.
 */
#ifndef MEMJOB_RWMIX_H
#define MEMJOB_RWMIX_H

#include "spec/options.h"

struct rwmix_opts {
	char *ratio;			/* "R:W" as written */
};

extern const struct opt_group kernel_rwmix_opts;

/* "R:W" into the lines read and written of each group; -1 with why. */
int rwmix_parse(const char *s, unsigned *reads, unsigned *writes,
		const char **why);

#endif
