/*
 * job.h - the job spec: one resolved job, as the parser hands it on.
 *
 * A job_spec is filled by the option table (options.c) from [global], the
 * job's own section and the command line, checked, and from then on never
 * written again: the planner and the engine only read it.  Each field is
 * owned by exactly one option in the table, so "where does bs go" has one
 * answer: options.c.
 */
#ifndef MEMJOB_JOB_H
#define MEMJOB_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/counters.h"
#include "machine/limits.h"
#include "util/diag.h"

struct ioengine_ops;
struct kernel_ops;
struct opt_space;

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW
};
/* only writes */
#define RW_IS_WRITE(m)	((m) == RW_WRITE || (m) == RW_RANDWRITE)
/* reads and writes mixed, rwmixread% reads */
#define RW_IS_MIXED(m)	((m) == RW_RW || (m) == RW_RANDRW)
/* writes at all (opens for writing, the overwrite check) */
#define RW_WRITES(m)	(RW_IS_WRITE(m) || RW_IS_MIXED(m))
#define RW_IS_RANDOM(m)	((m) == RW_RANDREAD || (m) == RW_RANDWRITE || \
			 (m) == RW_RANDRW)

enum hugepage_mode { HUGEPAGE_NONE, HUGEPAGE_THP, HUGEPAGE_2M, HUGEPAGE_1G,
		     HUGEPAGE_AUTO };

/* The page size of a hugetlb mode (2m, 1g), 0 for none and thp. */
static inline uint64_t hugepage_bytes(enum hugepage_mode h)
{
	return h == HUGEPAGE_2M ? 2ULL << 20 : h == HUGEPAGE_1G ? 1ULL << 30 : 0;
}
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
enum mempolicy_kind {
	MEMPOL_DEFAULT, MEMPOL_LOCAL, MEMPOL_BIND, MEMPOL_INTERLEAVE,
	MEMPOL_PREFERRED,
};
enum pattern_kind { PATTERN_ZERO, PATTERN_BYTE, PATTERN_RANDINT };
/* first_touch=: where the first user-space touch of a mapped region goes */
enum first_touch_mode { TOUCH_AUTO, TOUCH_UNTIMED, TOUCH_TIMED, TOUCH_PHASE };
/* repeat_order=: a job's repeats taking turns with the other segments'
 * (round by round), or all of them back to back */
enum repeat_order { ORDER_INTERLEAVED, ORDER_GROUPED };
/* summary=: how the results table shows a job's points. */
enum summary_mode { SUMMARY_AUTO, SUMMARY_LIST, SUMMARY_MATRIX };
enum job_role { ROLE_NONE, ROLE_VICTIM, ROLE_AGGRESSOR };
/* Set by the sweep expansion, not by options: what this run of a job is. */
enum job_phase {
	PHASE_RUN,		/* an ordinary job */
	PHASE_ALONE,		/* a victim measured without its aggressors */
	PHASE_LOADED,		/* a victim or aggressor, together */
};

/* sweep=OPTION:v1,v2,...: the job runs once per value (several sweeps of
 * a segment's jobs form a grid). */
struct sweep {
	int opt;			/* index in the option space */
	char **values;
	unsigned nvalues;
	struct srcloc loc;
};

struct mempolicy {
	enum mempolicy_kind kind;
	uint64_t nodes[BITMAP_WORDS(MEMJOB_MAX_NODES)];
};

/*
 * What a file is filled with when memjob creates it, and what a write
 * job writes when no kernel produces data.  randint draws 32-bit integers
 * uniformly from [lo, hi] with a generator seeded by pattern_seed, so the
 * same spec always gives the same bytes.
 */
struct pattern {
	enum pattern_kind kind;
	uint8_t byte;
	int32_t lo, hi;
};

/* fadvise_hint=: the advice given for the job's file when it is opened. */
enum fadvise_hint { FADVISE_NONE, FADVISE_BY_RW, FADVISE_SEQUENTIAL,
		    FADVISE_RANDOM };

struct job_spec {
	char *name;
	unsigned index;			/* position in the job file, 0-based */
	struct srcloc where;		/* the [section] line or --name= */
	bool fio_file;			/* from a job file read as fio's: a
					   .fio file, or one with fio's words
					   (fio's defaults apply, fiocompat.c) */

	/* Threads and placement */
	unsigned numjobs;		/* with numjobs_cpus, the check's count */
	bool numjobs_cpus;		/* numjobs=cpus: one clone per CPU of
					   the job's CPU set */
	char *cpus_allowed;		/* as written; NULL = no binding (the
					   CPUs: the plan's planned_job) */
	enum cpus_policy cpus_policy;
	char *numa_cpu_nodes;		/* as written; NULL = unset */
	uint64_t cpu_nodes[BITMAP_WORDS(MEMJOB_MAX_NODES)];
	struct mempolicy mem_policy;

	/* Data source */
	const struct ioengine_ops *ioengine;
	enum rw_mode rw;
	unsigned rwmixread;		/* rw, randrw: % of blocks read */
	uint64_t bs;
	uint64_t size;			/* 0 = the file's size less offset */
	char *size_expr;		/* "llc/2", "10%ram": resolved by check */
	uint64_t offset;
	char *filename;
	char *filename_format;		/* per-clone names: $jobname, $jobnum */
	char *directory;
	unsigned iodepth;
	bool direct;
	bool sync;
	unsigned fsync_every;		/* fsync after this many writes */
	unsigned fdatasync_every;
	bool end_fsync;
	enum hugepage_mode hugepage;
	bool invalidate;
	bool isolate_phases;		/* sync its files before the next run */
	uint64_t isolate_dirty;		/* wait for Dirty + Writeback <= this */
	uint64_t isolate_wait_us;	/* ... at most this long */
	bool preread;
	enum first_touch_mode first_touch;
	struct pattern pattern;
	uint64_t pattern_seed;

