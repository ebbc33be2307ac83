/*
 * isolate_mem.c - the same memory at the start of every run, on a host
 * that takes free memory back (see isolate.h and machine/quirks.h).
 *
 * On such a guest a run that writes into memory the guest freed seconds
 * ago (a file's page cache, a buffer) waits for the host to hand it back,
 * page by page: 2.2 s per GiB on the guest memjob was written on, five
 * times the whole cost of a buffered write.  A run that follows another
 * reuses what the previous run's deleted file freed a moment before and
 * pays nothing, so the same job measured 0.41 GB/s alone and 2.15 GB/s
 * inside its scenario.  memjob makes every run start warm: right before
 * it starts the run's threads it faults in as much memory as the run will
 * write into, with huge pages (the host takes free memory back in blocks
 * of 2 MiB or more, and the page cache allocates large folios), and frees
 * it at once; the run's own allocations then take those blocks, which are
 * the guest's again, whatever ran before.  Cold for every run cannot be
 * had: nothing tells the host to take memory back on demand.
 *
 * What a run will write into: a file job's range of each distinct file
 * through the page cache (not with direct=1), and the region of each
 * clone of a source with memory of its own (hugetlb pages come from their
 * pool, not from the free lists).  Never more than the free memory (and
 * the room the memory cgroups above memjob leave) less a reserve, so that
 * the warm-up never pushes out cached pages nor meets a limit; a run with
 * memory_limit= is not warmed (its cgroup would reclaim for it).
 */
#include <stdio.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "run/isolate.h"
#include "util/sysfile.h"
#include "util/value.h"

/* Free memory the warm-up leaves alone: a sixteenth of the machine, at
 * least 256 MiB. */
static uint64_t reserve(void)
{
	uint64_t total = sysfile_meminfo("MemTotal:") / 16;

	return total > (256ull << 20) ? total : 256ull << 20;
}

static bool seen_before(const struct planned_job *pj, unsigned c,
			const struct plan *p, const struct segment *sg,
			unsigned job)
{
	const char *path = pj->paths[c];

	for (unsigned d = 0; d < c; d++)
		if (pj->paths[d] && !strcmp(pj->paths[d], path))
			return true;
	for (unsigned i = sg->first; i < job; i++) {
		const struct planned_job *o = &p->jobs[i];

		for (unsigned d = 0; o->paths && d < o->spec->numjobs; d++)
			if (o->paths[d] && !strcmp(o->paths[d], path))
				return true;
	}
	return false;
}

/* The bytes job i of sg writes into that are not memory yet. */
static uint64_t job_memory(const struct plan *p, const struct segment *sg,
			   unsigned i)
{
	const struct planned_job *pj = &p->jobs[i];
	const struct job_spec *j = pj->spec;
	uint64_t sum = 0;

	if (!j->isolate_phases || hugepage_bytes(j->hugepage))
		return 0;
	if (ioe_own_memory(j->ioengine))
		return pj->size * j->numjobs;
	if (!pj->paths || (j->direct && ioe_honours(j->ioengine, "direct")))
		return 0;
	for (unsigned c = 0; c < j->numjobs; c++)
		if (pj->paths[c] && !seen_before(pj, c, p, sg, i))
			sum += pj->size;
	return sum;
}

struct isolate_warm isolate_warm_memory(const struct plan *p,
					const struct segment *sg,
					const struct machine_quirks *q)
{
	struct isolate_warm w;
	uint64_t free_mem, room;

	memset(&w, 0, sizeof(w));
	if (!q || !quirks_host_takes_memory(q))
		return w;
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		if (p->jobs[i].spec->memory_limit && job_memory(p, sg, i)) {
			snprintf(w.why, sizeof(w.why), "not warmed: "
				 "memory_limit's cgroup would reclaim for it");
			w.asked = true;
			return w;
		}
		w.want += job_memory(p, sg, i);
	}
	if (!w.want)
		return w;
	w.asked = true;
	free_mem = memprobe_free();
	room = free_mem > reserve() ? free_mem - reserve() : 0;
	if (room < w.want) {
		char a[32], b[32];

		snprintf(w.why, sizeof(w.why), "%s of %s: the free memory "
			 "holds no more", value_format_bytes((double)room, a,
							    sizeof(a)),
			 value_format_bytes((double)w.want, b, sizeof(b)));
	}
	if (room >= MEMPROBE_HUGE &&
	    memprobe_touch(room < w.want ? room : w.want, true, &w.cost, NULL))
		snprintf(w.why, sizeof(w.why), "not warmed: could not map the "
			 "memory");
	return w;
}

void isolate_warm_text(const struct isolate_warm *w, char *buf, size_t len)
{
	char b[32];

	buf[0] = '\0';
	if (!w->asked)
		return;
	if (!w->cost.bytes) {
		snprintf(buf, len, "memory %s", w->why);
		return;
	}
	snprintf(buf, len, "memory warmed first: %s faulted in and freed in "
		 "%.3f s%s%s%s", value_format_bytes((double)w->cost.bytes, b,
						     sizeof(b)),
		 (double)w->cost.ns / 1e9, w->why[0] ? " (" : "", w->why,
		 w->why[0] ? ")" : "");
}
