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

bool path_climbs_out(const char *rel)
{
	long depth = 0;

	for (const char *p = rel; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return true;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += strspn(p, "/");
	}
	return false;
}
