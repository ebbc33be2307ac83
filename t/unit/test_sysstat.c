/*
 * test_sysstat.c - unit tests for engine/sysstat*.c: system counters,
 * the device behind a file, the run header, the sampler (and the host's
 * steal it reads with each row), drop_caches.
 *
 * Parsing is checked exactly against the made-up machine in
 * t/fixtures/sysstat (see its README) and against small trees written
 * here; delta arithmetic against snapshots built by hand.  Then this
 * machine: reading a 64 MiB file cold must show about 64 MiB of pgpgin
 * (and as much read from its device), reading it again warm almost none,
 * and the library's figures must lie within the same figures read from
 * /proc/vmstat by an independent parser just outside its window.
 * Fixtures are found below $SRCDIR, or the current directory (fixture.c).
 *
 * test: alone, the sampler keeps 100 ms to 20% and pgpgin is system-wide
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "scratch.h"
#include "machine/hostnoise.h"
#include "machine/sysstat.h"

#define MiB	(1024 * 1024)

static void init_ok(struct sysstat *s, const char *root)
{
	char err[512] = "";

	if (sysstat_init(s, root, err, sizeof(err)))
		fail_msg("sysstat_init(%s): %s", root, err);
}

static void init_fixture(struct sysstat *s)
{
	char root[4096];

	fixture_path("sysstat", root, sizeof(root));
	init_ok(s, root);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the fixture machine ---- */

static void test_fixture_vmstat_meminfo(void **state)
{
	static const uint64_t vm[SYSSTAT_VM_N] = {
		[SV_PGPGIN] = 91534732, [SV_PGPGOUT] = 74220568,
		[SV_PGFAULT] = 612300455, [SV_PGMAJFAULT] = 88231,
		[SV_PSWPIN] = 12, [SV_PSWPOUT] = 340,
		[SV_NR_DIRTIED] = 18554213, [SV_NR_WRITTEN] = 18490011,
		[SV_PGSCAN_KSWAPD] = 2301445, [SV_PGSCAN_DIRECT] = 5120,
		[SV_PGSTEAL_KSWAPD] = 2201334, [SV_PGSTEAL_DIRECT] = 4410,
		[SV_WORKINGSET_REFAULT_FILE] = 40213,
		[SV_NR_DIRTY] = 30862, [SV_NR_WRITEBACK] = 343,
		[SV_NR_DIRTY_THRESHOLD] = 742126,
		[SV_NR_DIRTY_BACKGROUND_THRESHOLD] = 370611,
	};
	static const uint64_t mem[SYSSTAT_MEM_N] = {
		[SM_MEMTOTAL] = 16318012, [SM_MEMFREE] = 13644932,
		[SM_MEMAVAILABLE] = 15083140, [SM_BUFFERS] = 120488,
		[SM_CACHED] = 2339604, [SM_DIRTY] = 123448,
		[SM_WRITEBACK] = 1372,
	};
	struct sysstat s;
	struct sysstat_snap sn;
	uint64_t t0 = mono_ns();

	(void)state;
	init_fixture(&s);
	assert_int_equal(sysstat_snap(&s, &sn), 0);
	assert_true(sn.t_ns >= t0 && sn.t_ns <= mono_ns());
	for (unsigned k = 0; k < SYSSTAT_VM_N; k++) {
		if (k == SV_NR_THROTTLED_WRITTEN) {
			/* not in 5.10: unknown, not 0 */
			assert_false(sn.vm_have[k]);
			continue;
		}
		if (!sn.vm_have[k] || sn.vm[k] != vm[k])
			fail_msg("%s: have %d, %llu, want %llu",
				 sysstat_vm_keys[k].name, sn.vm_have[k],
				 (unsigned long long)sn.vm[k],
				 (unsigned long long)vm[k]);
	}
	for (unsigned k = 0; k < SYSSTAT_MEM_N; k++) {
		if (!sn.mem_have[k] || sn.mem_kb[k] != mem[k])
			fail_msg("%s: have %d, %llu, want %llu",
				 sysstat_mem_keys[k].name, sn.mem_have[k],
				 (unsigned long long)sn.mem_kb[k],
				 (unsigned long long)mem[k]);
	}
	assert_int_equal(sn.ndev, 0);
}

struct devcase {
	unsigned major, minor;
	const char *path;
	const char *name, *disk, *fstype, *source, *mnt;
};

static const struct devcase devcases[] = {
	{ 8, 2, "/etc/fstab", "sda2", "sda", "ext4", "/dev/sda2", "/" },
	{ 8, 2, "/home/u/file", "sda2", "sda", "ext4", "/dev/sda2", "/home" },
	/* /homework is not below /home */
	{ 8, 2, "/homework/f", "sda2", "sda", "ext4", "/dev/sda2", "/" },
	{ 8, 1, "/boot/vmlinuz", "sda1", "sda", "ext4", "/dev/sda1", "/boot" },
	{ 259, 0, "/data/big", "nvme0n1", "nvme0n1", "xfs", "/dev/nvme0n1",
	  "/data" },
	/* /data2 is not below /data */
	{ 259, 0, "/data2/x", "nvme0n1", "nvme0n1", "xfs", "/dev/nvme0n1",
	  "/data2" },
	/* "\040" in mountinfo; sys/dev/block/253:0 is a plain directory */
	{ 253, 0, "/mnt/my disk/f", "dm-0", "dm-0", "ext4",
	  "/dev/mapper/vg-data", "/mnt/my disk" },
	/* btrfs: an anonymous st_dev, the device from the mount source */
	{ 0, 45, "/srv/www/index", "sdb1", "sdb", "btrfs", "/dev/sdb1",
	  "/srv" },
};

static void test_fixture_devices(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	char err[512];

	(void)state;
	init_fixture(&s);
	for (size_t i = 0; i < sizeof(devcases) / sizeof(devcases[0]); i++) {
		const struct devcase *c = &devcases[i];
		int idx;

		err[0] = '\0';
		idx = sysstat_device_of_devno(&s, c->major, c->minor, c->path,
					      &m, err, sizeof(err));
		if (idx < 0)
			fail_msg("%s: %s", c->path, err);
		assert_int_equal(m.devidx, idx);
		assert_string_equal(s.dev[idx].name, c->name);
		assert_string_equal(s.dev[idx].disk, c->disk);
		assert_string_equal(m.fstype, c->fstype);
		assert_string_equal(m.source, c->source);
		assert_string_equal(m.mnt, c->mnt);
	}
	/* sda2, sda1, nvme0n1 (twice: one index), dm-0, sdb1 */
	assert_int_equal(s.ndev, 5);
	assert_int_equal(s.dev[2].major, 259);
	assert_int_equal(s.dev[4].major, 8);
	assert_int_equal(s.dev[4].minor, 17);
}

