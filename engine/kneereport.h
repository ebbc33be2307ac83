/*
 * kneereport.h - the knee table of size sweeps (see kneereport.c).
 */
#ifndef MEMJOB_KNEEREPORT_H
#define MEMJOB_KNEEREPORT_H

#include <stdio.h>

#include "result.h"
#include "topology.h"

void knee_report(FILE *f, const struct results *r, const struct topo *t);

#endif
