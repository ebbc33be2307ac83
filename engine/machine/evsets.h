/*
 * evsets.h - event sets: what a scenario's argument rests on, as this
 * machine's PMU counts it.  perf_events=@llc counts a victim's last-level
 * cache misses, @icache L1 instruction cache misses and instructions,
 * @paging page faults and TLB misses; each set has a row per vendor
 * family (Intel core generations, AMD Zen generations, Arm Neoverse),
 * keyed by libpfm4's name of the core PMU, and a last row of perf's
 * generic events for every other machine (no libpfm4, no hardware PMU
 * exposed, a CPU the table does not know).  The table is data only; the
 * names are resolved by counters_parse() like any others.
 */
#ifndef MEMJOB_EVSETS_H
#define MEMJOB_EVSETS_H

#include <stddef.h>

struct evset_row {
	const char *pmus;	/* libpfm4 core PMU names, ' '-separated;
				   NULL: the generic row, the last */
	const char *family;	/* for people: "Intel Skylake to Cascade
				   Lake" */
	const char *events;	/* the events, ','-separated */
	const char *note;	/* what the events measure here, or NULL */
};

/* The set named name (without its '@'), or -1. */
int evsets_find(const char *name);
/* The set's name ("llc"), NULL when set is not a set. */
const char *evsets_name(int set);
/* What the set is for, one line. */
const char *evsets_what(int set);
/* The row for core PMU core (NULL: none known), the generic row when
 * no row names it. */
int evsets_row(int set, const char *core);
/* The generic row of set. */
int evsets_generic(int set);
const struct evset_row *evsets_get(int set, int row);
/* The sets' names, "@llc, @icache, @paging", into buf. */
void evsets_names(char *buf, size_t len);
/* The nearest set name to a mistyped one, or NULL. */
const char *evsets_nearest(const char *name);
/* How many sets there are, and rows of set (for --list-events, tests). */
int evsets_count(void);
int evsets_rows(int set);

#endif
