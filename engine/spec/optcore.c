/*
 * optcore.c - applying option tables: setting a job's option from text,
 * formatting it back, copying jobs for [global] inheritance, where an
 * option was set.  Everything here works from the job's own option space
 * (j->space), never from the registries: the data sources and kernels
 * call it too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/options.h"
#include "util/value.h"

/* The struct option o of job j is stored in. */
static char *base_of(const struct opt_def *o, const struct job_spec *j)
{
	if (o->group && j->gdata)
		return j->gdata[o->group];
	return (char *)j;
}

void *opt_field(const struct opt_def *o, const struct job_spec *j)
{
	return base_of(o, j) + o->off;
}

void *opt_aux(const struct opt_def *o, const struct job_spec *j)
{
	return base_of(o, j) + o->aux;
}

const void *job_opts(const struct job_spec *j, const struct opt_group *g)
{
	static const unsigned char zeros[OPT_GROUP_ZEROS];

	for (unsigned i = 1; j->space && j->gdata && i < j->space->ngroups;
	     i++)
		if (j->space->groups[i] == g)
			return j->gdata[i];
	return g->size <= sizeof(zeros) ? zeros : NULL;
}

bool opt_group_has(const struct opt_group *g, const char *name)
{
	for (size_t i = 0; g && i < g->nopts; i++)
		if (!strcmp(g->opts[i].name, name))
			return true;
	return false;
}

/* The entry called name, by binary search where the space is sorted. */
static int space_lookup(const struct opt_space *sp, const char *name)
{
	size_t lo = 0, hi;

	if (!sp)
		return -1;
	if (!sp->by_name) {
		for (size_t i = 0; i < sp->count; i++)
			if (!strcmp(sp->opts[i].name, name))
				return (int)i;
		return -1;
	}
	hi = sp->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sp->opts[sp->by_name[mid]].name, name);

		if (!c)
			return sp->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int opt_space_index(const struct opt_space *sp, const char *name)
{
	int i = space_lookup(sp, name);

	if (i >= 0 && sp->opts[i].alias)
		return opt_space_index(sp, sp->opts[i].alias);
	return i;
}

unsigned opt_space_word_flags(const struct opt_space *sp, const char *name)
{
	int i = space_lookup(sp, name);

	return i < 0 ? 0 : sp->opts[i].flags;
}

const struct opt_def *opt_space_find(const struct opt_space *sp,
				     const char *name)
{
	int i = opt_space_index(sp, name);

	return i < 0 ? NULL : &sp->opts[i];
}

const char *opt_space_nearest(const struct opt_space *sp, const char *name)
{
	struct value_near n;

	value_near_init(&n, name);
	for (size_t i = 0; sp && i < sp->count; i++)
		value_near_offer(&n, sp->opts[i].name);
	return value_near_best(&n);
}

static bool opt_owns_string(const struct opt_def *o)
{
	if (o->alias)
		return false;
	return o->type == OPT_STR || o->type == OPT_CPUS ||
	       o->format == opt_format_text;
}

/* size keeps its expression text beside the value */
static int copy_size_expr(struct job_spec *dst, const struct job_spec *src)
{
	dst->size_expr = NULL;
	if (src->size_expr && !(dst->size_expr = strdup(src->size_expr)))
		return -1;
	return 0;
}

static int range_error(const struct opt_def *o, uint64_t v, bool is_size,
		       const char **why, char *buf, size_t buflen)
{
	char lo[32], hi[32], got[32];

	if (is_size) {
		value_format_size(o->min, lo, sizeof(lo));
		value_format_size(o->max, hi, sizeof(hi));
		value_format_size(v, got, sizeof(got));
	} else if (o->type == OPT_TIME) {
		value_format_time(o->min, lo, sizeof(lo));
		value_format_time(o->max, hi, sizeof(hi));
		value_format_time(v, got, sizeof(got));
	} else {
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)o->max);
		snprintf(got, sizeof(got), "%llu", (unsigned long long)v);
	}
	if (o->max == UINT64_MAX)
		snprintf(buf, buflen, "must be at least %s, got %s", lo, got);
	else
		snprintf(buf, buflen, "must be between %s and %s, got %s",
			 lo, hi, got);
	*why = buf;
	return -1;
}

