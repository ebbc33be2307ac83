/*
 * cacheflush.c - the flush instructions and what they do here (see
 * cacheflush.h).
 *
 * The probe stores to NLINES lines a page apart (so that no prefetcher
 * walks from one to the next), treats them, and then times one load of
 * each in a shuffled order, ROUNDS times over, taking the median:
 *   cached   nothing between the store and the load;
 *   evicted  a read of every line of a buffer twice the size of the last
 *            level cache (every level is then full of the buffer's lines);
 *   after X  the instruction X on each line, then mfence, which waits for
 *            clflushopt and clwb to complete (they are ordered only by
 *            fences).
 * A load is timed between two reads of the time-stamp counter, the second
 * one rdtscp, which waits for the load to complete; the few tens of ticks
 * this costs are the same in every case, so only the differences mean
 * anything, and the verdict compares them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cacheflush.h"
#include "util/stats.h"

#ifdef __x86_64__
#include <cpuid.h>
#include <immintrin.h>
#include <x86intrin.h>
#endif

#define LINE_DEFAULT	64
#define NLINES		64
#define ROUNDS		5
#define SPAN		4160		/* a page and a line: a new set */

struct flush_insn {
	const char *name;
	unsigned leaf;			/* cpuid leaf (subleaf 0) */
	bool ebx;			/* the bit is in EBX, else in EDX */
	unsigned bit;
	const char *where;		/* for messages */
};

static const struct flush_insn flush_insns[FLUSH_KINDS] = {
	[FLUSH_NONE] = { "none", 0, false, 0, "" },
	[FLUSH_CLFLUSH] = { "clflush", 1, false, 19,
			    "cpuid leaf 1, EDX bit 19" },
	[FLUSH_CLFLUSHOPT] = { "clflushopt", 7, true, 23,
			       "cpuid leaf 7, EBX bit 23" },
	[FLUSH_CLWB] = { "clwb", 7, true, 24, "cpuid leaf 7, EBX bit 24" },
};

const char *flush_name(enum flush_kind k)
{
	return (unsigned)k < FLUSH_KINDS ? flush_insns[k].name : "?";
}

const char *flush_cpuid_bit(enum flush_kind k)
{
	return (unsigned)k < FLUSH_KINDS ? flush_insns[k].where : "";
}

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

#ifdef __x86_64__

bool flush_cpu_has(enum flush_kind k)
{
	const struct flush_insn *f;
	unsigned a, b, c, d;

	if (k <= FLUSH_NONE || k >= FLUSH_KINDS)
		return false;
	f = &flush_insns[k];
	if (!__get_cpuid_count(f->leaf, 0, &a, &b, &c, &d))
		return false;
	return ((f->ebx ? b : d) >> f->bit) & 1;
}

/* cpuid leaf 1, EBX bits 15:8, in units of 8 bytes (/proc/cpuinfo's
 * "clflush size"). */
size_t flush_line_size(void)
{
	unsigned a, b, c, d;
	size_t line;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return LINE_DEFAULT;
	line = ((b >> 8) & 0xff) * 8;
	if (line < 16 || (line & (line - 1)))
		return LINE_DEFAULT;
	return line;
}

__attribute__((target("clflushopt")))
static void do_clflushopt(void *p)
{
	_mm_clflushopt(p);
}

__attribute__((target("clwb")))
static void do_clwb(void *p)
{
	_mm_clwb(p);
}

static void treat(enum flush_kind k, void *p)
{
	switch (k) {
	case FLUSH_CLFLUSH:
		_mm_clflush(p);
		break;
	case FLUSH_CLFLUSHOPT:
		do_clflushopt(p);
		break;
	case FLUSH_CLWB:
		do_clwb(p);
		break;
	default:
		break;
	}
}

static uint64_t timed_load(const volatile char *p)
{
	unsigned aux;
	uint64_t t0, t1;

	_mm_lfence();
	t0 = __rdtsc();
	_mm_lfence();
	(void)*p;
	t1 = __rdtscp(&aux);
	_mm_lfence();
	return t1 - t0;
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
 * read the walk through instead; FLUSH_NONE: nothing), mfence, then time
 * a load of each in the order of perm.
 */
static double measure(char *lines, const unsigned *perm, int how,
		      const void *walk, size_t len, size_t line)
{
	double t[ROUNDS * NLINES];
	size_t n = 0;

	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned i = 0; i < NLINES; i++)
			lines[(size_t)i * SPAN] = (char)(i + r);
		_mm_mfence();
		if (how < 0)
			evict_by_walk(walk, len, line);
		else
			for (unsigned i = 0; i < NLINES; i++)
				treat((enum flush_kind)how,
				      &lines[(size_t)i * SPAN]);
		_mm_mfence();
		for (unsigned i = 0; i < NLINES; i++)
			t[n++] = (double)timed_load(&lines[(size_t)perm[i] *
							   SPAN]);
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
	for (int k = FLUSH_CLFLUSH; k < FLUSH_KINDS; k++) {
		if (!flush_cpu_has((enum flush_kind)k))
			continue;
		fp->after[k] = measure(lines, perm, k, walk, len, line);
		fp->effect[k] = flush_judge(fp->cached, fp->evicted,
					    fp->after[k]);
	}
	free(lines);
	fp->ran = true;
}

#else	/* no flush instructions known on this architecture yet */

bool flush_cpu_has(enum flush_kind k)
{
	(void)k;
	return false;
}

size_t flush_line_size(void)
{
	return LINE_DEFAULT;
}

void flush_probe(struct flush_probe *fp, const void *walk, size_t len)
{
	(void)walk;
	(void)len;
	memset(fp, 0, sizeof(*fp));
	strcpy(fp->why, "no cache-line flush probe for this architecture");
}

#endif
