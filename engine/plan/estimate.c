/*
 * estimate.c - a plan's expected duration and what shortens it (see
 * estimate.h).
 *
 * The one idea: the plan knows every run it will make and how long a
 * time_based run lasts; only size-bound work needs a guess, and the
 * guess is named as one (a nominal rate), so the line never claims more
 * than it knows.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "plan/estimate.h"
#include "util/value.h"

/* One run of job pj: its seconds, and (*sized) whether size bounds it. */
static double job_seconds(const struct planned_job *pj, bool *sized,
			  bool *program)
{
	const struct job_spec *j = pj->spec;
	double s = (j->startdelay_us + j->ramp_us) / 1e6, bytes, gbps;

	*sized = false;
	*program = false;
	if (j->time_based)
		return s + j->runtime_us / 1e6;
	*program = j->kernel->flags & KERN_PROGRAM;
	if (*program)
		return s;
	bytes = (double)pj->size * (double)(j->loops ? j->loops : 1) *
		j->numjobs;
	gbps = pj->paths ? ESTIMATE_FILE_GBPS : ESTIMATE_MEM_GBPS;
	*sized = true;
	/* a source that loads its file into memory first (mem) reads it
	 * once more, untimed but not free */
	if (pj->paths && (j->ioengine->flags & IOE_FILE_OPT)) {
		s += (double)pj->size * j->numjobs / (ESTIMATE_FILE_GBPS * 1e9);
		gbps = ESTIMATE_MEM_GBPS;
	}
	if (j->runtime_us && j->runtime_us / 1e6 < bytes / (gbps * 1e9))
		return s + j->runtime_us / 1e6;
	return s + bytes / (gbps * 1e9);
}

void plan_estimate(const struct plan *p, struct run_estimate *e)
{
	memset(e, 0, sizeof(*e));
	for (unsigned c = 0; c < p->ncreates; c++)
		e->sized_s += (double)p->creates[c].size /
			      (ESTIMATE_FILE_GBPS * 1e9);
	e->lo_s = e->hi_s = e->sized_s;
	for (unsigned b = 0; b < p->nsegments; ) {
		unsigned end = b + 1;
		double round = 0, sized = 0, budget = 0;
		const struct segment *sb = &p->segments[b];

		while (end < p->nsegments && p->segments[end].block == sb->block)
			end++;
		for (unsigned s = b; s < end; s++) {
			const struct segment *sg = &p->segments[s];
			double longest = 0, longest_sized = 0;

			for (unsigned i = sg->first; i < sg->first + sg->count;
			     i++) {
				const struct job_spec *j = p->jobs[i].spec;
				bool is_sized, program;
				double t = job_seconds(&p->jobs[i], &is_sized,
						       &program);

				e->programs |= program;
				if (j->precision_pct > 0 &&
				    j->precision_budget_us / 1e6 > budget)
					budget = j->precision_budget_us / 1e6;
				if (t > longest) {
					longest = t;
					longest_sized = is_sized ? t : 0;
				}
			}
			round += longest;
			sized += longest_sized;
		}
		e->runs += (end - b) * sb->repeat;
		e->lo_s += round * sb->repeat;
		e->sized_s += sized * sb->repeat;
		if (budget > 0) {
			e->precision = true;
			e->hi_s += fmax(round * sb->repeat, budget);
		} else {
			e->hi_s += round * sb->repeat;
		}
		b = end;
	}
	if (e->hi_s < e->lo_s)
		e->hi_s = e->lo_s;
}

void estimate_duration(double s, char *buf, size_t len)
{
	long r = lround(s);

	if (s < 10)
		snprintf(buf, len, "%.1f s", s);
	else if (r < 60)
		snprintf(buf, len, "%ld s", r);
	else if (r < 3600 && r % 60)
		snprintf(buf, len, "%ld min %ld s", r / 60, r % 60);
	else if (r < 3600)
		snprintf(buf, len, "%ld min", r / 60);
	else
		snprintf(buf, len, "%ld h %ld min", r / 3600, r % 3600 / 60);
}

/* The ${NAME} on line loc->line of loc->file, into var ("" if none). */
static void var_of(const struct srcloc *loc, char *var, size_t len)
{
	FILE *f;
	char line[4096];
	int n = 0;

	var[0] = '\0';
	if (!loc->file || !strcmp(loc->file, "command line") ||
	    !strcmp(loc->file, "<stdin>") || !(f = fopen(loc->file, "r")))
		return;
	while (fgets(line, sizeof(line), f))
		if (++n == loc->line) {
			const char *v = strstr(line, "${");
			size_t k = 0;

			while (v && k + 1 < len && (isalnum((unsigned char)
				v[2 + k]) || v[2 + k] == '_'))
				k++;
			if (v)
				snprintf(var, len, "%.*s", (int)k, v + 2);
			break;
		}
	fclose(f);
}

