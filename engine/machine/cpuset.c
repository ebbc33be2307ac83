/*
 * cpuset.c - parse CPU set expressions such as "llc-of:2,!core-of:2"
 * (the grammar is in cpuset.h).
 *
 * The one idea: each item is turned into a set of its own (item_set), and
 * the expression is a left-to-right fold of those sets, adding or removing.
 * Every failure names the item and quotes the whole expression, because
 * the reader of "option 'cpus_allowed': ..." needs to see which part of a
 * long expression is wrong.  A failure that is about this machine rather
 * than the text (no CPU left, a CPU it lacks or may not use, a cache it
 * does not know) is "soft": cpuset_resolve() then tries the next
 * alternative after "else".
 */
#include "machine/cpuset.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/value.h"

#define LIST_LEN	8192	/* "0,2,...,1022" */

enum arg_kind { ARG_NONE, ARG_CPU, ARG_NODE };
enum word_id { W_ALL, W_LLC, W_SIBLINGS, W_CORE, W_PACKAGE, W_NODE,
	       W_NODE_OF };

struct word {
	const char *name;
	enum word_id id;
	enum arg_kind arg;
};

static const struct word words[] = {
	{ "all", W_ALL, ARG_NONE },
	{ "llc-of", W_LLC, ARG_CPU },
	{ "siblings-of", W_SIBLINGS, ARG_CPU },
	{ "core-of", W_CORE, ARG_CPU },
	{ "package-of", W_PACKAGE, ARG_CPU },
	{ "node", W_NODE, ARG_NODE },
	{ "node-of", W_NODE_OF, ARG_CPU },
};

#define NWORDS (sizeof(words) / sizeof(words[0]))

/* The expression being parsed and the item at hand, for messages. */
struct ctx {
	const char *expr;
	const char *item;	/* not terminated: item_len */
	size_t item_len;
	const struct topo *t;
	char *err;
	size_t errlen;
	bool *soft;		/* set by a failure of this machine's */
	uint64_t *dropped;	/* CPUs of words left out: not allowed */
};

static bool bit_test(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *bits, unsigned i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* "'item' in 'expr': reason", or "'expr': reason" for a lone item. */
__attribute__((format(printf, 2, 3)))
static int bad(const struct ctx *x, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (x->item && x->item_len && x->item_len != strlen(x->expr))
		snprintf(x->err, x->errlen, "'%.*s' in '%s': %s",
			 (int)x->item_len, x->item, x->expr, reason);
	else
		snprintf(x->err, x->errlen, "'%s': %s", x->expr, reason);
	return -1;
}

/* Decimal digits at *p (before end) into *v; -1 if there are none.  A
 * number too large for any CPU or node becomes TOO_BIG. */
#define TOO_BIG		1000000000UL

static int scan_uint(const char **p, const char *end, unsigned long *v)
{
	const char *s = *p;

	*v = 0;
	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++)
		*v = *v >= TOO_BIG / 10 ? TOO_BIG :
		     *v * 10 + (unsigned long)(*s - '0');
	if (*v > TOO_BIG)
		*v = TOO_BIG;
	*p = s;
	return 0;
}

static int no_cpu(const struct ctx *x, unsigned long cpu)
{
	char have[LIST_LEN];

	if (cpu == TOO_BIG)
		return bad(x, "that CPU number is far too large");
	if (!x->t)
		return bad(x, "CPU %lu is beyond memjob's limit of %u CPUs",
			   cpu, MEMJOB_MAX_CPUS);
	*x->soft = true;
	value_format_idlist(x->t->online, MEMJOB_MAX_CPUS, have, sizeof(have));
	return bad(x, "CPU %lu does not exist (this machine has CPUs %s)",
		   cpu, have);
}

static int not_allowed(const struct ctx *x, unsigned long cpu)
{
	char have[LIST_LEN];

	*x->soft = true;
	value_format_idlist(x->t->allowed, MEMJOB_MAX_CPUS, have, sizeof(have));
	return bad(x, "CPU %lu is outside the CPUs this process may use "
		   "(%s; taskset or a cgroup cpuset limits memjob to them)",
		   cpu, have[0] ? have : "none");
}

