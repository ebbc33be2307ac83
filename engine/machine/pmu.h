/*
 * pmu.h - the machine's performance monitoring units and their events by
 * the vendors' names (INST_RETIRED:ANY_P, amd64_fam19h_zen4::...,
 * amd64_fam19h_zen3_l3::UNC_L3_MISSES), through libpfm4.
 *
 * libpfm4 is optional (configure's optional_library): pmu.c is built
 * with it, pmu_absent.c without it, and the latter refuses every named
 * event with the package to install, while perf's generic names
 * (counters.h) work in both.  libpfm4 knows the event tables of every
 * PMU of the architecture it was built for, and which of them this
 * machine has; LIBPFM_FORCE_PMU=NAME makes it assume one (how the tests
 * encode Intel and AMD events on a machine without a PMU).
 *
 * An event is encoded once, at parse time, into the perf_event_attr
 * fields perf_event_open(2) needs; an event of a PMU this machine does
 * not have is known but not encoded (present is false, why says so), so
 * a job file written for another machine still runs here and reports
 * the event as not supported.
 */
#ifndef MEMJOB_PMU_H
#define MEMJOB_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pmu_event {
	uint32_t type;			/* perf_event_attr.type ... */
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel;	/* ":u", ":k" */
	bool uncore;			/* counted per socket or LLC, not
					   per thread (pmu_cpumask()) */
	bool present;			/* its PMU is this machine's */
	char pmu[48];			/* libpfm4's name: skl, ... */
	char desc[64];			/* the PMU's: "Intel Skylake" */
	char perf_pmu[48];		/* its sysfs name (uncore), or "" */
	char why[160];			/* !present: why it is not counted */
};

/*
 * Encode name for this machine.  0: encoded (ev filled); 1: an event of
 * a PMU this machine lacks (ev->pmu, ev->desc and ev->why set, nothing
 * to open); -1: unknown or malformed, err completes "option
 * 'perf_events': <err>" (with "did you mean" against this machine's
 * tables).  *unknown is set when the name is in no table at all (the
 * caller may prefer a generic name's suggestion).
 */
int pmu_event_encode(const char *name, struct pmu_event *ev, bool *unknown,
		     char *err, size_t errlen);

/* libpfm4's name of the core PMU this machine has ("skl",
 * "amd64_fam19h_zen4"), or NULL (none exposed, or no libpfm4). */
const char *pmu_core(void);

/* Whether this build has libpfm4; else why not and how to get it. */
bool pmu_built(const char **why, const char **fix);

/*
 * --list-events[=PATTERN]: the named events of this machine's PMUs, one
 * "pmu::EVENT:UMASK  description" a line, those whose name holds
 * PATTERN (case-insensitive; shell wildcards allowed) when one is given;
 * with no hardware PMU, a PATTERN searches every table libpfm4 knows and
 * marks what is not this machine's.  Returns how many it listed.
 */
unsigned pmu_list(FILE *f, const char *pattern);

/*
 * The CPUs an uncore event of sysfs PMU perf_pmu is opened on (its
 * cpumask: one CPU per socket or LLC) below root ("" or "/" for the
 * machine), as a bitmap of words (64 CPUs a word); the count, or -1
 * when the cpumask cannot be read.
 */
int pmu_cpumask(const char *root, const char *perf_pmu, uint64_t *bits,
		unsigned words);

/* The sysfs name of the PMU whose perf type is type ("amd_l3") into buf;
 * -1 when no PMU in root/sys/bus/event_source/devices has it. */
int pmu_sysfs_name(const char *root, uint32_t type, char *buf, size_t len);

/* The event sources the kernel lists in root/sys/bus/event_source/devices
 * ("breakpoint msr software tracepoint uprobe"), into buf. */
void pmu_sysfs_list(const char *root, char *buf, size_t len);

#endif
