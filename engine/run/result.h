/*
 * result.h - what a run measured: per thread, then summed per job.
 *
 * Threads fill struct thread_result and nothing else; summarise turns
 * those into job and group figures for the report.  Every figure here was
 * measured; a figure that could not be measured is flagged, not zeroed.
 */
#ifndef MEMJOB_RESULT_H
#define MEMJOB_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include <stdatomic.h>

#include "machine/counters.h"
#include "util/hist.h"
#include "plan/plan.h"
#include "machine/sysstat.h"
#include "machine/hostnoise.h"
#include "machine/quirks.h"
#include "run/firsttouch.h"
#include "util/interval.h"
#include "util/precision.h"

enum run_status { RUN_NOT_RUN, RUN_OK, RUN_FAILED, RUN_INTERRUPTED };

struct thread_result {
	enum run_status status;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC, measured window */
	uint64_t bytes, ops;
	uint64_t write_bytes;		/* of bytes, those written */
	uint64_t usr_ns, sys_ns;
	uint64_t io_cpu_ns;		/* the source's I/O threads' CPU time */
	uint64_t minflt, majflt, vcsw, ivcsw;
	uint64_t result;		/* the kernel's, over all the data */
	uint64_t items;			/* KERN_ITEMS kernels: measured items */
	int cpu;			/* bound CPU, or -1 when not one */
	/* run-queue wait over wait_span_ns (hostnoise.h), when readable */
	bool have_wait;
	uint64_t wait_ns, wait_span_ns;
	bool emulated;			/* the source ran in emulation */
	bool cut_short;			/* runtime= stopped its program */
	struct hist *lat;		/* per-I/O latency, or NULL */
	atomic_uint_fast64_t live_bytes;/* so far, for sample_interval */
	struct counter_value counters[COUNTERS_MAX];
	unsigned ncounters;
	struct touch_result touch;	/* first_touch=: what was done */
	char info[384];			/* what the source chose at setup,
					   and the preread */
	char err[512];
};

/* The thread failed: its status and error, fmt having two %s, the first
 * for a and the second for err's text ("open %s: %s", path, errno). */
void thread_fail(struct thread_result *out, const char *fmt, const char *a,
		 int err);

/* How a file job's run started (isolate.c): the machine's dirty pages at
 * its release, and the isolation before it. */
struct phase_start {
	bool have;			/* a file job, and meminfo was read */
	bool isolated;			/* the previous run's files synced */
	bool waited;			/* isolate_dirty asked for a wait */
	bool reached;			/* ... and the level came in time */
	uint64_t dirty, writeback;	/* bytes, at the release */
	uint64_t wait_ns;		/* spent waiting for the level */
	/* memory faulted in before the run (isolate_warm_memory) */
	bool warm_asked;		/* the host takes memory back */
	uint64_t warm_bytes, warm_ns;
	char warm[192];			/* what was done, in words */
};

/* A run's figures (one figure, one rounding: util/row.h), rounded once
 * where results_summarise makes them, to what CSV and JSON print; the
 * normal report prints them with as many digits or fewer. */
#define RESULT_GBPS_DECIMALS	6	/* gbps */
#define RESULT_RATE_DECIMALS	3	/* ops_per_s */
#define RESULT_NS_DECIMALS	3	/* ns_per_item, cpu_ns_per_item */
/* A metric, and the medians of metrics (baselines), in significant
 * digits. */
#define METRIC_DIGITS		6

struct job_result {
	const struct planned_job *pj;
	unsigned repeat;		/* 0-based */
	struct thread_result *threads;	/* numjobs of them */
	/* summed over clones by results_summarise() */
	enum run_status status;
	uint64_t start_ns, end_ns;
	uint64_t bytes, ops, elapsed_ns, write_bytes;
	uint64_t usr_ns, sys_ns, minflt, majflt, vcsw, ivcsw;
	uint64_t io_cpu_ns;		/* of the I/O threads (ioworkers) */
	uint64_t result;
	uint64_t items;
	double gbps, ops_per_s;
	double ns_per_item;		/* 0 when the kernel counts no items:
					   the clones' windows over their
					   items, both summed */
	double cpu_ns_per_item;		/* CPU time (usr + sys) per item */
	bool emulated;
	bool cut_short;			/* a clone's program was stopped at
					   runtime= before its end */
	struct hist lat;		/* merged over clones */
	const char *info;		/* the first clone's */
	struct touch_result touch;	/* merged over clones */
	struct counter_value counters[COUNTERS_MAX];	/* merged */
	unsigned ncounters;
	/* The uncore events of the run (uncorerun.h), the machine's over
	 * the run: appended to counters by the sums over clones. */
	struct counter_value uncore[COUNTERS_MAX];
	unsigned nuncore;
	/* System counters over the job's segment (system-wide: the jobs
	 * that ran together share them). */
	bool have_sys;
	struct sysstat_delta sys;
	struct phase_start start;
	struct hostnoise noise;		/* on the job's CPUs, this run */
	unsigned short_clones;		/* clone_ran_short() of them */
	bool summarised;		/* the sums above are made */
};