static void test_fixture_devstat(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	struct sysstat_snap sn;
	const struct sysstat_devstat *d;

	(void)state;
	init_fixture(&s);
	for (size_t i = 0; i < sizeof(devcases) / sizeof(devcases[0]); i++)
		assert_true(sysstat_device_of_devno(&s, devcases[i].major,
						    devcases[i].minor,
						    devcases[i].path, &m,
						    NULL, 0) >= 0);
	assert_int_equal(sysstat_snap(&s, &sn), 0);
	assert_int_equal(sn.ndev, 5);
	for (unsigned i = 0; i < sn.ndev; i++)
		assert_true(sn.dev[i].have);

	d = &sn.dev[0];			/* sda2: 17 fields */
	assert_int_equal(d->nfields, 17);
	assert_int_equal(d->rd_ios, 908001);
	assert_int_equal(d->rd_merges, 119700);
	assert_int_equal(d->rd_sectors, 60830112);
	assert_int_equal(d->rd_ticks, 453480);
	assert_int_equal(d->wr_ios, 733324);
	assert_int_equal(d->wr_merges, 410192);
	assert_int_equal(d->wr_sectors, 98764136);
	assert_int_equal(d->wr_ticks, 3310131);
	assert_int_equal(d->in_flight, 1);
	assert_int_equal(d->io_ticks, 910301);
	assert_int_equal(d->time_in_queue, 3768643);
	assert_int_equal(d->dc_ios, 20411);
	assert_int_equal(d->dc_merges, 0);
	assert_int_equal(d->dc_sectors, 812345678);
	assert_int_equal(d->dc_ticks, 10233);
	assert_int_equal(d->fl_ios, 0);
	assert_int_equal(d->fl_ticks, 0);

	d = &sn.dev[1];			/* sda1: its own counters */
	assert_int_equal(d->rd_sectors, 402398);
	assert_int_equal(d->io_ticks, 1904);

	d = &sn.dev[2];			/* nvme0n1: sectors past 2^30 */
	assert_int_equal(d->rd_sectors, 1100030752);
	assert_int_equal(d->in_flight, 3);

	d = &sn.dev[3];			/* dm-0: 11 fields */
	assert_int_equal(d->nfields, 11);
	assert_int_equal(d->wr_sectors, 1920000);
	assert_int_equal(d->time_in_queue, 15000);
	assert_int_equal(d->dc_ios, 0);

	d = &sn.dev[4];			/* sdb1: 15 fields */
	assert_int_equal(d->nfields, 15);
	assert_int_equal(d->rd_ios, 4900);
	assert_int_equal(d->io_ticks, 1480);
}

static void test_fixture_no_block_device(void **state)
{
	static const struct {
		unsigned major, minor;
		const char *path, *fstype, *mnt, *err;
	} cases[] = {
		{ 0, 30, "/tmp/x", "tmpfs", "/tmp",
		  "no block device behind /tmp/x (tmpfs)" },
		/* tmpfs mounted inside the xfs at /data */
		{ 0, 31, "/data/tmp/y", "tmpfs", "/data/tmp",
		  "no block device behind /data/tmp/y (tmpfs)" },
		{ 0, 50, "/var/lib/docker/overlay2/abc/merged/etc/hosts",
		  "overlay", "/var/lib/docker/overlay2/abc/merged",
		  "no block device behind "
		  "/var/lib/docker/overlay2/abc/merged/etc/hosts (overlay)" },
		{ 0, 21, "/proc/self/status", "proc", "/proc",
		  "no block device behind /proc/self/status (proc)" },
	};
	struct sysstat s;
	struct sysstat_mount m;
	char err[512], text[512];

	(void)state;
	init_fixture(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(sysstat_device_of_devno(&s, cases[i].major,
							 cases[i].minor,
							 cases[i].path, &m,
							 err, sizeof(err)),
				 -1);
		assert_int_equal(m.devidx, -1);
		assert_string_equal(m.fstype, cases[i].fstype);
		assert_string_equal(m.mnt, cases[i].mnt);
		assert_string_equal(err, cases[i].err);
	}
	assert_int_equal(s.ndev, 0);
	sysstat_mount_describe(&s, &m, text, sizeof(text));
	assert_string_equal(text, "proc at /proc, no block device");
}

static void test_fixture_describe(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	char text[512];

	(void)state;
	init_fixture(&s);
	assert_int_equal(sysstat_device_of_devno(&s, 8, 1, "/boot/x", &m,
						 NULL, 0), 0);
	sysstat_mount_describe(&s, &m, text, sizeof(text));
	assert_string_equal(text,
			    "ext4 on /dev/sda1 (sda1, a partition of sda) "
			    "at /boot");
	assert_int_equal(sysstat_device_of_devno(&s, 259, 0, "/data/x", &m,
						 NULL, 0), 1);
	sysstat_mount_describe(&s, &m, text, sizeof(text));
	assert_string_equal(text, "xfs on /dev/nvme0n1 (nvme0n1) at /data");
}

/* Without mountinfo the device is still found, the mount is unknown. */
static void test_no_mountinfo_and_full_table(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	char root[4096], rel[128], err[512];

	(void)state;
	if (scratch_dir(root, sizeof(root), "sysstat"))
		fail_msg("scratch_dir: %s", strerror(errno));
	scratch_put(root, "proc/vmstat", "pgpgin 1\n");
	for (unsigned i = 0; i <= SYSSTAT_MAX_DEVS; i++) {
		snprintf(rel, sizeof(rel), "sys/dev/block/7:%u/stat", i);
		scratch_put(root, rel, "1 0 2 0 3 0 4 0 0 5 6\n");
	}
	init_ok(&s, root);
	for (unsigned i = 0; i < SYSSTAT_MAX_DEVS; i++) {
		assert_int_equal(sysstat_device_of_devno(&s, 7, i, "/f", &m,
							 err, sizeof(err)),
				 (int)i);
		/* no uevent, not a symlink: named by its numbers */
		snprintf(rel, sizeof(rel), "7:%u", i);
		assert_string_equal(s.dev[i].name, rel);
		assert_string_equal(m.fstype, "");
		assert_string_equal(m.mnt, "");
	}
	err[0] = '\0';
	assert_int_equal(sysstat_device_of_devno(&s, 7, SYSSTAT_MAX_DEVS,
						 "/f", &m, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "more than 16 block devices"));
	/* one already followed is still found */
	assert_int_equal(sysstat_device_of_devno(&s, 7, 3, "/f", &m, err,
						 sizeof(err)), 3);
	assert_int_equal(scratch_remove(root), 0);
}

