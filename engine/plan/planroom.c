/*
 * planroom.c - whether this machine has room for a plan, before anything
 * runs (plan.h's plan_check_machine): the data sources it can run at all
 * (io_uring where the kernel gives a ring), free disk for the files to
 * create, free memory for the regions, free huge pages in their pools,
 * and a memory cgroup for memory_limit; then the limits of the process
 * (planlimits.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "ioengines/ioengine.h"
#include "machine/memcg.h"
#include "parse/check.h"
#include "plan/plan.h"
#include "util/path.h"
#include "util/sysfile.h"
#include "util/value.h"

/* Free disk: the files to create, per file system (st_dev of their
 * directory), each directory looked at once per file, never per pair. */
static void check_disk(struct plan *p, struct diag *d)
{
	struct fs_need {
		dev_t dev;
		uint64_t sum, free_bytes;
		unsigned first;		/* the first create on it */
	} *fs = calloc(p->ncreates ? p->ncreates : 1, sizeof(*fs));
	unsigned nfs = 0;

	if (!fs) {
		diag_plain(d, "out of memory");
		return;
	}
	for (unsigned i = 0; i < p->ncreates; i++) {
		struct statvfs vfs;
		struct stat st;
		char dir[4096];
		unsigned k;

		path_dir(p->creates[i].path, dir, sizeof(dir));
		if (stat(dir, &st))
			continue;
		for (k = 0; k < nfs && fs[k].dev != st.st_dev; k++)
			;
		if (k == nfs) {
			/* no blocks at all: a file system that keeps no
			 * count (ramfs, whose pages are memory) */
			if (statvfs(dir, &vfs) || !vfs.f_blocks)
				continue;
			fs[k].dev = st.st_dev;
			fs[k].free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
			fs[k].first = i;
			nfs++;
		}
		fs[k].sum += p->creates[i].size;
	}
	for (unsigned k = 0; k < nfs; k++) {
		const struct file_to_create *c = &p->creates[fs[k].first];
		char dir[4096], need[32], avail[32];

		if (fs[k].sum <= fs[k].free_bytes)
			continue;
		path_dir(c->path, dir, sizeof(dir));
		value_format_size(fs[k].sum, need, sizeof(need));
		value_format_size(fs[k].free_bytes, avail, sizeof(avail));
		diag_error(d, job_loc(c->by, "size"), "size", "the files "
			   "memjob would create in '%s' need %s (%llu "
			   "bytes) but only %s (%llu bytes) are free",
			   dir, need, (unsigned long long)fs[k].sum, avail,
			   (unsigned long long)fs[k].free_bytes);
		break;
	}
	free(fs);
}

/* Free memory: what the jobs of each segment allocate at once (the
 * hungriest job's size is where the error points). */
static void check_memory(struct plan *p, struct diag *d)
{
	uint64_t avail = sysfile_meminfo("MemAvailable:");

	if (!avail)
		return;
	for (unsigned s = 0; s < p->nsegments; s++) {
		struct plan_needs n;
		const struct job_spec *big;
		uint64_t need;
		char n1[32], n2[32];

		plan_needs_of(p, s, &n);
		big = n.big;
		need = n.mem;
		if (big && need > avail) {
			value_format_size(need, n1, sizeof(n1));
			value_format_size(avail, n2, sizeof(n2));
			diag_error(d, job_loc(big, "size"), "size",
				   "the jobs that start with '%s' need %s (%llu "
				   "bytes) of memory at once, but only %s (%llu "
				   "bytes) is available", big->name, n1,
				   (unsigned long long)need, n2,
				   (unsigned long long)avail);
		}
	}
}

/*
 * hugepage=2m|1g: the jobs of a segment map their memory at once, each
 * clone its own, in whole pages from the pool of that size; it must hold
 * that many free pages now.  The pool's files are read below
 * MEMJOB_SYSROOT when it is set (tests).
 */
