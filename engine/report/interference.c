/*
 * interference.c - metrics, baselines, slowdowns and their table (see
 * interference.h).
 */
#include <stdio.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "report/interference.h"
#include "util/stats.h"


/* What print_line() prints to, and of. */
struct interference_print {
	FILE *f;
	const struct results *r;
};

/* The half-width a point asked for (precision=), 0 when it asked none:
 * the host noise warning weighs the noise against it (noisereport.h). */
static double prec_target(const struct interference_line *l)
{
	return l->prec.state != PRECISION_OFF ? l->prec.target : 0;
}
double metric_median(const struct results *r, unsigned idx, unsigned n)
{
	double v[PRECISION_MAX_ROUNDS];

	n = results_metric_values(r, idx, n, v, PRECISION_MAX_ROUNDS);

	return fig_sig(stat_summarise(v, n).median, METRIC_DIGITS);
}

double slowdown_pct(double alone, double loaded, bool lower_is_better)
{
	if (alone <= 0 || loaded <= 0)
		return 0;
	return fig_fixed(lower_is_better ? (loaded - alone) / alone * 100.0
					 : (alone / loaded - 1.0) * 100.0,
			 SLOWDOWN_DECIMALS);
}

bool row_slowdown(const struct results *r, const struct job_result *jr,
		  double *baseline, double *slowdown)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m;

	if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
	    j->baseline < 0 || jr->status != RUN_OK)
		return false;
	m = job_metric(jr);
	*baseline = metric_median(r, (unsigned)j->baseline,
				  results_repeats(r, (unsigned)(jr->pj -
							       r->plan->jobs)));
	if (*baseline <= 0)
		return false;
	*slowdown = slowdown_pct(*baseline, m.value, m.lower_is_better);
	return true;
}

/* The median of job idx's CPU-clock cost over its first n repeats. */
static double cpu_median(const struct results *r, unsigned idx, unsigned n)
{
	double v[PRECISION_MAX_ROUNDS];

	n = results_cpu_values(r, idx, n, v, PRECISION_MAX_ROUNDS);
	return fig_sig(stat_summarise(v, n).median, METRIC_DIGITS);
}

bool row_cpu_slowdown(const struct results *r, const struct job_result *jr,
		      double *slowdown)
{
	const struct job_spec *j = jr->pj->spec;
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	double alone, loaded = job_cpu_metric(jr).value;

	if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
	    j->baseline < 0 || jr->status != RUN_OK)
		return false;
	alone = cpu_median(r, (unsigned)j->baseline, results_repeats(r, idx));
	if (alone <= 0 || loaded <= 0)
		return false;
	*slowdown = slowdown_pct(alone, loaded, true);
	return true;
}

bool point_slowdown(const struct results *r, const struct job_result *jr,
		    double *slowdown)
{
	const struct job_spec *j = jr->pj->spec;
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	unsigned n = results_repeats(r, idx);
	double alone, loaded;

	if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
	    j->baseline < 0)
		return false;
	alone = metric_median(r, (unsigned)j->baseline, n);
	loaded = metric_median(r, idx, n);
	if (alone <= 0 || loaded <= 0)
		return false;
	*slowdown = slowdown_pct(alone, loaded, job_metric(jr).lower_is_better);
	return true;
}

bool row_interval(const struct results *r, const struct job_result *jr,
		  struct interval *iv)
{
	return jr->status == RUN_OK &&
	       results_point_interval(r, (unsigned)(jr->pj - r->plan->jobs),
				      iv);
}

void slowdown_verdict(const struct interval *iv, char *buf, size_t len)
{
	interval_verdict(iv, "slower", "faster", "no effect found", buf, len);
}

void aggressor_sum_add(struct aggressor_sum *a, unsigned repeat,
		       double gbps)
{
	if (repeat >= PRECISION_MAX_ROUNDS)
		return;
	while (a->n <= repeat)
		a->gbps[a->n++] = 0;
	a->gbps[repeat] += gbps;
}

struct stat_summary aggressor_sum_summary(struct aggressor_sum *a)
{
	struct stat_summary s = stat_summarise(a->gbps, a->n);

