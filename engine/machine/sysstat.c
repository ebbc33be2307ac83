/*
 * sysstat.c - system counters around a job (see sysstat.h): /proc/vmstat,
 * /proc/meminfo, a block device's stat, the page-cache sysctls, and
 * dropping the page cache.  sysstat_mount.c finds a file's device,
 * sysstat_print.c prints, sysstat_sampler.c samples over time.
 *
 * The one idea: a snapshot never fails on a missing key.  Kernels add and
 * rename vmstat keys all the time (workingset_refault became
 * workingset_refault_file in 5.9, nr_throttled_written came in 5.16), so
 * each value carries a "have" flag, and a delta is known only where both
 * snapshots had it.
 */
#include "machine/sysstat.h"
#include "machine/sysstat_int.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct sysstat_key sysstat_vm_keys[SYSSTAT_VM_N] = {
	[SV_PGPGIN]		= { "pgpgin", true, "KiB" },
	[SV_PGPGOUT]		= { "pgpgout", true, "KiB" },
	[SV_PGFAULT]		= { "pgfault", true, "events" },
	[SV_PGMAJFAULT]		= { "pgmajfault", true, "events" },
	[SV_PSWPIN]		= { "pswpin", true, "pages" },
	[SV_PSWPOUT]		= { "pswpout", true, "pages" },
	[SV_NR_DIRTIED]		= { "nr_dirtied", true, "pages" },
	[SV_NR_WRITTEN]		= { "nr_written", true, "pages" },
	[SV_NR_THROTTLED_WRITTEN] = { "nr_throttled_written", true, "pages" },
	[SV_PGSCAN_KSWAPD]	= { "pgscan_kswapd", true, "pages" },
	[SV_PGSCAN_DIRECT]	= { "pgscan_direct", true, "pages" },
	[SV_PGSTEAL_KSWAPD]	= { "pgsteal_kswapd", true, "pages" },
	[SV_PGSTEAL_DIRECT]	= { "pgsteal_direct", true, "pages" },
	[SV_WORKINGSET_REFAULT_FILE] = { "workingset_refault_file", true,
					 "pages" },
	[SV_NR_DIRTY]		= { "nr_dirty", false, "pages" },
	[SV_NR_WRITEBACK]	= { "nr_writeback", false, "pages" },
	[SV_NR_DIRTY_THRESHOLD]	= { "nr_dirty_threshold", false, "pages" },
	[SV_NR_DIRTY_BACKGROUND_THRESHOLD] = {
		"nr_dirty_background_threshold", false, "pages" },
};

const struct sysstat_key sysstat_mem_keys[SYSSTAT_MEM_N] = {
	[SM_MEMTOTAL]		= { "MemTotal", false, "KiB" },
	[SM_MEMFREE]		= { "MemFree", false, "KiB" },
	[SM_MEMAVAILABLE]	= { "MemAvailable", false, "KiB" },
	[SM_BUFFERS]		= { "Buffers", false, "KiB" },
	[SM_CACHED]		= { "Cached", false, "KiB" },
	[SM_DIRTY]		= { "Dirty", false, "KiB" },
	[SM_WRITEBACK]		= { "Writeback", false, "KiB" },
};

const char *const sysstat_sysctl_names[SYSSTAT_SYSCTL_N] = {
	[SC_DIRTY_RATIO]		= "vm.dirty_ratio",
	[SC_DIRTY_BACKGROUND_RATIO]	= "vm.dirty_background_ratio",
	[SC_DIRTY_BYTES]		= "vm.dirty_bytes",
	[SC_DIRTY_BACKGROUND_BYTES]	= "vm.dirty_background_bytes",
	[SC_DIRTY_EXPIRE_CENTISECS]	= "vm.dirty_expire_centisecs",
	[SC_DIRTY_WRITEBACK_CENTISECS]	= "vm.dirty_writeback_centisecs",
	[SC_SWAPPINESS]			= "vm.swappiness",
};

void sysstat_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* A decimal number at s (blanks before it skipped); -1 if none. */
static int parse_u64(const char *s, uint64_t *out, const char **end)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &e, 10);
	if (errno)
		return -1;
	if (end)
		*end = e;
	return 0;
}

/*
 * "name value" (vmstat) or "Name:   value kB" (meminfo) lines: the keys
 * found get their value and have flag.  -1 with errno if unreadable.
 */
