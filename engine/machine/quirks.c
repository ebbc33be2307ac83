/*
 * quirks.c - the host's quirks: sysfs read, probes run, figures judged
 * (see quirks.h; the disk's probe is in quirks_dev.c).
 *
 * The memory probe touches fresh memory with huge pages, one 2 MiB block
 * at a time: on a guest whose host takes free memory back, a block the
 * host took must be handed back page by page, and takes many times as
 * long as one the guest still had.  Memory freed a moment before comes
 * first from the free lists, so the touch goes on (within a budget)
 * until it has met a few blocks of the other kind.  Then it unmaps them
 * and touches memory again at once, which gets blocks just freed: the
 * time of a block of memory that is the guest's, against which each
 * first block is judged.  Huge pages, because the host is told about
 * free blocks of 2 MiB or more: small faults mostly take pages the guest
 * never gave away.  The second mapping then serves the flush probe as the
 * buffer that evicts its reference lines, and a last touch of 4 KiB pages
 * gives the cost of one page fault.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/quirks.h"
#include "util/clock.h"
#include "util/sysfile.h"
#include "util/value.h"

/* virtio-balloon's feature bits (virtio spec, 5.5.3) */
#define VIRTIO_BALLOON_F_REPORTING	5

#define PROBE_MIN	(16ull << 20)
#define PROBE_MAX	(128ull << 20)
#define FAULT_PROBE	(4ull << 20)
/* the cold touch: at least this many 2 MiB blocks, then on until it has
 * met ENOUGH_SLOW blocks the host had taken, or COLD_BUDGET_NS is spent */
#define MIN_BLOCKS	32
#define ENOUGH_SLOW	8
#define COLD_BUDGET_NS	150000000ull
/* a block the host had taken costs at least this much more */
#define SLOW_BLOCK_NS	100000.0

/* The [chosen] word of a sysfs choice list ("always [madvise] never"). */
static int chosen_word(const char *root, const char *file, char *out,
		       size_t len)
{
	char path[512], text[256], *open_b, *close_b;

	if (sysfile_path(path, sizeof(path), root, "%s", file) ||
	    sysfile_text(path, text, sizeof(text)))
		return -1;
	open_b = strchr(text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b)
		return -1;
	snprintf(out, len, "%.*s", (int)(close_b - open_b - 1), open_b + 1);
	return 0;
}

void quirks_read_thp(struct thp_mode *t, const char *root)
{
	memset(t, 0, sizeof(*t));
	t->have = !chosen_word(root, "/sys/kernel/mm/transparent_hugepage/"
			       "enabled", t->enabled, sizeof(t->enabled)) &&
		  !chosen_word(root, "/sys/kernel/mm/transparent_hugepage/"
			       "defrag", t->defrag, sizeof(t->defrag));
}

/* Whether a virtio balloon bound to its driver offers free page
 * reporting: its features file is one '0' or '1' per bit. */
static bool balloon_reports(const char *root, bool *bound)
{
	char dir[512], path[1024], bits[512];
	struct dirent *de;
	bool reports = false;
	DIR *d;

	*bound = false;
	if (sysfile_path(dir, sizeof(dir), root,
			 "/sys/bus/virtio/drivers/virtio_balloon"))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "virtio", 6))
			continue;
		*bound = true;
		if (snprintf(path, sizeof(path), "%s/%s/features", dir,
			     de->d_name) < (int)sizeof(path) &&
		    !sysfile_text(path, bits, sizeof(bits)) &&
		    strlen(bits) > VIRTIO_BALLOON_F_REPORTING &&
		    bits[VIRTIO_BALLOON_F_REPORTING] == '1')
			reports = true;
	}
	closedir(d);
	return reports;
}

/* nr_balloon_pages of ROOT/proc/vmstat, in bytes (0 when absent). */
static uint64_t balloon_bytes(const char *root)
{
	char path[512], line[128];
	unsigned long long pages = 0;
	FILE *f;

	if (sysfile_path(path, sizeof(path), root, "/proc/vmstat"))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nr_balloon_pages %llu", &pages) == 1)
			break;
	fclose(f);
	return pages * MEMPROBE_PAGE;
}

void quirks_read_return(struct mem_return *r, const char *root)
{
	char path[512];
	uint64_t v;
	bool bound;

	memset(r, 0, sizeof(*r));
	if (!sysfile_path(path, sizeof(path), root, "/sys/module/"
			  "page_reporting/parameters/page_reporting_order") &&
	    !sysfile_u64(path, &v) && v < 32)
		r->order = (unsigned)v;
	/* some kernels count what they reported: proof that it runs */
	if (!sysfile_path(path, sizeof(path), root, "/sys/module/"
			  "page_reporting/parameters/reported_kib") &&
	    !sysfile_u64(path, &v))
		r->reported = v * 1024;
	r->balloon = balloon_bytes(root);
	if (balloon_reports(root, &bound)) {
		r->reporting = true;
		snprintf(r->how, sizeof(r->how), "virtio-balloon free page "
			 "reporting");
	} else if (r->reported) {
		r->reporting = true;
		snprintf(r->how, sizeof(r->how), "free page reporting");
	} else if (bound) {
		snprintf(r->how, sizeof(r->how), "a virtio balloon (no free "
			 "page reporting)");
	}
	if (r->reporting && r->order) {
		char blk[32];
		size_t n = strlen(r->how);

		value_format_bytes((double)(MEMPROBE_PAGE << r->order), blk,
				   sizeof(blk));
		snprintf(r->how + n, sizeof(r->how) - n, ", free blocks of %s "
			 "and more", blk);
	}
}

