/*
 * counters_named.c - the named events of the process (see counters.h):
 * each event by a vendor's name that a job's perf_events= gave, with
 * its encoding (pmu.h), under an id from CTR_NEVENTS on, so that job
 * specs keep plain ids as they do for perf's generic events.
 *
 * Like the probe in counters.c, this is a fact of the process, filled
 * while the job files are parsed and only read afterwards: an entry is
 * written once, before the count that makes it visible.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "machine/counters.h"
#include "machine/pmu.h"

static struct {
	pthread_mutex_t lock;
	atomic_uint n;
	struct {
		char name[128];
		struct pmu_event ev;
	} e[CTR_NAMED_MAX];
} named = { .lock = PTHREAD_MUTEX_INITIALIZER };

int counters_named_add(const char *name, const struct pmu_event *ev)
{
	unsigned n;
	int id = -1;

	pthread_mutex_lock(&named.lock);
	n = atomic_load(&named.n);
	for (unsigned i = 0; i < n && id < 0; i++)
		if (!strcasecmp(named.e[i].name, name))
			id = (int)(CTR_NEVENTS + i);
	if (id < 0 && n < CTR_NAMED_MAX &&
	    strlen(name) < sizeof(named.e[n].name)) {
		snprintf(named.e[n].name, sizeof(named.e[n].name), "%s", name);
		named.e[n].ev = *ev;
		atomic_store(&named.n, n + 1);
		id = (int)(CTR_NEVENTS + n);
	}
	pthread_mutex_unlock(&named.lock);
	return id;
}

static int slot(unsigned id)
{
	if (id < CTR_NEVENTS || id - CTR_NEVENTS >= atomic_load(&named.n))
		return -1;
	return (int)(id - CTR_NEVENTS);
}

const struct pmu_event *counters_named(unsigned id)
{
	int k = slot(id);

	return k < 0 ? NULL : &named.e[k].ev;
}

const char *counters_named_name(unsigned id)
{
	int k = slot(id);

	return k < 0 ? NULL : named.e[k].name;
}

bool counters_is_uncore(unsigned id)
{
	const struct pmu_event *ev = counters_named(id);

	return ev && ev->uncore;
}
