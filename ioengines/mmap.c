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
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "ioengines/ioengine.h"
#include "ioengines/mapfile.h"
#include "ioengines/mmap.h"

static const struct mmap_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &ioengine_mmap_opts);
}

static int mmap_map(struct ioe *e, struct mapfile *m, int fd, uint64_t start,
		    size_t len, void **map)
{
	bool populate = opts_of(e->job)->populate;
	void *p;
	int ret;

	p = mmap(NULL, len, PROT_READ | (m->write ? PROT_WRITE : 0),
		 MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, (off_t)start);
	if (p == MAP_FAILED) {
		ret = -errno;
		ioe_error(e, "mmap %s (%" PRIu64 " bytes at offset %" PRIu64 "): %s",
			  e->path, m->size, m->base, strerror(-ret));
		return ret;
	}
	*map = p;
	return 0;
}

static const struct mapfile_ops mmap_file_ops = {
	.map = mmap_map,
};

static int mmap_advise(struct ioe *e, struct mapfile *m)
{
	static const struct { int advice; const char *name; } how[] = {
		[MADV_MODE_NORMAL] = { MADV_NORMAL, "MADV_NORMAL" },
		[MADV_MODE_SEQUENTIAL] = { MADV_SEQUENTIAL, "MADV_SEQUENTIAL" },
		[MADV_MODE_RANDOM] = { MADV_RANDOM, "MADV_RANDOM" },
		[MADV_MODE_WILLNEED] = { MADV_WILLNEED, "MADV_WILLNEED" },
		[MADV_MODE_HUGEPAGE] = { MADV_HUGEPAGE, "MADV_HUGEPAGE" },
	};
	enum madvise_mode mode = opts_of(e->job)->madvise;
	int err;

	if (mode == MADV_MODE_NONE || (unsigned)mode >= sizeof(how) / sizeof(how[0]))
		return 0;
	if (!madvise(m->map, m->maplen, how[mode].advice))
		return 0;
	err = errno;
	ioe_error(e, "madvise(%s) on %s: %s", how[mode].name, e->path, strerror(err));
	return -err;
}

static int mmap_setup(struct ioe *e)
{
	struct mapfile *m;
	int ret;

	m = ioe_priv_alloc(e, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->write = RW_IS_WRITE(e->job->rw);
	ret = mapfile_setup(e, m, &mmap_file_ops);
	e->resident = opts_of(e->job)->populate;
	if (!ret)
		ret = mmap_advise(e, m);
	if (ret)
		mapfile_teardown(e);
	return ret;
}

static const char *const mmap_options[] = {
	"first_touch", NULL
};
static const char *const madvise_words[] = {
	"none", "normal", "sequential", "random", "willneed", "hugepage", NULL
};

#define F(field)	offsetof(struct mmap_opts, field)

static const struct opt_def mmap_opt_table[] = {
	{ .name = "populate", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(populate), .def = "0", .arg = "BOOL",
	  .after = "end_fsync",
	  .help = "ioengine=mmap: map with MAP_POPULATE, so the page faults "
		  "are taken before the job starts instead of inside it." },
	{ .name = "madvise", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(madvise), .def = "none", .words = madvise_words,
	  .arg = "none|normal|sequential|random|willneed|hugepage",
	  .help = "ioengine=mmap: madvise() hint given for the mapping "
		  "before the job starts." },
};

const struct opt_group ioengine_mmap_opts =
	OPT_GROUP("mmap", mmap_opt_table, struct mmap_opts);

const struct ioengine_ops ioengine_mmap = {
	.name = "mmap",
	.help = "the file mapped MAP_SHARED; page faults happen inside the measured time",
	.flags = IOE_FILE | IOE_MAPPED,
	.options = mmap_options,
	.opts = &ioengine_mmap_opts,
	.setup = mmap_setup,
	.get = mapfile_get,
	.put = ioe_put_nothing,
	.sync = mapfile_sync,
	.teardown = mapfile_teardown,
};
