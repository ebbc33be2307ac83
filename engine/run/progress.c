/*
 * progress.c - the progress line (see progress.h).
 *
 * Per job of the segment: how far it is, as the larger of the share of its
 * bytes done (size x loops x clones, when it ends by size) and the share
 * of its time gone (startdelay + ramp_time + runtime, when it has a
 * runtime); its rate over the last tick; and for the segment, the time
 * left by the slowest job.  An aggressor that runs until its victims are
 * done has no end of its own: it shows its rate only.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "run/progress.h"
#include "util/clock.h"

#define TICK_NS		(500ull * 1000 * 1000)
#define QUIET_NS	(1000ull * 1000 * 1000)	/* say nothing before */
#define MAX_LINE	1024

struct progress {
	FILE *tty;
	const struct plan *p;
	const struct segment *sg;
	struct results *res;
	struct progress_where where;
	unsigned repeat;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC */
	bool stopping, shown;
	uint64_t t0;
	uint64_t *last_bytes;		/* per job, at the last tick */
	uint64_t last_t;
	uint64_t *done;
	double *rate;
};

/* Appends to buf (of len, used *at) like printf, never past the end. */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

static void format_rate(double bps, char *buf, size_t len)
{
	static const char *const unit[] = { "B/s", "kB/s", "MB/s", "GB/s",
					    "TB/s" };
	unsigned u = 0;

	while (bps >= 1000 && u < 4) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, bps >= 100 || u == 0 ? "%.0f %s" : "%.2f %s", bps,
		 unit[u]);
}

static void format_eta(uint64_t s, char *buf, size_t len)
{
	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m", s / 3600,
			 s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", s / 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", s);
}

/* The share of job pj done, in [0, 1], or -1 when it has no end of its own
 * (time_based without runtime cannot happen; an aggressor can). */
static double job_share(const struct planned_job *pj, uint64_t elapsed_ns,
			uint64_t done)
{
	const struct job_spec *j = pj->spec;
	double share = -1;

	if (j->role == ROLE_AGGRESSOR && j->phase == PHASE_LOADED)
		return -1;
	if (j->runtime_us) {
		double total = (double)(j->startdelay_us + j->ramp_us +
					j->runtime_us) * 1e3;

		share = (double)elapsed_ns / total;
	}
	if (!j->time_based && pj->size && j->loops) {
		double total = (double)pj->size * (double)j->loops *
			       (double)j->numjobs;
		double b = (double)done / total;

		if (b > share)
			share = b;
	}
	return share > 1 ? 1 : share;
}

void progress_format(char *buf, size_t len, unsigned width,
		     const struct plan *p, const struct segment *sg,
		     const struct progress_where *where, uint64_t elapsed_ns,
		     const uint64_t *done, const double *rate)
{
	double left = -1;
	size_t at = 0;
	char r[32], e[32];

	if (len == 0)
		return;
	buf[0] = '\0';
	put(buf, len, &at, "memjob:");
	if (where->nsegments > 1 || where->nrepeats > 1) {
		put(buf, len, &at, " [");
		if (where->nsegments > 1)
			put(buf, len, &at, "%u/%u", where->segment + 1,
			    where->nsegments);
		if (where->nrepeats > 1)
			put(buf, len, &at, "%srepeat %u/%u",
			    where->nsegments > 1 ? " " : "", where->repeat + 1,
			    where->nrepeats);
		put(buf, len, &at, "]");
	}
	for (unsigned i = 0; i < sg->count; i++) {
		const struct planned_job *pj = &p->jobs[sg->first + i];
		double share = job_share(pj, elapsed_ns, done[i]);

		put(buf, len, &at, "%s %s", i ? " |" : "", pj->spec->name);
		if (pj->spec->phase != PHASE_RUN)
			put(buf, len, &at, " [%s]", pj->spec->phase == PHASE_ALONE
			    ? "alone" : "loaded");
		if (pj->spec->point_label)
			put(buf, len, &at, " (%s)", pj->spec->point_label);
		if (share >= 0)
			put(buf, len, &at, " %.0f%%", share * 100);
		if (done[i] && rate[i] >= 0) {
			format_rate(rate[i], r, sizeof(r));
			put(buf, len, &at, " %s", r);
		}
		if (share > 0.01) {
			double l = (double)elapsed_ns * (1 - share) / share;

			if (l > left)
				left = l;
		}
	}
	if (left >= 0) {
		format_eta((uint64_t)(left / 1e9 + 0.5), e, sizeof(e));
		put(buf, len, &at, " | eta %s", e);
	}
	if (width > 1 && strlen(buf) > width - 1)
		buf[width - 1] = '\0';
}

