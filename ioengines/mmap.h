/*
 * mmap.h - the options of ioengine=mmap (populate, madvise), which it
 * declares and parses into its own struct.
 */
#ifndef MEMJOB_MMAP_H
#define MEMJOB_MMAP_H

#include <stdbool.h>

#include "spec/options.h"

enum madvise_mode {
	MADV_MODE_NONE, MADV_MODE_NORMAL, MADV_MODE_SEQUENTIAL,
	MADV_MODE_RANDOM, MADV_MODE_WILLNEED, MADV_MODE_HUGEPAGE,
};

struct mmap_opts {
	bool populate;
	enum madvise_mode madvise;
};

extern const struct opt_group ioengine_mmap_opts;

#endif
