/*
 * report_row.c - the row of one job run: every column of the CSV report,
 * and every key of a JSON result, in order (see row.h and report.h).
 *
 * The one rule: every row emits every column, absent where it has no
 * value, so that a CSV header is the names of any row.  The fixed
 * columns are the list FIXED_COLUMNS, which gives their names (exported
 * as report_csv_columns) and their order: a row fills its cells by name
 * and they are written in the list's order.  Columns are never renamed
 * or reordered: the man page documents them as a contract.  The list's
 * head, up to write_bytes, is written first; the perf counters' columns
 * and the derived figures' follow; then the list's tail, from
 * FIRST_LATE_COLUMN on, which is where new columns go (at the end of the
 * list), so that adding one moves no column a script reads by position;
 * the swept options' columns, which depend on the jobs, come next, and
 * the named events' last (report_counters.c has the counters' columns).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/interference.h"
#include "report/noisereport.h"
#include "report/series.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "report/report_int.h"
#include "run/calibrate.h"

#define FIXED_COLUMNS(X)						\
	X(host) X(job) X(group) X(repeat) X(clones) X(ioengine) X(rw) X(bs)	\
	X(size) X(kernel) X(impl) X(status) X(bytes) X(ops) X(elapsed_ns)	\
	X(gbps) X(ops_per_s) X(usr_ns) X(sys_ns) X(minflt) X(majflt) X(vcsw)	\
	X(ivcsw) X(result_name) X(result) X(error) X(start_ns) X(end_ns)	\
	X(items) X(ns_per_item) X(lat_ios) X(lat_p50_ns) X(lat_p90_ns)		\
	X(lat_p99_ns) X(lat_p999_ns) X(lat_max_ns) X(emulated)			\
	X(source_info) X(role) X(phase) X(point) X(metric_name) X(metric)	\
	X(baseline) X(slowdown_pct) X(file_system) X(pgpgin_kb)		\
	X(pgpgout_kb) X(pgmajfault) X(nr_dirtied) X(nr_written) X(dirty_kb)	\
	X(writeback_kb) X(cached_kb) X(dev) X(dev_read_kb) X(dev_write_kb)	\
	X(dev_util_pct) X(cpu_ns_per_item) X(write_bytes) X(cpu_model)	\
	X(cpu_topology) X(kernel_release) X(memjob_version) X(job_hash)	\
	X(machine_type) X(slurm_job_id) X(slurm_array_job_id)		\
	X(slurm_array_task_id) X(slurm_procid) X(slurm_nodename)		\
	X(slowdown_est_pct) X(slowdown_ci_lo_pct) X(slowdown_ci_hi_pct)	\
	X(ci_level_pct) X(verdict) X(start_dirty_kb) X(start_writeback_kb)	\
	X(isolated) X(isolate_wait_ms) X(host_steal_pct) X(host_wait_pct)	\
	X(host_cpu_mhz) X(noise_warning) X(first_touch) X(timed_passes)	\
	X(touch_bytes) X(touch_ns) X(touch_gbps) X(touch_minflt)		\
	X(touch_majflt) X(touch_usr_ns) X(touch_sys_ns) X(precision_pct)	\
	X(precision_status) X(precision_half_width_pct) X(precision_pairs)	\
	X(touch_fresh) X(repeat_order) X(warmup_outlier) X(cpu_slowdown_pct) \
	X(short_clones) X(io_threads_cpu_ns) X(cut_short) X(warm_bytes)	\
	X(warm_ms) X(rate_gbps) X(rate_base_gbps)

enum fixed_column {
#define AS_ENUM(name) COL_##name,
	FIXED_COLUMNS(AS_ENUM)
#undef AS_ENUM
	NFIXED
};

/* The first column written after the counters (see the top). */
#define FIRST_LATE_COLUMN COL_cpu_model

const char *const report_csv_columns[NFIXED + 1] = {
#define AS_NAME(name) #name,
	FIXED_COLUMNS(AS_NAME)
#undef AS_NAME
	NULL
};

const char *const *report_csv_leading_columns(void)
{
	static const char *lead[FIRST_LATE_COLUMN + 1];	/* NULL-ended */

	for (unsigned i = 0; i < FIRST_LATE_COLUMN; i++)
		lead[i] = report_csv_columns[i];
	return lead;
}

