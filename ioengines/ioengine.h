/*
 * ioengine.h - the one small interface every data source implements.
 *
 * A data source hands the job's thread blocks of data ("units") and takes
 * them back.  The engine core drives every source the same way:
 *
 *	setup()                          before the group is released
 *	fill()                           right after it (may be NULL)
 *	per pass:  blockgen_rewind();
 *	           while (get() == 1) { kernel over unit; put(); }
 *	drain()                          when stopped early (time, signal)
 *	teardown()
 *
 * Reads: get() returns a unit whose buf holds len bytes read from offset
 * off; put() gives the buffer back (an engine at depth reuses it for the
 * next read).  Writes: get() returns a buffer to fill for offset off; the
 * kernel may store into it; put() writes it.  get() returns 0 once the
 * pass's blocks (from the blockgen) are all delivered and nothing is in
 * flight, and -errno on failure after describing it with ioe_error().
 *
 * Sources never choose offsets: they pull them from e->gen, so sequential
 * and random orders, loops and sizes behave the same on every source.
 */
#ifndef MEMJOB_IOENGINE_H
#define MEMJOB_IOENGINE_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/stat.h>

#include "ioengines/blockgen.h"
#include "machine/quirks.h"
#include "util/clock.h"
#include "util/hist.h"
#include "spec/job.h"
#include "spec/options.h"

struct io_unit {
	void *buf;
	size_t len;
	uint64_t off;
	unsigned slot;			/* the source's own bookkeeping */
	bool write;			/* this unit is written (rw, randrw) */
};

struct ioe {
	const struct job_spec *job;
	const char *path;		/* the job's file, NULL if it has none */
	/* The file memjob made at path for this run (held open by the
	 * engine, so its inode is not used again), or NULL for a file of
	 * the user's: ioe_open() then opens path only when it is still
	 * that file, never through a symbolic link. */
	const struct stat *made;
	/* runtime='s end (CLOCK_MONOTONIC ns), or 0: a source's wait for
	 * I/O ends there (ioe_past_deadline) as it does on a stop. */
	uint64_t deadline_ns;
	unsigned clone;			/* 0..numjobs-1 */
	struct blockgen *gen;		/* where the next blocks come from */
	void *priv;			/* the source's own state */
	char err[512];			/* what went wrong, for the report */
	/* Set by IOE_MAPPED sources in setup(): the whole region. */
	void *region;
	size_t region_len;
	/* Set by a source whose setup() put the data in memory (a fill, a
	 * pread, MAP_POPULATE): first_touch=auto then touches the region
	 * from user space before the clock starts. */
	bool resident;
	/* Set by a source that ran in emulation (dax_emulate=1): every
	 * figure of the job is then marked as emulated. */
	bool emulated;
	/* The engine's stop flag (set by SIGINT, SIGTERM), or NULL.  A
	 * source that waits for I/O waits in bounded steps and looks at it
	 * in between: once it is set, get() gives up with -EINTR (after
	 * ioe_error()) and drain() cancels what is in flight. */
	atomic_int *stop;
	/* Where sources record each I/O's latency (submit to completion,
	 * in ns), or NULL when latency is not tracked. */
	struct hist *lat;
	/* What the source chose at setup that the report should show
	 * (e.g. the io_uring setup flags the kernel accepted), and what it
	 * saw while running: the engine copies it after setup and again
	 * after the passes. */
	char info[256];
};

/* Flags for ioengine_ops.flags */
#define IOE_FILE	0x1	/* needs a file (path is never NULL) */
#define IOE_FILE_OPT	0x2	/* may take a file (mem: preload it) */
#define IOE_MAPPED	0x4	/* units point into a mapping: a write is
				   whatever the kernel stores there */
#define IOE_NODATA	0x8	/* delivers nothing (kernel=exec) */
#define IOE_MIXED	0x10	/* can mix reads and writes (rw, randrw):
				   takes each block's direction from the
				   blockgen and sets unit.write */
#define IOE_STREAM	0x20	/* can read and write a FIFO (a stream, whose
				   offsets mean nothing) */

/* For ioengine_ops.default_for: the jobs that get this source when they
 * set no ioengine. */
#define IOE_DEFAULT_FILES	0x1	/* a job that names files or asks for
					   what only files have (fio's
					   default) */
#define IOE_DEFAULT_PROGRAMS	0x2	/* a job whose kernel runs a program
					   (KERN_PROGRAM) */

