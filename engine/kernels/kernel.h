/*
 * kernel.h - compute kernels: what a job does with each block of data.
 *
 * The engine calls run() once per block the data source delivers (for a
 * write job, before the block is written, so a storing kernel produces the
 * data).  A kernel keeps its running result in k->result; run() is the hot
 * path, so it must not read the clock, allocate or take locks.
 */
#ifndef MEMJOB_KERNEL_H
#define MEMJOB_KERNEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "spec/job.h"
#include "spec/options.h"

struct kstate {
	const struct job_spec *job;
	int impl;			/* index into ops->impls (0 if none) */
	int32_t value;			/* count looks for it, fill stores it */
	uint64_t result;		/* count: matches; sum: sum of int32s */
	uint64_t items;			/* KERN_ITEMS: accesses/items done */
	uint64_t stored;		/* bytes it wrote into blocks it was
					   given to read (rwmix): the job's
					   write_bytes */
	void *priv;			/* e.g. copy's destination buffer */
	size_t priv_len;
	unsigned clone;			/* 0..numjobs-1 */
	/* kernel_ops.shared_len bytes the engine gives every clone of the
	 * job for one run, zeroed, on a 128-byte boundary; NULL without */
	void *shared;
};

/* Flags for kernel_ops.flags */
#define KERN_RESULT	0x1	/* result is meaningful and reported */
#define KERN_STORES	0x2	/* stores into the block of a write job
				   (fill; copy copies its source in) */
#define KERN_INT32	0x4	/* views the block as int32: bs % 4 == 0 */
#define KERN_ITEMS	0x8	/* counts k->items; reported as ns per item */
#define KERN_REGION	0x10	/* needs prepare(): the source's whole region */
#define KERN_SIGNED	0x20	/* result is an int64_t kept in the uint64_t */
#define KERN_PROGRAM	0x40	/* runs the whole job in program(), not per
				   block; judged by its elapsed time */
#define KERN_SUBPROCESS	0x80	/* program() runs another process (exec):
				   the job thread's counters would see it
				   wait, so none are opened; program()
				   counts the process itself
				   (program_run.ctr_ids) */
#define KERN_NO_GBPS	0x100	/* moves no data whose rate it measures (a
				   latency chase, a code walk, a program):
				   no report gives it GB/s or ops/s (see
				   kernel_measures_rate()) */

/* What program() is given and gives back. */
struct program_run {
	atomic_int *stop;		/* nonzero: stop now (a signal) */
	atomic_uint *until_zero;	/* aggressor: stop when it reaches 0 */
	struct rusage ru;		/* the program's own resource use */
	bool stopped;			/* memjob stopped it before its end */
	bool cut_short;			/* runtime= ended it before its end */
	char err[256];			/* why it failed */
	/* KERN_SUBPROCESS: the events to count on the process from its
	 * exec to its end (n 0: none), and what they counted (room for
	 * COUNTERS_MAX; ncounters 0 when nothing was opened) */
	const unsigned *ctr_ids;
	unsigned nctr_ids;
	struct counter_value *counters;
	unsigned ncounters;
};

struct kernel_ops {
	const char *name;
	const char *help;		/* one line, for --cmdhelp and the man */
	const char *result_name;	/* column label: "count", "sum" */
	const char *item_name;		/* KERN_ITEMS: "access", "call"... */
	const char *const *impls;	/* NULL-terminated; [0] is the default */
	/* The core's job options that only some kernels use (value...),
	 * those this kernel honours; check.c refuses the others (its own,
	 * in .opts, it honours without saying). */
	const char *const *options;
	/* Options of its own (stride...), as ioengine_ops.opts. */
	const struct opt_group *opts;
	unsigned flags;
	/* A KERN_ITEMS kernel whose cost per item grows with a footprint it
	 * sets itself (codewalk's code): the option of its own that sets it,
	 * in bytes; the kind of level-1 cache a small one stays in ('i' or
	 * 'd', as topo_cache takes it); and the option of its own that gives
	 * the items one call processes (NULL: one).  A sweep of that option
	 * gets a table of the cost above its smallest point, per value of
	 * the other swept options (report/footprint.c).  NULL: none. */
	const char *footprint_opt;
	char footprint_cache;
	const char *per_call_opt;
	/* KERN_STORES: what a write into memory (IOE_MAPPED) runs when the
	 * job names no kernel; its impl "nt" is what dax's nt=1 runs. */
	bool store_default;
	/* Memory the clones of one run of the job share (kstate.shared):
	 * the engine allocates it before their setup and frees it after
	 * they are done.  0: none. */
	size_t shared_len;
	int (*validate)(const struct job_spec *job, struct diag *d);
	int (*init)(struct kstate *k);	/* allocate; 0 or -errno */
	/* KERN_REGION: called once before the group's release with the
	 * data source's whole mapped region (e.g. to lay out a pointer
	 * chase in it); untimed.  0 or -errno. */
	int (*prepare)(struct kstate *k, void *region, size_t len);
	void (*run)(struct kstate *k, void *buf, size_t len);
	/* What code the job's impl runs, for the report: the vector level
	 * ("avx2", see isa.h), "scalar"...; NULL: nothing to choose. */
	const char *(*variant)(const struct kstate *k);
	void (*fini)(struct kstate *k);
	/* KERN_PROGRAM: run the job (after the release) in the calling
	 * thread's binding; 0 when it ran to completion (or was stopped on
	 * purpose), -1 with pr->err set otherwise. */
	int (*program)(struct kstate *k, struct program_run *pr);
};

/*
 * The figures a kernel's runs measure, which every report format (normal,
 * CSV, JSON) prints, and no others: always the elapsed time and CPU
 * time; ns per item and items per second where it counts items
 * (KERN_ITEMS); bytes and blocks per second (GB/s, ops/s) only where the
 * bytes it is given are a rate it measures, which kernel_measures_rate()
 * says.  Where a figure is not measured, CSV leaves its cell empty and
 * JSON gives null.
 */
static inline bool kernel_measures_rate(const struct kernel_ops *k)
{
	return !(k->flags & KERN_NO_GBPS);
}

extern const struct kernel_ops *const kernel_registry[];
const struct kernel_ops *kernel_find(const char *name);
/* The kernel with store_default, or NULL. */
const struct kernel_ops *kernel_store_default(void);
int kernel_check_own_memory(const struct job_spec *job, struct diag *d,
			    const char *what);
/* Whether the block run() is given goes on after it, written to a file,
 * a device or persistent memory by the data source (any source but the
 * job's own memory, or an unknown one): a kernel's streaming stores must
 * then be fenced before run() returns.  Into the job's own memory they
 * need fencing only once, by fini(). */
bool kernel_block_leaves(const struct kstate *k);

/* kstate.shared for a kernel's shared_len: zeroed, on a boundary of
 * KERN_SHARED_ALIGN (two cache lines, so that a line the clones hand
 * over has no neighbour the adjacent-line prefetcher pairs it with);
 * free() it.  NULL when out of memory. */
#define KERN_SHARED_ALIGN	128
void *kernel_shared_alloc(size_t len);

/* For kernels with nothing of their own to do there (kernel.c):
 * an init() that only zeroes the result, a run() that computes nothing
 * (kernel=none; KERN_PROGRAM kernels, whose run() is never called), a
 * fini() with nothing to free. */
int kernel_init_result(struct kstate *k);
void kernel_run_nothing(struct kstate *k, void *buf, size_t len);
void kernel_fini_nothing(struct kstate *k);
/* fini() of a kernel whose state is one allocation in k->priv. */
void kernel_fini_free(struct kstate *k);

#endif
