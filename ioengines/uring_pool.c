/*
 * uring_pool.c - io_uring with ioworkers=N: N I/O threads, each with a
 * ring of its share of iodepth, read into a pool of 2 * iodepth slots
 * that the job's thread takes blocks from.
 *
 * The one idea: the pool hands out sequence numbers, and block number k
 * of the job (over all passes) lives in slot k % nslots.  An I/O thread
 * claims a run of sequence numbers under the lock, with the blockgen's
 * next blocks, as long as they stay within nslots of the tail (the oldest
 * one the job's thread has not given back), reads them, and publishes
 * each slot's state when it is finished; unordered, it also pushes the
 * slot on its own queue (single producer, single consumer).  The job's
 * thread takes slots in sequence (ordered) or from the queues
 * (unordered), gives them back in put(), and moves the tail over the free
 * ones.  Whoever waits spins a little and then sleeps on a futex word
 * that the other side bumps when it sees a sleeper (see sleepers()).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ioengines/uring.h"
#include "machine/arch.h"

#define SPIN_TRIES	2000		/* job's thread: looks before it sleeps */
#define TAKE_SLEEP_S	1		/* ... and between looks at the stop flag */
#define STOP_WAITS	3		/* cancelled, yet in flight: give up */

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

/* Sleep while *w is seen, at most *timeout (NULL: as long as that). */
static void futex_wait(_Atomic uint32_t *w, uint32_t seen,
		       const struct timespec *timeout)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, seen, timeout, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w, int n)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
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
		slot_fill(p, &p->slots[s], off, len, false);
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
		futex_wait(&pl->w_word, seen, NULL);
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
		.stream = p->stream,
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
	if (!uring_opts_of(w->p->job)->sqpoll || w->idx == 0)
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
	/* What is still in flight is not wanted (the pass was drained, or
	 * the job failed or was stopped), and may never finish (a FIFO):
	 * cancel it.  No buffer may be freed while the kernel can still DMA
	 * into it; what the kernel keeps past the cancellation ends with
	 * the ring, and a direct read's pages stay pinned until then. */
	if (w->r.up && w->r.inflight)
		ring_cancel_wait(&w->r, STOP_WAITS);
	ring_exit(&w->r);
	return NULL;
}

/* The CPUs of the I/O threads: ioworkers_cpus, or the job's own. */
static int worker_cpus(struct ioe *e, cpu_set_t *set)
{
	const struct job_spec *job = e->job;
	const struct uring_opts *uo = uring_opts_of(job);

	CPU_ZERO(set);
	if (!uo->ioworkers_cpus) {
		if (sched_getaffinity(0, sizeof(*set), set) == 0)
			return 0;
		ioe_error(e, "sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (uo->ioworkers_cpuset[c / 64] & (1ULL << (c % 64)))
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

void pool_fini(struct uring_priv *p)
{
	if (p->hs_up) {
		pthread_cond_destroy(&p->pool.hs_cond);
		pthread_mutex_destroy(&p->pool.hs_lock);
	}
	if (p->pool_up)
		pthread_mutex_destroy(&p->pool.lock);
}

int workers_setup(struct ioe *e, struct uring_priv *p)
{
	unsigned n = uring_opts_of(p->job)->ioworkers;
	unsigned depth = p->job->iodepth, qsize = 1;
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

void workers_stop(struct ioe *e, struct uring_priv *p)
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

void workers_stats(const struct uring_priv *p, struct ring_stats *st)
{
	for (unsigned i = 0; i < p->nworkers; i++)
		ring_stats_add(&p->w[i].r, st);
}

uint64_t workers_cpu_ns(const struct uring_priv *p)
{
	uint64_t ns = 0;

	for (unsigned i = 0; i < p->nworkers; i++) {
		struct timespec ts;
		clockid_t cid;

		if (p->w[i].started &&
		    !pthread_getcpuclockid(p->w[i].tid, &cid) &&
		    !clock_gettime(cid, &ts))
			ns += (uint64_t)ts.tv_sec * 1000000000ull +
			      (uint64_t)ts.tv_nsec;
	}
	return ns;
}

const struct ring *workers_ring(const struct uring_priv *p)
{
	return &p->w[0].r;
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

/* pool_try_take(), waiting: spin a little, then sleep on the futex, a
 * second at a time; -EINTR once the stop flag is set. */
static int pool_take(struct ioe *e, struct uring_priv *p, unsigned *s,
		     bool draining)
{
	const struct timespec nap = { .tv_sec = TAKE_SLEEP_S };
	struct pool *pl = &p->pool;

	for (;;) {
		uint32_t seen;
		int ret;

		for (unsigned i = 0; i < SPIN_TRIES; i++) {
			ret = pool_try_take(e, p, s);
			if (ret != -EAGAIN)
				return ret;
			arch_cpu_relax();
		}
		if (ioe_stopped(e)) {
			ioe_error(e, "io_uring: stopped while the I/O threads "
				  "read");
			return -EINTR;
		}
		/* at the deadline the pass ends; its drain gives what is
		 * in flight a while, then stops the threads as a stop does */
		if (draining ? ioe_drain_overdue(e) : ioe_past_deadline(e)) {
			ioe_error(e, "io_uring: runtime ended while the I/O "
				  "threads read");
			return draining ? -EINTR : -ETIME;
		}
		seen = atomic_load(&pl->c_word);
		atomic_fetch_add(&pl->c_sleeping, 1);
		ret = pool_try_take(e, p, s);
		if (ret == -EAGAIN)
			futex_wait(&pl->c_word, seen, &nap);
		atomic_fetch_sub(&pl->c_sleeping, 1);
		if (ret != -EAGAIN)
			return ret;
	}
}

/* Give slot s back; move the tail over what is free; wake I/O threads
 * that sleep for want of room once there is enough of it. */
void pool_give_back(struct uring_priv *p, unsigned s)
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

int pool_get(struct ioe *e, struct uring_priv *p, struct io_unit *u)
{
	unsigned s;
	int ret;

	if (p->pass_over)
		pool_open(p);
	for (;;) {
		ret = pool_take(e, p, &s, false);
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

/* Take back everything claimed.  Once the stop flag is set, what is in
 * flight may never finish: the I/O threads are stopped instead (each
 * cancels what its ring has in flight), and the source does no more. */
int pool_drain(struct ioe *e, struct uring_priv *p)
{
	unsigned s;
	int ret;

	pool_close(p);
	while ((ret = pool_take(e, p, &s, true)) == 1)
		pool_give_back(p, s);
	if (ret == -EINTR) {
		workers_stop(e, p);
		return 0;
	}
	p->pass_over = true;
	workers_merge_lat(e, p);
	return ret;
}
