/*
 * report_row.c - the row of one job run: every column of the CSV report,
 * and every key of a JSON result, in order (see row.h and report.h).
 *
 * The one rule: every row emits every column, absent where it has no
 * value, so that a CSV header is the names of any row.  Columns are only
 * ever added at the end of the fixed ones (before the swept options'),
 * never renamed or reordered: the man page documents them as a contract.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "interference.h"
#include "ioengine.h"
#include "kernel.h"
#include "options.h"
#include "report_int.h"

const char *const report_status_names[] = {
	[RUN_NOT_RUN] = "not_run", [RUN_OK] = "ok",
	[RUN_FAILED] = "failed", [RUN_INTERRUPTED] = "interrupted",
};

const char *const report_role_names[] = {
	[ROLE_NONE] = "", [ROLE_VICTIM] = "victim",
	[ROLE_AGGRESSOR] = "aggressor",
};

const char *const report_phase_names[] = {
	[PHASE_RUN] = "", [PHASE_ALONE] = "alone", [PHASE_LOADED] = "loaded",
};

/* counters_derived()'s figures, in a fixed order for the columns */
static const char *const derived_names[REPORT_NDERIVED] = {
	"ipc", "cache-miss-rate", "branch-miss-rate",
	"L1-dcache-load-miss-rate", "LLC-load-miss-rate",
};

const char *report_impl(const struct job_spec *j)
{
	return j->kernel->impls ? j->kernel->impls[j->impl] : "";
}

const char *report_rw(const struct job_spec *j)
{
	return opt_find("rw")->words[j->rw];
}

const char *report_first_error(const struct job_result *jr)
{
	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
		if (jr->threads[c].err[0])
			return jr->threads[c].err;
	return "";
}

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

/* "sweep_" and the option as a plain identifier, never equal to a fixed
 * column. */
static void sweep_column(const char *opt, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "sweep_");

	for (const char *p = opt; *p && n + 1 < len; p++)
		buf[n++] = isalnum((unsigned char)*p) ?
			   (char)tolower((unsigned char)*p) : '_';
	buf[n] = '\0';
}

/*
 * The columns of the swept options follow the fixed ones, named after the
 * options ("job.option" when several jobs sweep the same one), in the
 * order they first appear.  They come from the point labels, which are
 * "option=value" pairs separated by spaces.
 */
static void sweep_collect(struct report_cols *c, const struct results *r)
{
	for (unsigned i = 0; i < r->plan->njobs; i++) {
		const char *l = r->plan->jobs[i].spec->point_label;

		while (l && *l) {
			const char *eq = strchr(l, '='), *sp;
			bool have = false;

			if (!eq)
				break;
			for (unsigned k = 0; k < c->nsweep; k++)
				if (strlen(c->sweep_opt[k]) ==
				    (size_t)(eq - l) &&
				    !strncmp(c->sweep_opt[k], l, eq - l))
					have = true;
			if (!have && c->nsweep < REPORT_MAX_SWEEPS) {
				char *opt = strndup(l, eq - l);

				if (opt) {
					c->sweep_opt[c->nsweep] = opt;
					sweep_column(opt, c->sweep_col[c->nsweep],
						     sizeof(c->sweep_col[0]));
					c->nsweep++;
				}
			}
			sp = strchr(eq, ' ');
			l = sp ? sp + 1 : NULL;
		}
	}
}

void report_cols_init(struct report_cols *c, const struct results *r)
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
	c->nsweep = 0;
	sweep_collect(c, r);
}

void report_cols_free(struct report_cols *c)
{
	for (unsigned k = 0; k < c->nsweep; k++)
		free(c->sweep_opt[k]);
	c->nsweep = 0;
}

/* The value of option name in a point label, into buf ("" if absent). */
static void label_value(const char *l, const char *name, char *buf,
			size_t len)
{
	size_t nl = strlen(name);

	buf[0] = '\0';
	while (l && *l) {
		const char *sp = strchr(l, ' ');
		size_t item = sp ? (size_t)(sp - l) : strlen(l);

		if (item > nl && !strncmp(l, name, nl) && l[nl] == '=') {
			snprintf(buf, len, "%.*s", (int)(item - nl - 1),
				 l + nl + 1);
			return;
		}
		l = sp ? sp + 1 : NULL;
	}
}

