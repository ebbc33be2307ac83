/*
 * knee.c - find where a chase sweep's latency curve leaves each cache
 * level, and say whether that is where sysfs puts the level (the rule is
 * in knee.h).
 *
 * The one idea: everything is relative to one level's own plateau, found
 * from the low end of the latencies in a window of sizes well inside the
 * level, because on a shared machine noise only ever makes a chase slower.
 * A knee must then be a rise that holds, so one slow point is not a knee,
 * but a rise that eases off a little after it is.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/knee.h"
#include "util/row.h"
#include "util/value.h"

struct kpoint {
	uint64_t size;
	double ns;
};

static int cmp_point(const void *a, const void *b)
{
	const struct kpoint *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return (x->ns > y->ns) - (x->ns < y->ns);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n), n > 0; sorts v. */
static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The usable points, sorted by size, repeats at one size folded into their
 * median.  Returns how many are in *out (malloc'd, may be NULL when 0), or
 * -1 when out of memory.
 */
static int collapse(const uint64_t *sizes, const double *ns, unsigned n,
		    struct kpoint **out)
{
	struct kpoint *p;
	double *scratch;
	unsigned i, j, m = 0, k = 0;

	*out = NULL;
	if (!n)
		return 0;
	p = calloc(n, sizeof(*p));
	scratch = calloc(n, sizeof(*scratch));
	if (!p || !scratch) {
		free(p);
		free(scratch);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (sizes[i] && isfinite(ns[i]) && ns[i] > 0)
			p[m++] = (struct kpoint){ sizes[i], ns[i] };
	qsort(p, m, sizeof(*p), cmp_point);
	for (i = 0; i < m; i = j) {
		unsigned c = 0;

		for (j = i; j < m && p[j].size == p[i].size; j++)
			scratch[c++] = p[j].ns;
		p[k].size = p[i].size;
		p[k].ns = fig_sig(median(scratch, c), KNEE_NS_DIGITS);
		k++;
	}
	free(scratch);
	if (!k) {
		free(p);
		return 0;
	}
	*out = p;
	return (int)k;
}

/* Three significant digits, never an exponent: 2.37, 16.0, 142. */
static const char *fmt_ns(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f", v < 10 ? 2 : v < 100 ? 1 : 0, v);
	return buf;
}

/* [*lo, *hi): the points with a < size <= b. */
static void window(const struct kpoint *p, unsigned n, uint64_t a,
		   uint64_t b, unsigned *lo, unsigned *hi)
{
	unsigned i = 0;

	while (i < n && p[i].size <= a)
		i++;
	*lo = i;
	while (i < n && p[i].size <= b)
		i++;
	*hi = i;
}

/*
 * The plateau of the window [lo, hi) (non-empty): the median of its
 * points within KNEE_BAND of its lowest latency.  *first gets the first
 * such point, *lowest that latency.  scratch has room for hi - lo values.
 */
static double plateau(const struct kpoint *p, unsigned lo, unsigned hi,
		      double *scratch, unsigned *first, double *lowest)
{
	double low = p[lo].ns;
	unsigned i, c = 0;

	for (i = lo + 1; i < hi; i++)
		if (p[i].ns < low)
			low = p[i].ns;
	*lowest = low;
	*first = hi;
	for (i = lo; i < hi; i++) {
		if (p[i].ns > low * KNEE_BAND)
			continue;
		if (*first == hi)
			*first = i;
		scratch[c++] = p[i].ns;
	}
	return median(scratch, c);
}

/*
 * Whether the rise at point i holds (knee.h, rule 4): over i and the
 * KNEE_CONFIRM points after it (those measured), the median is above
 * rise and none is at or below hold.  scratch has room for the points.
 */
static bool rise_holds(const struct kpoint *p, unsigned n, unsigned i,
		       double rise, double hold, double *scratch)
{
	unsigned j, c = 0;

	for (j = i; j < n && j <= i + KNEE_CONFIRM; j++) {
		if (p[j].ns <= hold)
			return false;
		scratch[c++] = p[j].ns;
	}
	return median(scratch, c) > rise;
}

/* k->text from a format; a long sentence is cut at the buffer's end. */
__attribute__((format(printf, 2, 3)))
static void say(struct knee *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->text, sizeof(k->text), fmt, ap);
	va_end(ap);
}

static void no_data(struct knee *k, uint64_t prev)
{
	char a[32], b[32];

	k->status = KNEE_NO_DATA;
	if (!k->last_size)
		say(k, "no sizes measured");
	else if (!prev)
		say(k, "no size measured up to %s",
		    value_format_bytes(k->cache_size, a, sizeof(a)));
	else
		say(k, "no size measured between %s and %s",
		    value_format_bytes(prev, a, sizeof(a)),
		    value_format_bytes(k->cache_size, b, sizeof(b)));
}

/* The status and the sentence, once the numbers are in k. */
static void judge(struct knee *k)
{
	char s[32], e[32], x[32], l[32], p[32], a[32];
	uint64_t c = k->cache_size;

	value_format_bytes(c, s, sizeof(s));
	fmt_ns(k->plateau_ns, p, sizeof(p));
	value_format_bytes(k->last_size, l, sizeof(l));
	if (!k->knee_size) {
		value_format_bytes(c * 2, x, sizeof(x));
		if (k->last_size < c * 2) {
			k->status = KNEE_NO_DATA;
			say(k, "latency stays at %s ns up to %s, where the "
			    "sweep ends; it must go past %s to show this knee",
			    p, l, x);
		} else {
			k->status = KNEE_NONE;
			say(k, "no knee near %s: latency stays at %s ns up "
			    "to %s", s, p, l);
		}
		return;
	}
	value_format_bytes(k->knee_size, x, sizeof(x));
	value_format_bytes(k->plateau_end, e, sizeof(e));
	fmt_ns(k->after_ns, a, sizeof(a));
	if (k->knee_size * 2 >= c && k->knee_size <= c * 2) {
		k->status = KNEE_FOUND;
		say(k, "%s ns up to %s, %s ns at %s", p, e, a, x);
	} else {
		k->status = KNEE_FAR;
		say(k, "knee at %s, far from the %s the topology says (%s ns up to "
		    "%s, %s ns at %s)", x, s, p, e, a, x);
	}
}

/* One level of size c->size; prev is the smaller level's size (0 for the
 * first), prev_knee its knee (0 none). */
static void knee_one(const struct kpoint *p, unsigned n, double *scratch,
		     const struct topo_cache *c, uint64_t prev,
		     uint64_t prev_knee, struct knee *k)
{
	uint64_t from = prev;
	unsigned lo, hi, first, i;
	double low, rise, t, hold;

	memset(k, 0, sizeof(*k));
	k->level = c->level;
	k->type = c->type;
	k->cache_size = c->size;
	k->last_size = n ? p[n - 1].size : 0;

	if (prev_knee && prev_knee < from)
		from = prev_knee;
	window(p, n, from * 2, c->size / 2, &lo, &hi);
	if (lo == hi)
		window(p, n, prev, c->size, &lo, &hi);
	if (lo == hi) {
		no_data(k, prev);
		return;
	}
	k->plateau_ns = fig_sig(plateau(p, lo, hi, scratch, &first, &low),
				KNEE_NS_DIGITS);
	/* a plateau as spread as its median is above its lowest point
	 * needs a rise that much clearer (knee.h, rule 4) */
	rise = KNEE_RISE * k->plateau_ns / low;
	if (rise > KNEE_RISE_MAX)
		rise = KNEE_RISE_MAX;
	t = k->plateau_ns * rise;
	hold = k->plateau_ns * (1 + rise) / 2;
	for (i = first + 1; i < n; i++) {
		if (p[i].ns > t && rise_holds(p, n, i, t, hold, scratch)) {
			k->knee_size = p[i].size;
			k->plateau_end = p[i - 1].size;
			k->after_ns = p[i].ns;
			break;
		}
	}
	judge(k);
}

int knee_find(const uint64_t *sizes, const double *ns, unsigned n,
	      const struct topo_cache *const *levels, unsigned nlevels,
	      struct knee *out)
{
	struct kpoint *p;
	double *scratch = NULL;
	uint64_t prev = 0, prev_knee = 0;
	unsigned i, w = 0;
	int m;

	m = collapse(sizes, ns, n, &p);
	if (m < 0)
		return -1;
	if (m > 0) {
		scratch = calloc((size_t)m, sizeof(*scratch));
		if (!scratch) {
			free(p);
			return -1;
		}
	}
	for (i = 0; i < nlevels; i++) {
		const struct topo_cache *c = levels[i];

		if (!c || c->type == 'i' || !c->size)
			continue;
		knee_one(p, (unsigned)m, scratch, c, prev, prev_knee, &out[w]);
		prev = c->size;
		prev_knee = out[w].knee_size;
		w++;
	}
	free(scratch);
	free(p);
	return (int)w;
}

unsigned knee_levels(const struct topo *t, unsigned cpu,
		     const struct topo_cache **out, unsigned max)
{
	unsigned level, n = 0;

	for (level = 1; level <= TOPO_MAX_CACHES && n < max; level++) {
		const struct topo_cache *c = topo_cache(t, cpu, level, 'd');

		if (c && c->size)
			out[n++] = c;
	}
	return n;
}

void knee_print(FILE *f, const struct knee *k, unsigned n)
{
	unsigned i;

	fprintf(f, "  %-5s %10s %10s %10s\n", "cache", "size", "plateau",
		"knee");
	for (i = 0; i < n; i++) {
		struct topo_cache c = { .level = k[i].level, .type = k[i].type };
		char name[16], s[32], p[32] = "-", x[32] = "-";

		topo_cache_name(&c, name, sizeof(name));
		value_format_bytes(k[i].cache_size, s, sizeof(s));
		if (k[i].plateau_ns > 0) {
			fmt_ns(k[i].plateau_ns, p, sizeof(p));
			strcat(p, " ns");
		}
		if (k[i].knee_size)
			value_format_bytes(k[i].knee_size, x, sizeof(x));
		fprintf(f, "  %-5s %10s %10s %10s  %s\n", name, s, p, x,
			k[i].text);
	}
}

static void size_or_absent(struct row_emitter *e, const char *name,
			   uint64_t v)
{
	if (v)
		row_u64(e, name, v);
	else
		row_absent(e, name);
}

static void ns_or_absent(struct row_emitter *e, const char *name, double v)
{
	if (v > 0)
		row_sig(e, name, v, KNEE_NS_DIGITS);
	else
		row_absent(e, name);
}

void knee_cells(struct row_emitter *e, const struct knee *k)
{
	static const char *const status[] = {
		[KNEE_FOUND] = "found", [KNEE_FAR] = "far",
		[KNEE_NONE] = "none", [KNEE_NO_DATA] = "no_data",
	};
	struct topo_cache c = { .level = k->level, .type = k->type };
	char name[16];

	row_str(e, "cache", topo_cache_name(&c, name, sizeof(name)));
	row_u64(e, "level", k->level);
	row_str(e, "type", k->type == 'u' ? "unified" : "data");
	size_or_absent(e, "cache_size", k->cache_size);
	ns_or_absent(e, "plateau_ns", k->plateau_ns);
	size_or_absent(e, "plateau_end", k->plateau_end);
	size_or_absent(e, "knee_size", k->knee_size);
	ns_or_absent(e, "after_ns", k->after_ns);
	size_or_absent(e, "last_size", k->last_size);
	row_str(e, "status", status[k->status]);
	row_str(e, "finding", k->text);
}
