/*
 * hostnoise.h - how noisy the host was while a job ran: CPU time the
 * hypervisor stole from the job's CPUs, time the job's threads spent
 * runnable but waiting for a CPU (other tasks held it), and the CPUs'
 * clock frequency where the kernel shows it.
 *
 * The one idea: every figure is a delta of counters the kernel keeps
 * anyway, read without privileges, and each carries a "have" flag: a
 * figure that could not be read is "not readable", never 0.
 *
 *	steal	ROOT/proc/stat, the per-CPU "cpuN" lines: steal ticks over
 *		all ticks (user .. steal) of the job's CPUs, in USER_HZ
 *		(1/100 s on most kernels, so a 100 ms run sees ~10 ticks
 *		per CPU: the figure is coarse for short runs, and the tick
 *		count is kept to say so).
 *	wait	ROOT/proc/thread-self/schedstat (CONFIG_SCHED_INFO), its
 *		second field: ns this thread was runnable but not running,
 *		read by each job thread at the edges of its measured window;
 *		over the threads' measured time.  /proc/schedstat (per CPU)
 *		needs CONFIG_SCHEDSTATS and /proc/sched_debug root or
 *		debugfs; procs_running is machine-wide and instantaneous.
 *	freq	ROOT/sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq
 *		(kHz), read at both edges of a run; absent in most VMs.
 */
#ifndef MEMJOB_HOSTNOISE_H
#define MEMJOB_HOSTNOISE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOSTNOISE_MAX_CPUS	CPU_SETSIZE
/* steal_pct and wait_pct, and mhz, are figures (util/row.h): rounded to
 * these decimals where they are set, as CSV prints them. */
#define HOSTNOISE_PCT_DECIMALS	3
#define HOSTNOISE_MHZ_DECIMALS	1

/* One CPU's /proc/stat line: all ticks (user..steal) and the stolen. */
struct hostnoise_cpu {
	uint64_t total, steal;
	uint32_t khz;			/* 0: frequency not read */
	bool have;			/* the cpuN line was read */
};

struct hostnoise_snap {
	bool have_stat;			/* ROOT/proc/stat was read */
	struct hostnoise_cpu cpu[HOSTNOISE_MAX_CPUS];
};

/* Ticks summed over a set of CPUs between two snapshots. */
struct hostnoise_ticks {
	uint64_t total, steal;
};

/* What the host did to one job run (or to several, merged): the sums
 * the percentages are made of travel with them, so that runs merge. */
struct hostnoise {
	bool have_steal;
	uint64_t ticks, steal_ticks;	/* ticks: the resolution */
	double steal_pct;		/* of the CPUs' time, 0..100 */
	bool have_wait;
	uint64_t wait_ns, span_ns;
	double wait_pct;		/* of the threads' running time */
	bool have_freq;
	unsigned nfreq;			/* readings */
	double mhz, mhz_min, mhz_max;	/* over the CPUs and both edges */
};

/*
 * The "cpuN" lines of a /proc/stat text into snap->cpu; the other lines
 * are ignored.  -1 when no cpuN line was found.
 */
int hostnoise_parse_stat(const char *text, struct hostnoise_snap *snap);
/*
 * Read ROOT/proc/stat (root "" is "/"), and the frequency of each CPU in
 * cpus (NULL: none).  Never fails: what was not read is flagged.
 */
void hostnoise_snap(const char *root, const cpu_set_t *cpus,
		    struct hostnoise_snap *snap);
/* The ticks of the CPUs in cpus between a and b (CPUs read in both). */
struct hostnoise_ticks hostnoise_ticks(const struct hostnoise_snap *a,
				       const struct hostnoise_snap *b,
				       const cpu_set_t *cpus);
/* steal from ticks; have_steal false when no tick passed. */
void hostnoise_set_steal(struct hostnoise *n, struct hostnoise_ticks t);
/* Add wait ns over span ns of running time (one thread's). */
void hostnoise_add_wait(struct hostnoise *n, uint64_t wait, uint64_t span);
/* Fold n into into: what either could read. */
void hostnoise_merge(struct hostnoise *into, const struct hostnoise *n);
/* The frequency of cpus in a and b into n (have_freq false: none read). */
void hostnoise_set_freq(struct hostnoise *n, const struct hostnoise_snap *a,
			const struct hostnoise_snap *b, const cpu_set_t *cpus);
/*
 * This thread's run-queue wait so far (ns): the second field of
 * ROOT/proc/thread-self/schedstat.  -1 when it cannot be read.
 */
int hostnoise_thread_wait(const char *root, uint64_t *ns);
/* The second field of a schedstat text; -1 when it has none. */
int hostnoise_parse_schedstat(const char *text, uint64_t *ns);

/*
 * The words for n, e.g. "steal 1.2% (of 412 ticks), waited for a CPU
 * 0.3%, frequency not readable": each figure or "not readable".
 */
void hostnoise_describe(const struct hostnoise *n, char *buf, size_t len);
/* The same with the wait's words given (NULL: n's). */
void hostnoise_describe_wait(const struct hostnoise *n, const char *wait,
			     char *buf, size_t len);

/*
 * The sentence when the host's noise (the larger of steal and wait, in
 * percent) is too large for a slowdown known to +-half_width percent
 * (est its estimate, significant whether its interval excludes 0):
 * noise >= half_width, or a significant effect no larger than the noise.
 * "" when it is not.  who names whose time it was ("the victim's").
 */
void hostnoise_warning(const struct hostnoise *n, double half_width,
		       double est, bool significant, const char *who,
		       char *buf, size_t len);

#endif
