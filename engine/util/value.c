/*
 * value.c - pure parsers and formatters for option values (see value.h).
 *
 * The one idea: a value is either taken exactly or refused with a reason.
 * "1.5k" is 1536 bytes, but "0.3" is refused rather than rounded, and a
 * number that does not fit in 64 bits is "too large", never wrapped.  The
 * arithmetic runs in 128 bits so that overflow is a comparison, not a
 * guess.
 *
 * Error messages complete the sentence "option 'x': ..." and quote what
 * was given.  Because they quote the input they are built at run time, in
 * a small per-thread buffer: *why stays valid until the next value_* call
 * on the same thread, which is long enough for the caller to print it.
 */
#include "util/value.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WHY_LEN		256
#define ECHO_LEN	64	/* at most this much of the input is quoted */
#define FRAC_DIGITS	19	/* 10^19 still fits in a uint64_t */

typedef unsigned __int128 u128;

static __thread char why_buf[WHY_LEN];

/* Format a message into the per-thread buffer; always returns -1. */
__attribute__((format(printf, 2, 3)))
static int fail(const char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why_buf, sizeof(why_buf), fmt, ap);
	va_end(ap);
	if (why)
		*why = why_buf;
	return -1;
}

/* The input as it will be quoted in a message: cut short if very long. */
static const char *echo(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n < ECHO_LEN || len < ECHO_LEN + 4) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	snprintf(buf, len, "%.*s...", ECHO_LEN - 3, s);
	return buf;
}

/*
 * A number as written: whole part, and a decimal fraction kept as
 * frac / frac_den with trailing zeros removed.  Hex ("0x1f") has no
 * fraction.  Digits beyond 64 bits set too_big instead of wrapping, so
 * that a bad suffix is still reported as the syntax error it is.
 */
struct number {
	uint64_t whole;
	uint64_t frac;
	uint64_t frac_den;
	bool too_big;
	bool too_precise;
};

