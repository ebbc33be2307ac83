/*
 * files.h - the files memjob creates for a run (plan->creates): made
 * before the first run, removed at the end unless keep_files=1, and in
 * between deleted or made afresh by phase isolation (isolate.h).
 *
 * Only a file memjob made is ever removed: each is remembered by its
 * device and inode when made, and a file another process put in its
 * place is left as it is (and said).
 */
#ifndef MEMJOB_FILES_H
#define MEMJOB_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "plan/plan.h"

struct created_file {
	struct stat st;			/* which it is: another process */
	bool known;			/* may replace it */
	bool gone;			/* removed already */
	bool fresh;			/* made afresh for the next run */
	const char *kept_from;		/* kept for the next run: the job
					   that wrote it, or NULL */
};

struct created_files {
	const struct plan *plan;
	FILE *progress;			/* "creating ..." lines, or NULL */
	struct created_file *f;		/* [i] for plan->creates[i] */
	unsigned n;			/* made so far */
};

/* Make every file of the plan, in order; -1 at the first that fails (said)
 * or when *stop is set. */
int files_create_all(struct created_files *cf, atomic_int *stop);
/* Make file i (again), as before the first run: 0, or -1 (said). */
int files_create(struct created_files *cf, unsigned i);
/* Remove file i now if it is still the one memjob made: 0 when it is
 * gone, -1 when another process replaced it (left alone, and said) or it
 * cannot be removed. */
int files_remove(struct created_files *cf, unsigned i);
/* Remove the files made, except those of keep_files jobs; free. */
void files_cleanup(struct created_files *cf);
/* The index in plan->creates of the file made at path, or -1. */
int files_index(const struct created_files *cf, const char *path);

#endif
