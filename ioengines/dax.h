/*
 * dax.h - the options of ioengine=dax (flush, fence, fence_scope, nt,
 * dax_emulate), which it declares and parses into its own struct.
 */
#ifndef MEMJOB_DAX_H
#define MEMJOB_DAX_H

#include <stdbool.h>

#include "machine/cacheflush.h"
#include "spec/options.h"

enum fence_scope { FENCE_PER_BLOCK, FENCE_PER_LINE };

struct dax_opts {
	enum flush_kind flush;
	enum fence_kind fence;
	enum fence_scope fence_scope;
	bool nt;
	bool dax_emulate;
};

extern const struct opt_group ioengine_dax_opts;

#endif
