/*
 * uring.h - what the files of the io_uring source share; not an interface
 * (that is ioengine.h, and the source's only export is ioengine_io_uring).
 *
 * The one idea: every buffer is a slot, and a slot's state says who owns
 * it.  A ring (uring_ring.c) moves slots through one io_uring and marks
 * each finished one DATA, NONE, WRITTEN or ERROR; the job's thread
 * (uring_single.c) or the I/O threads' pool (uring_pool.c) decide what
 * happens to it next; io_uring.c is the source that sets them up.
 *
 *	io_uring.c	options, setup, get/put/drain/sync, teardown
 *	uring_setup.c	one ring's setup with flag fallback, registration,
 *			and teardown
 *	uring_ring.c	one ring: queue, submit and reap, stalls; a failed
 *			slot's message
 *	uring_single.c	ioworkers=0: the job's thread owns one ring
 *	uring_pool.c	ioworkers=N: I/O threads fill a pool of slots
 */
#ifndef MEMJOB_URING_H
#define MEMJOB_URING_H

#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioengines/ioengine.h"

/* io_uring's own options, declared in io_uring.c and parsed into this
 * struct (the job reads them with uring_opts_of()). */
struct uring_opts {
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	int sqpoll_cpu;			/* -1: the kernel's choice */
	unsigned ioworkers;		/* 0: the job's thread does the I/O */
	char *ioworkers_cpus;		/* as written; NULL = like the job */
	uint64_t ioworkers_cpuset[BITMAP_WORDS(MEMJOB_MAX_CPUS)];
	bool ordered;
};

extern const struct opt_group ioengine_io_uring_opts;

static inline const struct uring_opts *uring_opts_of(const struct job_spec *j)
{
	return job_opts(j, &ioengine_io_uring_opts);
}

#define BUF_ALIGN	4096		/* buffers, and direct reads' lengths */
/* user_data at or above a ring's nslots is no slot's transfer: its
 * completion is consumed and changes no slot. */
#define RING_CANCEL	UINT64_MAX	/* ring_cancel()'s request */
#define RING_NOSLOT	(UINT64_MAX - 1)	/* any other */
#define RING_NUDGE	(UINT64_MAX - 2)	/* a stall's cancellation */

enum slot_state {
	ST_FREE,			/* may take a new block */
	ST_BUSY,			/* has a block; transfer not finished */
	ST_DATA,			/* read complete: len bytes to deliver */
	ST_NONE,			/* read found the end of the file */
	ST_ERROR,			/* failed: err (0: a write moved nothing,
					   a read found the file's end inside
					   the job's region) */
	ST_WRITTEN,			/* write complete */
};

struct slot {
	unsigned char *buf;
	uint64_t off;			/* the block's offset */
	size_t len;			/* the block's length; on DATA, to deliver */
	size_t want;			/* bytes asked for (direct: rounded up) */
	size_t done;			/* bytes transferred so far */
	bool write;			/* the block is written, not read */
	uint64_t t_sub;			/* when the first transfer went in */
	int err;
	_Atomic unsigned char state;	/* shared with the job's thread */
};

static inline unsigned slot_state(struct slot *sl)
{
	return atomic_load_explicit(&sl->state, memory_order_acquire);
}

static inline void slot_set(struct slot *sl, unsigned st)
{
	atomic_store_explicit(&sl->state, (unsigned char)st,
			      memory_order_release);
}

/* ---- one ring (uring_setup.c, uring_ring.c) ------------------------------- */