static int enum_error(const struct opt_def *o, const char *val,
		      const char **why, char *buf, size_t buflen)
{
	size_t n = snprintf(buf, buflen, "expected ");

	for (size_t i = 0; o->words[i] && n < buflen; i++)
		n += snprintf(buf + n, buflen - n, "%s%s",
			      i ? (o->words[i + 1] ? ", " : " or ") : "",
			      o->words[i]);
	if (n < buflen)
		snprintf(buf + n, buflen - n, ", got '%s'%s%s%s", val,
			 value_nearest_word(val, o->words) ? "; did you mean '"
							   : "",
			 value_nearest_word(val, o->words) ?
				value_nearest_word(val, o->words) : "",
			 value_nearest_word(val, o->words) ? "'?" : "");
	*why = buf;
	return -1;
}

int opt_set(const struct opt_def *o, struct job_spec *j, const char *val,
	    const char **why, char *buf, size_t buflen)
{
	void *field = opt_field(o, j);
	uint64_t u;
	int64_t s;
	bool b;
	int k;

	switch (o->type) {
	case OPT_STR:
	case OPT_CPUS: {
		char *copy;

		if (!*val) {
			/* CPU sets may name topology words (llc-of:2):
			 * check.c resolves them; here only the text */
			*why = o->type == OPT_STR ? "must not be empty" :
			       "expected a CPU list such as 0,2,4-7 or "
			       "llc-of:0";
			return -1;
		}
		copy = strdup(val);
		if (!copy) {
			*why = strerror(ENOMEM);
			return -1;
		}
		free(*(char **)field);
		*(char **)field = copy;
		return 0;
	}
	case OPT_BOOL:
		if (value_bool(val, &b, why))
			return -1;
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
		if (value_uint(val, &u, why))
			return -1;
		if (u < o->min || u > o->max)
			return range_error(o, u, false, why, buf, buflen);
		if (o->width == sizeof(unsigned))
			*(unsigned *)field = (unsigned)u;
		else
			*(uint64_t *)field = u;
		return 0;
	case OPT_INT:
		if (value_int(val, &s, why))
			return -1;
		if (s < INT32_MIN || s > INT32_MAX) {
			*why = "must be a 32-bit integer (-2147483648 to "
			       "2147483647)";
			return -1;
		}
		*(int32_t *)field = (int32_t)s;
		return 0;
	case OPT_SIZE:
	case OPT_TIME:
		if (o->type == OPT_SIZE ? value_size(val, &u, why)
					: value_time_us(val, &u, why))
			return -1;
		if (u < o->min || u > o->max)
			return range_error(o, u, o->type == OPT_SIZE, why,
					   buf, buflen);
		*(uint64_t *)field = u;
		return 0;
	case OPT_ENUM:
		k = value_word(val, o->words);
		if (k < 0)
			return enum_error(o, val, why, buf, buflen);
		*(int *)field = k;
		return 0;
	case OPT_CUSTOM:
		return o->parse(o, j, val, why, buf, buflen);
	}
	*why = "internal error: unknown option type";
	return -1;
}

void opt_format_text(const struct opt_def *o, const struct job_spec *j,
		     char *buf, size_t len)
{
	const char *s = *(char *const *)opt_field(o, j);

	snprintf(buf, len, "%s", s ? s : "");
}

