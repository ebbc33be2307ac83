/*
 * io_uring.c - ioengine "io_uring": a deep, batched pipeline of reads or
 * writes, done by the job's thread or by I/O threads that feed it.
 *
 * The one idea: every buffer is a slot (uring.h), and this file only
 * decides how many there are, where their memory comes from and who
 * drives them; a ring (uring_ring.c) does the I/O.  Two ways to drive
 * rings:
 *
 * ioworkers=0: the job's thread owns one ring of iodepth slots
 * (uring_single.c): get() hands out completed reads, or empty buffers
 * whose writes put() queues.
 *
 * ioworkers=N: N threads, each with a ring of its share of iodepth, read
 * into a pool of 2 * iodepth slots (uring_pool.c).  Reads only: the
 * threads read ahead of the job's kernel, and a write needs the kernel's
 * data first (mixing would need a way back to an I/O thread for each
 * written block, and a tail that waits for writes).
 *
 * rw=rw and randrw (ioworkers=0): the blockgen says per block whether it
 * is read or written; a written block's slot holds the pattern's bytes
 * for its offset before the kernel runs, so that a file memjob made keeps
 * its pattern where the kernel stores nothing.
 *
 * The buffers are one mapping on transparent huge pages, faulted in at
 * setup: a large block is then one contiguous segment, and adjacent
 * reads submitted in one batch merge into larger device requests.
 * What setup chose (the ring flags the kernel accepted, registrations,
 * huge pages, the pool) goes to e->info for the report.
 *
 * The stop flag (e->stop) is looked at between waits, which are bounded:
 * get() gives up with -EINTR, and drain() cancels what is in flight (the
 * job's ring), or stops the I/O threads, which cancel theirs.
 *
 * sync() (fsync=, fdatasync=, end_fsync=) comes after drain(), with no
 * write in flight: one fsync(2) or fdatasync(2) of the file covers them
 * all.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioengines/filegen.h"
#include "ioengines/uring.h"
#include "util/value.h"

#define MAX_DEPTH	32768		/* the kernel's IORING_MAX_ENTRIES */
#define HUGE_SIZE	(2ULL << 20)	/* buffers go on transparent huge pages */
#define HUGE_MIN	(HUGE_SIZE / 4)	/* ... when there are this many bytes */

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
	const struct uring_opts *uo = uring_opts_of(job);
	int ret = 0;

	if (!uo->ioworkers) {
		if (uo->ioworkers_cpus)
			ret = opt_error(d, job, "ioworkers_cpus", "needs ioworkers > 0");
		if (uo->ordered)
			ret = opt_error(d, job, "ordered", "needs ioworkers > 0 "
					"(the job's own ring hands blocks out as "
					"they complete)");
		return ret;
	}
	if (uo->ioworkers > job->iodepth)
		ret = opt_error(d, job, "ioworkers", "each I/O thread needs an "
				"I/O in flight: ioworkers (%u) must not exceed "
				"iodepth (%u)", uo->ioworkers, job->iodepth);
	if (RW_WRITES(job->rw))
		ret = opt_error(d, job, "ioworkers", "I/O threads read ahead of "
				"the job's kernel: they need rw=read or randread"
				"%s", RW_IS_MIXED(job->rw) ? " (a written block "
				"needs the kernel's data first; to mix reads and "
				"writes, use ioworkers=0)" : "");
	for (unsigned c = 0; uo->ioworkers_cpus && c < MEMJOB_MAX_CPUS; c++) {
		if (!(uo->ioworkers_cpuset[c / 64] & (1ULL << (c % 64))) ||
		    cpu_usable(c))
			continue;
		ret = opt_error(d, job, "ioworkers_cpus", "CPU %u in '%s' does "
				"not exist or is not available", c,
				uo->ioworkers_cpus);
		break;
	}
	return ret;
}

static int uring_validate(const struct job_spec *job, struct diag *d)
{
	const struct uring_opts *uo = uring_opts_of(job);
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
	if (uo->sqpoll_cpu < -1)
		ret = opt_error(d, job, "sqpoll_cpu", "must be a CPU number or "
				"-1, got %d", uo->sqpoll_cpu);
	else if (uo->sqpoll_cpu >= 0 && !uo->sqpoll)
		ret = opt_error(d, job, "sqpoll_cpu", "needs sqpoll=1");
	else if (uo->sqpoll_cpu >= 0 && !cpu_usable((unsigned)uo->sqpoll_cpu))
		ret = opt_error(d, job, "sqpoll_cpu", "CPU %d does not exist or "
				"is not available", uo->sqpoll_cpu);
	if (validate_threads(job, d))
		ret = -1;
	return ret;
}

