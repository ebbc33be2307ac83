/*
 * footprint.c - the footprint table after a sweep of a kernel's footprint
 * (a walk over more and more code, batch items per call): the cost per
 * item that grows with the footprint, apart from what the smallest
 * footprint costs.
 *
 * A kernel says which of its options sets its footprint (kernel_ops
 * footprint_opt), which level-1 cache a small one stays in, and which
 * option gives the items per call.  For each job that swept the
 * footprint, the points that share the values of its other swept options
 * (one batch) make a table: the smallest footprint is the baseline, and
 * each larger one gets its ns per item above the baseline, that rise per
 * call (x the items per call), and, where the items per call are swept
 * too, how many times smaller the rise is than at one item per call.
 * The figures are the wall ns per item the result rows give (the median
 * over the repeats that ran to the end), so each is a difference of two
 * ns_per_item figures of the CSV.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "report/footprint.h"
#include "report/kneereport.h"
#include "util/value.h"

/* A point of a series: its footprint and median ns per item (0: no run
 * ran to the end), and its footprint as the label wrote it. */
struct fp_point {
	uint64_t bytes;
	double ns;
	char text[32];
};

/* The value of kernel option name (an OPT_SIZE or OPT_UINT of its own
 * group) in job j; 0 when it has none. */
static uint64_t own_value(const struct job_spec *j, const char *name)
{
	const struct opt_group *g = j->kernel->opts;
	const char *base = g ? job_opts(j, g) : NULL;

	for (size_t k = 0; base && name && k < g->nopts; k++) {
		const struct opt_def *o = &g->opts[k];

		if (strcmp(o->name, name))
			continue;
		if (o->type == OPT_UINT && o->width == sizeof(unsigned))
			return *(const unsigned *)(base + o->off);
		if (o->type == OPT_SIZE || o->type == OPT_UINT)
			return *(const uint64_t *)(base + o->off);
	}
	return 0;
}

/* The text of label's item name=..., or NULL when it has none. */
static const char *label_item(const char *label, const char *name,
			      char *buf, size_t len)
{
	size_t nl = name ? strlen(name) : 0;

	while (nl && label && *label) {
		const char *sp = strchr(label, ' ');
		size_t item = sp ? (size_t)(sp - label) : strlen(label);

		if (item > nl && !strncmp(label, name, nl) &&
		    label[nl] == '=') {
			snprintf(buf, len, "%.*s", (int)(item - nl - 1),
				 label + nl + 1);
			return buf;
		}
		label = sp ? sp + 1 : NULL;
	}
	return NULL;
}

/* Whether job j is a point of a footprint sweep. */
static bool swept_footprint(const struct job_spec *j)
{
	char v[32];

	return j->phase == PHASE_RUN && (j->kernel->flags & KERN_ITEMS) &&
	       j->kernel->footprint_opt &&
	       label_item(j->point_label, j->kernel->footprint_opt, v,
			  sizeof(v));
}

/*
 * The points of job name whose label, without the options in drop, is
 * key, and (per_call nonzero) whose items per call are per_call: into
 * pts (plan->njobs entries), by footprint, smallest first.
 */
static unsigned collect(const struct results *r, const char *name,
			const char *const *drop, const char *key,
			uint64_t per_call, struct fp_point *pts)
{
	const struct plan *p = r->plan;
	unsigned n = 0;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const char *fo = j->kernel->footprint_opt;
		char have[512];
		struct fp_point pt;
		unsigned at;

		if (strcmp(j->name, name) || !swept_footprint(j))
			continue;
		sweep_label_without(j->point_label, drop, have, sizeof(have));
		if (strcmp(have, key) || (per_call &&
		    own_value(j, j->kernel->per_call_opt) != per_call))
			continue;
		pt.bytes = own_value(j, fo);
		pt.ns = report_ns_median(r, i, false);
		label_item(j->point_label, fo, pt.text, sizeof(pt.text));
		for (at = n; at && pts[at - 1].bytes > pt.bytes; at--)
			pts[at] = pts[at - 1];
		pts[at] = pt;
		n++;
	}
	return n;
}

/* The first point with a figure: the baseline; NULL when none has one. */
static const struct fp_point *baseline(const struct fp_point *pts,
				       unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (pts[i].ns > 0)
			return &pts[i];
	return NULL;
}

/* What the baseline is, against the level-1 cache it should stay in. */
static void print_baseline(FILE *f, const struct results *r,
			   const struct topo *t, unsigned first,
			   const struct fp_point *b)
{
	const struct job_spec *j = r->plan->jobs[first].spec;
	char kind = j->kernel->footprint_cache ? j->kernel->footprint_cache
					       : 'd';
	unsigned cpu = report_job_cpu(r->plan, first);
	const struct topo_cache *c = t ? topo_cache(t, cpu, 1, kind) : NULL;
	char name[16], bb[32], cb[32];

	value_format_bytes((double)b->bytes, bb, sizeof(bb));
	fprintf(f, "  baseline: %s=%s, the smallest swept (%s), %.2f ns per "
		"%s: ", j->kernel->footprint_opt, b->text, bb, b->ns,
		j->kernel->item_name);
	if (!c || !c->size) {
		snprintf(name, sizeof(name), "L1%c", kind);
		fprintf(f, "the size of CPU %u's %s is not known (%s), so "
			"whether the baseline stays in %s is not known\n", cpu,
			name, "neither sysfs nor CPUID lists it; "
			"--topology-file describes the machine", name);
		return;
	}
	topo_cache_name(c, name, sizeof(name));
	value_format_bytes((double)c->size, cb, sizeof(cb));
	if (b->bytes <= c->size)
		fprintf(f, "inside %s (%s) of CPU %u\n", name, cb, cpu);
	else
		fprintf(f, "larger than %s (%s) of CPU %u: not %s-resident, "
			"so the baseline already holds part of the "
			"footprint's cost\n", name, cb, cpu, name);
}

