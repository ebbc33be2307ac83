/*
 * filenames.h - a job's file names: filename_format with $jobname and
 * $jobnum replaced, and the check that a relative name stays inside
 * directory= (allow_outside_directory=1 lets it out).
 */
#ifndef MEMJOB_FILENAMES_H
#define MEMJOB_FILENAMES_H

#include "util/diag.h"
#include "spec/job.h"

/* Clone clone's own file name (malloc'ed; NULL: out of memory):
 * filename_format, $jobname.$jobnum by default, as fio names them. */
char *job_file_name(const struct job_spec *j, unsigned clone);
/* A relative filename or filename_format whose ".." climbs out of
 * directory=: an error at the option, unless allow_outside_directory. */
void check_inside_directory(const struct job_spec *j, struct diag *d);

#endif
