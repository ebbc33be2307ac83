/*
 * chase.h - the options of kernel=chase (stride, chase_layout), which it
 * declares and parses into its own struct.
 */
#ifndef MEMJOB_CHASE_H
#define MEMJOB_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "spec/options.h"

enum chase_layout { CHASE_RANDOM, CHASE_PAGE };

struct chase_opts {
	uint64_t stride;		/* bytes between pointers */
	enum chase_layout chase_layout;
};

extern const struct opt_group kernel_chase_opts;

/* The whole cycles of the chase that a pass makes over a region of
 * slots pointers, chased in blocks of per_block steps (bs / stride):
 * more than one for small regions, so that the engine's work between
 * blocks stays a negligible share of a fast chase (chase.c). */
size_t chase_cycles_per_pass(size_t slots, uint64_t per_block);

#endif