static void check_hugepages(struct plan *p, struct diag *d)
{
	static const enum hugepage_mode modes[] = { HUGEPAGE_2M, HUGEPAGE_1G };
	const char *root = getenv("MEMJOB_SYSROOT");

	for (unsigned s = 0; s < p->nsegments; s++) {
		const struct segment *sg = &p->segments[s];

		for (unsigned m = 0; m < 2; m++) {
			uint64_t page = hugepage_bytes(modes[m]);
			const struct job_spec *big = NULL;
			uint64_t need = 0, bigpages = 0, avail, total;
			char path[256], pool[256], sz[32];

			for (unsigned i = sg->first; i < sg->first + sg->count;
			     i++) {
				const struct job_spec *j = p->jobs[i].spec;
				uint64_t n;

				if (!j || j->hugepage != modes[m] ||
				    !ioe_own_memory(j->ioengine))
					continue;
				n = (p->jobs[i].size + page - 1) / page *
				    j->numjobs;
				need += n;
				if (!big || n > bigpages) {
					big = j;
					bigpages = n;
				}
			}
			if (!big)
				continue;
			value_format_bytes((double)page, sz, sizeof(sz));
			if (sysfile_hugepages(path, sizeof(path),
					      root ? root : "", page,
					      "free_hugepages") ||
			    sysfile_u64(path, &avail)) {
				diag_error(d, job_loc(big, "hugepage"),
					   "hugepage", "this system has no pool "
					   "of %s huge pages (cannot read %s)",
					   sz, path);
				continue;
			}
			if (need <= avail)
				continue;
			/* the pool must grow by what is missing */
			if (sysfile_hugepages(pool, sizeof(pool),
					      root ? root : "", page,
					      "nr_hugepages") ||
			    sysfile_u64(pool, &total))
				total = avail;
			diag_error(d, job_loc(big, "hugepage"), "hugepage",
				   "the jobs that start with '%s' need %llu "
				   "huge page%s of %s at once, but %llu are "
				   "free (%s); grow the pool first, as root: "
				   "echo %llu > %s", big->name,
				   (unsigned long long)need, need == 1 ? "" : "s",
				   sz, (unsigned long long)avail, path,
				   (unsigned long long)(total + need - avail),
				   pool);
		}
	}
}

/*
 * memory_limit: the jobs of a segment run in one process, in the one
 * memory cgroup of the run, so they must agree on its limit; a limit as
 * large as the machine limits nothing; and the machine must let memjob
 * make the cgroup (engine/machine/memcg.c says why not).
 */
static void check_memory_limit(struct plan *p, struct diag *d)
{
	const struct job_spec *any = NULL;
	struct memcg m;
	uint64_t total;
	char err[1024], n1[32], n2[32];

	for (unsigned s = 0; s < p->nsegments; s++) {
		const struct segment *sg = &p->segments[s];
		const struct job_spec *first = p->jobs[sg->first].spec;

		for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
			const struct job_spec *j = p->jobs[i].spec;

			if (j->memory_limit == first->memory_limit) {
				if (j->memory_limit && !any)
					any = j;
				continue;
			}
			value_format_size(j->memory_limit, n1, sizeof(n1));
			value_format_size(first->memory_limit, n2, sizeof(n2));
			diag_error(d, job_loc(j, "memory_limit"),
				   "memory_limit", "'%s' (%s) runs at the same "
				   "time as '%s' (%s): the jobs that run "
				   "together share one memory cgroup and need "
				   "the same limit (set it in [global])",
				   j->name, n1, first->name, n2);
			return;
		}
	}
	if (!any)
		return;
	total = sysfile_meminfo("MemTotal:");
	if (total && any->memory_limit >= total) {
		value_format_size(any->memory_limit, n1, sizeof(n1));
		value_format_bytes((double)total, n2, sizeof(n2));
		diag_error(d, job_loc(any, "memory_limit"), "memory_limit",
			   "%s is not below this machine's memory (%s), so it "
			   "would limit nothing", n1, n2);
		return;
	}
	if (memcg_locate(&m, err, sizeof(err)))
		diag_error(d, job_loc(any, "memory_limit"), "memory_limit",
			   "memjob cannot give the run a memory cgroup here: "
			   "%s", err);
}

/* Whether loc is one of said[0..n). */
static bool said_at(const struct srcloc *const *said, unsigned n,
		    const struct srcloc *loc)
{
	for (unsigned k = 0; k < n; k++)
		if (said[k]->line == loc->line && said[k]->file && loc->file &&
		    !strcmp(said[k]->file, loc->file))
			return true;
	return false;
}

/* Each data source the plan uses, if it says this machine cannot run it
 * (io_uring refused): an error at each job's ioengine line, once (the
 * points of a sweep share it), the first few lines only. */
static void check_sources(struct plan *p, struct diag *d)
{
	const struct srcloc *said[16];
	unsigned nsaid = 0;
	char why[256];

	for (unsigned i = 0; i < p->njobs && nsaid < 16; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct srcloc *loc = job_loc(j, "ioengine");

		if (!j->ioengine->available || (loc && said_at(said, nsaid, loc)))
			continue;
		if (j->ioengine->available(why, sizeof(why))) {
			diag_error(d, loc, "ioengine", "%s", why);
			if (loc)
				said[nsaid++] = loc;
		}
	}
}

void plan_check_machine(struct plan *p, struct diag *d)
{
	unsigned before = d->errors;

	check_sources(p, d);
	if (d->errors == before)
		check_disk(p, d);
	if (d->errors == before)
		check_memory(p, d);
	if (d->errors == before)
		check_hugepages(p, d);
	if (d->errors == before)
		check_memory_limit(p, d);
	if (d->errors == before)
		plan_check_limits(p, d);
}
