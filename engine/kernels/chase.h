/*
 * chase.h - the options of kernel=chase (stride, chase_layout), which it
 * declares and parses into its own struct.
 */
#ifndef MEMJOB_CHASE_H
#define MEMJOB_CHASE_H

#include <stdint.h>

#include "spec/options.h"

enum chase_layout { CHASE_RANDOM, CHASE_PAGE };

struct chase_opts {
	uint64_t stride;		/* bytes between pointers */
	enum chase_layout chase_layout;
};

extern const struct opt_group kernel_chase_opts;

#endif