struct ring {
	struct io_uring ring;
	bool up;
	struct slot *slots;		/* all of them; user_data is the index */
	int fd;				/* in each SQE: the fd, or 0 registered */
	unsigned sqe_flags;		/* IOSQE_FIXED_FILE */
	unsigned vec_slots;		/* fixedbufs: slots per registered iovec */
	bool fixed, direct, sqpoll;
	bool stream;			/* a FIFO or device: may end anywhere */
	bool cancelling;		/* ring_cancel(): finish, never retry */
	bool cancel_each;		/* no IORING_ASYNC_CANCEL_ANY here */
	unsigned depth;			/* at most this many in flight */
	unsigned nslots;		/* user_data below this is a slot */
	unsigned inflight;		/* queued or in the kernel, not finished */
	/* Calls in which the kernel took fewer requests than were queued
	 * (ring_enter); read by the job's thread while an I/O thread runs. */
	_Atomic unsigned long short_submits;
	/*
	 * Stalls (ring_reap): waits in a row that ran out their time with
	 * requests in flight and no completion of them.  After stall_waits
	 * of them the ring nudges (cancels what it has in flight, to submit
	 * it again); after as many more with nothing back and no request
	 * found by the nudge, a file's ring fails.  ring_init() sets the
	 * defaults; a test shortens them.
	 */
	unsigned wait_ms;		/* one wait's bound (RING_WAIT_S) */
	unsigned stall_waits;		/* quiet waits before a nudge */
	unsigned quiet;			/* quiet waits so far */
	bool timed_out;			/* the last wait ran out its time */
	bool heard;			/* a slot's completion in this reap */
	bool nudged;			/* this stall has been nudged */
	unsigned nudge_answers;		/* the nudge's cancels not answered */
	unsigned nudge_found;		/* requests they found in the kernel */
	/* Read by the job's thread while an I/O thread runs, as above. */
	_Atomic unsigned long nudges;	/* stalls nudged */
	_Atomic unsigned long resubmits;	/* requests cancelled by them and
					   submitted again */
	unsigned flags;			/* setup flags the kernel accepted */
	struct hist *lat;		/* NULL: no latency */
	unsigned *stamp, nstamp;	/* first transfers since the last submit */
	unsigned *done, ndone;		/* finished by the last ring_reap() */
	const char *path;
	char *err;			/* where failures are described */
	size_t errlen;
};

struct ring_cfg {
	const struct job_spec *job;
	const char *path;
	unsigned depth;
	struct slot *slots;
	unsigned nslots;
	size_t stride;			/* slots' buffers are contiguous */
	int fd;
	int attach_fd;			/* -1, or a ring whose SQPOLL to share */
	bool stream;			/* the file is a FIFO or a device */
	struct hist *lat;
	char *err;
	size_t errlen;
};

/*
 * Whether this process may have a ring at all: a kernel without io_uring,
 * kernel.io_uring_disabled, or a seccomp filter (a container's profile)
 * refuses io_uring_setup() for every ring alike.  The source's available
 * op: asked before a run starts, so such a job is refused before anything
 * runs; the answer is found once per process.  0, or -errno with why (and
 * what to use instead) in why.
 */
int uring_available(char *why, size_t len);

/* Set up ring r over the slots of cfg c; on failure r->err says why
 * (uring_setup.c, as are ring_exit() and ring_flags_name()). */
int ring_init(struct ring *r, const struct ring_cfg *c);
void ring_exit(struct ring *r);
/* Say why in r->err (printf-style); returns -1. */
__attribute__((format(printf, 2, 3)))
int ring_error(struct ring *r, const char *fmt, ...);
/* Submit what is queued, and wait for wait_nr completions (may be 0). */
int ring_enter(struct ring *r, unsigned wait_nr);
/*
 * How many completions a wait may ask for: wait_nr, but never more than
 * the kernel holds.  Of the inflight transfers, queued (io_uring_sq_ready)
 * are still in the submission queue, not taken by the kernel: waiting for
 * their completions would wait for something that cannot come.
 */
static inline unsigned ring_wait_limit(unsigned wait_nr, unsigned inflight,
				       unsigned queued)
{
	unsigned held = inflight > queued ? inflight - queued : 0;

	return wait_nr < held ? wait_nr : held;
}
/* Queue the rest of slot s's transfer; first: its first one. */
int ring_prep(struct ring *r, unsigned s, bool first);
/* Submit everything queued, wait for at least wait_nr completions (at
 * most what is in flight), and handle all that are there.  The finished
 * slots are then r->done[0..r->ndone).  A stall is nudged; a file's
 * requests that the kernel lost fail the ring with -ETIMEDOUT. */
int ring_reap(struct ring *r, unsigned wait_nr);
/* Ask the kernel to cancel everything in flight: each transfer then
 * finishes as ST_ERROR with err ECANCELED (or completes, if it was done). */
int ring_cancel(struct ring *r);
/* ring_cancel(), then wait for what is in flight, giving up after
 * max_idle waits in a row that finish nothing.  Returns 0 when nothing
 * is in flight any more, -EINTR when the kernel kept some. */
int ring_cancel_wait(struct ring *r, unsigned max_idle);
/* The setup flags f as "SINGLE_ISSUER|DEFER_TASKRUN" (or "none"). */
void ring_flags_name(unsigned f, char *buf, size_t len);

/* What rings saw while running, for the job's source_info. */
struct ring_stats {
	unsigned long short_submits;
	unsigned long nudges, resubmits;
	unsigned stall_ms;		/* how long a stall was before a nudge */
};
/* Add ring r's counts to st (safe while r's thread runs). */
void ring_stats_add(const struct ring *r, struct ring_stats *st);

/* ---- the source's state ---------------------------------------------------- */

