/*
 * io_uring.c - ioengine "io_uring": a deep, batched pipeline of reads or
 * writes, done by the job's thread or by I/O threads that feed it.
 *
 * Every buffer is a slot: a block's offset and length, what was asked of
 * the kernel (direct reads are rounded up to 4096 so that the short last
 * block of a file can be read), what it has transferred, and a state.  A
 * ring (struct ring) moves slots through one io_uring: ring_prep() queues
 * a slot's transfer, ring_reap() submits everything queued and waits for
 * completions in one system call (io_uring_submit_and_wait), continues
 * short transfers and retries -EAGAIN/-EINTR itself, and lists the slots
 * that are finished: data, nothing (a block past the end of the file), or
 * an error that keeps its errno for the report.  With latency tracking
 * the clock is read once per submitting call and once per batch of
 * completions, and each slot keeps the time its first transfer went in.
 *
 * Two ways to drive rings:
 *
 * ioworkers=0: the job's thread owns one ring of iodepth slots.  get()
 * hands out completed reads and otherwise refills every free slot with
 * the blockgen's next blocks and waits; writes are handed out empty and
 * queued by put().  Queued I/O goes to the kernel when the job waits, or
 * when iodepth_batch_submit of it is queued.
 *
 * ioworkers=N: N threads, each with a ring of its share of iodepth, read
 * into a pool of 2 * iodepth slots (see the "pool" section below).
 *
 * Ring setup flags that help (SINGLE_ISSUER, DEFER_TASKRUN, COOP_TASKRUN)
 * are tried first and dropped one by one when the kernel refuses them;
 * what was used is written to e->info.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <liburing.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "filegen.h"
#include "ioengine.h"

#define BUF_ALIGN	4096
#define MAX_DEPTH	32768		/* the kernel's IORING_MAX_ENTRIES */
#define MAX_REG_BUFS	16384		/* IORING_MAX_REG_BUFFERS */
#define MAX_REG_LEN	(1ULL << 30)	/* one registered buffer */
#define SQ_IDLE_MS	100		/* sqpoll: the kernel thread's idle */
#define SPIN_TRIES	2000		/* job's thread: looks before it sleeps */
#define HUGE_SIZE	(2ULL << 20)	/* buffers go on transparent huge pages */
#define HUGE_MIN	(HUGE_SIZE / 4)	/* ... when there are this many bytes */

#ifndef HAVE_IO_URING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	0
#endif
#ifndef HAVE_IO_URING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	0
#endif
#ifndef HAVE_IO_URING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN	0
#endif

enum slot_state {
	ST_FREE,			/* may take a new block */
	ST_BUSY,			/* has a block; transfer not finished */
	ST_DATA,			/* read complete: len bytes to deliver */
	ST_NONE,			/* read found the end of the file */
	ST_ERROR,			/* failed: err (0: a write moved nothing) */
	ST_WRITTEN,			/* write complete */
};

struct slot {
	unsigned char *buf;
	uint64_t off;			/* the block's offset */
	size_t len;			/* the block's length; on DATA, to deliver */
	size_t want;			/* bytes asked for (direct: rounded up) */
	size_t done;			/* bytes transferred so far */
	uint64_t t_sub;			/* when the first transfer went in */
	int err;
	_Atomic unsigned char state;	/* shared with the job's thread */
};

static unsigned slot_state(struct slot *sl)
{
	return atomic_load_explicit(&sl->state, memory_order_acquire);
}