struct ioengine_ops {
	const char *name;
	const char *help;		/* one line, for --cmdhelp and the man page */
	unsigned flags;
	unsigned default_for;		/* IOE_DEFAULT_*, or 0 */
	/* The core's job options, among those only some sources use (direct,
	 * sync, iodepth, hugepage...), that this source honours (its own,
	 * in .opts, it honours without saying).
	 * check.c refuses the others when a job sets them, so no option is
	 * ever silently ignored. */
	const char *const *options;
	/* Options of its own (fixedbufs...), parsed into a struct of its
	 * own that it reads with job_opts(job, opts); NULL: none. */
	const struct opt_group *opts;
	/* Threads of its own that do the job's I/O beside the job's clones
	 * (io_uring's ioworkers), for the report; NULL: none. */
	unsigned (*io_threads)(const struct job_spec *job);
	/* The CPU time (user + system, ns) those threads have used so far,
	 * read at the edges of the job's measured window; only between
	 * setup and teardown.  NULL: the source has none. */
	uint64_t (*io_threads_cpu_ns)(struct ioe *e);
	/* What one clone holds beyond its file and its buffers, of what the
	 * process's limits bound (checked before the run): descriptors (a
	 * ring each) and memory the kernel pins and counts against
	 * RLIMIT_MEMLOCK (registered buffers).  NULL: nothing. */
	void (*holds)(const struct job_spec *job, unsigned *fds,
		      uint64_t *locked);
	/* Choices at parse time that this source's own options make for
	 * the rest of the job (dax's nt=1 picks the kernel's impl); called
	 * before the kernel's impl is looked up.  May be NULL. */
	void (*resolve)(struct job_spec *job, struct diag *d);
	/* Cross-option checks at parse time; report with diag_error() at the
	 * location of the offending option (job->locs[opt_index("bs")]). */
	int (*validate)(const struct job_spec *job, struct diag *d);
	/* What one of the host's quirks (machine/quirks.h) does to this
	 * job's figures, as a sentence in buf for the report to put beside
	 * them; buf left empty when none applies.  May be NULL. */
	void (*quirk_note)(const struct job_spec *job,
			   const struct machine_quirks *q, char *buf,
			   size_t len);
	/* Whether this machine can run the source at all (io_uring: the
	 * kernel gives this process a ring), asked with the machine's
	 * other checks before a run starts (plan/planroom.c), not when the
	 * jobs are only shown (--dump, --plan).  0, or -errno with why in
	 * why.  May be NULL: it runs wherever it was built. */
	int (*available)(char *why, size_t len);
	int (*setup)(struct ioe *e);
	/* After setup, put the job's data into a region that setup mapped
	 * but left fresh (mem: the file's bytes, or the pattern).  Between
	 * the two the engine may time the first touch of the fresh pages
	 * (first_touch=phase), which stores into them: only a region of the
	 * job's own memory has a fill.  0 or -errno, described with
	 * ioe_error().  NULL: setup() did it all. */
	int (*fill)(struct ioe *e);
	int (*get)(struct ioe *e, struct io_unit *u);
	int (*put)(struct ioe *e, struct io_unit *u);
	int (*drain)(struct ioe *e);	/* may be NULL: nothing in flight */
	/* Make the writes so far durable: fsync, or fdatasync when
	 * data_only (fsync=, fdatasync=, end_fsync=).  Called with nothing
	 * in flight.  NULL: the source has no file to sync. */
	int (*sync)(struct ioe *e, bool data_only);
	void (*teardown)(struct ioe *e);
};

/* Whether the source's region is memory of the job's own (mem): mapped,
 * and not a file's mapping that stores would change. */
static inline bool ioe_own_memory(const struct ioengine_ops *e)
{
	return (e->flags & IOE_MAPPED) && !(e->flags & IOE_FILE);
}

/* Record a failure: "pread at offset 4096: Input/output error".  Returns
 * -1; sources return their own -errno. */
__attribute__((format(printf, 2, 3)))
int ioe_error(struct ioe *e, const char *fmt, ...);

/* O_DIRECT alignment memjob checks at parse time (the device may need
 * more; its EINVAL is then reported with a hint). */
#define IOE_DIRECT_ALIGN	512

/* Set: get(), put() and setup() give up with -EINTR.  A system call that
 * fails with EINTR is retried unless it is set: the engine then wakes the
 * job's thread with a signal (EXEC_SIGWAKE) wherever it blocks. */