struct ioworker;

struct pool {
	/* Claims of new blocks: under lock, only while !ended. */
	pthread_mutex_t lock;
	struct blockgen *gen;
	_Atomic bool ended;		/* the pass's blocks are all claimed */
	_Atomic uint64_t next;		/* sequence numbers claimed: [0, next) */
	_Atomic uint64_t tail;		/* seqs < tail are free for reuse */
	unsigned wake_min;		/* free seqs that wake a sleeping worker */
	/* Sleeping and waking, on futex words. */
	_Alignas(64) _Atomic uint32_t c_word;
	_Atomic unsigned c_sleeping;	/* the job's thread sleeps on c_word */
	_Alignas(64) _Atomic uint32_t w_word;
	_Atomic unsigned w_sleeping;	/* I/O threads sleeping on w_word */
	_Atomic bool stop;
	_Atomic int failed;		/* 1 + index of an I/O thread that failed */
	/* Setup: each thread says when its ring is up, or why not. */
	pthread_mutex_t hs_lock;
	pthread_cond_t hs_cond;
};

struct uring_priv {
	const struct job_spec *job;
	const char *path;
	int fd;
	bool write, direct, ordered;	/* write: rw=write or randwrite */
	bool stream;			/* a FIFO or a character device */
	bool mixed;			/* rw=rw or randrw */
	unsigned char *bufs;
	size_t bufs_len;		/* of the mapping */
	bool bufs_huge;			/* MADV_HUGEPAGE took */
	size_t stride;
	struct slot *slots;
	unsigned nslots;
	/* ioworkers=0 */
	struct ring r;
	unsigned *freelist, nfree;	/* stack of free slots */
	unsigned *ready, ready_head, nready;	/* FIFO of completed reads */
	/* ioworkers=N */
	unsigned nworkers;
	struct ioworker *w;
	bool pool_up, hs_up;
	struct pool pool;
	uint64_t taken;			/* seqs the job's thread has taken */
	uint64_t tail;			/* its own copy of pool.tail */
	unsigned rr;			/* unordered: queue to look at first */
	bool pass_over;			/* get() returned 0; workers are idle */
	size_t info_len;		/* of what setup wrote to e->info */
};

static inline void slot_fill(const struct uring_priv *p, struct slot *sl,
			     uint64_t off, size_t len, bool write)
{
	sl->off = off;
	sl->len = len;
	sl->write = write;
	sl->want = p->direct && !write ?
		   (len + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN : len;
	sl->done = 0;
	sl->err = 0;
}

static inline void hand_out(struct slot *sl, unsigned s, struct io_unit *u)
{
	u->buf = sl->buf;
	u->len = sl->len;
	u->off = sl->off;
	u->slot = s;
	u->write = sl->write;
}

/* A failed slot, reported from the job's thread (uring_ring.c). */
int report_slot(struct ioe *e, struct uring_priv *p, struct slot *sl);

/* ---- ioworkers=0 (uring_single.c) ------------------------------------------ */

int single_setup(struct ioe *e, struct uring_priv *p);
/* Reads, and mixed reads and writes; pure writes: single_get_write(). */
int single_get(struct ioe *e, struct uring_priv *p, struct io_unit *u);
int single_get_write(struct ioe *e, struct uring_priv *p, struct io_unit *u);
int single_put(struct uring_priv *p, struct io_unit *u);
/* Wait for everything in flight.  A read that fails now changes nothing;
 * a write that fails is reported. */
int single_drain(struct ioe *e, struct uring_priv *p);

/* ---- ioworkers=N (uring_pool.c) -------------------------------------------- */

/* Start the I/O threads, each with its ring up, or say why not. */
int workers_setup(struct ioe *e, struct uring_priv *p);
/* Stop and join them; their latencies go to e->lat. */
void workers_stop(struct ioe *e, struct uring_priv *p);
/* The I/O threads' rings' counts, added to st. */
void workers_stats(const struct uring_priv *p, struct ring_stats *st);
/* The CPU time (ns) the running I/O threads have used so far. */
uint64_t workers_cpu_ns(const struct uring_priv *p);
/* The first I/O thread's ring (they are all set up alike). */
const struct ring *workers_ring(const struct uring_priv *p);
int pool_get(struct ioe *e, struct uring_priv *p, struct io_unit *u);
/* Give slot s back to the I/O threads (put()). */
void pool_give_back(struct uring_priv *p, unsigned s);
int pool_drain(struct ioe *e, struct uring_priv *p);
/* Undo what setup initialised of the pool (its threads are stopped). */
void pool_fini(struct uring_priv *p);

#endif