static int read_keyed(const char *path, const struct sysstat_key *keys,
		      unsigned nkeys, uint64_t *vals, bool *have)
{
	char line[SYSSTAT_LINE_LEN];
	FILE *f;

	memset(have, 0, nkeys * sizeof(*have));
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, " \t:\n");
		const char *v = line + n;
		uint64_t x;

		if (!strchr(line, '\n') && !feof(f)) {
			int c;	/* a line too long for us: not one we follow */

			while ((c = getc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (*v == ':')
			v++;
		if (parse_u64(v, &x, NULL))
			continue;
		for (unsigned k = 0; k < nkeys; k++) {
			if (strlen(keys[k].name) == n &&
			    !memcmp(keys[k].name, line, n)) {
				vals[k] = x;
				have[k] = true;
				break;
			}
		}
	}
	fclose(f);
	return 0;
}

static void read_devstat(const struct sysstat *s,
			 const struct sysstat_devinfo *di,
			 struct sysstat_devstat *ds)
{
	char path[PATH_MAX], buf[SYSSTAT_LINE_LEN];
	uint64_t v[17] = { 0 };
	const char *p = buf;
	unsigned n = 0;

	memset(ds, 0, sizeof(*ds));
	if (sysfile_path(path, sizeof(path), s->root,
			  "/sys/dev/block/%u:%u/stat", di->major, di->minor) ||
	    sysfile_text(path, buf, sizeof(buf)))
		return;
	while (n < 17 && !parse_u64(p, &v[n], &p))
		n++;
	if (n < 11)
		return;
	ds->have = true;
	ds->nfields = n;
	ds->rd_ios = v[0];
	ds->rd_merges = v[1];
	ds->rd_sectors = v[2];
	ds->rd_ticks = v[3];
	ds->wr_ios = v[4];
	ds->wr_merges = v[5];
	ds->wr_sectors = v[6];
	ds->wr_ticks = v[7];
	ds->in_flight = v[8];
	ds->io_ticks = v[9];
	ds->time_in_queue = v[10];
	ds->dc_ios = v[11];
	ds->dc_merges = v[12];
	ds->dc_sectors = v[13];
	ds->dc_ticks = v[14];
	ds->fl_ios = v[15];
	ds->fl_ticks = v[16];
}

int sysstat_init(struct sysstat *s, const char *root, char *err,
		 size_t errlen)
{
	char path[PATH_MAX];
	size_t n;
	FILE *f;

	memset(s, 0, sizeof(*s));
	if (!root)
		root = "/";
	n = strlen(root);
	while (n && root[n - 1] == '/')
		n--;
	if (n >= sizeof(s->root)) {
		sysstat_set_err(err, errlen, "system root '%s': %s", root,
				strerror(ENAMETOOLONG));
		return -1;
	}
	memcpy(s->root, root, n);
	s->root[n] = '\0';
	if (sysfile_path(path, sizeof(path), s->root, "/proc/vmstat"))
		goto fail;
	f = fopen(path, "re");
	if (!f)
		goto fail;
	fclose(f);
	return 0;
fail:
	sysstat_set_err(err, errlen, "cannot read %s/proc/vmstat: %s",
			s->root, strerror(errno));
	return -1;
}

int sysstat_snap(const struct sysstat *s, struct sysstat_snap *out)
{
	char path[PATH_MAX];
	int vm_ok = -1, mem_ok = -1;

	memset(out, 0, sizeof(*out));
	out->t_ns = mono_ns();
	if (!sysfile_path(path, sizeof(path), s->root, "/proc/vmstat"))
		vm_ok = read_keyed(path, sysstat_vm_keys, SYSSTAT_VM_N,
				   out->vm, out->vm_have);
	if (!sysfile_path(path, sizeof(path), s->root, "/proc/meminfo"))
		mem_ok = read_keyed(path, sysstat_mem_keys, SYSSTAT_MEM_N,
				    out->mem_kb, out->mem_have);
	out->ndev = s->ndev;
	for (unsigned i = 0; i < s->ndev; i++)
		read_devstat(s, &s->dev[i], &out->dev[i]);
	return vm_ok && mem_ok ? -1 : 0;
}

static uint64_t sub_counter(uint64_t after, uint64_t before)
{
	return after >= before ? after - before : 0;
}

/* The kernel prints the *_ticks fields as 32-bit milliseconds: they wrap
 * after 49.7 days. */
static uint64_t sub_ticks(uint64_t after, uint64_t before)
{
	if (after >= before)
		return after - before;
	if (before <= UINT32_MAX)
		return (uint32_t)(after - before);
	return 0;
}

static void dev_delta(const struct sysstat_devstat *a,
		      const struct sysstat_devstat *b, uint64_t ns,
		      struct sysstat_devdelta *d)
{
	double ms = (double)ns / 1e6;
	uint64_t rd_ms = sub_ticks(b->rd_ticks, a->rd_ticks);
	uint64_t wr_ms = sub_ticks(b->wr_ticks, a->wr_ticks);

	memset(d, 0, sizeof(*d));
	if (!a->have || !b->have)
		return;
	d->have = true;
	d->rd_ios = sub_counter(b->rd_ios, a->rd_ios);
	d->wr_ios = sub_counter(b->wr_ios, a->wr_ios);
	/* Sectors are 512 bytes whatever the device's block size. */
	d->rd_kb = sub_counter(b->rd_sectors, a->rd_sectors) / 2;
	d->wr_kb = sub_counter(b->wr_sectors, a->wr_sectors) / 2;
	d->dc_kb = sub_counter(b->dc_sectors, a->dc_sectors) / 2;
	d->io_ms = sub_ticks(b->io_ticks, a->io_ticks);
	if (ms > 0) {
		d->util_pct = (double)d->io_ms / ms * 100;
		if (d->util_pct > 100)
			d->util_pct = 100;	/* as sar caps it */
		d->aqu_sz = (double)sub_ticks(b->time_in_queue,
					      a->time_in_queue) / ms;
	}
	if (d->rd_ios)
		d->r_await_ms = (double)rd_ms / (double)d->rd_ios;
	if (d->wr_ios)
		d->w_await_ms = (double)wr_ms / (double)d->wr_ios;
}

void sysstat_delta(const struct sysstat_snap *a, const struct sysstat_snap *b,
		   struct sysstat_delta *d)
{
	memset(d, 0, sizeof(*d));
	d->ns = sub_counter(b->t_ns, a->t_ns);
	for (unsigned k = 0; k < SYSSTAT_VM_N; k++) {
		d->vm_have[k] = a->vm_have[k] && b->vm_have[k];
		if (!d->vm_have[k])
			continue;
		d->vm_end[k] = b->vm[k];
		if (sysstat_vm_keys[k].counter)
			d->vm[k] = (int64_t)sub_counter(b->vm[k], a->vm[k]);
		else
			d->vm[k] = (int64_t)(b->vm[k] - a->vm[k]);
	}
	for (unsigned k = 0; k < SYSSTAT_MEM_N; k++) {
		d->mem_have[k] = a->mem_have[k] && b->mem_have[k];
		if (!d->mem_have[k])
			continue;
		d->mem_end_kb[k] = b->mem_kb[k];
		d->mem_kb[k] = (int64_t)(b->mem_kb[k] - a->mem_kb[k]);
	}
	d->ndev = a->ndev < b->ndev ? a->ndev : b->ndev;
	for (unsigned i = 0; i < d->ndev; i++)
		dev_delta(&a->dev[i], &b->dev[i], d->ns, &d->dev[i]);
}

/* ---- the run header ---- */

uint64_t sysstat_page_kb(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)ps / 1024 : 4;
}