/*
 * The fixed columns a row fills with text (cell_str); the others hold
 * numbers.  A name here that is not a fixed column does not compile.
 */
#define TEXT_COLUMNS(X)							\
	X(host) X(job) X(ioengine) X(rw) X(kernel) X(impl) X(status)		\
	X(result_name) X(error) X(source_info) X(role) X(phase) X(point)	\
	X(metric_name) X(file_system) X(dev) X(cpu_model) X(cpu_topology)	\
	X(kernel_release) X(memjob_version) X(job_hash) X(machine_type)	\
	X(slurm_job_id) X(slurm_array_job_id) X(slurm_array_task_id)		\
	X(slurm_procid) X(slurm_nodename) X(verdict) X(noise_warning)	\
	X(first_touch) X(repeat_order)

static const bool fixed_is_text[NFIXED] = {
#define AS_TEXT(name) [COL_##name] = true,
	TEXT_COLUMNS(AS_TEXT)
#undef AS_TEXT
};

/* The fixed cells of a row, absent until set: C(bytes) = cell_u64(...). */
#define C(name) c[COL_##name]

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

const char *report_impl(const struct planned_job *pj)
{
	const struct kernel_ops *k = pj->spec->kernel;

	return k->impls ? k->impls[pj->impl] : "";
}

const char *report_rw(const struct job_spec *j)
{
	return opt_find("rw")->words[j->rw];
}

void report_job_label(const struct planned_job *pj, char *buf, size_t len)
{
	const struct job_spec *j = pj->spec;
	int n = snprintf(buf, len, "%s", j->name);

	if (n >= 0 && (size_t)n < len && j->phase != PHASE_RUN)
		n += snprintf(buf + n, len - (size_t)n, " [%s %s]",
			      report_role_names[j->role],
			      report_phase_names[j->phase]);
	if (n >= 0 && (size_t)n < len && j->point_label)
		snprintf(buf + n, len - (size_t)n, " {%s}", j->point_label);
}

