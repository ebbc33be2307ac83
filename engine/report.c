/*
 * report.c - normal and CSV output of the results (see report.h).
 */
#include <csv.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "counters.h"
#include "interference.h"
#include "kneereport.h"
#include "ioengine.h"
#include "kernel.h"
#include "options.h"
#include "report.h"
#include "stats.h"
#include "value.h"

const char *const report_csv_columns[] = {
	"host", "job", "group", "repeat", "clones", "ioengine", "rw", "bs",
	"size", "kernel", "impl", "status", "bytes", "ops", "elapsed_ns",
	"gbps", "ops_per_s", "usr_ns", "sys_ns", "minflt", "majflt", "vcsw",
	"ivcsw", "result_name", "result", "error", "start_ns", "end_ns",
	"items", "ns_per_item", "lat_ios", "lat_p50_ns", "lat_p90_ns",
	"lat_p99_ns", "lat_p999_ns", "lat_max_ns", "emulated", "source_info",
	"role", "phase", "point", "metric_name", "metric", "baseline",
	"slowdown_pct", "file_system", "pgpgin_kb", "pgpgout_kb",
	"pgmajfault", "nr_dirtied", "nr_written", "dirty_kb", "writeback_kb",
	"cached_kb", "dev", "dev_read_kb", "dev_write_kb", "dev_util_pct",
	"cpu_ns_per_item", "write_bytes", NULL
};

/* counters_derived()'s figures, in a fixed order for the CSV header */
const char *const report_derived_columns[] = {
	"ipc", "cache-miss-rate", "branch-miss-rate",
	"L1-dcache-load-miss-rate", "LLC-load-miss-rate", NULL
};

/* perf's name as a CSV column: lower case, '-' as '_' (cycles,
 * l1_dcache_load_misses), so every column is a plain identifier. */
static void column_name(const char *perf, char *buf, size_t len)
{
	size_t i;

	for (i = 0; perf[i] && i + 1 < len; i++)
		buf[i] = perf[i] == '-' ? '_' : (char)tolower((unsigned char)perf[i]);
	buf[i] = '\0';
}

static const char *const status_names[] = {
	[RUN_NOT_RUN] = "not_run", [RUN_OK] = "ok",
	[RUN_FAILED] = "failed", [RUN_INTERRUPTED] = "interrupted",
};

static const char *const role_names[] = {
	[ROLE_NONE] = "", [ROLE_VICTIM] = "victim",
	[ROLE_AGGRESSOR] = "aggressor",
};
static const char *const phase_names[] = {
	[PHASE_RUN] = "", [PHASE_ALONE] = "alone", [PHASE_LOADED] = "loaded",
};

static const char *impl_of(const struct job_spec *j)
{
	return j->kernel->impls ? j->kernel->impls[j->impl] : "";
}