static bool cpu_exists(const struct ctx *x, unsigned long cpu)
{
	if (cpu >= MEMJOB_MAX_CPUS)
		return false;
	return !x->t || topo_has_cpu(x->t, (unsigned)cpu);
}

/* "N", "N-M" or "N-M:S". */
static int range_set(const struct ctx *x, const char *s, const char *end,
		     uint64_t *set, bool remove)
{
	unsigned long first, last, step = 1, id;

	if (scan_uint(&s, end, &first))
		goto syntax;
	last = first;
	if (s < end && *s == '-') {
		s++;
		if (scan_uint(&s, end, &last))
			goto syntax;
		if (s < end && *s == ':') {
			s++;
			if (scan_uint(&s, end, &step))
				goto syntax;
		}
	}
	if (s != end)
		goto syntax;
	if (first > last)
		return bad(x, "the range is reversed (did you mean %lu-%lu?)",
			   last, first);
	if (!step)
		return bad(x, "the step of a range must be at least 1");
	for (id = first; id <= last; id += step) {
		if (!cpu_exists(x, id))
			return no_cpu(x, id);
		/* removing a CPU this process may not use is harmless */
		if (x->t && !remove && !topo_cpu_allowed(x->t, (unsigned)id))
			return not_allowed(x, id);
		bit_set(set, (unsigned)id);
	}
	return 0;
syntax:
	return bad(x, "expected a CPU number, a range such as 4-7 or 0-15:2, "
		   "or a word such as llc-of:2");
}

static int unknown_word(const struct ctx *x, const char *name, size_t len)
{
	char word[64], hint[96] = "";
	unsigned best = ~0U, d;
	size_t i, pick = 0;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	for (i = 0; i < NWORDS; i++) {
		d = value_distance(word, words[i].name);
		/* "llc" for "llc-of", "sibling" for "siblings-of" */
		if (len >= 3 && !strncasecmp(word, words[i].name, len))
			d = 1;
		if (d < best) {
			best = d;
			pick = i;
		}
	}
	if (best <= 2)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)",
			 words[pick].name);
	return bad(x, "unknown word '%s'%s; expected CPU numbers, all, "
		   "llc-of:C, siblings-of:C, core-of:C, package-of:C, "
		   "node-of:C or node:N",
		   word, hint);
}

static int no_topology(const struct ctx *x, const char *name)
{
	return bad(x, "'%s' needs the machine's CPU topology, which could "
		   "not be read", name);
}

static int llc_set(const struct ctx *x, unsigned cpu, uint64_t *set)
{
	const struct topo_cache *c = topo_llc(x->t, cpu);
	char name[16];
	unsigned w;

	*x->soft = true;
	if (!c && !topo_any_cache(x->t))
		return bad(x, "the last-level cache of CPU %u is unknown: %s",
			   cpu, "neither sysfs nor CPUID lists a cache for this "
			   "machine; name the CPUs instead (e.g. 0-3), or "
			   "describe the machine with --topology-file (hwloc "
			   "XML from `lstopo --of xml`)");
	if (!c)
		return bad(x, "no cache of CPU %u is known, so its last-level "
			   "cache is unknown", cpu);
	for (w = 0; w < TOPO_WORDS; w++)
		set[w] = c->shared[w] & x->t->online[w];
	if (!cpuset_count(set))
		return bad(x, "the CPUs sharing CPU %u's %s are unknown (the "
			   "topology does not say)", cpu,
			   topo_cache_name(c, name, sizeof(name)));
	*x->soft = false;
	return 0;
}

static int siblings_set(const struct ctx *x, unsigned cpu, uint64_t *set)
{
	unsigned w;

	for (w = 0; w < TOPO_WORDS; w++)
		set[w] = x->t->cpus[cpu].siblings[w] & x->t->online[w];
	if (!cpuset_count(set)) {
		*x->soft = true;
		return bad(x, "the SMT siblings of CPU %u are unknown (the "
			   "topology does not say)", cpu);
	}
	bit_set(set, cpu);
	return 0;
}

