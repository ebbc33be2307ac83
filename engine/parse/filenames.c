/*
 * filenames.c - a job's file names (see filenames.h).
 *
 * Inside or outside is decided on the name as written, part by part,
 * before any file exists: "a/../b" stays in, "a/../../b" and a job
 * called "../x" with the default $jobname.$jobnum climb out.  What a
 * symbolic link inside directory= points at is the directory owner's
 * business; the files memjob makes are never opened through one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/filenames.h"
#include "util/path.h"

char *job_file_name(const struct job_spec *j, unsigned clone)
{
	const char *f = j->filename_format ? j->filename_format
					   : "$jobname.$jobnum";
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	if (!m)
		return NULL;
	while (*f) {
		if (!strncmp(f, "$jobname", 8)) {
			fputs(j->name, m);
			f += 8;
		} else if (!strncmp(f, "$jobnum", 7)) {
			fprintf(m, "%u", clone);
			f += 7;
		} else {
			fputc(*f++, m);
		}
	}
	if (fclose(m)) {
		free(out);
		return NULL;
	}
	return out;
}

void check_inside_directory(const struct job_spec *j, struct diag *d)
{
	const char *opt = j->filename ? "filename" : "filename_format";
	char *name;

	if (j->allow_outside_directory)
		return;
	if (!j->filename && !job_isset(j, "filename_format") &&
	    !strstr(j->name, ".."))
		return;
	/* the clone number cannot climb: clone 0 stands for them all */
	name = j->filename ? strdup(j->filename) : job_file_name(j, 0);
	if (!name) {
		diag_plain(d, "out of memory");
		return;
	}
	if (name[0] != '/' && path_climbs_out(name))
		diag_error(d, job_loc(j, opt), opt,
			   "'%s' climbs out of directory '%s'; memjob keeps "
			   "a job's files inside it unless "
			   "allow_outside_directory=1 (or give an absolute "
			   "path)", name, j->directory ? j->directory : ".");
	free(name);
}
