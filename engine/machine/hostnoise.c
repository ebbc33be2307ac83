/*
 * hostnoise.c - the host's noise around a job: stolen CPU time, run-queue
 * wait, CPU frequency (see hostnoise.h).
 *
 * The one idea: parse the kernel's text in pure functions (tested against
 * fixture text), read files in thin wrappers, and keep every percentage a
 * ratio of two deltas so that a figure nobody could read stays flagged.
 */
#include "machine/hostnoise.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/row.h"
#include "util/sysfile.h"

/* The ticks of a "cpuN user nice system idle iowait irq softirq steal"
 * line after its name; -1 when the line is not one. */
static int parse_cpu_line(const char *s, struct hostnoise_cpu *c)
{
	uint64_t v[8] = { 0 };
	unsigned n = 0;

	while (n < 8) {
		char *e;

		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		v[n] = strtoull(s, &e, 10);
		if (errno)
			return -1;
		s = e;
		n++;
	}
	if (n < 4)		/* user, nice, system, idle: the least there is */
		return -1;
	c->total = 0;
	for (unsigned i = 0; i < n; i++)
		c->total += v[i];
	/* guest and guest_nice (fields 9, 10) are already in user, nice */
	c->steal = n >= 8 ? v[7] : 0;
	c->have = n >= 8;	/* without a steal field there is no figure */
	return 0;
}

int hostnoise_parse_stat(const char *text, struct hostnoise_snap *snap)
{
	const char *s = text;
	bool any = false;

	for (unsigned i = 0; i < HOSTNOISE_MAX_CPUS; i++)
		snap->cpu[i].have = false;
	while (s && *s) {
		const char *nl = strchr(s, '\n');

		if (!strncmp(s, "cpu", 3) && s[3] >= '0' && s[3] <= '9') {
			char *e;
			unsigned long cpu = strtoul(s + 3, &e, 10);

			if (cpu < HOSTNOISE_MAX_CPUS && *e == ' ' &&
			    !parse_cpu_line(e, &snap->cpu[cpu]))
				any = true;
		}
		s = nl ? nl + 1 : NULL;
	}
	snap->have_stat = any;
	return any ? 0 : -1;
}

/* All of a file that may be large (/proc/stat grows with the CPUs and
 * interrupts); NULL when it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

void hostnoise_snap(const char *root, const cpu_set_t *cpus,
		    struct hostnoise_snap *snap)
{
	char path[4096];
	char *text = NULL;

	snap->have_stat = false;
	for (unsigned i = 0; i < HOSTNOISE_MAX_CPUS; i++) {
		snap->cpu[i].have = false;
		snap->cpu[i].khz = 0;
	}
	if (!sysfile_path(path, sizeof(path), root, "/proc/stat"))
		text = slurp(path);
	if (text)
		hostnoise_parse_stat(text, snap);
	free(text);
	for (unsigned i = 0; cpus && i < HOSTNOISE_MAX_CPUS; i++) {
		uint64_t khz;

		if (!CPU_ISSET(i, cpus) ||
		    sysfile_path(path, sizeof(path), root, "/sys/devices/"
				 "system/cpu/cpu%u/cpufreq/scaling_cur_freq",
				 i) ||
		    sysfile_u64(path, &khz))
			continue;
		if (khz && khz <= UINT32_MAX)
			snap->cpu[i].khz = (uint32_t)khz;
	}
}

struct hostnoise_ticks hostnoise_ticks(const struct hostnoise_snap *a,
				       const struct hostnoise_snap *b,
				       const cpu_set_t *cpus)
{
	struct hostnoise_ticks t = { 0, 0 };

	for (unsigned i = 0; i < HOSTNOISE_MAX_CPUS; i++) {
		const struct hostnoise_cpu *x = &a->cpu[i], *y = &b->cpu[i];

		/* a CPU taken offline and back starts again from 0 */
		if (!CPU_ISSET(i, cpus) || !x->have || !y->have ||
		    y->total < x->total || y->steal < x->steal)
			continue;
		t.total += y->total - x->total;
		t.steal += y->steal - x->steal;
	}
	return t;
}

void hostnoise_set_steal(struct hostnoise *n, struct hostnoise_ticks t)
{
	n->ticks = t.total;
	n->steal_ticks = t.steal;
	n->have_steal = t.total > 0;
	n->steal_pct = t.total ? fig_fixed(100.0 * (double)t.steal /
					   (double)t.total,
					   HOSTNOISE_PCT_DECIMALS) : 0;
}

void hostnoise_add_wait(struct hostnoise *n, uint64_t wait, uint64_t span)
{
	n->wait_ns += wait;
	n->span_ns += span;
	n->have_wait = n->span_ns > 0;
	n->wait_pct = n->span_ns ? fig_fixed(100.0 * (double)n->wait_ns /
					     (double)n->span_ns,
					     HOSTNOISE_PCT_DECIMALS) : 0;
}