/* The kernel's result as text: signed where the kernel says so. */
static void result_text(const struct job_spec *j, uint64_t v, char *buf,
			size_t len)
{
	if (j->kernel->flags & KERN_SIGNED)
		snprintf(buf, len, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

static const char *rw_name(const struct job_spec *j)
{
	const struct opt_def *o = opt_find("rw");

	return o->words[j->rw];
}

static const char *first_error(const struct job_result *jr)
{
	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
		if (jr->threads[c].err[0])
			return jr->threads[c].err;
	return "";
}

void report_header(const struct report_ctx *rc, const struct plan *p)
{
	struct utsname u;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (!(rc->formats & REPORT_NORMAL))
		return;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	fprintf(rc->out, "memjob %s on %s: %ld CPUs, Linux %s; %u job%s in "
		"%u group%s\n", MEMJOB_VERSION, rc->host, cpus, u.release,
		p->njobs, p->njobs == 1 ? "" : "s", p->ngroups,
		p->ngroups == 1 ? "" : "s");
	if (rc->ss) {
		struct sysstat_info in;

		sysstat_info(rc->ss, &in);
		sysstat_info_print(&in, rc->out);
	}
	for (unsigned i = 0; rc->notes && i < rc->notes->n; i++)
		fprintf(rc->out, "note: %s\n", rc->notes->text[i]);
}

static void human_rate(double per_s, char *buf, size_t len)
{
	if (per_s >= 1e9)
		snprintf(buf, len, "%.2fG", per_s / 1e9);
	else if (per_s >= 1e6)
		snprintf(buf, len, "%.2fM", per_s / 1e6);
	else if (per_s >= 1e3)
		snprintf(buf, len, "%.1fk", per_s / 1e3);
	else
		snprintf(buf, len, "%.1f", per_s);
}

/* What was counted, then what was not and why: never a 0 for either. */
static void normal_counters(FILE *f, const struct job_result *jr)
{
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	unsigned nd, col = 0;
	bool any = false;

	for (unsigned i = 0; i < jr->ncounters; i++) {
		const struct counter_value *c = &jr->counters[i];

		if (c->status != COUNTER_OK)
			continue;
		fputs(any ? "," : "    counters:", f);
		any = true;
		if (!strcmp(c->name, "task-clock"))
			fprintf(f, " %s %.1f ms", c->name, c->value / 1e6);
		else
			fprintf(f, " %s %" PRIu64, c->name, c->value);
		if (c->running < 0.999)
			fprintf(f, " (%.1f%%)", c->running * 100);
		if (c->user_only)
			fputs(":u", f);
	}
	if (any)
		fputc('\n', f);
	for (unsigned i = 0; i < jr->ncounters; i++) {
		const struct counter_value *c = &jr->counters[i];
		bool first = true;

		if (c->status == COUNTER_OK)
			continue;
		/* one line per reason, naming every event it applies to */
		for (unsigned k = 0; k < i; k++)
			if (jr->counters[k].status != COUNTER_OK &&
			    !strcmp(jr->counters[k].why, c->why))
				first = false;
		if (!first)
			continue;
		fprintf(f, "    %s:", c->why[0] ? c->why :
			counters_status_name(c->status));
		for (unsigned k = i; k < jr->ncounters; k++)
			if (jr->counters[k].status != COUNTER_OK &&
			    !strcmp(jr->counters[k].why, c->why))
				fprintf(f, " %s", jr->counters[k].name);
		fputc('\n', f);
	}
	nd = counters_derived(jr->counters, jr->ncounters, names, values,
			      COUNTERS_DERIVED_MAX);
	for (unsigned i = 0; i < nd; i++)
		fprintf(f, "%s %s %.4g", col++ ? "," : "    derived:", names[i],
			values[i]);
	if (nd)
		fputc('\n', f);
}

static void normal_run(FILE *f, const struct job_result *jr, bool label)
{
	const struct job_spec *j = jr->pj->spec;
	char ops[32];

	if (label)
		fprintf(f, "  run %u:", jr->repeat + 1);
	else
		fputs("  ", f);
	if (jr->status == RUN_NOT_RUN) {
		fputs(" not run\n", f);
		return;
	}
	human_rate(jr->ops_per_s, ops, sizeof(ops));
	fprintf(f, " %" PRIu64 " bytes in %.3f s: %.3f GB/s, %s ops/s\n",
		jr->bytes, jr->elapsed_ns / 1e9, jr->gbps, ops);
	if (RW_IS_MIXED(j->rw))
		fprintf(f, "    of which read %" PRIu64 ", written %" PRIu64
			" bytes\n", jr->bytes - jr->write_bytes,
			jr->write_bytes);
	fprintf(f, "    cpu usr %.3f s, sys %.3f s; faults %" PRIu64 " minor, "
		"%" PRIu64 " major; context switches %" PRIu64 " voluntary, %"
		PRIu64 " involuntary\n", jr->usr_ns / 1e9, jr->sys_ns / 1e9,
		jr->minflt, jr->majflt, jr->vcsw, jr->ivcsw);
	if ((j->kernel->flags & KERN_RESULT) && jr->status != RUN_FAILED) {
		char v[32];

		result_text(j, jr->result, v, sizeof(v));
		fprintf(f, "    %s: %s\n", j->kernel->result_name, v);
	}
	if (jr->items) {
		const char *in = j->kernel->item_name;
		size_t l = strlen(in);

		fprintf(f, "    %.2f ns per %s (%" PRIu64 " %s%s)\n",
			jr->ns_per_item, in, jr->items, in,
			l && in[l - 1] == 's' ? "es" : "s");
		/* a kernel whose result counts its units of work (codewalk:
		 * calls) also gets the time per unit */
		if ((j->kernel->flags & KERN_RESULT) && jr->result &&
		    jr->elapsed_ns) {
			const char *rn = j->kernel->result_name;
			size_t rl = strlen(rn);

			fprintf(f, "    %.2f ns per %.*s\n",
				jr->ns_per_item * (double)jr->items /
				(double)jr->result,
				(int)(rl && rn[rl - 1] == 's' ? rl - 1 : rl), rn);
		}
	}
	if (jr->lat.count)
		fprintf(f, "    latency (us): p50 %.1f, p90 %.1f, p99 %.1f, "
			"p99.9 %.1f, max %.1f over %" PRIu64 " I/Os\n",
			hist_percentile(&jr->lat, 50) / 1e3,
			hist_percentile(&jr->lat, 90) / 1e3,
			hist_percentile(&jr->lat, 99) / 1e3,
			hist_percentile(&jr->lat, 99.9) / 1e3,
			jr->lat.max / 1e3, jr->lat.count);
	if (jr->ncounters)
		normal_counters(f, jr);
	if (jr->info && jr->info[0])
		fprintf(f, "    %s: %s\n", j->ioengine->name, jr->info);
	if (jr->emulated)
		fputs("    EMULATED: these figures come from ordinary memory "
		      "standing in for the device\n", f);
	if (j->numjobs > 1)
		for (unsigned c = 0; c < j->numjobs; c++) {
			const struct thread_result *t = &jr->threads[c];
			uint64_t ns = t->end_ns - t->start_ns;

			fprintf(f, "    clone %u", c);
			if (t->cpu >= 0)
				fprintf(f, " (cpu %d)", t->cpu);
			fprintf(f, ": %" PRIu64 " bytes, %.3f GB/s, usr %.3f s,"
				" sys %.3f s", t->bytes,
				ns ? (double)t->bytes / ns : 0.0,
				t->usr_ns / 1e9, t->sys_ns / 1e9);
			if (j->kernel->flags & KERN_RESULT) {
				char v[32];

				result_text(j, t->result, v, sizeof(v));
				fprintf(f, ", %s %s", j->kernel->result_name,
					v);
			}
			fputc('\n', f);
		}
	if (jr->status == RUN_FAILED)
		fprintf(f, "    FAILED: %s\n", first_error(jr));
	else if (jr->status == RUN_INTERRUPTED)
		fputs("    interrupted: figures cover the time until the "
		      "stop\n", f);
}

static void normal_job(FILE *f, const struct results *r, unsigned idx)
{
	const struct planned_job *pj = &r->plan->jobs[idx];
	const struct job_spec *j = pj->spec;
	unsigned reps = r->plan->segments[pj->segment].repeat;
	char bs[32], size[32];
	double gbps[1000], secs[1000];
	unsigned n = 0;

	value_format_size(j->bs, bs, sizeof(bs));
	value_format_size(pj->size, size, sizeof(size));
	fprintf(f, "\n%s", j->name);
	if (j->phase != PHASE_RUN)
		fprintf(f, " [%s %s]", role_names[j->role],
			phase_names[j->phase]);
	if (j->point_label)
		fprintf(f, " {%s}", j->point_label);
	fprintf(f, ": group %u, %u thread%s: ioengine=%s rw=%s bs=%s "
		"size=%s kernel=%s%s%s\n", pj->group, j->numjobs,
		j->numjobs == 1 ? "" : "s", j->ioengine->name, rw_name(j), bs,
		size, j->kernel->name, j->kernel->impls ? "/" : "",
		impl_of(j));
	if (r->where && r->where[idx])
		fprintf(f, "  file on %s\n", r->where[idx]);
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		normal_run(f, jr, reps > 1);
		if (jr->have_sys && r->ss) {
			fputs("    system, over the jobs that ran with this "
			      "one:\n", f);
			sysstat_delta_print(r->ss, &jr->sys, r->devidx[idx],
					    "      ", f);
		}
		if (jr->status == RUN_OK && n < 1000) {
			gbps[n] = jr->gbps;
			secs[n] = jr->elapsed_ns / 1e9;
			n++;
		}
	}
	if (reps > 1 && n) {
		struct stat_summary g = stat_summarise(gbps, n);
		struct stat_summary t = stat_summarise(secs, n);

		fprintf(f, "  over %u run%s: GB/s median %.3f (min %.3f, max "
			"%.3f); time median %.3f s (min %.3f, max %.3f)\n", n,
			n == 1 ? "" : "s", g.median, g.min, g.max, t.median,
			t.min, t.max);
	}
}

static void normal_groups(FILE *f, const struct results *r)
{
	const struct plan *p = r->plan;

	for (unsigned g = 0; g < p->ngroups; g++) {
		unsigned jobs = 0, threads = 0, reps = 1;

		for (unsigned i = 0; i < p->njobs; i++)
			if (p->jobs[i].group == g) {
				jobs++;
				threads += p->jobs[i].spec->numjobs;
				reps = p->segments[p->jobs[i].segment].repeat;
			}
		if (jobs < 2)
			continue;
		for (unsigned k = 0; k < reps; k++) {
			uint64_t bytes = 0, start = UINT64_MAX, end = 0;

			for (unsigned i = 0; i < p->njobs; i++) {
				const struct job_result *jr;

				if (p->jobs[i].group != g)
					continue;
				jr = results_get(r, i, k);
				if (!jr->end_ns)
					continue;
				bytes += jr->bytes;
				if (jr->start_ns < start)
					start = jr->start_ns;
				if (jr->end_ns > end)
					end = jr->end_ns;
			}
			if (!end)
				continue;
			fprintf(f, "\ngroup %u", g);
			if (reps > 1)
				fprintf(f, ", run %u", k + 1);
			fprintf(f, ": %u jobs, %u threads: %" PRIu64 " bytes "
				"in %.3f s: %.3f GB/s\n", jobs, threads, bytes,
				(end - start) / 1e9,
				end > start ? (double)bytes / (end - start)
					    : 0.0);
		}
	}
}

/* Quoted (by libcsv) only when the field needs it, so awk -F, works on
 * everything memjob itself names. */
static void csv_str(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n") || (*s && (s[0] == ' ' ||
						 s[strlen(s) - 1] == ' ')))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
}