	s.median = fig_sig(s.median, METRIC_DIGITS);
	return s;
}

void point_figures(double *v, unsigned n, struct stat_summary *s,
		   struct interval *ci)
{
	/* the metrics are figures: so are their min and max, and the
	 * median is made one as metric_median's is */
	*s = stat_summarise(v, n);
	s->median = fig_sig(s->median, METRIC_DIGITS);
	*ci = interval_median(v, n);	/* sorted now */
}

/* GB/s of the aggressors that ran with loaded victim idx: their summed
 * throughput, over the repeats (each repeat counts, with or without an
 * aggressor in it). */
static struct stat_summary aggressor_gbps(const struct results *r,
					  unsigned idx)
{
	const struct plan *p = r->plan;
	const struct segment *sg = &p->segments[p->jobs[idx].segment];
	struct aggressor_sum a = { .n = 0 };

	for (unsigned k = 0; k < results_repeats(r, idx); k++) {
		aggressor_sum_add(&a, k, 0);
		for (unsigned i = sg->first; i < sg->first + sg->count; i++)
			if (p->jobs[i].spec->role == ROLE_AGGRESSOR)
				aggressor_sum_add(&a, k,
						  results_get(r, i, k)->gbps);
	}
	return aggressor_sum_summary(&a);
}

/* The aggressors' threads that ran with loaded victim idx; *rate: whether
 * each of them measures a rate, so that their GB/s is one. */
static unsigned aggressor_threads(const struct results *r, unsigned idx,
				  bool *rate)
{
	const struct plan *p = r->plan;
	const struct segment *sg = &p->segments[p->jobs[idx].segment];
	unsigned t = 0;

	*rate = true;
	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		if (p->jobs[i].spec->role == ROLE_AGGRESSOR) {
			t += p->jobs[i].spec->numjobs;
			*rate &= kernel_measures_rate(p->jobs[i].spec->kernel);
		}
	return t;
}

/* Whether any run of the jobs that ran with job idx (its segment: the
 * loaded victim and its aggressors) was emulated, or any run of the
 * victim's baseline. */
static bool point_emulated(const struct results *r, unsigned idx)
{
	const struct plan *p = r->plan;
	const struct segment *sg = &p->segments[p->jobs[idx].segment];
	int base = p->jobs[idx].spec->baseline;

	for (unsigned k = 0; k < results_repeats(r, idx); k++)
		for (unsigned i = sg->first; i < sg->first + sg->count; i++)
			if (results_get(r, i, k)->emulated)
				return true;
	if (base >= 0)
		for (unsigned k = 0; k < results_repeats(r, idx); k++)
			if (results_get(r, (unsigned)base, k)->emulated)
				return true;
	return false;
}

/* What one of the host's quirks does to the aggressors of loaded victim
 * idx's point, in their data source's words (ioengine_ops.quirk_note). */
static void point_quirk(const struct results *r, unsigned idx, char *buf,
			size_t len)
{
	const struct plan *p = r->plan;

	buf[0] = '\0';
	for (unsigned k = 0; r->quirks && k < p->njobs && !buf[0]; k++) {
		const struct job_spec *a = p->jobs[k].spec;

		if (p->jobs[k].segment == p->jobs[idx].segment &&
		    a->role == ROLE_AGGRESSOR && a->ioengine->quirk_note)
			a->ioengine->quirk_note(a, r->quirks, buf, len);
	}
}

