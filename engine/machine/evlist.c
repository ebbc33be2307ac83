/*
 * evlist.c - memjob --list-events[=PATTERN]: what this machine can
 * count, and how memjob would open one event.
 *
 * Without PATTERN: whether a hardware PMU is exposed at all (the
 * kernel's event sources in sysfs, libpfm4's detection), perf's generic
 * events and whether each opens here, the event sets and the row this
 * machine gets, then the named events of this machine's PMUs.  With
 * PATTERN: the same lists cut to the names holding it (with no hardware
 * PMU, every table libpfm4 knows is searched); "@set" shows the set's
 * rows; one whole event name shows its encoding, the perf_event_attr
 * memjob passes to perf_event_open (what the tests compare with
 * libpfm4's own tools).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "machine/counters.h"
#include "machine/evlist.h"
#include "machine/evsets.h"
#include "machine/pmu.h"

/* The machine's PMU, in one paragraph; whether it has one. */
static bool say_pmu(FILE *f)
{
	const char *core = pmu_core(), *why, *fix;
	bool libpfm = pmu_built(&why, &fix);
	char list[512];

	pmu_sysfs_list(NULL, list, sizeof(list));
	if (core) {
		fprintf(f, "hardware PMU: %s (libpfm4's name%s; "
			"/sys/bus/event_source/devices: %s)\n", core,
			getenv("LIBPFM_FORCE_PMU") ? ", assumed as "
			"LIBPFM_FORCE_PMU says" : "", list);
		return true;
	}
	if (!libpfm) {
		fprintf(f, "named events: this memjob is built without libpfm4 "
			"(%s; %s): perf's generic names only\n", why, fix);
		fprintf(f, "event sources the kernel lists "
			"(/sys/bus/event_source/devices): %s\n",
			list[0] ? list : "none");
		return false;
	}
	fprintf(f, "no hardware PMU is exposed to this machine: libpfm4 "
		"detects none, and the kernel lists only %s in "
		"/sys/bus/event_source/devices (a virtual machine whose "
		"hypervisor hides the PMU, say); perf's software events "
		"count here, hardware events are reported as not "
		"supported\n", list[0] ? list : "no event source");
	return false;
}

/* perf's generic events, and whether each opens for this thread. */
static unsigned list_generic(FILE *f, const char *pattern)
{
	unsigned ids[CTR_NEVENTS], n = counters_default(ids), got = 0, k = 0;
	struct counter_value v[COUNTERS_MAX];
	struct counters *c = counters_open(ids, n);

	if (c)
		counters_read(c, v, &got);
	for (unsigned i = 0; i < n; i++) {
		const char *name = counters_name(ids[i]);

		if (pattern && !strcasestr(name, pattern))
			continue;
		if (!k++)
			fprintf(f, "perf's generic events:\n");
		/* opened (never started: not counted) is what matters */
		fprintf(f, "  %-48s %s\n", name, i >= got ? "?" :
			v[i].status == COUNTER_OK ||
			v[i].status == COUNTER_NOT_COUNTED ? "counts here" :
			v[i].why[0] ? v[i].why :
			counters_status_name(v[i].status));
	}
	counters_close(c);
	return k;
}

/* One set: its rows, this machine's marked. */
static void list_set(FILE *f, int set)
{
	int here = evsets_row(set, pmu_core());

	fprintf(f, "@%s: %s\n", evsets_name(set), evsets_what(set));
	for (int r = 0; r < evsets_rows(set); r++) {
		const struct evset_row *row = evsets_get(set, r);

		fprintf(f, "  %s %s%s%s%s: %s\n", r == here ? "*" : " ",
			row->family, row->pmus ? " (" : "",
			row->pmus ? row->pmus : "", row->pmus ? ")" : "",
			row->events);
	}
}

static unsigned list_sets(FILE *f, const char *pattern)
{
	unsigned k = 0;

	for (int s = 0; s < evsets_count(); s++) {
		const struct evset_row *row =
			evsets_get(s, evsets_row(s, pmu_core()));

		if (pattern && !strcasestr(evsets_name(s), pattern))
			continue;
		if (!k++)
			fprintf(f, "event sets (perf_events=@NAME; "
				"--list-events=@NAME for every row):\n");
		fprintf(f, "  @%-47s here %s: %s\n", evsets_name(s),
			row->family, row->events);
	}
	return k;
}

/* PATTERN as one event: its encoding.  -1 when it is not one. */
static int show_event(FILE *f, const char *name)
{
	struct counter_list l;
	const struct pmu_event *ev;
	char err[512], attr[256];

	if (strpbrk(name, "*?[") || counters_parse(name, &l, err, sizeof(err))
	    || l.n != 1 || l.has_set)
		return -1;
	ev = counters_named(l.ids[0]);
	if (!ev) {
		counters_attr_text(l.ids[0], attr, sizeof(attr));
		fprintf(f, "%s: perf's generic event; perf_event_attr %s\n",
			counters_name(l.ids[0]), attr);
		return 0;
	}
	if (!ev->present) {
		fprintf(f, "%s: known, but not counted here: %s\n", name,
			ev->why);
		return 0;
	}
	fprintf(f, "%s: PMU %s (%s), %s; perf_event_attr ", name, ev->pmu,
		ev->desc, ev->uncore ? "uncore" : "core");
	if (ev->uncore) {
		fprintf(f, "type=%u config=%#llx config1=%#llx config2=%#llx; "
			"opened per CPU of %s's cpumask, for the whole run\n",
			ev->type, (unsigned long long)ev->config,
			(unsigned long long)ev->config1,
			(unsigned long long)ev->config2, ev->perf_pmu);
		return 0;
	}
	counters_attr_text(l.ids[0], attr, sizeof(attr));
	fprintf(f, "%s\n", attr);
	return 0;
}

int counters_list_events(FILE *f, const char *pattern)
{
	unsigned n = 0;
	int set;

	if (pattern && !*pattern)
		pattern = NULL;
	if (pattern && pattern[0] == '@') {
		set = evsets_find(pattern + 1);
		if (set < 0)
			return -1;
		list_set(f, set);
		return 0;
	}
	if (pattern && !show_event(f, pattern))
		return 0;
	say_pmu(f);
	n += list_generic(f, pattern);
	n += list_sets(f, pattern);
	if (pmu_core() || pattern) {
		unsigned named = pmu_list(f, pattern);

		if (!named && pattern)
			fprintf(f, "no named event holds '%s'\n", pattern);
		n += named;
	} else {
		fprintf(f, "named events: none on this machine; "
			"--list-events=PATTERN searches every table libpfm4 "
			"knows\n");
	}
	return n ? 0 : 1;
}