/* The first job that set opt (else the first job), in plan order. */
static const struct job_spec *setter(const struct plan *p, const char *opt)
{
	for (unsigned i = 0; i < p->njobs; i++)
		if (job_isset(p->jobs[i].spec, opt))
			return p->jobs[i].spec;
	return p->njobs ? p->jobs[0].spec : NULL;
}

/* " NAME=value" (or " --opt=value"), unless already said. */
static void suggest(char *buf, size_t len, const struct plan *p,
		    const char *opt, const char *value)
{
	const struct job_spec *j = setter(p, opt);
	char var[64], item[160];
	size_t n = strlen(buf);

	if (!j)
		return;
	var_of(job_loc(j, opt), var, sizeof(var));
	if (*var)
		snprintf(item, sizeof(item), " %s=%s", var, value);
	else
		snprintf(item, sizeof(item), " --%s=%s", opt, value);
	if (!strstr(buf, item) && n < len)
		snprintf(buf + n, len - n, "%s", item);
}

/* "or fewer points in SIZES": the sweep= line of a job with many. */
static void fewer_points(FILE *f, const struct plan *p, bool after)
{
	char var[64];

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (!j->point_label || !job_isset(j, "sweep"))
			continue;
		var_of(job_loc(j, "sweep"), var, sizeof(var));
		if (*var)
			fprintf(f, "%s fewer points in %s", after ? ", or" :
				"; shorter:", var);
		return;
	}
}

void estimate_print(FILE *f, const struct plan *p,
		    const struct run_estimate *e)
{
	char lo[32], hi[32], v[32], hint[512] = "";
	unsigned repeat = 0;
	uint64_t budget = 0, runtime = 0, size = 0;
	bool timed = false;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (j->repeat > repeat)
			repeat = j->repeat;
		if (j->precision_pct > 0 && j->precision_budget_us > budget)
			budget = j->precision_budget_us;
		if (j->time_based && j->runtime_us > runtime)
			runtime = j->runtime_us;
		timed |= j->time_based;
		if (!j->time_based && p->jobs[i].size > size)
			size = p->jobs[i].size;
	}
	estimate_duration(e->lo_s, lo, sizeof(lo));
	estimate_duration(e->hi_s, hi, sizeof(hi));
	fprintf(f, "expected to take about %s", lo);
	if (e->hi_s > e->lo_s * 1.05)
		fprintf(f, ", up to %s", hi);
	fprintf(f, " (%u run%s", e->runs, e->runs == 1 ? "" : "s");
	if (e->precision)
		fputs("; precision= adds rounds until its intervals are narrow "
		      "enough or precision_budget is spent", f);
	if (e->sized_s > 0.5)
		fprintf(f, "; size-bound work counted at %g GB/s through files"
			", %g GB/s in memory", ESTIMATE_FILE_GBPS,
			ESTIMATE_MEM_GBPS);
	if (e->programs)
		fputs("; programs' own time not counted", f);
	fputc(')', f);
	if (e->precision) {
		suggest(hint, sizeof(hint), p, "precision", "off");
		value_format_time(budget / 4 > 10000000 ? budget / 4 : 10000000,
				  v, sizeof(v));
		if (budget > 10000000)
			suggest(hint, sizeof(hint), p, "precision_budget", v);
	}
	if (repeat > 1) {
		snprintf(v, sizeof(v), "%s", repeat > 3 ? "3" : "1");
		suggest(hint, sizeof(hint), p, "repeat", v);
	}
	if (timed && runtime >= 20000) {
		value_format_time(runtime >= 1000000 ? runtime / 4 :
				  runtime / 2, v, sizeof(v));
		suggest(hint, sizeof(hint), p, "runtime", v);
	}
	if (e->sized_s > 0.5 * e->lo_s && size >= (64u << 20)) {
		value_format_size(size / 4 & ~(uint64_t)0xfffff, v, sizeof(v));
		suggest(hint, sizeof(hint), p, "size", v);
	}
	if (*hint)
		fprintf(f, "; shorter:%s", hint);
	fewer_points(f, p, *hint);
	fputc('\n', f);
}
