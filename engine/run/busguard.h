/*
 * busguard.h - a SIGBUS in a job's mapped region becomes a job error.
 *
 * A store into a MAP_SHARED file mapping whose blocks the file system
 * cannot provide (the disk filled, another process truncated the file)
 * raises SIGBUS, which would kill memjob with the job's files left
 * behind.  Each job thread arms a guard over its region; the handler
 * checks the faulting address against the thread's guard, replaces the
 * region with anonymous memory (so the interrupted access completes
 * harmlessly) and notes the fault; the thread looks at the note after
 * each block and ends the job with the cause named.  A SIGBUS anywhere
 * else keeps its default action.
 */
#ifndef MEMJOB_BUSGUARD_H
#define MEMJOB_BUSGUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bus_guard {
	uintptr_t map, maplen;		/* the pages replaced on a fault */
	uintptr_t lo, len;		/* the region, as the job sees it */
	const char *path;		/* the mapped file, or NULL (memory) */
	uint64_t file_off;		/* the file's offset at lo */
	volatile sig_atomic_t hit;
	volatile uintptr_t addr;	/* the first faulting address */
};

/* The process-wide handler; once, before any thread arms a guard. */
void busguard_install(void);
/* Guard [region, region + len) for the calling thread. */
void busguard_arm(struct bus_guard *g, void *region, size_t len,
		  const char *path, uint64_t file_off);
void busguard_disarm(void);
/* Whether the calling thread's guard caught a fault (cheap: per block). */
bool busguard_tripped(void);
/* "one.dat: SIGBUS at offset 4096 of the mapping: ...", for the report. */
void busguard_describe(char *buf, size_t len);

#endif