void opt_format(const struct opt_def *o, const struct job_spec *j,
		char *buf, size_t len)
{
	const void *field = opt_field(o, j);

	switch (o->type) {
	case OPT_STR:
	case OPT_CPUS:
		opt_format_text(o, j, buf, len);
		return;
	case OPT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)field ? 1 : 0);
		return;
	case OPT_UINT:
		if (o->width == sizeof(unsigned))
			snprintf(buf, len, "%u", *(const unsigned *)field);
		else
			snprintf(buf, len, "%llu",
				 (unsigned long long)*(const uint64_t *)field);
		return;
	case OPT_INT:
		snprintf(buf, len, "%d", (int)*(const int32_t *)field);
		return;
	case OPT_SIZE:
		value_format_size(*(const uint64_t *)field, buf, len);
		return;
	case OPT_TIME:
		value_format_time(*(const uint64_t *)field, buf, len);
		return;
	case OPT_ENUM:
		snprintf(buf, len, "%s", o->words[*(const int *)field]);
		return;
	case OPT_CUSTOM:
		o->format(o, j, buf, len);
		return;
	}
	snprintf(buf, len, "?");
}

int job_copy(struct job_spec *dst, const struct job_spec *src)
{
	if (job_copy_unswept(dst, src))
		return -1;
	if (src->nsweeps) {
		dst->sweeps = calloc(src->nsweeps, sizeof(*dst->sweeps));
		if (!dst->sweeps)
			goto fail;
		for (unsigned i = 0; i < src->nsweeps; i++) {
			if (sweep_copy(&dst->sweeps[i], &src->sweeps[i]))
				goto fail;
			dst->nsweeps++;
		}
	}
	return 0;
fail:
	job_free(dst);
	return -1;
}

/* The groups' structs of src, copied into dst->gdata (their strings
 * still src's: the caller copies them). */
static int copy_groups(struct job_spec *dst, const struct job_spec *src)
{
	const struct opt_space *sp = src->space;

	dst->gdata = NULL;
	if (!sp || !src->gdata)
		return 0;
	dst->gdata = calloc(sp->ngroups, sizeof(*dst->gdata));
	if (!dst->gdata)
		return -1;
	for (unsigned g = 1; g < sp->ngroups; g++) {
		size_t size = sp->groups[g]->size;

		dst->gdata[g] = malloc(size ? size : 1);
		if (!dst->gdata[g]) {
			while (--g)
				free(dst->gdata[g]);
			free(dst->gdata);
			dst->gdata = NULL;
			return -1;
		}
		memcpy(dst->gdata[g], src->gdata[g], size);
	}
	return 0;
}

int job_copy_unswept(struct job_spec *dst, const struct job_spec *src)
{
	size_t n = src->space ? src->space->count : 0;

	*dst = *src;
	dst->isset = NULL;
	dst->inherited = NULL;
	dst->locs = NULL;
	dst->sweeps = NULL;
	dst->nsweeps = 0;
	dst->point_label = NULL;
	dst->size_expr = NULL;
	if (copy_groups(dst, src)) {
		/* nothing of dst's own yet but its groups */
		dst->space = NULL;
		goto fail;
	}
	/* until strdup'ed, dst's strings are src's: forget them on failure */
	for (size_t i = 0; i < n; i++)
		if (opt_owns_string(&src->space->opts[i]))
			*(char **)opt_field(&src->space->opts[i], dst) = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct opt_def *o = &src->space->opts[i];
		const char *s;

		if (!opt_owns_string(o))
			continue;
		s = *(char *const *)opt_field(o, src);
		if (s && !(*(char **)opt_field(o, dst) = strdup(s)))
			goto fail;
	}
	dst->isset = malloc(n ? n : 1);
	dst->inherited = calloc(n ? n : 1, 1);
	dst->locs = malloc((n ? n : 1) * sizeof(*dst->locs));
	if (!dst->isset || !dst->locs || !dst->inherited)
		goto fail;
	if (src->isset)
		memcpy(dst->isset, src->isset, n);
	if (src->inherited)
		memcpy(dst->inherited, src->inherited, n);
	if (src->locs)
		memcpy(dst->locs, src->locs, n * sizeof(*dst->locs));
	if (src->point_label && !(dst->point_label = strdup(src->point_label)))
		goto fail;
	if (copy_size_expr(dst, src))
		goto fail;
	return 0;
