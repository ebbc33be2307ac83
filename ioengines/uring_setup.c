/*
 * uring_setup.c - a ring's setup and teardown: io_uring_queue_init with
 * the best flags the kernel takes, the registered file and buffers, and
 * the bounds of its waits (uring_ring.c's).
 *
 * Ring setup flags that help (SINGLE_ISSUER, DEFER_TASKRUN, COOP_TASKRUN)
 * are tried first and dropped one by one when the kernel refuses them;
 * ring->flags keeps what was used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "config.h"
#include "ioengines/uring.h"

#define MAX_REG_BUFS	16384		/* IORING_MAX_REG_BUFFERS */
#define MAX_REG_LEN	(1ULL << 30)	/* one registered buffer */
#define SQ_IDLE_MS	100		/* sqpoll: the kernel thread's idle */
#define RING_WAIT_S	1		/* longest wait before looking again */
/* Waits in a row without a completion before a nudge.  Five seconds:
 * far beyond the latency of a healthy file or device request (a slow
 * disk's worst is a few hundred milliseconds; longer is already a
 * fault), short enough that a lost request costs seconds, not the run.
 * A nudge costs one system call, so one that was not needed is cheap. */
#define RING_STALL_WAITS 5

#ifndef HAVE_IO_URING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	0
#endif
#ifndef HAVE_IO_URING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	0
#endif
#ifndef HAVE_IO_URING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN	0
#endif

/* Flag sets to try, best first; each drops one more the kernel refused. */
static const unsigned ring_flag_sets[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_SINGLE_ISSUER,	/* SQPOLL refuses COOP_TASKRUN */
	IORING_SETUP_COOP_TASKRUN,
	0,
};

void ring_flags_name(unsigned f, char *buf, size_t len)
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

/* What refused io_uring_setup() with err, as far as can be told. */
static const char *refused_by(int err)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int disabled = -1;

	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = -1;
		fclose(f);
	}
	if (disabled == 2)
		return "kernel.io_uring_disabled=2 turns it off for everyone";
	if (disabled == 1 && err == EPERM)
		return "kernel.io_uring_disabled=1 leaves it to root and "
		       "kernel.io_uring_group";
	if (err == ENOSYS)
		return "the kernel has none, or a seccomp filter, as in a "
		       "container, or an emulator such as qemu-user refuses it";
	if (err == EPERM || err == EACCES)
		return "a seccomp filter, as in a container, or a security "
		       "module refuses it";
	return NULL;
}

/* The answer of this process (a forked child may live under a filter its
 * parent did not have, so the pid is part of it). */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t probe_pid;
static int probe_err;

int uring_available(char *why, size_t len)
{
	const char *by;
	int err;

	pthread_mutex_lock(&probe_lock);
	if (probe_pid != getpid()) {
		struct io_uring ring;

		probe_err = io_uring_queue_init(1, &ring, 0);
		if (probe_err == 0)
			io_uring_queue_exit(&ring);
		else if (probe_err > 0)
			probe_err = -EINVAL;
		probe_pid = getpid();
	}
	err = probe_err;
	pthread_mutex_unlock(&probe_lock);
	if (!err)
		return 0;
	by = refused_by(-err);
	snprintf(why, len, "io_uring is unavailable here: io_uring_setup: %s"
		 "%s%s%s; ioengine=psync reads and writes the same file "
		 "without it", strerror(-err), by ? " (" : "", by ? by : "",
		 by ? ")" : "");
	return err;
}

static int ring_create(struct ring *r, const struct ring_cfg *c)
{
	const struct job_spec *job = c->job;
	const struct uring_opts *uo = uring_opts_of(job);
	unsigned extra = 0;
	int ret = -EINVAL;

	if (uo->sqpoll) {
		extra = IORING_SETUP_SQPOLL;
		if (uo->sqpoll_cpu >= 0)
			extra |= IORING_SETUP_SQ_AFF;
		if (c->attach_fd >= 0)
			extra |= IORING_SETUP_ATTACH_WQ;
	}
	for (size_t i = 0; i < sizeof(ring_flag_sets) / sizeof(unsigned); i++) {
		struct io_uring_params p;

		/* SQPOLL cannot defer its task work to a thread it is not. */
		if (uo->sqpoll && (ring_flag_sets[i] & IORING_SETUP_DEFER_TASKRUN))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = ring_flag_sets[i] | extra;
		p.sq_thread_idle = SQ_IDLE_MS;
		p.sq_thread_cpu = uo->sqpoll_cpu >= 0 ? (unsigned)uo->sqpoll_cpu : 0;
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
			  c->depth, uo->sqpoll ? ", SQPOLL" : "", strerror(-ret),
			  ret == -ENOSYS || ret == -EPERM ?
			  " (disabled by kernel.io_uring_disabled or a seccomp filter?)" :
			  ret == -EINVAL && uo->sqpoll_cpu >= 0 ?
			  " (is sqpoll_cpu online and allowed?)" : ""), ret;
}

static int ring_register(struct ring *r, const struct ring_cfg *c)
{
	const struct uring_opts *uo = uring_opts_of(c->job);
	unsigned nvec;
	struct iovec *iov;
	int ret;

	if (uo->registerfiles) {
		ret = io_uring_register_files(&r->ring, &c->fd, 1);
		if (ret < 0)
			return ring_error(r, "io_uring_register_files: %s",
					  strerror(-ret)), ret;
		r->fd = 0;
		r->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (!uo->fixedbufs)
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
int ring_init(struct ring *r, const struct ring_cfg *c)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->slots = c->slots;
	r->nslots = c->nslots;
	r->fd = c->fd;
	r->direct = c->job->direct;
	r->stream = c->stream;
	r->sqpoll = uring_opts_of(c->job)->sqpoll;
	r->depth = c->depth;
	r->lat = c->lat;
	r->path = c->path;
	r->err = c->err;
	r->errlen = c->errlen;
	r->wait_ms = RING_WAIT_S * 1000;
	r->stall_waits = RING_STALL_WAITS;
	r->stamp = calloc(c->depth, sizeof(*r->stamp));
	r->done = calloc(c->depth, sizeof(*r->done));
	if (!r->stamp || !r->done)
		return ring_error(r, "out of memory"), -ENOMEM;
	ret = ring_create(r, c);
	if (ret)
		return ret;
	return ring_register(r, c);
}

void ring_exit(struct ring *r)
{
	if (r->up)
		io_uring_queue_exit(&r->ring);
	r->up = false;
	free(r->stamp);
	free(r->done);
	r->stamp = r->done = NULL;
}
