/*
 * io_uring.c - ioengine "io_uring": iodepth reads or writes in flight.
 *
 * This is seed 003's O_DIRECT pipeline in its simplest correct form: a
 * ring of iodepth entries and iodepth buffers (4096-aligned, for
 * direct=1).  Every buffer is a slot that is free, in flight, ready (read
 * complete, not yet handed out) or held by the job's thread.
 *
 * Reads: get() keeps every free slot busy with the blockgen's next blocks
 * (one io_uring_submit per batch), then hands out completed reads in the
 * order they complete; put() frees the slot and at once reads the next
 * block into it.  Writes: get() hands out a free buffer (waiting for a
 * write to complete when none is free) and put() submits it.  Either way
 * get() returns 0 once the pass's blocks are all done and nothing is in
 * flight, so a write pass includes its last completions.
 *
 * Short transfers are continued where they stopped; -EAGAIN and -EINTR
 * are retried.  Direct reads are rounded up to 4096 bytes so that the
 * short last block of a file can be read; a direct read that stops at an
 * unaligned length is the end of the file.  A block that lies wholly past
 * the end of the file (offset+size beyond it) is skipped: with reads in
 * flight there is no single point at which to cut the pass short.  Write
 * buffers hold the pattern's first bs bytes from setup on and are never
 * refilled.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filegen.h"
#include "ioengine.h"

#define BUF_ALIGN	4096
#define MAX_DEPTH	32768		/* the kernel's IORING_MAX_ENTRIES */

enum slot_state { SLOT_FREE, SLOT_INFLIGHT, SLOT_READY, SLOT_HELD };

struct uring_slot {
	unsigned char *buf;
	uint64_t off;			/* the block's offset */
	size_t len;			/* the block's length; on READY, what to deliver */
	size_t want;			/* bytes asked for (direct: rounded up) */
	size_t done;			/* bytes transferred so far */
	enum slot_state state;
};

struct uring_priv {
	struct io_uring ring;
	bool ring_ok;
	int fd;
	bool write, direct;
	unsigned depth;
	unsigned char *bufs;
	struct uring_slot *slots;
	unsigned *freelist;		/* stack of free slots */
	unsigned nfree;
	unsigned *ready;		/* FIFO of completed reads */
	unsigned ready_head, nready;
	unsigned inflight;		/* prepared and not yet completed */
	unsigned pending;		/* prepared and not yet submitted */
};

static int uring_validate(const struct job_spec *job, struct diag *d)
{
	if (job->iodepth <= MAX_DEPTH)
		return 0;
	diag_error(d, job_loc(job, "iodepth"), "iodepth",
		   "io_uring allows at most %d, got %u", MAX_DEPTH,
		   job->iodepth);
	return -1;
}

static const char *const uring_options[] = {
	"direct", "sync", "iodepth", NULL
};

static const char *direct_hint(const struct uring_priv *p, int err)
{
	if (p->direct && err == EINVAL)
		return " (O_DIRECT needs offset and length aligned to the device's logical block size)";
	return "";
}

/* Submit what was prepared. */
static int uring_flush(struct ioe *e, struct uring_priv *p)
{
	while (p->pending) {
		int ret = io_uring_submit(&p->ring);

		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			ioe_error(e, "io_uring_submit: %s", strerror(-ret));
			return ret;
		}
		if (ret == 0) {		/* nothing left in the SQ ring */
			p->pending = 0;
			break;
		}
		p->pending -= (unsigned)ret < p->pending ? (unsigned)ret : p->pending;
	}
	return 0;
}

/* Queue the rest of slot s's transfer. */
static int uring_prep(struct ioe *e, struct uring_priv *p, unsigned s)
{
	struct uring_slot *sl = &p->slots[s];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
	int ret;

	if (!sqe) {			/* SQ ring full: make room */
		ret = uring_flush(e, p);
		if (ret)
			return ret;
		sqe = io_uring_get_sqe(&p->ring);
		if (!sqe) {
			ioe_error(e, "io_uring: no submission queue entry free");
			return -EBUSY;
		}
	}
	if (p->write)
		io_uring_prep_write(sqe, p->fd, sl->buf + sl->done,
				    (unsigned)(sl->want - sl->done), sl->off + sl->done);
	else
		io_uring_prep_read(sqe, p->fd, sl->buf + sl->done,
				   (unsigned)(sl->want - sl->done), sl->off + sl->done);
	io_uring_sqe_set_data64(sqe, s);
	if (sl->state != SLOT_INFLIGHT)
		p->inflight++;
	sl->state = SLOT_INFLIGHT;
	p->pending++;
	return 0;
}