/* The rise of footprint bytes above the baseline of pts, or -1 when
 * either has no figure. */
static double rise_at(const struct fp_point *pts, unsigned n,
		      uint64_t base_bytes, uint64_t bytes)
{
	double b = -1, v = -1;

	for (unsigned i = 0; i < n; i++) {
		if (pts[i].bytes == base_bytes && pts[i].ns > 0)
			b = pts[i].ns;
		if (pts[i].bytes == bytes && pts[i].ns > 0)
			v = pts[i].ns;
	}
	return b > 0 && v > 0 ? v - b : -1;
}

static void one_table(FILE *f, const struct results *r, const struct topo *t,
		      unsigned first)
{
	const struct plan *p = r->plan;
	const struct job_spec *j0 = p->jobs[first].spec;
	const struct kernel_ops *k = j0->kernel;
	const char *const fp_only[] = { k->footprint_opt, NULL };
	const char *const fp_call[] = { k->footprint_opt, k->per_call_opt,
					NULL };
	struct fp_point *pts = calloc(p->njobs, sizeof(*pts));
	struct fp_point *one = calloc(p->njobs, sizeof(*one));
	const struct fp_point *b;
	char key[512], rest[512], pc[32];
	bool calls = k->per_call_opt != NULL;
	bool ratio = calls && label_item(j0->point_label, k->per_call_opt,
					  pc, sizeof(pc));
	uint64_t per_call = calls ? own_value(j0, k->per_call_opt) : 1;
	unsigned n, n1 = 0;

	if (!pts || !one)
		goto out;
	sweep_label_without(j0->point_label, fp_only, key, sizeof(key));
	n = collect(r, j0->name, fp_only, key, 0, pts);
	b = baseline(pts, n);
	if (n < 2 || !b)
		goto out;
	if (ratio) {
		sweep_label_without(j0->point_label, fp_call, rest,
				    sizeof(rest));
		n1 = collect(r, j0->name, fp_call, rest, 1, one);
	}
	fprintf(f, "\nfootprint: job '%s'%s%s%s, the cost that grows with %s: "
		"wall ns per %s (median over runs) above the baseline\n",
		j0->name, key[0] ? " {" : "", key, key[0] ? "}" : "",
		k->footprint_opt, k->item_name);
	print_baseline(f, r, t, first, b);
	fprintf(f, "  %-12s %12s %16s", k->footprint_opt, "ns per item",
		"above: per item");
	if (calls) {
		snprintf(pc, sizeof(pc), "per call (x%" PRIu64 ")", per_call);
		fprintf(f, " %16s", pc);
	}
	if (ratio)
		fprintf(f, "   %s=1's rise / this", k->per_call_opt);
	fputc('\n', f);
	for (unsigned i = 0; i < n; i++) {
		const struct fp_point *pt = &pts[i];
		double up = pt->ns - b->ns, up1;

		fprintf(f, "  %-12s", pt->text);
		if (pt->ns <= 0) {
			fprintf(f, " %12s\n", "no run");
			continue;
		}
		fprintf(f, " %12.2f", pt->ns);
		if (pt == b) {
			fprintf(f, " %16s\n", "baseline");
			continue;
		}
		fprintf(f, " %+16.2f", up);
		if (calls)
			fprintf(f, " %+16.2f", up * (double)per_call);
		up1 = rise_at(one, n1, b->bytes, pt->bytes);
		if (ratio && up1 > 0 && up > 0)
			fprintf(f, "   %.2fx", up1 / up);
		else if (ratio)
			fputs("   -", f);
		fputc('\n', f);
	}
	if (ratio && !n1)
		fprintf(f, "  (no %s=1 point with the same other values: no "
			"ratio)\n", k->per_call_opt);
out:
	free(pts);
	free(one);
}

void footprint_report(FILE *f, const struct results *r, const struct topo *t)
{
	const struct plan *p = r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const char *const fp_only[] = { j->kernel->footprint_opt,
						NULL };
		char want[512], have[512];
		bool seen = false;

		if (!swept_footprint(j))
			continue;
		sweep_label_without(j->point_label, fp_only, want,
				    sizeof(want));
		for (unsigned k = 0; k < i && !seen; k++) {
			const struct job_spec *o = p->jobs[k].spec;

			if (strcmp(o->name, j->name) || !swept_footprint(o))
				continue;
			sweep_label_without(o->point_label, fp_only, have,
					    sizeof(have));
			seen = !strcmp(have, want);
		}
		if (!seen)
			one_table(f, r, t, i);
	}
}
