/*
 * clock.h - the clock memjob times with: CLOCK_MONOTONIC in nanoseconds
 * (never moved by settimeofday or an NTP step; the epoch is arbitrary,
 * so only differences mean anything); and getrusage's times in the same
 * unit.
 */
#ifndef MEMJOB_CLOCK_H
#define MEMJOB_CLOCK_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A struct timeval (getrusage's CPU times) in nanoseconds. */
static inline uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

#endif