/* ROOT/proc/sys/vm/dirty_ratio for "vm.dirty_ratio": sysctl(8)'s dots
 * are the directories below /proc/sys.  0, or -1 when it does not fit. */
static int sysctl_path(char *buf, size_t len, const char *root,
		       const char *name)
{
	char *p;

	if (sysfile_path(buf, len, root, "/proc/sys/%s", name))
		return -1;
	for (p = buf + strlen(buf) - strlen(name); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

void sysstat_info(const struct sysstat *s, struct sysstat_info *out)
{
	char path[PATH_MAX];
	struct sysstat_snap snap;

	memset(out, 0, sizeof(*out));
	if (!sysfile_path(path, sizeof(path), s->root,
			   "/proc/sys/kernel/osrelease") &&
	    sysfile_text(path, out->kernel, sizeof(out->kernel)))
		out->kernel[0] = '\0';
	for (unsigned i = 0; i < SYSSTAT_SYSCTL_N; i++)
		out->sysctl_have[i] =
			!sysctl_path(path, sizeof(path), s->root,
				     sysstat_sysctl_names[i]) &&
			!sysfile_u64(path, &out->sysctl[i]);
	sysstat_snap(s, &snap);
	if (snap.mem_have[SM_MEMTOTAL])
		out->mem_total_kb = snap.mem_kb[SM_MEMTOTAL];
	if (snap.vm_have[SV_NR_DIRTY_THRESHOLD])
		out->dirty_limit_kb = snap.vm[SV_NR_DIRTY_THRESHOLD] *
				      sysstat_page_kb();
	if (snap.vm_have[SV_NR_DIRTY_BACKGROUND_THRESHOLD])
		out->dirty_bg_limit_kb =
			snap.vm[SV_NR_DIRTY_BACKGROUND_THRESHOLD] *
			sysstat_page_kb();
}

/* ---- dropping the page cache ---- */

int sysstat_may_drop_caches(char *err, size_t errlen)
{
	const char *path = "/proc/sys/vm/drop_caches";

	if (geteuid() != 0) {
		sysstat_set_err(err, errlen, "dropping the page cache needs "
				"root (memjob runs as uid %u)",
				(unsigned)geteuid());
		return -1;
	}
	if (access(path, W_OK)) {
		sysstat_set_err(err, errlen, "memjob cannot drop the page "
				"cache here: %s is not writable: %s%s", path,
				strerror(errno), errno == EROFS ? " (a container "
				"mounts /proc/sys read-only)" : "");
		return -1;
	}
	return 0;
}

int sysstat_drop_caches(const struct sysstat *s, char *err, size_t errlen)
{
	char path[PATH_MAX] = "";
	int fd, saved;

	if (sysfile_path(path, sizeof(path), s->root,
			  "/proc/sys/vm/drop_caches"))
		goto fail;
	sync();
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (write(fd, "3", 1) != 1) {
		saved = errno;
		close(fd);
		errno = saved;
		goto fail;
	}
	if (close(fd))
		goto fail;
	return 0;
fail:
	if (errno == EACCES || errno == EPERM)
		sysstat_set_err(err, errlen, "dropping the page cache needs "
				"root: writing %s: %s", path, strerror(errno));
	else
		sysstat_set_err(err, errlen, "cannot drop the page cache: "
				"writing %s: %s", path, strerror(errno));
	return -1;
}