static int package_set(const struct ctx *x, unsigned cpu, uint64_t *set)
{
	int pkg = x->t->cpus[cpu].package_id;
	unsigned c;

	if (pkg < 0) {
		*x->soft = true;
		return bad(x, "the package of CPU %u is unknown (the topology "
			   "does not say)", cpu);
	}
	for (c = 0; c < x->t->ncpus; c++)
		if (x->t->cpus[c].present && x->t->cpus[c].package_id == pkg)
			bit_set(set, c);
	return 0;
}

static int node_set(const struct ctx *x, unsigned long node, uint64_t *set)
{
	char have[LIST_LEN];
	unsigned n;

	if (node >= MEMJOB_MAX_NODES || !topo_has_node(x->t, (unsigned)node)) {
		*x->soft = true;
		value_format_idlist(x->t->nodes, x->t->nnodes, have,
				    sizeof(have));
		return bad(x, "NUMA node %lu does not exist (this machine has "
			   "node%s %s)", node,
			   strpbrk(have, ",-") ? "s" : "", have);
	}
	n = (unsigned)node;
	memcpy(set, x->t->node_cpus[n], TOPO_WORDS * sizeof(*set));
	if (!cpuset_count(set)) {
		*x->soft = true;
		return bad(x, "NUMA node %u has no CPUs (a memory-only node)", n);
	}
	return 0;
}

/* node-of:C: the CPUs of C's NUMA node. */
static int node_of_set(const struct ctx *x, unsigned cpu, uint64_t *set)
{
	int node = x->t->cpus[cpu].node;

	if (node < 0) {
		*x->soft = true;
		return bad(x, "the NUMA node of CPU %u is unknown (the "
			   "topology does not say)", cpu);
	}
	return node_set(x, (unsigned long)node, set);
}

/* A word's CPUs, less those this process may not use (noted). */
static int allowed_only(const struct ctx *x, int ret, uint64_t *set)
{
	for (unsigned w = 0; !ret && w < TOPO_WORDS; w++) {
		x->dropped[w] |= set[w] & ~x->t->allowed[w];
		set[w] &= x->t->allowed[w];
	}
	return ret;
}

/* "word" or "word:N". */
static int word_set(const struct ctx *x, const char *s, const char *end,
		    uint64_t *set)
{
	const char *colon = memchr(s, ':', (size_t)(end - s)), *p;
	size_t len = colon ? (size_t)(colon - s) : (size_t)(end - s);
	const struct word *w = NULL;
	unsigned long arg = 0;
	size_t i;

	for (i = 0; i < NWORDS && !w; i++)
		if (strlen(words[i].name) == len &&
		    !strncasecmp(s, words[i].name, len))
			w = &words[i];
	if (!w)
		return unknown_word(x, s, len);
	if (w->arg == ARG_NONE && colon)
		return bad(x, "'%s' takes no argument", w->name);
	if (w->arg != ARG_NONE) {
		p = colon ? colon + 1 : end;
		if (!colon || scan_uint(&p, end, &arg) || p != end)
			return bad(x, "expected %s:%s with one %s number",
				   w->name, w->arg == ARG_CPU ? "C" : "N",
				   w->arg == ARG_CPU ? "CPU" : "node");
	}
	if (!x->t)
		return no_topology(x, w->name);
	if (w->arg == ARG_CPU && !cpu_exists(x, arg))
		return no_cpu(x, arg);
	switch (w->id) {
	case W_ALL:
		memcpy(set, x->t->allowed, TOPO_WORDS * sizeof(*set));
		return 0;
	case W_LLC:
		return allowed_only(x, llc_set(x, (unsigned)arg, set), set);
	case W_SIBLINGS:
	case W_CORE:
		return allowed_only(x, siblings_set(x, (unsigned)arg, set), set);
	case W_PACKAGE:
		return allowed_only(x, package_set(x, (unsigned)arg, set), set);
	case W_NODE:
		return allowed_only(x, node_set(x, arg, set), set);
	case W_NODE_OF:
		return allowed_only(x, node_of_set(x, (unsigned)arg, set), set);
	}
	return bad(x, "internal error: word '%s' has no meaning", w->name);
}

