/*
 * pmu.c - events by the vendors' names through libpfm4 (see pmu.h).
 *
 * libpfm4 encodes an event of a PMU this machine has (or that
 * LIBPFM_FORCE_PMU makes it assume) into perf_event_attr fields; for
 * everything else memjob walks libpfm4's tables itself: an event of a
 * PMU this machine lacks is known (and runs as not supported), a name
 * in no table is refused with the nearest name of this machine's tables.
 * The library is initialised once per process, on first use.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib_perf_event.h>

#include "machine/pmu.h"
#include "util/value.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pfm_err_t init_err;
static const char *core_name;	/* the first present core PMU's */

static bool is_hardware(pfm_pmu_t p, const pfm_pmu_info_t *pi)
{
	return p != PFM_PMU_PERF_EVENT && p != PFM_PMU_PERF_EVENT_RAW &&
	       pi->type != PFM_PMU_TYPE_OS_GENERIC;
}

static bool pmu_info(pfm_pmu_t p, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm_get_pmu_info(p, pi) == PFM_SUCCESS;
}

static bool event_info(int idx, pfm_event_info_t *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->size = sizeof(*ei);
	return pfm_get_event_info(idx, PFM_OS_PERF_EVENT, ei) == PFM_SUCCESS;
}

static bool attr_info(int idx, int k, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->size = sizeof(*ai);
	return pfm_get_event_attr_info(idx, k, PFM_OS_PERF_EVENT, ai) ==
	       PFM_SUCCESS;
}

static void init(void)
{
	pfm_pmu_info_t pi;

	init_err = pfm_initialize();
	if (init_err != PFM_SUCCESS)
		return;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !core_name; p++)
		if (pmu_info((pfm_pmu_t)p, &pi) && pi.is_present &&
		    pi.type == PFM_PMU_TYPE_CORE && is_hardware((pfm_pmu_t)p, &pi))
			core_name = pi.name;
}

static bool ready(char *err, size_t errlen)
{
	pthread_once(&once, init);
	if (init_err == PFM_SUCCESS)
		return true;
	if (err)
		snprintf(err, errlen, "libpfm4 could not start: %s",
			 pfm_strerror(init_err));
	return false;
}

bool pmu_built(const char **why, const char **fix)
{
	*why = *fix = NULL;
	return true;
}

const char *pmu_core(void)
{
	return ready(NULL, 0) ? core_name : NULL;
}

/* Whether any PMU but perf's own is present. */
static bool any_hardware(void)
{
	pfm_pmu_info_t pi;

	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
		if (pmu_info((pfm_pmu_t)p, &pi) && pi.is_present &&
		    is_hardware((pfm_pmu_t)p, &pi))
			return true;
	return false;
}

/* ---- a name's parts: "pmu::EVENT:attr:attr" ---- */

struct parts {
	char pmu[64];		/* "" when not given */
	char event[128];
	const char *attrs;	/* after the event's ':', or "" */
};

static int split(const char *name, struct parts *s)
{
	const char *sep = strstr(name, "::"), *ev = sep ? sep + 2 : name;
	size_t n = strcspn(ev, ":");

	s->pmu[0] = '\0';
	if (sep && (size_t)(sep - name) >= sizeof(s->pmu))
		return -1;
	if (sep)
		snprintf(s->pmu, sizeof(s->pmu), "%.*s", (int)(sep - name),
			 name);
	if (n >= sizeof(s->event) || !n)
		return -1;
	snprintf(s->event, sizeof(s->event), "%.*s", (int)n, ev);
	s->attrs = ev[n] ? ev + n + 1 : "";
	return 0;
}

/* The unit masks and modifiers of event idx, for a message. */
static void describe_attrs(int idx, char *buf, size_t len)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	size_t used = 0;
	int w;

	buf[0] = '\0';
	if (!event_info(idx, &ei))
		return;
	for (int pass = 0; pass < 2; pass++) {
		bool first = true;

		for (int k = 0; k < ei.nattrs; k++) {
			if (!attr_info(idx, k, &ai) ||
			    (ai.type == PFM_ATTR_UMASK) != (pass == 0))
				continue;
			w = snprintf(buf + used, len - used, "%s%s%s",
				     first ? (pass ? "; modifiers " :
					      "unit masks ") : ", ",
				     ai.name, ai.is_dfl ? " (default)" : "");
			if (w < 0 || (size_t)w >= len - used)
				return;
			used += (size_t)w;
			first = false;
		}
	}
}

