/*
 * libaio.c - ioengine "libaio": Linux native AIO (io_setup, io_submit,
 * io_getevents through Debian's libaio), fio's most used engine.
 *
 * The one idea: iodepth slots, each with its own buffer and iocb, move
 * between a free stack, the kernel and a FIFO of completed reads.  Reads:
 * get() hands out a completed read if there is one; otherwise it gives
 * every free slot the blockgen's next block, submits them (in one
 * io_submit(), or iodepth_batch_submit at a time), and waits for
 * completions.  Writes: get() hands out a free
 * slot, the kernel fills it, put() queues its write.  Mixed (rw, randrw):
 * a block the blockgen says to write is ready at once, holding the
 * pattern's bytes for its offset, and put() writes it.  Queued writes go
 * to the kernel when iodepth_batch_submit of them are queued (one by one
 * without it) and whenever the job waits.
 *
 * Waits are bounded (WAIT_NS) so that the stop flag (SIGINT, SIGTERM) is
 * seen within a fraction of a second with I/O outstanding: get() gives up
 * with -EINTR, and drain() cancels what it can and waits a bounded time
 * for the rest.  A read that completes short inside the job's region is
 * an error, as with psync (the file shrank or lies about its size).
 *
 * Optional: configure builds this file only where it finds libaio
 * (optional_ioengine in configure); otherwise the registry does not list
 * it, and a job that names it is refused with the reason and the fix.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioengines/ioengine.h"
#include "spec/options.h"

/* libaio's own options: the queue and its batches; O_DIRECT, O_SYNC */
static const char *const libaio_options[] = {
	"direct", "sync", "iodepth", "iodepth_batch_submit",
	"iodepth_batch_complete", "fadvise_hint", NULL
};

#include <libaio.h>

#include "ioengines/filegen.h"
#include "util/clock.h"

#define BUF_ALIGN	4096
#define WAIT_NS		100000000L	/* look at the stop flag this often */
#define STOP_WAITS	10		/* drain: at most ~1 s of them */

struct aio_slot {
	struct iocb cb;
	unsigned char *buf;
	uint64_t off;
	size_t len;			/* the block */
	size_t want;			/* what was asked (direct: rounded up) */
	uint64_t t0;			/* submitted at, for latency */
	bool write;
};

struct libaio_priv {
	int fd;
	io_context_t ctx;
	unsigned depth;
	size_t bufsize;
	bool direct, mixed;
	struct aio_slot *slots;
	unsigned *freelist, nfree;
	unsigned *ready, ready_head, nready;	/* completed reads, FIFO */
	struct iocb **queue;			/* prepared, not submitted */
	unsigned nqueued;
	unsigned inflight;			/* submitted, not reaped */
	struct io_event *events;
};

static void slot_free(struct libaio_priv *p, unsigned s)
{
	p->freelist[p->nfree++] = s;
}

static void ready_push(struct libaio_priv *p, unsigned s)
{
	p->ready[(p->ready_head + p->nready++) % p->depth] = s;
}

static void hand_out(struct libaio_priv *p, unsigned s, struct io_unit *u)
{
	struct aio_slot *sl = &p->slots[s];

	u->buf = sl->buf;
	u->len = sl->len;
	u->off = sl->off;
	u->slot = s;
	u->write = sl->write;
}

static void queue_io(struct ioe *e, struct libaio_priv *p, unsigned s)
{
	struct aio_slot *sl = &p->slots[s];

	if (sl->write)
		io_prep_pwrite(&sl->cb, p->fd, sl->buf, sl->len, (long long)sl->off);
	else
		io_prep_pread(&sl->cb, p->fd, sl->buf, sl->want, (long long)sl->off);
	sl->cb.data = sl;
	if (e->lat)
		sl->t0 = mono_ns();
	p->queue[p->nqueued++] = &sl->cb;
}

