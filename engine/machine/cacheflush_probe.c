/*
 * cacheflush_probe.c - what each flush instruction does here to the line
 * it flushes (see cacheflush.h), the same probe on every architecture.
 *
 * The probe stores to NLINES lines a page apart (so that no prefetcher
 * walks from one to the next), treats them, and then times one load of
 * each in a shuffled order, ROUNDS times over, taking the median:
 *   cached   nothing between the store and the load;
 *   evicted  a read of every line of a buffer twice the size of the last
 *            level cache (every level is then full of the buffer's lines);
 *   after X  the instruction X on each line, then the full fence (mfence,
 *            DSB SY), which waits for the weakly ordered ones to complete.
 * The clock and the fence are the architecture's (cacheflush_int.h); only
 * the differences between the three medians mean anything, and the
 * verdict compares them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cacheflush.h"
#include "machine/cacheflush_int.h"
#include "util/stats.h"

#define NLINES		64
#define ROUNDS		5
#define SPAN		4160		/* a page and a line: a new set */

enum flush_effect flush_judge(double cached, double evicted, double after)
{
	double gap = evicted - cached;

	/* a miss must cost clearly more than a hit for either to be told */
	if (cached <= 0 || after <= 0 || evicted < 1.5 * cached || gap < 30)
		return FLUSH_UNCLEAR;
	if (after < cached + gap / 3)
		return FLUSH_KEEPS;
	if (after > cached + 2 * gap / 3)
		return FLUSH_EVICTS;
	return FLUSH_UNCLEAR;
}

/* Read one byte of each line of the walk: the reference lines leave
 * every cache level. */
static void evict_by_walk(const volatile char *walk, size_t len, size_t line)
{
	for (size_t i = 0; i < len; i += line)
		(void)walk[i];
}

/*
 * One median over ROUNDS passes: store to each line, treat it (how < 0:
 * read the walk through instead; FLUSH_NONE: nothing), fence, then time
 * a load of each in the order of perm.
 */
static double measure(char *lines, const unsigned *perm, int how,
		      const void *walk, size_t len, size_t line)
{
	flush_loop_fn treat = how > FLUSH_NONE ?
			      flush_loop((enum flush_kind)how, false) : NULL;
	double t[ROUNDS * NLINES];
	size_t n = 0;

	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned i = 0; i < NLINES; i++)
			lines[(size_t)i * SPAN] = (char)(i + r);
		flush_full_fence();
		if (how < 0)
			evict_by_walk(walk, len, line);
		else if (treat)
			for (unsigned i = 0; i < NLINES; i++) {
				uintptr_t p = (uintptr_t)&lines[(size_t)i *
								SPAN];

				treat(p, p + 1, line);
			}
		flush_full_fence();
		for (unsigned i = 0; i < NLINES; i++)
			t[n++] = (double)flush_timed_load(
					&lines[(size_t)perm[i] * SPAN]);
	}
	return stat_summarise(t, n).median;
}

void flush_probe(struct flush_probe *fp, const void *walk, size_t len)
{
	unsigned perm[NLINES], seed = 12345;
	size_t line = flush_line_size();
	char *lines;

	memset(fp, 0, sizeof(*fp));
	if (!walk || len < line) {
		strcpy(fp->why, "no buffer to evict the reference lines with");
		return;
	}
	if (!flush_clock_usable(fp->why, sizeof(fp->why)))
		return;
	lines = aligned_alloc(4096, (size_t)NLINES * SPAN);
	if (!lines) {
		strcpy(fp->why, "out of memory");
		return;
	}
	memset(lines, 0, (size_t)NLINES * SPAN);
	for (unsigned i = 0; i < NLINES; i++)
		perm[i] = i;
	for (unsigned i = NLINES - 1; i > 0; i--) {	/* Fisher-Yates */
		unsigned k, tmp;

		seed = seed * 1103515245u + 12345u;
		k = (seed >> 8) % (i + 1);
		tmp = perm[i];
		perm[i] = perm[k];
		perm[k] = tmp;
	}
	fp->cached = measure(lines, perm, FLUSH_NONE, walk, len, line);
	fp->evicted = measure(lines, perm, -1, walk, len, line);
	for (int k = FLUSH_NONE + 1; k < FLUSH_KINDS; k++) {
		if (!flush_cpu_has((enum flush_kind)k))
			continue;
		fp->after[k] = measure(lines, perm, k, walk, len, line);
		fp->effect[k] = flush_judge(fp->cached, fp->evicted,
					    fp->after[k]);
	}
	free(lines);
	fp->ran = true;
}