/* A field with no separator after it. */
static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

static void csv_interference(FILE *f, const struct results *r,
			     const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	struct metric m = job_metric(jr);
	double base, slow;

	fprintf(f, "%s,%s,", role_names[j->role], phase_names[j->phase]);
	csv_str(f, j->point_label ? j->point_label : "", false);
	fprintf(f, "%s,", m.name);
	if (jr->status == RUN_OK)
		fprintf(f, "%.6g,", m.value);
	else
		fputc(',', f);
	if (row_slowdown(r, jr, &base, &slow))
		fprintf(f, "%.6g,%.4f", base, slow);
	else
		fputc(',', f);
}

static void csv_opt(FILE *f, bool have, int64_t v)
{
	fputc(',', f);
	if (have)
		fprintf(f, "%" PRId64, v);
}

/* The system counters of the job's segment; empty where unknown. */
static void csv_system(FILE *f, const struct results *r,
		       const struct job_result *jr)
{
	unsigned idx = (unsigned)(jr->pj - r->plan->jobs);
	const struct sysstat_delta *d = &jr->sys;
	bool h = jr->have_sys;
	int dev = r->devidx ? r->devidx[idx] : -1;

	fputc(',', f);
	csv_field(f, r->where && r->where[idx] ? r->where[idx] : "");
	csv_opt(f, h && d->vm_have[SV_PGPGIN], d->vm[SV_PGPGIN]);
	csv_opt(f, h && d->vm_have[SV_PGPGOUT], d->vm[SV_PGPGOUT]);
	csv_opt(f, h && d->vm_have[SV_PGMAJFAULT], d->vm[SV_PGMAJFAULT]);
	csv_opt(f, h && d->vm_have[SV_NR_DIRTIED], d->vm[SV_NR_DIRTIED]);
	csv_opt(f, h && d->vm_have[SV_NR_WRITTEN], d->vm[SV_NR_WRITTEN]);
	csv_opt(f, h && d->mem_have[SM_DIRTY], (int64_t)d->mem_end_kb[SM_DIRTY]);
	csv_opt(f, h && d->mem_have[SM_WRITEBACK],
		(int64_t)d->mem_end_kb[SM_WRITEBACK]);
	csv_opt(f, h && d->mem_have[SM_CACHED],
		(int64_t)d->mem_end_kb[SM_CACHED]);
	fputc(',', f);
	if (h && dev >= 0 && d->dev[dev].have) {
		fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%.1f",
			r->ss->dev[dev].name, d->dev[dev].rd_kb,
			d->dev[dev].wr_kb, d->dev[dev].util_pct);
	} else {
		fputs(",,,", f);
	}
}