/* Hand the queued iocbs to the kernel, iodepth_batch_submit of them per
 * io_submit() (all at once without it); a partial submission goes on
 * with the rest.  EAGAIN (the kernel's queue is full) leaves the rest
 * queued: the caller reaps, then submits again.  (Buffered reads are
 * done inside io_submit(), one after the other: many in one call wait
 * for the CPU after each page, and on a busy machine fio's one-by-one
 * submission read 50 times as fast.) */
static int submit(struct ioe *e, struct libaio_priv *p)
{
	unsigned done = 0, batch = e->job->iodepth_batch_submit;

	while (done < p->nqueued) {
		unsigned want = p->nqueued - done;
		int n;

		if (batch && want > batch)
			want = batch;
		n = io_submit(p->ctx, (long)want, p->queue + done);

		if (n == -EINTR)
			continue;
		if (n == -EAGAIN && p->inflight)
			break;
		if (n < 0) {
			ioe_error(e, "io_submit %s: %s", e->path, strerror(-n));
			return n;
		}
		done += (unsigned)n;
		p->inflight += (unsigned)n;
	}
	memmove(p->queue, p->queue + done,
		(p->nqueued - done) * sizeof(struct iocb *));
	p->nqueued -= done;
	return 0;
}

/* One completion: reads to the ready FIFO, writes back to the free
 * stack.  Failures and short I/O are described and returned. */
static int complete(struct ioe *e, struct libaio_priv *p,
		    const struct io_event *ev)
{
	struct aio_slot *sl = ev->data;
	unsigned s = (unsigned)(sl - p->slots);
	long res = (long)ev->res;

	p->inflight--;
	if (e->lat)
		hist_record(e->lat, mono_ns() - sl->t0);
	if (res < 0) {
		ioe_error(e, "libaio %s %s at offset %" PRIu64 ": %s%s",
			  sl->write ? "write" : "read", e->path, sl->off,
			  strerror((int)-res), ioe_direct_hint(p->direct, (int)-res));
		slot_free(p, s);
		return (int)res;
	}
	if ((size_t)res < sl->len) {
		if (sl->write)
			ioe_error(e, "libaio write %s at offset %" PRIu64
				  " wrote %ld of %zu bytes (is the disk full?)",
				  e->path, sl->off, res, sl->len);
		else
			ioe_error(e, "%s ends at offset %" PRIu64 ", inside "
				  "the job's region (the block at %" PRIu64
				  " needs %zu bytes)", e->path,
				  sl->off + (uint64_t)res, sl->off, sl->len);
		slot_free(p, s);
		return -EIO;
	}
	if (sl->write)
		slot_free(p, s);
	else
		ready_push(p, s);
	return 0;
}

/* Submit what is queued and wait for at least min_nr completions, in
 * bounded steps; with the stop flag set, give up with -EINTR. */