static void row_interference(struct row_emitter *e, const struct results *r,
			     const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m = job_metric(jr);
	double base, slow;

	row_str(e, "role", report_role_names[j->role]);
	row_str(e, "phase", report_phase_names[j->phase]);
	row_str(e, "point", j->point_label);
	row_str(e, "metric_name", m.name);
	if (jr->status == RUN_OK)
		row_sig(e, "metric", m.value, 6);
	else
		row_absent(e, "metric");
	if (row_slowdown(r, jr, &base, &slow)) {
		row_sig(e, "baseline", base, 6);
		row_fixed(e, "slowdown_pct", slow, 4);
	} else {
		row_absent(e, "baseline");
		row_absent(e, "slowdown_pct");
	}
}

/* A signed system counter, absent unless the kernel gave it. */
static void row_opt(struct row_emitter *e, const char *name, bool have,
		    int64_t v)
{
	if (have)
		row_i64(e, name, v);
	else
		row_absent(e, name);
}

/* The system counters of the job's segment; absent where unknown. */
static void row_system(struct row_emitter *e, const struct results *r,
		       const struct job_result *jr)
{
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	const struct sysstat_delta *d = &jr->sys;
	bool h = jr->have_sys;
	int dev = r->devidx ? r->devidx[idx] : -1;

	row_str(e, "file_system", r->where ? r->where[idx] : NULL);
	row_opt(e, "pgpgin_kb", h && d->vm_have[SV_PGPGIN], d->vm[SV_PGPGIN]);
	row_opt(e, "pgpgout_kb", h && d->vm_have[SV_PGPGOUT],
		d->vm[SV_PGPGOUT]);
	row_opt(e, "pgmajfault", h && d->vm_have[SV_PGMAJFAULT],
		d->vm[SV_PGMAJFAULT]);
	row_opt(e, "nr_dirtied", h && d->vm_have[SV_NR_DIRTIED],
		d->vm[SV_NR_DIRTIED]);
	row_opt(e, "nr_written", h && d->vm_have[SV_NR_WRITTEN],
		d->vm[SV_NR_WRITTEN]);
	row_opt(e, "dirty_kb", h && d->mem_have[SM_DIRTY],
		(int64_t)d->mem_end_kb[SM_DIRTY]);
	row_opt(e, "writeback_kb", h && d->mem_have[SM_WRITEBACK],
		(int64_t)d->mem_end_kb[SM_WRITEBACK]);
	row_opt(e, "cached_kb", h && d->mem_have[SM_CACHED],
		(int64_t)d->mem_end_kb[SM_CACHED]);
	if (h && dev >= 0 && d->dev[dev].have) {
		row_str(e, "dev", r->ss->dev[dev].name);
		row_u64(e, "dev_read_kb", d->dev[dev].rd_kb);
		row_u64(e, "dev_write_kb", d->dev[dev].wr_kb);
		row_fixed(e, "dev_util_pct", d->dev[dev].util_pct, 1);
	} else {
		row_absent(e, "dev");
		row_absent(e, "dev_read_kb");
		row_absent(e, "dev_write_kb");
		row_absent(e, "dev_util_pct");
	}
}

/* Per event: its value (absent unless counted) and its status. */
static void row_counters(struct row_emitter *e, const struct report_cols *c,
			 const struct job_result *jr)
{
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	unsigned nd = counters_derived(jr->counters, jr->ncounters, names,
				       values, COUNTERS_DERIVED_MAX);

	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		const struct counter_value *v = NULL;

		for (unsigned i = 0; i < jr->ncounters; i++)
			if (!strcmp(jr->counters[i].name, counters_name(id)))
				v = &jr->counters[i];
		if (v && v->status == COUNTER_OK)
			row_u64(e, c->counter[id], v->value);
		else
			row_absent(e, c->counter[id]);
		row_str(e, c->counter_status[id],
			!v ? "not-requested" :
			v->status != COUNTER_OK ? counters_status_name(v->status) :
			v->user_only ? "ok:u" : "ok");
	}
	for (unsigned k = 0; k < REPORT_NDERIVED; k++) {
		bool found = false;

		for (unsigned i = 0; i < nd && !found; i++)
			if (!strcmp(names[i], derived_names[k])) {
				row_sig(e, c->derived[k], values[i], 6);
				found = true;
			}
		if (!found)
			row_absent(e, c->derived[k]);
	}
}

