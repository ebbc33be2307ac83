/*
 * uring_ring.c - one io_uring and the slots that move through it:
 * queueing, submitting, reaping, and what to do when a request is lost.
 *
 * The one idea: ring_reap() is the only place that waits.  It submits
 * everything queued and waits for completions in one system call
 * (io_uring_submit_and_wait), continues short transfers and retries
 * -EAGAIN/-EINTR itself, and lists the slots that are finished: data,
 * nothing (a block past the end of the file), or an error that keeps its
 * errno for the report.  Its caller (the job's thread, or an I/O thread)
 * never sees a partial transfer.  Direct reads ask for their length
 * rounded up to 4096, so that the short last block of a file can be read.
 *
 * With latency tracking the clock is read once per submitting call and
 * once per batch of completions, and each slot keeps the time its first
 * transfer went in.
 *
 * Every wait is bounded (a second), so that its caller can look at the
 * stop flag in between; ring_cancel() then cancels what is in flight, and
 * the transfers it catches finish as errors (ECANCELED), not continued.
 *
 * A request whose completion never comes would otherwise be waited for a
 * second at a time for ever (seen on Linux 6.18, about once in 100 runs
 * of test_uring's writes: buffered writes the kernel took and handed to
 * its I/O threads, io-wq, with no such thread left to run them; a
 * cancellation finds them, and submitted again they complete).  So
 * ring_reap() watches for stalls: RING_STALL_WAITS timed-out waits in a
 * row with requests in flight and none of them completed.  It then
 * nudges: cancels what is in flight, as ring_cancel() does but without
 * ending anything, and a request the kernel still held comes back
 * ECANCELED and is submitted again.  When the nudge found none and as
 * many waits again bring nothing, the request is lost: the ring fails
 * with that said, for a file; a stream (a FIFO) may rightly wait as long
 * as its writer takes, and is only nudged again.
 *
 * Setting a ring up and taking it down is uring_setup.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "config.h"
#include "ioengines/uring.h"
#include "util/clock.h"


#ifndef IORING_ASYNC_CANCEL_ANY		/* liburing before 2.2 */
#define IORING_ASYNC_CANCEL_ANY		(1U << 2)
#endif

