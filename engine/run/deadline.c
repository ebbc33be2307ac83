/*
 * deadline.c - a job's deadline as a timer of its own thread (see
 * deadline.h).
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "run/deadline.h"
#include "run/shared.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id	_sigev_un._tid
#endif

#define REPEAT_NS	100000000L	/* again every 0.1 s */

int deadline_arm(struct deadline *d, uint64_t ns)
{
	struct itimerspec its = {
		.it_value = { (time_t)(ns / 1000000000u),
			      (long)(ns % 1000000000u) },
		.it_interval = { 0, REPEAT_NS },
	};
	struct sigevent sev;

	if (!d->made) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = EXEC_SIGWAKE;
		sev.sigev_notify_thread_id = gettid();
		if (timer_create(CLOCK_MONOTONIC, &sev, &d->timer))
			return -1;
		d->made = true;
	}
	return timer_settime(d->timer, TIMER_ABSTIME, &its, NULL);
}

void deadline_disarm(struct deadline *d)
{
	if (d->made)
		timer_delete(d->timer);
	d->made = false;
}
