/*
 * sweepspec.c - the value of sweep=: an option and its values, each
 * checked against the option (see sweepspec.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/options.h"
#include "parse/optvalues.h"
#include "parse/sweepspec.h"
#include "util/value.h"

static const char *const not_sweepable[] = {
	"name", "sweep", "role", "stonewall", "new_group", "wait_for",
	"repeat", "precision", "precision_budget", NULL
};

static const char *const word_names[] = {
	[SWEEP_CPU_NODES] = "@cpu-nodes", [SWEEP_MEM_NODES] = "@mem-nodes",
	[SWEEP_CPU_PAIRS] = "@cpu-pairs",
};
/* What a word is checked as at parse time. */
static const char *const word_samples[] = {
	[SWEEP_CPU_NODES] = "0", [SWEEP_MEM_NODES] = "0",
	[SWEEP_CPU_PAIRS] = "0,1",
};

enum sweep_word sweep_word_in(const char *value, const char **at)
{
	for (int w = SWEEP_CPU_NODES; w <= SWEEP_CPU_PAIRS; w++) {
		const char *p = strstr(value, word_names[w]);

		if (p) {
			*at = p;
			return (enum sweep_word)w;
		}
	}
	*at = NULL;
	return SWEEP_WORD_NONE;
}

const char *sweep_word_name(enum sweep_word w)
{
	return w == SWEEP_WORD_NONE ? "" : word_names[w];
}

/* value with its word (if any) replaced by the word's sample. */
static void sample_of(const char *value, char *buf, size_t len)
{
	const char *at;
	enum sweep_word w = sweep_word_in(value, &at);

	if (w == SWEEP_WORD_NONE)
		snprintf(buf, len, "%s", value);
	else
		snprintf(buf, len, "%.*s%s%s", (int)(at - value), value,
			 word_samples[w], at + strlen(word_names[w]));
}

static int add_value(struct sweep *s, const char *text, size_t len)
{
	char **n;

	if (s->nvalues >= SWEEP_MAX_VALUES)
		return -1;
	n = realloc(s->values, (s->nvalues + 1) * sizeof(*n));
	if (!n)
		return -1;
	s->values = n;
	n[s->nvalues] = strndup(text, len);
	if (!n[s->nvalues])
		return -1;
	s->nvalues++;
	return 0;
}

/* A..B:*F or A..B:+S over sizes, times or integers, as canonical text. */
static int expand_range(const struct opt_def *o, const char *spec,
			struct sweep *s, const char **why, char *buf,
			size_t buflen)
{
	const char *dots = strstr(spec, ".."), *colon;
	char a[64], b[64], text[64];
	uint64_t lo, hi, step, v;
	bool mul;
	int (*conv)(const char *, uint64_t *, const char **);

	colon = strchr(dots + 2, ':');
	if (!colon || (colon[1] != '*' && colon[1] != '+') ||
	    (size_t)(dots - spec) >= sizeof(a) ||
	    (size_t)(colon - dots - 2) >= sizeof(b)) {
		*why = "a range is A..B:*F (multiply) or A..B:+S (add), as in "
		       "4k..64m:*2";
		return -1;
	}
	switch (o->type) {
	case OPT_SIZE:
		conv = value_size;
		break;
	case OPT_TIME:
		conv = value_time_us;
		break;
	case OPT_UINT:
		conv = value_uint;
		break;
	case OPT_CUSTOM:
		if (o->parse == optv_parse_size_expr) {	/* size */
			conv = value_size;
			break;
		}
		/* fall through */
	default:
		snprintf(buf, buflen, "option '%s' takes no range; list its "
			 "values (%s:v1,v2,...)", o->name, o->name);
		*why = buf;
		return -1;
	}
	snprintf(a, sizeof(a), "%.*s", (int)(dots - spec), spec);
	snprintf(b, sizeof(b), "%.*s", (int)(colon - dots - 2), dots + 2);
	mul = colon[1] == '*';
	if (conv(a, &lo, why) || conv(b, &hi, why))
		return -1;
	if (mul ? value_uint(colon + 2, &step, why)
		: conv(colon + 2, &step, why))
		return -1;
	if (lo > hi || step == 0 || (mul && (step < 2 || lo == 0))) {
		*why = "a range needs A <= B, and a factor of at least 2 "
		       "from a non-zero A (or a step above 0)";
		return -1;
	}
	for (v = lo; v <= hi;) {
		if (o->type == OPT_SIZE || o->type == OPT_CUSTOM)
			value_format_size(v, text, sizeof(text));
		else if (o->type == OPT_TIME)
			value_format_time(v, text, sizeof(text));
		else
			snprintf(text, sizeof(text), "%llu",
				 (unsigned long long)v);
		if (add_value(s, text, strlen(text))) {
			*why = "too many values (at most 10000)";
			return -1;
		}
		if (mul ? v > UINT64_MAX / step : v > UINT64_MAX - step)
			break;
		v = mul ? v * step : v + step;
	}
	return 0;
}

/* OPTION:* over an enum: every word this build offers here but "none"
 * (flush:* is every flush instruction this CPU has). */