/* Each loaded point of victim name, in plan order. */
static void victim_lines(const struct results *r, const char *name,
			 void (*fn)(void *user,
				    const struct interference_line *l),
			 void *user)
{
	const struct plan *p = r->plan;
	bool first = true;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		double alone[PRECISION_MAX_ROUNDS], loaded[PRECISION_MAX_ROUNDS];
		double slow[PRECISION_MAX_ROUNDS];
		struct interference_line l = { .victim = name };
		unsigned na, nl, n = results_repeats(r, i);

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
		    strcmp(j->name, name) || j->baseline < 0)
			continue;
		l.m = job_metric(results_get(r, i, 0));
		l.point = j->point_label;
		l.first = first;
		first = false;
		/* the alone runs of its own rounds (precision=) */
		na = results_metric_values(r, (unsigned)j->baseline, n,
					   alone, PRECISION_MAX_ROUNDS);
		nl = results_metric_values(r, i, n, loaded,
					   PRECISION_MAX_ROUNDS);
		results_point_interval(r, i, &l.ci);
		l.prec = r->prec[i];
		point_figures(alone, na, &l.alone, &l.alone_ci);
		point_figures(loaded, nl, &l.loaded, &l.loaded_ci);
		for (unsigned k = 0; k < nl; k++)
			slow[k] = slowdown_pct(l.alone.median, loaded[k],
					       l.m.lower_is_better);
		l.slowdown = stat_summarise(slow, nl);
		l.have = na && nl;
		if (l.have)
			l.slowdown_pct = slowdown_pct(l.alone.median,
						      l.loaded.median,
						      l.m.lower_is_better);
		l.aggressor_threads = aggressor_threads(r, i,
							&l.aggressor_rate);
		if (l.aggressor_rate) {
			l.aggressors = aggressor_gbps(r, i);
			l.aggressor_gbps = l.aggressors.median;
		}
		l.emulated = point_emulated(r, i);
		l.noise = noise_of_point(r, i, (unsigned)j->baseline);
		l.loaded_wait = noise_loaded_wait(r, i);
		l.cpu_m = job_cpu_metric(results_get(r, i, 0));
		l.cpu_alone = cpu_median(r, (unsigned)j->baseline, n);
		l.cpu_loaded = cpu_median(r, i, n);
		l.have_cpu = l.cpu_alone > 0 && l.cpu_loaded > 0;
		if (l.have_cpu)
			l.cpu_slowdown_pct = slowdown_pct(l.cpu_alone,
							  l.cpu_loaded, true);
		point_quirk(r, i, l.quirk, sizeof(l.quirk));
		fn(user, &l);
	}
}

void interference_each(const struct results *r,
		       void (*fn)(void *user,
				  const struct interference_line *l),
		       void *user)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		bool seen = false;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM)
			continue;
		for (unsigned k = 0; k < i; k++)
			if (p->jobs[k].spec->phase == PHASE_LOADED &&
			    p->jobs[k].spec->role == ROLE_VICTIM &&
			    !strcmp(p->jobs[k].spec->name, j->name))
				seen = true;
		if (!seen)
			victim_lines(r, j->name, fn, user);
	}
}

/* Whether label's items all set an aggressor's rate ("rate=50%", or
 * "aggr.rate=50%" where several jobs sweep it). */
static bool only_rate(const struct plan *p, const char *label)
{
	while (label && *label) {
		size_t item = strcspn(label, " "), name = strcspn(label, "=");
		const char *dot = memchr(label, '.', name < item ? name : item);
		const char *opt = dot ? dot + 1 : label;
		bool aggressor = !dot;

		if (name > item || (size_t)(label + name - opt) != 4 ||
		    strncmp(opt, "rate", 4))
			return false;
		for (unsigned i = 0; dot && i < p->njobs; i++)
			if (p->jobs[i].spec->role == ROLE_AGGRESSOR &&
			    strlen(p->jobs[i].spec->name) ==
			    (size_t)(dot - label) &&
			    !strncmp(p->jobs[i].spec->name, label,
				     (size_t)(dot - label)))
				aggressor = true;
		if (!aggressor)
			return false;
		label += item;
		label += *label == ' ';
	}
	return true;
}

bool interference_rate_curve(const struct results *r, const char *victim)
{
	const struct plan *p = r->plan;
	unsigned points = 0;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (j->phase != PHASE_LOADED || j->role != ROLE_VICTIM ||
		    strcmp(j->name, victim) || j->baseline < 0)
			continue;
		if (!(j->kernel->flags & KERN_ITEMS) ||
		    (j->kernel->flags & KERN_PROGRAM) || !j->point_label ||
		    !only_rate(p, j->point_label))
			return false;
		points++;
	}
	return points > 1;
}

