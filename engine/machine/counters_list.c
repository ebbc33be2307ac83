/*
 * counters_list.c - event lists and counted values, without the kernel.
 *
 * Parsing perf_events= (perf's names and aliases, with "did you mean",
 * the vendors' names through pmu.h, and the event sets of evsets.h), its
 * canonical text, the default set, and what is done with values once
 * read: the figures derived from pairs of events and the sum over
 * clones.  But for the named events it adds (counters_named.c), pure
 * functions: the unit tests call them on made-up values.
 */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "machine/counters.h"
#include "machine/evsets.h"
#include "machine/pmu.h"
#include "util/row.h"
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

/* The generic name nearest to an unknown word, or NULL if none is close. */
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

/* A generic name with perf's modifiers ("cycles:u"), refused. */
static bool generic_with_modifier(const char *word)
{
	char head[64];
	size_t n = strcspn(word, ":");

	if (!word[n] || n >= sizeof(head))
		return false;
	snprintf(head, sizeof(head), "%.*s", (int)n, word);
	return lookup(head) >= 0;
}

/* Two ids that count the same thing: one id, or the same encoding. */
static bool same_event(unsigned a, unsigned b)
{
	const struct pmu_event *x = counters_named(a), *y = counters_named(b);

	if (a == b)
		return true;
	return x && y && x->present && y->present && x->type == y->type &&
	       x->config == y->config && x->config1 == y->config1 &&
	       x->config2 == y->config2 &&
	       x->exclude_user == y->exclude_user &&
	       x->exclude_kernel == y->exclude_kernel;
}

/* word as an event id: a generic name, else a named event (pmu.h). */
static int resolve(const char *word, unsigned *id, char *err, size_t errlen)
{
	struct pmu_event ev;
	bool unknown;
	const char *near;
	int g = lookup(word);

	if (g >= 0) {
		*id = (unsigned)g;
		return 0;
	}
	if (generic_with_modifier(word)) {
		snprintf(err, errlen, "event '%s': modifiers such as ':u' are "
			 "not supported on perf's generic names (events count "
			 "user and kernel space)", word);
		return -1;
	}
	if (pmu_event_encode(word, &ev, &unknown, err, errlen) < 0) {
		near = unknown ? nearest(word) : NULL;
		if (near)
			snprintf(err, errlen, "unknown event '%s' (did you "
				 "mean '%s'?)", word, near);
		return -1;
	}
	g = counters_named_add(word, &ev);
	if (g < 0) {
		snprintf(err, errlen, "event '%s': more than %u events by "
			 "the vendors' names in one run", word, CTR_NAMED_MAX);
		return -1;
	}
	*id = (unsigned)g;
	return 0;
}

/* Add id (written word) to out, refusing a second of the same event. */
static int add(struct counter_list *out, unsigned id, const char *word,
	       char *err, size_t errlen)
{
	for (unsigned i = 0; i < out->n; i++) {
		if (!same_event(out->ids[i], id))
			continue;
		if (i < out->nset)
			snprintf(err, errlen, "event '%s' is in @%s already",
				 word, evsets_name(out->set));
		else if (strcasecmp(word, counters_name(out->ids[i])))
			snprintf(err, errlen, "event '%s' is '%s', which is "
				 "listed already", word,
				 counters_name(out->ids[i]));
		else
			snprintf(err, errlen, "event '%s' is listed twice",
				 counters_name(id));
		return -1;
	}
	if (out->n == COUNTERS_MAX) {
		snprintf(err, errlen, "more than %u events", COUNTERS_MAX);
		return -1;
	}
	out->ids[out->n++] = id;
	return 0;
}

/*
 * The events of row of set into ids.  A named event that does not
 * resolve here (a libpfm4 without it, another PMU's event where
 * LIBPFM_FORCE_PMU hides that PMU) is kept as one not counted, with why;
 * -1 (err says why) when a generic one fails, or every named one does.
 */
