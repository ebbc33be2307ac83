/*
 * noisereport.h - the host's noise (machine/hostnoise.h) in the reports:
 * a line per job run, the whole run's figures at the top of the results,
 * a point's figures and warning under its slowdown, and their cells.
 */
#ifndef MEMJOB_NOISEREPORT_H
#define MEMJOB_NOISEREPORT_H

#include <stdio.h>

#include "run/result.h"
#include "util/interval.h"
#include "util/row.h"

/*
 * A point's noise: steal and frequency over the victim's alone and loaded
 * runs; run-queue wait over its alone runs only (loaded, an aggressor on
 * the victim's CPU makes it wait: that is the effect, not the host).
 * This is what the warning weighs.
 */
struct hostnoise noise_of_point(const struct results *r, unsigned loaded,
				unsigned alone);
/* The victim's run-queue wait over its loaded runs: over all of them
 * (pct), and the least and the most of one run; have false when no run
 * could read it.  It is inside the wall time of those runs. */
struct wait_range {
	bool have;
	double pct, min, max;
};
struct wait_range noise_loaded_wait(const struct results *r,
				    unsigned loaded);
/*
 * A point's warning ("" when its noise is smaller than its precision),
 * from its noise, its slowdown's interval, its slowdown of the medians
 * (the scale where there is no interval) and the half-width precision=
 * asked for (0: none; then the interval's own half-width is the scale).
 */
void noise_point_warning(const struct hostnoise *n, const struct interval *ci,
			 double slowdown_pct, double target, char *buf,
			 size_t len);
/* "    host: steal ..." under a job run's figures. */
void noise_run_line(FILE *f, const struct job_result *jr);
/* How many interference points warned (interference_noise_count). */
struct noise_count {
	unsigned points, warned;
};
/* The whole run's line(s), with the count of points that warned. */
void noise_run_header(FILE *f, const struct results *r,
		      const struct noise_count *c);
/* Under a point of the interference table: its figures (the wait of
 * its alone and of its loaded runs) and warning. */
void noise_point_lines(FILE *f, const struct hostnoise *n,
		       const struct wait_range *loaded,
		       const struct interval *ci, double slowdown_pct,
		       double target);
/* host_steal_pct, host_wait_pct, host_cpu_mhz: absent where unknown. */
void noise_cells(struct row_emitter *e, const struct hostnoise *n);
/* host_wait_loaded_pct, host_wait_loaded_min_pct and _max_pct. */
void noise_loaded_cells(struct row_emitter *e, const struct wait_range *w);
/* The run's figures as a row (the JSON "host_noise"), then row_end. */
void noise_run_row(struct row_emitter *e, const struct results *r,
		   const struct noise_count *c);

#endif
