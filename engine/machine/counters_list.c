/*
 * counters_list.c - event lists and counted values, without the kernel.
 *
 * Parsing perf_events= (perf's names and aliases, with "did you mean"),
 * its canonical text, the default set, and what is done with values once
 * read: the figures derived from pairs of events and the sum over clones.
 * Pure functions: the unit tests call them on made-up values.
 */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "machine/counters.h"
#include "util/value.h"

/* perf's other names for some events */
static const struct {
	const char *name;
	unsigned id;
} aliases[] = {
	{ "cpu-cycles", CTR_CYCLES },
	{ "branch-instructions", CTR_BRANCHES },
	{ "faults", CTR_PAGE_FAULTS },
	{ "cs", CTR_CONTEXT_SWITCHES },
	{ "migrations", CTR_CPU_MIGRATIONS },
};

/* ---- lists ---- */

const char *counters_status_name(enum counter_status s)
{
	switch (s) {
	case COUNTER_OK:
		return "ok";
	case COUNTER_UNSUPPORTED:
		return "not-supported";
	case COUNTER_DENIED:
		return "denied";
	case COUNTER_FAILED:
		return "failed";
	case COUNTER_NOT_COUNTED:
		return "not-counted";
	}
	return "unknown";
}

unsigned counters_default(unsigned *ids)
{
	for (unsigned i = 0; i < CTR_NEVENTS; i++)
		ids[i] = i;
	return CTR_NEVENTS;
}

static int lookup(const char *word)
{
	for (unsigned i = 0; i < CTR_NEVENTS; i++)
		if (!strcasecmp(word, counters_name(i)))
			return (int)i;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(word, aliases[i].name))
			return (int)aliases[i].id;
	return -1;
}

static void lower(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

/* The event name nearest to an unknown word, or NULL if none is close. */
static const char *nearest(const char *word)
{
	char w[64], e[64];
	unsigned best = ~0u, d;
	const char *pick = NULL;

	lower(w, word, sizeof(w));
	for (unsigned i = 0; i < CTR_NEVENTS; i++) {
		lower(e, counters_name(i), sizeof(e));
		d = value_distance(w, e);
		if (d < best) {
			best = d;
			pick = counters_name(i);
		}
	}
	return best <= 2 || best <= strlen(w) / 4 ? pick : NULL;
}

static int unknown(const char *word, char *err, size_t errlen)
{
	const char *near = nearest(word);

	if (strchr(word, ':'))
		snprintf(err, errlen, "event '%s': modifiers such as ':u' are "
			 "not supported (events count user and kernel space)",
			 word);
	else if (near)
		snprintf(err, errlen, "unknown event '%s' (did you mean '%s'?)",
			 word, near);
	else
		snprintf(err, errlen, "unknown event '%s'; expected perf's "
			 "names, such as cycles, instructions, cache-misses, "
			 "L1-dcache-load-misses, page-faults", word);
	return -1;
}

int counters_parse(const char *list, unsigned *ids, unsigned *n, char *err,
		   size_t errlen)
{
	const char *p = list;
	char word[64];

	*n = 0;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int id;

		while (len && isspace((unsigned char)*p))
			p++, len--;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (!len && !*n && !end) {
			snprintf(err, errlen, "no event given");
			return -1;
		}
		if (!len) {
			snprintf(err, errlen, "an empty event name in '%s'",
				 list);
			return -1;
		}
		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		if (!strcasecmp(word, "none")) {
			if (!*n && !end)
				return 0;
			snprintf(err, errlen, "'none' turns every counter off "
				 "and stands alone, not in a list ('%s')",
				 list);
			return -1;
		}
		id = lookup(word);
		if (id < 0)
			return unknown(word, err, errlen);
		for (unsigned i = 0; i < *n; i++) {
			if (ids[i] != (unsigned)id)
				continue;
			if (strcasecmp(word, counters_name((unsigned)id)))
				snprintf(err, errlen, "event '%s' is '%s', "
					 "which is listed already", word,
					 counters_name((unsigned)id));
			else
				snprintf(err, errlen, "event '%s' is listed "
					 "twice", counters_name((unsigned)id));
			return -1;
		}
		ids[(*n)++] = (unsigned)id;
		if (!end)
			return 0;
		p = end + 1;
	}
}

void counters_format(const unsigned *ids, unsigned n, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? "," : "",
				 counters_name(ids[i]));

		if (w < 0)
			return;
		used += (size_t)w;
	}
}

/* ---- derived figures, clones ---- */

static const struct {
	const char *name;
	unsigned num, den;
} derived[] = {
	{ "ipc", CTR_INSTRUCTIONS, CTR_CYCLES },
	{ "cache-miss-rate", CTR_CACHE_MISSES, CTR_CACHE_REFERENCES },
	{ "branch-miss-rate", CTR_BRANCH_MISSES, CTR_BRANCHES },
	{ "L1-dcache-load-miss-rate", CTR_L1D_LOAD_MISSES, CTR_L1D_LOADS },
	{ "LLC-load-miss-rate", CTR_LLC_LOAD_MISSES, CTR_LLC_LOADS },
};

_Static_assert(sizeof(derived) / sizeof(derived[0]) <= COUNTERS_DERIVED_MAX,
	       "COUNTERS_DERIVED_MAX is too small");

static const struct counter_value *find(const struct counter_value *v,
					unsigned n, unsigned id)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].name && !strcmp(v[i].name, counters_name(id)))
			return &v[i];
	return NULL;
}

unsigned counters_derived(const struct counter_value *v, unsigned n,
			  const char **names, double *values, unsigned max)
{
	unsigned got = 0;

	for (size_t d = 0; d < sizeof(derived) / sizeof(derived[0]); d++) {
		const struct counter_value *a = find(v, n, derived[d].num);
		const struct counter_value *b = find(v, n, derived[d].den);

		if (got == max)
			break;
		if (!a || !b || a->status != COUNTER_OK ||
		    b->status != COUNTER_OK || a->user_only != b->user_only ||
		    !b->value)
			continue;
		names[got] = derived[d].name;
		values[got++] = (double)a->value / (double)b->value;
	}
	return got;
}

void counters_merge(struct counter_value *into,
		    const struct counter_value *from, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct counter_value *a = &into[i];
		const struct counter_value *b = &from[i];

		if (!a->name || !b->name || strcmp(a->name, b->name))
			continue;
		a->value += b->value;
		a->raw += b->raw;
		if (b->running < a->running)
			a->running = b->running;
		a->user_only = a->user_only || b->user_only;
		if (a->status == COUNTER_OK && b->status != COUNTER_OK) {
			a->status = b->status;
			snprintf(a->why, sizeof(a->why), "%s", b->why);
		} else if (a->status == COUNTER_OK && !a->why[0] && b->why[0]) {
			snprintf(a->why, sizeof(a->why), "%s", b->why);
		}
	}
}
