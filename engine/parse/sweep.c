/*
 * sweep.c - the expansion of segments into grid points and interference
 * phases (see sweep.h); the sweep= values themselves are sweepspec.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/options.h"
#include "parse/optspace.h"
#include "parse/sweep.h"
#include "parse/sweepspec.h"
#include "util/value.h"

#define MAX_DIMS	SWEEP_MAX_DIMS

struct sweep_baseline {
	char *key;			/* the victims' swept values */
	unsigned first;			/* index in out of its first job */
	unsigned count;
};

static int push_job(struct sweep_expander *x, struct job_spec *j)
{
	if (x->out->njobs == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct job_spec *n = realloc(x->out->jobs, cap * sizeof(*n));

		if (!n)
			return -1;
		x->out->jobs = n;
		x->cap = cap;
	}
	j->index = (unsigned)x->out->njobs;
	x->out->jobs[x->out->njobs++] = *j;
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void add_note(struct sweep_notes *n, const char *fmt, ...)
{
	char buf[1024], **t;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < n->n; i++)
		if (!strcmp(n->text[i], buf))
			return;
	t = realloc(n->text, (n->n + 1) * sizeof(*t));
	if (!t)
		return;
	n->text = t;
	t[n->n] = strdup(buf);
	if (t[n->n])
		n->n++;
}

void sweep_notes_free(struct sweep_notes *n)
{
	for (unsigned i = 0; i < n->n; i++)
		free(n->text[i]);
	free(n->text);
	n->text = NULL;
	n->n = 0;
}

/* Is this point left out because a split job would have more clones than
 * CPUs (a numjobs beyond the machine, or a CPU set that is smaller here,
 * such as siblings-of:0 without SMT)?  Says so in the notes. */
static bool reduced(struct sweep_expander *x, struct job_spec *mats,
		    const struct job_cpus *jc, unsigned count,
		    const struct sweep_dim *dims, unsigned ndims)
{
	int numjobs = opt_index("numjobs");

	if (!ndims)
		return false;
	for (unsigned k = 0; k < count; k++) {
		struct job_spec *j = &mats[k];
		bool swept_numjobs = false;
		unsigned cpus;

		if (!j->cpus_allowed || j->cpus_policy != CPUS_SPLIT)
			continue;
		cpus = cpuset_count(jc[k].cpus);
		if (j->numjobs <= cpus)
			continue;
		for (unsigned d = 0; d < ndims; d++)
			if (dims[d].job == k && dims[d].sw->opt == numjobs)
				swept_numjobs = true;
		if (swept_numjobs)
			add_note(x->notes, "job '%s': numjobs=%u left out: "
				 "cpus_allowed=%s gives %u CPU%s on this "
				 "machine, and cpus_allowed_policy=split puts "
				 "one clone on each", j->name, j->numjobs,
				 j->cpus_allowed, cpus, cpus == 1 ? "" : "s");
		else
			add_note(x->notes, "job '%s': point {%s} left out: "
				 "cpus_allowed=%s gives %u CPU%s on this "
				 "machine for its %u clones "
				 "(cpus_allowed_policy=split)", j->name,
				 j->point_label ? j->point_label : "",
				 j->cpus_allowed, cpus, cpus == 1 ? "" : "s",
				 j->numjobs);
		return true;
	}
	return false;
}

