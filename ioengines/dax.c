/*
 * dax.c - ioengine "dax": the job's file mapped with MAP_SYNC, on
 * persistent memory (a file on a DAX filesystem, or a device-dax node
 * /dev/daxX.Y), with every written cache line flushed by the instruction
 * the job names (seed 004).
 *
 * On DAX the mapping is the media itself: no page cache sits between the
 * stores and the persistent memory, and MAP_SYNC promises that the file
 * system's metadata for a written page is durable by the time the write
 * fault returns.  What remains is the CPU's cache: a store lands in it, and
 * only a flush (or a non-temporal store, which goes around it) moves the
 * line towards the memory controller.  So a DAX write costs the store, the
 * flush of each 64-byte line, and, for ordering, a fence.
 *
 * The flush instructions (machine/cacheflush.h: x86-64's clflush,
 * clflushopt and clwb, arm64's DC CVAC, DC CVAP and DC CIVAC) differ in
 * what they leave behind and in how they are ordered: clflush writes the
 * line back and evicts it, one flush in flight at a time; clflushopt and
 * DC CIVAC evict too, but are ordered only by a fence (sfence, DSB), so
 * without one many write-backs overlap; clwb and DC CVAC write back and
 * may keep the line cached (clean); DC CVAP writes back to the point of
 * persistence, the one that matters on persistent memory.  The job's
 * fence (fence=sfence on x86-64, fence=dsb on arm64) waits until the
 * flushes before it are done, once per block (fence_scope=block) or after
 * every line (fence_scope=line, which makes the weakly ordered ones as
 * serial as clflush).  Seed 004 runs all three x86 ones without a fence:
 * the aggressor's flushes stream write-backs through the LLC that the
 * victim shares.  A job is refused when it names another architecture's
 * instruction or fence, or one the CPU lacks.
 *
 * Without DAX hardware MAP_SYNC fails (EOPNOTSUPP; EINVAL on kernels
 * older than 4.15).  The job then fails, saying so, unless dax_emulate=1:
 * the same range is mapped with plain MAP_SHARED and the same stores,
 * flushes and fences run on page-cache memory.  The flushes then write
 * back to DRAM, not to persistent memory, so an emulated run shows the
 * instructions' cache effects (the victim's lost LLC lines, the
 * write-back traffic) and not persistent-memory latency; e->emulated makes
 * the report mark every figure of the job as emulated.
 *
 * Reads map the file the same way and run the kernel over the mapping
 * (like ioengine=mmap): page faults, if any, happen in the measured time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ioengines/dax.h"
#include "ioengines/ioengine.h"
#include "ioengines/mapfile.h"
#include "kernels/kernel.h"
#include "machine/arch.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE	0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC		0x80000
#endif

/* device-dax maps in units of its alignment; kernels before 5.10 have no
 * align attribute, and their regions were 2 MiB-aligned by default. */
#define DAX_DEV_ALIGN_DEFAULT	(2ULL << 20)

/* e->priv; begins with the mapping, for mapfile_get/sync/teardown. */
struct dax_priv {
	struct mapfile mf;		/* align: device-dax's unit */
	size_t line;			/* flush granularity, a power of 2 */
	flush_loop_fn flush;		/* NULL: writes are not flushed */
	bool fence_block;		/* a fence after each block's flushes */
	bool devdax;			/* a /dev/daxX.Y node */
};
_Static_assert(offsetof(struct dax_priv, mf) == 0,
	       "mapfile_get() takes e->priv for a struct mapfile");


/* ---- parse-time checks ---------------------------------------------- */

static const struct dax_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &ioengine_dax_opts);
}

/* This architecture's fence (none where memjob knows none). */
static enum fence_kind arch_fence(void)
{
	for (int f = FENCE_NONE + 1; f < FENCE_KINDS; f++)
		if (fence_here((enum fence_kind)f))
			return (enum fence_kind)f;
	return FENCE_NONE;
}

/* The instruction and the fence: this architecture's, and the CPU's. */
static int dax_validate_insns(const struct job_spec *job,
			      const struct dax_opts *o, struct diag *d)
{
	char here[96];
	int ret = 0;

	flush_list_here(here, sizeof(here));
	if (!flush_here(o->flush)) {
		diag_error(d, job_loc(job, "flush"), "flush", "%s is an %s "
			   "instruction; this %s build flushes with %s",
			   flush_name(o->flush), flush_arch(o->flush),
			   ARCH_NAME, here);
		ret = -EINVAL;
	} else if (o->flush != FLUSH_NONE && !flush_cpu_has(o->flush)) {
		diag_error(d, job_loc(job, "flush"), "flush", "this CPU has no "
			   "%s (%s); it has %s", flush_name(o->flush),
			   flush_feature(o->flush), here);
		ret = -EINVAL;
	}
	if (!fence_here(o->fence)) {
		diag_error(d, job_loc(job, "fence"), "fence", "%s is an %s "
			   "fence; this %s build fences with %s",
			   fence_name(o->fence), fence_arch(o->fence),
			   ARCH_NAME, arch_fence() ? fence_name(arch_fence()) :
			   "none (memjob knows no fence of it)");
		ret = -EINVAL;
	}
	return ret;
}

