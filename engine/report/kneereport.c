/*
 * kneereport.c - the knee table after a size sweep of an items kernel
 * (kernel=chase over working sets): for each series of points that differ
 * only in size, where latency leaves each cache level's plateau, set
 * against the sizes sysfs reports.
 */
#include <stdlib.h>
#include <string.h>

#include "machine/cpuset.h"
#include "report/interference.h"
#include "kernels/chase.h"
#include "kernels/kernel.h"
#include "report/knee.h"
#include "report/kneereport.h"
#include "util/stats.h"

void sweep_label_without(const char *label, const char *const *drop,
			 char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (label && *label) {
		const char *sp = strchr(label, ' ');
		size_t item = sp ? (size_t)(sp - label) : strlen(label);
		bool keep = true;

		for (unsigned d = 0; drop[d] && keep; d++) {
			size_t dl = strlen(drop[d]);

			keep = !(item > dl && !strncmp(label, drop[d], dl) &&
				 label[dl] == '=');
		}
		if (keep && n + item + 2 < len) {
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s",
					      n ? " " : "", (int)item, label);
		}
		label = sp ? sp + 1 : NULL;
	}
}

/* The point label without its size=... item: the series it belongs to. */
static void series_of(const char *label, char *buf, size_t len)
{
	static const char *const size_only[] = { "size", NULL };

	sweep_label_without(label, size_only, buf, len);
}

static bool swept_size(const struct job_spec *j)
{
	return j->point_label && (!strncmp(j->point_label, "size=", 5) ||
				  strstr(j->point_label, " size="));
}

double report_ns_median(const struct results *r, unsigned idx, bool cpu)
{
	unsigned reps = results_repeats(r, idx);
	double v[1000];
	unsigned n = 0;

	for (unsigned k = 0; k < reps && n < 1000; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		if (jr->status == RUN_OK && jr->items)
			v[n++] = cpu ? jr->cpu_ns_per_item : jr->ns_per_item;
	}
	return stat_summarise(v, n).median;
}

unsigned report_job_cpu(const struct plan *p, unsigned idx)
{
	int cpu = p->jobs[idx].spec->cpus_allowed ?
		  cpuset_nth(p->jobs[idx].cpus, 0) : 0;

	return cpu < 0 ? 0 : (unsigned)cpu;
}

static void one_series(const struct results *r, const struct topo *t,
		       unsigned first,
		       void (*fn)(void *user, const struct knee_series *ks),
		       void *user)
{
	const struct plan *p = r->plan;
	const struct job_spec *j0 = p->jobs[first].spec;
	uint64_t *sizes = calloc(p->njobs, sizeof(*sizes));
	double *ns = calloc(p->njobs, sizeof(*ns));
	const struct topo_cache *levels[KNEE_MAX_LEVELS];
	struct knee knees[KNEE_MAX_LEVELS];
	char want[512], have[512];
	struct knee_series ks = { .job = j0->name, .series = want,
				  .item = j0->kernel->item_name,
				  .knees = knees };
	unsigned n = 0, nl;
	int found;

	if (!sizes || !ns)
		goto out;
	if (!strcmp(j0->kernel->name, "chase")) {
		const struct chase_opts *o = job_opts(j0, &kernel_chase_opts);

		ks.paged = o && o->chase_layout == CHASE_PAGE;
	}
	series_of(j0->point_label, want, sizeof(want));
	for (unsigned i = first; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (strcmp(j->name, j0->name) || !swept_size(j) ||
		    j->phase != PHASE_RUN)
			continue;
		series_of(j->point_label, have, sizeof(have));
		if (strcmp(have, want))
			continue;
		sizes[n] = p->jobs[i].size;
		/* CPU time: on a busy machine wall time inflates latency
		 * and a burst would look like a knee */
		ns[n] = report_ns_median(r, i, true);
		n++;
	}
	ks.cpu = report_job_cpu(p, first);
	nl = knee_levels(t, ks.cpu, levels, KNEE_MAX_LEVELS);
	found = knee_find(sizes, ns, n, levels, nl, knees);
	ks.n = found > 0 ? (unsigned)found : 0;
	fn(user, &ks);
out:
	free(sizes);
	free(ns);
}

void knee_series_each(const struct results *r, const struct topo *t,
		      void (*fn)(void *user, const struct knee_series *ks),
		      void *user)
{
	const struct plan *p = r->plan;

	if (!t)
		return;
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		char want[512], have[512];
		bool seen = false;

		if (!(j->kernel->flags & KERN_ITEMS) || !swept_size(j) ||
		    j->phase != PHASE_RUN)
			continue;
		series_of(j->point_label, want, sizeof(want));
		for (unsigned k = 0; k < i && !seen; k++) {
			const struct job_spec *o = p->jobs[k].spec;

			if (strcmp(o->name, j->name) || !swept_size(o) ||
			    o->phase != PHASE_RUN)
				continue;
			series_of(o->point_label, have, sizeof(have));
			seen = !strcmp(have, want);
		}
		if (!seen)
			one_series(r, t, i, fn, user);
	}
}

static void print_series(void *user, const struct knee_series *ks)
{
	FILE *f = user;

	fprintf(f, "\nknees: job '%s'%s%s%s, CPU ns per %s against the caches "
		"of CPU %u\n", ks->job, ks->series[0] ? " {" : "", ks->series,
		ks->series[0] ? "}" : "", ks->item, ks->cpu);
	if (ks->n)
		knee_print(f, ks->knees, ks->n);
	if (ks->n && ks->paged)
		fputs("  chase_layout=page: past the L1 the prefetchers fetch "
		      "the other lines of the page the chase is in, so these "
		      "plateaus are below the caches' own latency "
		      "(chase_layout=random on huge pages measures that)\n", f);
	if (!ks->n)
		fprintf(f, "  no cache of CPU %u is known to set the sizes "
			"against (%s)\n", ks->cpu, "neither sysfs nor CPUID "
			"lists one; --topology-file describes the machine");
}

void knee_report(FILE *f, const struct results *r, const struct topo *t)
{
	knee_series_each(r, t, print_series, f);
}

void knee_series_rows(struct row_emitter *e, const struct knee_series *ks)
{
	for (unsigned i = 0; i < ks->n; i++) {
		row_str(e, "job", ks->job);
		row_str(e, "series", ks->series);
		row_u64(e, "cpu", ks->cpu);
		row_str(e, "item", ks->item);
		knee_cells(e, &ks->knees[i]);
		row_end(e);
	}
}