/* Is every ':'-item of attrs a unit mask or modifier of event idx? */
static int check_attrs(int idx, const char *attrs, char *bad, size_t len)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;

	if (!event_info(idx, &ei))
		return -1;
	while (*attrs) {
		size_t n = strcspn(attrs, ":"), k = strcspn(attrs, ":=");
		bool ok = false;

		for (int a = 0; a < ei.nattrs && !ok; a++)
			ok = attr_info(idx, a, &ai) &&
			     strlen(ai.name) == k &&
			     !strncasecmp(ai.name, attrs, k) &&
			     (k == n ? ai.type != PFM_ATTR_MOD_INTEGER
				     : ai.type != PFM_ATTR_UMASK);
		if (!ok) {
			snprintf(bad, len, "%.*s", (int)n, attrs);
			return -1;
		}
		attrs += n + (attrs[n] == ':');
	}
	return 0;
}

/* The event named s in PMU p (either present or not): its index, or -1. */
static int find_in(pfm_pmu_t p, const pfm_pmu_info_t *pi, const char *event)
{
	pfm_event_info_t ei;

	(void)p;
	for (int i = pi->first_event; i != -1; i = pfm_get_event_next(i))
		if (event_info(i, &ei) && !strcasecmp(ei.name, event))
			return i;
	return -1;
}

static bool pmu_matches(const pfm_pmu_info_t *pi, const struct parts *s)
{
	return !s->pmu[0] || !strcasecmp(pi->name, s->pmu);
}

/* Why event of PMU pi (and of others more PMUs, none present) is not
 * counted here. */
static void absent_why(const pfm_pmu_info_t *pi, unsigned others,
		       struct pmu_event *ev)
{
	const char *core = pmu_core();
	char which[128];

	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pi->name);
	snprintf(ev->desc, sizeof(ev->desc), "%s", pi->desc);
	ev->uncore = pi->type == PFM_PMU_TYPE_UNCORE;
	if (pi->is_present) {
		snprintf(ev->why, sizeof(ev->why), "the kernel exposes no "
			 "perf PMU for %s (%s) in /sys/bus/event_source/"
			 "devices", pi->name, pi->desc);
		return;
	}
	if (others)
		snprintf(which, sizeof(which), "an event of %s (%s) and %u "
			 "older PMUs, none of them", pi->name, pi->desc, others);
	else
		snprintf(which, sizeof(which), "PMU %s (%s) is not", pi->name,
			 pi->desc);
	if (core)
		snprintf(ev->why, sizeof(ev->why), "%.90s this machine's, "
			 "which has %.40s", which, core);
	else
		snprintf(ev->why, sizeof(ev->why), "%.90s this machine's: no "
			 "hardware PMU is exposed here", which);
}

/* The nearest event name to s->event among the tables searched: this
 * machine's PMUs, or every PMU when it has none (or s names one). */
static void nearest(const struct parts *s, char *buf, size_t len)
{
	bool all = s->pmu[0] || !any_hardware();
	char want[128];
	struct value_near nv;
	const char *best_pmu = NULL;
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(want) - 1 && s->event[i]; i++)
		want[i] = (char)toupper((unsigned char)s->event[i]);
	want[strnlen(s->event, sizeof(want) - 1)] = '\0';
	value_near_init(&nv, want);
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		if (!pmu_info((pfm_pmu_t)p, &pi) || !pmu_matches(&pi, s) ||
		    !(pi.is_present || all))
			continue;
		for (int i = pi.first_event; i != -1;
		     i = pfm_get_event_next(i)) {
			if (!event_info(i, &ei))
				break;
			value_near_offer(&nv, ei.name);
			if (nv.best == ei.name)
				best_pmu = pi.name;
		}
	}
	if (value_near_best(&nv) && best_pmu)
		snprintf(buf, len, "%s::%s", best_pmu, value_near_best(&nv));
}

