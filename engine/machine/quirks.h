/*
 * quirks.h - what this host does that changes memory and I/O results,
 * found at the start of a run by reading sysfs and by short probes
 * (a fraction of a second in all), so that the report can name it:
 *
 *   - the host taking free memory back (free page reporting, a balloon):
 *     named from sysfs, and its cost measured by faulting in memory that
 *     was free for a while against memory freed a moment before
 *     (memprobe.h); a run that finds it warms each phase's memory first
 *     (run/isolate.h);
 *   - transparent huge pages: the mode and the defrag setting;
 *   - the cost of a 4 KiB page fault;
 *   - what each cache-line flush instruction does to the line
 *     (cacheflush.h);
 *   - a disk much faster than its type allows (a virtual disk served
 *     from the host's cache): probed only for devices that jobs read or
 *     write with direct I/O (quirks_probe_device).
 *
 * The judgements (quirks_judge_memory, quirks_judge_device, and
 * flush_judge) are pure functions of the figures, and the sysfs reads
 * take a root directory, so tests feed both.
 */
#ifndef MEMJOB_QUIRKS_H
#define MEMJOB_QUIRKS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cacheflush.h"
#include "machine/memprobe.h"

#define QUIRKS_MAX_DEVS	8
#define QUIRKS_MAX_BLOCKS	512	/* 2 MiB blocks of the memory probe */

/* The host taking free memory back, and what that costs. */
struct mem_return {
	/* from sysfs */
	bool reporting;			/* free page reporting is on */
	char how[128];			/* "virtio-balloon free page
					   reporting, blocks of 2 MiB" */
	unsigned order;			/* page_reporting_order (0: unknown) */
	uint64_t reported;		/* bytes reported so far, where the
					   kernel counts them (0: not) */
	uint64_t balloon;		/* bytes a balloon holds now */
	/* the probe: fresh memory touched 2 MiB block by block (cold),
	 * then memory just freed (warm) */
	bool probed;
	char why[96];			/* !probed: the reason */
	unsigned nblocks;
	double block_ns[QUIRKS_MAX_BLOCKS];	/* each cold block's time */
	struct touch_cost warm;
	/* quirks_judge_memory */
	double fresh_ns;		/* a block just freed (warm) */
	unsigned returned;		/* cold blocks the host had taken */
	double returned_ns;		/* their mean time */
	bool costly;			/* blocks the host had taken seen */
	double extra_s_per_gib;		/* what they cost more, per GiB */
};

struct thp_mode {
	bool have;
	char enabled[24], defrag[24];	/* the [chosen] words */
};

struct dev_quirk {
	char name[32];			/* "vda" */
	char driver[32];		/* "virtio_blk"; "" unknown */
	int rotational;			/* 1, 0; -1 unknown */
	bool probed;
	char why[128];			/* !probed: the reason */
	bool read_existing;		/* read the job's own file */
	unsigned reads;
	double median_us;		/* O_DIRECT 4 KiB random reads */
	bool fast;			/* quirks_judge_device */
};

struct machine_quirks {
	bool probed;			/* quirks_probe ran */
	uint64_t probe_ns;		/* what the probes took */
	struct mem_return ret;
	struct thp_mode thp;
	bool have_fault;
	double fault_ns;		/* one 4 KiB page fault */
	struct flush_probe flush;
	unsigned ndev;
	struct dev_quirk dev[QUIRKS_MAX_DEVS];
};

/*
 * Probe this machine, its sysfs read below root ("" or NULL: "/"):
 * memory, huge pages, page faults, flush instructions.  llc is the last
 * level cache's size in bytes (0: unknown), which sizes the buffer that
 * evicts the flush probe's reference lines.
 */
void quirks_probe(struct machine_quirks *q, const char *root, uint64_t llc);
/* Free page reporting and balloons, from the sysfs below root. */
void quirks_read_return(struct mem_return *r, const char *root);
/* Transparent huge pages' mode, from the sysfs below root. */
void quirks_read_thp(struct thp_mode *t, const char *root);
/* Which of the memory probe's cold blocks (r->block_ns) the host had
 * taken back: those that took three times a block just freed (r->warm)
 * and 0.1 ms more; sets fresh_ns, returned, returned_ns, and, when two or
 * more were, costly and what they cost more per GiB. */
void quirks_judge_memory(struct mem_return *r);
/* Whether the host takes free memory back: named in sysfs, or seen. */
bool quirks_host_takes_memory(const struct machine_quirks *q);

/*
 * The device name (its disk, as sysfs names it: "vda") behind path, a
 * file a job reads or writes with O_DIRECT (or one to be made in an
 * existing directory): its driver and rotational flag from the sysfs
 * below root, and the median latency of O_DIRECT 4 KiB random reads, of
 * path itself when it exists (read only) or else of a nameless 8 MiB file
 * written in its directory and gone when closed.  Once per device.
 */
void quirks_probe_device(struct machine_quirks *q, const char *name,
			 const char *path, const char *root);
/* Whether reads at median_us are far faster than a device of this kind
 * can serve them from its medium (rotational: 1, 0 or -1 unknown). */
bool quirks_judge_device(const char *name, int rotational,
			 double median_us);

#endif
