/*
 * uring_single.c - io_uring with ioworkers=0: the job's thread owns one
 * ring of iodepth slots and drives it from get() and put().
 *
 * The one idea: the job's thread only waits when it has nothing else to
 * do.  Reads: get() hands out a completed read if there is one; when
 * there is none (or iodepth_batch_submit is set) it first gives every
 * free slot the blockgen's next block to read, and with none ready it
 * waits for completions (iodepth_batch_complete of them, or one).
 * Writes: get() hands out an empty slot, the kernel fills it, and put()
 * queues its write; a pass ends when its writes have completed.  Mixed
 * (rw, randrw): as reads, but a block the blockgen says to write is
 * ready at once, in a slot that holds the pattern's bytes for it, and
 * put() writes it.  Queued I/O goes to the kernel when the job waits, or
 * as soon as iodepth_batch_submit of it is queued.
 *
 * Free slots are a stack; completed reads (and mixed jobs' writes, as
 * their blocks come) wait in a FIFO, and are handed out in that order.
 */
#include <errno.h>
#include <stdlib.h>

#include "ioengines/filegen.h"
#include "ioengines/uring.h"

#define STOP_WAITS	3		/* cancelled, yet in flight: give up */

static void slot_free(struct uring_priv *p, unsigned s)
{
	slot_set(&p->slots[s], ST_FREE);
	p->freelist[p->nfree++] = s;
}

/* Completed reads, and mixed jobs' writes, wait here for get(). */
static void ready_push(struct uring_priv *p, unsigned s)
{
	p->ready[(p->ready_head + p->nready++) % p->nslots] = s;
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
			ready_push(p, s);
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

/* (The ring describes its own failures in e->err.)  A wait that
 * finished nothing, with the stop flag set, gives up: -EINTR. */
static int single_reap(struct ioe *e, struct uring_priv *p, unsigned wait_nr)
{
	int ret = ring_reap(&p->r, wait_nr);

	if (!ret && !p->r.ndone && ioe_stopped(e)) {
		ioe_error(e, "io_uring: stopped with %u I/Os in flight",
			  p->r.inflight);
		return -EINTR;
	}
	if (!ret && !p->r.ndone && ioe_past_deadline(e)) {
		ioe_error(e, "io_uring: runtime ended with %u I/Os in flight",
			  p->r.inflight);
		return -ETIME;
	}
	return ret ? ret : single_sort(e, p);
}

/* Queue reads of the blockgen's next blocks in every free slot, and
 * submit when iodepth_batch_submit of them are queued.  A block that a
 * mixed job writes is ready at once: its slot holds the pattern's bytes
 * for that offset (what the file holds there when memjob made it), and
 * put() writes what the kernel left in it. */
static int single_fill(struct ioe *e, struct uring_priv *p)
{
	const struct job_spec *job = p->job;
	unsigned batch = job->iodepth_batch_submit;
	uint64_t off;
	size_t len;
	int ret;

	while (p->nfree && blockgen_next(e->gen, &off, &len)) {
		unsigned s = p->freelist[--p->nfree];
		struct slot *sl = &p->slots[s];
		bool write = p->mixed && e->gen->last_write;

		slot_fill(p, sl, off, len, write);
		slot_set(sl, ST_BUSY);
		if (write) {
			pattern_fill(&job->pattern, job->pattern_seed, off,
				     sl->buf, len);
			ready_push(p, s);
			continue;
		}
		ret = ring_prep(&p->r, s, true);
		if (!ret && batch && io_uring_sq_ready(&p->r.ring) >= batch)
			ret = ring_enter(&p->r, 0);
		if (ret)
			return ret;
	}
	return 0;
}

int single_get(struct ioe *e, struct uring_priv *p, struct io_unit *u)
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

int single_get_write(struct ioe *e, struct uring_priv *p,
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
	slot_fill(p, &p->slots[s], off, len, true);
	slot_set(&p->slots[s], ST_BUSY);
	hand_out(&p->slots[s], s, u);
	return 1;
}

int single_put(struct uring_priv *p, struct io_unit *u)
{
	unsigned batch = p->job->iodepth_batch_submit;
	struct slot *sl = &p->slots[u->slot];
	int ret;

	if (!sl->write) {
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
 * a write that fails is reported.  Once the stop flag is set (or the
 * deadline passed a while ago: ioe_drain_overdue), what is in flight is
 * cancelled instead (a read of a FIFO nobody writes would
 * never finish); what the kernel keeps beyond STOP_WAITS waits that
 * finish nothing is ended by closing the ring, in teardown. */
int single_drain(struct ioe *e, struct uring_priv *p)
{
	unsigned idle = 0;
	int first = 0;

	while (p->r.inflight && idle < STOP_WAITS) {
		unsigned before = p->r.inflight;
		int ret = 0;

		if ((ioe_stopped(e) || ioe_drain_overdue(e)) &&
		    !p->r.cancelling)
			ret = ring_cancel(&p->r);
		if (!ret)
			ret = ring_reap(&p->r, p->r.inflight);
		for (unsigned i = 0; i < p->r.ndone; i++) {
			struct slot *sl = &p->slots[p->r.done[i]];

			if (sl->write && !first && slot_state(sl) == ST_ERROR &&
			    sl->err != ECANCELED)
				first = report_slot(e, p, sl);
		}
		p->r.ndone = 0;
		if (ret) {		/* the ring itself failed */
			first = ret;
			break;
		}
		idle = p->r.cancelling && p->r.inflight == before ? idle + 1 : 0;
	}
	p->nfree = 0;
	for (unsigned s = 0; s < p->nslots; s++)
		slot_free(p, s);
	p->nready = 0;
	p->ready_head = 0;
	return first;
}

int single_setup(struct ioe *e, struct uring_priv *p)
{
	struct ring_cfg c = {
		.job = p->job, .path = p->path, .depth = p->nslots,
		.slots = p->slots, .nslots = p->nslots, .stride = p->stride,
		.fd = p->fd, .attach_fd = -1, .lat = e->lat,
		.stream = p->stream,
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