static void uring_info(struct ioe *e, struct uring_priv *p)
{
	const struct job_spec *job = e->job;
	const struct uring_opts *uo = uring_opts_of(job);
	const struct ring *r = p->nworkers ? workers_ring(p) : &p->r;
	char flags[128], stride[32];
	size_t n;

	ring_flags_name(r->flags, flags, sizeof(flags));
	if (p->nworkers)	/* the workers share iodepth: say so */
		n = (size_t)snprintf(e->info, sizeof(e->info), "%u ring%s (one "
				     "per I/O thread), iodepth %u in all, "
				     "%s%u each, flags %s", p->nworkers,
				     p->nworkers == 1 ? "" : "s", job->iodepth,
				     job->iodepth % p->nworkers ? "up to " : "",
				     r->depth, flags);
	else
		n = (size_t)snprintf(e->info, sizeof(e->info),
				     "ring: depth %u, flags %s", r->depth,
				     flags);
	if (n < sizeof(e->info) && r->fixed)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n, "; fixedbufs");
	if (n < sizeof(e->info) && uo->registerfiles)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n, "; registerfiles");
	if (n < sizeof(e->info) && uo->sqpoll && uo->sqpoll_cpu >= 0)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n,
				      "; sqpoll on CPU %d", uo->sqpoll_cpu);
	if (n < sizeof(e->info) && p->bufs_huge)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n,
				      "; buffers on huge pages");
	if (n < sizeof(e->info) && p->nworkers)
		n += (size_t)snprintf(e->info + n, sizeof(e->info) - n,
				      "; %s, pool %u x %s", p->ordered ?
				      "ordered" : "unordered", p->nslots,
				      value_format_bytes((double)p->stride,
							 stride, sizeof(stride)));
	p->info_len = n < sizeof(e->info) ? n : sizeof(e->info) - 1;
}

/*
 * What the run has shown so far, after what setup chose: the calls in
 * which the kernel took fewer requests than were queued (short of memory
 * for them), and the stalls the rings nudged (ring_reap: requests that
 * got no completion for a while, cancelled and submitted again), when
 * there were any.  Called when a pass ends and on drain(), while the
 * rings are idle.
 */
static void uring_info_run(struct ioe *e, const struct uring_priv *p)
{
	struct ring_stats st = { 0 };
	size_t n = p->info_len, len = sizeof(e->info);

	ring_stats_add(&p->r, &st);
	if (p->nworkers)
		workers_stats(p, &st);
	e->info[n] = '\0';
	if (st.short_submits && n < len)
		n += (size_t)snprintf(e->info + n, len - n,
				      "; %lu short submission%s", st.short_submits,
				      st.short_submits == 1 ? "" : "s");
	if (st.resubmits && n < len)
		snprintf(e->info + n, len - n, "; %lu request%s got no "
			 "completion for %g s and %s resubmitted (%lu nudge%s)",
			 st.resubmits, st.resubmits == 1 ? "" : "s",
			 st.stall_ms / 1e3, st.resubmits == 1 ? "was" : "were",
			 st.nudges, st.nudges == 1 ? "" : "s");
	else if (st.nudges && n < len)
		snprintf(e->info + n, len - n, "; %lu nudge%s after %g s without "
			 "a completion found nothing to resubmit", st.nudges,
			 st.nudges == 1 ? "" : "s", st.stall_ms / 1e3);
}

static const char *const uring_options[] = {
	"direct", "sync", "iodepth", "iodepth_batch_submit",
	"iodepth_batch_complete", "fadvise_hint", NULL
};

static int uring_get(struct ioe *e, struct io_unit *u)
{
	struct uring_priv *p = e->priv;
	int ret;

	if (p->nworkers)
		ret = pool_get(e, p, u);
	else if (p->pool_up)		/* pool_drain() stopped the threads */
		ret = (ioe_error(e, "io_uring: stopped"), -EINTR);
	else if (p->write)
		ret = single_get_write(e, p, u);
	else
		ret = single_get(e, p, u);
	if (ret == 0)
		uring_info_run(e, p);
	return ret;
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
	int ret = p->nworkers ? pool_drain(e, p) : single_drain(e, p);

	uring_info_run(e, p);
	return ret;
}

/*
 * The engine drains first, so every write put() so far has completed and
 * one system call makes them all durable.  (An IORING_OP_FSYNC would
 * overlap with nothing, and need a slot of its own.)  With I/O threads
 * there are no writes: the option check refuses syncs for reads.
 */