static void report_row(struct row_emitter *e, const struct report_cols *c,
		       const char *host, const struct results *r,
		       const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	bool result = (j->kernel->flags & KERN_RESULT) && jr->end_ns;
	bool items = (j->kernel->flags & KERN_ITEMS) && jr->end_ns;

	row_str(e, "host", host);
	row_str(e, "job", j->name);
	row_u64(e, "group", jr->pj->group);
	row_u64(e, "repeat", jr->repeat + 1);
	row_u64(e, "clones", j->numjobs);
	row_str(e, "ioengine", j->ioengine->name);
	row_str(e, "rw", report_rw(j));
	row_u64(e, "bs", j->bs);
	row_u64(e, "size", jr->pj->size);
	row_str(e, "kernel", j->kernel->name);
	row_str(e, "impl", report_impl(j));
	row_str(e, "status", report_status_names[jr->status]);
	row_u64(e, "bytes", jr->bytes);
	row_u64(e, "ops", jr->ops);
	row_u64(e, "elapsed_ns", jr->elapsed_ns);
	row_fixed(e, "gbps", jr->gbps, 6);
	row_fixed(e, "ops_per_s", jr->ops_per_s, 3);
	row_u64(e, "usr_ns", jr->usr_ns);
	row_u64(e, "sys_ns", jr->sys_ns);
	row_u64(e, "minflt", jr->minflt);
	row_u64(e, "majflt", jr->majflt);
	row_u64(e, "vcsw", jr->vcsw);
	row_u64(e, "ivcsw", jr->ivcsw);
	row_str(e, "result_name", (j->kernel->flags & KERN_RESULT) ?
		j->kernel->result_name : NULL);
	if (!result)
		row_absent(e, "result");
	else if (j->kernel->flags & KERN_SIGNED)
		row_i64(e, "result", (int64_t)jr->result);
	else
		row_u64(e, "result", jr->result);
	row_str(e, "error", report_first_error(jr));
	if (jr->end_ns) {
		row_u64(e, "start_ns", jr->start_ns - r->epoch_ns);
		row_u64(e, "end_ns", jr->end_ns - r->epoch_ns);
	} else {
		row_absent(e, "start_ns");
		row_absent(e, "end_ns");
	}
	if (items) {
		row_u64(e, "items", jr->items);
		row_fixed(e, "ns_per_item", jr->ns_per_item, 3);
	} else {
		row_absent(e, "items");
		row_absent(e, "ns_per_item");
	}
	if (jr->lat.count) {
		row_u64(e, "lat_ios", jr->lat.count);
		row_u64(e, "lat_p50_ns", hist_percentile(&jr->lat, 50));
		row_u64(e, "lat_p90_ns", hist_percentile(&jr->lat, 90));
		row_u64(e, "lat_p99_ns", hist_percentile(&jr->lat, 99));
		row_u64(e, "lat_p999_ns", hist_percentile(&jr->lat, 99.9));
		row_u64(e, "lat_max_ns", jr->lat.max);
	} else {
		static const char *const lat[] = {
			"lat_ios", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns",
			"lat_p999_ns", "lat_max_ns",
		};

		for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
			row_absent(e, lat[i]);
	}
	row_u64(e, "emulated", jr->emulated ? 1 : 0);
	row_str(e, "source_info", jr->info);
	row_interference(e, r, jr);
	row_system(e, r, jr);
	if (jr->items && jr->end_ns)
		row_fixed(e, "cpu_ns_per_item", jr->cpu_ns_per_item, 3);
	else
		row_absent(e, "cpu_ns_per_item");
	row_u64(e, "write_bytes", jr->write_bytes);
	row_counters(e, c, jr);
	for (unsigned k = 0; k < c->nsweep; k++) {
		char v[256];

		label_value(j->point_label, c->sweep_opt[k], v, sizeof(v));
		row_str(e, c->sweep_col[k], v);
	}
	row_end(e);
}

void report_rows(struct row_emitter *e, const void *arg)
{
	const struct report_table *t = arg;
	const struct plan *p = t->r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		unsigned reps = p->segments[p->jobs[i].segment].repeat;

		for (unsigned k = 0; k < reps; k++)
			report_row(e, &t->cols, t->host, t->r,
				   results_get(t->r, i, k));
	}
}