static int dax_validate(const struct job_spec *job, struct diag *d)
{
	const struct dax_opts *o = opts_of(job);
	bool write = RW_IS_WRITE(job->rw);
	int ret = 0;

	if (!write && o->flush != FLUSH_NONE) {
		diag_error(d, job_loc(job, "flush"), "flush", "flush applies "
			   "to writes; this job has a read rw");
		ret = -EINVAL;
	}
	if (!write && o->fence != FENCE_NONE) {
		diag_error(d, job_loc(job, "fence"), "fence", "fence applies "
			   "to writes; this job has a read rw");
		ret = -EINVAL;
	}
	if (!write && o->nt) {
		diag_error(d, job_loc(job, "nt"), "nt", "nt applies to writes; "
			   "this job has a read rw");
		ret = -EINVAL;
	}
	if (o->fence_scope == FENCE_PER_LINE &&
	    (o->fence == FENCE_NONE || o->flush == FLUSH_NONE)) {
		diag_error(d, job_loc(job, "fence_scope"), "fence_scope",
			   "fence_scope=line fences after each line's flush, "
			   "and needs fence=%s and a flush (this job has "
			   "fence=%s, flush=%s)", fence_name(arch_fence()),
			   fence_name(o->fence), flush_name(o->flush));
		ret = -EINVAL;
	}
	if (dax_validate_insns(job, o, d))
		ret = -EINVAL;
	return ret;
}

/* ---- setup ---------------------------------------------------------- */

/* One number from sysfs /sys/dev/char/MAJ:MIN/<attr>: 0 or -errno. */
static int dax_dev_attr(const struct stat *st, const char *attr,
			uint64_t *val)
{
	char path[128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/%s",
		 major(st->st_rdev), minor(st->st_rdev), attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fscanf(f, "%" SCNu64, val) != 1)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

/*
 * The file's size, and the alignment its mappings need.  device-dax has no
 * BLKGETSIZE64 and a zero st_size: its size and alignment are in sysfs.
 */
static int dax_file_geometry(struct ioe *e, struct mapfile *mf, int fd,
			     uint64_t *fsize)
{
	struct dax_priv *m = e->priv;
	struct stat st;
	int ret;

	if (fstat(fd, &st)) {
		ret = -errno;
		ioe_error(e, "stat %s: %s", e->path, strerror(-ret));
		return ret;
	}
	if (!S_ISCHR(st.st_mode))
		return mapfile_file_size(e, fd, fsize);
	m->devdax = true;
	ret = dax_dev_attr(&st, "size", fsize);
	if (ret) {
		ioe_error(e, "%s is a character device but not device-dax "
			  "(no size in /sys/dev/char/%u:%u): %s", e->path,
			  major(st.st_rdev), minor(st.st_rdev), strerror(-ret));
		return ret;
	}
	if (dax_dev_attr(&st, "align", &mf->align) || !mf->align ||
	    (mf->align & (mf->align - 1)))
		mf->align = DAX_DEV_ALIGN_DEFAULT;
	return 0;
}

/* MAP_SYNC failed with err: map with plain MAP_SHARED if the job allows
 * it.  0 or -errno. */
static int dax_map_emulated(struct ioe *e, int fd, int prot, uint64_t start,
			    size_t len, int err, void **map)
{
	void *p;

	if (!opts_of(e->job)->dax_emulate) {
		ioe_error(e, "%s is not on DAX: mmap with MAP_SYNC failed: %s "
			  "(set dax_emulate=1 to run the same stores and "
			  "flushes on an ordinary mapping)", e->path,
			  strerror(err));
		return -err;
	}
	p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)start);
	if (p == MAP_FAILED) {
		int ret = -errno;

		ioe_error(e, "mmap %s (%zu bytes at offset %" PRIu64 "): %s",
			  e->path, len, start, strerror(-ret));
		return ret;
	}
	*map = p;
	e->emulated = true;
	snprintf(e->info, sizeof(e->info), "emulated: MAP_SYNC failed (%s), "
		 "ordinary shared mapping", strerror(err));
	return 0;
}

