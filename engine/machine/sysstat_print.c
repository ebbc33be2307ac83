/*
 * sysstat_print.c - system counters as text (see sysstat.h): the run
 * header's kernel and page-cache settings, a job's vmstat, meminfo and
 * device deltas, and the file system behind a job's file.
 *
 * The one rule: a value the kernel did not give is left out, never
 * printed as 0, since a 0 would read as a measurement.
 */
#include "machine/sysstat.h"
#include "machine/sysstat_int.h"

#include <stdarg.h>
#include <string.h>

/* A figure where 0 means unknown. */
static void known_u64(struct row_emitter *e, const char *name, uint64_t v)
{
	if (v)
		row_u64(e, name, v);
	else
		row_absent(e, name);
}

void sysstat_info_row(const struct sysstat_info *in, struct row_emitter *e)
{
	row_str(e, "kernel", in->kernel);
	for (unsigned i = 0; i < SYSSTAT_SYSCTL_N; i++)
		if (in->sysctl_have[i])
			row_u64(e, sysstat_sysctl_names[i], in->sysctl[i]);
		else
			row_absent(e, sysstat_sysctl_names[i]);
	known_u64(e, "mem_total_kb", in->mem_total_kb);
	known_u64(e, "dirty_threshold_kb", in->dirty_limit_kb);
	known_u64(e, "dirty_background_threshold_kb", in->dirty_bg_limit_kb);
	row_end(e);
}

/* "0 B", "512 B", "4.0 KiB", "64.0 MiB", "1.50 GiB" */
static void human_bytes(double b, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	const char *sign = b < 0 ? "-" : "";
	unsigned u = 0;

	if (b < 0)
		b = -b;
	if (b < 1024) {
		snprintf(buf, len, "%s%.0f B", sign, b);
		return;
	}
	b /= 1024;
	while (b >= 1024 && u < 3) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, b < 10 ? "%s%.2f %s" : "%s%.1f %s", sign, b,
		 unit[u]);
}

void sysstat_info_print(const struct sysstat_info *in, FILE *f)
{
	char a[32], b[32];
	const char *sep = "sysctl:";

	fprintf(f, "system: kernel %s", in->kernel[0] ? in->kernel : "unknown");
	if (in->mem_total_kb) {
		human_bytes((double)in->mem_total_kb * 1024, a, sizeof(a));
		fprintf(f, ", RAM %s", a);
	}
	if (in->dirty_limit_kb && in->dirty_bg_limit_kb) {
		human_bytes((double)in->dirty_limit_kb * 1024, a, sizeof(a));
		human_bytes((double)in->dirty_bg_limit_kb * 1024, b,
			    sizeof(b));
		fprintf(f, "; dirty pages now limited to %s, background "
			"writeback from %s", a, b);
	}
	fputc('\n', f);
	for (unsigned i = 0; i < SYSSTAT_SYSCTL_N; i++) {
		if (!in->sysctl_have[i])
			continue;
		fprintf(f, "%s %s=%llu", sep, sysstat_sysctl_names[i],
			(unsigned long long)in->sysctl[i]);
		sep = "";
	}
	if (!*sep)
		fputc('\n', f);
}

/* ---- one job's delta in the normal output ---- */

struct line {
	char buf[1024];
	size_t used;
	const char *sep;		/* before the next item */
};

