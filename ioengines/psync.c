/*
 * psync.c - ioengine "psync": pread()/pwrite() of one block at a time.
 *
 * One buffer of bs bytes, 4096-aligned so that direct=1 (O_DIRECT) works;
 * every block is read into it (or written from it) with one system call
 * in the common case.  This is seed 003's "read() into a buffer" and seed
 * 002's iozone-style file I/O.
 *
 * Reads: a short read is continued until the block is complete or the
 * file ends; a block that gets no byte at all ends the pass (the file is
 * shorter than offset+size).  With O_DIRECT the request is rounded up to
 * 4096 bytes so that the short last block of a file can still be read;
 * a short direct read is the end of the file.
 * Writes: the buffer holds the pattern's first bs bytes from setup on and
 * is never refilled, so a write costs no more than the system call; the
 * kernel may store into it first.  Mixed (rw, randrw): the buffer held
 * the last block read, so a written block gets the pattern's bytes for
 * its own offset first (what the file holds there when memjob made it):
 * the file keeps its pattern where the kernel stores nothing.
 *
 * With latency tracking (e->lat), the clock is read around each block's
 * system calls (continuations included): one I/O is one block.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioengines/filegen.h"
#include "ioengines/ioengine.h"
#include "util/clock.h"

#define BUF_ALIGN	4096

struct psync_priv {
	int fd;
	unsigned char *buf;
	size_t bs;			/* the largest block */
	bool direct;
};

static const char *const psync_options[] = { "direct", "sync",
					      "fadvise_hint", NULL };

static void psync_teardown(struct ioe *e)
{
	struct psync_priv *p = e->priv;

	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	free(p->buf);
	free(p);
	e->priv = NULL;
}

static int psync_setup(struct ioe *e)
{
	const struct job_spec *job = e->job;
	bool write = RW_WRITES(job->rw);
	struct psync_priv *p;
	void *buf;
	int ret;

	p = ioe_priv_alloc(e, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->fd = -1;
	p->bs = job->bs;
	p->direct = job->direct;
	/* Room for a direct read of the last block rounded up to 4096. */
	ret = posix_memalign(&buf, BUF_ALIGN,
			     (p->bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN);
	if (ret) {
		ioe_error(e, "cannot allocate a %zu-byte buffer: %s", p->bs,
			  strerror(ret));
		ret = -ret;
		goto out;
	}
	p->buf = buf;
	if (write)
		pattern_fill(&job->pattern, job->pattern_seed, 0, p->buf, p->bs);
	else
		ioe_fault_in(p->buf, p->bs);
	p->fd = ioe_open_job_file(e);
	if (p->fd < 0) {
		ret = p->fd;
		goto out;
	}
	return 0;

out:
	psync_teardown(e);
	return ret;
}

/* Bytes of the block at off, up to want; 0 at the end of the file. */
static ssize_t psync_read(struct ioe *e, struct psync_priv *p, uint64_t off,
			  size_t want)
{
	size_t done = 0;

	while (done < want) {
		ssize_t n = pread(p->fd, p->buf + done, want - done,
				  (off_t)(off + done));
		int gave_up = n < 0 && errno == EINTR ? ioe_interrupted(e) : 0;

		if (n < 0 && errno == EINTR && !gave_up)
			continue;
		if (n < 0) {
			int err = errno;

			ioe_error(e, "pread %s at offset %" PRIu64 ": %s%s", e->path,
				  off + done, strerror(err), ioe_direct_hint(p->direct, err));
			return gave_up ? gave_up : -err;
		}
		if (n == 0)
			break;
		done += (size_t)n;
		if (p->direct)	/* a short direct read is the end of the file */
			break;
	}
	return (ssize_t)done;
}

static int psync_get(struct ioe *e, struct io_unit *u)
{
	struct psync_priv *p = e->priv;
	uint64_t off, t0 = 0;
	size_t len, want;
	ssize_t n;

	if (!blockgen_next(e->gen, &off, &len))
		return 0;
	if (len > p->bs) {
		ioe_error(e, "block of %zu bytes is larger than the %zu-byte buffer",
			  len, p->bs);
		return -EINVAL;
	}
	u->buf = p->buf;
	u->off = off;
	u->len = len;
	u->slot = 0;
	u->write = RW_IS_WRITE(e->job->rw) ||
		   (RW_IS_MIXED(e->job->rw) && e->gen->last_write);
	if (u->write && RW_IS_MIXED(e->job->rw))
		pattern_fill(&e->job->pattern, e->job->pattern_seed, off,
			     p->buf, len);
	if (u->write)
		return 1;

	want = p->direct ? (len + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN : len;
	if (e->lat)
		t0 = mono_ns();
	n = psync_read(e, p, off, want);
	if (n < 0)
		return (int)n;
	if (e->lat)
		hist_record(e->lat, mono_ns() - t0);
	/* The planner sized the pass from the file: running out of data
	 * inside it means the file shrank or reports a size it lacks. */
	if ((size_t)n < len) {
		ioe_error(e, "%s ends at offset %" PRIu64 ", inside the job's "
			  "region (the block at %" PRIu64 " needs %zu bytes)",
			  e->path, off + (uint64_t)n, off, len);
		return -EIO;
	}
	return 1;
}

static int psync_put(struct ioe *e, struct io_unit *u)
{
	struct psync_priv *p = e->priv;
	const unsigned char *src = u->buf;
	uint64_t t0 = 0;
	size_t done = 0;

	if (!u->write)
		return 0;
	if (e->lat)
		t0 = mono_ns();
	while (done < u->len) {
		ssize_t n = pwrite(p->fd, src + done, u->len - done,
				   (off_t)(u->off + done));
		int gave_up = n < 0 && errno == EINTR ? ioe_interrupted(e) : 0;

		if (n < 0 && errno == EINTR && !gave_up)
			continue;
		if (n < 0) {
			int err = errno;

			ioe_error(e, "pwrite %s at offset %" PRIu64 ": %s%s", e->path,
				  u->off + done, strerror(err), ioe_direct_hint(p->direct, err));
			return gave_up ? gave_up : -err;
		}
		if (n == 0) {
			ioe_error(e, "pwrite %s at offset %" PRIu64 " wrote nothing",
				  e->path, u->off + done);
			return -EIO;
		}
		done += (size_t)n;
	}
	if (e->lat)
		hist_record(e->lat, mono_ns() - t0);
	return 0;
}

/* fsync=, fdatasync=, end_fsync=: every pwrite() has returned, so one
 * system call makes them all durable. */
static int psync_sync(struct ioe *e, bool data_only)
{
	return ioe_sync_fd(e, ((struct psync_priv *)e->priv)->fd, data_only);
}

const struct ioengine_ops ioengine_psync = {
	.name = "psync",
	.help = "pread/pwrite of bs bytes into one buffer (direct=1: O_DIRECT)",
	.flags = IOE_FILE | IOE_MIXED,
	.default_for = IOE_DEFAULT_FILES,
	.options = psync_options,
	.setup = psync_setup,
	.get = psync_get,
	.put = psync_put,
	.sync = psync_sync,
	.teardown = psync_teardown,
};
