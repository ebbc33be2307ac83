/*
 * pairmatrix.h - summary=matrix for a job of two clones, one per CPU
 * (cpus_allowed_policy=split), swept over cpus_allowed alone: its medians
 * as a CPU-to-CPU matrix (kernel=pingpong's core-to-core latency).
 */
#ifndef MEMJOB_PAIRMATRIX_H
#define MEMJOB_PAIRMATRIX_H

#include <stdbool.h>
#include <stdio.h>

#include "run/result.h"

/* The series idx[0..n) (one job's points, plan order) as a matrix, when
 * it is one such job with summary=matrix; whether it printed it. */
bool pair_matrix(FILE *f, const struct results *r, const unsigned *idx,
		 unsigned n);

#endif
