/*
 * memprobe.h - faulting in fresh anonymous memory, timed: the one
 * primitive behind the run's memory quirks (quirks.h) and the warm-up
 * before each phase (run/isolate.h).
 *
 * A virtual machine whose host takes free memory back (free page
 * reporting, a balloon) hands a guest page that was free for a few
 * seconds back only when it is touched again, at the host's cost; a
 * page freed a moment ago is still the guest's.  Touching the same
 * amount twice, the second time right after unmapping the first, shows
 * the difference.  The host reports free memory in blocks of 2 MiB or
 * more (page_reporting_order), which 4 KiB faults of a small region
 * rarely reach: huge=true asks for transparent huge pages, so that every
 * fault takes a whole block, as the page cache's large folios do.
 */
#ifndef MEMJOB_MEMPROBE_H
#define MEMJOB_MEMPROBE_H

#include <stdbool.h>
#include <stdint.h>

#define MEMPROBE_PAGE	4096ull
#define MEMPROBE_HUGE	(2ull << 20)

struct touch_cost {
	uint64_t bytes;			/* touched */
	uint64_t ns;			/* wall time of the touch */
	uint64_t sys_ns;		/* the thread's system time in it */
	uint64_t faults;		/* minor faults the thread took */
};

/*
 * Map bytes (rounded up to 2 MiB) of anonymous memory 2 MiB-aligned, with
 * MADV_HUGEPAGE when huge (else MADV_NOHUGEPAGE), and write one byte per
 * 4 KiB page, timed into *c.  keep: the mapping is left in *keep for the
 * caller to use and memprobe_unmap; NULL: unmapped at once, which returns
 * the pages to the kernel's free lists.  0, or -1 when the memory could
 * not be mapped.
 */
int memprobe_touch(uint64_t bytes, bool huge, struct touch_cost *c,
		   void **keep);
/*
 * Map up to max_bytes the same way (huge pages) and touch them block by
 * block, 2 MiB at a time, the wall time of each block in ns[k]; after
 * each block enough(ns, k + 1, user) may end it, and so does budget_ns.
 * The mapping is unmapped at the end.  Returns the blocks touched (0:
 * the memory could not be mapped).
 */
unsigned memprobe_touch_blocks(uint64_t max_bytes, uint64_t budget_ns,
			       double *ns,
			       bool (*enough)(const double *ns, unsigned n,
					      void *user),
			       void *user);
/* The memory a probe or a warm-up may touch without making anyone give
 * any back: the free memory (MemFree), and no more than the room the
 * memory cgroups above this process leave (memcg.h); 0 when unknown. */
uint64_t memprobe_free(void);
/* Unmap what memprobe_touch kept (bytes as given to it). */
void memprobe_unmap(void *p, uint64_t bytes);

#endif
