/*
 * mapfile.c - one mapping of the job's region of a file, for the mapped
 * data sources (mmap, dax; mem keeps its anonymous copy in the same
 * struct).
 *
 * The one idea: all of the mapping must lie inside the file, or a touch
 * past its end is a SIGBUS in the middle of the measurement.  So the
 * region is checked against the file's size before anything is mapped,
 * and every block get() hands out is checked against the region.  What
 * differs between sources (how the size is found, the mmap flags, what
 * a failure means) is theirs, in struct mapfile_ops.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ioengines/mapfile.h"

int mapfile_file_size(struct ioe *e, int fd, uint64_t *fsize)
{
	int ret = ioe_file_size(fd, fsize);

	if (ret)
		ioe_error(e, "size of %s: %s", e->path, strerror(-ret));
	return ret;
}

/* The region to map: all of it must lie inside the file (else SIGBUS). */
static int mapfile_region(struct ioe *e, struct mapfile *m, uint64_t fsize)
{
	m->base = e->job->offset;
	m->size = e->job->size;
	if (!m->size)
		m->size = fsize > m->base ? fsize - m->base : 0;
	if (!m->size) {
		ioe_error(e, "%s has %" PRIu64 " bytes, nothing to map after offset %" PRIu64,
			  e->path, fsize, m->base);
		return -EINVAL;
	}
	if (m->base > fsize || m->size > fsize - m->base) {
		ioe_error(e, "%s has %" PRIu64 " bytes, less than offset+size = %" PRIu64,
			  e->path, fsize, m->base + m->size);
		return -EINVAL;
	}
	return 0;
}

int mapfile_setup(struct ioe *e, struct mapfile *m,
		  const struct mapfile_ops *ops)
{
	uint64_t fsize = 0, start, end;
	void *map = NULL;
	int fd, ret;

	m->align = (uint64_t)sysconf(_SC_PAGESIZE);
	fd = ioe_open(e, (m->write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return fd;
	ret = ops->geometry ? ops->geometry(e, m, fd, &fsize) :
			      mapfile_file_size(e, fd, &fsize);
	if (ret)
		goto out_close;
	ret = mapfile_region(e, m, fsize);
	if (ret)
		goto out_close;
	/* Whole units of the alignment (pages, or device-dax's unit). */
	start = m->base / m->align * m->align;
	end = (m->base + m->size + m->align - 1) / m->align * m->align;
	ret = ops->map(e, m, fd, start, (size_t)(end - start), &map);
	if (ret)
		goto out_close;
	m->map = map;
	m->maplen = (size_t)(end - start);
	m->buf = (unsigned char *)map + (m->base - start);
	e->region = m->buf;
	e->region_len = (size_t)m->size;
out_close:
	close(fd);		/* on success, the mapping holds the file */
	return ret;
}

void mapfile_unmap(struct ioe *e, struct mapfile *m)
{
	if (m->map)
		munmap(m->map, m->maplen);
	m->map = NULL;
	m->maplen = 0;
	m->buf = NULL;
	e->region = NULL;
	e->region_len = 0;
}

int mapfile_get(struct ioe *e, struct io_unit *u)
{
	const struct mapfile *m = e->priv;
	uint64_t off;
	size_t len;

	if (!blockgen_next(e->gen, &off, &len))
		return 0;
	/* The planner sized the region; a block outside it is a bug, and
	 * reported as one rather than read out of bounds. */
	if (off < m->base || off - m->base > m->size ||
	    len > m->size - (off - m->base)) {
		ioe_error(e, "block at offset %" PRIu64 " (%zu bytes) is "
			  "outside the mapped region [%" PRIu64 ", %" PRIu64 ")",
			  off, len, m->base, m->base + m->size);
		return -EINVAL;
	}
	u->buf = m->buf + (off - m->base);
	u->len = len;
	u->off = off;
	u->slot = 0;
	u->write = m->write;
	return 1;
}

/* fsync=, end_fsync=: the mapping's dirty pages to the file (msync has
 * no data-only variant). */
int mapfile_sync(struct ioe *e, bool data_only)
{
	const struct mapfile *m = e->priv;
	int err;

	(void)data_only;
	if (!msync(m->map, m->maplen, MS_SYNC))
		return 0;
	err = errno;
	ioe_error(e, "msync %s: %s", e->path ? e->path : "", strerror(err));
	return -err;
}

void mapfile_teardown(struct ioe *e)
{
	struct mapfile *m = e->priv;

	if (!m)
		return;
	mapfile_unmap(e, m);
	free(m);
	e->priv = NULL;
}