static int uring_sync(struct ioe *e, bool data_only)
{
	struct uring_priv *p = e->priv;
	const char *call = data_only ? "fdatasync" : "fsync";
	int err;

	if (p->r.inflight) {
		ioe_error(e, "io_uring: %s with %u writes in flight (not drained)",
			  call, p->r.inflight);
		return -EBUSY;
	}
	if (!(data_only ? fdatasync(p->fd) : fsync(p->fd)))
		return 0;
	err = errno;
	ioe_error(e, "%s %s: %s", call, e->path, strerror(err));
	return -err;
}

static void uring_teardown(struct ioe *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	if (p->w)
		workers_stop(e, p);
	/* (a drain that cancelled and gave up leaves the rest to the exit) */
	if (p->r.up && p->r.inflight && !p->r.cancelling)
		single_drain(e, p);
	ring_exit(&p->r);
	pool_fini(p);
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
	ioe_fault_in(p->bufs, len);
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
	int flags = (p->write || p->mixed ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	struct stat st;

	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync)
		flags |= O_SYNC;
	p->fd = ioe_open(e, flags);
	if (p->fd < 0)
		return p->fd;
	ioe_fadvise(job, p->fd);
	p->stream = !fstat(p->fd, &st) && !S_ISREG(st.st_mode) &&
		    !S_ISBLK(st.st_mode);
	return 0;
}

static int uring_setup(struct ioe *e)
{
	const struct job_spec *job = e->job;
	const struct uring_opts *uo = uring_opts_of(job);
	unsigned depth = job->iodepth ? job->iodepth : 1;
	struct uring_priv *p;
	int ret;

	p = ioe_priv_alloc(e, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->job = job;
	p->path = e->path;
	p->fd = -1;
	p->write = RW_IS_WRITE(job->rw);
	p->mixed = RW_IS_MIXED(job->rw);
	p->direct = job->direct;
	p->ordered = uo->ordered;
	/* With I/O threads, as many slots again as can be in flight hold
	 * reads that wait for the job's kernel. */
	p->nslots = uo->ioworkers ? 2 * depth : depth;
	if (depth > MAX_DEPTH) {	/* validate() refuses it; the tests don't */
		ioe_error(e, "iodepth %u: io_uring_queue_init takes at most %d "
			  "entries", depth, MAX_DEPTH);
		ret = -EINVAL;
		goto out;
	}
	if (uo->ioworkers > depth || (uo->ioworkers && RW_WRITES(job->rw))) {
		ioe_error(e, "ioworkers=%u: needs reads and iodepth >= ioworkers",
			  uo->ioworkers);
		ret = -EINVAL;
		goto out;
	}
	ret = uring_alloc(e, p);
	if (!ret)
		ret = uring_open(e, p);
	if (!ret)
		ret = uo->ioworkers ? workers_setup(e, p) : single_setup(e, p);
	if (ret)
		goto out;
	uring_info(e, p);
	return 0;
out:
	uring_teardown(e);
	return ret;
}

static unsigned uring_io_threads(const struct job_spec *job)
{
	return uring_opts_of(job)->ioworkers;
}

static uint64_t uring_io_threads_cpu_ns(struct ioe *e)
{
	return workers_cpu_ns(e->priv);
}

/* A ring per I/O thread (one without), each registering every slot of
 * the clone with fixedbufs (uring_setup.c), slots as uring_setup makes
 * them. */
static void uring_holds(const struct job_spec *job, unsigned *fds,
			uint64_t *locked)
{
	const struct uring_opts *uo = uring_opts_of(job);
	uint64_t depth = job->iodepth ? job->iodepth : 1;
	uint64_t slots = uo->ioworkers ? 2 * depth : depth;
	uint64_t stride = (job->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	unsigned rings = uo->ioworkers ? uo->ioworkers : 1;

	*fds = rings;
	*locked = uo->fixedbufs ? rings * slots * stride : 0;
}

const struct ioengine_ops ioengine_io_uring = {
	.name = "io_uring",
	.help = "reads and writes through io_uring with iodepth in flight, "
		"batched; ioworkers=N I/O threads feed the job (direct=1: O_DIRECT)",
	.flags = IOE_FILE | IOE_STREAM | IOE_MIXED,
	.options = uring_options,
	.opts = &ioengine_io_uring_opts,
	.io_threads = uring_io_threads,
	.io_threads_cpu_ns = uring_io_threads_cpu_ns,
	.holds = uring_holds,
	.validate = uring_validate,
	.available = uring_available,
	.setup = uring_setup,
	.get = uring_get,
	.put = uring_put,
	.drain = uring_drain,
	.sync = uring_sync,
	.teardown = uring_teardown,
};