static void test_init_errors(void **state)
{
	struct sysstat s;
	char err[512] = "";

	(void)state;
	assert_int_equal(sysstat_init(&s, "/nonexistent/root", err,
				      sizeof(err)), -1);
	assert_string_equal(err, "cannot read /nonexistent/root/proc/vmstat: "
			    "No such file or directory");
	/* trailing slashes are dropped, "/" becomes "" */
	init_ok(&s, "/");
	assert_string_equal(s.root, "");
}

/* ---- deltas ---- */

static void test_delta_math(void **state)
{
	struct sysstat_snap a, b;
	struct sysstat_delta d;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.t_ns = 5000000000ull;
	b.t_ns = a.t_ns + 2000000000ull;	/* 2 s */
	for (unsigned k = 0; k < SYSSTAT_VM_N; k++)
		a.vm_have[k] = b.vm_have[k] = true;
	a.vm[SV_PGPGIN] = 1000;
	b.vm[SV_PGPGIN] = 1000 + 65536;
	a.vm[SV_PGFAULT] = 50;			/* a counter going back */
	b.vm[SV_PGFAULT] = 40;
	a.vm[SV_NR_DIRTY] = 5000;		/* a gauge going down */
	b.vm[SV_NR_DIRTY] = 1000;
	b.vm_have[SV_NR_WRITTEN] = false;	/* gone in the second */
	a.vm_have[SV_PSWPIN] = false;		/* new in the second */
	b.vm[SV_PSWPIN] = 7;
	a.mem_have[SM_DIRTY] = b.mem_have[SM_DIRTY] = true;
	a.mem_kb[SM_DIRTY] = 100;
	b.mem_kb[SM_DIRTY] = 400100;

	a.ndev = 2;
	b.ndev = 3;		/* registered between the snapshots */
	a.dev[0] = (struct sysstat_devstat){
		.have = true, .rd_ios = 10, .rd_sectors = 1000, .rd_ticks = 5,
		.wr_ios = 20, .wr_sectors = 4000, .wr_ticks = 10,
		.io_ticks = 4294967000ull, .time_in_queue = 100,
		.dc_sectors = 8,
	};
	b.dev[0] = (struct sysstat_devstat){
		.have = true, .rd_ios = 110, .rd_sectors = 1000 + 131072,
		.rd_ticks = 205, .wr_ios = 20, .wr_sectors = 4000,
		.wr_ticks = 10,
		.io_ticks = 704,	/* wrapped at 2^32: 1000 ms later */
		.time_in_queue = 3100, .dc_sectors = 2056,
	};
	a.dev[1] = (struct sysstat_devstat){ .have = true, .io_ticks = 0 };
	b.dev[1] = (struct sysstat_devstat){ .have = true, .io_ticks = 2500 };
	b.dev[2].have = true;

	sysstat_delta(&a, &b, &d);
	assert_int_equal(d.ns, 2000000000ull);
	assert_true(d.vm_have[SV_PGPGIN]);
	assert_int_equal(d.vm[SV_PGPGIN], 65536);
	assert_int_equal(d.vm_end[SV_PGPGIN], 66536);
	assert_true(d.vm_have[SV_PGFAULT]);
	assert_int_equal(d.vm[SV_PGFAULT], 0);
	assert_int_equal(d.vm[SV_NR_DIRTY], -4000);
	assert_int_equal(d.vm_end[SV_NR_DIRTY], 1000);
	assert_false(d.vm_have[SV_NR_WRITTEN]);
	assert_false(d.vm_have[SV_PSWPIN]);
	assert_true(d.mem_have[SM_DIRTY]);
	assert_int_equal(d.mem_kb[SM_DIRTY], 400000);
	assert_int_equal(d.mem_end_kb[SM_DIRTY], 400100);
	assert_false(d.mem_have[SM_CACHED]);

	assert_int_equal(d.ndev, 2);
	assert_true(d.dev[0].have);
	assert_int_equal(d.dev[0].rd_ios, 100);
	assert_int_equal(d.dev[0].rd_kb, 65536);
	assert_int_equal(d.dev[0].wr_kb, 0);
	assert_int_equal(d.dev[0].dc_kb, 1024);
	assert_int_equal(d.dev[0].io_ms, 1000);
	assert_float_equal(d.dev[0].util_pct, 50.0, 1e-9);
	assert_float_equal(d.dev[0].aqu_sz, 1.5, 1e-9);
	assert_float_equal(d.dev[0].r_await_ms, 2.0, 1e-9);
	assert_float_equal(d.dev[0].w_await_ms, 0.0, 0);
	/* 2.5 s busy in 2 s (merged accounting): capped as sar does */
	assert_float_equal(d.dev[1].util_pct, 100.0, 0);

	/* a device missing in one snapshot has no delta */
	b.dev[1].have = false;
	sysstat_delta(&a, &b, &d);
	assert_false(d.dev[1].have);
	assert_int_equal(d.dev[1].io_ms, 0);
}

static void write_counters(const char *root, unsigned pgpgin,
			   unsigned dirty_kb, unsigned rd_sectors,
			   unsigned io_ticks)
{
	char text[256];

	snprintf(text, sizeof(text), "nr_dirty 17\npgpgin %u\npgpgout 9\n",
		 pgpgin);
	scratch_put(root, "proc/vmstat", text);
	snprintf(text, sizeof(text), "MemTotal: 1000 kB\nDirty:  %u kB\n",
		 dirty_kb);
	scratch_put(root, "proc/meminfo", text);
	snprintf(text, sizeof(text), "3 0 %u 4 0 0 0 0 0 %u 8\n", rd_sectors,
		 io_ticks);
	scratch_put(root, "sys/dev/block/9:1/stat", text);
}