/* Apply point p's values to fresh copies of the segment's jobs. */
static int materialize(struct sweep_expander *x, unsigned a, unsigned count,
		       const struct sweep_dim *dims, unsigned ndims, unsigned p,
		       struct job_spec *mats, char *label, size_t lablen,
		       char *vkey, size_t keylen)
{
	unsigned idx[MAX_DIMS], rest = p;
	size_t ln = 0, kn = 0;
	unsigned made = 0;

	for (unsigned k = ndims; k-- > 0;) {
		idx[k] = rest % dims[k].sw->nvalues;
		rest /= dims[k].sw->nvalues;
	}
	label[0] = vkey[0] = '\0';
	for (unsigned k = 0; k < count; k++, made++)
		if (job_copy_unswept(&mats[k], &x->in->jobs[a + k]))
			goto fail;
	for (unsigned k = 0; k < ndims; k++) {
		struct job_spec *j = &mats[dims[k].job];
		const struct opt_def *o = &opt_table[dims[k].sw->opt];
		const char *v = dims[k].sw->values[idx[k]], *why;
		bool shared = false;
		char buf[256];

		for (unsigned m = 0; m < ndims; m++)
			if (m != k && dims[m].sw->opt == dims[k].sw->opt)
				shared = true;
		if (opt_set(o, j, v, &why, buf, sizeof(buf))) {
			diag_error(x->d, &dims[k].sw->loc, "sweep", "value '%s' "
				   "for %s: %s", v, o->name, why);
			goto fail;
		}
		j->isset[dims[k].sw->opt] = 1;
		j->locs[dims[k].sw->opt] = dims[k].sw->loc;
		if (!strcmp(o->name, "ioengine"))
			j->sweeps_owner[0] = true;
		if (!strcmp(o->name, "kernel"))
			j->sweeps_owner[1] = true;
		if (!strcmp(o->name, "numjobs"))
			j->swept_numjobs = true;
		if (ln < lablen)
			ln += snprintf(label + ln, lablen - ln, "%s%s%s%s=%s",
				       ln ? " " : "", shared ? j->name : "",
				       shared ? "." : "", o->name, v);
		if (j->role == ROLE_VICTIM && kn < keylen)
			kn += snprintf(vkey + kn, keylen - kn, "%s%s%s%s=%s",
				       kn ? " " : "", shared ? j->name : "",
				       shared ? "." : "", o->name, v);
	}
	for (unsigned k = 0; k < count; k++) {
		mats[k].point = p;
		mats[k].baseline = -1;
		if (ndims) {
			mats[k].point_label = strdup(label);
			if (!mats[k].point_label)
				goto fail_all;
		}
	}
	return 0;
fail_all:
	made = count;
fail:
	for (unsigned k = 0; k < made; k++)
		job_free(&mats[k]);
	return -1;
}

/* Emit copies of mats (those with want_role, or all when want_role is
 * ROLE_NONE) in phase ph; the first one starts a new segment. */
static int emit(struct sweep_expander *x, struct job_spec *mats, unsigned count,
		bool only_victims, enum job_phase ph, bool copy)
{
	bool first = true;

	for (unsigned k = 0; k < count; k++) {
		struct job_spec j;

		if (only_victims && mats[k].role != ROLE_VICTIM)
			continue;
		if (copy) {
			if (job_copy(&j, &mats[k]))
				return -1;
		} else {
			j = mats[k];
		}
		j.phase = ph;
		/* a baseline serves every point with these victim values:
		 * it is labelled with them only */
		if (ph == PHASE_ALONE) {
			free(j.point_label);
			j.point_label = x->vlabel && *x->vlabel ?
					strdup(x->vlabel) : NULL;
		}
		if (first)
			j.stonewall = x->out->njobs > 0;
		first = false;
		if (push_job(x, &j)) {
			job_free(&j);
			return -1;
		}
	}
	return 0;
}

static void link_baselines(struct sweep_expander *x, unsigned loaded_first,
			   unsigned count, const struct sweep_baseline *b)
{
	for (unsigned k = loaded_first; k < loaded_first + count; k++) {
		struct job_spec *j = &x->out->jobs[k];

		if (j->role != ROLE_VICTIM)
			continue;
		for (unsigned i = b->first; i < b->first + b->count; i++)
			if (!strcmp(x->out->jobs[i].name, j->name))
				j->baseline = (int)i;
	}
}

void sweep_begin(struct sweep_expander *x, const struct jobset *in,
		 struct jobset *out, struct sweep_notes *notes,
		 const struct topo *t, struct diag *d)
{
	memset(x, 0, sizeof(*x));
	x->in = in;
	x->topo = t;
	x->out = out;
	x->notes = notes;
	x->d = d;
	x->errors = d->errors;
	out->jobs = NULL;
	out->njobs = 0;
}

/* One value of an expanded sweep: value with its word (at, len) replaced
 * by text.  -1 out of memory or room. */
static int add_expanded(struct sweep *s, const char *value, const char *at,
			size_t len, const char *text)
{
	char **n;
	char *v;

	if (s->nvalues >= SWEEP_MAX_VALUES)
		return -1;
	if (asprintf(&v, "%.*s%s%s", (int)(at - value), value, text,
		     at + len) < 0)
		return -1;
	n = realloc(s->values, (s->nvalues + 1) * sizeof(*n));
	if (!n) {
		free(v);
		return -1;
	}
	s->values = n;
	s->values[s->nvalues++] = v;
	return 0;
}

