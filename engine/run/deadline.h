/*
 * deadline.h - a job's deadline (runtime=) as a timer of its own thread:
 * from the deadline on, the thread gets EXEC_SIGWAKE every 0.1 s, so any
 * wait it is in (a read of a FIFO, a ring's completions, a futex) ends
 * with EINTR and the data source, seeing the deadline passed
 * (ioe_past_deadline), gives up with -ETIME.  Sent again and again: a
 * signal that comes just before a call blocks is otherwise lost.
 */
#ifndef MEMJOB_DEADLINE_H
#define MEMJOB_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct deadline {
	timer_t timer;
	bool made;
};

/* Wake the calling thread from ns (CLOCK_MONOTONIC) on: 0, or -1 when
 * the timer cannot be made (the thread then notices the deadline only
 * between its calls). */
int deadline_arm(struct deadline *d, uint64_t ns);
/* No more wake-ups; the timer is freed. */
void deadline_disarm(struct deadline *d);

#endif
