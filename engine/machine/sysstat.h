/*
 * sysstat.h - system counters around a job: /proc/vmstat, /proc/meminfo
 * and the block device behind a job's file, as sar -B, sar -r and sar -d
 * show them; the page-cache tunables for the run header; dropping the
 * page cache.
 *
 * A snapshot reads every counter at one instant (CLOCK_MONOTONIC, the
 * clock of struct thread_result); the delta of two snapshots is what the
 * job did to the system.  Counters (pgpgin, pgfault...) are reported as
 * after - before; gauges (nr_dirty, Dirty, Cached...) as the value at the
 * end and its change.  A key this kernel does not have is flagged in the
 * *_have arrays and must be shown as unknown, never as 0.  All counters
 * are system-wide: jobs running at the same time share them.
 *
 * Files are read below a root ("/" on a real run, MEMJOB_SYSROOT in the
 * tests, as for topology.h):
 *
 *	ROOT/proc/vmstat, ROOT/proc/meminfo
 *	ROOT/proc/sys/vm/{dirty_*,swappiness,drop_caches}
 *	ROOT/proc/sys/kernel/osrelease
 *	ROOT/proc/self/mountinfo
 *	ROOT/sys/dev/block/MAJ:MIN/{stat,uevent,partition} (a symlink into
 *		/sys/devices on a real system; a plain directory also works)
 *	ROOT/sys/class/block/NAME/dev (only when a file system's st_dev is
 *		not a block device, e.g. btrfs: the mount source is used)
 */
#ifndef MEMJOB_SYSSTAT_H
#define MEMJOB_SYSSTAT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/row.h"

/*
 * The /proc/vmstat keys followed.  Counters first, then gauges.
 *   pgpgin, pgpgout	KiB read from / written to block devices (sar -B)
 *   pgfault, pgmajfault	page faults, and those that needed I/O
 *   pswpin, pswpout	pages swapped in and out (files past RAM)
 *   nr_dirtied, nr_written	pages dirtied, and written back: the page
 *			cache's write rate, whatever the device
 *   nr_throttled_written	pages written back while reclaim was
 *			throttled waiting on writeback (5.16 and later)
 *   pgscan_*, pgsteal_*	reclaim scanning and reclaiming by kswapd and
 *			by the allocating task itself (direct: a stall)
 *   workingset_refault_file	evicted file pages read again (thrashing;
 *			5.9 and later)
 *   nr_dirty, nr_writeback	dirty pages now, and pages under writeback
 *   nr_dirty_threshold, nr_dirty_background_threshold  the limits (pages)
 *			that vm.dirty_ratio and vm.dirty_background_ratio
 *			(or *_bytes) come to now: past the first, writers are
 *			throttled (balance_dirty_pages) to the device's speed
 */
enum sysstat_vm_key {
	SV_PGPGIN,
	SV_PGPGOUT,
	SV_PGFAULT,
	SV_PGMAJFAULT,
	SV_PSWPIN,
	SV_PSWPOUT,
	SV_NR_DIRTIED,
	SV_NR_WRITTEN,
	SV_NR_THROTTLED_WRITTEN,
	SV_PGSCAN_KSWAPD,
	SV_PGSCAN_DIRECT,
	SV_PGSTEAL_KSWAPD,
	SV_PGSTEAL_DIRECT,
	SV_WORKINGSET_REFAULT_FILE,
	SV_NR_DIRTY,			/* the first gauge */
	SV_NR_WRITEBACK,
	SV_NR_DIRTY_THRESHOLD,
	SV_NR_DIRTY_BACKGROUND_THRESHOLD,
	SYSSTAT_VM_N
};

/* The /proc/meminfo keys followed, all gauges in KiB. */
enum sysstat_mem_key {
	SM_MEMTOTAL,
	SM_MEMFREE,
	SM_MEMAVAILABLE,
	SM_BUFFERS,
	SM_CACHED,
	SM_DIRTY,
	SM_WRITEBACK,
	SYSSTAT_MEM_N
};

/* The vm sysctls of the run header, in this order. */
enum sysstat_sysctl {
	SC_DIRTY_RATIO,
	SC_DIRTY_BACKGROUND_RATIO,
	SC_DIRTY_BYTES,
	SC_DIRTY_BACKGROUND_BYTES,
	SC_DIRTY_EXPIRE_CENTISECS,
	SC_DIRTY_WRITEBACK_CENTISECS,
	SC_SWAPPINESS,
	SYSSTAT_SYSCTL_N
};