/* The parts a word stands for on t, as values, into out. */
static int expand_word(const struct topo *t, const char *value,
		       const char *at, enum sweep_word w, struct sweep *out)
{
	size_t len = strlen(sweep_word_name(w));
	char text[64];

	if (w == SWEEP_CPU_PAIRS) {
		for (unsigned a = 0; a < t->ncpus; a++)
			for (unsigned b = a + 1; b < t->ncpus; b++) {
				if (!topo_cpu_allowed(t, a) ||
				    !topo_cpu_allowed(t, b))
					continue;
				snprintf(text, sizeof(text), "%u,%u", a, b);
				if (add_expanded(out, value, at, len, text))
					return -1;
			}
		return 0;
	}
	for (unsigned n = 0; n < t->nnodes; n++) {
		bool cpus = false;

		if (!topo_has_node(t, n))
			continue;
		for (unsigned c = 0; c < t->ncpus && !cpus; c++)
			cpus = t->node_cpus[n][c / 64] >> (c % 64) & 1 &&
			       topo_cpu_allowed(t, c);
		if (w == SWEEP_CPU_NODES && !cpus)
			continue;
		snprintf(text, sizeof(text), "%u", n);
		if (add_expanded(out, value, at, len, text))
			return -1;
	}
	return 0;
}

/*
 * sw as it runs here: itself when no value holds a word of the machine's
 * parts (@cpu-nodes...), else a copy (owned by the segment) with each
 * such value replaced by one value per part, and a note where a word
 * gives one part only (a one-node machine: a 1x1 matrix) or none.
 * NULL after an error.
 */
static const struct sweep *machine_values(struct sweep_expander *x,
					  const struct job_spec *j,
					  const struct sweep *sw)
{
	const char *opt = opt_table[sw->opt].name, *at;
	struct sweep *out;
	bool any = false;

	for (unsigned i = 0; i < sw->nvalues; i++)
		any |= sweep_word_in(sw->values[i], &at) != SWEEP_WORD_NONE;
	if (!any)
		return sw;
	if (!x->topo) {
		diag_error(x->d, &sw->loc, "sweep", "%s: the machine's "
			   "topology could not be read, so @cpu-nodes, "
			   "@mem-nodes and @cpu-pairs mean nothing here; "
			   "name the values, or give --topology-file", opt);
		return NULL;
	}
	out = &x->owned[x->nowned];
	memset(out, 0, sizeof(*out));
	out->opt = sw->opt;
	out->loc = sw->loc;
	x->nowned++;
	for (unsigned i = 0; i < sw->nvalues; i++) {
		enum sweep_word w = sweep_word_in(sw->values[i], &at);
		unsigned before = out->nvalues;

		if (w == SWEEP_WORD_NONE ?
		    add_expanded(out, sw->values[i], sw->values[i], 0, "") :
		    expand_word(x->topo, sw->values[i], at, w, out)) {
			diag_error(x->d, &sw->loc, "sweep", "%s: more than %d "
				   "values, or out of memory", opt,
				   SWEEP_MAX_VALUES);
			return NULL;
		}
		if (w == SWEEP_WORD_NONE || out->nvalues - before > 1)
			continue;
		if (out->nvalues == before) {
			diag_error(x->d, &sw->loc, "sweep", "%s:%s: %s has "
				   "none on %s", opt, sw->values[i],
				   sweep_word_name(w), x->topo->from_file ?
				   "the topology file" : "this machine");
			return NULL;
		}
		add_note(x->notes, "job '%s': sweep=%s:%s: %s is %s on %s, "
			 "so it has one point there", j->name, opt,
			 sw->values[i], sweep_word_name(w),
			 w == SWEEP_CPU_PAIRS ? "one pair of CPUs" :
			 "one NUMA node", x->topo->from_file ?
			 "the topology file" : "this machine");
	}
	return out;
}