/* One item between commas, blanks trimmed; *remove for a leading '!'. */
static int item_set(const struct ctx *x, const char *s, const char *end,
		    uint64_t *set, bool *remove)
{
	memset(set, 0, TOPO_WORDS * sizeof(*set));
	*remove = false;
	if (s == end)
		return bad(x, "empty item (two commas, or a comma at an end)");
	if (*s == '!') {
		*remove = true;
		for (s++; s < end && is_blank(*s); s++)
			;
		if (s == end)
			return bad(x, "'!' must be followed by the CPUs to "
				   "leave out, as in !core-of:2");
	}
	if (isalpha((unsigned char)*s))
		return word_set(x, s, end, set);
	return range_set(x, s, end, set, *remove);
}

/* One alternative: expr is not terminated, len long. */
static int parse_one(struct ctx *x, const char *expr, size_t len,
		     uint64_t *bits)
{
	uint64_t acc[TOPO_WORDS] = { 0 }, set[TOPO_WORDS];
	const char *p = expr, *end = expr + len, *b, *e, *comma;
	bool remove, first = true;
	unsigned w;

	for (;;) {
		comma = memchr(p, ',', (size_t)(end - p));
		e = comma ? comma : end;
		for (b = p; b < e && is_blank(*b); b++)
			;
		while (e > b && is_blank(e[-1]))
			e--;
		x->item = b;
		x->item_len = (size_t)(e - b);
		if (item_set(x, b, e, set, &remove))
			return -1;
		if (first && remove) {
			if (!x->t)
				return no_topology(x, "!");
			memcpy(acc, x->t->allowed, sizeof(acc));
		}
		for (w = 0; w < TOPO_WORDS; w++)
			acc[w] = remove ? acc[w] & ~set[w] : acc[w] | set[w];
		first = false;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!cpuset_count(acc)) {
		char list[LIST_LEN], have[LIST_LEN];

		*x->soft = true;
		if (!x->t || !cpuset_count(x->dropped)) {
			snprintf(x->err, x->errlen, "'%s' leaves no CPU", x->expr);
			return -1;
		}
		value_format_idlist(x->dropped, MEMJOB_MAX_CPUS, list,
				    sizeof(list));
		value_format_idlist(x->t->allowed, MEMJOB_MAX_CPUS, have,
				    sizeof(have));
		snprintf(x->err, x->errlen, "'%s' leaves no CPU: CPU%s %s %s "
			 "outside the CPUs this process may use (%s; taskset "
			 "or a cgroup cpuset limits memjob to them)", x->expr,
			 strpbrk(list, ",-") ? "s" : "", list,
			 strpbrk(list, ",-") ? "are" : "is", have);
		return -1;
	}
	memcpy(bits, acc, sizeof(acc));
	return 0;
}

/* The next " else " (blank-separated, any case) in s, or NULL. */
static const char *find_else(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((p == s || is_blank(p[-1])) && !strncasecmp(p, "else", 4) &&
		    (is_blank(p[4]) || !p[4]))
			return p;
	return NULL;
}

/* One alternative as its own terminated copy, blanks trimmed. */
static char *alt_copy(const char *s, const char *end)
{
	while (s < end && is_blank(*s))
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	return strndup(s, (size_t)(end - s));
}

static void say_dropped(const uint64_t *dropped, const char *alt,
			char *note, size_t notelen)
{
	char list[LIST_LEN];
	size_t used = strlen(note);

	if (!cpuset_count(dropped) || used >= notelen)
		return;
	value_format_idlist(dropped, MEMJOB_MAX_CPUS, list, sizeof(list));
	snprintf(note + used, notelen - used, "%s'%s' leaves out CPU%s %s: "
		 "outside the CPUs this process may use (taskset or a cgroup "
		 "cpuset)", used ? "; " : "", alt, strpbrk(list, ",-") ? "s" :
		 "", list);
}