int ring_error(struct ring *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Stamp the first transfers queued since the last submit. */
static void ring_stamp(struct ring *r)
{
	uint64_t t;

	if (!r->nstamp)
		return;
	t = mono_ns();
	for (unsigned i = 0; i < r->nstamp; i++)
		r->slots[r->stamp[i]].t_sub = t;
	r->nstamp = 0;
}

/* One wait's bound: r->wait_ms (RING_WAIT_S unless a test shortened it). */
static struct __kernel_timespec ring_wait_ts(const struct ring *r)
{
	return (struct __kernel_timespec){
		.tv_sec = r->wait_ms / 1000,
		.tv_nsec = (long long)(r->wait_ms % 1000) * 1000000,
	};
}

/* One wait in the kernel: submit what is queued, and wait for wait_nr
 * completions, but no longer than RING_WAIT_S where the kernel takes a
 * timeout with the wait (IORING_FEAT_EXT_ARG, Linux 5.11): then a wake-up
 * that never comes costs a second, not the run.  (Without it the wait is
 * the kernel's, unbounded, and no stall can be seen.) */
static int ring_submit_wait(struct ring *r, unsigned wait_nr)
{
	struct __kernel_timespec ts = ring_wait_ts(r);
	struct io_uring_cqe *cqe;
	int ret;

	if (!wait_nr)
		return io_uring_submit(&r->ring);
	if (!(r->ring.features & IORING_FEAT_EXT_ARG))
		return io_uring_submit_and_wait(&r->ring, wait_nr);
	ret = io_uring_submit_and_wait_timeout(&r->ring, &cqe, wait_nr, &ts,
					       NULL);
	if (ret == -ETIME)
		r->timed_out = true;
	return ret;
}

/* Wait for wait_nr completions without submitting anything (what is
 * queued stays queued), as long as ring_submit_wait() would. */
static int ring_wait(struct ring *r, unsigned wait_nr)
{
	struct __kernel_timespec ts = ring_wait_ts(r);
	struct io_uring_cqe *cqe;
	int ret;

	if (!(r->ring.features & IORING_FEAT_EXT_ARG))
		return io_uring_wait_cqe_nr(&r->ring, &cqe, wait_nr);
	ret = io_uring_wait_cqes(&r->ring, &cqe, wait_nr, &ts, NULL);
	if (ret == -ETIME)
		r->timed_out = true;
	return ret;
}

/*
 * Submit what is queued, and wait for wait_nr completions (may be 0).
 * Fewer may be there when it returns (a timed-out or interrupted wait):
 * callers reap what there is and wait again while they need more.
 *
 * The kernel may take fewer requests than are queued (it cannot allocate
 * them, or one is malformed); it then returns at once, without waiting,
 * and the rest stay in the submission queue.  Those are submitted again
 * here while the kernel takes some; when it takes none, the wait is for
 * what it does hold (their completions free requests), never for the
 * ones it never took.  With SQPOLL the kernel's thread takes them when
 * it can, and the queue is its business.
 */
int ring_enter(struct ring *r, unsigned wait_nr)
{
	unsigned idle = 0;
	int ret;

	if (r->lat)
		ring_stamp(r);
	for (;;) {
		unsigned queued = io_uring_sq_ready(&r->ring), left, held;
		bool took_none;

		ret = ring_submit_wait(r, wait_nr);
		/* a signal (the stop's wake-up): the caller reaps what is
		 * there and looks at the stop flag before it waits again */
		if (ret == -EINTR && wait_nr)
			return 0;
		if (ret == -EINTR)
			continue;
		took_none = ret == -EAGAIN || ret == -EBUSY;
		if (ret < 0 && ret != -ETIME && !took_none)
			break;
		left = r->sqpoll ? 0 : io_uring_sq_ready(&r->ring);
		if (!left)
			return 0;
		atomic_fetch_add_explicit(&r->short_submits, 1,
					  memory_order_relaxed);
		if (left < queued && !took_none)
			continue;	/* it took some: the rest, now */
		if (!wait_nr)
			return 0;	/* the next wait submits them */
		held = ring_wait_limit(wait_nr, r->inflight, left);
		if (held) {
			ret = ring_wait(r, held);
			if (ret >= 0 || ret == -ETIME || ret == -EINTR)
				return 0;
			break;
		}
		/* It holds nothing to wait for: let it breathe. */
		if (++idle > 1000) {
			ret = -EAGAIN;
			break;
		}
		sched_yield();
	}
	return ring_error(r, "io_uring_enter: %s%s", strerror(-ret),
			  ret == -EAGAIN ? " (the kernel took none of the "
			  "queued requests; short of memory?)" : ""), ret;
}

/* A free submission queue entry, submitting what is queued if need be. */
static int ring_sqe(struct ring *r, struct io_uring_sqe **sqe)
{
	int ret;

	*sqe = io_uring_get_sqe(&r->ring);
	if (*sqe)
		return 0;
	ret = ring_enter(r, 0);		/* SQ ring full: make room */
	if (ret)
		return ret;
	*sqe = io_uring_get_sqe(&r->ring);
	if (!*sqe && r->sqpoll) {
		io_uring_sqring_wait(&r->ring);
		*sqe = io_uring_get_sqe(&r->ring);
	}
	if (!*sqe)
		return ring_error(r, "io_uring: no submission queue entry free"),
		       -EBUSY;
	return 0;
}

/* Queue the rest of slot s's transfer; first: its first one. */
int ring_prep(struct ring *r, unsigned s, bool first)
{
	struct slot *sl = &r->slots[s];
	struct io_uring_sqe *sqe;
	unsigned char *buf = sl->buf + sl->done;
	unsigned n = (unsigned)(sl->want - sl->done);
	uint64_t off = sl->off + sl->done;
	int ret = ring_sqe(r, &sqe);

	if (ret)
		return ret;
	if (r->fixed && sl->write)
		io_uring_prep_write_fixed(sqe, r->fd, buf, n, off,
					  (int)(s / r->vec_slots));
	else if (r->fixed)
		io_uring_prep_read_fixed(sqe, r->fd, buf, n, off,
					 (int)(s / r->vec_slots));
	else if (sl->write)
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

/* Queue a cancellation of the request(s) that match, under user_data ud. */
static int ring_prep_cancel(struct ring *r, uint64_t match, unsigned flags,
			    uint64_t ud)
{
	struct io_uring_sqe *sqe;
	int ret = ring_sqe(r, &sqe);

	if (ret)
		return ret;
	io_uring_prep_cancel64(sqe, match, (int)flags);
	io_uring_sqe_set_data64(sqe, ud);
	return 0;
}

/*
 * Queue the cancellation of everything in flight, under user_data ud: one
 * request that matches any other (IORING_ASYNC_CANCEL_ANY, Linux 5.19),
 * or, once the kernel has refused that (ring_complete), one per slot that
 * is busy (a slot of another ring's is not found there, which is
 * harmless).  *n: how many were queued.
 */
static int ring_prep_cancels(struct ring *r, uint64_t ud, unsigned *n)
{
	int ret = 0;

	*n = 0;
	if (!r->cancel_each && !(ret = ring_prep_cancel(r, 0,
					IORING_ASYNC_CANCEL_ANY, ud)))
		(*n)++;
	for (unsigned s = 0; r->cancel_each && s < r->nslots && !ret; s++)
		if (slot_state(&r->slots[s]) == ST_BUSY &&
		    !(ret = ring_prep_cancel(r, s, 0, ud)))
			(*n)++;
	return ret;
}

/*
 * Cancel everything in flight (ring_prep_cancels).  From now until
 * nothing is in flight, a transfer that comes back short or interrupted
 * is finished, not continued.
 */
int ring_cancel(struct ring *r)
{
	unsigned n;
	int ret;

	r->cancelling = true;
	ret = ring_prep_cancels(r, RING_CANCEL, &n);
	return ret ? ret : ring_enter(r, 0);
}

/* Send a stall's nudge: the cancellation of everything in flight, under
 * its own user_data, with r->cancelling left alone (what it catches is
 * submitted again). */
static int ring_nudge_send(struct ring *r)
{
	unsigned n;
	int ret = ring_prep_cancels(r, RING_NUDGE, &n);

	r->nudge_answers += n;
	return ret ? ret : ring_enter(r, 0);
}

/* One of the nudge's cancellations answered: CANCEL_ANY says how many
 * it found, 0 for none (those waiting for io-wq count once together: 8
 * such writes answer 1); one slot's says 0 (found, cancelled), -EALREADY
 * (found running: the kernel interrupts it) or -ENOENT. */
static void ring_nudge_answer(struct ring *r, int res)
{
	if (r->nudge_answers)
		r->nudge_answers--;
	if (res > 0)
		r->nudge_found += (unsigned)res;
	else if ((res == 0 && r->cancel_each) || res == -EALREADY)
		r->nudge_found++;
}

/* A slot's completion that a nudge caused, to submit again: cancelled
 * while the ring is not cancelling (only a nudge cancels then), or
 * interrupted while a stall's nudge is out (the kernel interrupts a
 * request it found running). */
static bool ring_nudged_back(const struct ring *r, int res)
{
	if (r->cancelling)
		return false;
	if (res == -ECANCELED)
		return atomic_load_explicit(&r->nudges, memory_order_relaxed);
	return res == -EINTR && r->nudged;
}

/*
 * After a reap: count a wait that ran out its time with requests in
 * flight and none of them back, and act on stall_waits such waits in a
 * row.  The first time, nudge.  The next time, if the nudge found none of
 * them in the kernel, they are lost: a file's ring fails, with that said
 * (-ETIMEDOUT), and gives them up as ring_cancel() would.  A stream's
 * request may rightly wait for its writer, and is nudged again, as is a
 * request the nudge found (running, or taken again and still not back):
 * the kernel holds it, and ring_cancel() is the way out.
 *
 * Only a request whose completion came back ECANCELED is submitted
 * again.  The kernel posts one completion per request, so the new one
 * cannot meet a late completion of the old and count twice.  A request
 * the kernel says it does not hold is never resubmitted: if it completed
 * after all, into the same buffer and under the same user_data, telling
 * its completion from the new one's would need a generation in user_data,
 * and a write would be done twice; failing says what happened instead.
 */
static int ring_stall(struct ring *r)
{
	double s;

	if (r->heard || !r->inflight || r->cancelling) {
		r->quiet = 0;
		r->nudged = false;
		return 0;
	}
	if (!r->timed_out || ++r->quiet < r->stall_waits)
		return 0;
	r->quiet = 0;
	if (!r->nudged || r->nudge_found || r->stream) {
		r->nudged = true;
		r->nudge_found = r->nudge_answers = 0;
		atomic_fetch_add_explicit(&r->nudges, 1, memory_order_relaxed);
		return ring_nudge_send(r);
	}
	s = 2.0 * r->stall_waits * r->wait_ms / 1e3;
	/* Given up on, as on a stop: drain() waits a little, not for a
	 * stall again, and teardown leaves them to the ring's exit. */
	r->cancelling = true;
	return ring_error(r, "io_uring: no completion in %g s for %u request%s "
			  "in flight, and the kernel %s (lost)", s, r->inflight,
			  r->inflight == 1 ? "" : "s", r->nudge_answers ?
			  "did not answer their cancellation" :
			  "holds none of them"), -ETIMEDOUT;
}

void ring_stats_add(const struct ring *r, struct ring_stats *st)
{
	unsigned ms = r->wait_ms * r->stall_waits;

	st->short_submits += atomic_load_explicit(&r->short_submits,
						  memory_order_relaxed);
	st->nudges += atomic_load_explicit(&r->nudges, memory_order_relaxed);
	st->resubmits += atomic_load_explicit(&r->resubmits,
					      memory_order_relaxed);
	if (ms > st->stall_ms)
		st->stall_ms = ms;
}

/* Slot s is done with its transfers (for now). */
static void ring_finish(struct ring *r, unsigned s, unsigned st, uint64_t now)
{
	struct slot *sl = &r->slots[s];

	if (r->lat && st != ST_ERROR)
		hist_record(r->lat, now - sl->t_sub);
	r->inflight--;
	if (!r->inflight)
		r->cancelling = false;	/* what it was for is over */
	r->done[r->ndone++] = s;
	slot_set(sl, st);		/* last: it publishes the slot */
}

/* The rest of slot s's transfer, or, once it is being cancelled, its end. */
static int ring_again(struct ring *r, unsigned s, uint64_t now)
{
	if (!r->cancelling)
		return ring_prep(r, s, false);
	r->slots[s].err = ECANCELED;
	ring_finish(r, s, ST_ERROR, now);
	return 0;
}

static int ring_complete(struct ring *r, const struct io_uring_cqe *cqe,
			 uint64_t now)
{
	uint64_t ud = io_uring_cqe_get_data64(cqe);
	unsigned s = (unsigned)ud;
	struct slot *sl;
	int res = cqe->res;

	if (ud >= r->nslots) {		/* no slot's */
		/* CANCEL_ANY came with Linux 5.19: before, one at a time */
		if ((ud == RING_CANCEL || ud == RING_NUDGE) && res == -EINVAL &&
		    !r->cancel_each) {
			r->cancel_each = true;
			if (ud == RING_CANCEL)
				return ring_cancel(r);
			r->nudge_answers = 0;
			return r->cancelling ? 0 : ring_nudge_send(r);
		}
		if (ud == RING_NUDGE)
			ring_nudge_answer(r, res);
		return 0;
	}
	sl = &r->slots[s];
	r->heard = true;
	if (ring_nudged_back(r, res)) {
		atomic_fetch_add_explicit(&r->resubmits, 1,
					  memory_order_relaxed);
		return ring_again(r, s, now);
	}
	if (res == -EAGAIN || res == -EINTR)
		return ring_again(r, s, now);
	if (res < 0) {
		sl->err = -res;
		ring_finish(r, s, ST_ERROR, now);
		return 0;
	}
	if (sl->write) {
		if (res == 0) {
			sl->err = 0;
			ring_finish(r, s, ST_ERROR, now);
			return 0;
		}
		sl->done += (size_t)res;
		if (sl->done < sl->want)
			return ring_again(r, s, now);
		ring_finish(r, s, ST_WRITTEN, now);
		return 0;
	}
	sl->done += (size_t)res;
	/* More to read, unless the file ended: a read that returned
	 * nothing, or a direct read that stopped at an unaligned length. */
	if (sl->done < sl->len && res > 0 &&
	    !(r->direct && sl->done % BUF_ALIGN))
		return ring_again(r, s, now);
	/* A file the planner sized ends inside the job's region: it
	 * shrank under the job (a stream just ends). */
	if (!r->stream && sl->done < sl->len) {
		sl->err = 0;
		ring_finish(r, s, ST_ERROR, now);
		return 0;
	}
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
int ring_reap(struct ring *r, unsigned wait_nr)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t now = 0;
	int ret, first = 0;

	r->ndone = 0;
	r->heard = r->timed_out = false;
	if (wait_nr > r->inflight)
		wait_nr = r->inflight;
	ret = ring_enter(r, wait_nr);
	if (ret)
		return ret;
	if (r->lat)
		now = mono_ns();
	io_uring_for_each_cqe(&r->ring, head, cqe) {
		ret = ring_complete(r, cqe, now);
		if (ret && !first)
			first = ret;
		n++;
	}
	io_uring_cq_advance(&r->ring, n);
	return first ? first : ring_stall(r);
}

int ring_cancel_wait(struct ring *r, unsigned max_idle)
{
	unsigned idle = 0;
	int ret = r->inflight ? ring_cancel(r) : 0;

	while (!ret && r->inflight && idle < max_idle) {
		unsigned before = r->inflight;

		ret = ring_reap(r, r->inflight);
		idle = r->inflight < before ? 0 : idle + 1;
	}
	if (ret)
		return ret;
	return r->inflight ? -EINTR : 0;
}

/* A failed slot, reported from the job's thread (uring_single.c and
 * uring_pool.c share it). */
int report_slot(struct ioe *e, struct uring_priv *p, struct slot *sl)
{
	if (!sl->err && !sl->write) {
		ioe_error(e, "%s ends at offset %" PRIu64 ", inside the job's "
			  "region (the block at %" PRIu64 " needs %zu bytes)",
			  e->path, sl->off + sl->done, sl->off, sl->len);
		return -EIO;
	}
	if (!sl->err) {
		ioe_error(e, "io_uring write %s at offset %" PRIu64 " wrote nothing",
			  e->path, sl->off + sl->done);
		return -EIO;
	}
	ioe_error(e, "io_uring %s %s at offset %" PRIu64 ": %s%s",
		  sl->write ? "write" : "read", e->path, sl->off + sl->done,
		  strerror(sl->err), ioe_direct_hint(p->direct, sl->err));
	return -sl->err;
}
