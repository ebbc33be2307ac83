/*
 * path.h - the parts of a file's path memjob needs.
 */
#ifndef MEMJOB_PATH_H
#define MEMJOB_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* The directory of path into dir[len], as dirname(3) gives it but
 * without touching path: "." for a bare name, "/" for a file in the
 * root.  A file yet to be made lives on its directory's file system. */
void path_dir(const char *path, char *dir, size_t len);

/* Whether the relative path, taken part by part as written, goes above
 * the directory it starts in ("a/../.." does, "a/../b" does not). */
bool path_climbs_out(const char *rel);

#endif
