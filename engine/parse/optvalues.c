/*
 * optvalues.c - the OPT_CUSTOM value types of the option table.
 *
 * A custom parser stores the parsed value and, where the user's text says
 * more than the value (a CPU list), a copy of that text for --dump.  Error
 * messages complete the sentence "option 'x': ...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/filegen.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "machine/counters.h"
#include "parse/optfio.h"
#include "parse/optspace.h"
#include "parse/optvalues.h"
#include "machine/sizeexpr.h"
#include "util/value.h"

static int replace_str(char **dst, const char *val)
{
	char *s = strdup(val);

	if (!s)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

int optv_parse_cpu_nodes(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf, size_t buflen)
{
	(void)buf;
	(void)buflen;
	uint64_t bits[BITMAP_WORDS(MEMJOB_MAX_NODES)] = { 0 };

	(void)o;
	if (value_idlist(val, bits, MEMJOB_MAX_NODES, why))
		return -1;
	if (replace_str(&j->numa_cpu_nodes, val)) {
		*why = "out of memory";
		return -1;
	}
	memcpy(j->cpu_nodes, bits, sizeof(bits));
	return 0;
}

int optv_parse_numjobs(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen)
{
	uint64_t n;

	if (!strcmp(val, "cpus")) {
		j->numjobs_cpus = true;
		j->numjobs = 1;		/* until the check counts them */
		return 0;
	}
	if (value_uint(val, &n, why)) {
		snprintf(buf, buflen, "expected a whole number from %llu to "
			 "%llu, or cpus (one clone per CPU), got '%s'",
			 (unsigned long long)o->min,
			 (unsigned long long)o->max, val);
		*why = buf;
		return -1;
	}
	if (n < o->min || n > o->max) {
		snprintf(buf, buflen, "must be between %llu and %llu, or cpus "
			 "(one clone per CPU), got %s",
			 (unsigned long long)o->min,
			 (unsigned long long)o->max, val);
		*why = buf;
		return -1;
	}
	j->numjobs = (unsigned)n;
	j->numjobs_cpus = false;
	return 0;
}

void optv_format_numjobs(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len)
{
	(void)o;
	if (j->numjobs_cpus)
		snprintf(buf, len, "cpus");
	else
		snprintf(buf, len, "%u", j->numjobs);
}

int optv_parse_rate(const struct opt_def *o, struct job_spec *j,
		    const char *val, const char **why, char *buf,
		    size_t buflen)
{
	const char *pct = strchr(val, '%');
	uint64_t bytes;

	(void)o;
	if (pct) {
		char *end;
		double v = strtod(val, &end);

		if (end == val || end != pct || pct[1] || !(v > 0 && v <= 100)) {
			snprintf(buf, buflen, "expected bytes per second (such "
				 "as 4g) or a percentage of the unlimited rate "
				 "above 0%% and at most 100%%; got %s", val);
			*why = buf;
			return -1;
		}
		j->rate_pct = v;
		j->rate = 0;
		return 0;
	}
	if (value_size(val, &bytes, why))
		return -1;
	j->rate = bytes;
	j->rate_pct = 0;
	return 0;
}

void optv_format_rate(const struct opt_def *o, const struct job_spec *j,
		      char *buf, size_t len)
{
	(void)o;
	if (j->rate_pct > 0)
		snprintf(buf, len, "%g%%", j->rate_pct);
	else
		value_format_size(j->rate, buf, len);
}

static const char *const mempol_words[] = {
	[MEMPOL_DEFAULT] = "default", [MEMPOL_LOCAL] = "local",
	[MEMPOL_BIND] = "bind", [MEMPOL_INTERLEAVE] = "interleave",
	[MEMPOL_PREFERRED] = "preferred", NULL
};

int optv_parse_mempolicy(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf, size_t buflen)
{
	(void)buf;
	(void)buflen;
	struct mempolicy mp = { 0 };
	const char *colon = strchr(val, ':');
	char word[16];
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	int k;

	(void)o;
	*why = "expected default, local, bind:NODES, interleave:NODES or "
	       "preferred:NODE";
	if (n >= sizeof(word))
		return -1;
	memcpy(word, val, n);
	word[n] = '\0';
	k = value_word(word, mempol_words);
	if (k < 0)
		return -1;
	mp.kind = k;
	if (k == MEMPOL_DEFAULT || k == MEMPOL_LOCAL) {
		if (colon)
			return -1;
	} else {
		if (!colon || !colon[1])
			return -1;
		if (value_idlist(colon + 1, mp.nodes, MEMJOB_MAX_NODES, why))
			return -1;
		if (k == MEMPOL_PREFERRED) {
			unsigned count = 0;

			for (size_t w = 0; w < BITMAP_WORDS(MEMJOB_MAX_NODES); w++)
				count += __builtin_popcountll(mp.nodes[w]);
			if (count != 1) {
				*why = "preferred takes exactly one node";
				return -1;
			}
		}
	}
	j->mem_policy = mp;
	return 0;
}

void optv_format_mempolicy(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len)
{
	const struct mempolicy *mp = &j->mem_policy;
	char nodes[256];

	(void)o;
	if (mp->kind == MEMPOL_DEFAULT || mp->kind == MEMPOL_LOCAL) {
		snprintf(buf, len, "%s", mempol_words[mp->kind]);
		return;
	}
	value_format_idlist(mp->nodes, MEMJOB_MAX_NODES, nodes, sizeof(nodes));
	snprintf(buf, len, "%s:%s", mempol_words[mp->kind], nodes);
}