/* Snapshots of files that change in between, end to end. */
static void test_delta_from_files(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	struct sysstat_snap a, b;
	struct sysstat_delta d;
	char root[4096];

	(void)state;
	if (scratch_dir(root, sizeof(root), "sysstat"))
		fail_msg("scratch_dir: %s", strerror(errno));
	write_counters(root, 100, 50, 2000, 10);
	scratch_put(root, "sys/dev/block/9:1/uevent",
	    "MAJOR=9\nMINOR=1\nDEVNAME=md1\n");
	init_ok(&s, root);
	assert_int_equal(sysstat_device_of_devno(&s, 9, 1, "/x", &m, NULL, 0),
			 0);
	assert_string_equal(s.dev[0].name, "md1");
	assert_int_equal(sysstat_snap(&s, &a), 0);
	write_counters(root, 4196, 8242, 10192, 30);
	assert_int_equal(sysstat_snap(&s, &b), 0);
	sysstat_delta(&a, &b, &d);
	assert_int_equal(d.vm[SV_PGPGIN], 4096);
	assert_int_equal(d.vm[SV_PGPGOUT], 0);
	assert_int_equal(d.vm_end[SV_NR_DIRTY], 17);
	assert_false(d.vm_have[SV_PGFAULT]);
	assert_int_equal(d.mem_kb[SM_DIRTY], 8192);
	assert_false(d.mem_have[SM_CACHED]);
	assert_true(d.dev[0].have);
	assert_int_equal(d.dev[0].rd_kb, 4096);
	assert_int_equal(d.dev[0].io_ms, 20);

	/* vmstat gone: meminfo alone still makes a snapshot */
	snprintf(root + strlen(root), sizeof(root) - strlen(root),
		 "/proc/vmstat");
	assert_int_equal(unlink(root), 0);
	assert_int_equal(sysstat_snap(&s, &b), 0);
	assert_false(b.vm_have[SV_PGPGIN]);
	assert_true(b.mem_have[SM_DIRTY]);
	*strrchr(root, '/') = '\0';
	snprintf(root + strlen(root), sizeof(root) - strlen(root), "/meminfo");
	assert_int_equal(unlink(root), 0);
	assert_int_equal(sysstat_snap(&s, &b), -1);
	*strrchr(root, '/') = '\0';
	*strrchr(root, '/') = '\0';
	assert_int_equal(scratch_remove(root), 0);
}

static char *print_delta(const struct sysstat *s,
			 const struct sysstat_delta *d, int devidx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sysstat_delta_print(s, d, devidx, "    ", f);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_delta_print(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	struct sysstat_snap a, b;
	struct sysstat_delta d;
	long pk = sysconf(_SC_PAGESIZE) / 1024;
	char *text, want[512];

	(void)state;
	init_fixture(&s);
	assert_int_equal(sysstat_device_of_devno(&s, 8, 2, "/f", &m, NULL, 0),
			 0);
	assert_int_equal(sysstat_snap(&s, &a), 0);
	b = a;
	b.t_ns = a.t_ns + 1000000000ull;
	b.vm[SV_PGPGIN] += 65536;
	b.vm[SV_PGMAJFAULT] += 3;
	b.vm[SV_NR_DIRTIED] += (uint64_t)(1024 / pk);	/* 1 MiB of pages */
	b.mem_kb[SM_DIRTY] -= 1024;
	b.dev[0].rd_sectors += 131072;
	b.dev[0].rd_ios += 512;
	b.dev[0].rd_ticks += 256;
	b.dev[0].io_ticks += 873;
	b.dev[0].time_in_queue += 1200;
	sysstat_delta(&a, &b, &d);
	text = print_delta(&s, &d, 0);
	snprintf(want, sizeof(want),
		 "    vmstat: pgpgin 64.0 MiB, pgpgout 0 B, faults 0, "
		 "major faults 3, dirtied 1.00 MiB, written back 0 B, "
		 "swapped in 0 B, swapped out 0 B, reclaimed directly 0 B, "
		 "refaulted 0 B\n"
		 "    meminfo at end: Cached 2.23 GiB (+0 B), "
		 "Dirty 119.6 MiB (-1.00 MiB), Writeback 1.34 MiB (+0 B), "
		 "MemAvailable 14.4 GiB (+0 B)\n"
		 "    sda2: read 64.0 MiB in 512 IOs, wrote 0 B in 0 IOs; "
		 "util 87.3%%, aqu-sz 1.20, r_await 0.50 ms, "
		 "w_await 0.00 ms\n");
	assert_string_equal(text, want);
	free(text);

	/* Unknown values are left out, not printed as 0. */
	a.vm_have[SV_PGPGIN] = false;
	a.vm_have[SV_PGMAJFAULT] = false;
	for (unsigned k = 0; k < SYSSTAT_MEM_N; k++)
		b.mem_have[k] = false;
	b.dev[0].have = false;
	sysstat_delta(&a, &b, &d);
	text = print_delta(&s, &d, 0);
	assert_null(strstr(text, "pgpgin"));
	assert_null(strstr(text, "major"));
	assert_null(strstr(text, "meminfo"));
	assert_null(strstr(text, "sda2"));
	assert_non_null(strstr(text, "    vmstat: pgpgout 0 B, faults 0, "
				     "dirtied 1.00 MiB"));
	free(text);
	/* Nothing known at all: nothing printed. */
	memset(&a, 0, sizeof(a));
	sysstat_delta(&a, &a, &d);
	text = print_delta(&s, &d, -1);
	assert_string_equal(text, "");
	free(text);
}

/* ---- the run header ---- */

/* The info as the header and the line of a CSV (the JSON header's keys
 * and values), through sysstat_info_row. */
static void info_csv(const struct sysstat_info *in, char **names,
		     char **values)
{
	struct csv_emitter ce;
	size_t len = 0;
	FILE *f = open_memstream(names, &len);

	assert_non_null(f);
	csv_emitter_init(&ce, f, true);
	sysstat_info_row(in, &ce.base);
	assert_int_equal(fclose(f), 0);
	f = open_memstream(values, &len);
	assert_non_null(f);
	csv_emitter_init(&ce, f, false);
	sysstat_info_row(in, &ce.base);
	assert_int_equal(fclose(f), 0);
}

/* The run header's text, through sysstat_info_print. */
static char *print_info(const struct sysstat_info *in)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sysstat_info_print(in, f);
	assert_int_equal(fclose(f), 0);
	return text;
}

