/*
 * knee.h - where a latency-by-working-set curve leaves each cache level,
 * set against the cache sizes that sysfs reports (seed 000's sweep).
 *
 * The input is one series of a chase sweep: working-set sizes in bytes and
 * the ns per access measured at each.  The cache levels are those holding
 * data (L1d, L2, L3: data or unified), smallest first.  For each level the
 * result gives the plateau latency (what a working set well inside that
 * level costs), the knee (the first size where the latency has clearly
 * left that plateau, for good), and whether the knee is within a factor
 * of 2 of the sysfs size.  A knee that is not where sysfs says (a VM whose
 * host shares the LLC) is reported as such, never hidden.
 *
 * The rule, for a level of size S whose next smaller data level has size P
 * (0 for L1) and knee K (P when it had none), with B = KNEE_BAND:
 *
 *  1. Several points at one size (repeats) count as their median.
 *  2. The plateau window is the sizes in (2 min(P, K), S/2]: clear of the
 *     smaller level's edge, where it was measured or sysfs puts it if
 *     that is smaller, and of this level's own edge.  If it is empty,
 *     (P, S].
 *  3. Latency noise on a busy machine only ever adds time, so the plateau
 *     is the median of the window's points within B times the window's
 *     lowest latency: neither a burst of noise nor a knee that comes early,
 *     inside the window, drags it up.
 *  4. A rise is clear when it is F times the plateau, F = KNEE_RISE times
 *     the plateau's own spread (its median over the window's lowest
 *     point), at most KNEE_RISE_MAX: a tight plateau shows a soft step, a
 *     noisy one needs a steep one.  Scanning up from the first plateau
 *     point, the knee is the first size whose latency is a clear rise
 *     that holds: over it and the next KNEE_CONFIRM sizes measured (as
 *     many as there are), the median is a clear rise too and no point
 *     comes back down to H = (1 + F) / 2 times the plateau.  So one slow
 *     point is no knee (the median of three is a plateau point), and a
 *     step followed by a dip is still a step: a stream of stores steps up
 *     at L2 and then eases off a little while the L3 takes it, without
 *     getting back to L2's latency.  The plateau ends at the size
 *     measured before the knee.
 *  5. Found where sysfs says: S/2 <= knee <= 2 S.  Real caches start to
 *     miss a little before they are full (pseudo-LRU, other data, physical
 *     indexing), so the knee is typically between 3/4 S and S.
 *
 * A dependent chase steps by 2.5x or more between levels, a stream of
 * independent stores (jobs/cache-loop.ini) by as little as 1.4x (the
 * prefetchers hide most of the next level's latency): F runs from 1.3,
 * for a plateau whose points agree, to 1.5, well below any chase step and
 * above the noise that medians of repeats leave.  B = 1.5 keeps a noisy
 * plateau's points in its median.  With chase_layout=random on 4 KiB
 * pages, TLB misses raise the latency of large working sets on their own
 * and can make a knee of their own; chase_layout=page or hugepage=thp
 * leaves them out.
 */
#ifndef MEMJOB_KNEE_H
#define MEMJOB_KNEE_H

#include <stdint.h>
#include <stdio.h>

#include "util/row.h"
#include "machine/topology.h"

#define KNEE_BAND	1.5	/* the plateau: within B x the lowest */
#define KNEE_RISE	1.3	/* a clear rise over a tight plateau */
#define KNEE_RISE_MAX	1.5	/* ... and over the noisiest */
#define KNEE_CONFIRM	2	/* sizes after the rise that must hold it */
#define KNEE_MAX_LEVELS	TOPO_MAX_CACHES
/* A size's median latency, and the plateau's, are figures (util/row.h)
 * of this many significant digits: what JSON prints, the text with as
 * many or fewer. */
#define KNEE_NS_DIGITS	6

enum knee_status {
	KNEE_FOUND,		/* within a factor of 2 of the sysfs size */
	KNEE_FAR,		/* a knee, but not near the sysfs size */
	KNEE_NONE,		/* the sweep goes past 2 S, no knee near S */
	KNEE_NO_DATA,		/* too few sizes to tell */
};

struct knee {
	unsigned level;
	char type;		/* 'd' data or 'u' unified */
	uint64_t cache_size;	/* as sysfs says, bytes */
	uint64_t knee_size;	/* first size off the plateau; 0 none */
	uint64_t plateau_end;	/* the size measured before it; 0 none */
	uint64_t last_size;	/* the largest size measured */
	double plateau_ns;	/* 0 when there was no window */
	double after_ns;	/* latency at knee_size; 0 none */
	enum knee_status status;
	char text[160];		/* the finding as a sentence, for people */
};

/*
 * One knee per data or unified level of levels (instruction caches and
 * NULL entries are skipped), into out (room for nlevels).  sizes and ns
 * hold n points in any order; points with a size of 0 or a latency that
 * is not a positive number are left out.  Returns the number of entries
 * written, or -1 when out of memory.
 */
int knee_find(const uint64_t *sizes, const double *ns, unsigned n,
	      const struct topo_cache *const *levels, unsigned nlevels,
	      struct knee *out);

/* The data levels of cpu (L1d, L2, L3...), smallest first, into out
 * (room for max).  Returns how many. */
unsigned knee_levels(const struct topo *t, unsigned cpu,
		     const struct topo_cache **out, unsigned max);

/* A table of n knees, one line per level, under a header line; each line
 * is indented by two spaces. */
void knee_print(FILE *f, const struct knee *k, unsigned n);
/* A knee as cells of a row (for JSON): cache, level, type, cache_size,
 * plateau_ns, plateau_end, knee_size, after_ns, last_size, status
 * (found, far, none, no_data) and finding (the sentence); sizes in
 * bytes, absent where there is none. */
void knee_cells(struct row_emitter *e, const struct knee *k);

#endif