/* Per event: its value (empty unless counted) and its status. */
static void csv_counters(FILE *f, const struct job_result *jr)
{
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	unsigned nd = counters_derived(jr->counters, jr->ncounters, names,
				       values, COUNTERS_DERIVED_MAX);

	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		const struct counter_value *c = NULL;

		for (unsigned i = 0; i < jr->ncounters; i++)
			if (!strcmp(jr->counters[i].name, counters_name(id)))
				c = &jr->counters[i];
		if (c && c->status == COUNTER_OK)
			fprintf(f, ",%" PRIu64 ",%s", c->value,
				c->user_only ? "ok:u" : "ok");
		else if (c)
			fprintf(f, ",,%s", counters_status_name(c->status));
		else
			fputs(",,not-requested", f);
	}
	for (unsigned k = 0; report_derived_columns[k]; k++) {
		bool found = false;

		for (unsigned i = 0; i < nd && !found; i++)
			if (!strcmp(names[i], report_derived_columns[k])) {
				fprintf(f, ",%.6g", values[i]);
				found = true;
			}
		if (!found)
			fputc(',', f);
	}
}

static void csv_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64 ",", v);
}

/*
 * The columns of the swept options follow the fixed ones, named after the
 * options ("job.option" when several jobs sweep the same one), in the
 * order they first appear.  They come from the point labels, which are
 * "option=value" pairs separated by spaces.
 */