static const char info_names[] =
	"kernel,vm.dirty_ratio,vm.dirty_background_ratio,vm.dirty_bytes,"
	"vm.dirty_background_bytes,vm.dirty_expire_centisecs,"
	"vm.dirty_writeback_centisecs,vm.swappiness,mem_total_kb,"
	"dirty_threshold_kb,dirty_background_threshold_kb\n";

static void test_info_fixture(void **state)
{
	struct sysstat s;
	struct sysstat_info in;
	uint64_t pk = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	char want[256], *names = NULL, *values = NULL, *text;

	(void)state;
	init_fixture(&s);
	sysstat_info(&s, &in);
	assert_string_equal(in.kernel, "5.10.0-28-amd64");
	assert_int_equal(in.mem_total_kb, 16318012);
	assert_int_equal(in.dirty_limit_kb, 742126 * pk);
	assert_int_equal(in.dirty_bg_limit_kb, 370611 * pk);
	info_csv(&in, &names, &values);
	assert_string_equal(names, info_names);
	snprintf(want, sizeof(want), "5.10.0-28-amd64,20,10,0,0,3000,500,60,"
		 "16318012,%llu,%llu\n", (unsigned long long)(742126 * pk),
		 (unsigned long long)(370611 * pk));
	assert_string_equal(values, want);
	free(names);
	free(values);

	text = print_info(&in);
	if (pk == 4)
		assert_string_equal(text,
			"system: kernel 5.10.0-28-amd64, RAM 15.6 GiB; dirty "
			"pages now limited to 2.83 GiB, background writeback "
			"from 1.41 GiB\n"
			"sysctl: vm.dirty_ratio=20 vm.dirty_background_ratio="
			"10 vm.dirty_bytes=0 vm.dirty_background_bytes=0 "
			"vm.dirty_expire_centisecs=3000 "
			"vm.dirty_writeback_centisecs=500 vm.swappiness=60\n");
	else
		assert_non_null(strstr(text, "vm.swappiness=60\n"));
	free(text);
}

static void test_info_missing(void **state)
{
	struct sysstat s;
	struct sysstat_info in;
	char root[4096], *names = NULL, *values = NULL, *text;

	(void)state;
	if (scratch_dir(root, sizeof(root), "sysstat"))
		fail_msg("scratch_dir: %s", strerror(errno));
	scratch_put(root, "proc/vmstat", "pgpgin 5\n");
	scratch_put(root, "proc/sys/vm/dirty_ratio", "40\n");
	scratch_put(root, "proc/sys/vm/swappiness", "not a number\n");
	init_ok(&s, root);
	sysstat_info(&s, &in);
	assert_string_equal(in.kernel, "");
	assert_true(in.sysctl_have[SC_DIRTY_RATIO]);
	assert_int_equal(in.sysctl[SC_DIRTY_RATIO], 40);
	assert_false(in.sysctl_have[SC_SWAPPINESS]);
	assert_false(in.sysctl_have[SC_DIRTY_BYTES]);
	assert_int_equal(in.mem_total_kb, 0);
	assert_int_equal(in.dirty_limit_kb, 0);
	/* what the kernel did not give is absent, never 0 */
	info_csv(&in, &names, &values);
	assert_string_equal(names, info_names);
	assert_string_equal(values, ",40,,,,,,,,,\n");
	free(names);
	free(values);
	text = print_info(&in);
	assert_string_equal(text, "system: kernel unknown\n"
			    "sysctl: vm.dirty_ratio=40\n");
	free(text);
	assert_int_equal(scratch_remove(root), 0);
}

/* ---- the sampler ---- */

struct samples {
	unsigned n;
	uint64_t prev_t[64], cur_t[64];
	uint64_t last_cur;
	bool chained;		/* each prev is the last cur */
};

static void on_sample(void *user, const struct sysstat_snap *prev,
		      const struct sysstat_snap *cur,
		      const struct hostnoise_snap *hprev,
		      const struct hostnoise_snap *hcur)
{
	struct samples *sm = user;

	(void)hprev;
	(void)hcur;

	if (sm->n && prev->t_ns != sm->last_cur)
		sm->chained = false;
	if (sm->n < 64) {
		sm->prev_t[sm->n] = prev->t_ns;
		sm->cur_t[sm->n] = cur->t_ns;
	}
	sm->last_cur = cur->t_ns;
	sm->n++;
}

static void test_sampler_interval(void **state)
{
	const uint64_t interval = 100000000ull;	/* 100 ms */
	struct samples sm = { .chained = true };
	struct sysstat_sampler *sp;
	struct timespec nap = { 1, 50000000 };	/* 1.05 s */
	struct sysstat s;
	uint64_t t0, t1;

	(void)state;
	if (getenv("TEST_EMULATOR")) {	/* t/run-tests.sh, a cross build */
		print_message("skipped: under %s, whose timing is not a "
			      "CPU's\n", getenv("TEST_EMULATOR"));
		skip();
	}
	init_ok(&s, "/");
	t0 = mono_ns();
	sp = sysstat_sampler_start(&s, interval, on_sample, &sm);
	assert_non_null(sp);
	while (nanosleep(&nap, &nap))
		;
	t1 = mono_ns();
	sysstat_sampler_stop(sp);
	/* 10 full intervals and the partial one up to stop (9 or 11 when
	 * a loaded machine runs late) */
	if (sm.n < 10 || sm.n > 12)
		fail_msg("%u callbacks in 1.05 s at 100 ms", sm.n);
	assert_true(sm.chained);
	assert_true(sm.prev_t[0] >= t0);
	for (unsigned i = 0; i + 1 < sm.n; i++) {
		uint64_t dt = sm.cur_t[i] - sm.prev_t[i];
		/* deadlines are start + k * interval: no drift */
		uint64_t due = sm.prev_t[0] + (i + 1) * interval;

		if (dt < interval * 8 / 10 || dt > interval * 12 / 10)
			fail_msg("interval %u took %.1f ms", i, dt / 1e6);
		if (sm.cur_t[i] < due || sm.cur_t[i] > due + interval / 5)
			fail_msg("sample %u at +%.1f ms, due at +%.1f ms", i,
				 (sm.cur_t[i] - sm.prev_t[0]) / 1e6,
				 (due - sm.prev_t[0]) / 1e6);
	}
	/* the last one ends at stop */
	assert_true(sm.cur_t[sm.n - 1] >= t1);
	assert_true(sm.cur_t[sm.n - 1] - sm.prev_t[sm.n - 1] <= interval * 12 /
		    10);
}