static int digit_value(int c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (base == 16 && c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (base == 16 && c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v;
}

/* Digits in base into n->whole; returns how many were consumed. */
static size_t scan_digits(const char *s, unsigned base, struct number *n)
{
	size_t i;
	int v;

	for (i = 0; (v = digit_value((unsigned char)s[i], base)) >= 0; i++) {
		if (n->whole > (UINT64_MAX - (unsigned)v) / base)
			n->too_big = true;
		else
			n->whole = n->whole * base + (unsigned)v;
	}
	return i;
}

/* The decimal fraction after '.', as frac / frac_den. */
static size_t scan_fraction(const char *s, struct number *n)
{
	size_t len, sig, i;

	for (len = 0; isdigit((unsigned char)s[len]); len++)
		;
	for (sig = len; sig > 0 && s[sig - 1] == '0'; sig--)
		;
	if (sig > FRAC_DIGITS) {
		n->too_precise = true;
		return len;
	}
	for (i = 0; i < sig; i++) {
		n->frac = n->frac * 10 + (uint64_t)(s[i] - '0');
		n->frac_den *= 10;
	}
	return len;
}

/*
 * Parse the number at the start of s; *end is where the suffix starts.
 * Returns -1 if s does not start with a number.
 */
static int scan_number(const char *s, bool allow_fraction,
		       struct number *n, const char **end)
{
	size_t len;

	memset(n, 0, sizeof(*n));
	n->frac_den = 1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		len = scan_digits(s + 2, 16, n);
		if (!len)
			return -1;
		*end = s + 2 + len;
		return 0;
	}
	len = scan_digits(s, 10, n);
	if (!len)
		return -1;
	s += len;
	if (*s == '.' && allow_fraction) {
		len = scan_fraction(s + 1, n);
		if (!len)
			return -1;
		s += 1 + len;
	}
	*end = s;
	return 0;
}

/* Outcome of scaling a number by a unit. */
enum scaled { SCALED_OK, SCALED_TOO_BIG, SCALED_NOT_WHOLE, SCALED_PRECISE };

static enum scaled scale(const struct number *n, uint64_t mult, uint64_t *out)
{
	u128 total, part;

	if (n->too_precise)
		return SCALED_PRECISE;
	if (n->too_big)
		return SCALED_TOO_BIG;
	part = (u128)n->frac * mult;
	if (part % n->frac_den)
		return SCALED_NOT_WHOLE;
	total = (u128)n->whole * mult + part / n->frac_den;
	if (total > UINT64_MAX)
		return SCALED_TOO_BIG;
	*out = (uint64_t)total;
	return SCALED_OK;
}

/* k, m, g, t, p, e with an optional "i", "b" or "ib"; "b" alone. */
static int size_suffix(const char *s, uint64_t *mult)
{
	static const char prefixes[] = "kmgtpe";
	const char *p;

	if (!*s || !strcasecmp(s, "b")) {
		*mult = 1;
		return 0;
	}
	p = strchr(prefixes, tolower((unsigned char)*s));
	if (!p)
		return -1;
	s++;
	if (*s && strcasecmp(s, "b") && strcasecmp(s, "i") &&
	    strcasecmp(s, "ib"))
		return -1;
	*mult = 1ULL << (10 * (p - prefixes + 1));
	return 0;
}

/*
 * A size and a time are parsed alike (a number, maybe with a fraction,
 * times the unit its suffix names); they differ in their suffixes and in
 * the words of their messages.
 */
struct scaled_kind {
	const char *expect;		/* "expected a size such as ..." */
	const char *noun;		/* "a size cannot be negative" */
	const char *unit;		/* "not a whole number of bytes" */
	bool say_max;			/* "too large ... (at most N bytes)" */
	int (*suffix)(const char *s, uint64_t *mult);
};

static int value_scaled(const char *s, uint64_t *out, const char **why,
			const struct scaled_kind *k)
{
	char e[ECHO_LEN + 4];
	struct number n;
	const char *end;
	uint64_t mult, v;

	if (!s || !*s)
		return fail(why, "%s, got an empty value", k->expect);
	if (*s == '-')
		return fail(why, "a %s cannot be negative, got '%s'", k->noun,
			    echo(s, e, sizeof(e)));
	if (scan_number(s, true, &n, &end) || k->suffix(end, &mult))
		return fail(why, "%s, got '%s'", k->expect,
			    echo(s, e, sizeof(e)));
	switch (scale(&n, mult, &v)) {
	case SCALED_TOO_BIG:
		if (k->say_max)
			return fail(why, "'%s' is too large for a %s (at most %llu %s)",
				    echo(s, e, sizeof(e)), k->noun,
				    (unsigned long long)UINT64_MAX, k->unit);
		return fail(why, "'%s' is too large for a %s",
			    echo(s, e, sizeof(e)), k->noun);
	case SCALED_NOT_WHOLE:
		return fail(why, "'%s' is not a whole number of %s",
			    echo(s, e, sizeof(e)), k->unit);
	case SCALED_PRECISE:
		return fail(why, "'%s' has too many decimal places",
			    echo(s, e, sizeof(e)));
	case SCALED_OK:
		break;
	}
	*out = v;
	return 0;
}

int value_size(const char *s, uint64_t *out, const char **why)
{
	static const struct scaled_kind size = {
		.expect = "expected a size such as 4096, 4k, 16m, 1g (suffixes are powers of 2)",
		.noun = "size",
		.unit = "bytes",
		.say_max = true,
		.suffix = size_suffix,
	};

	return value_scaled(s, out, why, &size);
}

struct time_unit {
	const char *name;
	uint64_t us;
};

static const struct time_unit time_units[] = {
	{ "us", 1 }, { "usec", 1 },
	{ "ms", 1000 }, { "msec", 1000 },
	{ "", 1000000 }, { "s", 1000000 }, { "sec", 1000000 },
	{ "m", 60000000ULL }, { "min", 60000000ULL },
	{ "h", 3600000000ULL },
	{ "d", 86400000000ULL },
};

static int time_suffix(const char *s, uint64_t *mult)
{
	size_t i;

	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		if (!strcasecmp(s, time_units[i].name)) {
			*mult = time_units[i].us;
			return 0;
		}
	}
	return -1;
}

int value_time_us(const char *s, uint64_t *out, const char **why)
{
	static const struct scaled_kind time = {
		.expect = "expected a time such as 500us, 10ms, 30s, 2m or 1h (a bare number is seconds)",
		.noun = "time",
		.unit = "microseconds",
		.suffix = time_suffix,
	};

	return value_scaled(s, out, why, &time);
}

/* Decimal or 0x hex, nothing else; shared by value_uint and value_int. */
static int whole_number(const char *s, struct number *n)
{
	const char *end;

	if (scan_number(s, false, n, &end) || *end)
		return -1;
	return 0;
}

int value_uint(const char *s, uint64_t *out, const char **why)
{
	static const char expect[] = "expected a whole number such as 8 or 0x10";
	char e[ECHO_LEN + 4];
	struct number n;

	if (!s || !*s)
		return fail(why, "%s, got an empty value", expect);
	if (*s == '-')
		return fail(why, "expected a number that is not negative, got '%s'",
			    echo(s, e, sizeof(e)));
	if (whole_number(s, &n))
		return fail(why, "%s, got '%s'", expect, echo(s, e, sizeof(e)));
	if (n.too_big)
		return fail(why, "'%s' is too large (at most %llu)",
			    echo(s, e, sizeof(e)), (unsigned long long)UINT64_MAX);
	*out = n.whole;
	return 0;
}