static int expand_words(const struct opt_def *o, struct sweep *s,
			const char **why, char *buf, size_t buflen)
{
	if (o->type != OPT_ENUM) {
		snprintf(buf, buflen, "'%s:*' sweeps the words of an option "
			 "that takes one of a list; list the values of '%s' "
			 "(%s:v1,v2,...)", o->name, o->name, o->name);
		*why = buf;
		return -1;
	}
	for (int w = 0; o->words[w]; w++) {
		if (!strcmp(o->words[w], "none") ||
		    (o->unavailable && o->unavailable(w)))
			continue;
		if (add_value(s, o->words[w], strlen(o->words[w]))) {
			*why = "out of memory";
			return -1;
		}
	}
	if (!s->nvalues) {
		snprintf(buf, buflen, "option '%s' has no value but none "
			 "here", o->name);
		*why = buf;
		return -1;
	}
	return 0;
}

int sweep_parse(const struct opt_space *sp, const char *spec,
		struct sweep *s, const char **why, char *buf, size_t buflen)
{
	const char *colon = strchr(spec, ':'), *list, *p;
	const struct opt_def *o;
	char name[64];
	char sep;

	memset(s, 0, sizeof(*s));
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(name)) {
		*why = "expected OPTION:v1,v2,... (e.g. bs:4k,64k,1m)";
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
	o = opt_space_find(sp, name);
	if (!o) {
		const char *near = opt_space_nearest(sp, name);

		snprintf(buf, buflen, "cannot sweep unknown option '%s'%s%s%s",
			 name, near ? "; did you mean '" : "",
			 near ? near : "", near ? "'?" : "");
		*why = buf;
		return -1;
	}
	if (value_word(name, not_sweepable) >= 0) {
		snprintf(buf, buflen, "option '%s' cannot be swept", name);
		*why = buf;
		return -1;
	}
	s->opt = (int)(o - sp->opts);
	list = colon + 1;
	if (!strcmp(list, "*")) {
		if (expand_words(o, s, why, buf, buflen))
			goto fail;
	} else if (strstr(list, "..") && o->type != OPT_STR &&
	    (o->type != OPT_CUSTOM || o->parse == optv_parse_size_expr)) {
		if (expand_range(o, list, s, why, buf, buflen))
			goto fail;
	} else {
		sep = strchr(list, '|') ? '|' : ',';
		for (p = list;;) {
			const char *end = strchr(p, sep);
			size_t len = end ? (size_t)(end - p) : strlen(p);

			if (!len) {
				*why = "empty value in the sweep list";
				goto fail;
			}
			if (add_value(s, p, len)) {
				*why = "too many values (at most 10000)";
				goto fail;
			}
			if (!end)
				break;
			p = end + 1;
		}
	}
	/* Every value must be one the option accepts (a word of the
	 * machine's parts checked as its sample). */
	for (unsigned i = 0; i < s->nvalues; i++) {
		struct job_spec scratch;
		const char *vwhy, *at;
		char vbuf[256], sample[512];
		int bad;

		if (sweep_word_in(s->values[i], &at) != SWEEP_WORD_NONE &&
		    strstr(at + 1, "@") &&
		    sweep_word_in(strchr(at + 1, '@'), &at) != SWEEP_WORD_NONE) {
			snprintf(buf, buflen, "value '%s' for %s: a value holds at "
				 "most one word of the machine's parts "
				 "(@cpu-nodes, @mem-nodes, @cpu-pairs)", s->values[i], o->name);
			*why = buf;
			goto fail;
		}
		if (job_init_space(&scratch, sp)) {
			*why = "out of memory";
			goto fail;
		}
		sample_of(s->values[i], sample, sizeof(sample));
		bad = opt_set(o, &scratch, sample, &vwhy, vbuf, sizeof(vbuf));
		job_free(&scratch);
		if (bad) {
			snprintf(buf, buflen, "value '%s' for %s: %s",
				 s->values[i], o->name, vwhy);
			*why = buf;
			goto fail;
		}
	}
	return 0;
fail:
	sweep_free(s);
	return -1;
}

void sweep_format(const struct opt_space *sp, const struct sweep *s,
		  char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s:", sp->opts[s->opt].name);
	char sep = ',';

	for (unsigned i = 0; i < s->nvalues; i++)
		if (strchr(s->values[i], ','))
			sep = '|';
	for (unsigned i = 0; i < s->nvalues && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? (char[]){ sep, 0 }
							  : "", s->values[i]);
}

/* Each sweep= line adds a sweep; the same option twice is an error. */
int optv_parse_sweep(const struct opt_def *o, struct job_spec *j,
		     const char *val, const char **why, char *buf,
		     size_t buflen)
{
	struct sweep s, *n;

	(void)o;
	if (sweep_parse(j->space, val, &s, why, buf, buflen))
		return -1;
	for (unsigned i = 0; i < j->nsweeps; i++)
		if (j->sweeps[i].opt == s.opt) {
			snprintf(buf, buflen, "option '%s' is already swept "
				 "in this job", j->space->opts[s.opt].name);
			*why = buf;
			sweep_free(&s);
			return -1;
		}
	n = realloc(j->sweeps, (j->nsweeps + 1) * sizeof(*n));
	if (!n) {
		sweep_free(&s);
		*why = "out of memory";
		return -1;
	}
	j->sweeps = n;
	n[j->nsweeps++] = s;
	return 0;
}

/* The first sweep only: --dump prints each with its own line. */
void optv_format_sweep(const struct opt_def *o, const struct job_spec *j,
		       char *buf, size_t len)
{
	(void)o;
	buf[0] = '\0';
	if (j->nsweeps)
		sweep_format(j->space, &j->sweeps[0], buf, len);
}
