/*
 * report_counters.c - the counters' columns of a result row (see
 * report_row.c): two per perf generic event (its count, its status), the
 * figures derived from pairs of them, and two per named event any job
 * counts (ev_NAME, ev_NAME_status), whose names depend on the run.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report/report_int.h"

/* counters_derived()'s figures, in a fixed order for the columns */
static const char *const derived_names[REPORT_NDERIVED] = {
	"ipc", "cache-miss-rate", "branch-miss-rate",
	"L1-dcache-load-miss-rate", "LLC-load-miss-rate",
};

/* perf's name as a column: lower case, '-' as '_' (cycles,
 * l1_dcache_load_misses), so every column is a plain identifier. */
static void column_name(const char *perf, char *buf, size_t len)
{
	size_t i;

	for (i = 0; perf[i] && i + 1 < len; i++)
		buf[i] = perf[i] == '-' ? '_' :
			 (char)tolower((unsigned char)perf[i]);
	buf[i] = '\0';
}

/* A named event's column: "ev_" and its name in lower case, every run
 * of other characters one '_' (ev_inst_retired_any_p). */
static void named_column(const char *name, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "ev_");

	for (const char *p = name; *p && n + 1 < len; p++) {
		if (isalnum((unsigned char)*p))
			buf[n++] = (char)tolower((unsigned char)*p);
		else if (buf[n - 1] != '_')
			buf[n++] = '_';
	}
	while (n > 3 && buf[n - 1] == '_')
		n--;
	buf[n] = '\0';
}

/* The named events of the jobs' perf_events=, in the order they first
 * appear, one column each (two names that make the same column, one). */
static void named_collect(struct report_cols *c, const struct results *r)
{
	c->nnamed = 0;
	for (unsigned i = 0; i < r->plan->njobs; i++) {
		const struct counter_list *l = &r->plan->jobs[i].spec->perf;

		for (unsigned k = 0; k < l->n; k++) {
			char col[sizeof(c->named_col[0])];
			bool have = false;

			if (l->ids[k] < CTR_NEVENTS)
				continue;
			named_column(counters_name(l->ids[k]), col,
				     sizeof(col));
			for (unsigned m = 0; m < c->nnamed && !have; m++)
				have = !strcmp(c->named_col[m], col);
			if (have || c->nnamed == CTR_NAMED_MAX)
				continue;
			c->named_id[c->nnamed] = l->ids[k];
			memcpy(c->named_col[c->nnamed], col, sizeof(col));
			snprintf(c->named_status[c->nnamed],
				 sizeof(c->named_status[0]), "%s_status", col);
			c->nnamed++;
		}
	}
}

void report_counter_cols(struct report_cols *c, const struct results *r)
{
	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		column_name(counters_name(id), c->counter[id],
			    sizeof(c->counter[id]));
		snprintf(c->counter_status[id], sizeof(c->counter_status[id]),
			 "%s_status", c->counter[id]);
	}
	for (unsigned k = 0; k < REPORT_NDERIVED; k++)
		column_name(derived_names[k], c->derived[k],
			    sizeof(c->derived[k]));
	named_collect(c, r);
}

bool report_counter_is_text(const char *name)
{
	char col[64];
	size_t len = strlen(name);

	if (!strncmp(name, "ev_", 3) && len > 10 &&
	    !strcmp(name + len - 7, "_status"))
		return true;	/* a named event's status */
	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		column_name(counters_name(id), col, sizeof(col));
		if (len == strlen(col) + 7 && !strncmp(name, col, strlen(col)) &&
		    !strcmp(name + strlen(col), "_status"))
			return true;
	}
	return false;
}

/* The CSV status of a value: ok, ok:u (user space only), ok:uncore
 * (the machine's, over the run), or why not. */
static const char *value_status(const struct counter_value *v)
{
	if (!v)
		return "not-requested";
	if (v->status != COUNTER_OK)
		return counters_status_name(v->status);
	return v->uncore ? "ok:uncore" : v->user_only ? "ok:u" : "ok";
}

/* The value of the event named name in jr, or NULL. */
static const struct counter_value *value_of(const struct job_result *jr,
					    const char *name)
{
	return counters_value(jr->counters, jr->ncounters, name);
}

/* Per named event: its value (absent unless counted) and its status. */
void report_named_cells(struct row_emitter *e, const struct report_cols *c,
			const struct job_result *jr)
{
	for (unsigned k = 0; k < c->nnamed; k++) {
		const struct counter_value *v =
			value_of(jr, counters_name(c->named_id[k]));

		if (v && v->status == COUNTER_OK)
			row_u64(e, c->named_col[k], v->value);
		else
			row_absent(e, c->named_col[k]);
		row_str(e, c->named_status[k], value_status(v));
	}
}

/* Per event: its value (absent unless counted) and its status. */
void report_counter_cells(struct row_emitter *e, const struct report_cols *c,
			  const struct job_result *jr)
{
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	unsigned nd = counters_derived(jr->counters, jr->ncounters, names,
				       values, COUNTERS_DERIVED_MAX);

	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		const struct counter_value *v = value_of(jr, counters_name(id));

		if (v && v->status == COUNTER_OK)
			row_u64(e, c->counter[id], v->value);
		else
			row_absent(e, c->counter[id]);
		row_str(e, c->counter_status[id], value_status(v));
	}
	for (unsigned k = 0; k < REPORT_NDERIVED; k++) {
		bool found = false;

		for (unsigned i = 0; i < nd && !found; i++)
			if (!strcmp(names[i], derived_names[k])) {
				row_sig(e, c->derived[k], values[i],
					COUNTERS_DERIVED_DIGITS);
				found = true;
			}
		if (!found)
			row_absent(e, c->derived[k]);
	}
}
