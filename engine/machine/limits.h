/*
 * limits.h - how large a machine memjob describes: its CPU and node
 * bitmaps are this many bits.  Here, below the topology and the job spec
 * that both size arrays by them.
 */
#ifndef MEMJOB_LIMITS_H
#define MEMJOB_LIMITS_H

#define MEMJOB_MAX_CPUS		1024
#define MEMJOB_MAX_NODES	1024
/* The largest cache memjob believes in, per instance: today's largest
 * CPU caches hold about 1 GiB (stacked L3) to 3 GiB (a drawer's shared
 * cache), so a description with more is a mistake. */
#define MEMJOB_MAX_CACHE	(16ull << 30)
#define BITMAP_WORDS(n)		(((n) + 63) / 64)

#endif