/* A clone "ran markedly shorter" when its measured window is below this
 * share of the longest clone's: for the rest of that time the others ran
 * without it, and the job's figures mix the two. */
#define CLONE_SHORT_FRAC	0.9

/* Whether clone c of a run of 2+ clones ran markedly shorter. */
bool clone_ran_short(const struct job_result *jr, unsigned c);

struct results {
	const struct plan *plan;
	struct job_result **runs;	/* [job][repeat], max_repeat each */
	unsigned max_repeat;
	unsigned *repeats;		/* per segment: repeats it ran (its
					   repeat, more with precision=) */
	struct precision_point *prec;	/* per job: a loaded victim's
					   precision=, OFF for the others */
	uint64_t epoch_ns;		/* CLOCK_MONOTONIC when the run began */
	/* Where each job's file lives (NULL when unknown or no file). */
	const struct sysstat *ss;
	int *devidx;			/* per job: its device, or -1 */
	char **where;			/* per job: "ext4 on /dev/vda (vda) at /" */
	struct hostnoise noise;		/* over every job run (exec_run) */
	const struct machine_quirks *quirks;	/* the host's, or NULL */
	/* Per job with rate=N%: the mean rate of its clones, bytes per
	 * second, measured alone without a limit before its block (exec.c);
	 * 0 for the others, or when the measurement failed. */
	double *rate_base;
};

/* The figure a job is judged by: its elapsed seconds for programs
 * (kernel=exec), ns per item for kernels that count items (lower is
 * better for both), and GB/s otherwise (higher is better); value is
 * rounded to METRIC_DIGITS. */
struct metric {
	const char *name;		/* "elapsed_s", "ns_per_item", "gbps" */
	char label[48];			/* "ns per access", "GB/s" */
	double value;
	bool lower_is_better;
};

struct metric job_metric(const struct job_result *jr);
/* The same run's cost on the CPU clock (usr + sys), per the metric's
 * unit of work: CPU ns per item for kernels that count items, CPU s per
 * GB (ns per byte) for rates, CPU seconds for programs; lower is better.
 * Time the thread spent waiting for a CPU, or stolen by the hypervisor,
 * is not in it.  value 0 when the run did no work. */
struct metric job_cpu_metric(const struct job_result *jr);

int results_init(struct results *r, const struct plan *p);
/* Room for n repeats of every job (precision= runs more than repeat). */
int results_reserve(struct results *r, unsigned n);
struct job_result *results_get(const struct results *r, unsigned job,
			       unsigned repeat);
/* The repeats job's segment ran. */
unsigned results_repeats(const struct results *r, unsigned job);
/* The metric of each OK run among job's first n repeats into v (at most
 * max); returns how many. */
unsigned results_metric_values(const struct results *r, unsigned job,
			       unsigned n, double *v, unsigned max);
/* The same with job_cpu_metric's figure. */
unsigned results_cpu_values(const struct results *r, unsigned job,
			    unsigned n, double *v, unsigned max);
/* A loaded victim's slowdown interval: its runs against the alone runs
 * of the same rounds (those it alternated with); false when job is not
 * a loaded victim with a baseline. */
bool results_point_interval(const struct results *r, unsigned job,
			    struct interval *iv);
/* The sums over clones of one run (once), or of every run not yet
 * summed. */
void results_summarise_run(struct results *r, unsigned job, unsigned repeat);
void results_summarise(struct results *r);
void results_free(struct results *r);

#endif