struct sysstat_key {
	const char *name;		/* as in the kernel's file */
	bool counter;			/* false: a gauge */
	const char *unit;		/* "KiB", "pages", "events" */
};

extern const struct sysstat_key sysstat_vm_keys[SYSSTAT_VM_N];
extern const struct sysstat_key sysstat_mem_keys[SYSSTAT_MEM_N];
/* "vm.dirty_ratio"...: as sysctl(8) names them (and memjob prints them);
 * the files are ROOT/proc/sys/vm/dirty_ratio... */
extern const char *const sysstat_sysctl_names[SYSSTAT_SYSCTL_N];

#define SYSSTAT_MAX_DEVS	16	/* block devices followed */

/* A device followed: registered by sysstat_device_of. */
struct sysstat_devinfo {
	unsigned major, minor;
	char name[32];			/* "vda", "sda1", "nvme0n1", "dm-0" */
	char disk[32];			/* a partition's disk, else name */
};

struct sysstat {
	char root[PATH_MAX];		/* without a trailing '/': "" is "/" */
	unsigned ndev;
	struct sysstat_devinfo dev[SYSSTAT_MAX_DEVS];
};

/*
 * ROOT/sys/dev/block/M:m/stat (Documentation/block/stat.rst).  Kernels
 * before 4.18 have 11 fields, before 5.5 15: the discard and flush fields
 * are then 0 and nfields says so.
 */
struct sysstat_devstat {
	bool have;			/* the file was read */
	unsigned nfields;
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;	/* ticks in ms */
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
};

struct sysstat_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	uint64_t vm[SYSSTAT_VM_N];
	bool vm_have[SYSSTAT_VM_N];
	uint64_t mem_kb[SYSSTAT_MEM_N];
	bool mem_have[SYSSTAT_MEM_N];
	unsigned ndev;			/* = the sysstat's at the time */
	struct sysstat_devstat dev[SYSSTAT_MAX_DEVS];
};

/* One device over an interval, the fields of sar -d. */
struct sysstat_devdelta {
	bool have;			/* read in both snapshots */
	uint64_t rd_ios, wr_ios;
	uint64_t rd_kb, wr_kb, dc_kb;
	uint64_t io_ms;			/* time with I/O in flight */
	double util_pct;		/* io_ms / wall time, at most 100 */
	double aqu_sz;			/* average queue size */
	double r_await_ms, w_await_ms;	/* per I/O; 0 without I/O */
};

struct sysstat_delta {
	uint64_t ns;			/* wall time between the snapshots */
	/* Counters: after - before, never negative.  Gauges: the change. */
	int64_t vm[SYSSTAT_VM_N];
	uint64_t vm_end[SYSSTAT_VM_N];	/* the value in the second snapshot */
	bool vm_have[SYSSTAT_VM_N];	/* present in both */
	int64_t mem_kb[SYSSTAT_MEM_N];
	uint64_t mem_end_kb[SYSSTAT_MEM_N];
	bool mem_have[SYSSTAT_MEM_N];
	unsigned ndev;
	struct sysstat_devdelta dev[SYSSTAT_MAX_DEVS];
};

/* What sysstat_device_of found out about a path. */
struct sysstat_mount {
	char fstype[32];		/* "ext4", "tmpfs"; "" unknown */
	char source[256];		/* "/dev/vda", "tmpfs"; "" unknown */
	char mnt[PATH_MAX];		/* the mount point; "" unknown */
	int devidx;			/* into sysstat.dev and snap.dev; -1 */
};

/*
 * Follow the system below root ("/", or NULL for "/").  Fails, with a
 * sentence in err, only when ROOT/proc/vmstat cannot be read.
 */
int sysstat_init(struct sysstat *s, const char *root, char *err,
		 size_t errlen);

/*
 * The block device and file system behind path (a file, or one yet to be
 * created in an existing directory).  The device is registered, so that
 * every later snapshot reads its stat, and its index is returned (the same
 * index for the same device).  -1 when the file system has no block device
 * (tmpfs, overlay, NFS) or on error, with a sentence in err such as
 * "no block device behind /dev/shm/x (tmpfs)"; m is filled as far as
 * known in any case.  Not to be called while a sampler runs.
 */