int sweep_segment(struct sweep_expander *x, unsigned a, unsigned *end)
{
	const struct jobset *in = x->in;
	unsigned b;
	int victim = -1, aggressor = -1;

	for (b = a + 1; b < in->njobs && !in->jobs[b].stonewall; b++)
		;
	*end = b;
	x->a = a;
	x->count = b - a;
	x->ndims = 0;
	x->npoints = 1;
	for (unsigned k = a; k < b; k++) {
		const struct job_spec *j = &in->jobs[k];

		if (j->role == ROLE_VICTIM && victim < 0)
			victim = (int)k;
		if (j->role == ROLE_AGGRESSOR && aggressor < 0)
			aggressor = (int)k;
		for (unsigned s = 0; s < j->nsweeps; s++) {
			if (x->ndims == MAX_DIMS) {
				diag_error(x->d, &j->sweeps[s].loc, "sweep",
					   "more than %d sweeps in one segment",
					   MAX_DIMS);
				return -1;
			}
			x->dims[x->ndims].job = k - a;
			x->dims[x->ndims].sw = machine_values(x, j,
							       &j->sweeps[s]);
			if (!x->dims[x->ndims].sw)
				return -1;
			x->npoints *= x->dims[x->ndims].sw->nvalues;
			x->ndims++;
			if (x->npoints > SWEEP_MAX_POINTS) {
				diag_error(x->d, &j->sweeps[s].loc, "sweep",
					   "the grid has more than %d points",
					   SWEEP_MAX_POINTS);
				return -1;
			}
		}
	}
	if (aggressor >= 0 && victim < 0) {
		diag_error(x->d, job_loc(&in->jobs[aggressor], "role"), "role",
			   "job '%s' is an aggressor, but no victim runs with "
			   "it (victims and aggressors must start together: no "
			   "stonewall between them)", in->jobs[aggressor].name);
		return -1;
	}
	if (victim >= 0 && aggressor < 0) {
		diag_error(x->d, job_loc(&in->jobs[victim], "role"), "role",
			   "job '%s' is a victim, but no aggressor runs with it",
			   in->jobs[victim].name);
		return -1;
	}
	x->interference = victim >= 0;
	x->mats = calloc(x->count, sizeof(*x->mats));
	if (!x->mats) {
		diag_plain(x->d, "out of memory");
		return -1;
	}
	return 0;
}

int sweep_point(struct sweep_expander *x, uint64_t p)
{
	return materialize(x, x->a, x->count, x->dims, x->ndims, (unsigned)p,
			   x->mats, x->label, sizeof(x->label), x->vkey,
			   sizeof(x->vkey));
}

void sweep_drop(struct sweep_expander *x)
{
	for (unsigned k = 0; k < x->count; k++)
		job_free(&x->mats[k]);
}

static int emit_point(struct sweep_expander *x, const struct job_cpus *jc)
{
	struct job_spec *mats = x->mats;
	unsigned count = x->count;
	struct sweep_baseline *base = NULL;
	unsigned loaded_first;

	/* after the check: the CPU sets are resolved now */
	if (reduced(x, mats, jc, count, x->dims, x->ndims)) {
		sweep_drop(x);
		return 0;
	}
	for (unsigned k = 0; k < count; k++)
		if (jc[k].note[0])
			add_note(x->notes, "job '%s': %s", mats[k].name,
				 jc[k].note);
	if (!x->interference)
		return emit(x, mats, count, false, PHASE_RUN, false) ? -1 : 0;
	for (unsigned i = 0; i < x->nbases; i++)
		if (!strcmp(x->bases[i].key, x->vkey))
			base = &x->bases[i];
	if (!base) {
		struct sweep_baseline *n = realloc(x->bases, (x->nbases + 1) *
					     sizeof(*n));

		if (!n)
			return -1;
		x->bases = n;
		base = &x->bases[x->nbases++];
		base->key = strdup(x->vkey);
		base->first = (unsigned)x->out->njobs;
		x->vlabel = x->vkey;
		if (!base->key ||
		    emit(x, mats, count, true, PHASE_ALONE, true)) {
			x->vlabel = NULL;
			return -1;
		}
		x->vlabel = NULL;
		base->count = (unsigned)x->out->njobs - base->first;
	}
	loaded_first = (unsigned)x->out->njobs;
	if (emit(x, mats, count, false, PHASE_LOADED, false))
		return -1;
	link_baselines(x, loaded_first, count, base);
	return 0;
}

int sweep_emit(struct sweep_expander *x, const struct job_cpus *cpus)
{
	if (!emit_point(x, cpus))
		return 0;
	diag_plain(x->d, "out of memory");
	return -1;
}

void sweep_segment_done(struct sweep_expander *x)
{
	for (unsigned i = 0; i < x->nowned; i++)
		sweep_free(&x->owned[i]);
	x->nowned = 0;
	for (unsigned i = 0; i < x->nbases; i++)
		free(x->bases[i].key);
	free(x->bases);
	x->bases = NULL;
	x->nbases = 0;
	free(x->mats);
	x->mats = NULL;
}

unsigned sweep_end(struct sweep_expander *x)
{
	struct diag *d = x->d;

	for (unsigned i = 0; i < x->notes->n; i++)
		fprintf(d->out, "memjob: note: %s\n", x->notes->text[i]);
	if (d->errors == x->errors && x->in->njobs && !x->out->njobs)
		diag_plain(d, "every point of the sweeps was left out (see the "
			   "notes above): nothing to run");
	return d->errors - x->errors;
}
