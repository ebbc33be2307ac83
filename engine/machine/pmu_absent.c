/*
 * pmu_absent.c - pmu.h in a build without libpfm4 (configure found no
 * libpfm4-dev, or was given --disable-libpfm4): no named event can be
 * encoded, so each is refused with why and how to get libpfm4; perf's
 * generic names (counters.h) do not need it.
 */
#include <string.h>

#include "config.h"
#include "machine/pmu.h"

#ifndef MEMJOB_LIBPFM4_WHY
#define MEMJOB_LIBPFM4_WHY	"this build has no libpfm4"
#define MEMJOB_LIBPFM4_FIX	"apt-get install -y libpfm4-dev, then " \
				"./configure && make"
#endif

bool pmu_built(const char **why, const char **fix)
{
	*why = MEMJOB_LIBPFM4_WHY;
	*fix = MEMJOB_LIBPFM4_FIX;
	return false;
}

int pmu_event_encode(const char *name, struct pmu_event *ev, bool *unknown,
		     char *err, size_t errlen)
{
	memset(ev, 0, sizeof(*ev));
	*unknown = true;
	snprintf(err, errlen, "event '%s' is not one of perf's generic "
		 "names, and events by the vendors' names need libpfm4, "
		 "which this memjob is built without (%s: %s)", name,
		 MEMJOB_LIBPFM4_WHY, MEMJOB_LIBPFM4_FIX);
	return -1;
}

const char *pmu_core(void)
{
	return NULL;
}

unsigned pmu_list(FILE *f, const char *pattern)
{
	(void)f;
	(void)pattern;
	return 0;
}
