/*
 * samples.c - sample_interval's time series (see samples.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioengines/filemark.h"
#include "run/noise.h"
#include "run/samples.h"
#include "util/version.h"

static uint64_t live_bytes(const struct job_result *jr)
{
	uint64_t sum = 0;

	for (unsigned c = 0; c < jr->pj->spec->numjobs; c++)
		sum += atomic_load_explicit(&jr->threads[c].live_bytes,
					    memory_order_relaxed);
	return sum;
}

#define SAMPLE_HEADER "job,repeat,point,t_s,interval_s,job_bytes,job_mbps," \
	"pgpgin_kb,pgpgout_kb,nr_dirtied,nr_written,dirty_kb,writeback_kb," \
	"cached_kb,dev,dev_read_kb,dev_write_kb,dev_util_pct,host_steal_pct," \
	"host,memjob_version\n"

static void sample_num(FILE *f, bool have, const char *fmt, double v)
{
	if (have)
		fprintf(f, fmt, v);
	fputc(',', f);
}

/* The steal of the interval on job k's CPUs: empty when it cannot be
 * told (no /proc/stat or no steal field, or no tick in the interval). */
static void sample_steal(FILE *f, const struct sampling *sm, unsigned k,
			 const struct hostnoise_snap *hprev,
			 const struct hostnoise_snap *hcur)
{
	struct hostnoise n = { 0 };

	if (hprev && hcur)
		hostnoise_set_steal(&n, hostnoise_ticks(hprev, hcur,
							&sm->cpus[k]));
	if (n.have_steal)
		fprintf(f, "%.1f", n.steal_pct);
}

/* One row per job that asked for samples (runs on the sampler thread). */
static void on_sample(void *user, const struct sysstat_snap *prev,
		      const struct sysstat_snap *cur,
		      const struct hostnoise_snap *hprev,
		      const struct hostnoise_snap *hcur)
{
	struct sampling *sm = user;
	const struct plan *p = sm->plan;
	struct sysstat_delta dl;
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, ",\"\n")] = '\0';
	sysstat_delta(prev, cur, &dl);
	for (unsigned i = sm->sg->first; i < sm->sg->first + sm->sg->count;
	     i++) {
		const struct job_spec *j = p->jobs[i].spec;
		const struct job_result *jr = results_get(sm->res, i,
							  sm->repeat);
		FILE *f = sm->logs[i];
		uint64_t now = live_bytes(jr);
		uint64_t got = now - sm->last_bytes[i - sm->sg->first];
		int dev = sm->res->devidx[i];
		double secs = dl.ns / 1e9;

		if (!f)
			continue;
		sm->last_bytes[i - sm->sg->first] = now;
		fprintf(f, "%s,%u,%s,%.3f,%.3f,%" PRIu64 ",%.2f,", j->name,
			sm->repeat + 1, j->point_label ? j->point_label : "",
			(cur->t_ns - sm->res->epoch_ns) / 1e9, secs, got,
			secs > 0 ? got / secs / 1e6 : 0.0);
		sample_num(f, dl.vm_have[SV_PGPGIN], "%.0f", dl.vm[SV_PGPGIN]);
		sample_num(f, dl.vm_have[SV_PGPGOUT], "%.0f",
			   dl.vm[SV_PGPGOUT]);
		sample_num(f, dl.vm_have[SV_NR_DIRTIED], "%.0f",
			   dl.vm[SV_NR_DIRTIED]);
		sample_num(f, dl.vm_have[SV_NR_WRITTEN], "%.0f",
			   dl.vm[SV_NR_WRITTEN]);
		sample_num(f, dl.mem_have[SM_DIRTY], "%.0f",
			   dl.mem_end_kb[SM_DIRTY]);
		sample_num(f, dl.mem_have[SM_WRITEBACK], "%.0f",
			   dl.mem_end_kb[SM_WRITEBACK]);
		sample_num(f, dl.mem_have[SM_CACHED], "%.0f",
			   dl.mem_end_kb[SM_CACHED]);
		if (dev >= 0 && dl.dev[dev].have) {
			fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%.1f,",
				sm->ss->dev[dev].name, dl.dev[dev].rd_kb,
				dl.dev[dev].wr_kb, dl.dev[dev].util_pct);
		} else {
			fputs(",,,,", f);
		}
		sample_steal(f, sm, i - sm->sg->first, hprev, hcur);
		/* what the plot's title names: the machine and memjob */
		fprintf(f, ",%s,%s\n", host, memjob_version);
		fflush(f);
	}
}