static void print_line(void *user, const struct interference_line *l)
{
	struct interference_print *ip = user;
	FILE *f = ip->f;
	char ab[64], lb[64], sb[64], verdict[96];

	if (interference_rate_curve(ip->r, l->victim))
		return;

	if (l->first) {
		fprintf(f, "\ninterference: victim '%s', %s (%s is better); "
			"slowdown %% = %s\n", l->victim, l->m.label,
			l->m.lower_is_better ? "lower" : "higher",
			l->m.lower_is_better ? "(loaded - alone) / alone"
					     : "alone / loaded - 1");
		fprintf(f, "  %-32s %-24s %-24s %-22s %s\n", "point",
			"alone (min-max)", "loaded (min-max)",
			"slowdown % (min..max)", "aggressors");
	}
	if (!l->have) {
		fprintf(f, "  %-32s (a run failed: no figures)\n",
			l->point ? l->point : "-");
		return;
	}
	snprintf(ab, sizeof(ab), "%.2f (%.2f-%.2f)", l->alone.median,
		 l->alone.min, l->alone.max);
	snprintf(lb, sizeof(lb), "%.2f (%.2f-%.2f)", l->loaded.median,
		 l->loaded.min, l->loaded.max);
	snprintf(sb, sizeof(sb), "%+.2f (%+.2f..%+.2f)", l->slowdown_pct,
		 l->slowdown.min, l->slowdown.max);
	fprintf(f, "  %-32s %-24s %-24s %-22s %u thread%s",
		l->point ? l->point : "-", ab, lb, sb, l->aggressor_threads,
		l->aggressor_threads == 1 ? "" : "s");
	if (l->aggressor_rate)
		fprintf(f, ", %.2f GB/s", l->aggressor_gbps);
	fprintf(f, "%s\n", l->emulated ? "  EMULATED" : "");
	slowdown_verdict(&l->ci, verdict, sizeof(verdict));
	fprintf(f, "  %-32s %s\n", "", verdict);
	if (l->have_cpu)
		fprintf(f, "  %-32s on its CPU time: %+.2f%% (%s alone %.4g, "
			"loaded %.4g; without the wait for a CPU)\n", "",
			l->cpu_slowdown_pct, l->cpu_m.label, l->cpu_alone,
			l->cpu_loaded);
	if (l->quirk[0])
		fprintf(f, "  %-32s %s\n", "", l->quirk);
	noise_point_lines(f, &l->noise, &l->loaded_wait, &l->ci,
			  l->slowdown_pct, prec_target(l));
	if (l->prec.state != PRECISION_OFF) {
		precision_describe(&l->prec, verdict, sizeof(verdict));
		fprintf(f, "  %-32s precision: %s\n", "", verdict);
	}
}

/* Under the table: what EMULATED means, once, when a line carries it. */
static void note_emulated(void *user, const struct interference_line *l)
{
	bool *any = user;

	*any |= l->emulated;
}

void interference_table(FILE *f, const struct results *r)
{
	struct interference_print ip = { f, r };
	bool any = false;

	interference_each(r, print_line, &ip);
	interference_each(r, note_emulated, &any);
	if (any)
		fputs("  EMULATED: the writes of that point went to ordinary "
		      "memory standing in for the device (dax_emulate=1)\n",
		      f);
}

void interval_cells(struct row_emitter *e, const struct interval *iv,
		    char *verdict, size_t len)
{
	bool ok = iv && iv->status == INTERVAL_OK;

	if (ok) {
		row_fixed(e, "slowdown_est_pct", iv->est, INTERVAL_DECIMALS);
		row_fixed(e, "slowdown_ci_lo_pct", iv->lo, INTERVAL_DECIMALS);
		row_fixed(e, "slowdown_ci_hi_pct", iv->hi, INTERVAL_DECIMALS);
		row_fixed(e, "ci_level_pct", iv->level * 100, 2);
	} else {
		row_absent(e, "slowdown_est_pct");
		row_absent(e, "slowdown_ci_lo_pct");
		row_absent(e, "slowdown_ci_hi_pct");
		row_absent(e, "ci_level_pct");
	}
	if (iv) {
		slowdown_verdict(iv, verdict, len);
		row_str(e, "verdict", verdict);
	} else {
		row_absent(e, "verdict");
	}
}