	/* batching: io_uring and libaio */
	unsigned iodepth_batch_submit;	/* 0: submit whatever is ready */
	unsigned iodepth_batch_complete;/* 0: reap whatever has completed */
	bool latency;			/* record each I/O's latency */

	/* Compute kernel */
	const struct kernel_ops *kernel;
	char *impl_name;		/* as written; NULL = kernel's default
					   (the index: the plan's) */
	int32_t value;			/* count looks for it, fill writes it */

	/* Interference and sweeps */
	enum job_role role;
	struct sweep *sweeps;
	unsigned nsweeps;
	uint64_t rate;			/* bytes per second; 0 = unlimited */
	double rate_pct;		/* rate=N%: N, of the clone's rate
					   unlimited, measured first; 0 = the
					   rate is in bytes */

	/* Filled by the sweep expansion (sweep.c); NULL/0 otherwise. */
	enum job_phase phase;
	unsigned point;			/* grid point of its segment, from 0 */
	char *point_label;		/* "flush=clwb numjobs=4", or NULL */
	int baseline;			/* PHASE_LOADED victim: index of its
					   PHASE_ALONE job; else -1 */
	bool sweeps_owner[2];		/* its point came from a sweep of
					   ioengine ([0]) or kernel ([1]) */
	bool swept_numjobs;		/* its numjobs came from a sweep */

	/* Run control (times in microseconds) */
	uint64_t runtime_us;
	bool time_based;
	uint64_t loops;
	uint64_t ramp_us;
	uint64_t startdelay_us;
	bool stonewall;
	bool new_group;
	char *wait_for;
	unsigned repeat;
	enum repeat_order repeat_order;
	enum summary_mode summary;
	double precision_pct;		/* precision=: target half-width of a
					   slowdown's 95% interval; 0 = off */
	uint64_t precision_budget_us;	/* for the victim's block of runs */

	/* Hardware and software counters (perf_event_open) */
	struct counter_list perf;	/* n == 0: the default set, or none */
	bool perf_none;			/* perf_events=none: no counters */

	/* System counters */
	bool drop_caches;
	uint64_t memory_limit;		/* the run's memory cgroup; 0 = none */
	uint64_t sample_us;		/* sample_interval; 0 = none */
	char *sample_log;		/* where its rows go */

	/* fio's words (issue 13): fio's meaning where memjob has the
	 * concept; resolved into the fields above by check.c */
	char *description;
	bool thread;			/* memjob's clones are threads */
	bool group_reporting;		/* memjob always prints group totals */
	uint64_t filesize;		/* sets size when size is unset */
	uint64_t bsrange_bs;		/* bsrange=A-A: bs=A */
	uint64_t bssplit_bs;		/* bssplit=A or A/100: bs=A */
	unsigned rwmixwrite;		/* 100 - rwmixread */
	bool buffered;			/* 0: direct=1 */
	uint64_t rate_iops;		/* I/Os per second per clone; 0 = none */
	enum rate_wait { RATE_SLEEP, RATE_SPIN } rate_wait;
	uint64_t ratemin;		/* bytes per second; the job fails below */
	bool norandommap;		/* random blocks drawn with repeats */
	bool randrepeat;		/* 0: a new random order every run */
	enum fadvise_hint fadvise_hint;	/* posix_fadvise on the job's file */
	int random_generator;
	char *ioscheduler;		/* must be the device's already */
	bool gtod_reduce;
	char *percentile_list;		/* a subset of what memjob reports */
	uint64_t rw_skip;		/* rw=read:N: bytes skipped per block */
	uint64_t rw_run;		/* rw=randread:N: blocks per random run */
	int unit_base;
	int kb_base;
	int io_submit_mode;

	/* Safety */
	bool overwrite;
	bool allow_devices;
	bool keep_files;
	bool allow_outside_directory;

	/* Bookkeeping from the parser: which options were set, and where. */
	const struct opt_space *space;	/* every option; NULL: none set */
	void **gdata;			/* per group of space: its struct */
	unsigned char *isset;		/* one per option-space entry */
	unsigned char *inherited;	/* set by [global], not the job */
	struct srcloc *locs;		/* one per option-table entry */
};

struct jobset {
	struct job_spec *jobs;
	size_t njobs;
};

/*
 * Where option 'opt' of this job was set (file:line or command line), or
 * the job's own [section] line when it was left at its default.  For
 * cross-option checks: diag_error(d, job_loc(j, "bs"), "bs", ...).
 */
const struct srcloc *job_loc(const struct job_spec *j, const char *opt);
bool job_isset(const struct job_spec *j, const char *opt);
/* Whether a sweep= of the job (before its expansion) gives opt values. */
bool job_swept(const struct job_spec *j, const char *opt);

/* A sweep's values copied (for job_copy), and freed. */
int sweep_copy(struct sweep *dst, const struct sweep *src);
void sweep_free(struct sweep *s);

#endif