void quirks_judge_memory(struct mem_return *r)
{
	double w, sum = 0;

	r->fresh_ns = 0;
	r->returned = 0;
	r->returned_ns = 0;
	r->costly = false;
	r->extra_s_per_gib = 0;
	if (!r->probed || !r->nblocks || r->warm.bytes < MEMPROBE_HUGE)
		return;
	w = (double)r->warm.ns * (double)MEMPROBE_HUGE / (double)r->warm.bytes;
	r->fresh_ns = w;
	for (unsigned i = 0; i < r->nblocks; i++)
		if (r->block_ns[i] >= 3 * w &&
		    r->block_ns[i] - w >= SLOW_BLOCK_NS) {
			r->returned++;
			sum += r->block_ns[i];
		}
	if (!r->returned)
		return;
	r->returned_ns = sum / r->returned;
	r->extra_s_per_gib = (r->returned_ns - w) / 1e9 *
			     (double)(1ull << 30) / (double)MEMPROBE_HUGE;
	/* one slow block may be a hiccup of the scheduler */
	r->costly = r->returned >= 2;
}

bool quirks_host_takes_memory(const struct machine_quirks *q)
{
	return q->probed && (q->ret.reporting || q->ret.costly);
}

/* Bytes for the warm touch: twice the LLC, so that its mapping can
 * evict the flush probe's lines, within bounds and a quarter of the free
 * memory.  0: too little free memory for a probe. */
static uint64_t probe_bytes(uint64_t llc, uint64_t free_mem)
{
	uint64_t want = llc ? 2 * llc : 4 * PROBE_MIN;

	if (want < PROBE_MIN)
		want = PROBE_MIN;
	if (want > PROBE_MAX)
		want = PROBE_MAX;
	if (free_mem && want > free_mem / 4)
		want = free_mem / 4 & ~(MEMPROBE_HUGE - 1);
	return want >= PROBE_MIN / 2 ? want : 0;
}

/* The cold touch goes on past its first MIN_BLOCKS blocks until it has
 * met a few the host had taken back (three times the quickest so far):
 * memory freed a moment before comes first from the free lists, and may
 * hide the rest. */
static bool enough_blocks(const double *ns, unsigned n, void *user)
{
	double least = ns[0];
	unsigned slow = 0;

	(void)user;
	if (n < MIN_BLOCKS)
		return false;
	for (unsigned i = 1; i < n; i++)
		if (ns[i] < least)
			least = ns[i];
	for (unsigned i = 0; i < n; i++)
		slow += ns[i] >= 3 * least && ns[i] - least >= SLOW_BLOCK_NS;
	return slow >= ENOUGH_SLOW;
}

static void probe_memory(struct machine_quirks *q, uint64_t llc)
{
	struct mem_return *r = &q->ret;
	uint64_t free_mem = memprobe_free();
	uint64_t bytes = probe_bytes(llc, free_mem);
	uint64_t cold = (uint64_t)QUIRKS_MAX_BLOCKS * MEMPROBE_HUGE;
	void *walk = NULL;

	if (free_mem && cold > free_mem / 4)
		cold = free_mem / 4;
	if (!bytes) {
		snprintf(r->why, sizeof(r->why), "too little free memory");
		snprintf(q->flush.why, sizeof(q->flush.why), "too little free "
			 "memory for the buffer that evicts its lines");
		return;
	}
	r->nblocks = memprobe_touch_blocks(cold, COLD_BUDGET_NS, r->block_ns,
					   enough_blocks, NULL);
	if (!r->nblocks || memprobe_touch(bytes, true, &r->warm, &walk)) {
		snprintf(r->why, sizeof(r->why), "could not map %llu MiB",
			 (unsigned long long)(bytes >> 20));
		snprintf(q->flush.why, sizeof(q->flush.why), "no buffer to "
			 "evict its lines with");
		return;
	}
	r->probed = true;
	quirks_judge_memory(r);
	if (llc && bytes < 2 * llc)
		snprintf(q->flush.why, sizeof(q->flush.why), "the last level "
			 "cache (%llu MiB) is too large to evict in a short "
			 "probe", (unsigned long long)(llc >> 20));
	else
		flush_probe(&q->flush, walk, bytes);
	memprobe_unmap(walk, bytes);
}

void quirks_probe(struct machine_quirks *q, const char *root, uint64_t llc)
{
	uint64_t t0 = mono_ns();
	struct touch_cost c;

	memset(q, 0, sizeof(*q));
	if (!root)
		root = "";
	quirks_read_return(&q->ret, root);
	quirks_read_thp(&q->thp, root);
	probe_memory(q, llc);
	if (!memprobe_touch(FAULT_PROBE, false, &c, NULL) && c.bytes) {
		q->have_fault = true;
		uint64_t pages = c.bytes / MEMPROBE_PAGE;	/* whole */

		q->fault_ns = (double)c.ns / (double)pages;
	}
	q->probed = true;
	q->probe_ns = mono_ns() - t0;
}