int value_int(const char *s, int64_t *out, const char **why)
{
	static const char expect[] = "expected a whole number such as -3, 8 or 0x10";
	char e[ECHO_LEN + 4];
	struct number n;
	bool neg = false;
	const char *p = s;

	if (!s || !*s)
		return fail(why, "%s, got an empty value", expect);
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (whole_number(p, &n))
		return fail(why, "%s, got '%s'", expect, echo(s, e, sizeof(e)));
	if (n.too_big || n.whole > (uint64_t)INT64_MAX + neg)
		return fail(why, "'%s' is out of range (%lld to %lld)",
			    echo(s, e, sizeof(e)), (long long)INT64_MIN,
			    (long long)INT64_MAX);
	if (neg)
		*out = n.whole ? -(int64_t)(n.whole - 1) - 1 : 0;
	else
		*out = (int64_t)n.whole;
	return 0;
}

int value_bool(const char *s, bool *out, const char **why)
{
	static const char *const yes[] = { "1", "true", "yes", "on", NULL };
	static const char *const no[] = { "0", "false", "no", "off", NULL };
	char e[ECHO_LEN + 4];
	size_t i;

	for (i = 0; s && yes[i]; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return fail(why, "expected 1/0, true/false, yes/no or on/off, got '%s'",
		    s ? echo(s, e, sizeof(e)) : "");
}

int value_word(const char *s, const char *const *words)
{
	int i;

	if (!s || !words)
		return -1;
	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

/* ---- id lists: "0,2,4-7", "0-15:2" ---- */

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal id; too_big is set when it does not fit in 64 bits. */
static int scan_id(const char **s, uint64_t *id, bool *too_big)
{
	struct number n;
	size_t len;

	memset(&n, 0, sizeof(n));
	len = scan_digits(*s, 10, &n);
	if (!len)
		return -1;
	*id = n.whole;
	*too_big = n.too_big;
	*s += len;
	return 0;
}

struct id_item {
	uint64_t first, last, step;
	bool too_big;
};

/* One "N", "N-M" or "N-M:S" between commas, with the blanks trimmed. */
static int scan_item(const char *s, const char *end, struct id_item *it)
{
	bool big = false;

	it->step = 1;
	it->too_big = false;
	if (scan_id(&s, &it->first, &big))
		return -1;
	it->too_big |= big;
	it->last = it->first;
	if (s < end && *s == '-') {
		s++;
		if (scan_id(&s, &it->last, &big))
			return -1;
		it->too_big |= big;
		if (s < end && *s == ':') {
			s++;
			if (scan_id(&s, &it->step, &big))
				return -1;
			it->too_big |= big;
		}
	}
	return s == end ? 0 : -1;
}

/* Check one item; set its bits when apply is true. */
static int idlist_item(const char *s, size_t len, const char *list,
		       uint64_t *bits, unsigned nbits, bool apply,
		       const char **why)
{
	char e[ECHO_LEN + 4], item[ECHO_LEN + 4];
	struct id_item it;
	uint64_t id;

	snprintf(item, sizeof(item), "%.*s", (int)(len < ECHO_LEN ? len : ECHO_LEN), s);
	if (!len)
		return fail(why, "empty item in the list '%s'",
			    echo(list, e, sizeof(e)));
	if (scan_item(s, s + len, &it))
		return fail(why, "'%s' in '%s' is not an id or a range such as 4-7 or 0-15:2",
			    item, echo(list, e, sizeof(e)));
	if (it.too_big || it.first >= nbits || it.last >= nbits) {
		if (!it.too_big)
			return fail(why, "id %llu is beyond the limit of %u",
				    (unsigned long long)(it.first >= nbits ?
							 it.first : it.last),
				    nbits);
		return fail(why, "'%s' names an id beyond the limit of %u",
			    item, nbits);
	}
	if (it.first > it.last)
		return fail(why, "range %llu-%llu is reversed (did you mean %llu-%llu?)",
			    (unsigned long long)it.first, (unsigned long long)it.last,
			    (unsigned long long)it.last, (unsigned long long)it.first);
	if (!it.step)
		return fail(why, "the step in '%s' must be at least 1", item);
	for (id = it.first; apply && id <= it.last; id += it.step)
		bits[id / 64] |= 1ULL << (id % 64);
	return 0;
}

/* Walk the comma-separated items; apply = false only checks them. */
static int idlist_walk(const char *s, uint64_t *bits, unsigned nbits,
		       bool apply, const char **why)
{
	const char *p = s, *comma, *b, *e;

	for (;;) {
		comma = strchr(p, ',');
		b = skip_blank(p);
		e = comma ? comma : p + strlen(p);
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (idlist_item(b, (size_t)(e - b), s, bits, nbits, apply, why))
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int value_idlist(const char *s, uint64_t *bits, unsigned nbits, const char **why)
{
	if (!s || !*skip_blank(s))
		return fail(why, "expected a list such as 0,2,4-7 or 0-15:2, got an empty value");
	/* Check everything first, so that a bad list leaves bits untouched. */
	if (idlist_walk(s, bits, nbits, false, why))
		return -1;
	return idlist_walk(s, bits, nbits, true, why);
}

/* ---- formatting ---- */

void value_format_size(uint64_t v, char *buf, size_t len)
{
	static const char suffixes[] = "kmgtpe";
	int i;

	if (!len)
		return;
	for (i = 5; i >= 0 && v; i--) {
		unsigned shift = 10 * (unsigned)(i + 1);

		if (!(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> shift), suffixes[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

const char *value_format_bytes(double v, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	char *p;

	if (!len)
		return buf;
	/* Dividing by 1024 is exact in a double: a whole number of bytes
	 * gives the same digits as integer arithmetic would. */
	while (u + 1 < sizeof(units) / sizeof(units[0]) && v >= 1024) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.2f", v);
	p = buf + strlen(buf);
	while (p > buf && p[-1] == '0')
		*--p = '\0';
	if (p > buf && p[-1] == '.')
		*--p = '\0';
	snprintf(p, len - (size_t)(p - buf), " %s", units[u]);
	return buf;
}

void value_format_time(uint64_t us, char *buf, size_t len)
{
	static const struct time_unit units[] = {
		{ "h", 3600000000ULL }, { "m", 60000000ULL },
		{ "s", 1000000 }, { "ms", 1000 },
	};
	size_t i;

	if (!len)
		return;
	if (!us) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (us % units[i].us == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(us / units[i].us),
				 units[i].name);
			return;
		}
	}
	snprintf(buf, len, "%lluus", (unsigned long long)us);
}

static bool bit_set(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

void value_format_idlist(const uint64_t *bits, unsigned nbits, char *buf,
			 size_t len)
{
	size_t used = 0;
	unsigned i = 0, first;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	while (i < nbits) {
		if (!bit_set(bits, i)) {
			i++;
			continue;
		}
		first = i;
		while (i + 1 < nbits && bit_set(bits, i + 1))
			i++;
		if (first == i)
			n = snprintf(buf + used, len - used, "%s%u",
				     used ? "," : "", first);
		else
			n = snprintf(buf + used, len - used, "%s%u-%u",
				     used ? "," : "", first, i);
		if (n < 0 || (size_t)n >= len - used)
			return;		/* truncated, but terminated */
		used += (size_t)n;
		i++;
	}
}

/* ---- did you mean ---- */

#define DIST_STACK	64

unsigned value_distance(const char *a, const char *b)
{
	/* three rows: i-2 (for a swap of neighbours), i-1 and i */
	unsigned stack_rows[3 * (DIST_STACK + 1)], *rows = stack_rows;
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned best;

	if (lb > DIST_STACK) {
		rows = malloc(3 * (lb + 1) * sizeof(*rows));
		if (!rows)	/* an upper bound is good enough for a hint */
			return (unsigned)(la > lb ? la : lb);
	}
	for (j = 0; j <= lb; j++)
		rows[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		unsigned *prev2 = rows + ((i + 1) % 3) * (lb + 1);
		unsigned *prev = rows + ((i + 2) % 3) * (lb + 1);
		unsigned *cur = rows + (i % 3) * (lb + 1);

		cur[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			best = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	best = rows[(la % 3) * (lb + 1) + lb];
	if (rows != stack_rows)
		free(rows);
	return best;
}

void value_near_init(struct value_near *n, const char *want)
{
	n->want = want;
	n->best = NULL;
	n->dist = ~0u;
}

/* How much longer or shorter than want a candidate is. */
static size_t len_gap(const char *want, const char *s)
{
	size_t a = strlen(want), b = strlen(s);

	return a > b ? a - b : b - a;
}

void value_near_offer(struct value_near *n, const char *candidate)
{
	unsigned d = value_distance(n->want, candidate);

	if (d < n->dist || (d == n->dist && n->best &&
			    len_gap(n->want, candidate) <
			    len_gap(n->want, n->best))) {
		n->dist = d;
		n->best = candidate;
	}
}

const char *value_near_best(const struct value_near *n)
{
	size_t len;

	if (!n->best)
		return NULL;
	len = strlen(n->want) > strlen(n->best) ? strlen(n->want)
						 : strlen(n->best);
	/* near: one edit, or at most a third of the longer name's letters
	 * ("randrepeat" is not near "repeat": 4 edits in 10) */
	return n->dist <= 1 || 3 * n->dist <= len ? n->best : NULL;
}

const char *value_nearest_word(const char *want, const char *const *words)
{
	struct value_near n;

	value_near_init(&n, want);
	for (size_t i = 0; words[i]; i++)
		value_near_offer(&n, words[i]);
	return value_near_best(&n);
}