struct sweep_cols {
	char *name[64];
	unsigned n;
};

static void sweep_cols_collect(const struct results *r, struct sweep_cols *c)
{
	c->n = 0;
	for (unsigned i = 0; i < r->plan->njobs; i++) {
		const char *l = r->plan->jobs[i].spec->point_label;

		while (l && *l) {
			const char *eq = strchr(l, '='), *sp;
			bool have = false;

			if (!eq)
				break;
			for (unsigned k = 0; k < c->n; k++)
				if (strlen(c->name[k]) == (size_t)(eq - l) &&
				    !strncmp(c->name[k], l, eq - l))
					have = true;
			if (!have && c->n < 64)
				c->name[c->n++] = strndup(l, eq - l);
			sp = strchr(eq, ' ');
			l = sp ? sp + 1 : NULL;
		}
	}
}

static void sweep_cols_free(struct sweep_cols *c)
{
	for (unsigned k = 0; k < c->n; k++)
		free(c->name[k]);
	c->n = 0;
}

/* The value of column name in a point label, into buf ("" if absent). */
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

static void csv_header(FILE *f, const struct sweep_cols *c)
{
	for (size_t i = 0; report_csv_columns[i]; i++)
		fprintf(f, "%s%s", i ? "," : "", report_csv_columns[i]);
	for (unsigned id = 0; id < CTR_NEVENTS; id++) {
		char col[64];

		column_name(counters_name(id), col, sizeof(col));
		fprintf(f, ",%s,%s_status", col, col);
	}
	for (unsigned k = 0; report_derived_columns[k]; k++) {
		char col[64];

		column_name(report_derived_columns[k], col, sizeof(col));
		fprintf(f, ",%s", col);
	}
	for (unsigned k = 0; k < c->n; k++) {
		char col[160];
		size_t n = (size_t)snprintf(col, sizeof(col), "sweep_");

		/* a plain identifier, never equal to a fixed column */
		for (const char *p = c->name[k]; *p && n + 1 < sizeof(col);
		     p++)
			col[n++] = isalnum((unsigned char)*p) ?
				   (char)tolower((unsigned char)*p) : '_';
		col[n] = '\0';
		fprintf(f, ",%s", col);
	}
	fputc('\n', f);
}