static inline bool ioe_stopped(const struct ioe *e)
{
	return e->stop && atomic_load_explicit(e->stop, memory_order_relaxed);
}

/* Whether the job's deadline (runtime=) has passed: a source that waits
 * for I/O gives up then with -ETIME (after ioe_error), as it gives up
 * with -EINTR on a stop, and the engine ends the pass there. */
static inline bool ioe_past_deadline(const struct ioe *e)
{
	return e->deadline_ns && mono_ns() >= e->deadline_ns;
}

/* How long drain() waits, past the deadline, for what is in flight. */
#define IOE_DRAIN_GRACE_NS	1000000000ull

/* In drain(): the deadline passed more than IOE_DRAIN_GRACE_NS ago, and
 * what is still in flight (a read of a FIFO nobody writes) is cancelled
 * as on a stop.  (What finishes in time is waited for: a write counted
 * when it was put is written.) */
static inline bool ioe_drain_overdue(const struct ioe *e)
{
	return e->deadline_ns &&
	       mono_ns() >= e->deadline_ns + IOE_DRAIN_GRACE_NS;
}

/* A call of the job's I/O came back with EINTR: 0 to try it again, or
 * why to give up: -EINTR on a stop, -ETIME at the deadline. */
static inline int ioe_interrupted(const struct ioe *e)
{
	return ioe_stopped(e) ? -EINTR : ioe_past_deadline(e) ? -ETIME : 0;
}

/* Size of a regular file or a block device: 0 or -errno. */
int ioe_file_size(int fd, uint64_t *size);
/* The source's state: size zeroed bytes, set as e->priv; NULL, after
 * ioe_error(), when there is no memory (setup() then returns -ENOMEM). */
void *ioe_priv_alloc(struct ioe *e, size_t size);
/* Fault an I/O buffer in now, one store per 4 KiB page, by the job's
 * thread (its NUMA policy): the first pass then times the I/O, not the
 * first touch of its buffers.  For buffers whose content is not yet
 * meaningful (a read's): the stores write zeros. */
void ioe_fault_in(void *buf, size_t len);
/* put() for sources with nothing to do when a unit comes back. */
int ioe_put_nothing(struct ioe *e, struct io_unit *u);
/* open(path, flags) as a job's file: when made is not NULL (the file
 * memjob created), with O_NOFOLLOW and only if what opens is that file
 * (device and inode); else as the user named it.  The fd, or -errno with
 * why in err ("'/d/j.0' is no longer the file memjob created: a symbolic
 * link to '/v/target' is there now"). */
int ioe_open_as(const char *path, int flags, const struct stat *made,
		char *err, size_t len);
/* ioe_open_as() of the job's file, failure described with ioe_error(). */
int ioe_open(struct ioe *e, int flags);
/* The job's file opened for its rw (O_RDWR when it writes), with
 * O_DIRECT and O_SYNC as direct= and sync= say: the fd, or -errno after
 * ioe_error(). */
int ioe_open_job_file(struct ioe *e);
/* " (O_DIRECT needs ...)" after an EINVAL under direct=1, else "". */
const char *ioe_direct_hint(bool direct, int err);
/* fadvise_hint's advice for the job's file open at fd (none for 0). */
void ioe_fadvise(const struct job_spec *job, int fd);
/* sync() for sources with one fd: fsync or fdatasync, failure described. */
int ioe_sync_fd(struct ioe *e, int fd, bool data_only);
/* Whether source e honours job option name (its own, or see .options). */
bool ioe_honours(const struct ioengine_ops *e, const char *name);

/* The registry (ioengines/registry.c): NULL-terminated. */
extern const struct ioengine_ops *const ioengine_registry[];
const struct ioengine_ops *ioengine_find(const char *name);
/* The first source whose default_for has what (IOE_DEFAULT_FILES...),
 * or NULL. */
const struct ioengine_ops *ioengine_default_for(unsigned what);
/* The optional sources configure left out of this build (they are not
 * in the registry): the name of the i-th, with why in why (NULL past the
 * last); and, for a job that names one, the refusal with the fix. */
const char *ioengine_left_out(size_t i, char *why, size_t len);
bool ioengine_refuse_left_out(const char *name, char *msg, size_t len);
/* "psync, io_uring": the sources whose flags have flag. */
void ioengine_names_with(unsigned flag, char *buf, size_t len);

#endif
