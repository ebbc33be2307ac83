/*
 * sizeexpr.c - evaluate sizes such as "llc/2", "2*l2" and "12.5%ram"
 * (the grammar is in sizeexpr.h).
 *
 * The one idea: a relative size is a base (a cache of the job's CPU, or
 * MemTotal) scaled by one exact decimal factor.  The factor is kept as a
 * fraction num/den and the product is taken in 128 bits, so "llc*1.5" is
 * exact and only the final division rounds (down, to whole bytes).
 */
#include "machine/sizeexpr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/value.h"

#define FRAC_DIGITS	17	/* den * 100 stays below 2^64 */

typedef unsigned __int128 u128;

/* A decimal number as num / den, den a power of ten. */
struct factor {
	uint64_t num;
	uint64_t den;
};

/* A span of the expression, blanks trimmed. */
struct span {
	const char *s;
	size_t len;
};

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, const char *expr, const char *fmt,
		...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "'%s': %s", expr, reason);
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static struct span trim(const char *s, size_t len)
{
	struct span sp = { s, len };

	while (sp.len && is_blank(sp.s[0])) {
		sp.s++;
		sp.len--;
	}
	while (sp.len && is_blank(sp.s[sp.len - 1]))
		sp.len--;
	return sp;
}

static bool span_is(struct span sp, const char *word)
{
	return strlen(word) == sp.len && !strncasecmp(sp.s, word, sp.len);
}

static bool starts_number(struct span sp)
{
	return sp.len && (isdigit((unsigned char)sp.s[0]) || sp.s[0] == '.');
}

/* "2", "1.5", ".25": digits with an optional fraction, nothing else. */
static int scan_factor(struct span sp, struct factor *f)
{
	size_t i = 0, whole = 0, frac = 0;

	f->num = 0;
	f->den = 1;
	for (; i < sp.len && isdigit((unsigned char)sp.s[i]); i++, whole++) {
		if (f->num > (UINT64_MAX - 9) / 10)
			return -1;
		f->num = f->num * 10 + (uint64_t)(sp.s[i] - '0');
	}
	if (i < sp.len && sp.s[i] == '.') {
		for (i++; i < sp.len && isdigit((unsigned char)sp.s[i]);
		     i++, frac++) {
			if (frac >= FRAC_DIGITS ||
			    f->num > (UINT64_MAX - 9) / 10)
				return -1;
			f->num = f->num * 10 + (uint64_t)(sp.s[i] - '0');
			f->den *= 10;
		}
	}
	return i == sp.len && whole + frac ? 0 : -1;
}

static int bad_factor(char *err, size_t errlen, const char *expr,
		      struct span sp)
{
	if (!sp.len)
		return fail(err, errlen, expr, "a number is missing");
	return fail(err, errlen, expr, "'%.*s' is not a number such as 2 or "
		    "1.5", (int)sp.len, sp.s);
}

/* The caches CPU cpu has, as "L1d, L1i, L2", for "has no L3". */
static void list_caches(const struct topo *t, unsigned cpu, char *buf,
			size_t len)
{
	const struct topo_cpu *p = &t->cpus[cpu];
	size_t used = 0;
	char name[16];
	unsigned i;
	int n;

	buf[0] = '\0';
	for (i = 0; i < p->ncaches && used < len; i++) {
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			     topo_cache_name(&p->caches[i], name, sizeof(name)));
		if (n < 0)
			return;
		used += (size_t)n;
	}
}

static int unknown_name(char *err, size_t errlen, const char *expr,
			struct span sp)
{
	static const char *const names[] = { "l1d", "l1i", "l2", "l3", "llc" };
	char word[64], hint[64] = "";
	unsigned best = ~0U, d;
	size_t i, pick = 0;

	snprintf(word, sizeof(word), "%.*s", (int)sp.len, sp.s);
	for (i = 0; word[i]; i++)
		word[i] = (char)tolower((unsigned char)word[i]);
	if (!strcmp(word, "l1"))
		return fail(err, errlen, expr, "'l1' could be either level-1 "
			    "cache: write l1d (data) or l1i (instruction)");
	if (!strcmp(word, "ram"))
		return fail(err, errlen, expr, "RAM is given as a percentage, "
			    "as in 50%%ram");
	/* Ties go to a name the word starts with: l2d is l2, not l1d. */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		d = 2 * value_distance(word, names[i]);
		if (!strncmp(word, names[i], strlen(names[i])))
			d--;
		if (d < best) {
			best = d;
			pick = i;
		}
	}
	if (best <= 2 || (best <= 4 && strlen(word) > 3))
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)",
			 names[pick]);
	return fail(err, errlen, expr, "unknown cache '%s'%s; expected l1d, "
		    "l1i, l2, l3, llc or N%%ram", word, hint);
}

