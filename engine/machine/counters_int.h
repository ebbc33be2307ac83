/*
 * counters_int.h - what counters.c and counters_event.c share, and no
 * one else: how an event is defined and opened (for a thread, or for a
 * child before its exec), and the once-per-process probe of each event.
 */
#ifndef MEMJOB_COUNTERS_INT_H
#define MEMJOB_COUNTERS_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Events of one family are opened as one group: their ratio is reported. */
enum family { FAM_NONE, FAM_IPC, FAM_CACHE, FAM_BRANCH, FAM_L1D, FAM_LLC,
	      FAM_SOFTWARE };

/* Context switches and migrations happen in the kernel only: counted in
 * user space alone they would read 0, so they are never retried so. */
#define EV_KERNEL_ONLY	1u
/* task-clock counts time whatever the mode: user-only changes nothing. */
#define EV_ANY_MODE	2u

/* A named event counted in user space only (":u"), or in the kernel
 * only (":k"). */
#define EV_USER_ONLY	4u
#define EV_EXCLUDE_USER	8u

struct event_def {
	const char *name;
	uint32_t type;
	uint64_t config;
	enum family family;
	unsigned flags;
	uint64_t config1, config2;	/* named events' */
};

/* How a set of counters follows its task. */
struct task_mode {
	pid_t pid;		/* 0: the calling thread */
	bool on_exec;		/* a child before exec: enable_on_exec,
				   inherit, no trial runs */
};

/*
 * The definition of event id into *d: perf's generic events from the
 * table, named ones from their encoding (pmu.h).  false for an id no
 * event has; a named event whose PMU is not this machine's has type
 * PERF_TYPE_MAX and its reason in *why.
 */
bool counters_event_of(unsigned id, struct event_def *d, const char **why);

/*
 * Open event id (defined by e) in group's group (alone when group < 0)
 * for the calling thread, or for the task t says, in the mode the probe
 * found for it (counters_event.c); the fd (*user_only set) or -errno.
 */
int counters_open_probed(unsigned id, const struct event_def *e, int group,
			 const struct task_mode *t, bool *user_only);

#endif