int sysstat_device_of(struct sysstat *s, const char *path,
		      struct sysstat_mount *m, char *err, size_t errlen);
/* The same for a file on device major:minor at the absolute, canonical
 * path (the mount point is the longest one above it on that device). */
int sysstat_device_of_devno(struct sysstat *s, unsigned major,
			    unsigned minor, const char *path,
			    struct sysstat_mount *m, char *err, size_t errlen);
/* "ext4 on /dev/vda (vda) at /" or "tmpfs at /dev/shm, no block device". */
void sysstat_mount_describe(const struct sysstat *s,
			    const struct sysstat_mount *m, char *buf,
			    size_t len);

/*
 * Read every counter now.  Missing keys and unreadable device files are
 * flagged, not failed; returns -1 (errno set) only when neither vmstat nor
 * meminfo could be read.  Safe to call from several threads at once.
 */
int sysstat_snap(const struct sysstat *s, struct sysstat_snap *out);
void sysstat_delta(const struct sysstat_snap *a, const struct sysstat_snap *b,
		   struct sysstat_delta *d);

/*
 * One job's delta, as lines below a job in the normal output, each
 * starting with indent: vmstat, meminfo, and the device devidx (-1: none).
 * Unknown values are left out.
 */
void sysstat_delta_print(const struct sysstat *s,
			 const struct sysstat_delta *d, int devidx,
			 const char *indent, FILE *f);

/* The run header: the kernel and its page-cache settings. */
struct sysstat_info {
	char kernel[128];		/* osrelease; "" unknown */
	uint64_t sysctl[SYSSTAT_SYSCTL_N];
	bool sysctl_have[SYSSTAT_SYSCTL_N];
	uint64_t mem_total_kb;		/* 0 unknown */
	/* nr_dirty_(background_)threshold now, in KiB; 0 unknown */
	uint64_t dirty_limit_kb, dirty_bg_limit_kb;
};

void sysstat_info(const struct sysstat *s, struct sysstat_info *out);
/* As a row (for the JSON header): kernel, vm.dirty_ratio and the other
 * sysctls by sysctl(8)'s names, mem_total_kb, dirty_threshold_kb and
 * dirty_background_threshold_kb; absent where unknown; then row_end. */
void sysstat_info_row(const struct sysstat_info *in, struct row_emitter *e);
/* Two lines for the normal output's header. */
void sysstat_info_print(const struct sysstat_info *in, FILE *f);

/*
 * A thread that snapshots every interval_ns (from start, without drift;
 * intervals missed under load are skipped) and calls cb with the previous
 * and the new snapshot, on its own thread.  With each snapshot it also
 * reads ROOT/proc/stat (the root of s) into a hostnoise_snap (hostnoise.h,
 * without the CPUs' frequency), so that cb can tell the steal of the
 * interval on the CPUs it cares about (hostnoise_ticks): hprev and hcur,
 * NULL when there was no memory for them.  The first snapshot is taken
 * before start returns; stop wakes the thread at once, calls cb one last
 * time for the partial interval up to now, and joins it.  NULL on failure
 * (errno set).
 */
struct sysstat_sampler;
struct hostnoise_snap;
typedef void sysstat_sample_fn(void *user, const struct sysstat_snap *prev,
			       const struct sysstat_snap *cur,
			       const struct hostnoise_snap *hprev,
			       const struct hostnoise_snap *hcur);
struct sysstat_sampler *sysstat_sampler_start(const struct sysstat *s,
					      uint64_t interval_ns,
					      sysstat_sample_fn *cb,
					      void *user);
void sysstat_sampler_stop(struct sysstat_sampler *sp);

/*
 * sync(), then write 3 to ROOT/proc/sys/vm/drop_caches: the page cache,
 * dentries and inodes are dropped.  -1 with a sentence in err, e.g.
 * "dropping the page cache needs root: writing /proc/sys/vm/drop_caches:
 * Permission denied".
 */
int sysstat_drop_caches(const struct sysstat *s, char *err, size_t errlen);
/*
 * Whether this process may drop the page cache at all: as root, with
 * /proc/sys/vm/drop_caches writable (a container mounts /proc/sys
 * read-only).  Asked when a job is checked; 0, or -1 with why in err.
 */
int sysstat_may_drop_caches(char *err, size_t errlen);

#endif
