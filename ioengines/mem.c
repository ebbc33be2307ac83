/*
 * mem.c - ioengine "mem": the job's data in anonymous memory.
 *
 * The buffer is filled before the job starts, with the pattern or with the
 * bytes of the job's file (the "read() into RAM first" of seed 003).  The
 * fill writes every page, so no page fault lands in the measured part and
 * what the kernel then sees is plain memory bandwidth and latency.  Blocks
 * keep the file's offsets (they start at job->offset): the block at off
 * is buf + (off - job->offset), and it holds the same bytes the file (or
 * the pattern) has at off.  A write is whatever the kernel stores.
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

#include "filegen.h"
#include "ioengine.h"

#define HUGE_2M		(2ULL << 20)

struct mem_priv {
	void *map;			/* what munmap() gets back */
	size_t maplen;
	unsigned char *buf;		/* the byte at file offset base */
	uint64_t base, size;
};

static int mem_validate(const struct job_spec *job, struct diag *d)
{
	unsigned before = d->errors;

	if (job->direct)
		diag_error(d, job_loc(job, "direct"), "direct",
			   "has no effect with ioengine=mem");
	if (job->sync)
		diag_error(d, job_loc(job, "sync"), "sync",
			   "has no effect with ioengine=mem");
	if (job->iodepth > 1)
		diag_error(d, job_loc(job, "iodepth"), "iodepth",
			   "has no effect with ioengine=mem (nothing is ever in flight)");
	if (job->populate)
		diag_error(d, job_loc(job, "populate"), "populate",
			   "applies to ioengine=mmap; ioengine=mem always touches its memory before the job starts");
	if (job->madvise != MADV_MODE_NONE)
		diag_error(d, job_loc(job, "madvise"), "madvise",
			   "applies to ioengine=mmap; for huge pages with ioengine=mem use hugepage=thp");
	return d->errors == before ? 0 : -1;
}

/* Size in bytes of a regular file or a block device. */
static int mem_file_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int mem_map(struct ioe *e, struct mem_priv *m)
{
	bool thp = e->job->hugepage == HUGEPAGE_THP;
	size_t align = thp ? HUGE_2M : 1;
	size_t len = (m->size + align - 1) / align * align;
	size_t extra = thp ? HUGE_2M : 0;
	unsigned char *p, *start;

	p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		ioe_error(e, "mmap of %" PRIu64 " bytes of anonymous memory: %s",
			  m->size, strerror(err));
		return -err;
	}
	/* Keep only a 2 MiB-aligned window, so every 2 MiB can be huge. */
	start = thp ? (unsigned char *)(((uintptr_t)p + HUGE_2M - 1) &
					~(uintptr_t)(HUGE_2M - 1)) : p;
	if (thp && start > p)
		munmap(p, (size_t)(start - p));
	if (thp && p + len + extra > start + len)
		munmap(start + len, (size_t)(p + len + extra - (start + len)));
	m->map = start;
	m->maplen = len;
	m->buf = start;

	if (madvise(start, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
		int err = errno;

		/* A kernel without THP has no huge pages to forbid. */
		if (!thp && err == EINVAL)
			return 0;
		ioe_error(e, "madvise(%s): %s%s",
			  thp ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(err),
			  thp ? " (transparent huge pages not available?)" : "");
		return -err;
	}
	return 0;
}

static int mem_preload(struct ioe *e, struct mem_priv *m, int fd)
{
	uint64_t done = 0;

	while (done < m->size) {
		size_t want = m->size - done > (1u << 30) ? 1u << 30 :
			      (size_t)(m->size - done);
		ssize_t n = pread(fd, m->buf + done, want,
				  (off_t)(m->base + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			ioe_error(e, "pread %s at offset %" PRIu64 ": %s", e->path,
				  m->base + done, strerror(err));
			return -err;
		}
		if (n == 0) {
			ioe_error(e, "%s ends at offset %" PRIu64 ", before offset+size = %" PRIu64,
				  e->path, m->base + done, m->base + m->size);
			return -EIO;
		}
		done += (uint64_t)n;
	}
	return 0;
}

static int mem_open_file(struct ioe *e, struct mem_priv *m, int *fdp)
{
	uint64_t fsize = 0;
	int fd, ret;

	fd = open(e->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ioe_error(e, "open %s: %s", e->path, strerror(-ret));
		return ret;
	}
	ret = mem_file_size(fd, &fsize);
	if (ret) {
		ioe_error(e, "size of %s: %s", e->path, strerror(-ret));
		goto out_close;
	}
	if (!m->size) {
		if (fsize <= m->base) {
			ret = -EINVAL;
			ioe_error(e, "%s has %" PRIu64 " bytes, nothing after offset %" PRIu64,
				  e->path, fsize, m->base);
			goto out_close;
		}
		m->size = fsize - m->base;
	}
	*fdp = fd;
	return 0;

out_close:
	close(fd);
	return ret;
}

static void mem_teardown(struct ioe *e)
{
	struct mem_priv *m = e->priv;

	if (!m)
		return;
	if (m->map)
		munmap(m->map, m->maplen);
	free(m);
	e->priv = NULL;
}

static int mem_setup(struct ioe *e)
{
	struct mem_priv *m;
	int fd = -1, ret;

	m = calloc(1, sizeof(*m));
	if (!m) {
		ioe_error(e, "out of memory");
		return -ENOMEM;
	}
	e->priv = m;
	m->base = e->job->offset;
	m->size = e->job->size;
	if (e->path) {
		ret = mem_open_file(e, m, &fd);
		if (ret)
			goto out_free;
	} else if (!m->size) {
		ret = -EINVAL;
		ioe_error(e, "ioengine=mem without a file needs size");
		goto out_free;
	}
	ret = mem_map(e, m);
	if (ret)
		goto out_close;
	if (fd >= 0) {
		ret = mem_preload(e, m, fd);
		if (ret)
			goto out_close;
		close(fd);
	} else {
		pattern_fill(&e->job->pattern, e->job->pattern_seed, m->base,
			     m->buf, m->size);
	}
	return 0;

out_close:
	if (fd >= 0)
		close(fd);
out_free:
	mem_teardown(e);
	return ret;
}

static int mem_get(struct ioe *e, struct io_unit *u)
{
	struct mem_priv *m = e->priv;
	uint64_t off;
	size_t len;

	if (!blockgen_next(e->gen, &off, &len))
		return 0;
	if (off < m->base || off - m->base > m->size ||
	    len > m->size - (off - m->base)) {
		ioe_error(e, "block at offset %" PRIu64 " (%zu bytes) is outside the buffer [%" PRIu64 ", %" PRIu64 ")",
			  off, len, m->base, m->base + m->size);
		return -EINVAL;
	}
	u->buf = m->buf + (off - m->base);
	u->len = len;
	u->off = off;
	u->slot = 0;
	return 1;
}

static int mem_put(struct ioe *e, struct io_unit *u)
{
	(void)e;
	(void)u;
	return 0;
}

const struct ioengine_ops ioengine_mem = {
	.name = "mem",
	.help = "anonymous memory filled before the job (pattern, or the file's bytes)",
	.flags = IOE_FILE_OPT | IOE_MAPPED,
	.validate = mem_validate,
	.setup = mem_setup,
	.get = mem_get,
	.put = mem_put,
	.teardown = mem_teardown,
};
