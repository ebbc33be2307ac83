/*
 * plan.h - from checked job specs to what will run.
 *
 * The plan fixes, before anything starts: the segments (jobs between two
 * stonewalls start together and are repeated together), the reporting
 * groups, each clone's file and the job's byte count, and the files memjob
 * must create.
 *
 * Segments linked by a victim's baseline (its alone runs and the loaded
 * runs judged against them, with whatever lies between) form a block, and
 * a block runs repeat by repeat: alone, loaded, alone, loaded ..., so
 * that a drift of the host lands on both sides of a slowdown.  So do
 * consecutive segments with repeat_order=interleaved (the default; not
 * those with precision=, whose rounds are their own): a series of steps
 * runs A B A B, and its first run's cost is not one step's alone.  Other
 * segments are blocks of one and run all their repeats in turn.  Within a
 * round the segments keep the file's order.  Every check that can refuse
 * a run without running it happens here or in check.c, so a refused run
 * has started nothing and created nothing.
 */
#ifndef MEMJOB_PLAN_H
#define MEMJOB_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "util/diag.h"
#include "spec/job.h"

struct topo;

struct planned_job {
	const struct job_spec *spec;
	uint64_t size;			/* bytes per pass, resolved */
	uint64_t cpus[BITMAP_WORDS(MEMJOB_MAX_CPUS)];	/* cpus_allowed,
					   resolved; 0s when unset */
	int impl;			/* index into spec->kernel->impls */
	char **paths;			/* one per clone; NULL if no file */
	unsigned group;			/* reporting group */
	unsigned segment;
	int wait_for;			/* index of the job waited for, or -1 */
	char *sample_path;		/* sample_interval's log, or NULL */
};

struct segment {
	unsigned first, count;		/* jobs [first, first + count) */
	unsigned repeat;
	unsigned block;			/* the first segment of its block */
};

struct file_to_create {
	char *path;
	uint64_t size;
	struct pattern pattern;
	uint64_t seed;
	bool sparse;			/* a write job makes it: no layout,
					   just its size (ftruncate) */
	const struct job_spec *by;	/* the job that asked for it */
	/* A leftover of a run that is gone (filemark.h) is at path: it is
	 * replaced, if it is still that file (device, inode) then. */
	bool replace;
	struct stat left;
	char left_by[160];		/* the run that left it */
};

struct plan {
	struct planned_job *jobs;
	unsigned njobs;
	struct segment *segments;
	unsigned nsegments, segments_cap;
	unsigned ngroups;
	struct file_to_create *creates;
	unsigned ncreates;
	unsigned max_threads;		/* largest segment, in threads */
	/* the descriptors the hungriest segment holds at once, which the
	 * run raises a lower soft RLIMIT_NOFILE to (planlimits.c) */
	uint64_t nofile;
};

/* Returns the number of errors reported; on 0 the plan is filled. */
unsigned plan_build(const struct jobset *js, const struct topo *t,
		    struct diag *d, struct plan *p);
void plan_free(struct plan *p);
/* Whether segment seg's runs take turns with other segments' (its block
 * has more than one segment): "interleaved", else "grouped". */
bool plan_interleaved(const struct plan *p, unsigned seg);
/* Whether this machine has room for the plan now: the data sources
 * themselves (ioengine_ops.available), disk for the files to create,
 * memory, huge pages, a memory cgroup for memory_limit (planroom.c), and
 * the limits the process lives under: the memory cgroups above it,
 * RLIMIT_AS, RLIMIT_DATA, RLIMIT_MEMLOCK and RLIMIT_NOFILE
 * (planlimits.c); each lack an error in d, at the option that asks for
 * it.  The first kind that lacks stops the checks. */
void plan_check_machine(struct plan *p, struct diag *d);
/* Raise the soft RLIMIT_NOFILE to what the plan holds at once (its hard
 * limit allows it: plan_check_machine checked); -1 with errno when the
 * kernel refuses. */
int plan_raise_nofile(const struct plan *p);

/* What each segment holds at once, and the limits of this process it
 * must fit in (planlimits.c); planroom.c checks the machine's free
 * memory with the same figures. */
struct plan_needs {
	/* memory charged to the process (its memory cgroup, MemAvailable):
	 * the regions of its own but those in hugetlb pages, which come
	 * from their pool, and the buffers */
	uint64_t mem;
	uint64_t data;		/* private writable mappings: RLIMIT_DATA */
	uint64_t as;		/* address space: data, mapped files, stacks */
	uint64_t locked;	/* pinned, counted against RLIMIT_MEMLOCK */
	uint64_t fds;		/* files, rings, counters, sample logs */
	/* the job of the largest size x numjobs (where an error points),
	 * and the one holding the most descriptors and locked memory */
	const struct job_spec *big, *most_fds, *most_locked;
};

/* What the jobs of segment s hold at once. */
void plan_needs_of(const struct plan *p, unsigned s, struct plan_needs *n);
/* Each segment against the memory cgroups above this process (read
 * below MEMJOB_SYSROOT when it is set) and the one memory_limit makes,
 * RLIMIT_AS, RLIMIT_DATA, RLIMIT_MEMLOCK (without CAP_IPC_LOCK) and the
 * hard RLIMIT_NOFILE; the first that does not fit is an error in d.
 * Sets p->nofile. */
void plan_check_limits(struct plan *p, struct diag *d);

#endif