void report_result_text(const struct job_spec *j, uint64_t v, char *buf,
			size_t len)
{
	if (j->kernel->flags & KERN_SIGNED)
		snprintf(buf, len, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

const char *report_first_error(const struct job_result *jr)
{
	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
		if (jr->threads[c].err[0])
			return jr->threads[c].err;
	return "";
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

bool report_column_is_text(const char *name)
{
	if (!strncmp(name, "sweep_", 6))
		return true;	/* option values as written: 4k, llc/2 */
	for (unsigned i = 0; i < NFIXED; i++)
		if (!strcmp(name, report_csv_columns[i]))
			return fixed_is_text[i];
	return report_counter_is_text(name);
}

void report_cols_init(struct report_cols *c, const struct results *r)
{
	report_counter_cols(c, r);
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

static void fill_interference(struct cell *c, const struct results *r,
			      const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m = job_metric(jr);
	double base, slow;

	C(role) = cell_str(report_role_names[j->role]);
	C(phase) = cell_str(report_phase_names[j->phase]);
	C(point) = cell_str(j->point_label);
	C(metric_name) = cell_str(m.name);
	if (jr->status == RUN_OK)
		C(metric) = cell_sig(m.value, METRIC_DIGITS);
	if (row_slowdown(r, jr, &base, &slow)) {
		C(baseline) = cell_sig(base, METRIC_DIGITS);
		C(slowdown_pct) = cell_fixed(slow, SLOWDOWN_DECIMALS);
	}
	if (row_cpu_slowdown(r, jr, &slow))
		C(cpu_slowdown_pct) = cell_fixed(slow, SLOWDOWN_DECIMALS);
}

/* The system counters of the job's segment; absent where unknown. */
static void fill_system(struct cell *c, const struct results *r,
			const struct job_result *jr)
{
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	const struct sysstat_delta *d = &jr->sys;
	int dev = r->devidx ? r->devidx[idx] : -1;
	static const struct {
		enum fixed_column col;
		enum sysstat_vm_key k;
	} vm[] = {
		{ COL_pgpgin_kb, SV_PGPGIN }, { COL_pgpgout_kb, SV_PGPGOUT },
		{ COL_pgmajfault, SV_PGMAJFAULT },
		{ COL_nr_dirtied, SV_NR_DIRTIED },
		{ COL_nr_written, SV_NR_WRITTEN },
	};
	static const struct {
		enum fixed_column col;
		enum sysstat_mem_key k;
	} mem[] = {
		{ COL_dirty_kb, SM_DIRTY }, { COL_writeback_kb, SM_WRITEBACK },
		{ COL_cached_kb, SM_CACHED },
	};

	C(file_system) = cell_str(r->where ? r->where[idx] : NULL);
	if (!jr->have_sys)
		return;
	for (size_t i = 0; i < sizeof(vm) / sizeof(vm[0]); i++)
		if (d->vm_have[vm[i].k])
			c[vm[i].col] = cell_i64(d->vm[vm[i].k]);
	for (size_t i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
		if (d->mem_have[mem[i].k])
			c[mem[i].col] =
				cell_i64((int64_t)d->mem_end_kb[mem[i].k]);
	if (dev >= 0 && d->dev[dev].have) {
		C(dev) = cell_str(r->ss->dev[dev].name);
		C(dev_read_kb) = cell_u64(d->dev[dev].rd_kb);
		C(dev_write_kb) = cell_u64(d->dev[dev].wr_kb);
		C(dev_util_pct) = cell_fixed(d->dev[dev].util_pct, 1);
	}
}

/* machine_id_cells() into the fixed cells, by name: the machine's
 * columns are listed once, in machine.c. */
struct fixed_capture {
	struct row_emitter base;
	struct cell *c;
};

static void capture_cell(struct row_emitter *e, const char *name,
			 const struct cell *cell)
{
	struct fixed_capture *fc = (struct fixed_capture *)e;

	for (unsigned i = 0; i < NFIXED; i++)
		if (!strcmp(name, report_csv_columns[i]))
			fc->c[i] = *cell;
}

static void capture_end(struct row_emitter *e)
{
	(void)e;
}

static const struct row_emitter_ops capture_ops = {
	.cell = capture_cell, .end_row = capture_end,
};

static void fill_machine(struct cell *c, const struct machine_id *m)
{
	struct fixed_capture fc = { .base = { &capture_ops }, .c = c };

	if (m)
		machine_id_cells(&fc.base, m);
}

/* A loaded victim's interval; its verdict's text in verdict[len]. */
static void fill_interval(struct cell *c, const struct results *r,
			  const struct job_result *jr, char *verdict,
			  size_t len)
{
	struct fixed_capture fc = { .base = { &capture_ops }, .c = c };
	struct interval iv;

	if (row_interval(r, jr, &iv)) {
		interval_cells(&fc.base, &iv, verdict, len);
		precision_cells(&fc.base,
				&r->prec[jr->pj - r->plan->jobs]);
	}
}

/* The run's host noise; for a loaded victim, its point's warning (the
 * interference table's, from the same figures) in warn[len]. */
static void fill_noise(struct cell *c, const struct results *r,
		       const struct job_result *jr, char *warn, size_t len)
{
	struct fixed_capture fc = { .base = { &capture_ops }, .c = c };
	const struct job_spec *j = jr->pj->spec;
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	struct interval ci;
	struct hostnoise n;
	double slow;

	warn[0] = '\0';
	if (jr->status != RUN_NOT_RUN)
		noise_cells(&fc.base, &jr->noise);
	if (!row_interval(r, jr, &ci))
		return;
	/* the point's slowdown, not this run's: one warning per point */
	if (!point_slowdown(r, jr, &slow))
		return;
	n = noise_of_point(r, idx, (unsigned)j->baseline);
	noise_point_warning(&n, &ci, slow, j->precision_pct, warn,
			    len);
	if (warn[0])
		C(noise_warning) = cell_str(warn);
}

/* first_touch=: what was done, the passes timed, and with phase the
 * touch's own figures (a rate only for a first touch of pages not yet
 * mapped); absent for a source that maps no region. */
static void fill_touch(struct cell *c, const struct job_result *jr)
{
	const struct touch_result *t = &jr->touch;
	const struct touch_figures *f = &t->fig;
	uint64_t all = jr->pj->size * jr->pj->spec->numjobs;
	double gbps;

	if (t->mode == TOUCH_AUTO)
		return;
	C(first_touch) = cell_str(first_touch_name(t->mode));
	if (jr->end_ns && all)
		C(timed_passes) = cell_sig(first_touch_passes(jr->bytes, all),
					   TOUCH_PASSES_DIGITS);
	if (t->mode != TOUCH_PHASE)
		return;
	C(touch_bytes) = cell_u64(f->bytes);
	C(touch_ns) = cell_u64(f->ns);
	C(touch_fresh) = cell_u64(!t->present);
	if (first_touch_gbps(t, &gbps))	/* never for a re-touch */
		C(touch_gbps) = cell_fixed(gbps, TOUCH_GBPS_DECIMALS);
	C(touch_minflt) = cell_u64(f->minflt);
	C(touch_majflt) = cell_u64(f->majflt);
	C(touch_usr_ns) = cell_u64(f->usr_ns);
	C(touch_sys_ns) = cell_u64(f->sys_ns);
}

/* The order of the job's runs, and whether this run is its warm-up
 * outlier (1 on its first run's row, 0 on the others; absent where the
 * series is not judged). */
static void fill_series(struct cell *c, const struct results *r,
			const struct job_result *jr)
{
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	struct warmup w = series_warmup(r, idx);

	C(repeat_order) = cell_str(series_order(r, idx));
	if (w.judged)
		C(warmup_outlier) = cell_u64(w.outlier && jr->repeat == 0);
}

/* rate=: the rate each clone was paced to; rate=N%: and what N% was of
 * (calibrate.h). */
static void fill_rate(struct cell *c, const struct results *r,
		      const struct job_result *jr)
{
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	const struct job_spec *j = jr->pj->spec;
	uint64_t rate = calibrate_clone_rate(r, idx);

	if (j->rate_pct > 0 && r->rate_base[idx] > 0)
		C(rate_base_gbps) = cell_fixed(r->rate_base[idx] / 1e9, 6);
	if (rate && (!(j->rate_pct > 0) || r->rate_base[idx] > 0))
		C(rate_gbps) = cell_fixed((double)rate / 1e9, 6);
}

static void fill_fixed(struct cell *c, const char *host,
		       const struct results *r, const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	unsigned flags = j->kernel->flags;

	C(host) = cell_str(host);
	C(job) = cell_str(j->name);
	C(group) = cell_u64(jr->pj->group);
	C(repeat) = cell_u64(jr->repeat + 1);
	C(clones) = cell_u64(j->numjobs);
	C(ioengine) = cell_str(j->ioengine->name);
	C(rw) = cell_str(report_rw(j));
	C(bs) = cell_u64(j->bs);
	C(size) = cell_u64(jr->pj->size);
	C(kernel) = cell_str(j->kernel->name);
	C(impl) = cell_str(report_impl(jr->pj));
	C(status) = cell_str(report_status_names[jr->status]);
	C(bytes) = cell_u64(jr->bytes);
	C(ops) = cell_u64(jr->ops);
	C(elapsed_ns) = cell_u64(jr->elapsed_ns);
	/* only the rates the kernel measures (kernel_measures_rate()), and
	 * only over a measured time: empty, never a made-up 0 */
	if (kernel_measures_rate(j->kernel) && jr->elapsed_ns) {
		C(gbps) = cell_fixed(jr->gbps, RESULT_GBPS_DECIMALS);
		C(ops_per_s) = cell_fixed(jr->ops_per_s,
					       RESULT_RATE_DECIMALS);
	}
	C(usr_ns) = cell_u64(jr->usr_ns);
	C(sys_ns) = cell_u64(jr->sys_ns);
	C(minflt) = cell_u64(jr->minflt);
	C(majflt) = cell_u64(jr->majflt);
	C(vcsw) = cell_u64(jr->vcsw);
	C(ivcsw) = cell_u64(jr->ivcsw);
	if (flags & KERN_RESULT)
		C(result_name) = cell_str(j->kernel->result_name);
	if ((flags & KERN_RESULT) && jr->end_ns)
		C(result) = flags & KERN_SIGNED ? cell_i64((int64_t)jr->result)
						: cell_u64(jr->result);
	C(error) = cell_str(report_first_error(jr));
	if (jr->end_ns) {
		C(start_ns) = cell_u64(jr->start_ns - r->epoch_ns);
		C(end_ns) = cell_u64(jr->end_ns - r->epoch_ns);
	}
	if ((flags & KERN_ITEMS) && jr->end_ns) {
		C(items) = cell_u64(jr->items);
		C(ns_per_item) = cell_fixed(jr->ns_per_item,
						 RESULT_NS_DECIMALS);
	}
	if (jr->lat.count) {
		C(lat_ios) = cell_u64(jr->lat.count);
		C(lat_p50_ns) = cell_u64(hist_percentile(&jr->lat, 50));
		C(lat_p90_ns) = cell_u64(hist_percentile(&jr->lat, 90));
		C(lat_p99_ns) = cell_u64(hist_percentile(&jr->lat, 99));
		C(lat_p999_ns) = cell_u64(hist_percentile(&jr->lat, 99.9));
		C(lat_max_ns) = cell_u64(jr->lat.max);
	}
	C(emulated) = cell_u64(jr->emulated ? 1 : 0);
	C(source_info) = cell_str(jr->info);
	fill_interference(c, r, jr);
	fill_system(c, r, jr);
	if (jr->items && jr->end_ns)
		C(cpu_ns_per_item) = cell_fixed(jr->cpu_ns_per_item,
						     RESULT_NS_DECIMALS);
	C(write_bytes) = cell_u64(jr->write_bytes);
	if (jr->start.have) {	/* a file job's start (isolate.c) */
		C(start_dirty_kb) = cell_u64(jr->start.dirty / 1024);
		C(start_writeback_kb) = cell_u64(jr->start.writeback / 1024);
		C(isolated) = cell_u64(jr->start.isolated);
		if (jr->start.waited)
			C(isolate_wait_ms) = cell_fixed(
				(double)jr->start.wait_ns / 1e6, 1);
	}
	if (jr->start.warm_asked) {	/* memory warmed first (isolate) */
		C(warm_bytes) = cell_u64(jr->start.warm_bytes);
		if (jr->start.warm_bytes)
			C(warm_ms) = cell_fixed((double)jr->start.warm_ns / 1e6,
						1);
	}
	fill_touch(c, jr);
	fill_series(c, r, jr);
	if (j->numjobs > 1 && jr->end_ns)
		C(short_clones) = cell_u64(jr->short_clones);
	if (j->ioengine->io_threads && j->ioengine->io_threads(j) &&
	    jr->end_ns)
		C(io_threads_cpu_ns) = cell_u64(jr->io_cpu_ns);
	if (jr->status != RUN_NOT_RUN)
		C(cut_short) = cell_u64(jr->cut_short);
	fill_rate(c, r, jr);
}

static void report_row(struct row_emitter *e, const struct report_cols *c,
		       const char *host, const struct machine_id *m,
		       const struct results *r, const struct job_result *jr)
{
	struct cell fixed[NFIXED] = { 0 };	/* all absent */
	char verdict[96], warn[256];

	fill_fixed(fixed, host, r, jr);
	fill_noise(fixed, r, jr, warn, sizeof(warn));
	fill_machine(fixed, m);
	fill_interval(fixed, r, jr, verdict, sizeof(verdict));
	for (unsigned i = 0; i < FIRST_LATE_COLUMN; i++)
		row_put(e, report_csv_columns[i], fixed[i]);
	report_counter_cells(e, c, jr);
	for (unsigned i = FIRST_LATE_COLUMN; i < NFIXED; i++)
		row_put(e, report_csv_columns[i], fixed[i]);
	for (unsigned k = 0; k < c->nsweep; k++) {
		char v[256];

		label_value(jr->pj->spec->point_label, c->sweep_opt[k], v,
			    sizeof(v));
		row_str(e, c->sweep_col[k], v);
	}
	report_named_cells(e, c, jr);
	row_end(e);
}

void report_rows(struct row_emitter *e, const void *arg)
{
	const struct report_table *t = arg;
	const struct plan *p = t->r->plan;

	for (unsigned i = 0; i < p->njobs; i++) {
		unsigned reps = results_repeats(t->r, i);

		for (unsigned k = 0; k < reps; k++)
			report_row(e, &t->cols, t->host, t->machine, t->r,
				   results_get(t->r, i, k));
	}
}