/*
 * Map [start, start + len) with MAP_SYNC, or, when the file is not on DAX
 * and the job allows it, with plain MAP_SHARED.  0 or -errno.  MAP_SYNC
 * fails with EOPNOTSUPP where the file system cannot honour it, and with
 * EINVAL on kernels that predate it; device-dax always supports it, so
 * there EINVAL means a misaligned range.
 */
static int dax_map(struct ioe *e, struct mapfile *mf, int fd, uint64_t start,
		   size_t len, void **map)
{
	const struct dax_priv *m = e->priv;
	int prot = PROT_READ | (mf->write ? PROT_WRITE : 0);
	void *p;
	int err;

	p = mmap(NULL, len, prot, MAP_SHARED_VALIDATE | MAP_SYNC, fd,
		 (off_t)start);
	if (p != MAP_FAILED) {
		snprintf(e->info, sizeof(e->info), "MAP_SYNC mapping");
		*map = p;
		return 0;
	}
	err = errno;
	if (err == EOPNOTSUPP || (err == EINVAL && !m->devdax))
		return dax_map_emulated(e, fd, prot, start, len, err, map);
	if (m->devdax && err == EINVAL)
		ioe_error(e, "mmap %s with MAP_SYNC (%zu bytes at offset %" PRIu64 "): %s "
			  "(device-dax maps whole units of its alignment, "
			  "%" PRIu64 " bytes here)", e->path, len, start,
			  strerror(err), mf->align);
	else
		ioe_error(e, "mmap %s with MAP_SYNC (%zu bytes at offset %" PRIu64 "): %s",
			  e->path, len, start, strerror(err));
	return -err;
}

static const struct mapfile_ops dax_file_ops = {
	.geometry = dax_file_geometry,
	.map = dax_map,
};