static void csv_row(FILE *f, const char *host, const struct results *r,
		    const struct job_result *jr, const struct sweep_cols *c)
{
	const struct job_spec *j = jr->pj->spec;
	bool has = (j->kernel->flags & KERN_RESULT) && jr->end_ns;

	csv_str(f, host, false);
	csv_str(f, j->name, false);
	fprintf(f, "%u,%u,%u,", jr->pj->group, jr->repeat + 1, j->numjobs);
	csv_str(f, j->ioengine->name, false);
	csv_str(f, rw_name(j), false);
	csv_u64(f, j->bs);
	csv_u64(f, jr->pj->size);
	csv_str(f, j->kernel->name, false);
	csv_str(f, impl_of(j), false);
	csv_str(f, status_names[jr->status], false);
	csv_u64(f, jr->bytes);
	csv_u64(f, jr->ops);
	csv_u64(f, jr->elapsed_ns);
	fprintf(f, "%.6f,%.3f,", jr->gbps, jr->ops_per_s);
	csv_u64(f, jr->usr_ns);
	csv_u64(f, jr->sys_ns);
	csv_u64(f, jr->minflt);
	csv_u64(f, jr->majflt);
	csv_u64(f, jr->vcsw);
	csv_u64(f, jr->ivcsw);
	csv_str(f, (j->kernel->flags & KERN_RESULT) ? j->kernel->result_name
						    : "", false);
	if (has) {
		char v[32];

		result_text(j, jr->result, v, sizeof(v));
		fprintf(f, "%s,", v);
	} else {
		fputc(',', f);
	}
	csv_str(f, first_error(jr), false);
	if (jr->end_ns)
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",",
			jr->start_ns - r->epoch_ns, jr->end_ns - r->epoch_ns);
	else
		fputs(",,", f);
	if (j->kernel->flags & KERN_ITEMS && jr->end_ns)
		fprintf(f, "%" PRIu64 ",%.3f,", jr->items, jr->ns_per_item);
	else
		fputs(",,", f);
	if (jr->lat.count)
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
			PRIu64 ",%" PRIu64 ",", jr->lat.count,
			hist_percentile(&jr->lat, 50),
			hist_percentile(&jr->lat, 90),
			hist_percentile(&jr->lat, 99),
			hist_percentile(&jr->lat, 99.9), jr->lat.max);
	else
		fputs(",,,,,,", f);
	fprintf(f, "%d,", jr->emulated ? 1 : 0);
	csv_str(f, jr->info ? jr->info : "", false);
	csv_interference(f, r, jr);
	csv_system(f, r, jr);
	if (jr->items && jr->end_ns)
		fprintf(f, ",%.3f", jr->cpu_ns_per_item);
	else
		fputc(',', f);
	fprintf(f, ",%" PRIu64, jr->write_bytes);
	csv_counters(f, jr);
	for (unsigned k = 0; k < c->n; k++) {
		char v[256];

		label_value(j->point_label, c->name[k], v, sizeof(v));
		fputc(',', f);
		csv_field(f, v);
	}
	fputc('\n', f);
}

void report_results(const struct report_ctx *rc, const struct results *r)
{
	const struct plan *p = r->plan;

	if (rc->formats & REPORT_NORMAL) {
		for (unsigned i = 0; i < p->njobs; i++)
			normal_job(rc->out, r, i);
		normal_groups(rc->out, r);
		interference_table(rc->out, r);
		knee_report(rc->out, r, rc->topo);
	}
	if (rc->formats & REPORT_CSV) {
		if (rc->formats & REPORT_NORMAL)
			fputc('\n', rc->out);
		struct sweep_cols cols;

		sweep_cols_collect(r, &cols);
		csv_header(rc->out, &cols);
		for (unsigned i = 0; i < p->njobs; i++) {
			unsigned reps = p->segments[p->jobs[i].segment].repeat;

			for (unsigned k = 0; k < reps; k++)
				csv_row(rc->out, rc->host, r,
					results_get(r, i, k), &cols);
		}
		sweep_cols_free(&cols);
	}
	fflush(rc->out);
}
