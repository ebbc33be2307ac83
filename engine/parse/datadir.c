/*
 * datadir.c - the shipped scenarios, found from anywhere.
 *
 * `make install` puts jobs/ and examples/ under PREFIX/share/memjob; a job
 * file argument that is not a path memjob can read is looked up there, so
 * that `memjob llc-noisy` and `memjob jobs/llc-noisy.ini` run the
 * installed scenario from any directory.  A path that exists always wins:
 * a user's own llc-noisy.ini is never shadowed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "parse/datadir.h"

const char *datadir(void)
{
	const char *env = getenv("MEMJOB_DATADIR");

	return env && *env ? env : MEMJOB_DATADIR;
}

static int try_path(char *buf, size_t len, const char *dir, const char *sub,
		    const char *name, const char *ext)
{
	int n = snprintf(buf, len, "%s/%s%s%s", dir, sub, name, ext);

	return n > 0 && (size_t)n < len && !access(buf, R_OK) ? 0 : -1;
}

int datadir_find_job(const char *arg, char *buf, size_t len)
{
	static const char *const subs[] = { "", "jobs/", "examples/" };
	const char *dir = datadir();
	bool has_ext = strlen(arg) > 4 && !strcmp(arg + strlen(arg) - 4, ".ini");

	if (!*arg || arg[0] == '/' || strstr(arg, ".."))
		return -1;
	for (size_t i = 0; i < sizeof(subs) / sizeof(*subs); i++) {
		if (!try_path(buf, len, dir, subs[i], arg, ""))
			return 0;
		if (!has_ext && !try_path(buf, len, dir, subs[i], arg, ".ini"))
			return 0;
	}
	return -1;
}