static void test_sampler_stops_promptly(void **state)
{
	struct samples sm = { .chained = true };
	struct sysstat_sampler *sp;
	struct timespec nap = { 0, 50000000 };
	struct sysstat s;
	uint64_t t;

	(void)state;
	init_ok(&s, "/");
	sp = sysstat_sampler_start(&s, 10000000000ull, on_sample, &sm);
	assert_non_null(sp);
	nanosleep(&nap, NULL);
	t = mono_ns();
	sysstat_sampler_stop(sp);
	t = mono_ns() - t;
	if (t > 100000000ull)
		fail_msg("stop took %.1f ms with a 10 s interval", t / 1e6);
	/* one partial interval of about 50 ms */
	assert_int_equal(sm.n, 1);
	assert_true(sm.cur_t[0] - sm.prev_t[0] >= 50000000ull);
	assert_true(sm.cur_t[0] - sm.prev_t[0] < 1000000000ull);

	assert_null(sysstat_sampler_start(&s, 0, on_sample, &sm));
	assert_int_equal(errno, EINVAL);
	sysstat_sampler_stop(NULL);
}

/*
 * The steal the sampler hands its callback, from a test root: each call
 * writes the next proc/stat text (the next snapshot is taken on the same
 * thread after the call returns), 1000 more ticks of cpu0, 100 of them
 * stolen, and 500 more of cpu1, none stolen.  The first interval reads
 * the same text at both ends: no tick, no figure (not 0%).  Every later
 * one: exactly 10% on cpu0, 100 of 1500 on both.
 */
struct steal_samples {
	const char *root;
	unsigned n, told, told_both;
	bool first_told;		/* the first interval gave a figure */
	bool exact;			/* every later one as written */
	bool null_snaps;
};

static void put_stat(const char *root, unsigned k)
{
	char text[256];

	snprintf(text, sizeof(text),
		 "cpu  0 0 0 0 0 0 0 0 0 0\n"
		 "cpu0 %u 0 0 %u 0 0 0 %u 0 0\n"
		 "cpu1 %u 0 0 %u 0 0 0 0 0 0\n"
		 "intr 0\n", k * 450, k * 450, k * 100, k * 250, k * 250);
	scratch_put(root, "proc/stat", text);
}

static void on_steal_sample(void *user, const struct sysstat_snap *prev,
			    const struct sysstat_snap *cur,
			    const struct hostnoise_snap *hprev,
			    const struct hostnoise_snap *hcur)
{
	struct steal_samples *sm = user;
	struct hostnoise n = { 0 }, both = { 0 };
	cpu_set_t set;

	(void)prev;
	(void)cur;
	if (!hprev || !hcur) {
		sm->null_snaps = true;
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	hostnoise_set_steal(&n, hostnoise_ticks(hprev, hcur, &set));
	CPU_SET(1, &set);
	hostnoise_set_steal(&both, hostnoise_ticks(hprev, hcur, &set));
	if (!sm->n) {
		sm->first_told = n.have_steal || both.have_steal;
	} else if (n.have_steal && both.have_steal) {
		sm->told++;
		if (n.ticks != 1000 || n.steal_ticks != 100 ||
		    n.steal_pct != 10.0 || both.ticks != 1500 ||
		    both.steal_ticks != 100)
			sm->exact = false;
	} else {
		sm->exact = false;
	}
	sm->n++;
	if (sm->root)
		put_stat(sm->root, sm->n);
}

static void test_sampler_steal(void **state)
{
	struct steal_samples sm = { .exact = true };
	struct sysstat_sampler *sp;
	struct timespec nap = { 0, 120000000 };	/* 120 ms */
	struct sysstat s;
	char root[4096], src[4200];
	unsigned char *text;
	size_t len;

	(void)state;
	assert_int_equal(scratch_dir(root, sizeof(root), "steal"), 0);
	fixture_path("sysstat", src, sizeof(src));
	for (unsigned i = 0; i < 2; i++) {
		const char *f = i ? "proc/meminfo" : "proc/vmstat";
		char path[4300];

		snprintf(path, sizeof(path), "%s/%s", src, f);
		text = scratch_read(path, &len);
		scratch_put(root, f, (const char *)text);
		free(text);
	}
	put_stat(root, 0);
	init_ok(&s, root);
	sm.root = root;
	sp = sysstat_sampler_start(&s, 20000000ull, on_steal_sample, &sm);
	assert_non_null(sp);
	while (nanosleep(&nap, &nap))
		;
	sysstat_sampler_stop(sp);
	assert_false(sm.null_snaps);
	assert_false(sm.first_told);
	if (sm.n < 3)
		fail_msg("%u callbacks in 120 ms at 20 ms", sm.n);
	assert_int_equal(sm.told, sm.n - 1);
	assert_true(sm.exact);

	/* no proc/stat: never a figure */
	sm = (struct steal_samples){ .exact = true };
	snprintf(src, sizeof(src), "%s/proc/stat", root);
	assert_int_equal(unlink(src), 0);
	sp = sysstat_sampler_start(&s, 20000000ull, on_steal_sample, &sm);
	assert_non_null(sp);
	nap = (struct timespec){ 0, 60000000 };
	while (nanosleep(&nap, &nap))
		;
	sysstat_sampler_stop(sp);
	assert_false(sm.null_snaps);
	assert_true(sm.n >= 1);
	assert_false(sm.first_told);
	assert_int_equal(sm.told, 0);
	assert_int_equal(scratch_remove(root), 0);
}

/* ---- this machine ---- */

/* A temporary file's name, removed after the test even if it fails. */
#define PATH_LEN	4096

static int tmpfile_setup(void **state)
{
	*state = calloc(1, PATH_LEN);
	return *state ? 0 : -1;
}

static int tmpfile_teardown(void **state)
{
	char *path = *state;

	if (path[0])
		unlink(path);
	free(path);
	return 0;
}

/* A directory on a block device for the cold-read test; NULL if none. */
static const char *disk_dir(struct sysstat *s, char *why, size_t len)
{
	static const char *const dirs[] = { "/var/tmp", "." };
	const char *env = getenv("MEMJOB_TEST_DISKDIR");
	struct sysstat_mount m;
	char err[400];

	if (env && *env) {
		if (sysstat_device_of(s, env, &m, err, sizeof(err)) >= 0)
			return env;
		snprintf(why, len, "MEMJOB_TEST_DISKDIR: %s", err);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (sysstat_device_of(s, dirs[i], &m, err, sizeof(err)) >= 0)
			return dirs[i];
		snprintf(why, len, "%s", err);
	}
	return NULL;
}

static void test_real_device_of(void **state)
{
	struct sysstat s;
	struct sysstat_mount m;
	struct statfs sf;
	struct stat st;
	char err[512], path[4096], why[512];
	const char *dir;
	int idx;

	(void)state;
	init_ok(&s, "/");
	assert_int_equal(sysstat_device_of(&s, "/proc/self/status", &m, err,
					   sizeof(err)), -1);
	assert_string_equal(m.fstype, "proc");
	assert_non_null(strstr(err, "(proc)"));
	if (!statfs("/dev/shm", &sf) && sf.f_type == TMPFS_MAGIC) {
		assert_int_equal(sysstat_device_of(&s, "/dev/shm/nothing-here",
						   &m, err, sizeof(err)), -1);
		assert_string_equal(err, "no block device behind "
				    "/dev/shm/nothing-here (tmpfs)");
		assert_string_equal(m.mnt, "/dev/shm");
	}
	err[0] = '\0';
	assert_int_equal(sysstat_device_of(&s, "/nonexistent-dir/file", &m,
					   err, sizeof(err)), -1);
	assert_string_equal(err, "cannot find the device of "
			    "/nonexistent-dir/file: No such file or "
			    "directory");
	assert_int_equal(s.ndev, 0);

	dir = disk_dir(&s, why, sizeof(why));
	if (!dir) {
		print_message("skipped: no directory on a block device (%s)\n",
			      why);
		skip();
	}
	assert_int_equal(stat(dir, &st), 0);
	snprintf(path, sizeof(path), "%s/not-yet-created", dir);
	idx = sysstat_device_of(&s, path, &m, err, sizeof(err));
	if (idx < 0)
		fail_msg("%s: %s", path, err);
	/* the mount point is above the canonical path */
	assert_true(m.mnt[0] == '/');
	assert_true(m.fstype[0]);
	if (major(st.st_dev)) {
		assert_int_equal(s.dev[idx].major, major(st.st_dev));
		assert_int_equal(s.dev[idx].minor, minor(st.st_dev));
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat",
		 s.dev[idx].major, s.dev[idx].minor);
	assert_int_equal(access(path, R_OK), 0);
	/* the same device again: the same index */
	assert_int_equal(sysstat_device_of(&s, dir, &m, err, sizeof(err)),
			 idx);
	assert_int_equal(s.ndev, 1);
}

/* /proc/vmstat's pgpgin, read without the library. */
static uint64_t raw_pgpgin(void)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");
	uint64_t out = UINT64_MAX;

	assert_non_null(f);
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strcmp(name, "pgpgin"))
			out = v;
	fclose(f);
	assert_true(out != UINT64_MAX);
	return out;
}