/* A sample log: made by this open (the check found none there), or with
 * overwrite=1 the user's file emptied; never through a symbolic link.
 * NULL after a message naming the path and what is there. */
static FILE *open_sample_log(const struct job_spec *j, const char *path)
{
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
		    (j->overwrite ? O_TRUNC : O_EXCL);
	int fd = open(path, flags, 0666), err = errno;
	char there[4200];
	FILE *f;

	if (fd < 0) {
		filemark_describe(path, there, sizeof(there));
		fprintf(stderr, "memjob: job '%s': cannot write '%s': %s%s%s\n",
			j->name, path, strerror(err), err == EEXIST ||
			err == ELOOP ? "; there is now " : "", err == EEXIST ||
			err == ELOOP ? there : "");
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

FILE **samples_open(const struct plan *p)
{
	FILE **logs = calloc(p->njobs ? p->njobs : 1, sizeof(FILE *));

	if (!logs)
		return NULL;
	for (unsigned i = 0; i < p->njobs; i++) {
		const char *path = p->jobs[i].sample_path;

		if (!path)
			continue;
		for (unsigned k = 0; k < i; k++)	/* sweeps share it */
			if (p->jobs[k].sample_path &&
			    !strcmp(p->jobs[k].sample_path, path))
				logs[i] = logs[k];
		if (logs[i])
			continue;
		logs[i] = open_sample_log(p->jobs[i].spec, path);
		if (!logs[i]) {
			samples_close(logs, p);
			return NULL;
		}
		fputs(SAMPLE_HEADER, logs[i]);
	}
	return logs;
}

void samples_close(FILE **logs, const struct plan *p)
{
	for (unsigned i = 0; logs && i < p->njobs; i++) {
		bool first = logs[i] != NULL;

		for (unsigned k = 0; k < i && first; k++)
			if (logs[k] == logs[i])
				first = false;
		if (first)
			fclose(logs[i]);
	}
	free(logs);
}

static uint64_t min_sample_interval(const struct plan *p,
				    const struct segment *sg)
{
	uint64_t us = 0;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		uint64_t s = p->jobs[i].spec->sample_us;

		if (s && (!us || s < us))
			us = s;
	}
	return us;
}

struct sysstat_sampler *samples_start(struct sampling *sm)
{
	const struct segment *sg = sm->sg;
	uint64_t us = min_sample_interval(sm->plan, sg);

	if (!sm->ss || !us)
		return NULL;
	sm->last_bytes = calloc(sg->count, sizeof(uint64_t));
	sm->cpus = calloc(sg->count, sizeof(cpu_set_t));
	for (unsigned k = 0; sm->cpus && k < sg->count; k++)
		noise_job_cpus(results_get(sm->res, sg->first + k, sm->repeat),
			       sm->plan->jobs[sg->first + k].spec->numjobs,
			       &sm->cpus[k]);
	if (!sm->last_bytes || !sm->cpus)
		return NULL;
	return sysstat_sampler_start(sm->ss, us * 1000, on_sample, sm);
}

void samples_stop(struct sampling *sm, struct sysstat_sampler *sampler)
{
	if (sampler)
		sysstat_sampler_stop(sampler);
	free(sm->last_bytes);
	free(sm->cpus);
	sm->last_bytes = NULL;
	sm->cpus = NULL;
}