static void slot_set(struct slot *sl, unsigned st)
{
	atomic_store_explicit(&sl->state, (unsigned char)st,
			      memory_order_release);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- one ring ------------------------------------------------------------ */

struct ring {
	struct io_uring ring;
	bool up;
	struct slot *slots;		/* all of them; user_data is the index */
	int fd;				/* in each SQE: the fd, or 0 registered */
	unsigned sqe_flags;		/* IOSQE_FIXED_FILE */
	unsigned vec_slots;		/* fixedbufs: slots per registered iovec */
	bool fixed, write, direct, sqpoll;
	unsigned depth;			/* at most this many in flight */
	unsigned inflight;		/* queued or in the kernel, not finished */
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
	struct hist *lat;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int ring_error(struct ring *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Flag sets to try, best first; each drops one more the kernel refused. */
static const unsigned ring_flag_sets[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static void flags_name(unsigned f, char *buf, size_t len)
{
	static const struct { unsigned flag; const char *name; } names[] = {
		{ IORING_SETUP_SQPOLL, "SQPOLL" },
		{ IORING_SETUP_SQ_AFF, "SQ_AFF" },
		{ IORING_SETUP_ATTACH_WQ, "ATTACH_WQ" },
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
		{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
		{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].flag && (f & names[i].flag) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "|" : "", names[i].name);
	if (!n)
		snprintf(buf, len, "none");
}

static int ring_create(struct ring *r, const struct ring_cfg *c)
{
	const struct job_spec *job = c->job;
	unsigned extra = 0;
	int ret = -EINVAL;

	if (job->sqpoll) {
		extra = IORING_SETUP_SQPOLL;
		if (job->sqpoll_cpu >= 0)
			extra |= IORING_SETUP_SQ_AFF;
		if (c->attach_fd >= 0)
			extra |= IORING_SETUP_ATTACH_WQ;
	}
	for (size_t i = 0; i < sizeof(ring_flag_sets) / sizeof(unsigned); i++) {
		struct io_uring_params p;

		/* SQPOLL cannot defer its task work to a thread it is not. */
		if (job->sqpoll && (ring_flag_sets[i] & IORING_SETUP_DEFER_TASKRUN))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = ring_flag_sets[i] | extra;
		p.sq_thread_idle = SQ_IDLE_MS;
		p.sq_thread_cpu = job->sqpoll_cpu >= 0 ? (unsigned)job->sqpoll_cpu : 0;
		p.wq_fd = c->attach_fd >= 0 ? (unsigned)c->attach_fd : 0;
		ret = io_uring_queue_init_params(c->depth, &r->ring, &p);
		if (ret == 0) {
			r->flags = p.flags;
			r->up = true;
			return 0;
		}
		if (ret != -EINVAL)
			break;
	}
	return ring_error(r, "io_uring unavailable: io_uring_queue_init(%u entries%s): %s%s",
			  c->depth, job->sqpoll ? ", SQPOLL" : "", strerror(-ret),
			  ret == -ENOSYS || ret == -EPERM ?
			  " (disabled by kernel.io_uring_disabled or a seccomp filter?)" :
			  ret == -EINVAL && job->sqpoll_cpu >= 0 ?
			  " (is sqpoll_cpu online and allowed?)" : ""), ret;
}

static int ring_register(struct ring *r, const struct ring_cfg *c)
{
	unsigned nvec;
	struct iovec *iov;
	int ret;

	if (c->job->registerfiles) {
		ret = io_uring_register_files(&r->ring, &c->fd, 1);
		if (ret < 0)
			return ring_error(r, "io_uring_register_files: %s",
					  strerror(-ret)), ret;
		r->fd = 0;
		r->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (!c->job->fixedbufs)
		return 0;
	r->vec_slots = (c->nslots + MAX_REG_BUFS - 1) / MAX_REG_BUFS;
	if ((uint64_t)r->vec_slots * c->stride > MAX_REG_LEN)
		return ring_error(r, "fixedbufs: %u buffers of %zu bytes are too "
				  "many to register", c->nslots, c->stride), -E2BIG;
	nvec = (c->nslots + r->vec_slots - 1) / r->vec_slots;
	iov = calloc(nvec, sizeof(*iov));
	if (!iov)
		return ring_error(r, "out of memory"), -ENOMEM;
	for (unsigned v = 0; v < nvec; v++) {
		unsigned first = v * r->vec_slots, n = c->nslots - first;

		iov[v].iov_base = c->slots[first].buf;
		iov[v].iov_len = (n < r->vec_slots ? n : r->vec_slots) * c->stride;
	}
	ret = io_uring_register_buffers(&r->ring, iov, nvec);
	free(iov);
	if (ret < 0)
		return ring_error(r, "fixedbufs: io_uring_register_buffers: %s%s",
				  strerror(-ret), ret == -ENOMEM ?
				  " (RLIMIT_MEMLOCK too low? see ulimit -l)" : ""), ret;
	r->fixed = true;
	return 0;
}

/* Set up ring r over the slots of cfg c; on failure r->err says why. */
static int ring_init(struct ring *r, const struct ring_cfg *c)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->slots = c->slots;
	r->fd = c->fd;
	r->write = RW_IS_WRITE(c->job->rw);
	r->direct = c->job->direct;
	r->sqpoll = c->job->sqpoll;
	r->depth = c->depth;
	r->lat = c->lat;
	r->path = c->path;
	r->err = c->err;
	r->errlen = c->errlen;
	r->stamp = calloc(c->depth, sizeof(*r->stamp));
	r->done = calloc(c->depth, sizeof(*r->done));
	if (!r->stamp || !r->done)
		return ring_error(r, "out of memory"), -ENOMEM;
	ret = ring_create(r, c);
	if (ret)
		return ret;
	return ring_register(r, c);
}

static void ring_exit(struct ring *r)
{
	if (r->up)
		io_uring_queue_exit(&r->ring);
	r->up = false;
	free(r->stamp);
	free(r->done);
	r->stamp = r->done = NULL;
}

/* Stamp the first transfers queued since the last submit. */
static void ring_stamp(struct ring *r)
{
	uint64_t t;

	if (!r->nstamp)
		return;
	t = now_ns();
	for (unsigned i = 0; i < r->nstamp; i++)
		r->slots[r->stamp[i]].t_sub = t;
	r->nstamp = 0;
}

/* Submit what is queued, and wait for wait_nr completions (may be 0). */
static int ring_enter(struct ring *r, unsigned wait_nr)
{
	int ret;

	if (r->lat)
		ring_stamp(r);
	for (unsigned tries = 0;; tries++) {
		ret = wait_nr ? io_uring_submit_and_wait(&r->ring, wait_nr) :
				io_uring_submit(&r->ring);
		if (ret >= 0)
			return 0;
		if (ret == -EINTR)
			continue;
		/* The kernel is short of memory for requests: let it breathe. */
		if ((ret == -EAGAIN || ret == -EBUSY) && tries < 1000) {
			sched_yield();
			continue;
		}
		return ring_error(r, "io_uring_enter: %s", strerror(-ret)), ret;
	}
}

/* Queue the rest of slot s's transfer; first: its first one. */
static int ring_prep(struct ring *r, unsigned s, bool first)
{
	struct slot *sl = &r->slots[s];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	unsigned char *buf = sl->buf + sl->done;
	unsigned n = (unsigned)(sl->want - sl->done);
	uint64_t off = sl->off + sl->done;
	int ret;

	if (!sqe) {			/* SQ ring full: make room */
		ret = ring_enter(r, 0);
		if (ret)
			return ret;
		sqe = io_uring_get_sqe(&r->ring);
		if (!sqe && r->sqpoll) {
			io_uring_sqring_wait(&r->ring);
			sqe = io_uring_get_sqe(&r->ring);
		}
		if (!sqe)
			return ring_error(r, "io_uring: no submission queue entry free"),
			       -EBUSY;
	}
	if (r->fixed && r->write)
		io_uring_prep_write_fixed(sqe, r->fd, buf, n, off,
					  (int)(s / r->vec_slots));
	else if (r->fixed)
		io_uring_prep_read_fixed(sqe, r->fd, buf, n, off,
					 (int)(s / r->vec_slots));
	else if (r->write)
		io_uring_prep_write(sqe, r->fd, buf, n, off);
	else
		io_uring_prep_read(sqe, r->fd, buf, n, off);
	sqe->flags |= (unsigned char)r->sqe_flags;
	io_uring_sqe_set_data64(sqe, s);
	if (first) {
		r->inflight++;
		if (r->lat)
			r->stamp[r->nstamp++] = s;
	}
	return 0;
}

/* Slot s is done with its transfers (for now). */
static void ring_finish(struct ring *r, unsigned s, unsigned st, uint64_t now)
{
	struct slot *sl = &r->slots[s];

	if (r->lat && st != ST_ERROR)
		hist_record(r->lat, now - sl->t_sub);
	r->inflight--;
	r->done[r->ndone++] = s;
	slot_set(sl, st);		/* last: it publishes the slot */
}

static int ring_complete(struct ring *r, const struct io_uring_cqe *cqe,
			 uint64_t now)
{
	unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
	struct slot *sl = &r->slots[s];
	int res = cqe->res;

	if (res == -EAGAIN || res == -EINTR)
		return ring_prep(r, s, false);
	if (res < 0) {
		sl->err = -res;
		ring_finish(r, s, ST_ERROR, now);
		return 0;
	}
	if (r->write) {
		if (res == 0) {
			sl->err = 0;
			ring_finish(r, s, ST_ERROR, now);
			return 0;
		}
		sl->done += (size_t)res;
		if (sl->done < sl->want)
			return ring_prep(r, s, false);
		ring_finish(r, s, ST_WRITTEN, now);
		return 0;
	}
	sl->done += (size_t)res;
	/* More to read, unless the file ended: a read that returned
	 * nothing, or a direct read that stopped at an unaligned length. */
	if (sl->done < sl->len && res > 0 &&
	    !(r->direct && sl->done % BUF_ALIGN))
		return ring_prep(r, s, false);
	if (!sl->done) {
		ring_finish(r, s, ST_NONE, now);
		return 0;
	}
	if (sl->done < sl->len)
		sl->len = sl->done;
	ring_finish(r, s, ST_DATA, now);
	return 0;
}

/*
 * Submit everything queued, wait for at least wait_nr completions (at
 * most what is in flight), and handle all that are there.  The finished
 * slots are then r->done[0..r->ndone).
 */
static int ring_reap(struct ring *r, unsigned wait_nr)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t now = 0;
	int ret, first = 0;

	r->ndone = 0;
	if (wait_nr > r->inflight)
		wait_nr = r->inflight;
	ret = ring_enter(r, wait_nr);
	if (ret)
		return ret;
	if (r->lat)
		now = now_ns();
	io_uring_for_each_cqe(&r->ring, head, cqe) {
		ret = ring_complete(r, cqe, now);
		if (ret && !first)
			first = ret;
		n++;
	}
	io_uring_cq_advance(&r->ring, n);
	return first;
}

/* Wait for everything in flight, and forget what it was. */
static int ring_quiesce(struct ring *r)
{
	int ret = 0;

	while (r->inflight && !ret)
		ret = ring_reap(r, r->inflight);
	return ret;
}

/* ---- what both modes share -------------------------------------------- */

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
	bool write, direct, ordered;
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
};

static const char *direct_hint(const struct uring_priv *p, int err)
{
	if (p->direct && err == EINVAL)
		return " (O_DIRECT needs offset and length aligned to the device's logical block size)";
	return "";
}

/* A failed slot, reported from the job's thread. */
static int report_slot(struct ioe *e, struct uring_priv *p, struct slot *sl)
{
	if (!sl->err) {
		ioe_error(e, "io_uring write %s at offset %" PRIu64 " wrote nothing",
			  e->path, sl->off + sl->done);
		return -EIO;
	}
	ioe_error(e, "io_uring %s %s at offset %" PRIu64 ": %s%s",
		  p->write ? "write" : "read", e->path, sl->off + sl->done,
		  strerror(sl->err), direct_hint(p, sl->err));
	return -sl->err;
}

static void slot_fill(const struct uring_priv *p, struct slot *sl,
		      uint64_t off, size_t len)
{
	sl->off = off;
	sl->len = len;
	sl->want = p->direct && !p->write ?
		   (len + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN : len;
	sl->done = 0;
	sl->err = 0;
}

static void hand_out(struct slot *sl, unsigned s, struct io_unit *u)
{
	u->buf = sl->buf;
	u->len = sl->len;
	u->off = sl->off;
	u->slot = s;
}

/* ---- ioworkers=0: the job's thread owns the ring ---------------------- */

static void slot_free(struct uring_priv *p, unsigned s)
{
	slot_set(&p->slots[s], ST_FREE);
	p->freelist[p->nfree++] = s;
}

static unsigned batch_wait(const struct uring_priv *p)
{
	return p->job->iodepth_batch_complete ? p->job->iodepth_batch_complete : 1;
}

/* Sort what the last reap finished: reads to the ready FIFO. */
static int single_sort(struct ioe *e, struct uring_priv *p)
{
	int first = 0;

	for (unsigned i = 0; i < p->r.ndone; i++) {
		unsigned s = p->r.done[i];
		struct slot *sl = &p->slots[s];

		switch (slot_state(sl)) {
		case ST_DATA:
			p->ready[(p->ready_head + p->nready++) % p->nslots] = s;
			break;
		case ST_ERROR:
			if (!first)
				first = report_slot(e, p, sl);
			slot_free(p, s);
			break;
		default:		/* written, or nothing past the end */
			slot_free(p, s);
			break;
		}
	}
	p->r.ndone = 0;
	return first;
}

/* (The ring describes its own failures in e->err.) */
static int single_reap(struct ioe *e, struct uring_priv *p, unsigned wait_nr)
{
	int ret = ring_reap(&p->r, wait_nr);

	return ret ? ret : single_sort(e, p);
}

/* Queue reads of the blockgen's next blocks in every free slot, and
 * submit when iodepth_batch_submit of them are queued. */
static int single_fill(struct ioe *e, struct uring_priv *p)
{
	unsigned batch = p->job->iodepth_batch_submit;
	uint64_t off;
	size_t len;
	int ret;

	while (p->nfree && blockgen_next(e->gen, &off, &len)) {
		unsigned s = p->freelist[--p->nfree];

		slot_fill(p, &p->slots[s], off, len);
		slot_set(&p->slots[s], ST_BUSY);
		ret = ring_prep(&p->r, s, true);
		if (!ret && batch && io_uring_sq_ready(&p->r.ring) >= batch)
			ret = ring_enter(&p->r, 0);
		if (ret)
			return ret;
	}
	return 0;
}

static int single_get_read(struct ioe *e, struct uring_priv *p,
			   struct io_unit *u)
{
	int ret;

	for (;;) {
		/* Unbatched, new reads are queued when the job waits. */
		if (p->job->iodepth_batch_submit || !p->nready) {
			ret = single_fill(e, p);
			if (ret)
				return ret;
		}
		if (p->nready) {
			unsigned s = p->ready[p->ready_head];

			p->ready_head = (p->ready_head + 1) % p->nslots;
			p->nready--;
			hand_out(&p->slots[s], s, u);
			return 1;
		}
		if (!p->r.inflight)
			return 0;
		ret = single_reap(e, p, batch_wait(p));
		if (ret)
			return ret;
	}
}

static int single_get_write(struct ioe *e, struct uring_priv *p,
			    struct io_unit *u)
{
	uint64_t off;
	size_t len;
	unsigned s;
	int ret;

	if (!blockgen_next(e->gen, &off, &len)) {
		while (p->r.inflight) {	/* the pass ends with its writes */
			ret = single_reap(e, p, p->r.inflight);
			if (ret)
				return ret;
		}
		return 0;
	}
	while (!p->nfree) {
		ret = single_reap(e, p, batch_wait(p));
		if (ret)
			return ret;
	}
	s = p->freelist[--p->nfree];
	slot_fill(p, &p->slots[s], off, len);
	slot_set(&p->slots[s], ST_BUSY);
	hand_out(&p->slots[s], s, u);
	return 1;
}

static int single_put(struct uring_priv *p, struct io_unit *u)
{
	unsigned batch = p->job->iodepth_batch_submit;
	struct slot *sl = &p->slots[u->slot];
	int ret;

	if (!p->write) {
		slot_free(p, u->slot);
		return 0;
	}
	sl->len = sl->want = u->len;
	ret = ring_prep(&p->r, u->slot, true);
	if (!ret && batch && io_uring_sq_ready(&p->r.ring) >= batch)
		ret = ring_enter(&p->r, 0);
	return ret;
}

/* Wait for everything in flight.  A read that fails now changes nothing;
 * a write that fails is reported. */
static int single_drain(struct ioe *e, struct uring_priv *p)
{
	int first = 0;

	while (p->r.inflight) {
		int ret = ring_reap(&p->r, p->r.inflight);

		for (unsigned i = 0; i < p->r.ndone; i++) {
			struct slot *sl = &p->slots[p->r.done[i]];

			if (p->write && !first && slot_state(sl) == ST_ERROR)
				first = report_slot(e, p, sl);
		}
		if (ret) {		/* the ring itself failed */
			first = ret;
			break;
		}
	}
	p->nfree = 0;
	for (unsigned s = 0; s < p->nslots; s++)
		slot_free(p, s);
	p->nready = 0;
	p->ready_head = 0;
	return first;
}

static int single_setup(struct ioe *e, struct uring_priv *p)
{
	struct ring_cfg c = {
		.job = p->job, .path = p->path, .depth = p->nslots,
		.slots = p->slots, .nslots = p->nslots, .stride = p->stride,
		.fd = p->fd, .attach_fd = -1, .lat = e->lat,
		.err = e->err, .errlen = sizeof(e->err),
	};

	p->freelist = calloc(p->nslots, sizeof(*p->freelist));
	p->ready = calloc(p->nslots, sizeof(*p->ready));
	if (!p->freelist || !p->ready) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	for (unsigned s = p->nslots; s-- > 0;)
		slot_free(p, s);
	return ring_init(&p->r, &c);
}

/* ---- ioworkers=N: a pool of slots that I/O threads fill --------------- */

/*
 * The pool hands out sequence numbers: block number k of the job (over
 * all passes) lives in slot k % nslots.  An I/O thread claims a run of
 * sequence numbers under the lock, with the blockgen's next blocks, as
 * long as they stay within nslots of the tail (the oldest one the job's
 * thread has not given back), reads them, and publishes each slot's
 * state when it is finished; unordered, it also pushes the slot on its
 * own queue (single producer, single consumer).  The job's thread takes
 * slots in sequence (ordered) or from the queues (unordered), gives them
 * back in put(), and moves the tail over the free ones.  Whoever waits
 * spins a little and then sleeps on a futex word that the other side
 * bumps when it sees a sleeper (see sleepers()).
 */
struct ioworker {
	struct uring_priv *p;
	unsigned idx, depth;
	pthread_t tid;
	bool started;
	int ret;			/* setup: 1 running, <0 failed */
	struct ring r;
	struct hist *lat;		/* its own; merged when it is idle */
	unsigned *claimed;		/* slots claimed by the last claim */
	uint32_t *q;			/* unordered: finished slots */
	unsigned qmask;
	_Alignas(64) _Atomic uint64_t qhead;	/* written by the I/O thread */
	_Alignas(64) uint64_t qtail;		/* the job's thread's */
	char err[400];
};

static void futex_wait(_Atomic uint32_t *w, uint32_t seen)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w, int n)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * Whether anyone sleeps on a word, asked after publishing something.  It
 * is a read-modify-write, as is the sleeper's increment before it looks
 * once more: the two are ordered, so either the sleeper sees what was
 * published, or this sees the sleeper (a fence would do, but TSan cannot
 * follow fences).
 */
static bool sleepers(_Atomic unsigned *count)
{
	return atomic_fetch_add(count, 0) != 0;
}

/* Wake the job's thread if it sleeps (after publishing something). */
static void wake_job(struct pool *pl)
{
	if (sleepers(&pl->c_sleeping)) {
		atomic_fetch_add(&pl->c_word, 1);
		futex_wake(&pl->c_word, 1);
	}
}

static void wake_workers(struct pool *pl)
{
	atomic_fetch_add(&pl->w_word, 1);
	futex_wake(&pl->w_word, INT_MAX);
}

static uint64_t pool_room(struct uring_priv *p)
{
	struct pool *pl = &p->pool;
	uint64_t tail = atomic_load_explicit(&pl->tail, memory_order_acquire);

	return tail + p->nslots - atomic_load_explicit(&pl->next, memory_order_acquire);
}

/* Claim up to want blocks and queue their reads.  Returns how many. */
static int pool_claim(struct ioworker *w, unsigned want)
{
	struct uring_priv *p = w->p;
	struct pool *pl = &p->pool;
	bool ended = false;
	uint64_t next, room;
	unsigned n = 0;
	int ret = 0;

	pthread_mutex_lock(&pl->lock);
	if (atomic_load_explicit(&pl->ended, memory_order_relaxed)) {
		pthread_mutex_unlock(&pl->lock);
		return 0;
	}
	next = atomic_load_explicit(&pl->next, memory_order_relaxed);
	room = atomic_load_explicit(&pl->tail, memory_order_acquire) +
	       p->nslots - next;
	if (want > room)
		want = (unsigned)room;
	for (; n < want; n++) {
		unsigned s = (unsigned)((next + n) % p->nslots);
		uint64_t off;
		size_t len;

		if (!blockgen_next(pl->gen, &off, &len)) {
			ended = true;
			break;
		}
		slot_fill(p, &p->slots[s], off, len);
		atomic_store_explicit(&p->slots[s].state, ST_BUSY,
				      memory_order_relaxed);
		w->claimed[n] = s;
	}
	atomic_store_explicit(&pl->next, next + n, memory_order_release);
	if (ended)
		atomic_store_explicit(&pl->ended, true, memory_order_release);
	pthread_mutex_unlock(&pl->lock);
	if (ended)
		wake_job(pl);	/* it may be waiting for the pass to end */
	for (unsigned i = 0; i < n && !ret; i++)
		ret = ring_prep(&w->r, w->claimed[i], true);
	return ret ? ret : (int)n;
}

/* Publish what the last reap finished. */
static void worker_publish(struct ioworker *w)
{
	uint64_t head;

	if (!w->r.ndone)
		return;
	if (!w->p->ordered) {
		head = atomic_load_explicit(&w->qhead, memory_order_relaxed);
		for (unsigned i = 0; i < w->r.ndone; i++)
			w->q[(head + i) & w->qmask] = w->r.done[i];
		atomic_store_explicit(&w->qhead, head + w->r.ndone,
				      memory_order_release);
	}
	w->r.ndone = 0;
	wake_job(&w->p->pool);
}

/* Sleep until there is room to claim, a new pass, or the end. */
static void worker_sleep(struct ioworker *w)
{
	struct pool *pl = &w->p->pool;
	uint32_t seen = atomic_load(&pl->w_word);

	atomic_fetch_add(&pl->w_sleeping, 1);
	if (!atomic_load(&pl->stop) &&
	    (atomic_load(&pl->ended) || pool_room(w->p) < pl->wake_min))
		futex_wait(&pl->w_word, seen);
	atomic_fetch_sub(&pl->w_sleeping, 1);
}

static void worker_fail(struct ioworker *w, int ret)
{
	struct pool *pl = &w->p->pool;
	int none = 0;

	w->ret = ret;		/* the ring has described it in w->err */
	atomic_compare_exchange_strong(&pl->failed, &none, (int)w->idx + 1);
	wake_job(pl);
}

static int worker_ring_init(struct ioworker *w, int attach_fd)
{
	struct uring_priv *p = w->p;
	struct ring_cfg c = {
		.job = p->job, .path = p->path, .depth = w->depth,
		.slots = p->slots, .nslots = p->nslots, .stride = p->stride,
		.fd = p->fd, .attach_fd = attach_fd, .lat = w->lat,
		.err = w->err, .errlen = sizeof(w->err),
	};

	return ring_init(&w->r, &c);
}

static void worker_loop(struct ioworker *w)
{
	struct pool *pl = &w->p->pool;
	unsigned wait_nr = w->p->job->iodepth_batch_complete;
	int ret;

	while (!atomic_load_explicit(&pl->stop, memory_order_acquire)) {
		unsigned room = w->depth - w->r.inflight;

		if (room) {
			ret = pool_claim(w, room);
			if (ret < 0)
				goto fail;
		}
		if (!w->r.inflight) {
			worker_sleep(w);
			continue;
		}
		ret = ring_reap(&w->r, wait_nr ? wait_nr : 1);
		worker_publish(w);
		if (ret)
			goto fail;
	}
	return;
fail:
	worker_fail(w, ret);
}

static int worker_attach_fd(struct ioworker *w)
{
	if (!w->p->job->sqpoll || w->idx == 0)
		return -1;
	return w->p->w[0].r.ring.ring_fd;
}

static void *worker_main(void *arg)
{
	struct ioworker *w = arg;
	struct pool *pl = &w->p->pool;
	int ret = worker_ring_init(w, worker_attach_fd(w));

	pthread_mutex_lock(&pl->hs_lock);
	w->ret = ret ? ret : 1;
	pthread_cond_broadcast(&pl->hs_cond);
	pthread_mutex_unlock(&pl->hs_lock);
	if (!ret)
		worker_loop(w);
	/* No buffer may be freed while the kernel can still DMA into it. */
	if (w->r.up && ring_quiesce(&w->r))
		ring_quiesce(&w->r);
	ring_exit(&w->r);
	return NULL;
}

/* The CPUs of the I/O threads: ioworkers_cpus, or the job's own. */
static int worker_cpus(struct ioe *e, cpu_set_t *set)
{
	const struct job_spec *job = e->job;

	CPU_ZERO(set);
	if (!job->ioworkers_cpus) {
		if (sched_getaffinity(0, sizeof(*set), set) == 0)
			return 0;
		ioe_error(e, "sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (job->ioworkers_cpuset[c / 64] & (1ULL << (c % 64)))
			CPU_SET(c, set);
	return 0;
}

static int worker_start(struct ioe *e, struct ioworker *w,
			const cpu_set_t *cpus)
{
	struct pool *pl = &w->p->pool;
	pthread_attr_t attr;
	char name[16];
	int ret;

	ret = pthread_attr_init(&attr);
	if (!ret)
		ret = pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus);
	if (!ret)
		ret = pthread_create(&w->tid, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	if (ret) {
		ioe_error(e, "cannot start I/O thread %u: %s%s", w->idx,
			  strerror(ret), ret == EINVAL ?
			  " (are the CPUs of ioworkers_cpus available?)" : "");
		return -ret;
	}
	w->started = true;
	snprintf(name, sizeof(name), "memjob-io%u", w->idx);
	pthread_setname_np(w->tid, name);
	pthread_mutex_lock(&pl->hs_lock);
	while (!w->ret)
		pthread_cond_wait(&pl->hs_cond, &pl->hs_lock);
	pthread_mutex_unlock(&pl->hs_lock);
	if (w->ret < 0) {
		ioe_error(e, "I/O thread %u: %s", w->idx, w->err);
		return w->ret;
	}
	return 0;
}

static int pool_init(struct ioe *e, struct uring_priv *p)
{
	struct pool *pl = &p->pool;

	if (pthread_mutex_init(&pl->lock, NULL)) {
		ioe_error(e, "pthread_mutex_init failed");
		return -ENOMEM;
	}
	p->pool_up = true;
	if (pthread_mutex_init(&pl->hs_lock, NULL)) {
		ioe_error(e, "pthread_mutex_init failed");
		return -ENOMEM;
	}
	if (pthread_cond_init(&pl->hs_cond, NULL)) {
		pthread_mutex_destroy(&pl->hs_lock);
		ioe_error(e, "pthread_cond_init failed");
		return -ENOMEM;
	}
	p->hs_up = true;
	pl->gen = e->gen;
	/* Nothing is claimed before the first get(): the engine rewinds the
	 * blockgen first. */
	atomic_init(&pl->ended, true);
	p->pass_over = true;
	pl->wake_min = p->nslots / 4 ? p->nslots / 4 : 1;
	return 0;
}

static int workers_setup(struct ioe *e, struct uring_priv *p)
{
	unsigned n = p->job->ioworkers, depth = p->job->iodepth, qsize = 1;
	cpu_set_t cpus;
	int ret;

	ret = pool_init(e, p);
	if (ret)
		return ret;
	ret = worker_cpus(e, &cpus);
	if (ret)
		return ret;
	while (qsize < p->nslots)
		qsize <<= 1;
	p->w = calloc(n, sizeof(*p->w));
	if (!p->w) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	p->nworkers = n;
	for (unsigned i = 0; i < n; i++) {
		struct ioworker *w = &p->w[i];

		w->p = p;
		w->idx = i;
		w->depth = depth / n + (i < depth % n);
		w->qmask = qsize - 1;
		w->claimed = calloc(w->depth, sizeof(*w->claimed));
		w->q = p->ordered ? NULL : calloc(qsize, sizeof(*w->q));
		w->lat = e->lat ? malloc(sizeof(*w->lat)) : NULL;
		if (!w->claimed || (!p->ordered && !w->q) || (e->lat && !w->lat)) {
			ioe_error(e, "out of memory");
			return -ENOMEM;
		}
		if (w->lat)
			hist_init(w->lat);
	}
	/* One at a time: with sqpoll, the others share the first's thread. */
	for (unsigned i = 0; i < n; i++) {
		ret = worker_start(e, &p->w[i], &cpus);
		if (ret)
			return ret;
	}
	return 0;
}

/* Fold the I/O threads' latencies into e->lat; they must be idle. */
static void workers_merge_lat(struct ioe *e, struct uring_priv *p)
{
	if (!e->lat)
		return;
	for (unsigned i = 0; i < p->nworkers; i++) {
		struct hist *h = p->w[i].lat;

		if (h && h->count) {
			hist_merge(e->lat, h);
			hist_init(h);
		}
	}
}

static void workers_stop(struct ioe *e, struct uring_priv *p)
{
	struct pool *pl = &p->pool;

	atomic_store(&pl->stop, true);
	wake_workers(pl);
	for (unsigned i = 0; i < p->nworkers; i++)
		if (p->w[i].started)
			pthread_join(p->w[i].tid, NULL);
	workers_merge_lat(e, p);
	for (unsigned i = 0; i < p->nworkers; i++) {
		free(p->w[i].claimed);
		free(p->w[i].q);
		free(p->w[i].lat);
	}
	free(p->w);
	p->w = NULL;
	p->nworkers = 0;
}

static int pool_failed(struct ioe *e, struct uring_priv *p)
{
	int f = atomic_load_explicit(&p->pool.failed, memory_order_acquire);

	if (!f)
		return 0;
	ioe_error(e, "I/O thread %d: %s", f - 1, p->w[f - 1].err);
	return p->w[f - 1].ret < 0 ? p->w[f - 1].ret : -EIO;
}

/* One finished slot for the job's thread: 1 and its index, 0 at the end
 * of the pass, -EAGAIN if none yet, or a failure. */
static int pool_try_take(struct ioe *e, struct uring_priv *p, unsigned *s)
{
	struct pool *pl = &p->pool;
	bool ended;
	int ret = pool_failed(e, p);

	if (ret)
		return ret;
	if (p->ordered) {
		uint64_t next = atomic_load_explicit(&pl->next, memory_order_acquire);
		unsigned i = (unsigned)(p->taken % p->nslots);

		if (p->taken < next) {
			if (slot_state(&p->slots[i]) == ST_BUSY)
				return -EAGAIN;
			*s = i;
			p->taken++;
			return 1;
		}
	} else {
		for (unsigned k = 0; k < p->nworkers; k++) {
			struct ioworker *w = &p->w[(p->rr + k) % p->nworkers];

			if (w->qtail == atomic_load_explicit(&w->qhead,
							     memory_order_acquire))
				continue;
			*s = w->q[w->qtail++ & w->qmask];
			p->rr = (p->rr + k) % p->nworkers;
			p->taken++;
			return 1;
		}
	}
	ended = atomic_load_explicit(&pl->ended, memory_order_acquire);
	if (ended && p->taken == atomic_load_explicit(&pl->next, memory_order_acquire))
		return 0;
	return -EAGAIN;
}

/* pool_try_take(), waiting: spin a little, then sleep on the futex. */
static int pool_take(struct ioe *e, struct uring_priv *p, unsigned *s)
{
	struct pool *pl = &p->pool;

	for (;;) {
		uint32_t seen;
		int ret;

		for (unsigned i = 0; i < SPIN_TRIES; i++) {
			ret = pool_try_take(e, p, s);
			if (ret != -EAGAIN)
				return ret;
			cpu_relax();
		}
		seen = atomic_load(&pl->c_word);
		atomic_fetch_add(&pl->c_sleeping, 1);
		ret = pool_try_take(e, p, s);
		if (ret == -EAGAIN)
			futex_wait(&pl->c_word, seen);
		atomic_fetch_sub(&pl->c_sleeping, 1);
		if (ret != -EAGAIN)
			return ret;
	}
}

/* Give slot s back; move the tail over what is free; wake I/O threads
 * that sleep for want of room once there is enough of it. */
static void pool_give_back(struct uring_priv *p, unsigned s)
{
	struct pool *pl = &p->pool;
	uint64_t next = atomic_load_explicit(&pl->next, memory_order_acquire);
	uint64_t t = p->tail;

	atomic_store_explicit(&p->slots[s].state, ST_FREE, memory_order_relaxed);
	while (t < next && atomic_load_explicit(&p->slots[t % p->nslots].state,
						memory_order_relaxed) == ST_FREE)
		t++;
	if (t == p->tail)
		return;
	p->tail = t;
	atomic_store_explicit(&pl->tail, t, memory_order_release);
	if (sleepers(&pl->w_sleeping) && t + p->nslots - next >= pl->wake_min)
		wake_workers(pl);
}

/* Let the I/O threads claim the blocks of a new pass. */
static void pool_open(struct uring_priv *p)
{
	struct pool *pl = &p->pool;

	pthread_mutex_lock(&pl->lock);
	atomic_store_explicit(&pl->ended, false, memory_order_release);
	pthread_mutex_unlock(&pl->lock);
	p->pass_over = false;
	if (sleepers(&pl->w_sleeping))
		wake_workers(pl);
}

static void pool_close(struct uring_priv *p)
{
	struct pool *pl = &p->pool;

	pthread_mutex_lock(&pl->lock);
	atomic_store_explicit(&pl->ended, true, memory_order_release);
	pthread_mutex_unlock(&pl->lock);
}

static int pool_get(struct ioe *e, struct uring_priv *p, struct io_unit *u)
{
	unsigned s;
	int ret;

	if (p->pass_over)
		pool_open(p);
	for (;;) {
		ret = pool_take(e, p, &s);
		if (ret == 0) {
			p->pass_over = true;
			workers_merge_lat(e, p);
		}
		if (ret <= 0)
			return ret;
		switch (slot_state(&p->slots[s])) {
		case ST_DATA:
			hand_out(&p->slots[s], s, u);
			return 1;
		case ST_ERROR:
			ret = report_slot(e, p, &p->slots[s]);
			pool_give_back(p, s);
			return ret;
		default:		/* past the end of the file */
			pool_give_back(p, s);
			break;
		}
	}
}

static int pool_drain(struct ioe *e, struct uring_priv *p)
{
	unsigned s;
	int ret;

	pool_close(p);
	while ((ret = pool_take(e, p, &s)) == 1)
		pool_give_back(p, s);
	p->pass_over = true;
	workers_merge_lat(e, p);
	return ret;
}

/* ---- the source -------------------------------------------------------- */

static int opt_error(struct diag *d, const struct job_spec *job,
		     const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int opt_error(struct diag *d, const struct job_spec *job,
		     const char *opt, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(d, job_loc(job, opt), opt, "%s", msg);
	return -1;
}

/* A CPU this process may run on. */
static bool cpu_usable(unsigned c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return true;		/* cannot tell: let setup find out */
	return c < CPU_SETSIZE && CPU_ISSET(c, &set);
}

static int validate_threads(const struct job_spec *job, struct diag *d)
{
	int ret = 0;

	if (!job->ioworkers) {
		if (job->ioworkers_cpus)
			ret = opt_error(d, job, "ioworkers_cpus", "needs ioworkers > 0");
		if (job->ordered)
			ret = opt_error(d, job, "ordered", "needs ioworkers > 0 "
					"(the job's own ring hands blocks out as "
					"they complete)");
		return ret;
	}
	if (job->ioworkers > job->iodepth)
		ret = opt_error(d, job, "ioworkers", "each I/O thread needs an "
				"I/O in flight: ioworkers (%u) must not exceed "
				"iodepth (%u)", job->ioworkers, job->iodepth);
	if (RW_IS_WRITE(job->rw))
		ret = opt_error(d, job, "ioworkers", "I/O threads read ahead of "
				"the job's kernel: they need rw=read or randread");
	for (unsigned c = 0; job->ioworkers_cpus && c < MEMJOB_MAX_CPUS; c++) {
		if (!(job->ioworkers_cpuset[c / 64] & (1ULL << (c % 64))) ||
		    cpu_usable(c))
			continue;
		ret = opt_error(d, job, "ioworkers_cpus", "CPU %u in '%s' does "
				"not exist or is not available", c,
				job->ioworkers_cpus);
		break;
	}
	return ret;
}

static int uring_validate(const struct job_spec *job, struct diag *d)
{
	int ret = 0;

	if (job->iodepth > MAX_DEPTH)
		ret = opt_error(d, job, "iodepth", "io_uring allows at most %d, "
				"got %u", MAX_DEPTH, job->iodepth);
	if (job->iodepth_batch_submit > job->iodepth)
		ret = opt_error(d, job, "iodepth_batch_submit", "must not exceed "
				"iodepth (%u), got %u", job->iodepth,
				job->iodepth_batch_submit);
	if (job->iodepth_batch_complete > job->iodepth)
		ret = opt_error(d, job, "iodepth_batch_complete", "must not "
				"exceed iodepth (%u), got %u", job->iodepth,
				job->iodepth_batch_complete);
	if (job->sqpoll_cpu < -1)
		ret = opt_error(d, job, "sqpoll_cpu", "must be a CPU number or "
				"-1, got %d", job->sqpoll_cpu);
	else if (job->sqpoll_cpu >= 0 && !job->sqpoll)
		ret = opt_error(d, job, "sqpoll_cpu", "needs sqpoll=1");
	else if (job->sqpoll_cpu >= 0 && !cpu_usable((unsigned)job->sqpoll_cpu))
		ret = opt_error(d, job, "sqpoll_cpu", "CPU %d does not exist or "
				"is not available", job->sqpoll_cpu);
	if (validate_threads(job, d))
		ret = -1;
	return ret;
}

static const char *const uring_options[] = {
	"direct", "sync", "iodepth", "iodepth_batch_submit",
	"iodepth_batch_complete", "fixedbufs", "registerfiles", "sqpoll",
	"sqpoll_cpu", "ioworkers", "ioworkers_cpus", "ordered", NULL
};

static int uring_get(struct ioe *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;

	if (p->nworkers)
		return pool_get(e, p, u);
	return p->write ? single_get_write(e, p, u) : single_get_read(e, p, u);
}

static int uring_put(struct ioe *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;

	if (u->slot >= p->nslots) {
		ioe_error(e, "io_uring: put of a unit that was not handed out");
		return -EINVAL;
	}
	if (!p->nworkers)
		return single_put(p, u);
	pool_give_back(p, u->slot);
	return 0;
}

/* Wait for everything in flight without starting anything new. */
static int uring_drain(struct ioe *e)
{
	struct uring_priv *p = e->priv;

	return p->nworkers ? pool_drain(e, p) : single_drain(e, p);
}

static void uring_teardown(struct ioe *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	if (p->w)
		workers_stop(e, p);
	if (p->r.up && p->r.inflight)
		single_drain(e, p);
	ring_exit(&p->r);
	if (p->hs_up) {
		pthread_cond_destroy(&p->pool.hs_cond);
		pthread_mutex_destroy(&p->pool.hs_lock);
	}
	if (p->pool_up)
		pthread_mutex_destroy(&p->pool.lock);
	if (p->fd >= 0)
		close(p->fd);
	if (p->bufs)
		munmap(p->bufs, p->bufs_len);
	free(p->slots);
	free(p->freelist);
	free(p->ready);
	free(p);
	e->priv = NULL;
}

/*
 * The buffers: one anonymous mapping, on transparent huge pages where the
 * kernel allows them, so that a large block is one physically contiguous
 * segment for the device (a 1 MiB read in 4 KiB pages needs 256 of them,
 * more than many devices take in one request, and adjacent reads merge
 * into larger requests), and faulted in now, by the job's thread (its
 * NUMA policy), not inside the measured time.
 */
static int uring_alloc_bufs(struct ioe *e, struct uring_priv *p)
{
	size_t len = p->stride * p->nslots, map = len;
	unsigned char *m, *start;

	if (len >= HUGE_MIN) {		/* whole huge pages, and one to align */
		len = (len + HUGE_SIZE - 1) / HUGE_SIZE * HUGE_SIZE;
		map = len + HUGE_SIZE;
	}
	m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED) {
		ioe_error(e, "cannot allocate %u buffers of %zu bytes: %s",
			  p->nslots, p->stride, strerror(errno));
		return -errno;
	}
	start = m;
	if (map != len) {		/* trim to a huge-page-aligned start */
		size_t lead = (HUGE_SIZE - (uintptr_t)m % HUGE_SIZE) % HUGE_SIZE;

		if (lead)
			munmap(m, lead);
		if (map - lead > len)
			munmap(m + lead + len, map - lead - len);
		start = m + lead;
		p->bufs_huge = madvise(start, len, MADV_HUGEPAGE) == 0;
	}
	p->bufs = start;
	p->bufs_len = len;
	for (size_t off = 0; off < len; off += BUF_ALIGN)
		p->bufs[off] = 0;
	return 0;
}

static int uring_alloc(struct ioe *e, struct uring_priv *p)
{
	const struct job_spec *job = e->job;
	int ret;

	p->stride = (job->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	if (!p->slots) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	ret = uring_alloc_bufs(e, p);
	if (ret)
		return ret;
	for (unsigned s = 0; s < p->nslots; s++) {
		p->slots[s].buf = p->bufs + (size_t)s * p->stride;
		if (p->write)
			pattern_fill(&job->pattern, job->pattern_seed, 0,
				     p->slots[s].buf, job->bs);
	}
	return 0;
}

static int uring_open(struct ioe *e, struct uring_priv *p)
{
	const struct job_spec *job = e->job;
	int flags = (p->write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int ret;

	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync)
		flags |= O_SYNC;
	p->fd = open(e->path, flags);
	if (p->fd >= 0)
		return 0;
	ret = -errno;
	ioe_error(e, "open %s%s: %s", e->path,
		  job->direct ? " with O_DIRECT" : "", strerror(-ret));
	return ret;
}

static void uring_info(struct ioe *e, const struct uring_priv *p)
{
	const struct job_spec *job = e->job;
	const struct ring *r = p->nworkers ? &p->w[0].r : &p->r;
	char flags[128];
	size_t n;

	flags_name(r->flags, flags, sizeof(flags));
	n = (size_t)snprintf(e->info, sizeof(e->info), "ring: depth %u, flags %s",
			     r->depth, flags);
	if (n < sizeof(e->info) && r->fixed)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n, "; fixedbufs");
	if (n < sizeof(e->info) && job->registerfiles)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n, "; registerfiles");
	if (n < sizeof(e->info) && job->sqpoll && job->sqpoll_cpu >= 0)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n,
				      "; sqpoll on CPU %d", job->sqpoll_cpu);
	if (n < sizeof(e->info) && p->bufs_huge)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n,
				      "; buffers on huge pages");
	if (n < sizeof(e->info) && p->nworkers)
		snprintf(e->info + n, sizeof(e->info) - n,
			 "; %u ioworkers, %s, pool %u x %zu bytes", p->nworkers,
			 p->ordered ? "ordered" : "unordered", p->nslots, p->stride);
}

static int uring_setup(struct ioe *e)
{
	const struct job_spec *job = e->job;
	unsigned depth = job->iodepth ? job->iodepth : 1;
	struct uring_priv *p;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	p->job = job;
	p->path = e->path;
	p->fd = -1;
	p->write = RW_IS_WRITE(job->rw);
	p->direct = job->direct;
	p->ordered = job->ordered;
	/* With I/O threads, as many slots again as can be in flight hold
	 * reads that wait for the job's kernel. */
	p->nslots = job->ioworkers ? 2 * depth : depth;
	e->priv = p;
	if (depth > MAX_DEPTH) {	/* validate() refuses it; the tests don't */
		ioe_error(e, "iodepth %u: io_uring_queue_init takes at most %d "
			  "entries", depth, MAX_DEPTH);
		ret = -EINVAL;
		goto out;
	}
	if (job->ioworkers > depth || (job->ioworkers && p->write)) {
		ioe_error(e, "ioworkers=%u: needs reads and iodepth >= ioworkers",
			  job->ioworkers);
		ret = -EINVAL;
		goto out;
	}
	ret = uring_alloc(e, p);
	if (!ret)
		ret = uring_open(e, p);
	if (!ret)
		ret = job->ioworkers ? workers_setup(e, p) : single_setup(e, p);
	if (ret)
		goto out;
	uring_info(e, p);
	return 0;
out:
	uring_teardown(e);
	return ret;
}

const struct ioengine_ops ioengine_io_uring = {
	.name = "io_uring",
	.help = "reads and writes through io_uring with iodepth in flight, "
		"batched; ioworkers=N I/O threads feed the job (direct=1: O_DIRECT)",
	.flags = IOE_FILE,
	.options = uring_options,
	.validate = uring_validate,
	.setup = uring_setup,
	.get = uring_get,
	.put = uring_put,
	.drain = uring_drain,
	.teardown = uring_teardown,
};