/* A name no table holds, or one whose PMU prefix is unknown. */
static int unknown_name(const char *name, const struct parts *s, char *err,
			size_t errlen)
{
	char near[200];
	pfm_pmu_info_t pi;
	bool pmu_known = !s->pmu[0];
	struct value_near nv;

	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !pmu_known; p++)
		pmu_known = pmu_info((pfm_pmu_t)p, &pi) &&
			    !strcasecmp(pi.name, s->pmu);
	if (!pmu_known) {
		value_near_init(&nv, s->pmu);
		for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
			if (pmu_info((pfm_pmu_t)p, &pi))
				value_near_offer(&nv, pi.name);
		if (getenv("LIBPFM_FORCE_PMU"))
			snprintf(err, errlen, "unknown PMU '%s' in '%s' "
				 "(LIBPFM_FORCE_PMU=%s hides every other PMU)",
				 s->pmu, name, getenv("LIBPFM_FORCE_PMU"));
		else if (value_near_best(&nv))
			snprintf(err, errlen, "unknown PMU '%s' in '%s' (did "
				 "you mean '%s'?)", s->pmu, name,
				 value_near_best(&nv));
		else
			snprintf(err, errlen, "unknown PMU '%s' in '%s' "
				 "(memjob --list-events lists this machine's)",
				 s->pmu, name);
		return -1;
	}
	nearest(s, near, sizeof(near));
	if (near[0])
		snprintf(err, errlen, "unknown event '%s' (did you mean "
			 "'%s'?)", name, near);
	else
		snprintf(err, errlen, "unknown event '%s': not a generic "
			 "event, nor in %s (memjob --list-events=PATTERN "
			 "searches them)", name, any_hardware() ?
			 "this machine's PMU tables" :
			 "any PMU table libpfm4 knows");
	return -1;
}

/* libpfm4 refused a name of a PMU present here: say why, and what the
 * event takes. */
static int bad_attrs(const char *name, const struct parts *s, pfm_err_t ret,
		     char *err, size_t errlen)
{
	char what[512], full[256], bad[128];
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	int idx;

	snprintf(full, sizeof(full), "%s%s%s", s->pmu, s->pmu[0] ? "::" : "",
		 s->event);
	idx = pfm_find_event(full);
	what[0] = '\0';
	if (idx >= 0)
		describe_attrs(idx, what, sizeof(what));
	if (idx >= 0 && event_info(idx, &ei) && pmu_info(ei.pmu, &pi) &&
	    check_attrs(idx, s->attrs, bad, sizeof(bad)))
		snprintf(err, errlen, "event '%s': '%s' is not a unit mask or "
			 "modifier of %s::%s (%s)", name, bad, pi.name, ei.name,
			 what);
	else
		snprintf(err, errlen, "event '%s': %s%s%s%s", name,
			 pfm_strerror(ret), what[0] ? " (" : "", what,
			 what[0] ? ")" : "");
	return -1;
}

/*
 * Not encoded: a PMU this machine lacks, or no such name.  The tables
 * are searched newest PMU first (libpfm4 numbers them in the order it
 * learnt them), so a name that many generations share is told by the
 * newest of them.
 */
static int search_tables(const char *name, const struct parts *s,
			 struct pmu_event *ev, bool *unknown, char *err,
			 size_t errlen)
{
	pfm_pmu_info_t pi, first = { 0 };
	char bad[128], what[512];
	unsigned found = 0;
	int bad_idx = -1;

	for (int p = PFM_PMU_MAX - 1; p > PFM_PMU_NONE; p--) {
		int idx;

		if (!pmu_info((pfm_pmu_t)p, &pi) || !pmu_matches(&pi, s) ||
		    !is_hardware((pfm_pmu_t)p, &pi))
			continue;
		idx = find_in((pfm_pmu_t)p, &pi, s->event);
		if (idx < 0)
			continue;
		if (check_attrs(idx, s->attrs, bad, sizeof(bad))) {
			if (bad_idx < 0) {
				bad_idx = idx;
				describe_attrs(idx, what, sizeof(what));
				snprintf(err, errlen, "event '%s': '%s' is not "
					 "a unit mask or modifier of %s::%s "
					 "(%s)", name, bad, pi.name, s->event,
					 what);
			}
			continue;
		}
		if (!found++)
			first = pi;
	}
	if (found) {
		absent_why(&first, found - 1, ev);
		return 1;
	}
	if (bad_idx >= 0)
		return -1;
	*unknown = true;
	return unknown_name(name, s, err, errlen);
}

