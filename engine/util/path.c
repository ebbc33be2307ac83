/*
 * path.c - the parts of a file's path (see path.h).
 */
#include <stdio.h>
#include <string.h>

#include "util/path.h"

void path_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}