/* Start reads of the blockgen's next blocks in every free slot. */
static int uring_fill(struct ioe *e, struct uring_priv *p)
{
	uint64_t off;
	size_t len;
	int ret;

	while (p->nfree && blockgen_next(e->gen, &off, &len)) {
		unsigned s = p->freelist[--p->nfree];
		struct uring_slot *sl = &p->slots[s];

		sl->off = off;
		sl->len = len;
		sl->want = p->direct ? (len + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN : len;
		sl->done = 0;
		ret = uring_prep(e, p, s);
		if (ret)
			return ret;
	}
	return uring_flush(e, p);
}

static void slot_free(struct uring_priv *p, unsigned s)
{
	p->slots[s].state = SLOT_FREE;
	p->freelist[p->nfree++] = s;
}

static void slot_ready(struct uring_priv *p, unsigned s)
{
	struct uring_slot *sl = &p->slots[s];

	if (sl->done < sl->len)
		sl->len = sl->done;
	sl->state = SLOT_READY;
	p->ready[(p->ready_head + p->nready++) % p->depth] = s;
}

/* A read has finished (partly): deliver, continue, or drop at EOF. */
static int uring_read_done(struct ioe *e, struct uring_priv *p, unsigned s)
{
	struct uring_slot *sl = &p->slots[s];

	if (sl->done == 0) {
		slot_free(p, s);	/* the block starts at or after EOF */
		return 0;
	}
	/* A direct read cannot go on from an unaligned length: EOF. */
	if (sl->done < sl->len && !(p->direct && sl->done % BUF_ALIGN))
		return uring_prep(e, p, s);
	slot_ready(p, s);
	return 0;
}

static int uring_complete(struct ioe *e, struct uring_priv *p,
			  const struct io_uring_cqe *cqe)
{
	unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
	struct uring_slot *sl = &p->slots[s];
	int res = cqe->res;

	p->inflight--;
	sl->state = SLOT_FREE;	/* until decided below */
	if (res == -EAGAIN || res == -EINTR)
		return uring_prep(e, p, s);
	if (res < 0) {
		slot_free(p, s);
		ioe_error(e, "io_uring %s %s at offset %" PRIu64 ": %s%s",
			  p->write ? "write" : "read", e->path, sl->off + sl->done,
			  strerror(-res), direct_hint(p, -res));
		return res;
	}
	if (!p->write) {
		if (res == 0) {		/* EOF: what we have is the block */
			if (sl->done)
				slot_ready(p, s);
			else
				slot_free(p, s);
			return 0;
		}
		sl->done += (size_t)res;
		return uring_read_done(e, p, s);
	}
	if (res == 0) {
		slot_free(p, s);
		ioe_error(e, "io_uring write %s at offset %" PRIu64 " wrote nothing",
			  e->path, sl->off + sl->done);
		return -EIO;
	}
	sl->done += (size_t)res;
	if (sl->done < sl->want)
		return uring_prep(e, p, s);
	slot_free(p, s);
	return 0;
}

/* Wait for at least one completion and handle all that are there. */
static int uring_reap(struct ioe *e, struct uring_priv *p)
{
	struct io_uring_cqe *cqe;
	int ret;

	ret = uring_flush(e, p);
	if (ret)
		return ret;
	do
		ret = io_uring_wait_cqe(&p->ring, &cqe);
	while (ret == -EINTR);
	if (ret) {
		ioe_error(e, "io_uring_wait_cqe: %s", strerror(-ret));
		return ret;
	}
	while (!io_uring_peek_cqe(&p->ring, &cqe)) {
		ret = uring_complete(e, p, cqe);
		io_uring_cqe_seen(&p->ring, cqe);
		if (ret)
			return ret;
	}
	return uring_flush(e, p);
}

static void slot_hand_out(struct uring_priv *p, unsigned s, struct io_unit *u)
{
	struct uring_slot *sl = &p->slots[s];

	sl->state = SLOT_HELD;
	u->buf = sl->buf;
	u->len = sl->len;
	u->off = sl->off;
	u->slot = s;
}

static int uring_get_read(struct ioe *e, struct uring_priv *p, struct io_unit *u)
{
	int ret;

	for (;;) {
		ret = uring_fill(e, p);
		if (ret)
			return ret;
		if (p->nready) {
			unsigned s = p->ready[p->ready_head];

			p->ready_head = (p->ready_head + 1) % p->depth;
			p->nready--;
			slot_hand_out(p, s, u);
			return 1;
		}
		if (!p->inflight)
			return 0;
		ret = uring_reap(e, p);
		if (ret)
			return ret;
	}
}

static int uring_get_write(struct ioe *e, struct uring_priv *p, struct io_unit *u)
{
	struct uring_slot *sl;
	uint64_t off;
	size_t len;
	unsigned s;
	int ret;

	if (!blockgen_next(e->gen, &off, &len)) {
		while (p->inflight) {	/* the pass ends with its writes */
			ret = uring_reap(e, p);
			if (ret)
				return ret;
		}
		return 0;
	}
	while (!p->nfree) {
		ret = uring_reap(e, p);
		if (ret)
			return ret;
	}
	s = p->freelist[--p->nfree];
	sl = &p->slots[s];
	sl->off = off;
	sl->len = len;
	sl->want = len;
	sl->done = 0;
	slot_hand_out(p, s, u);
	return 1;
}

static int uring_get(struct ioe *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;

	return p->write ? uring_get_write(e, p, u) : uring_get_read(e, p, u);
}

static int uring_put(struct ioe *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;
	int ret;

	if (u->slot >= p->depth || p->slots[u->slot].state != SLOT_HELD) {
		ioe_error(e, "io_uring: put of a unit that was not handed out");
		return -EINVAL;
	}
	if (!p->write) {
		slot_free(p, u->slot);
		return uring_fill(e, p);
	}
	p->slots[u->slot].len = u->len;
	p->slots[u->slot].want = u->len;
	ret = uring_prep(e, p, u->slot);
	if (ret)
		return ret;
	return uring_flush(e, p);
}

/* Wait for everything in flight without starting anything new. */
static int uring_drain(struct ioe *e)
{
	struct uring_priv *p = e->priv;
	struct io_uring_cqe *cqe;
	int ret, first = 0;

	ret = uring_flush(e, p);
	if (ret) {
		first = ret;
		p->inflight -= p->pending;	/* those will never complete */
		p->pending = 0;
	}
	while (p->inflight) {
		ret = io_uring_wait_cqe(&p->ring, &cqe);
		if (ret == -EINTR)
			continue;
		if (ret) {
			ioe_error(e, "io_uring_wait_cqe: %s", strerror(-ret));
			return ret;
		}
		if (p->write && cqe->res < 0 && !first) {
			first = cqe->res;
			ioe_error(e, "io_uring write %s: %s", e->path,
				  strerror(-cqe->res));
		}
		io_uring_cqe_seen(&p->ring, cqe);
		p->inflight--;
	}
	p->nfree = 0;
	for (unsigned s = 0; s < p->depth; s++)
		slot_free(p, s);
	p->nready = 0;
	p->ready_head = 0;
	return first;
}

static void uring_teardown(struct ioe *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	if (p->ring_ok) {
		/* No buffer may be freed while the kernel can still DMA into it. */
		if (p->inflight)
			uring_drain(e);
		io_uring_queue_exit(&p->ring);
	}
	if (p->fd >= 0)
		close(p->fd);
	free(p->bufs);
	free(p->slots);
	free(p->freelist);
	free(p->ready);
	free(p);
	e->priv = NULL;
}

static int uring_alloc(struct ioe *e, struct uring_priv *p)
{
	const struct job_spec *job = e->job;
	size_t stride = (job->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	void *bufs;
	int ret;

	p->slots = calloc(p->depth, sizeof(*p->slots));
	p->freelist = calloc(p->depth, sizeof(*p->freelist));
	p->ready = calloc(p->depth, sizeof(*p->ready));
	if (!p->slots || !p->freelist || !p->ready) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	ret = posix_memalign(&bufs, BUF_ALIGN, stride * p->depth);
	if (ret) {
		ioe_error(e, "cannot allocate %u buffers of %zu bytes: %s",
			  p->depth, stride, strerror(ret));
		return -ret;
	}
	p->bufs = bufs;
	for (unsigned s = 0; s < p->depth; s++) {
		p->slots[s].buf = p->bufs + (size_t)s * stride;
		if (p->write)
			pattern_fill(&job->pattern, job->pattern_seed, 0,
				     p->slots[s].buf, job->bs);
		slot_free(p, s);
	}
	return 0;
}

static int uring_setup(struct ioe *e)
{
	const struct job_spec *job = e->job;
	struct uring_priv *p;
	int flags, ret;

	p = calloc(1, sizeof(*p));
	if (!p) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	p->fd = -1;
	p->write = RW_IS_WRITE(job->rw);
	p->direct = job->direct;
	p->depth = job->iodepth ? job->iodepth : 1;
	e->priv = p;

	ret = io_uring_queue_init(p->depth, &p->ring, 0);
	if (ret < 0) {
		ioe_error(e, "io_uring unavailable: io_uring_queue_init(%u entries): %s%s",
			  p->depth, strerror(-ret),
			  ret == -ENOSYS || ret == -EPERM ?
			  " (disabled by kernel.io_uring_disabled or a seccomp filter?)" : "");
		goto out;
	}
	p->ring_ok = true;
	ret = uring_alloc(e, p);
	if (ret)
		goto out;
	flags = (p->write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync)
		flags |= O_SYNC;
	p->fd = open(e->path, flags);
	if (p->fd < 0) {
		ret = -errno;
		ioe_error(e, "open %s%s: %s", e->path,
			  job->direct ? " with O_DIRECT" : "", strerror(-ret));
		goto out;
	}
	return 0;

out:
	uring_teardown(e);
	return ret;
}

const struct ioengine_ops ioengine_io_uring = {
	.name = "io_uring",
	.help = "reads and writes through io_uring with iodepth in flight (direct=1: O_DIRECT)",
	.flags = IOE_FILE,
	.options = uring_options,
	.validate = uring_validate,
	.setup = uring_setup,
	.get = uring_get,
	.put = uring_put,
	.drain = uring_drain,
	.teardown = uring_teardown,
};
