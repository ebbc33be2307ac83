/*
 * files.h - the files memjob creates for a run (plan->creates): made
 * before the first run, removed at the end unless keep_files=1, and in
 * between deleted or made afresh by phase isolation (isolate.h).
 *
 * A file is made once by each create (O_CREAT|O_EXCL|O_NOFOLLOW), marked
 * as memjob's (filemark.h), and its descriptor is held for as long as it
 * is memjob's: its inode cannot be used again, and the jobs open its path
 * only while that path is still that file (ioe_open_as).  A create that
 * fails, or a file that another process put in the place of one of them,
 * is not memjob's: the file is lost, and the next run of every job that
 * uses it fails with why, naming the path and what is there now.  Only
 * a file memjob made is ever removed.
 */
#ifndef MEMJOB_FILES_H
#define MEMJOB_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "plan/plan.h"

struct created_file {
	struct stat st;			/* which it is (its fd's) */
	int fd;				/* held while it is memjob's, or -1 */
	bool gone;			/* not memjob's file any more */
	bool fresh;			/* made afresh for the next run */
	const char *kept_from;		/* kept for the next run: the job
					   that wrote it, or NULL */
	char *lost;			/* why the next run cannot have it
					   (made again), or NULL */
};

struct created_files {
	const struct plan *plan;
	FILE *progress;			/* "creating ..." lines, or NULL */
	struct created_file *f;		/* [i] for plan->creates[i] */
	unsigned n;			/* made so far */
	bool said_unmarked;		/* the note that a mark failed */
};

/* Make every file of the plan, in order; -1 at the first that fails (said)
 * or when *stop is set. */
int files_create_all(struct created_files *cf, atomic_int *stop);
/* Make file i (again), as before the first run: 0, or -1 (said, and the
 * file lost). */
int files_create(struct created_files *cf, unsigned i);
/* Remove file i now if it is still the one memjob made: 0 when it is
 * gone, -1 when another process replaced it (left alone, said, and the
 * file lost) or it cannot be removed. */
int files_remove(struct created_files *cf, unsigned i);
/* Remove the files made, except those of keep_files jobs (their mark
 * taken off: the user's now); close them all; free. */
void files_cleanup(struct created_files *cf);
/* The index in plan->creates of the file made at path, or -1. */
int files_index(const struct created_files *cf, const char *path);
/* The file memjob made at path, or NULL for a path it did not make. */
const struct created_file *files_made(const struct created_files *cf,
				      const char *path);

#endif
