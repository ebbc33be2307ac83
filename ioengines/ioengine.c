/*
 * ioengine.c - the small helpers that several data sources share: error
 * reporting, opening and syncing the job's file (those of the mapped
 * sources are in mapfile.c).  The list of sources is registry.c: the
 * sources call this file, and only the stages above them call that one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioengines/filemark.h"
#include "ioengines/ioengine.h"

/*
 * Returns -1, not an errno: the caller knows the errno it failed with and
 * returns that (-errno) itself, so a message can never turn an EIO into
 * an EPERM by accident.  The text is cut at sizeof(e->err).
 */
int ioe_error(struct ioe *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return -1;
}

bool ioe_honours(const struct ioengine_ops *e, const char *name)
{
	if (opt_group_has(e->opts, name))
		return true;
	for (size_t i = 0; e->options && e->options[i]; i++)
		if (!strcmp(e->options[i], name))
			return true;
	return false;
}

int ioe_file_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

void *ioe_priv_alloc(struct ioe *e, size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		ioe_error(e, "out of memory");
	e->priv = p;
	return p;
}

void ioe_fault_in(void *buf, size_t len)
{
	volatile unsigned char *b = buf;

	for (size_t off = 0; off < len; off += 4096)
		b[off] = 0;
}

int ioe_put_nothing(struct ioe *e, struct io_unit *u)
{
	(void)e;
	(void)u;
	return 0;
}

int ioe_open_as(const char *path, int flags, const struct stat *made,
		char *err, size_t len)
{
	char there[PATH_MAX + 64];
	struct stat st;
	int fd, e;

	/* O_NONBLOCK: a FIFO put in its place must not hold the open */
	fd = open(path, flags | (made ? O_NOFOLLOW | O_NONBLOCK : 0));
	if (fd < 0) {
		e = errno;
		if (!made || (e != ELOOP && e != ENOENT && e != ENXIO &&
			      e != EISDIR)) {
			snprintf(err, len, "open %s%s: %s", path,
				 flags & O_DIRECT ? " with O_DIRECT" : "",
				 strerror(e));
			return -e;
		}
	} else if (!made) {
		return fd;
	} else if (!fstat(fd, &st) && st.st_dev == made->st_dev &&
		   st.st_ino == made->st_ino) {
		/* its own: the I/O as usual (io_uring, say, would fail
		 * what cannot be done at once on an O_NONBLOCK file) */
		if (!(flags & O_NONBLOCK))
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	} else {
		close(fd);
		e = ESTALE;
	}
	filemark_describe(path, there, sizeof(there));
	snprintf(err, len, "'%s' is no longer the file memjob created (inode "
		 "%llu): %s is there now; memjob does not write through it",
		 path, (unsigned long long)made->st_ino, there);
	return -e;
}

int ioe_open(struct ioe *e, int flags)
{
	return ioe_open_as(e->path, flags, e->made, e->err, sizeof(e->err));
}

int ioe_open_job_file(struct ioe *e)
{
	const struct job_spec *job = e->job;
	int flags = (RW_WRITES(job->rw) ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int fd;

	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync)
		flags |= O_SYNC;
	fd = ioe_open(e, flags);
	if (fd >= 0)
		ioe_fadvise(job, fd);
	return fd;
}

void ioe_fadvise(const struct job_spec *job, int fd)
{
	int advice;

	switch (job->fadvise_hint) {
	case FADVISE_BY_RW:
		advice = RW_IS_RANDOM(job->rw) || RW_IS_MIXED(job->rw) ?
			 POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
		break;
	case FADVISE_SEQUENTIAL:
		advice = POSIX_FADV_SEQUENTIAL;
		break;
	case FADVISE_RANDOM:
		advice = POSIX_FADV_RANDOM;
		break;
	default:
		return;
	}
	/* advice only: a file that takes none (a FIFO) reads as it would */
	(void)posix_fadvise(fd, 0, 0, advice);
}

const char *ioe_direct_hint(bool direct, int err)
{
	if (direct && err == EINVAL)
		return " (O_DIRECT needs offset and length aligned to the "
		       "device's logical block size)";
	return "";
}

int ioe_sync_fd(struct ioe *e, int fd, bool data_only)
{
	int err;

	if (!(data_only ? fdatasync(fd) : fsync(fd)))
		return 0;
	err = errno;
	ioe_error(e, "%s %s: %s", data_only ? "fdatasync" : "fsync", e->path,
		  strerror(err));
	return -err;
}
