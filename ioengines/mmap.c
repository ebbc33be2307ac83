/*
 * mmap.c - ioengine "mmap": the job's file mapped with MAP_SHARED.
 *
 * Setup maps and advises but never touches a page: the point of this
 * source (seed 003's "mmap cold" and "mmap warm") is that the page faults,
 * and on a cold cache the reads behind them, happen inside the measured
 * time.  populate=1 (MAP_POPULATE) moves them before it instead.
 *
 * Writes are whatever the kernel stores into the mapping.  Teardown only
 * unmaps: like fio's mmap engine, the dirty pages are left to the kernel's
 * writeback (no msync), so a write job measures stores into the page
 * cache, and the writeback cost shows up where the kernel puts it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioengine.h"

struct mmap_priv {
	void *map;
	size_t maplen;
	unsigned char *buf;		/* the byte at file offset base */
	uint64_t base, size;
};


/* The region to map: all of it must lie inside the file (else SIGBUS). */
static int mmap_region(struct ioe *e, struct mmap_priv *m, int fd)
{
	uint64_t fsize = 0;
	int ret;

	ret = ioe_file_size(fd, &fsize);
	if (ret) {
		ioe_error(e, "size of %s: %s", e->path, strerror(-ret));
		return ret;
	}
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

static int mmap_advise(struct ioe *e, struct mmap_priv *m)
{
	static const struct { int advice; const char *name; } how[] = {
		[MADV_MODE_NORMAL] = { MADV_NORMAL, "MADV_NORMAL" },
		[MADV_MODE_SEQUENTIAL] = { MADV_SEQUENTIAL, "MADV_SEQUENTIAL" },
		[MADV_MODE_RANDOM] = { MADV_RANDOM, "MADV_RANDOM" },
		[MADV_MODE_WILLNEED] = { MADV_WILLNEED, "MADV_WILLNEED" },
		[MADV_MODE_HUGEPAGE] = { MADV_HUGEPAGE, "MADV_HUGEPAGE" },
	};
	enum madvise_mode mode = e->job->madvise;
	int err;

	if (mode == MADV_MODE_NONE || (unsigned)mode >= sizeof(how) / sizeof(how[0]))
		return 0;
	if (!madvise(m->map, m->maplen, how[mode].advice))
		return 0;
	err = errno;
	ioe_error(e, "madvise(%s) on %s: %s", how[mode].name, e->path, strerror(err));
	return -err;
}

static void mmap_teardown(struct ioe *e)
{
	struct mmap_priv *m = e->priv;

	if (!m)
		return;
	if (m->map)
		munmap(m->map, m->maplen);
	free(m);
	e->priv = NULL;
}

static int mmap_setup(struct ioe *e)
{
	bool write = RW_IS_WRITE(e->job->rw);
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct mmap_priv *m;
	uint64_t start;
	void *p;
	int fd, ret;

	m = calloc(1, sizeof(*m));
	if (!m) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	e->priv = m;
	fd = open(e->path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ioe_error(e, "open %s: %s", e->path, strerror(-ret));
		goto out_free;
	}
	ret = mmap_region(e, m, fd);
	if (ret)
		goto out_close;
	start = m->base / page * page;
	p = mmap(NULL, (size_t)(m->size + (m->base - start)),
		 PROT_READ | (write ? PROT_WRITE : 0),
		 MAP_SHARED | (e->job->populate ? MAP_POPULATE : 0), fd,
		 (off_t)start);
	if (p == MAP_FAILED) {
		ret = -errno;
		ioe_error(e, "mmap %s (%" PRIu64 " bytes at offset %" PRIu64 "): %s",
			  e->path, m->size, m->base, strerror(-ret));
		goto out_close;
	}
	m->map = p;
	m->maplen = (size_t)(m->size + (m->base - start));
	m->buf = (unsigned char *)p + (m->base - start);
	e->region = m->buf;
	e->region_len = (size_t)m->size;
	ret = mmap_advise(e, m);
	if (ret)
		goto out_close;
	close(fd);		/* the mapping holds the file */
	return 0;

out_close:
	close(fd);
out_free:
	mmap_teardown(e);
	return ret;
}

static int mmap_get(struct ioe *e, struct io_unit *u)
{
	struct mmap_priv *m = e->priv;

	return ioe_mapped_get(e, u, m->buf, m->base, m->size);
}

static const char *const mmap_options[] = { "populate", "madvise", NULL };

/* fsync=, end_fsync=: the mapping's dirty pages to the file */
static int mmap_sync(struct ioe *e, bool data_only)
{
	struct mmap_priv *m = e->priv;

	(void)data_only;
	return ioe_msync(e, m->map, m->maplen);
}

const struct ioengine_ops ioengine_mmap = {
	.name = "mmap",
	.help = "the file mapped MAP_SHARED; page faults happen inside the measured time",
	.flags = IOE_FILE | IOE_MAPPED,
	.options = mmap_options,
	.setup = mmap_setup,
	.get = mmap_get,
	.put = ioe_put_nothing,
	.sync = mmap_sync,
	.teardown = mmap_teardown,
};