static int set_row(int set, int row, unsigned *ids, unsigned *n, char *err,
		   size_t errlen)
{
	const char *p = evsets_get(set, row)->events;
	unsigned named = 0, failed = 0;
	char word[128];

	*n = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		struct pmu_event ev;
		int id;

		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		p += len + (p[len] == ',');
		named += lookup(word) < 0;
		if (!resolve(word, &ids[*n], err, errlen)) {
			(*n)++;
			continue;
		}
		if (lookup(word) >= 0)
			return -1;
		failed++;
		memset(&ev, 0, sizeof(ev));
		snprintf(ev.why, sizeof(ev.why), "%s", err);
		id = counters_named_add(word, &ev);
		if (id < 0)
			return -1;
		ids[(*n)++] = (unsigned)id;
	}
	return named && failed == named ? -1 : 0;
}

/* "@name": this machine's row of the set, first in out; a row whose
 * named events do not encode here gives way to the generic row. */
static int add_set(struct counter_list *out, const char *word, char *err,
		   size_t errlen)
{
	unsigned ids[COUNTERS_MAX], n = 0;
	char names[128], why[256];
	const char *near;
	int set = evsets_find(word + 1);

	if (out->has_set) {
		snprintf(err, errlen, "one event set a list: '@%s' and '%s'",
			 evsets_name(out->set), word);
		return -1;
	}
	if (set < 0) {
		evsets_names(names, sizeof(names));
		near = evsets_nearest(word + 1);
		snprintf(err, errlen, "unknown event set '%s' (%s%s%sthe "
			 "sets: %s)", word, near ? "did you mean '@" : "",
			 near ? near : "", near ? "'?; " : "", names);
		return -1;
	}
	out->has_set = true;
	out->set = set;
	out->row = evsets_row(set, pmu_core());
	if (set_row(set, out->row, ids, &n, why, sizeof(why))) {
		out->row = evsets_generic(set);
		if (set_row(set, out->row, ids, &n, err, errlen))
			return -1;
	}
	if (out->n + n > COUNTERS_MAX) {
		snprintf(err, errlen, "more than %u events", COUNTERS_MAX);
		return -1;
	}
	/* the set's events go first, before those listed so far */
	memmove(out->ids + n, out->ids, out->n * sizeof(*out->ids));
	memcpy(out->ids, ids, n * sizeof(*ids));
	out->n += n;
	out->nset = n;
	for (unsigned i = n; i < out->n; i++)
		for (unsigned k = 0; k < n; k++)
			if (same_event(out->ids[i], out->ids[k])) {
				snprintf(err, errlen, "event '%s' is in %s "
					 "already", counters_name(out->ids[i]),
					 word);
				return -1;
			}
	return 0;
}

int counters_parse(const char *list, struct counter_list *out, char *err,
		   size_t errlen)
{
	const char *p = list;
	char word[128];

	memset(out, 0, sizeof(*out));
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		unsigned id;

		while (len && isspace((unsigned char)*p))
			p++, len--;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (!len && !out->n && !out->has_set && !end) {
			snprintf(err, errlen, "no event given");
			return -1;
		}
		if (!len) {
			snprintf(err, errlen, "an empty event name in '%s'",
				 list);
			return -1;
		}
		if (len >= sizeof(word)) {
			snprintf(err, errlen, "an event name of %zu "
				 "characters in '%s'", len, list);
			return -1;
		}
		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		if (!strcasecmp(word, "none")) {
			if (!out->n && !out->has_set && !end)
				return 0;
			snprintf(err, errlen, "'none' turns every counter off "
				 "and stands alone, not in a list ('%s')",
				 list);
			return -1;
		}
		if (word[0] == '@') {
			if (add_set(out, word, err, errlen))
				return -1;
		} else if (resolve(word, &id, err, errlen) ||
			   add(out, id, word, err, errlen)) {
			return -1;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

void counters_format(const struct counter_list *l, char *buf, size_t len)
{
	size_t used = 0;
	int w;

	if (len)
		buf[0] = '\0';
	if (l->has_set) {
		w = snprintf(buf, len, "@%s", evsets_name(l->set));
		if (w < 0)
			return;
		used = (size_t)w;
	}
	for (unsigned i = l->has_set ? l->nset : 0; i < l->n && used < len;
	     i++) {
		w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
			     counters_name(l->ids[i]));
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

const struct counter_value *counters_value(const struct counter_value *v,
					   unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].name && !strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static const struct counter_value *find(const struct counter_value *v,
					unsigned n, unsigned id)
{
	return counters_value(v, n, counters_name(id));
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
		values[got++] = fig_sig((double)a->value / (double)b->value,
					COUNTERS_DERIVED_DIGITS);
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
