/*
 * footprint.h - the footprint table after a sweep of a kernel's footprint
 * (see footprint.c).
 */
#ifndef MEMJOB_FOOTPRINT_H
#define MEMJOB_FOOTPRINT_H

#include <stdio.h>

#include "run/result.h"
#include "machine/topology.h"

/* For each job that swept its kernel's footprint_opt, a table per value
 * of its other swept options: the smallest footprint as the baseline,
 * and the cost per item and per call above it at each larger one. */
void footprint_report(FILE *f, const struct results *r, const struct topo *t);

#endif
