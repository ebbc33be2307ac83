/*
 * report.c - normal and CSV output of the results (see report.h).
 */
#include <csv.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
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
	NULL
};

static const char *const status_names[] = {
	[RUN_NOT_RUN] = "not_run", [RUN_OK] = "ok",
	[RUN_FAILED] = "failed", [RUN_INTERRUPTED] = "interrupted",
};

static const char *impl_of(const struct job_spec *j)
{
	return j->kernel->impls ? j->kernel->impls[j->impl] : "";
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
	fprintf(f, "    cpu usr %.3f s, sys %.3f s; faults %" PRIu64 " minor, "
		"%" PRIu64 " major; context switches %" PRIu64 " voluntary, %"
		PRIu64 " involuntary\n", jr->usr_ns / 1e9, jr->sys_ns / 1e9,
		jr->minflt, jr->majflt, jr->vcsw, jr->ivcsw);
	if (j->kernel->flags & KERN_RESULT)
		fprintf(f, "    %s: %" PRIu64 "\n", j->kernel->result_name,
			jr->result);
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
			if (j->kernel->flags & KERN_RESULT)
				fprintf(f, ", %s %" PRIu64,
					j->kernel->result_name, t->result);
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
	fprintf(f, "\n%s: group %u, %u thread%s: ioengine=%s rw=%s bs=%s "
		"size=%s kernel=%s%s%s\n", j->name, pj->group, j->numjobs,
		j->numjobs == 1 ? "" : "s", j->ioengine->name, rw_name(j), bs,
		size, j->kernel->name, j->kernel->impls ? "/" : "",
		impl_of(j));
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		normal_run(f, jr, reps > 1);
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

static void csv_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64 ",", v);
}

static void csv_header(FILE *f)
{
	for (size_t i = 0; report_csv_columns[i]; i++)
		fprintf(f, "%s%c", report_csv_columns[i],
			report_csv_columns[i + 1] ? ',' : '\n');
}

static void csv_row(FILE *f, const char *host, const struct results *r,
		    const struct job_result *jr)
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
	if (has)
		csv_u64(f, jr->result);
	else
		fputc(',', f);
	csv_str(f, first_error(jr), false);
	if (jr->end_ns)
		fprintf(f, "%" PRIu64 ",%" PRIu64 "\n",
			jr->start_ns - r->epoch_ns, jr->end_ns - r->epoch_ns);
	else
		fputs(",\n", f);
}

void report_results(const struct report_ctx *rc, const struct results *r)
{
	const struct plan *p = r->plan;

	if (rc->formats & REPORT_NORMAL) {
		for (unsigned i = 0; i < p->njobs; i++)
			normal_job(rc->out, r, i);
		normal_groups(rc->out, r);
	}
	if (rc->formats & REPORT_CSV) {
		if (rc->formats & REPORT_NORMAL)
			fputc('\n', rc->out);
		csv_header(rc->out);
		for (unsigned i = 0; i < p->njobs; i++) {
			unsigned reps = p->segments[p->jobs[i].segment].repeat;

			for (unsigned k = 0; k < reps; k++)
				csv_row(rc->out, rc->host, r,
					results_get(r, i, k));
		}
	}
	fflush(rc->out);
}