void precision_cells(struct row_emitter *e, const struct precision_point *pt)
{
	const char *status = precision_state_name(pt->state);

	if (!status) {
		row_absent(e, "precision_pct");
		row_absent(e, "precision_status");
		row_absent(e, "precision_half_width_pct");
		row_absent(e, "precision_pairs");
		return;
	}
	row_sig(e, "precision_pct", pt->target, 6);
	row_str(e, "precision_status", status);
	if (pt->have_width)
		row_fixed(e, "precision_half_width_pct", pt->half_width,
			  INTERVAL_DECIMALS);
	else
		row_absent(e, "precision_half_width_pct");
	row_u64(e, "precision_pairs", pt->pairs);
}

void interference_row(struct row_emitter *e,
		      const struct interference_line *l)
{
	row_str(e, "victim", l->victim);
	row_str(e, "point", l->point);
	row_str(e, "metric_name", l->m.name);
	row_u64(e, "lower_is_better", l->m.lower_is_better);
	if (l->have) {
		row_sig(e, "alone", l->alone.median, METRIC_DIGITS);
		row_sig(e, "alone_min", l->alone.min, METRIC_DIGITS);
		row_sig(e, "alone_max", l->alone.max, METRIC_DIGITS);
		row_sig(e, "loaded", l->loaded.median, METRIC_DIGITS);
		row_sig(e, "loaded_min", l->loaded.min, METRIC_DIGITS);
		row_sig(e, "loaded_max", l->loaded.max, METRIC_DIGITS);
		row_fixed(e, "slowdown_pct", l->slowdown_pct,
			  SLOWDOWN_DECIMALS);
		row_fixed(e, "slowdown_min_pct", l->slowdown.min,
			  SLOWDOWN_DECIMALS);
		row_fixed(e, "slowdown_max_pct", l->slowdown.max,
			  SLOWDOWN_DECIMALS);
	} else {
		static const char *const none[] = {
			"alone", "alone_min", "alone_max", "loaded",
			"loaded_min", "loaded_max", "slowdown_pct",
			"slowdown_min_pct", "slowdown_max_pct",
		};

		for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
			row_absent(e, none[i]);
	}
	row_u64(e, "aggressor_threads", l->aggressor_threads);
	if (l->aggressor_rate)
		row_sig(e, "aggressor_gbps", l->aggressor_gbps,
			METRIC_DIGITS);
	else
		row_absent(e, "aggressor_gbps");
	row_u64(e, "emulated", l->emulated);
	char verdict[96];

	interval_cells(e, l->have ? &l->ci : NULL, verdict, sizeof(verdict));
	char warn[256] = "";

	noise_cells(e, &l->noise);
	if (l->have)
		noise_point_warning(&l->noise, &l->ci, l->slowdown_pct,
				    prec_target(l), warn, sizeof(warn));
	row_str(e, "noise_warning", warn);
	precision_cells(e, &l->prec);
	row_str(e, "cpu_metric_name", l->cpu_m.name);
	if (l->have && l->have_cpu) {
		row_sig(e, "cpu_alone", l->cpu_alone, METRIC_DIGITS);
		row_sig(e, "cpu_loaded", l->cpu_loaded, METRIC_DIGITS);
		row_fixed(e, "cpu_slowdown_pct", l->cpu_slowdown_pct,
			  SLOWDOWN_DECIMALS);
	} else {
		row_absent(e, "cpu_alone");
		row_absent(e, "cpu_loaded");
		row_absent(e, "cpu_slowdown_pct");
	}
	noise_loaded_cells(e, &l->loaded_wait);
	row_str(e, "quirk_note", l->quirk);
	row_end(e);
}

static void count_noise(void *user, const struct interference_line *l)
{
	struct noise_count *c = user;
	char warn[256];

	c->points++;
	if (!l->have)
		return;
	noise_point_warning(&l->noise, &l->ci, l->slowdown_pct,
			    prec_target(l), warn, sizeof(warn));
	if (warn[0])
		c->warned++;
}

void interference_noise_count(const struct results *r,
			      struct noise_count *c)
{
	*c = (struct noise_count){ 0 };
	interference_each(r, count_noise, c);
}