static unsigned tty_width(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void tick(struct progress *pg, uint64_t now)
{
	const struct segment *sg = pg->sg;
	double dt = (double)(now - pg->last_t) / 1e9;
	char line[MAX_LINE];

	for (unsigned i = 0; i < sg->count; i++) {
		const struct job_result *jr = results_get(pg->res,
							  sg->first + i,
							  pg->repeat);
		uint64_t sum = 0;

		for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
			sum += atomic_load_explicit(&jr->threads[c].live_bytes,
						    memory_order_relaxed);
		pg->done[i] = sum;
		pg->rate[i] = dt > 0 && sum >= pg->last_bytes[i]
			      ? (double)(sum - pg->last_bytes[i]) / dt : -1;
		pg->last_bytes[i] = sum;
	}
	pg->last_t = now;
	if (now - pg->t0 < QUIET_NS)
		return;
	progress_format(line, sizeof(line), tty_width(pg->tty), pg->p, sg,
			&pg->where, now - pg->t0, pg->done, pg->rate);
	fprintf(pg->tty, "\r%s\033[K", line);
	fflush(pg->tty);
	pg->shown = true;
}

static void *progress_main(void *arg)
{
	struct progress *pg = arg;
	uint64_t next = pg->t0 + TICK_NS;

	pthread_mutex_lock(&pg->lock);
	while (!pg->stopping) {
		struct timespec ts = {
			.tv_sec = (time_t)(next / 1000000000ull),
			.tv_nsec = (long)(next % 1000000000ull),
		};

		if (pthread_cond_timedwait(&pg->cond, &pg->lock, &ts) !=
		    ETIMEDOUT)
			continue;
		tick(pg, mono_ns());
		next += TICK_NS;
	}
	pthread_mutex_unlock(&pg->lock);
	return NULL;
}

struct progress *progress_start(FILE *tty, const struct plan *p,
				const struct segment *sg, struct results *res,
				const struct progress_where *where)
{
	struct progress *pg;
	pthread_condattr_t ca;

	if (!tty || sg->count == 0)
		return NULL;
	pg = calloc(1, sizeof(*pg));
	if (!pg)
		return NULL;
	pg->last_bytes = calloc(sg->count, sizeof(uint64_t));
	pg->done = calloc(sg->count, sizeof(uint64_t));
	pg->rate = calloc(sg->count, sizeof(double));
	if (!pg->last_bytes || !pg->done || !pg->rate)
		goto fail;
	pg->tty = tty;
	pg->p = p;
	pg->sg = sg;
	pg->res = res;
	pg->where = *where;
	pg->repeat = where->repeat;
	pg->t0 = pg->last_t = mono_ns();
	pthread_mutex_init(&pg->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pg->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&pg->tid, NULL, progress_main, pg) == 0)
		return pg;
	pthread_cond_destroy(&pg->cond);
	pthread_mutex_destroy(&pg->lock);
fail:
	free(pg->last_bytes);
	free(pg->done);
	free(pg->rate);
	free(pg);
	return NULL;	/* no line: the run itself is not affected */
}

void progress_stop(struct progress *pg)
{
	if (!pg)
		return;
	pthread_mutex_lock(&pg->lock);
	pg->stopping = true;
	pthread_cond_signal(&pg->cond);
	pthread_mutex_unlock(&pg->lock);
	pthread_join(pg->tid, NULL);
	if (pg->shown) {
		fputs("\r\033[K", pg->tty);
		fflush(pg->tty);
	}
	pthread_cond_destroy(&pg->cond);
	pthread_mutex_destroy(&pg->lock);
	free(pg->last_bytes);
	free(pg->done);
	free(pg->rate);
	free(pg);
}