static void read_all(int fd, char *buf, size_t len, size_t total)
{
	size_t done = 0;

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	while (done < total) {
		ssize_t n = read(fd, buf, len);

		assert_true(n > 0);
		done += (size_t)n;
	}
}

/* Pages of the file at path now in the page cache. */
static size_t resident_pages(const char *path, size_t size)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = size / ps, in = 0;
	unsigned char *vec = malloc(n);
	int fd = open(path, O_RDONLY);
	void *p;

	assert_non_null(vec);
	assert_true(fd >= 0);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(mincore(p, size, vec), 0);
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	munmap(p, size);
	close(fd);
	free(vec);
	return in;
}

/*
 * The page-cache experiment of seed 000 in small: a cold read of a file
 * brings about its size in pgpgin (and from its device), a warm one
 * almost nothing; the library agrees with an independent reading.
 */
/* Read fd whole between two snapshots of s: their delta into d, which
 * must lie inside the same figure read from /proc/vmstat by the
 * independent parser just outside the window. */
static void read_between(struct sysstat *s, int fd, char *buf,
			 size_t buflen, size_t size, struct sysstat_delta *d)
{
	struct sysstat_snap a, b;
	uint64_t raw0, raw1;

	raw0 = raw_pgpgin();
	assert_int_equal(sysstat_snap(s, &a), 0);
	read_all(fd, buf, buflen, size);
	assert_int_equal(sysstat_snap(s, &b), 0);
	raw1 = raw_pgpgin();
	sysstat_delta(&a, &b, d);
	assert_true(a.vm[SV_PGPGIN] >= raw0 && b.vm[SV_PGPGIN] <= raw1);
}

