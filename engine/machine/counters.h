/*
 * counters.h - per-thread event counters through perf_event_open(2).
 *
 * A job thread opens its counters during setup, starts them when its
 * measured window opens and stops and reads them when it closes.  The
 * events are perf's, by perf's names, and counted as perf stat counts
 * them: this thread only, user and kernel space, not the hypervisor.
 *
 * Events whose ratio is reported (instructions/cycles, misses/accesses)
 * are opened as one group each, so both are counted over the same time;
 * the other hardware events are opened alone, and the software events as
 * one more group.  When the kernel has fewer counters than events it
 * multiplexes them, and values are scaled by time enabled / time running,
 * as perf stat does; the running fraction is kept with the value.
 *
 * Beside perf's generic names, events by the vendors' names (named
 * events: INST_RETIRED:ANY_P, amd64_fam19h_zen3_l3::UNC_L3_MISSES) are
 * encoded by libpfm4 (pmu.h) when a list is parsed, and kept for the
 * process with ids from CTR_NEVENTS on (counters_named.c); a list may
 * also name one event set (@llc, evsets.h), which becomes this
 * machine's events for what the set is for.  Core events count the
 * thread as the generic ones do; uncore events (per socket or LLC) are
 * not a thread's: counters_open() leaves them out, and uncore.c counts
 * them for the whole run.
 *
 * Nothing here fails a job: an event the machine lacks, or that the user
 * may not count, comes back with a status and a reason, never as a 0.
 * counters_open() returns NULL only when memory runs out.
 *
 * counters.c talks to the kernel; counters_list.c holds the pure parts
 * (lists of names, derived figures, sums over clones).
 */
#ifndef MEMJOB_COUNTERS_H
#define MEMJOB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The events, in perf's order; an id is one of these. */
enum counter_event {
	CTR_CYCLES, CTR_INSTRUCTIONS, CTR_CACHE_REFERENCES, CTR_CACHE_MISSES,
	CTR_BRANCHES, CTR_BRANCH_MISSES,
	CTR_L1D_LOADS, CTR_L1D_LOAD_MISSES, CTR_L1I_LOAD_MISSES,
	CTR_LLC_LOADS, CTR_LLC_LOAD_MISSES,
	CTR_DTLB_LOAD_MISSES, CTR_ITLB_LOAD_MISSES,
	CTR_TASK_CLOCK, CTR_PAGE_FAULTS, CTR_MINOR_FAULTS, CTR_MAJOR_FAULTS,
	CTR_CONTEXT_SWITCHES, CTR_CPU_MIGRATIONS,
	CTR_NEVENTS
};

#define COUNTERS_MAX	24u	/* events in one request */
#define CTR_NAMED_MAX	64u	/* named events in one process */
#define CTR_IDS		(CTR_NEVENTS + CTR_NAMED_MAX)	/* every id */
#define COUNTERS_DERIVED_MAX 8	/* figures counters_derived() can give */
/* ... each rounded to this many significant digits (util/row.h: the
 * figure every output prints) */
#define COUNTERS_DERIVED_DIGITS 6

enum counter_status {
	COUNTER_OK,
	COUNTER_UNSUPPORTED,	/* the machine has no such event */
	COUNTER_DENIED,		/* perf_event_paranoid (or a filter) forbids */
	COUNTER_FAILED,		/* another error, such as too many open files */
	COUNTER_NOT_COUNTED,	/* opened, but never scheduled: running == 0 */
};

struct counter_value {
	const char *name;		/* perf's name, static */
	uint64_t value;			/* scaled; task-clock in ns */
	uint64_t raw;			/* as counted, before scaling */
	double running;			/* time running / time enabled, 0..1 */
	enum counter_status status;
	bool user_only;			/* user space only, as perf's ":u" */
	bool uncore;			/* the machine's, over the run */
	unsigned instances;		/* uncore: PMUs summed (sockets...) */
	char why[160];			/* why not OK, or why user only */
};

/* A parsed perf_events= list: the ids to count, in order, the set's
 * first. */
struct counter_list {
	unsigned ids[COUNTERS_MAX];
	unsigned n;
	bool has_set;			/* an @set was named: */
	int set;			/* which (evsets.h), */
	int row;			/* its row for this machine, */
	unsigned nset;			/* and ids[0..nset) are its events */
};

/*
 * "cycles,instructions,page-faults" into out.  Names are perf's,
 * case-insensitive, with perf's aliases (cpu-cycles, branch-instructions,
 * faults, cs, migrations); a name that is not perf's is a named event,
 * encoded for this machine through libpfm4 (an event of a PMU it lacks
 * is kept, and counts as not supported); "@llc" is an event set, at
 * most one a list.  An unknown name (with a "did you mean"), an event
 * given twice, an empty item or an empty list is refused: -1, and err
 * completes the sentence "option 'perf_events': <err>".  The word none,
 * alone, is the empty list (n = 0: count nothing); with other names it
 * is refused.
 */
int counters_parse(const char *list, struct counter_list *out, char *err,
		   size_t errlen);
/* Canonical text of a list ("@llc,task-clock"), for --dump: the set by
 * its name, not the events it became here. */
void counters_format(const struct counter_list *l, char *buf, size_t len);
/* The set used when perf_events= is not given: every event, hardware
 * first; returns how many (ids needs CTR_NEVENTS). */
