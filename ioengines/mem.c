/*
 * mem.c - ioengine "mem": the job's data in anonymous memory.
 *
 * The buffer is mapped at setup and filled before the job starts (fill(),
 * right after setup), with the pattern or with the bytes of the job's
 * file (the "read() into RAM first" of seed 003).  The fill writes every
 * page, so no page fault lands in the measured part and what the kernel
 * then sees is plain memory bandwidth and latency; between the two the
 * engine can time the first touch of the fresh pages (first_touch=phase),
 * the only moment there is one to time.  Blocks
 * keep the file's offsets (they start at job->offset): the block at off
 * is buf + (off - job->offset), and it holds the same bytes the file (or
 * the pattern) has at off.  A write is whatever the kernel stores.
 *
 * e->priv begins with a struct mapfile like the file-mapping sources'
 * (its map is the anonymous memory, align and write unused), so get() is
 * theirs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ioengines/filegen.h"
#include "ioengines/ioengine.h"
#include "ioengines/mapfile.h"
#include "util/sysfile.h"
#include "util/value.h"

#define HUGE_2M		(2ULL << 20)

struct mem_state {
	struct mapfile m;		/* first: mapfile_get() reads it */
	int fd;				/* the file until fill(), or -1 */
	bool hugetlb;			/* hugepage=auto got hugetlb pages */
	char no_hugetlb[96];		/* hugepage=auto: why it did not */
};

/*
 * hugepage=2m|1g: one MAP_HUGETLB mapping of whole pages of that size.
 * A private hugetlb mapping reserves its pages when it is made, so a
 * pool too small fails here with ENOMEM rather than with SIGBUS at the
 * first touch (plan.c has checked the pool before any job started, but
 * another program may have taken pages since).
 */
static int mem_map_hugetlb(struct ioe *e, struct mapfile *m, uint64_t page)
{
	int shift = __builtin_ctzll(page);
	size_t len = (m->size + page - 1) / page * page;
	unsigned char *p;
	char sz[32];

	value_format_bytes((double)page, sz, sizeof(sz));

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		 (shift << MAP_HUGE_SHIFT), -1, 0);
	if (p == MAP_FAILED) {
		int err = errno;
		char path[128], free_now[32] = "?";

		sysfile_hugepages(path, sizeof(path), "", page,
				  "free_hugepages");
		sysfile_text(path, free_now, sizeof(free_now));
		ioe_error(e, "mmap of %zu bytes in %s huge pages (MAP_HUGETLB): %s; %s free now (%s)",
			  len, sz, strerror(err), free_now, path);
		return -err;
	}
	m->map = m->buf = p;
	m->maplen = len;
	snprintf(e->info, sizeof(e->info), "%zu huge pages of %s (MAP_HUGETLB)",
		 len / page, sz);
	return 0;
}

/* Whether the buffer is (to be) transparent huge pages: thp, or auto
 * that got no hugetlb pages. */
static bool mem_thp(const struct ioe *e, const struct mem_state *st)
{
	return e->job->hugepage == HUGEPAGE_THP ||
	       (e->job->hugepage == HUGEPAGE_AUTO && !st->hugetlb);
}

/* hugepage=auto: 2 MiB hugetlb pages when the pool has room for them
 * now (0), else why not in st->no_hugetlb (-1: transparent huge pages
 * then). */
static int mem_auto_hugetlb(struct ioe *e, struct mem_state *st)
{
	char path[128], free_now[32] = "?";
	size_t pages = (st->m.size + HUGE_2M - 1) / HUGE_2M;
	static const char tag[] = "hugepage=auto: ";

	if (!mem_map_hugetlb(e, &st->m, HUGE_2M)) {
		size_t n = strlen(e->info);

		st->hugetlb = true;
		if (n + sizeof(tag) > sizeof(e->info))
			n = sizeof(e->info) - sizeof(tag);
		memmove(e->info + sizeof(tag) - 1, e->info, n + 1);
		e->info[sizeof(e->info) - 1] = '\0';
		memcpy(e->info, tag, sizeof(tag) - 1);
		return 0;
	}
	e->err[0] = '\0';
	sysfile_hugepages(path, sizeof(path), "", HUGE_2M, "free_hugepages");
	sysfile_text(path, free_now, sizeof(free_now));
	snprintf(st->no_hugetlb, sizeof(st->no_hugetlb), "the 2 MiB hugetlb "
		 "pool had %s free, %zu needed", free_now, pages);
	return -1;
}