int optv_parse_pattern(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf, size_t buflen)
{
	(void)buf;
	(void)buflen;
	(void)o;
	return pattern_parse(val, &j->pattern, why);
}

void optv_format_pattern(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len)
{
	(void)o;
	pattern_format(&j->pattern, buf, len);
}

/* "unknown kernel 'x'; expected one of: none count ..." in buf, the
 * names from name_at(0), name_at(1)... up to NULL.  Returns -1. */
static int unknown_choice(const char **why, char *buf, size_t buflen,
			  const char *what, const char *val,
			  const char *(*name_at)(size_t i))
{
	struct value_near near;
	const char *name;
	size_t n;

	value_near_init(&near, val);
	for (size_t i = 0; (name = name_at(i)); i++)
		value_near_offer(&near, name);
	n = (size_t)snprintf(buf, buflen, "unknown %s '%s'; %s%s%sexpected one "
			     "of:", what, val,
			     value_near_best(&near) ? "did you mean '" : "",
			     value_near_best(&near) ? value_near_best(&near) : "",
			     value_near_best(&near) ? "'? " : "");

	for (size_t i = 0; n < buflen && (name = name_at(i)); i++)
		n += snprintf(buf + n, buflen - n, " %s", name);
	*why = buf;
	return -1;
}

static const char *ioengine_name_at(size_t i)
{
	return ioengine_registry[i] ? ioengine_registry[i]->name : NULL;
}

static const char *kernel_name_at(size_t i)
{
	return kernel_registry[i] ? kernel_registry[i]->name : NULL;
}

int optv_parse_ioengine(const struct opt_def *o, struct job_spec *j,
			const char *val, const char **why, char *buf, size_t buflen)
{
	const struct ioengine_ops *e = ioengine_find(val);

	(void)o;
	if (!e && (optv_fio_engine_refusal(val, buf, buflen) ||
		   ioengine_refuse_left_out(val, buf, buflen))) {
		*why = buf;
		return -1;
	}
	if (!e)
		return unknown_choice(why, buf, buflen, "data source", val,
				      ioengine_name_at);
	j->ioengine = e;
	return 0;
}

void optv_format_ioengine(const struct opt_def *o, const struct job_spec *j,
			  char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", j->ioengine ? j->ioengine->name : "");
}

int optv_parse_kernel(const struct opt_def *o, struct job_spec *j,
		      const char *val, const char **why, char *buf, size_t buflen)
{
	const struct kernel_ops *k = kernel_find(val);

	(void)o;
	if (!k)
		return unknown_choice(why, buf, buflen, "kernel", val,
				      kernel_name_at);
	j->kernel = k;
	return 0;
}

void optv_format_kernel(const struct opt_def *o, const struct job_spec *j,
			char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", j->kernel ? j->kernel->name : "");
}

/* A plain size now; a size relative to the machine (llc/2, 10%ram) is
 * kept as text and evaluated in check.c for the job's first CPU. */
int optv_parse_size_expr(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf,
			 size_t buflen)
{
	uint64_t v;

	(void)o;
	(void)buf;
	(void)buflen;
	if (sizeexpr_is_relative(val)) {
		if (replace_str(&j->size_expr, val)) {
			*why = "out of memory";
			return -1;
		}
		j->size = 0;
		return 0;
	}
	if (value_size(val, &v, why))
		return -1;
	free(j->size_expr);
	j->size_expr = NULL;
	j->size = v;
	return 0;
}

void optv_format_size_expr(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len)
{
	(void)o;
	if (j->size_expr)
		snprintf(buf, len, "%s", j->size_expr);
	else
		value_format_size(j->size, buf, len);
}

/* A half-width of a slowdown's interval, in percentage points: above 0
 * (no interval is exact) and below 100 (a slowdown of -100% is the
 * floor, so +-100% says nothing). */
int optv_parse_precision(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf,
			 size_t buflen)
{
	char *end;
	double v;

	(void)o;
	(void)buf;
	(void)buflen;
	if (!strcmp(val, "off")) {
		j->precision_pct = 0;
		return 0;
	}
	v = strtod(val, &end);
	if (end != val && *end == '%')
		end++;
	if (end == val || *end || !(v > 0 && v < 100)) {
		*why = "expected a half-width above 0% and below 100%, such as "
		       "1% (or off)";
		return -1;
	}
	j->precision_pct = v;
	return 0;
}

void optv_format_precision(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len)
{
	(void)o;
	if (j->precision_pct > 0)
		snprintf(buf, len, "%g%%", j->precision_pct);
	else
		snprintf(buf, len, "off");
}

int optv_parse_perf(const struct opt_def *o, struct job_spec *j,
		    const char *val, const char **why, char *buf,
		    size_t buflen)
{
	struct counter_list l;

	(void)o;
	if (counters_parse(val, &l, buf, buflen)) {
		*why = buf;
		return -1;
	}
	j->perf = l;
	j->perf_none = !l.n;
	return 0;
}

void optv_format_perf(const struct opt_def *o, const struct job_spec *j,
		      char *buf, size_t len)
{
	(void)o;
	buf[0] = '\0';
	if (j->perf_none)
		snprintf(buf, len, "none");
	else if (j->perf.n)
		counters_format(&j->perf, buf, len);
}
