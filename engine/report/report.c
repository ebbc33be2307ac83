/*
 * report.c - the normal report, and each format in turn (see report.h):
 * the CSV and JSON rows come from report_row.c, the JSON document from
 * report_json.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "util/version.h"
#include "machine/counters.h"
#include "machine/memcg.h"
#include "report/footprint.h"
#include "report/interference.h"
#include "report/loadedlat.h"
#include "report/kneereport.h"
#include "report/noisereport.h"
#include "report/series.h"
#include "report/quirkreport.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "report/ctrtable.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/summary.h"
#include "util/stats.h"
#include "util/value.h"

/* "memory limit 64 MiB (cgroup v1 DIR)": the run's, or each segment's
 * range when they differ (sweep=memory_limit; "none" for segments
 * without one). */
static void memory_limit_line(FILE *out, const struct memcg *m,
			      const struct plan *p)
{
	uint64_t lo = 0, hi = 0;
	bool none = false;
	char a[32], b[32];

	for (unsigned s = 0; s < p->nsegments; s++) {
		uint64_t v = p->jobs[p->segments[s].first].spec->memory_limit;

		none |= !v;
		if (v && (!lo || v < lo))
			lo = v;
		if (v > hi)
			hi = v;
	}
	value_format_bytes((double)lo, a, sizeof(a));
	value_format_bytes((double)hi, b, sizeof(b));
	if (lo == hi && !none)
		fprintf(out, "memory limit %s", a);
	else
		fprintf(out, "memory limit per point, %s%s%s%s", a,
			lo == hi ? "" : " to ", lo == hi ? "" : b,
			none ? " or none" : "");
	fprintf(out, " (cgroup v%d %s)\n", m->version, m->dir);
}

void report_header(struct report_ctx *rc, const struct plan *p)
{
	struct report_facts *f = &rc->facts;
	struct utsname u;

	memset(f, 0, sizeof(*f));
	f->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!uname(&u))
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	f->njobs = p->njobs;
	f->ngroups = p->ngroups;
	if (rc->ss) {
		sysstat_info(rc->ss, &f->info);
		f->have_info = true;
	}
	if (!(rc->formats & REPORT_NORMAL))
		return;
	fprintf(rc->out, "memjob %s on %s: %ld CPUs, Linux %s; %u job%s in "
		"%u group%s\n", memjob_version, rc->host, f->cpus, f->release,
		f->njobs, f->njobs == 1 ? "" : "s", f->ngroups,
		f->ngroups == 1 ? "" : "s");
	if (rc->machine)
		machine_id_print(rc->out, rc->machine);
	if (f->have_info)
		sysstat_info_print(&f->info, rc->out);
	/* A test root stands in for this machine's counters: say so, or
	 * frozen meminfo and vmstat would pass for measurements. */
	if (getenv("MEMJOB_SYSROOT"))
		fprintf(rc->out, "note: MEMJOB_SYSROOT=%s: /proc and /sys "
			"counters (meminfo, vmstat, hugepages, cpuinfo) are "
			"read below it, not from this machine\n",
			getenv("MEMJOB_SYSROOT"));
	if (rc->topo) {
		char line[768];

		topo_summary(rc->topo, line, sizeof(line));
		fprintf(rc->out, "%s\n", line);
	}
	quirks_print(rc->out, rc->quirks);
	if (rc->memcg)
		memory_limit_line(rc->out, rc->memcg, p);
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

/* "accesses", "items", "calls": the plural of a kernel's unit. */
static const char *plural(const char *one, char *buf, size_t len)
{
	size_t l;

	if (!one)
		one = "item";
	l = strlen(one);
	snprintf(buf, len, "%s%s", one, l && one[l - 1] == 's' ? "es" : "s");
	return buf;
}

/* A run's first line: the bytes and their rate where the kernel's bytes
 * are a throughput, else the items and their rate (or the time alone). */