static int mem_map(struct ioe *e, struct mem_state *st)
{
	struct mapfile *m = &st->m;
	bool thp;
	size_t align, len, extra;
	unsigned char *p, *start;

	if (hugepage_bytes(e->job->hugepage))
		return mem_map_hugetlb(e, m, hugepage_bytes(e->job->hugepage));
	if (e->job->hugepage == HUGEPAGE_AUTO && !mem_auto_hugetlb(e, st))
		return 0;
	thp = mem_thp(e, st);
	align = thp ? HUGE_2M : 1;
	len = (m->size + align - 1) / align * align;
	extra = thp ? HUGE_2M : 0;
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

/*
 * hugepage=thp asks; the kernel may not grant (fragmented memory, THP in
 * "never" or defrag settings that do not wait).  After the buffer is
 * filled, /proc/self/smaps says how much of its mapping is huge: the
 * AnonHugePages of the VMA that is exactly the buffer (when it merged
 * with a neighbour's, the figure would not be this job's alone: none).
 */
static void mem_tell_thp(struct ioe *e, const struct mem_state *st)
{
	const struct mapfile *m = &st->m;
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	bool ours = false;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, end, kb;

		if (sscanf(line, "%lx-%lx ", &s, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			ours = s == (uintptr_t)m->map &&
			       end == (uintptr_t)m->map + m->maplen;
			continue;
		}
		if (ours && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
			snprintf(e->info, sizeof(e->info),
				 "%s%s%s%lu of %zu KiB in transparent huge pages (%.0f%%)",
				 st->no_hugetlb[0] ? "hugepage=auto: " : "",
				 st->no_hugetlb, st->no_hugetlb[0] ? "; " : "",
				 kb, m->maplen >> 10,
				 100.0 * (double)kb * 1024 / (double)m->maplen);
			break;
		}
	}
	fclose(f);
}

static int mem_preload(struct ioe *e, struct mapfile *m, int fd)
{
	uint64_t done = 0;

	while (done < m->size) {
		size_t want = m->size - done > (1u << 30) ? 1u << 30 :
			      (size_t)(m->size - done);
		ssize_t n = pread(fd, m->buf + done, want,
				  (off_t)(m->base + done));

		if (n < 0 && errno == EINTR && !ioe_stopped(e))
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

static int mem_open_file(struct ioe *e, struct mapfile *m, int *fdp)
{
	uint64_t fsize = 0;
	int fd, ret;

	fd = ioe_open(e, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	ret = mapfile_file_size(e, fd, &fsize);
	if (ret)
		goto out_close;
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
	struct mem_state *st = e->priv;

	if (st && st->fd >= 0)
		close(st->fd);
	mapfile_teardown(e);
}

/* The mapping, its file opened; the bytes come in fill(). */
static int mem_setup(struct ioe *e)
{
	struct mem_state *st;
	struct mapfile *m;
	int ret;

	st = ioe_priv_alloc(e, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	m = &st->m;
	m->base = e->job->offset;
	m->size = e->job->size;
	if (e->path) {
		ret = mem_open_file(e, m, &st->fd);
		if (ret)
			goto out;
	} else if (!m->size) {
		ret = -EINVAL;
		ioe_error(e, "ioengine=mem without a file needs size");
		goto out;
	}
	ret = mem_map(e, st);
	if (ret)
		goto out;
	e->region = m->buf;
	e->region_len = (size_t)m->size;
	e->resident = true;	/* filled before the job starts */
	return 0;

out:
	mem_teardown(e);
	return ret;
}

static int mem_fill(struct ioe *e)
{
	struct mem_state *st = e->priv;
	struct mapfile *m = &st->m;

	if (st->fd >= 0) {
		int ret = mem_preload(e, m, st->fd);

		close(st->fd);
		st->fd = -1;
		if (ret)
			return ret;
	} else {
		pattern_fill(&e->job->pattern, e->job->pattern_seed, m->base,
			     m->buf, m->size);
	}
	if (mem_thp(e, st))
		mem_tell_thp(e, st);
	return 0;
}

static const char *const mem_options[] = { "hugepage", "first_touch", NULL };

const struct ioengine_ops ioengine_mem = {
	.name = "mem",
	.help = "anonymous memory filled before the job (pattern, or the file's bytes)",
	.flags = IOE_FILE_OPT | IOE_MAPPED,
	.options = mem_options,
	.setup = mem_setup,
	.fill = mem_fill,
	.get = mapfile_get,
	.put = ioe_put_nothing,
	.teardown = mem_teardown,
};