fail:
	job_free(dst);
	return -1;
}

int job_init_space(struct job_spec *j, const struct opt_space *sp)
{
	char buf[256];
	const char *why;

	memset(j, 0, sizeof(*j));
	j->baseline = -1;
	j->space = sp;
	j->isset = calloc(sp->count, sizeof(*j->isset));
	j->inherited = calloc(sp->count, sizeof(*j->inherited));
	j->locs = calloc(sp->count, sizeof(*j->locs));
	j->gdata = calloc(sp->ngroups, sizeof(*j->gdata));
	if (!j->isset || !j->locs || !j->inherited || !j->gdata)
		goto fail;
	for (unsigned g = 1; g < sp->ngroups; g++)
		if (!(j->gdata[g] = calloc(1, sp->groups[g]->size ?
						  sp->groups[g]->size : 1)))
			goto fail;
	for (size_t i = 0; i < sp->count; i++) {
		const struct opt_def *o = &sp->opts[i];

		if (o->def && opt_set(o, j, o->def, &why, buf, sizeof(buf))) {
			fprintf(stderr, "memjob: internal error: default of "
				"'%s' (%s): %s\n", o->name, o->def, why);
			goto fail;
		}
	}
	return 0;
fail:
	job_free(j);
	return -1;
}

void job_free(struct job_spec *j)
{
	const struct opt_space *sp = j->space;

	for (size_t i = 0; sp && i < sp->count; i++) {
		const struct opt_def *o = &sp->opts[i];

		if (opt_owns_string(o) &&
		    (!o->group || (j->gdata && j->gdata[o->group]))) {
			char **field = opt_field(o, j);

			free(*field);
			*field = NULL;
		}
	}
	for (unsigned g = 1; sp && j->gdata && g < sp->ngroups; g++)
		free(j->gdata[g]);
	free(j->gdata);
	j->gdata = NULL;
	for (unsigned i = 0; i < j->nsweeps; i++)
		sweep_free(&j->sweeps[i]);
	free(j->sweeps);
	free(j->point_label);
	free(j->size_expr);
	j->size_expr = NULL;
	free(j->isset);
	free(j->inherited);
	free(j->locs);
	j->inherited = NULL;
	j->sweeps = NULL;
	j->nsweeps = 0;
	j->point_label = NULL;
	j->isset = NULL;
	j->locs = NULL;
}

const struct srcloc *job_loc(const struct job_spec *j, const char *opt)
{
	int i = opt_space_index(j->space, opt);

	if (i >= 0 && j->isset && j->isset[i])
		return &j->locs[i];
	return &j->where;
}

bool job_isset(const struct job_spec *j, const char *opt)
{
	int i = opt_space_index(j->space, opt);

	return i >= 0 && j->isset && j->isset[i];
}

bool job_swept(const struct job_spec *j, const char *opt)
{
	int i = opt_space_index(j->space, opt);

	for (unsigned k = 0; i >= 0 && k < j->nsweeps; k++)
		if (j->sweeps[k].opt == i)
			return true;
	return false;
}

int sweep_copy(struct sweep *dst, const struct sweep *src)
{
	*dst = *src;
	dst->values = calloc(src->nvalues ? src->nvalues : 1,
			     sizeof(*dst->values));
	if (!dst->values)
		return -1;
	for (unsigned i = 0; i < src->nvalues; i++) {
		dst->values[i] = strdup(src->values[i]);
		if (!dst->values[i]) {
			dst->nvalues = i;
			sweep_free(dst);
			return -1;
		}
	}
	return 0;
}

void sweep_free(struct sweep *s)
{
	for (unsigned i = 0; i < s->nvalues; i++)
		free(s->values[i]);
	free(s->values);
	s->values = NULL;
	s->nvalues = 0;
}