int pmu_event_encode(const char *name, struct pmu_event *ev, bool *unknown,
		     char *err, size_t errlen)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	struct parts s;
	pfm_err_t ret;

	memset(ev, 0, sizeof(*ev));
	*unknown = false;
	if (!ready(err, errlen))
		return -1;
	if (split(name, &s)) {
		*unknown = true;
		snprintf(err, errlen, "'%s' is not an event name (PMU::EVENT:"
			 "UNIT_MASK:modifier)", name);
		return -1;
	}
	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT, &arg);
	if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_NOTSUPP)
		return search_tables(name, &s, ev, unknown, err, errlen);
	if (ret != PFM_SUCCESS)
		return bad_attrs(name, &s, ret, err, errlen);
	if (!event_info(arg.idx, &ei) || !pmu_info(ei.pmu, &pi)) {
		snprintf(err, errlen, "event '%s': libpfm4 encoded it but "
			 "cannot say its PMU", name);
		return -1;
	}
	ev->type = a.type;
	ev->config = a.config;
	ev->config1 = a.config1;
	ev->config2 = a.config2;
	ev->exclude_user = a.exclude_user;
	ev->exclude_kernel = a.exclude_kernel;
	ev->uncore = pi.type == PFM_PMU_TYPE_UNCORE;
	ev->present = true;
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pi.name);
	snprintf(ev->desc, sizeof(ev->desc), "%s", pi.desc);
	if (ev->uncore && pmu_sysfs_name(NULL, a.type, ev->perf_pmu,
					 sizeof(ev->perf_pmu))) {
		ev->present = false;
		snprintf(ev->why, sizeof(ev->why), "no PMU of perf type %u in "
			 "/sys/bus/event_source/devices", a.type);
	}
	return 0;
}

/* ---- --list-events ---- */

static bool wanted(const char *full, const char *pattern)
{
	if (!pattern || !*pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, full, FNM_CASEFOLD);
	return strcasestr(full, pattern) != NULL;
}

/* The lines of event idx of PMU pi that pattern wants; the PMU's
 * heading before the first line of the PMU (*headed). */
static unsigned list_event(FILE *f, const pfm_pmu_info_t *pi, int idx,
			   const char *pattern, bool *headed)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	char full[256];
	unsigned n = 0;

	if (!event_info(idx, &ei))
		return 0;
	for (int k = -1; k < ei.nattrs; k++) {
		const char *desc = ei.desc;

		if (k >= 0) {
			if (!attr_info(idx, k, &ai) ||
			    ai.type != PFM_ATTR_UMASK)
				continue;
			desc = ai.desc;
			snprintf(full, sizeof(full), "%s::%s:%s", pi->name,
				 ei.name, ai.name);
		} else {
			snprintf(full, sizeof(full), "%s::%s", pi->name,
				 ei.name);
		}
		if (!wanted(full, pattern))
			continue;
		if (!*headed)
			fprintf(f, "%s (%s%s%s):\n", pi->name, pi->desc,
				pi->type == PFM_PMU_TYPE_UNCORE ? ", uncore" :
				"", pi->is_present ? "" :
				", not this machine's");
		*headed = true;
		fprintf(f, "  %-48s %s\n", full, desc ? desc : "");
		n++;
	}
	return n;
}

unsigned pmu_list(FILE *f, const char *pattern)
{
	bool all = pattern && *pattern && !any_hardware();
	pfm_pmu_info_t pi;
	unsigned n = 0;

	if (!ready(NULL, 0))
		return 0;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		bool headed = false;

		if (!pmu_info((pfm_pmu_t)p, &pi) ||
		    !is_hardware((pfm_pmu_t)p, &pi) ||
		    !(pi.is_present || all))
			continue;
		for (int i = pi.first_event; i != -1;
		     i = pfm_get_event_next(i))
			n += list_event(f, &pi, i, pattern, &headed);
	}
	return n;
}
