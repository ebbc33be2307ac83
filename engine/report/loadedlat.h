/*
 * loadedlat.h - the loaded-latency table: for a victim whose loaded
 * points differ only in its aggressors' rate= (interference_rate_curve),
 * one row per injection level, from idle to unlimited, with the
 * aggressors' bandwidth, the victim's latency and its 95% interval.
 */
#ifndef MEMJOB_LOADEDLAT_H
#define MEMJOB_LOADEDLAT_H

#include <stdio.h>

#include "run/result.h"

void loadedlat_report(FILE *f, const struct results *r);

#endif
