/*
 * evlist.h - memjob --list-events[=PATTERN] (see evlist.c).
 */
#ifndef MEMJOB_EVLIST_H
#define MEMJOB_EVLIST_H

#include <stdio.h>

/* 0 when something was listed, 1 when PATTERN matched nothing, -1 for
 * an unknown "@set". */
int counters_list_events(FILE *f, const char *pattern);

#endif