__attribute__((format(printf, 2, 3)))
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->used >= sizeof(l->buf))
		return;
	n = snprintf(l->buf + l->used, sizeof(l->buf) - l->used, "%s",
		     l->sep);
	if (n > 0)
		l->used += (size_t)n;
	if (l->used >= sizeof(l->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->used, sizeof(l->buf) - l->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n;
	l->sep = ", ";
}

static void add_vm_bytes(struct line *l, const struct sysstat_delta *d,
			 enum sysstat_vm_key k, const char *label)
{
	double kb = (double)d->vm[k];
	char a[32];

	if (!d->vm_have[k])
		return;
	if (strcmp(sysstat_vm_keys[k].unit, "KiB"))
		kb *= (double)sysstat_page_kb();
	human_bytes(kb * 1024, a, sizeof(a));
	add(l, "%s %s", label, a);
}

static void add_vm_count(struct line *l, const struct sysstat_delta *d,
			 enum sysstat_vm_key k, const char *label)
{
	if (d->vm_have[k])
		add(l, "%s %lld", label, (long long)d->vm[k]);
}

static void add_mem(struct line *l, const struct sysstat_delta *d,
		    enum sysstat_mem_key k)
{
	char a[32], b[32];

	if (!d->mem_have[k])
		return;
	human_bytes((double)d->mem_end_kb[k] * 1024, a, sizeof(a));
	human_bytes((double)d->mem_kb[k] * 1024, b, sizeof(b));
	add(l, "%s %s (%s%s)", sysstat_mem_keys[k].name, a,
	    d->mem_kb[k] >= 0 ? "+" : "", b);
}

static void flush_line(struct line *l, const char *indent, FILE *f)
{
	if (l->used)
		fprintf(f, "%s%s\n", indent, l->buf);
	l->used = 0;
	l->buf[0] = '\0';
	l->sep = "";
}

void sysstat_delta_print(const struct sysstat *s,
			 const struct sysstat_delta *d, int devidx,
			 const char *indent, FILE *f)
{
	struct line l = { .used = 0, .sep = "vmstat: " };

	add_vm_bytes(&l, d, SV_PGPGIN, "pgpgin");
	add_vm_bytes(&l, d, SV_PGPGOUT, "pgpgout");
	add_vm_count(&l, d, SV_PGFAULT, "faults");
	add_vm_count(&l, d, SV_PGMAJFAULT, "major faults");
	add_vm_bytes(&l, d, SV_NR_DIRTIED, "dirtied");
	add_vm_bytes(&l, d, SV_NR_WRITTEN, "written back");
	add_vm_bytes(&l, d, SV_PSWPIN, "swapped in");
	add_vm_bytes(&l, d, SV_PSWPOUT, "swapped out");
	add_vm_bytes(&l, d, SV_PGSTEAL_DIRECT, "reclaimed directly");
	add_vm_bytes(&l, d, SV_WORKINGSET_REFAULT_FILE, "refaulted");
	flush_line(&l, indent, f);

	l.sep = "meminfo at end: ";
	add_mem(&l, d, SM_CACHED);
	add_mem(&l, d, SM_DIRTY);
	add_mem(&l, d, SM_WRITEBACK);
	add_mem(&l, d, SM_MEMAVAILABLE);
	flush_line(&l, indent, f);

	if (devidx >= 0 && (unsigned)devidx < d->ndev &&
	    (unsigned)devidx < s->ndev && d->dev[devidx].have) {
		const struct sysstat_devdelta *dd = &d->dev[devidx];
		char r[32], w[32];

		human_bytes((double)dd->rd_kb * 1024, r, sizeof(r));
		human_bytes((double)dd->wr_kb * 1024, w, sizeof(w));
		fprintf(f, "%s%s: read %s in %llu IOs, wrote %s in %llu IOs; "
			"util %.1f%%, aqu-sz %.2f, r_await %.2f ms, "
			"w_await %.2f ms\n", indent, s->dev[devidx].name, r,
			(unsigned long long)dd->rd_ios, w,
			(unsigned long long)dd->wr_ios, dd->util_pct,
			dd->aqu_sz, dd->r_await_ms, dd->w_await_ms);
	}
}


void sysstat_mount_describe(const struct sysstat *s,
			    const struct sysstat_mount *m, char *buf,
			    size_t len)
{
	const char *fs = m->fstype[0] ? m->fstype : "unknown file system";
	const char *at = m->mnt[0] ? " at " : "";
	const struct sysstat_devinfo *di;

	if (m->devidx < 0 || (unsigned)m->devidx >= s->ndev) {
		snprintf(buf, len, "%s%s%s, no block device", fs, at, m->mnt);
		return;
	}
	di = &s->dev[m->devidx];
	if (strcmp(di->name, di->disk))
		snprintf(buf, len, "%s on %s (%s, a partition of %s)%s%s", fs,
			 m->source[0] ? m->source : "?", di->name, di->disk,
			 at, m->mnt);
	else
		snprintf(buf, len, "%s on %s (%s)%s%s", fs,
			 m->source[0] ? m->source : "?", di->name, at, m->mnt);
}
