/*
 * cacheflush_int.h - what the flush probe (cacheflush_probe.c) needs of
 * the architecture, given by cacheflush_x86.c and cacheflush_arm64.c (and
 * by cacheflush.c's fallback for any other): one timed load and a fence
 * that waits for every store and cache operation before it.
 */
#ifndef MEMJOB_CACHEFLUSH_INT_H
#define MEMJOB_CACHEFLUSH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether a load can be timed here; false with why filled in (the
 * counter too coarse, or none known). */
bool flush_clock_usable(char *why, size_t len);
/* The ticks one load of *p takes, between two reads of the counter that
 * wait for what is before them; the few ticks this costs are the same in
 * every case, so only differences mean anything. */
uint64_t flush_timed_load(const volatile char *p);
/* Waits until every store and cache operation before it is complete
 * (x86-64: mfence; arm64: DSB SY). */
void flush_full_fence(void);

#endif