static int dax_setup(struct ioe *e)
{
	const struct dax_opts *o = opts_of(e->job);
	struct dax_priv *m;
	int ret;

	m = ioe_priv_alloc(e, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->mf.write = RW_IS_WRITE(e->job->rw);
	m->line = flush_line_size();
	if (m->mf.write) {
		/* validate() let through only this architecture's fence */
		bool fence = o->fence != FENCE_NONE;

		m->flush = flush_loop(o->flush, fence &&
				      o->fence_scope == FENCE_PER_LINE);
		m->fence_block = fence && (o->fence_scope == FENCE_PER_BLOCK ||
					   !m->flush);
	}
	ret = mapfile_setup(e, &m->mf, &dax_file_ops);
	if (ret)
		mapfile_teardown(e);
	return ret;
}

/* ---- the data path -------------------------------------------------- */

/* The kernel has stored into the unit: flush its lines, then fence. */
static int dax_put(struct ioe *e, struct io_unit *u)
{
	struct dax_priv *m = e->priv;
	uintptr_t p = (uintptr_t)u->buf & ~(uintptr_t)(m->line - 1);

	if (!m->mf.write)
		return 0;
	if (m->flush && u->len)
		m->flush(p, (uintptr_t)u->buf + u->len, m->line);
	if (m->fence_block)
		flush_fence();
	return 0;
}

/*
 * nt=1: the stores are the non-temporal ones of the kernel that writes
 * into memory by default (fill impl=nt), which the job gets unless it
 * names another kernel or impl (an error then).
 */
static void dax_resolve(struct job_spec *j, struct diag *d)
{
	const struct kernel_ops *fill = kernel_store_default();

	if (!opts_of(j)->nt || !RW_IS_WRITE(j->rw))
		return;
	if (job_isset(j, "kernel") && j->kernel != fill) {
		diag_error(d, job_loc(j, "nt"), "nt", "non-temporal "
			   "stores come from kernel=fill impl=nt, but this "
			   "job has kernel=%s", j->kernel->name);
	} else if (j->impl_name && strcmp(j->impl_name, "nt")) {
		diag_error(d, job_loc(j, "nt"), "nt", "nt=1 needs "
			   "impl=nt, but this job has impl=%s",
			   j->impl_name);
	} else {
		j->kernel = fill;
		free(j->impl_name);
		j->impl_name = strdup("nt");
	}
}

/* A writer whose flushes leave its lines cached fills the cache as a
 * reader of the same bytes would: what the flush probe found decides how
 * its neighbours' slowdown reads. */
static void dax_quirk_note(const struct job_spec *job,
			   const struct machine_quirks *q, char *buf,
			   size_t len)
{
	const struct dax_opts *o = opts_of(job);
	const struct flush_probe *fp = &q->flush;

	buf[0] = '\0';
	if (!RW_IS_WRITE(job->rw) || o->flush == FLUSH_NONE || !fp->ran ||
	    fp->effect[o->flush] != FLUSH_KEEPS)
		return;
	snprintf(buf, len, "%s keeps lines cached on this CPU (a load after "
		 "it takes %.0f ticks, a cached line %.0f, an evicted one "
		 "%.0f): its writer evicts like a reader", flush_name(o->flush),
		 fp->after[o->flush], fp->cached, fp->evicted);
}


/* Every architecture's words, in the order of enum flush_kind and
 * fence_kind: a job file says any, and validate() refuses those of
 * another architecture with this one's. */
static const char *const flush_words[] = {
	"none", "clflush", "clflushopt", "clwb", "dc_cvac", "dc_cvap",
	"dc_civac", NULL
};
static const char *const fence_words[] = { "none", "sfence", "dsb", NULL };
static const char *const fence_scope_words[] = { "block", "line", NULL };

_Static_assert(sizeof(flush_words) / sizeof(*flush_words) == FLUSH_KINDS + 1,
	       "a word for every flush_kind");
_Static_assert(sizeof(fence_words) / sizeof(*fence_words) == FENCE_KINDS + 1,
	       "a word for every fence_kind");

static const char *flush_unavailable_word(int word)
{
	return flush_unavailable((enum flush_kind)word);
}

static const char *fence_unavailable_word(int word)
{
	return fence_unavailable((enum fence_kind)word);
}

#define F(field)	offsetof(struct dax_opts, field)

static const struct opt_def dax_opt_table[] = {
	{ .name = "flush", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(flush), .def = "none", .words = flush_words,
	  .after = "percentile_list",
	  .unavailable = flush_unavailable_word,
	  .arg = "none|clflush|clflushopt|clwb|dc_cvac|dc_cvap|dc_civac",
	  .help = "ioengine=dax, rw=write: after storing a block, flush each "
		  "of its cache lines with this instruction.  On x86-64: "
		  "clflush, clflushopt or clwb.  On arm64: dc_cvac (DC CVAC, "
		  "clean to the point of coherency), dc_cvap (DC CVAP, clean "
		  "to the point of persistence, ARMv8.2) or dc_civac (DC "
		  "CIVAC, clean and invalidate).  Another architecture's "
		  "instruction, or one this CPU lacks (cpuid, HWCAP), is "
		  "refused when the job is parsed; --cmdhelp=flush lists this "
		  "build's." },
	{ .name = "fence", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(fence), .def = "none", .words = fence_words,
	  .arg = "none|sfence|dsb", .unavailable = fence_unavailable_word,
	  .help = "ioengine=dax: the fence that follows the flushes (see "
		  "fence_scope): sfence on x86-64, dsb on arm64 (DSB SY, "
		  "which waits until every cache operation before it is "
		  "complete)." },
	{ .name = "fence_scope", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(fence_scope), .def = "block", .words = fence_scope_words,
	  .arg = "block|line",
	  .help = "ioengine=dax: fence once after each block's flushes "
		  "(block) or after every line's flush (line)." },
	{ .name = "nt", .type = OPT_BOOL, .cat = CAT_SOURCE, .off = F(nt),
	  .def = "0", .arg = "BOOL",
	  .help = "ioengine=dax, rw=write: store with non-temporal stores "
		  "(which bypass the cache) instead of the kernel's stores." },
	{ .name = "dax_emulate", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(dax_emulate), .def = "0", .arg = "BOOL",
	  .help = "ioengine=dax without DAX hardware: run the same stores, "
		  "flushes and fences on an ordinary shared file mapping "
		  "instead of failing.  Every figure of the job is marked "
		  "emulated." },

};

const struct opt_group ioengine_dax_opts =
	OPT_GROUP("dax", dax_opt_table, struct dax_opts);

const struct ioengine_ops ioengine_dax = {
	.name = "dax",
	.help = "the file mapped MAP_SYNC on persistent memory (DAX file or "
		"/dev/daxX.Y); writes flushed with the CPU's cache-line "
		"instructions (clflush, clflushopt, clwb; DC CVAC, CVAP, "
		"CIVAC on arm64)",
	.flags = IOE_FILE | IOE_MAPPED,
	.opts = &ioengine_dax_opts,
	.resolve = dax_resolve,
	.validate = dax_validate,
	.quirk_note = dax_quirk_note,
	.setup = dax_setup,
	.get = mapfile_get,
	.put = dax_put,
	.sync = mapfile_sync,
	.teardown = mapfile_teardown,
};
