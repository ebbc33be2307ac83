/*
 * datadir.h - where the installed jobs/ and examples/ are, and finding a
 * shipped job by name (see datadir.c).
 */
#ifndef MEMJOB_DATADIR_H
#define MEMJOB_DATADIR_H

#include <stddef.h>

/* $MEMJOB_DATADIR, else PREFIX/share/memjob from configure. */
const char *datadir(void);
/* A job file argument that is not a readable path: the shipped job it
 * names (llc-noisy, llc-noisy.ini, jobs/llc-noisy.ini, examples/x.ini)
 * under datadir(), in buf; 0 when one exists, -1 otherwise. */
int datadir_find_job(const char *arg, char *buf, size_t len);

#endif