/* The size of the cache named by sp, of CPU cpu. */
static int cache_size(struct span sp, const char *expr, const struct topo *t,
		      unsigned cpu, uint64_t *size, char *err, size_t errlen)
{
	const struct topo_cache *c;
	unsigned level = 0;
	char name[16], have[128];

	if (span_is(sp, "l1d") || span_is(sp, "l1i"))
		level = 1;
	else if (sp.len == 2 && tolower((unsigned char)sp.s[0]) == 'l' &&
		 sp.s[1] >= '2' && sp.s[1] <= '9')
		level = (unsigned)(sp.s[1] - '0');
	else if (!span_is(sp, "llc"))
		return unknown_name(err, errlen, expr, sp);
	if (!t)
		return fail(err, errlen, expr, "cache sizes need the machine's "
			    "topology, which could not be read");
	if (!topo_has_cpu(t, cpu))
		return fail(err, errlen, expr, "CPU %u does not exist", cpu);
	if (!level)
		c = topo_llc(t, cpu);
	else
		c = topo_cache(t, cpu, level,
			       level == 1 ? (char)tolower((unsigned char)sp.s[2])
					  : 'd');
	if (!c && !topo_any_cache(t)) {
		snprintf(name, sizeof(name), "%.*s", (int)sp.len, sp.s);
		return fail(err, errlen, expr, "the size of %s is unknown: %s",
			    name, TOPO_NO_CACHE_HINT);
	}
	if (!c) {
		list_caches(t, cpu, have, sizeof(have));
		if (!level)
			return fail(err, errlen, expr, "no cache of CPU %u is "
				    "known", cpu);
		if (level == 1)
			snprintf(name, sizeof(name), "L1%c",
				 tolower((unsigned char)sp.s[2]));
		else
			snprintf(name, sizeof(name), "L%u", level);
		return fail(err, errlen, expr, "CPU %u has no %s cache (%s%s)",
			    cpu, name, have[0] ? "it has " : "none is known",
			    have);
	}
	if (!c->size)
		return fail(err, errlen, expr, "the size of CPU %u's %s is "
			    "unknown (%s gives none); give the size in bytes, "
			    "or describe the machine with --topology-file",
			    cpu, topo_cache_name(c, name, sizeof(name)),
			    c->source);
	*size = c->size;
	return 0;
}

/* base * num / den, rounded down; 0 and overflow are errors. */
static int scaled(uint64_t base, u128 num, u128 den, const char *expr,
		  uint64_t *out, char *err, size_t errlen)
{
	u128 v;

	if (!den)
		return fail(err, errlen, expr, "division by zero");
	/* base < 2^64 and num < 2^64: the product fits in 128 bits. */
	v = (u128)base * num / den;
	if (v > UINT64_MAX)
		return fail(err, errlen, expr, "too large for a size (at most "
			    "%llu bytes)", (unsigned long long)UINT64_MAX);
	if (!v)
		return fail(err, errlen, expr, "comes to less than one byte");
	*out = (uint64_t)v;
	return 0;
}

static int eval_ram(struct span lhs, struct span rhs, const char *expr,
		    const struct topo *t, uint64_t *out, char *err,
		    size_t errlen)
{
	struct factor f;

	if (!span_is(rhs, "ram"))
		return fail(err, errlen, expr, "a percentage is written as "
			    "N%%ram, as in 10%%ram");
	if (scan_factor(lhs, &f))
		return bad_factor(err, errlen, expr, lhs);
	if (!t || !t->ram)
		return fail(err, errlen, expr, "the memory size is unknown "
			    "(the topology gives no memory sizes)");
	return scaled(t->ram, f.num, (u128)f.den * 100, expr, out, err, errlen);
}

/* "name", "name*X", "X*name" or "name/X" */
static int eval_cache(struct span all, const char *expr, const struct topo *t,
		      unsigned cpu, uint64_t *out, char *err, size_t errlen)
{
	const char *op = memchr(all.s, '*', all.len);
	struct span name = all, num = { NULL, 0 };
	struct factor f = { 1, 1 };
	uint64_t size = 0;

	if (!op)
		op = memchr(all.s, '/', all.len);
	if (op) {
		name = trim(all.s, (size_t)(op - all.s));
		num = trim(op + 1, all.len - (size_t)(op - all.s) - 1);
		if (memchr(num.s, '*', num.len) || memchr(num.s, '/', num.len))
			return fail(err, errlen, expr, "at most one '*' or '/' "
				    "is allowed");
		if (*op == '*' && starts_number(name)) {
			struct span tmp = name;

			name = num;
			num = tmp;
		}
		if (!name.len || !num.len)
			return fail(err, errlen, expr, "'%c' needs a cache "
				    "name on one side and a number on the "
				    "other, as in llc/2 or 2*l2", *op);
		if (starts_number(name))
			return fail(err, errlen, expr, "one side of '%c' must "
				    "be a cache name (l1d, l1i, l2, l3, llc)",
				    *op);
		if (scan_factor(num, &f))
			return bad_factor(err, errlen, expr, num);
	}
	if (cache_size(name, expr, t, cpu, &size, err, errlen))
		return -1;
	if (op && *op == '/')
		return scaled(size, f.den, f.num, expr, out, err, errlen);
	return scaled(size, f.num, f.den, expr, out, err, errlen);
}

bool sizeexpr_is_relative(const char *s)
{
	if (!s)
		return false;
	while (is_blank(*s))
		s++;
	return strpbrk(s, "%*/") || isalpha((unsigned char)*s);
}

int sizeexpr_eval(const char *s, const struct topo *t, unsigned cpu,
		  uint64_t *out, char *err, size_t errlen)
{
	struct span all;
	const char *why, *pct;

	if (!s)
		s = "";
	if (!sizeexpr_is_relative(s)) {
		if (value_size(s, out, &why)) {
			snprintf(err, errlen, "%s", why);
			return -1;
		}
		return 0;
	}
	all = trim(s, strlen(s));
	pct = memchr(all.s, '%', all.len);
	if (pct)
		return eval_ram(trim(all.s, (size_t)(pct - all.s)),
				trim(pct + 1, all.len - (size_t)(pct - all.s) - 1),
				s, t, out, err, errlen);
	return eval_cache(all, s, t, cpu, out, err, errlen);
}
