/*
 * prepare.h - what a clone does before the group's barrier, apart from
 * its data source and kernel: its CPUs, its memory policy, and the page
 * cache of its file (invalidate=, preread=).  Each returns -1 with the
 * thread's failure in out (thread_fail) when it cannot.
 */
#ifndef MEMJOB_PREPARE_H
#define MEMJOB_PREPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "plan/plan.h"
#include "run/result.h"

/* Bind the calling thread to the clone's CPUs (prepare.c says which);
 * out->cpu is the one CPU it got, or -1. */
int prepare_cpus(const struct planned_job *pj, unsigned clone,
		 struct thread_result *out);
/* The job's memory policy (numa_mem_policy) for the calling thread. */
int prepare_mempolicy(const struct job_spec *j, struct thread_result *out);
/* invalidate=1: drop path's pages from the page cache.  made: the file
 * memjob made there, opened only as that file (ioe_open_as), or NULL. */
int prepare_invalidate(const char *path, const struct stat *made,
		       struct thread_result *out);
/* Whether clone is the first of its job on its file. */
bool prepare_first_on_file(const struct planned_job *pj, unsigned clone);
/* preread=1: read [off, off + len) of path (to its end when len is 0)
 * through the page cache; the bytes and the time it took in *bytes and
 * *ns. */
int prepare_preread(const char *path, const struct stat *made, uint64_t off,
		    uint64_t len, uint64_t *bytes, uint64_t *ns,
		    struct thread_result *out);

#endif