static void normal_amount(FILE *f, const struct job_result *jr)
{
	const struct kernel_ops *k = jr->pj->spec->kernel;
	char rate[32], amount[32], units[48];

	if (kernel_measures_rate(k)) {
		human_rate(jr->ops_per_s, rate, sizeof(rate));
		fprintf(f, " %s in %.3f s: %.3f GB/s, %s ops/s\n",
			value_format_bytes((double)jr->bytes, amount,
					   sizeof(amount)),
			jr->elapsed_ns / 1e9, jr->gbps, rate);
		return;
	}
	fprintf(f, " elapsed %.3f s", jr->elapsed_ns / 1e9);
	if (jr->items && jr->elapsed_ns) {
		human_rate((double)jr->items * 1e9 / (double)jr->elapsed_ns,
			   rate, sizeof(rate));
		fprintf(f, ": %s %s/s", rate,
			plural(k->item_name, units, sizeof(units)));
	}
	fputc('\n', f);
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
		if (c->uncore)
			fprintf(f, " (uncore: the machine's over the run, "
				"every process's, %u PMU%s summed)",
				c->instances, c->instances == 1 ? "" : "s");
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

/* A clone's own figures over its own window, and its time; flagged
 * when it ran markedly shorter than the longest clone. */
static void normal_clone(FILE *f, const struct job_result *jr, unsigned c)
{
	const struct job_spec *j = jr->pj->spec;
	const struct thread_result *t = &jr->threads[c];
	uint64_t ns = t->end_ns > t->start_ns ? t->end_ns - t->start_ns : 0;
	char rb[48];

	fprintf(f, "    clone %u", c);
	if (t->cpu >= 0)
		fprintf(f, " (cpu %d)", t->cpu);
	if (kernel_measures_rate(j->kernel))
		fprintf(f, ": %s, %.3f GB/s,",
			value_format_bytes((double)t->bytes, rb, sizeof(rb)),
			ns ? (double)t->bytes / ns : 0.0);
	else if (j->kernel->flags & KERN_ITEMS)
		fprintf(f, ": %" PRIu64 " %s,", t->items,
			plural(j->kernel->item_name, rb, sizeof(rb)));
	else
		fputc(':', f);
	fprintf(f, " usr %.3f s, sys %.3f s", t->usr_ns / 1e9,
		t->sys_ns / 1e9);
	if (j->kernel->flags & KERN_RESULT) {
		char v[32];

		report_result_text(j, t->result, v, sizeof(v));
		fprintf(f, ", %s %s", j->kernel->result_name, v);
	}
	fputs(";", f);
	if ((j->kernel->flags & KERN_ITEMS) && t->items && ns)
		fprintf(f, " %.2f ns per %s", (double)ns / (double)t->items,
			j->kernel->item_name);
	fprintf(f, " over %.3f s", ns / 1e9);
	if (clone_ran_short(jr, c))
		fprintf(f, "; RAN SHORTER than the longest clone (under %.0f%% "
			"of its time): the others ran part of the job without "
			"it", CLONE_SHORT_FRAC * 100);
	fputc('\n', f);
}

/* A run's figures under its first line: CPU, host, result, latency. */
static void normal_run_figures(FILE *f, const struct job_result *jr)
{
	const struct job_spec *j = jr->pj->spec;
	unsigned io_threads = j->ioengine->io_threads ?
			      j->ioengine->io_threads(j) : 0;
	char rb[32], wb[32];

	if (RW_IS_MIXED(j->rw))
		fprintf(f, "    of which read %s, written %s\n",
			value_format_bytes((double)(jr->bytes -
						    jr->write_bytes),
					   rb, sizeof(rb)),
			value_format_bytes((double)jr->write_bytes, wb,
					   sizeof(wb)));
	fprintf(f, "    cpu usr %.3f s, sys %.3f s", jr->usr_ns / 1e9,
		jr->sys_ns / 1e9);
	if (io_threads)		/* theirs are not in the figures above */
		fprintf(f, " (the job's thread%s), its %u I/O thread%s %.3f s",
			j->numjobs == 1 ? "" : "s", io_threads,
			io_threads == 1 ? "" : "s", jr->io_cpu_ns / 1e9);
	fprintf(f, "; faults %" PRIu64 " minor, %" PRIu64 " major; context "
		"switches %" PRIu64 " voluntary, %" PRIu64 " involuntary\n",
		jr->minflt, jr->majflt, jr->vcsw, jr->ivcsw);
	noise_run_line(f, jr);
	if ((j->kernel->flags & KERN_RESULT) && jr->status != RUN_FAILED) {
		char v[32];

		report_result_text(j, jr->result, v, sizeof(v));
		fprintf(f, "    %s: %s\n", j->kernel->result_name, v);
	}
	if (jr->items) {
		const char *in = j->kernel->item_name;

		fprintf(f, "    %.2f ns per %s (%" PRIu64 " %s)\n",
			jr->ns_per_item, in, jr->items,
			plural(in, wb, sizeof(wb)));
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
	first_touch_report(f, &jr->touch, jr->bytes,
			   jr->pj->size * j->numjobs);
	if (jr->info && jr->info[0])
		fprintf(f, "    %s: %s\n", j->ioengine->name, jr->info);
	if (jr->start.warm[0])
		fprintf(f, "    %s\n", jr->start.warm);
	if (jr->emulated)
		fputs("    EMULATED: these figures come from ordinary memory "
		      "standing in for the device\n", f);
}

/* Each clone of a run (normal_clone). */
static void normal_clones(FILE *f, const struct job_result *jr)
{
	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
		normal_clone(f, jr, c);
}

static void normal_run(FILE *f, const struct job_result *jr, bool label,
		       unsigned details)
{
	const struct job_spec *j = jr->pj->spec;

	if (label)
		fprintf(f, "  run %u:", jr->repeat + 1);
	else
		fputs("  ", f);
	if (jr->status == RUN_NOT_RUN) {
		fputs(" not run\n", f);
		return;
	}
	normal_amount(f, jr);
	if (details & REPORT_DETAIL_RUNS)
		normal_run_figures(f, jr);
	if ((details & REPORT_DETAIL_COUNTERS) && jr->ncounters)
		normal_counters(f, jr);
	if ((details & REPORT_DETAIL_CLONES) && j->numjobs > 1)
		normal_clones(f, jr);
	if (jr->cut_short) {
		char rt[32];

		value_format_time(j->runtime_us, rt, sizeof(rt));
		fprintf(f, "    cut short: runtime=%s ended the program before "
			"it did (SIGTERM to its process group, SIGKILL after "
			"kill_grace)\n", rt);
	}
	if (jr->status == RUN_FAILED)
		fprintf(f, "    FAILED: %s\n", report_first_error(jr));
	else if (jr->status == RUN_INTERRUPTED)
		fputs("    interrupted: figures cover the time until the "
		      "stop\n", f);
}

static void normal_job(FILE *f, const struct results *r, unsigned idx,
		       unsigned details)
{
	const struct planned_job *pj = &r->plan->jobs[idx];
	const struct job_spec *j = pj->spec;
	unsigned reps = results_repeats(r, idx);
	unsigned io_threads = j->ioengine->io_threads ?
			      j->ioengine->io_threads(j) : 0;
	char bs[32], size[32], label[512];
	double gbps[1000], secs[1000], nsi[1000];
	unsigned n = 0;

	value_format_bytes((double)j->bs, bs, sizeof(bs));
	value_format_bytes((double)pj->size, size, sizeof(size));
	report_job_label(pj, label, sizeof(label));
	fprintf(f, "\n%s: group %u, %u thread%s", label, pj->group, j->numjobs,
		j->numjobs == 1 ? "" : "s");
	if (io_threads)
		fprintf(f, " + %u I/O thread%s", io_threads,
			io_threads == 1 ? "" : "s");
	/* A program (kernel=exec) has no data source, blocks or size:
	 * printing them would describe nothing it did. */
	if (j->kernel->flags & KERN_PROGRAM)
		fprintf(f, ": kernel=%s (a program: its own run is timed)\n",
			j->kernel->name);
	else
		fprintf(f, ": ioengine=%s rw=%s bs=%s size=%s kernel=%s%s%s\n",
			j->ioengine->name, report_rw(j), bs, size,
			j->kernel->name, j->kernel->impls ? "/" : "",
			report_impl(pj));
	if (r->where && r->where[idx])
		fprintf(f, "  file on %s\n", r->where[idx]);
	for (unsigned k = 0; k < reps; k++) {
		const struct job_result *jr = results_get(r, idx, k);

		normal_run(f, jr, reps > 1, details);
		if ((details & REPORT_DETAIL_SYSTEM) && jr->have_sys && r->ss) {
			fputs("    system, over the jobs that ran with this "
			      "one:\n", f);
			sysstat_delta_print(r->ss, &jr->sys, r->devidx[idx],
					    "      ", f);
		}
		if (jr->status == RUN_OK && n < 1000) {
			gbps[n] = jr->gbps;
			secs[n] = jr->elapsed_ns / 1e9;
			nsi[n] = jr->ns_per_item;
			n++;
		}
	}
	if (reps > 1 && n && (details & REPORT_DETAIL_RUNS)) {
		struct stat_summary g = stat_summarise(gbps, n);
		struct stat_summary t = stat_summarise(secs, n);
		struct warmup w = series_warmup(r, idx);

		fprintf(f, "  over %u run%s: ", n, n == 1 ? "" : "s");
		if (kernel_measures_rate(j->kernel))
			fprintf(f, "GB/s median %.3f (min %.3f, max %.3f); ",
				g.median, g.min, g.max);
		if (j->kernel->flags & KERN_ITEMS) {
			struct stat_summary s = stat_summarise(nsi, n);

			fprintf(f, "ns per %s median %.2f (min %.2f, max "
				"%.2f); ", j->kernel->item_name, s.median,
				s.min, s.max);
		}
		fprintf(f, "time median %.3f s (min %.3f, max %.3f)\n",
			t.median, t.min, t.max);
		if (w.outlier)
			fprintf(f, "  run 1 is a warm-up outlier: %+.1f%% against "
				"the median of the others (%s)\n",
				w.excess_pct, job_metric(results_get(r, idx, 0))
				.lower_is_better ? "its metric" :
				"the inverse of its rate");
	}
}

static void normal_group(void *user, const struct group_total *t)
{
	FILE *f = user;
	char b[32];

	fprintf(f, "\ngroup %u", t->group);
	if (t->repeats > 1)
		fprintf(f, ", run %u", t->repeat + 1);
	fprintf(f, ": %u jobs, %u threads", t->jobs, t->threads);
	if (t->data_jobs)
		fprintf(f, ": %s in %.3f s: %.3f GB/s\n",
			value_format_bytes((double)t->bytes, b, sizeof(b)),
			t->elapsed_ns / 1e9, t->gbps);
	else
		fprintf(f, " in %.3f s\n", t->elapsed_ns / 1e9);
}

/* --details: the blocks asked for, after the answer. */
static void normal_details(FILE *f, const struct results *r,
			   unsigned details)
{
	const unsigned per_job = REPORT_DETAIL_ALL & ~REPORT_DETAIL_GROUPS;

	if (details & per_job) {
		fputs("\ndetails, run by run:\n", f);
		for (unsigned i = 0; i < r->plan->njobs; i++)
			normal_job(f, r, i, details);
	}
	if (details & REPORT_DETAIL_GROUPS)
		group_totals_each(r, normal_group, f);
}

/* A word of a comma list and its bit. */
struct word_bit {
	const char *name;
	unsigned bit;
};

static const struct word_bit formats[] = {
	{ "normal", REPORT_NORMAL }, { "csv", REPORT_CSV },
	{ "json", REPORT_JSON }, { NULL, 0 }
};

static const struct word_bit details[] = {
	{ "runs", REPORT_DETAIL_RUNS }, { "counters", REPORT_DETAIL_COUNTERS },
	{ "system", REPORT_DETAIL_SYSTEM }, { "clones", REPORT_DETAIL_CLONES },
	{ "groups", REPORT_DETAIL_GROUPS }, { "all", REPORT_DETAIL_ALL },
	{ NULL, 0 }
};

/* why: "got 'xml' in 'normal,xml'", and the nearest word if one is near */
static void no_such_word(const struct word_bit *words, const char *item,
			 size_t n, const char *s, char *why, size_t len)
{
	struct value_near near;
	char want[64];
	const char *best;
	int used;

	snprintf(want, sizeof(want), "%.*s", (int)n, item);
	value_near_init(&near, want);
	for (unsigned i = 0; words[i].name; i++)
		value_near_offer(&near, words[i].name);
	best = value_near_best(&near);
	used = n == strlen(s) ? snprintf(why, len, "got '%s'", s)
			      : snprintf(why, len, "got '%.*s' in '%s'",
					 (int)n, item, s);
	if (best && used >= 0 && (size_t)used < len)
		snprintf(why + used, len - (size_t)used,
			 "; did you mean '%s'?", best);
}

/* A comma list of words, each at most once, as the OR of their bits. */
static int parse_word_list(const struct word_bit *words, const char *expect,
			   const char *s, unsigned *out, char *why, size_t len)
{
	const char *p = s;
	int used;

	*out = 0;
	used = snprintf(why, len, "expected %s or a comma list of them, each "
			"at most once; ", expect);
	if (used < 0 || (size_t)used >= len)
		used = 0;
	why += used;
	len -= (size_t)used;
	if (!s || !*s) {
		snprintf(why, len, s ? "got ''" : "got no value");
		return -1;
	}
	do {
		size_t n = strcspn(p, ",");
		unsigned bit = 0;

		for (unsigned i = 0; words[i].name; i++)
			if (strlen(words[i].name) == n &&
			    !strncmp(p, words[i].name, n))
				bit = words[i].bit;
		if (!n) {
			snprintf(why, len, "got an empty item in '%s'", s);
			return -1;
		}
		if (!bit) {
			no_such_word(words, p, n, s, why, len);
			return -1;
		}
		if (*out & bit) {
			snprintf(why, len, "got '%.*s' twice in '%s'", (int)n,
				 p, s);
			return -1;
		}
		*out |= bit;
		p += n;
	} while (*p++ == ',');
	return 0;
}

int report_parse_formats(const char *s, unsigned *out, char *why,
			 size_t len)
{
	return parse_word_list(formats, "normal, csv, json", s, out, why, len);
}

int report_parse_details(const char *s, unsigned *out, char *why,
			 size_t len)
{
	return parse_word_list(details, "runs, counters, system, clones, "
			       "groups, all", s, out, why, len);
}

void report_separate(FILE *f, unsigned formats, unsigned fmt)
{
	if (formats & (fmt - 1))
		fputc('\n', f);
}

int report_results(const struct report_ctx *rc, const struct results *r)
{
	struct noise_count nc = { 0 };
	int ret = 0;

	if (rc->formats & REPORT_NORMAL) {
		summary_counters_missing(rc->out, r);
		fputs("units: sizes in KiB, MiB, GiB (2^10, 2^20, 2^30 bytes); "
		      "rates in GB/s (10^9 bytes per second)\n", rc->out);
		interference_noise_count(r, &nc);
		noise_run_header(rc->out, r, &nc);
		series_order_line(rc->out, r);
		/* the answer first: the experiment's tables, then a line
		 * per job; each run on request */
		interference_table(rc->out, r);
		loadedlat_report(rc->out, r);
		knee_report(rc->out, r, rc->topo);
		footprint_report(rc->out, r, rc->topo);
		summary_report(rc->out, r);
		counters_table(rc->out, r);
		normal_details(rc->out, r, rc->details);
	}
	if (rc->formats & REPORT_CSV) {
		struct report_table t = { .host = rc->host,
					  .machine = rc->machine, .r = r };

		report_separate(rc->out, rc->formats, REPORT_CSV);
		report_cols_init(&t.cols, r);
		csv_table(rc->out, report_rows, &t);
		report_cols_free(&t.cols);
	}
	if (rc->formats & REPORT_JSON) {
		report_separate(rc->out, rc->formats, REPORT_JSON);
		ret = report_json(rc, r);
	}
	fflush(rc->out);
	return ret;
}