static void test_real_pgpgin_cold_warm(void **state)
{
	const size_t size = 64 * MiB, buflen = MiB;
	struct sysstat s;
	struct sysstat_mount m;
	struct sysstat_delta d;
	char *path = *state, why[512], err[512];
	uint64_t raw0, raw1;
	const char *dir;
	char *buf;
	int fd, idx;

	init_ok(&s, "/");
	dir = disk_dir(&s, why, sizeof(why));
	if (!dir) {
		print_message("skipped: no directory on a block device (%s)\n",
			      why);
		skip();
	}
	snprintf(path, PATH_LEN, "%s/memjob-sysstat-XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	idx = sysstat_device_of(&s, path, &m, err, sizeof(err));
	if (idx < 0)
		fail_msg("%s: %s", path, err);
	buf = malloc(buflen);
	assert_non_null(buf);
	for (size_t i = 0; i < buflen; i++)
		buf[i] = (char)(i * 131 + 7);
	for (size_t done = 0; done < size; done += buflen)
		assert_int_equal(write(fd, buf, buflen), (ssize_t)buflen);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);

	read_between(&s, fd, buf, buflen, size, &d);
	assert_true(d.vm_have[SV_PGPGIN]);
	print_message("cold: pgpgin %lld KiB, %s read %llu KiB, util %.1f%%\n",
		      (long long)d.vm[SV_PGPGIN], s.dev[idx].name,
		      (unsigned long long)d.dev[idx].rd_kb,
		      d.dev[idx].util_pct);
	/* about the file's size (readahead may add a little) */
	if ((uint64_t)d.vm[SV_PGPGIN] < size / 1024 * 95 / 100)
		fail_msg("cold read of 64 MiB: pgpgin %lld KiB",
			 (long long)d.vm[SV_PGPGIN]);
	assert_true(d.dev[idx].have);
	if (d.dev[idx].rd_kb < size / 1024 * 95 / 100)
		fail_msg("cold read of 64 MiB: %s read %llu KiB",
			 s.dev[idx].name,
			 (unsigned long long)d.dev[idx].rd_kb);
	assert_true(d.dev[idx].rd_ios > 0);

	/* Another process dropping the caches would make this cold too. */
	if (resident_pages(path, size) < size / (size_t)sysconf(_SC_PAGESIZE))
		read_all(fd, buf, buflen, size);
	/*
	 * pgpgin is system-wide: other processes reading meanwhile (a
	 * compiler, another suite) add to it.  So the host's own reads are
	 * measured over a second first: at 4 MiB/s or more (a quarter of
	 * the file in the few tens of ms a warm read takes could then be
	 * theirs) the warm read cannot be judged, and is skipped, saying
	 * so; else one read must stay low, not one of several tries.
	 */
	raw0 = raw_pgpgin();
	sleep(1);
	raw1 = raw_pgpgin();
	if (raw1 - raw0 >= 4096) {
		print_message("skipped the warm read: the host read %llu KiB/s "
			      "from its devices (4096 at most)\n",
			      (unsigned long long)(raw1 - raw0));
		free(buf);
		close(fd);
		assert_int_equal(unlink(path), 0);
		path[0] = '\0';
		print_message("skipped: the host was reading its devices\n");
		skip();
	}
	read_between(&s, fd, buf, buflen, size, &d);
	print_message("warm: pgpgin %lld KiB\n", (long long)d.vm[SV_PGPGIN]);
	if ((uint64_t)d.vm[SV_PGPGIN] > size / 1024 / 4)
		fail_msg("warm read of 64 MiB: pgpgin %lld KiB",
			 (long long)d.vm[SV_PGPGIN]);
	free(buf);
	close(fd);
	assert_int_equal(unlink(path), 0);
	path[0] = '\0';
}

static void test_drop_caches_root(void **state)
{
	const size_t size = 8 * MiB;
	struct sysstat s;
	char *path = *state, err[512] = "", *buf;
	size_t pages = size / (size_t)sysconf(_SC_PAGESIZE), in;
	int fd;

	if (geteuid()) {
		print_message("skipped: dropping the page cache needs root\n");
		skip();
	}
	init_ok(&s, "/");
	snprintf(path, PATH_LEN, "/var/tmp/memjob-drop-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	buf = calloc(1, size);
	assert_non_null(buf);
	memset(buf, 'x', size);
	assert_int_equal(write(fd, buf, size), (ssize_t)size);
	assert_int_equal(fsync(fd), 0);
	read_all(fd, buf, size, size);
	close(fd);
	in = resident_pages(path, size);
	if (in < pages) {
		/* tmpfs keeps its pages whatever is dropped */
		print_message("skipped: only %zu of %zu pages cached\n", in,
			      pages);
		free(buf);
		skip();
	}
	if (sysstat_drop_caches(&s, err, sizeof(err)))
		fail_msg("%s", err);
	in = resident_pages(path, size);
	if (in > pages / 10)
		fail_msg("%zu of %zu pages still cached after drop_caches", in,
			 pages);
	assert_int_equal(unlink(path), 0);
	path[0] = '\0';
	free(buf);
}

/* As nobody, the kernel refuses: the message must say root is needed. */
static void test_drop_caches_not_root(void **state)
{
	struct sysstat s;
	char err[512] = "";
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	(void)state;
	init_ok(&s, "/");
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int ret;

		close(fds[0]);
		if (!geteuid() && setresuid(65534, 65534, 65534))
			_exit(3);
		ret = sysstat_drop_caches(&s, err, sizeof(err));
		if (write(fds[1], err, strlen(err) + 1) < 0)
			_exit(4);
		_exit(ret ? 0 : 2);
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof(err) - 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2)
		fail_msg("drop_caches succeeded as an unprivileged user");
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(n > 0);
	err[n] = '\0';
	assert_string_equal(err, "dropping the page cache needs root: "
			    "writing /proc/sys/vm/drop_caches: Permission "
			    "denied");
}

static void test_drop_caches_fixture(void **state)
{
	struct sysstat s;
	char err[512] = "", want[4200], root[4096];

	(void)state;
	fixture_path("sysstat", root, sizeof(root));
	init_ok(&s, root);
	assert_int_equal(sysstat_drop_caches(&s, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "cannot drop the page cache: writing "
		 "%s/proc/sys/vm/drop_caches: No such file or directory",
		 s.root);
	assert_string_equal(err, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_vmstat_meminfo),
		cmocka_unit_test(test_fixture_devices),
		cmocka_unit_test(test_fixture_devstat),
		cmocka_unit_test(test_fixture_no_block_device),
		cmocka_unit_test(test_fixture_describe),
		cmocka_unit_test(test_no_mountinfo_and_full_table),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_delta_math),
		cmocka_unit_test(test_delta_from_files),
		cmocka_unit_test(test_delta_print),
		cmocka_unit_test(test_info_fixture),
		cmocka_unit_test(test_info_missing),
		cmocka_unit_test(test_sampler_interval),
		cmocka_unit_test(test_sampler_stops_promptly),
		cmocka_unit_test(test_sampler_steal),
		cmocka_unit_test(test_real_device_of),
		cmocka_unit_test_setup_teardown(test_real_pgpgin_cold_warm,
						tmpfile_setup,
						tmpfile_teardown),
		cmocka_unit_test_setup_teardown(test_drop_caches_root,
						tmpfile_setup,
						tmpfile_teardown),
		cmocka_unit_test(test_drop_caches_not_root),
		cmocka_unit_test(test_drop_caches_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
