/*
 * pace.c - the pace of a clone (see pace.h).
 */
#include <stdio.h>
#include <time.h>

#include "run/pace.h"
#include "util/clock.h"

/* Sleep up to us, waking early when stop is set or, for an aggressor,
 * when the last victim is done (until_zero reaches 0). */
void pace_nap(atomic_int *stop, atomic_uint *until_zero, uint64_t us)
{
	uint64_t end = mono_ns() + us * 1000;

	while (!atomic_load_explicit(stop, memory_order_relaxed) &&
	       (!until_zero ||
		atomic_load_explicit(until_zero, memory_order_relaxed))) {
		uint64_t t = mono_ns();
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (t >= end)
			break;
		if (end - t < 10 * 1000 * 1000ull)
			ts.tv_nsec = (long)(end - t);
		nanosleep(&ts, NULL);
	}
}

/* rate_wait=spin: look at the clock until due (CLOCK_MONOTONIC ns),
 * and at the flags every 256 looks. */
static void pace_spin(atomic_int *stop, atomic_uint *until_zero,
		      uint64_t due)
{
	for (unsigned n = 1; mono_ns() < due; n++) {
		if (n % 256)
			continue;
		if (atomic_load_explicit(stop, memory_order_relaxed) ||
		    (until_zero && !atomic_load_explicit(until_zero,
						memory_order_relaxed)))
			return;
	}
}

/* rate=, rate_iops=: sleep while this clone is ahead of its budget, but
 * not past until (the deadline, or the ramp's end: the loop looks at the
 * clock then).  Returns whether it slept. */
bool pace_keep_rate(const struct job_spec *j, uint64_t rate, uint64_t t0,
		    uint64_t bytes, uint64_t ops, uint64_t until,
		    atomic_int *stop, atomic_uint *until_zero)
{
	uint64_t due = t0 + (rate ? (uint64_t)((double)bytes * 1e9 /
					       (double)rate)
				  : (uint64_t)((double)ops * 1e9 /
					       (double)j->rate_iops));
	uint64_t t = mono_ns();

	if (due > until)
		due = until;
	if (j->rate_wait == RATE_SPIN) {
		if (due <= t)
			return false;
		pace_spin(stop, until_zero, due);
		return true;
	}
	if (due <= t + 20000)	/* below 20 us, sleeping costs more */
		return false;
	pace_nap(stop, until_zero, (due - t) / 1000);
	return true;
}

/* ratemin=: fail when bytes in ns fall below it (fio's rate_min). */
int pace_below_ratemin(const struct job_spec *j, uint64_t bytes, uint64_t ns,
		       struct thread_result *out)
{
	double bps;

	if (!j->ratemin || !ns)
		return 0;
	bps = (double)bytes * 1e9 / (double)ns;
	if (bps >= (double)j->ratemin)
		return 0;
	out->status = RUN_FAILED;
	snprintf(out->err, sizeof(out->err), "moved %.0f bytes/s over %.3f s, "
		 "below ratemin=%llu bytes/s", bps, (double)ns / 1e9,
		 (unsigned long long)j->ratemin);
	return -1;
}
