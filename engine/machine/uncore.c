/*
 * uncore.c - uncore events over a run (see uncore.h): each event opened
 * alone on every CPU of its PMU's cpumask, read as value, time enabled
 * and time running, and the instances' windows summed, each scaled by
 * its own running share as counters.c scales a multiplexed event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "machine/limits.h"
#include "machine/pmu.h"
#include "machine/uncore.h"

#define MAX_INSTANCES	64	/* sockets or LLCs of one PMU */

struct instance {
	int fd;
	uint64_t raw, enabled, running;	/* at uncore_start */
};

struct event {
	unsigned id;
	enum counter_status status;
	char why[160];
	unsigned n;
	struct instance in[MAX_INSTANCES];
};

struct uncore {
	unsigned n;
	struct event e[COUNTERS_MAX];
};

bool uncore_wanted(const unsigned *ids, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (counters_is_uncore(ids[i]))
			return true;
	return false;
}

static int open_on(const struct pmu_event *ev, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.config1 = ev->config1;
	a.config2 = ev->config2;
	a.disabled = 1;			/* uncore PMUs count every mode */
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Event e on each CPU of its PMU's cpumask; the first failure ends it. */
static void open_event(struct event *e, const char *root, int paranoid)
{
	const struct pmu_event *ev = counters_named(e->id);
	uint64_t mask[BITMAP_WORDS(MEMJOB_MAX_CPUS)];
	int got;

	if (!ev->present) {
		e->status = COUNTER_UNSUPPORTED;
		snprintf(e->why, sizeof(e->why), "%s", ev->why);
		return;
	}
	got = pmu_cpumask(root, ev->perf_pmu, mask,
			  BITMAP_WORDS(MEMJOB_MAX_CPUS));
	if (got <= 0) {
		e->status = COUNTER_UNSUPPORTED;
		snprintf(e->why, sizeof(e->why), "uncore PMU %s lists no CPU "
			 "in its sysfs cpumask to open it on", ev->perf_pmu);
		return;
	}
	for (int cpu = 0; cpu < MEMJOB_MAX_CPUS && e->n < MAX_INSTANCES;
	     cpu++) {
		int fd;

		if (!(mask[cpu / 64] >> (cpu % 64) & 1))
			continue;
		fd = open_on(ev, cpu);
		if (fd < 0) {
			e->status = counters_status_of(errno, paranoid, 1, e->why,
						       sizeof(e->why));
			if (e->status == COUNTER_DENIED)
				snprintf(e->why + strlen(e->why),
					 sizeof(e->why) - strlen(e->why),
					 ": uncore events count the whole "
					 "machine, which needs "
					 "perf_event_paranoid <= 0 or "
					 "CAP_PERFMON");
			return;
		}
		e->in[e->n++].fd = fd;
	}
}

struct uncore *uncore_open(const unsigned *ids, unsigned n, const char *root)
{
	struct uncore *u;
	int paranoid;

	if (!uncore_wanted(ids, n) || !(u = calloc(1, sizeof(*u))))
		return NULL;
	paranoid = counters_paranoid();
	for (unsigned i = 0; i < n && u->n < COUNTERS_MAX; i++) {
		struct event *e = &u->e[u->n];

		if (!counters_is_uncore(ids[i]))
			continue;
		e->id = ids[i];
		e->status = COUNTER_OK;
		u->n++;
		open_event(e, root, paranoid);
		if (e->status == COUNTER_OK)
			continue;
		for (unsigned k = 0; k < e->n; k++)
			close(e->in[k].fd);
		e->n = 0;
	}
	return u;
}

static int read_instance(int fd, uint64_t v[3])
{
	ssize_t got = read(fd, v, 3 * sizeof(v[0]));

	return got == 3 * (ssize_t)sizeof(v[0]) ? 0 : -1;
}

int uncore_start(struct uncore *u)
{
	int ret = 0;

	for (unsigned i = 0; u && i < u->n; i++) {
		struct event *e = &u->e[i];

		for (unsigned k = 0; k < e->n; k++) {
			struct instance *in = &e->in[k];
			uint64_t v[3];

			if (ioctl(in->fd, PERF_EVENT_IOC_ENABLE, 0) < 0 ||
			    read_instance(in->fd, v)) {
				e->status = COUNTER_FAILED;
				snprintf(e->why, sizeof(e->why), "enable: %s",
					 strerror(errno));
				ret = -1;
				continue;
			}
			in->raw = v[0];
			in->enabled = v[1];
			in->running = v[2];
		}
	}
	return ret;
}

int uncore_stop(struct uncore *u)
{
	int ret = 0;

	for (unsigned i = 0; u && i < u->n; i++)
		for (unsigned k = 0; k < u->e[i].n; k++)
			if (ioctl(u->e[i].in[k].fd, PERF_EVENT_IOC_DISABLE,
				  0) < 0)
				ret = -1;
	return ret;
}

/* Event e's window: the instances' scaled counts summed into v. */
static void window(const struct event *e, struct counter_value *v)
{
	double share = 1.0;

	v->status = e->status;
	for (unsigned k = 0; k < e->n && v->status == COUNTER_OK; k++) {
		const struct instance *in = &e->in[k];
		uint64_t now[3], en, run;

		if (read_instance(in->fd, now)) {
			v->status = COUNTER_FAILED;
			snprintf(v->why, sizeof(v->why), "read: %s",
				 strerror(errno));
			return;
		}
		en = now[1] - in->enabled;
		run = now[2] - in->running;
		if (!run) {
			v->status = COUNTER_NOT_COUNTED;
			snprintf(v->why, sizeof(v->why), "not counted");
			return;
		}
		v->raw += now[0] - in->raw;
		v->value += counters_scale(now[0] - in->raw, en, run);
		if (run < en && (double)run / (double)en < share)
			share = (double)run / (double)en;
	}
	v->running = share;
}

void uncore_read(const struct uncore *u, struct counter_value *out,
		 unsigned *n)
{
	*n = 0;
	for (unsigned i = 0; u && i < u->n; i++) {
		const struct event *e = &u->e[i];
		struct counter_value *v = &out[(*n)++];

		memset(v, 0, sizeof(*v));
		v->name = counters_name(e->id);
		v->uncore = true;
		v->instances = e->n;
		snprintf(v->why, sizeof(v->why), "%s", e->why);
		window(e, v);
	}
}

void uncore_close(struct uncore *u)
{
	for (unsigned i = 0; u && i < u->n; i++)
		for (unsigned k = 0; k < u->e[i].n; k++)
			close(u->e[i].in[k].fd);
	free(u);
}