static int reap(struct ioe *e, struct libaio_priv *p, unsigned min_nr)
{
	unsigned got = 0;
	int first = 0, ret;

	ret = submit(e, p);
	if (ret)
		return ret;
	if (min_nr > p->inflight)
		min_nr = p->inflight;
	while (got < min_nr || (!got && p->inflight)) {
		struct timespec ts = { 0, WAIT_NS };
		int n = io_getevents(p->ctx, 1, (long)p->depth, p->events, &ts);

		if (n < 0 && n != -EINTR) {
			ioe_error(e, "io_getevents %s: %s", e->path,
				  strerror(-n));
			return n;
		}
		for (int i = 0; i < n; i++) {
			ret = complete(e, p, &p->events[i]);
			if (ret && !first)
				first = ret;
		}
		got += n > 0 ? (unsigned)n : 0;
		if (first)
			return first;
		if (n <= 0 && ioe_stopped(e)) {
			ioe_error(e, "libaio: stopped with %u I/Os in flight",
				  p->inflight);
			return -EINTR;
		}
		if (n <= 0 && ioe_past_deadline(e)) {
			ioe_error(e, "libaio: runtime ended with %u I/Os in "
				  "flight", p->inflight);
			return -ETIME;
		}
		if (p->nqueued) {	/* room now for what EAGAIN left */
			ret = submit(e, p);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static unsigned batch_wait(const struct job_spec *job)
{
	return job->iodepth_batch_complete ? job->iodepth_batch_complete : 1;
}

/* Give every free slot the next block: reads are queued, a mixed job's
 * written block is ready at once with the pattern's bytes for it. */
static void fill(struct ioe *e, struct libaio_priv *p)
{
	const struct job_spec *job = e->job;
	uint64_t off;
	size_t len;

	while (p->nfree && blockgen_next(e->gen, &off, &len)) {
		unsigned s = p->freelist[--p->nfree];
		struct aio_slot *sl = &p->slots[s];

		sl->off = off;
		sl->len = len;
		sl->want = p->direct ? (len + BUF_ALIGN - 1) / BUF_ALIGN *
				       BUF_ALIGN : len;
		sl->write = p->mixed && e->gen->last_write;
		if (sl->write) {
			pattern_fill(&job->pattern, job->pattern_seed, off,
				     sl->buf, len);
			ready_push(p, s);
		} else {
			queue_io(e, p, s);
		}
	}
}

static int get_read(struct ioe *e, struct libaio_priv *p, struct io_unit *u)
{
	int ret;

	for (;;) {
		if (!p->nready || e->job->iodepth_batch_submit)
			fill(e, p);
		if (p->nready) {
			unsigned s = p->ready[p->ready_head];

			p->ready_head = (p->ready_head + 1) % p->depth;
			p->nready--;
			hand_out(p, s, u);
			return 1;
		}
		if (!p->inflight && !p->nqueued)
			return 0;
		ret = reap(e, p, batch_wait(e->job));
		if (ret)
			return ret;
	}
}

static int get_write(struct ioe *e, struct libaio_priv *p, struct io_unit *u)
{
	uint64_t off;
	size_t len;
	unsigned s;
	int ret;

	if (!blockgen_next(e->gen, &off, &len)) {
		while (p->inflight || p->nqueued) {	/* the pass's writes */
			ret = reap(e, p, p->inflight + p->nqueued);
			if (ret)
				return ret;
		}
		return 0;
	}
	while (!p->nfree) {
		ret = reap(e, p, batch_wait(e->job));
		if (ret)
			return ret;
	}
	s = p->freelist[--p->nfree];
	p->slots[s].off = off;
	p->slots[s].len = p->slots[s].want = len;
	p->slots[s].write = true;
	hand_out(p, s, u);
	return 1;
}

static int libaio_get(struct ioe *e, struct io_unit *u)
{
	struct libaio_priv *p = e->priv;

	return RW_IS_WRITE(e->job->rw) ? get_write(e, p, u)
				       : get_read(e, p, u);
}

static int libaio_put(struct ioe *e, struct io_unit *u)
{
	struct libaio_priv *p = e->priv;
	unsigned batch = e->job->iodepth_batch_submit;

	if (!p->slots[u->slot].write) {
		slot_free(p, u->slot);
		return 0;
	}
	p->slots[u->slot].len = u->len;
	queue_io(e, p, u->slot);
	if (p->nqueued >= (batch ? batch : 1))
		return submit(e, p);
	return 0;
}

static void cancel_all(struct libaio_priv *p)
{
	for (unsigned s = 0; s < p->depth; s++) {
		struct io_event ev;

		io_cancel(p->ctx, &p->slots[s].cb, &ev);
	}
}

/* Wait for what is in flight.  Stopped: cancel what the kernel lets us
 * (regular files mostly complete anyway) and give up after STOP_WAITS
 * waits; io_destroy() in teardown reaps the rest. */
static int libaio_drain(struct ioe *e)
{
	struct libaio_priv *p = e->priv;
	int first = 0;

	bool cancelled = ioe_stopped(e);

	if (!ioe_stopped(e) && submit(e, p))
		first = -EIO;
	p->nqueued = 0;
	if (cancelled)
		cancel_all(p);
	for (unsigned w = 0; p->inflight && w < STOP_WAITS; w++) {
		struct timespec ts = { 0, WAIT_NS };
		int n = io_getevents(p->ctx, 1, (long)p->depth, p->events, &ts);

		for (int i = 0; i < n; i++) {
			struct aio_slot *sl = p->events[i].data;
			long res = (long)p->events[i].res;

			p->inflight--;
			if (sl->write && !first && res < 0 && res != -ECANCELED) {
				ioe_error(e, "libaio write %s at offset %" PRIu64
					  ": %s", e->path, sl->off,
					  strerror((int)-res));
				first = (int)res;
			}
		}
		if (!cancelled && ioe_drain_overdue(e)) {
			cancel_all(p);	/* past the deadline: a stop */
			cancelled = true;
		}
		if (!cancelled)
			w = 0;		/* not stopped: wait for all */
	}
	p->nfree = p->nready = p->ready_head = 0;
	for (unsigned s = 0; s < p->depth; s++)
		slot_free(p, s);
	return first;
}

static int libaio_sync(struct ioe *e, bool data_only)
{
	return ioe_sync_fd(e, ((struct libaio_priv *)e->priv)->fd, data_only);
}

static void libaio_teardown(struct ioe *e)
{
	struct libaio_priv *p = e->priv;

	if (!p)
		return;
	if (p->ctx)
		io_destroy(p->ctx);
	if (p->fd >= 0)
		close(p->fd);
	for (unsigned s = 0; p->slots && s < p->depth; s++)
		free(p->slots[s].buf);
	free(p->slots);
	free(p->freelist);
	free(p->ready);
	free(p->queue);
	free(p->events);
	free(p);
	e->priv = NULL;
}

static int libaio_setup(struct ioe *e)
{
	const struct job_spec *job = e->job;
	bool write = RW_WRITES(job->rw);
	struct libaio_priv *p;
	int ret;

	p = ioe_priv_alloc(e, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->fd = -1;
	p->depth = job->iodepth;
	p->direct = job->direct;
	p->mixed = RW_IS_MIXED(job->rw);
	p->bufsize = (job->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	p->slots = calloc(p->depth, sizeof(*p->slots));
	p->freelist = calloc(p->depth, sizeof(*p->freelist));
	p->ready = calloc(p->depth, sizeof(*p->ready));
	p->queue = calloc(p->depth, sizeof(struct iocb *));
	p->events = calloc(p->depth, sizeof(*p->events));
	if (!p->slots || !p->freelist || !p->ready || !p->queue || !p->events) {
		ioe_error(e, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned s = p->depth; s-- > 0;) {
		void *buf;

		ret = posix_memalign(&buf, BUF_ALIGN, p->bufsize);
		if (ret) {
			ioe_error(e, "cannot allocate %u buffers of %zu bytes: "
				  "%s", p->depth, p->bufsize, strerror(ret));
			ret = -ret;
			goto out;
		}
		p->slots[s].buf = buf;
		if (write)
			pattern_fill(&job->pattern, job->pattern_seed, 0, buf,
				     job->bs);
		else
			ioe_fault_in(buf, p->bufsize);
		slot_free(p, s);
	}
	p->fd = ioe_open_job_file(e);
	if (p->fd < 0) {
		ret = p->fd;
		goto out;
	}
	ret = io_setup((int)p->depth, &p->ctx);
	if (ret < 0) {
		p->ctx = 0;
		ioe_error(e, "io_setup(%u): %s%s", p->depth, strerror(-ret),
			  ret == -EAGAIN ? " (iodepth beyond what "
			  "fs.aio-max-nr leaves free)" : "");
		goto out;
	}
	return 0;
out:
	libaio_teardown(e);
	return ret;
}

const struct ioengine_ops ioengine_libaio = {
	.name = "libaio",
	.help = "Linux native AIO (io_submit/io_getevents) with iodepth in "
		"flight; direct=1 for O_DIRECT, as fio's libaio",
	.flags = IOE_FILE | IOE_MIXED,
	.options = libaio_options,
	.setup = libaio_setup,
	.get = libaio_get,
	.put = libaio_put,
	.drain = libaio_drain,
	.sync = libaio_sync,
	.teardown = libaio_teardown,
};