static void add_mhz(struct hostnoise *n, double mhz, unsigned cnt,
		    double lo, double hi)
{
	if (!cnt)
		return;
	if (!n->nfreq || lo < n->mhz_min)
		n->mhz_min = lo;
	if (!n->nfreq || hi > n->mhz_max)
		n->mhz_max = hi;
	n->mhz = fig_fixed((n->mhz * n->nfreq + mhz * cnt) /
			   (n->nfreq + cnt), HOSTNOISE_MHZ_DECIMALS);
	n->nfreq += cnt;
	n->have_freq = true;
}

void hostnoise_set_freq(struct hostnoise *n, const struct hostnoise_snap *a,
			const struct hostnoise_snap *b, const cpu_set_t *cpus)
{
	const struct hostnoise_snap *s[2] = { a, b };

	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < HOSTNOISE_MAX_CPUS; i++) {
			double mhz = s[k]->cpu[i].khz / 1000.0;

			if (CPU_ISSET(i, cpus) && s[k]->cpu[i].khz)
				add_mhz(n, mhz, 1, mhz, mhz);
		}
}

void hostnoise_merge(struct hostnoise *into, const struct hostnoise *n)
{
	if (n->have_steal) {
		struct hostnoise_ticks t = {
			into->ticks + n->ticks,
			into->steal_ticks + n->steal_ticks,
		};

		hostnoise_set_steal(into, t);
	}
	if (n->have_wait)
		hostnoise_add_wait(into, n->wait_ns, n->span_ns);
	if (n->have_freq)
		add_mhz(into, n->mhz, n->nfreq, n->mhz_min, n->mhz_max);
}

int hostnoise_parse_schedstat(const char *text, uint64_t *ns)
{
	unsigned long long run, wait;

	if (sscanf(text, "%llu %llu", &run, &wait) != 2)
		return -1;
	*ns = wait;
	return 0;
}

int hostnoise_thread_wait(const char *root, uint64_t *ns)
{
	char path[4096], text[256];

	if (sysfile_path(path, sizeof(path), root,
			 "/proc/thread-self/schedstat") ||
	    sysfile_text(path, text, sizeof(text)))
		return -1;
	return hostnoise_parse_schedstat(text, ns);
}

void hostnoise_describe(const struct hostnoise *n, char *buf, size_t len)
{
	hostnoise_describe_wait(n, NULL, buf, len);
}

void hostnoise_describe_wait(const struct hostnoise *n, const char *wait,
			     char *buf, size_t len)
{
	char st[64], wt[128], fq[96];

	if (n->have_steal)
		snprintf(st, sizeof(st), "%.1f%% (of %llu ticks)",
			 n->steal_pct, (unsigned long long)n->ticks);
	else
		snprintf(st, sizeof(st), "not readable");
	if (wait)
		snprintf(wt, sizeof(wt), "%s", wait);
	else if (n->have_wait)
		snprintf(wt, sizeof(wt), "%.1f%%", n->wait_pct);
	else
		snprintf(wt, sizeof(wt), "not readable");
	if (!n->have_freq)
		snprintf(fq, sizeof(fq), "not readable");
	else if (n->mhz_max - n->mhz_min < 0.5)
		snprintf(fq, sizeof(fq), "%.0f MHz", n->mhz);
	else
		snprintf(fq, sizeof(fq), "%.0f MHz (%.0f-%.0f)", n->mhz,
			 n->mhz_min, n->mhz_max);
	snprintf(buf, len, "steal %s, waited for a CPU %s, frequency %s", st,
		 wt, fq);
}

void hostnoise_warning(const struct hostnoise *n, double half_width,
		       double est, bool significant, const char *who,
		       char *buf, size_t len)
{
	double noise = 0;
	char what[160] = "";

	buf[0] = '\0';
	if (n->have_steal && n->steal_pct >= n->wait_pct)
		noise = n->steal_pct;
	if (n->have_wait && n->wait_pct > noise)
		noise = n->wait_pct;
	if (noise <= 0 || !(noise >= half_width ||
			    (significant && noise >= (est < 0 ? -est : est))))
		return;
	if (noise == n->steal_pct && n->have_steal)
		snprintf(what, sizeof(what), "steal %.1f%% of %s CPU time",
			 n->steal_pct, who);
	else
		snprintf(what, sizeof(what), "%s threads waited for a CPU "
			 "%.1f%% of their time", who, n->wait_pct);
	snprintf(buf, len, "%s: effects below ~%.1f%% cannot be told from "
		 "the host's noise", what, noise);
}
