/*
 * noisereport.c - the host's noise in the reports (see noisereport.h).
 *
 * The one idea: the noise is compared with what a point claims to
 * resolve.  A slowdown known to +-h% on a host that stole s% of the
 * victim's CPU time cannot be trusted below s%: when s >= h (or the effect
 * itself is no larger than s), the point says so in words.
 */
#include "report/noisereport.h"

#include <math.h>
#include <string.h>

/* Fold the runs of job idx into n; wait only when with_wait. */
static void merge_runs(struct hostnoise *n, const struct results *r,
		       unsigned idx, bool with_wait)
{
	unsigned reps = results_repeats(r, idx);

	for (unsigned k = 0; k < reps; k++) {
		struct hostnoise x = results_get(r, idx, k)->noise;

		if (results_get(r, idx, k)->status != RUN_OK)
			continue;
		if (!with_wait)
			x.have_wait = false;
		hostnoise_merge(n, &x);
	}
}

struct hostnoise noise_of_point(const struct results *r, unsigned loaded,
				unsigned alone)
{
	struct hostnoise n = { 0 };

	merge_runs(&n, r, alone, true);
	merge_runs(&n, r, loaded, false);
	return n;
}

struct wait_range noise_loaded_wait(const struct results *r,
				    unsigned loaded)
{
	struct wait_range w = { 0 };
	struct hostnoise all = { 0 };

	for (unsigned k = 0; k < results_repeats(r, loaded); k++) {
		const struct job_result *jr = results_get(r, loaded, k);

		if (jr->status != RUN_OK || !jr->noise.have_wait)
			continue;
		if (!w.have || jr->noise.wait_pct < w.min)
			w.min = jr->noise.wait_pct;
		if (!w.have || jr->noise.wait_pct > w.max)
			w.max = jr->noise.wait_pct;
		w.have = true;
		hostnoise_merge(&all, &jr->noise);
	}
	w.pct = all.wait_pct;
	return w;
}

/*
 * The half-width the point's slowdown claims to resolve: the one
 * precision= asked for where there is one (what the user wants to tell
 * apart, even where the budget ran out before the interval got there),
 * else its interval's.
 */
static double claimed_half_width(const struct interval *ci, double target)
{
	return target > 0 ? target : (ci->hi - ci->lo) / 2;
}

void noise_point_warning(const struct hostnoise *n, const struct interval *ci,
			 double slowdown_pct, double target, char *buf,
			 size_t len)
{
	if (ci->status == INTERVAL_OK || target > 0)
		hostnoise_warning(n, claimed_half_width(ci, target), ci->est,
				  ci->lo > 0 || ci->hi < 0, "the victim's",
				  buf, len);
	else	/* no interval: the effect itself is the scale */
		hostnoise_warning(n, HUGE_VAL, slowdown_pct, true,
				  "the victim's", buf, len);
}

void noise_run_line(FILE *f, const struct job_result *jr)
{
	char d[256];

	if (jr->status == RUN_NOT_RUN)
		return;
	hostnoise_describe(&jr->noise, d, sizeof(d));
	fprintf(f, "    host, on this job's CPUs: %s\n", d);
}

void noise_run_header(FILE *f, const struct results *r,
		      const struct noise_count *c)
{
	struct noise_count w = *c;
	char d[256];

	hostnoise_describe(&r->noise, d, sizeof(d));
	fprintf(f, "host noise over the runs, on the jobs' CPUs: %s\n", d);
	if (w.warned)
		fprintf(f, "host noise: at %u of %u interference point%s the "
			"host's noise is as large as what the slowdown claims "
			"to resolve (WARNING under each)\n", w.warned,
			w.points, w.points == 1 ? "" : "s");
	else if (w.points)
		fprintf(f, "host noise: smaller than the slowdowns' intervals "
			"at every interference point\n");
}

void noise_point_lines(FILE *f, const struct hostnoise *n,
		       const struct wait_range *loaded,
		       const struct interval *ci, double slowdown_pct,
		       double target)
{
	char d[320], warn[256], wt[128], a[32] = "not readable";
	char l[64] = "not readable";

	/* the alone runs' wait is what the warning weighs; the loaded
	 * runs' is in their wall time, and so in the slowdown */
	if (n->have_wait)
		snprintf(a, sizeof(a), "%.1f%%", n->wait_pct);
	if (loaded->have && loaded->max - loaded->min < 0.05)
		snprintf(l, sizeof(l), "%.1f%%", loaded->pct);
	else if (loaded->have)
		snprintf(l, sizeof(l), "%.1f%% (runs %.1f-%.1f%%)",
			 loaded->pct, loaded->min, loaded->max);
	snprintf(wt, sizeof(wt), "%s alone, %s loaded", a, l);
	hostnoise_describe_wait(n, wt, d, sizeof(d));
	fprintf(f, "  %-32s host, victim's CPUs, alone and loaded runs: %s\n",
		"", d);
	noise_point_warning(n, ci, slowdown_pct, target, warn, sizeof(warn));
	if (warn[0])
		fprintf(f, "  %-32s WARNING: %s\n", "", warn);
}

void noise_cells(struct row_emitter *e, const struct hostnoise *n)
{
	if (n->have_steal)
		row_fixed(e, "host_steal_pct", n->steal_pct,
			  HOSTNOISE_PCT_DECIMALS);
	else
		row_absent(e, "host_steal_pct");
	if (n->have_wait)
		row_fixed(e, "host_wait_pct", n->wait_pct,
			  HOSTNOISE_PCT_DECIMALS);
	else
		row_absent(e, "host_wait_pct");
	if (n->have_freq)
		row_fixed(e, "host_cpu_mhz", n->mhz, HOSTNOISE_MHZ_DECIMALS);
	else
		row_absent(e, "host_cpu_mhz");
}

void noise_loaded_cells(struct row_emitter *e, const struct wait_range *w)
{
	if (!w->have) {
		row_absent(e, "host_wait_loaded_pct");
		row_absent(e, "host_wait_loaded_min_pct");
		row_absent(e, "host_wait_loaded_max_pct");
		return;
	}
	row_fixed(e, "host_wait_loaded_pct", w->pct, HOSTNOISE_PCT_DECIMALS);
	row_fixed(e, "host_wait_loaded_min_pct", w->min,
		  HOSTNOISE_PCT_DECIMALS);
	row_fixed(e, "host_wait_loaded_max_pct", w->max,
		  HOSTNOISE_PCT_DECIMALS);
}

void noise_run_row(struct row_emitter *e, const struct results *r,
		   const struct noise_count *c)
{
	char d[256];

	noise_cells(e, &r->noise);
	if (r->noise.have_steal)
		row_u64(e, "host_steal_ticks", r->noise.ticks);
	else
		row_absent(e, "host_steal_ticks");
	hostnoise_describe(&r->noise, d, sizeof(d));
	row_str(e, "text", d);
	row_u64(e, "points", c->points);
	row_u64(e, "points_warned", c->warned);
	row_end(e);
}