static void say_fallback(const char *why, const char *alt,
			 const uint64_t *bits, char *note, size_t notelen)
{
	char list[LIST_LEN];
	size_t used = strlen(note);

	if (used >= notelen)
		return;
	value_format_idlist(bits, MEMJOB_MAX_CPUS, list, sizeof(list));
	snprintf(note + used, notelen - used, "%s%s; using the fallback '%s' "
		 "(CPU%s %s)%s", used ? "; " : "", why, alt,
		 strpbrk(list, ",-") ? "s" : "", list,
		 strstr(why, "llc-of") && !strstr(alt, "llc-of") ?
		 ": these CPUs need not share that last-level cache, so "
		 "this measures contention in the memory system, not LLC "
		 "sharing" : "");
}

int cpuset_resolve(const char *expr, const struct topo *t, unsigned want,
		   uint64_t *bits, char *note, size_t notelen, char *err,
		   size_t errlen)
{
	uint64_t got[TOPO_WORDS] = { 0 }, best[TOPO_WORDS] = { 0 };
	uint64_t dropped[TOPO_WORDS];
	char first_why[600] = "", why[512], *alt = NULL;
	const char *p = expr, *e;
	bool soft = false, have_best = false;
	int ret = -1;

	if (note && notelen)
		note[0] = '\0';
	if (!expr || !*expr) {
		snprintf(err, errlen, "expected CPUs such as 0,2,4-7 or "
			 "llc-of:2,!core-of:2, got an empty value");
		return -1;
	}
	/* every alternative must hold something, even one never reached */
	for (const char *q = expr, *n;; q = n + 4) {
		n = find_else(q);
		e = n ? n : q + strlen(q);
		while (q < e && is_blank(*q))
			q++;
		if (q == e) {
			snprintf(err, errlen, "'%s': an empty alternative "
				 "around 'else'", expr);
			return -1;
		}
		if (!n)
			break;
	}
	for (;; p = e + 4) {
		struct ctx x = { .t = t, .err = why, .errlen = sizeof(why),
				 .soft = &soft, .dropped = dropped };
		bool failed;

		e = find_else(p);
		free(alt);
		/* without "else", messages quote the value as written */
		alt = p == expr && !e ? strdup(expr) :
		      alt_copy(p, e ? e : p + strlen(p));
		if (!alt) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		x.expr = alt;
		soft = false;
		memset(dropped, 0, sizeof(dropped));
		failed = parse_one(&x, alt, strlen(alt), got) != 0;
		if (failed && !soft) {
			snprintf(err, errlen, "%s", why);	/* the text */
			goto out;
		}
		if (!failed && cpuset_count(got) >= want) {
			memcpy(bits, got, sizeof(got));
			if (note && first_why[0])
				say_fallback(first_why, alt, got, note,
					     notelen);
			if (note)
				say_dropped(dropped, alt, note, notelen);
			ret = 0;
			goto out;
		}
		if (!failed) {
			/* too few for the clones: kept in case no
			 * alternative has enough */
			if (!have_best)
				memcpy(best, got, sizeof(got));
			have_best = true;
			snprintf(why, sizeof(why), "'%s' gives %u CPU%s for "
				 "%u clones", alt, cpuset_count(got),
				 cpuset_count(got) == 1 ? "" : "s", want);
		}
		if (!first_why[0])
			snprintf(first_why, sizeof(first_why), "%s", why);
		if (!e)
			break;
	}
	if (have_best) {
		/* the caller says why the clones do not fit */
		memcpy(bits, best, sizeof(best));
		ret = 0;
	} else if (strcmp(first_why, why)) {
		snprintf(err, errlen, "%s (and the fallback %s)", first_why, why);
	} else {
		snprintf(err, errlen, "%s", why);
	}
out:
	free(alt);
	return ret;
}

int cpuset_parse(const char *expr, const struct topo *t, uint64_t *bits,
		 char *err, size_t errlen)
{
	return cpuset_resolve(expr, t, 1, bits, NULL, 0, err, errlen);
}

unsigned cpuset_count(const uint64_t *bits)
{
	unsigned w, n = 0;

	for (w = 0; w < TOPO_WORDS; w++)
		n += (unsigned)__builtin_popcountll(bits[w]);
	return n;
}

int cpuset_nth(const uint64_t *bits, unsigned n)
{
	unsigned c;

	for (c = 0; c < MEMJOB_MAX_CPUS; c++)
		if (bit_test(bits, c) && !n--)
			return (int)c;
	return -1;
}