unsigned counters_default(unsigned *ids);
/* The name of an event id: perf's, or a named event's as the job wrote
 * it; NULL for an id no event has. */
const char *counters_name(unsigned id);

struct pmu_event;
/* The named events of the process (counters_named.c): add one (its id,
 * the same id for the same name; -1 when CTR_NAMED_MAX are taken), and
 * its encoding by id (NULL for a generic id). */
int counters_named_add(const char *name, const struct pmu_event *ev);
const struct pmu_event *counters_named(unsigned id);
const char *counters_named_name(unsigned id);
/* The perf_event_attr memjob opens id with (as a lone event of the
 * calling thread): "type=4 config=0xc0 config1=0 ...", for
 * --list-events and the tests; -1 for an id that is not opened here. */
int counters_attr_text(unsigned id, char *buf, size_t len);
/* Is id an uncore event (counted for the run, not by threads)? */
bool counters_is_uncore(unsigned id);
/* "ok", "not-supported", "denied", "failed", "not-counted": CSV status. */
const char *counters_status_name(enum counter_status s);

struct counters;

/*
 * Open the events for the calling thread, disabled.  Call it in the
 * thread that will be measured (after its CPU binding); threads it
 * creates later are not counted.  ids come from counters_parse() or
 * counters_default() (an id no event has, and an uncore event, are
 * dropped; at most COUNTERS_MAX are kept).  Events that do not open are
 * kept with their status; NULL only on out of memory.  The fds are
 * close-on-exec.
 */
struct counters *counters_open(const unsigned *ids, unsigned n);
/*
 * The same for another process, pid, that has neither exec'd nor forked
 * what is to be counted (a child waiting for its go): opened disabled,
 * with enable_on_exec and inherit, so each process counts from its own
 * exec, and pid's descendants inherit them.  A process that never execs
 * (kernel=exec's guardian) counts nothing itself; its children count from
 * their exec, and what they start from its start, until all have exited.
 * Read them after reaping pid.  Do not call counters_start() or
 * counters_stop() on them.
 */
struct counters *counters_open_task(const unsigned *ids, unsigned n,
				    pid_t pid);
/* Number of events in the set (those that opened and those that did not). */
unsigned counters_count(const struct counters *c);
/*
 * Open the measured window: enable the counters if they are not, and take
 * the current values as the baseline.  Called again while counting (at
 * the end of a ramp), it only moves the baseline.  0, or -1 when an
 * ioctl or read failed (those events then read as COUNTER_FAILED).
 */
int counters_start(struct counters *c);
/* Close the window: disable the counters.  0, or -1 on an ioctl error. */
int counters_stop(struct counters *c);
/*
 * The window's values, one per requested event in request order, into
 * out (room for counters_count(c)); *n is set to that count.  Values are
 * differences from the baseline, scaled when multiplexed; running == 0
 * gives COUNTER_NOT_COUNTED.  0, or -1 when a read failed.
 */
int counters_read(const struct counters *c, struct counter_value *out,
		  unsigned *n);
void counters_close(struct counters *c);
/* How many perf_event_open calls the once-per-process probe of the
 * events has made (for the tests: at most four per event, in a group and
 * alone, in both modes, however many threads opened counters). */
unsigned counters_probe_opens(void);

/* kernel.perf_event_paranoid, or COUNTERS_PARANOID_UNKNOWN. */
#define COUNTERS_PARANOID_UNKNOWN (-100)
int counters_paranoid(void);
/* The status perf_event_open's errno err means, and why in words.  An
 * event kernel.perf_event_paranoid allows below the level allowed_below
 * (3: a process's own user space; 2: its kernel time too; 1: the whole
 * machine, as uncore events count) that is denied all the same was
 * refused by a seccomp filter (a container's profile) or a security
 * module, and the words say so instead of naming the paranoid level. */
enum counter_status counters_status_of(int err, int paranoid,
				       int allowed_below, char *why,
				       size_t len);

/* raw * enabled / running, the value had the event run all the time; raw
 * when running >= enabled; 0 when running == 0 (the event never ran). */
uint64_t counters_scale(uint64_t raw, uint64_t enabled, uint64_t running);

/*
 * Figures derived from pairs of events both COUNTER_OK, counted in the
 * same mode, and with a non-zero divisor: "ipc" (instructions per cycle),
 * "cache-miss-rate", "branch-miss-rate", "L1-dcache-load-miss-rate",
 * "LLC-load-miss-rate" (fractions 0..1).  Fills up to max name/value
 * pairs (names are static) and returns how many.
 */
unsigned counters_derived(const struct counter_value *v, unsigned n,
			  const char **names, double *values, unsigned max);

/* The value of the event called name among v[0..n), or NULL. */
const struct counter_value *counters_value(const struct counter_value *v,
					   unsigned n, const char *name);

/*
 * Add another clone's values of the same request into into: values and
 * raw add, running is the smaller, and a status other than OK (with its
 * reason) wins, since the sum then misses a clone.  Entries are matched
 * by position; an entry whose name differs is left alone.  into starts
 * as a copy of the first clone's values.
 */
void counters_merge(struct counter_value *into,
		    const struct counter_value *from, unsigned n);

#endif
