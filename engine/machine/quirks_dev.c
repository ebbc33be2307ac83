/*
 * quirks_dev.c - a disk faster than its kind allows (see quirks.h).
 *
 * A virtual disk is often a file on the host, read through the host's
 * page cache: O_DIRECT goes around this system's cache but not the
 * host's, so a 4 KiB random read that a rotating disk takes milliseconds
 * over comes back in tens of microseconds, and a direct-I/O job measures
 * the host's memory, not the disk.  The probe times such reads where the
 * job will do them: its own file when it exists (read only), else a
 * nameless file (O_TMPFILE) written in its directory, which is gone when
 * closed.  At most PROBE_READS reads or PROBE_NS, whichever comes first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/quirks.h"
#include "util/clock.h"
#include "util/path.h"
#include "util/stats.h"
#include "util/sysfile.h"

#define IO_BLOCK	4096
#define TMP_BYTES	(8u << 20)
#define PROBE_READS	64
#define PROBE_NS	100000000ull	/* 0.1 s */

/* A rotating disk's random 4 KiB read waits for a seek and half a turn:
 * milliseconds even at 15,000 rpm (2 ms for the half turn alone).  Flash
 * reads a page in tens of microseconds, the fastest in about ten. */
#define ROTATING_MIN_US	1000.0
#define FLASH_MIN_US	10.0

bool quirks_judge_device(const char *name, int rotational, double median_us)
{
	static const char *const memory_kinds[] = { "zram", "ram", "pmem",
						    "loop", "nbd", NULL };

	if (median_us <= 0)
		return false;
	/* memory by name, or a file of this system's: nothing hidden */
	for (size_t i = 0; memory_kinds[i]; i++)
		if (!strncmp(name, memory_kinds[i], strlen(memory_kinds[i])))
			return false;
	if (rotational == 1)
		return median_us < ROTATING_MIN_US;
	if (rotational == 0)
		return median_us < FLASH_MIN_US;
	return false;
}

static void read_kind(struct dev_quirk *dq, const char *root)
{
	char path[512], link[512];
	uint64_t v;
	ssize_t n;

	dq->rotational = -1;
	if (!sysfile_path(path, sizeof(path), root, "/sys/block/%s/queue/"
			  "rotational", dq->name) && !sysfile_u64(path, &v))
		dq->rotational = v ? 1 : 0;
	if (sysfile_path(path, sizeof(path), root, "/sys/block/%s/device/"
			 "driver", dq->name))
		return;
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *base = strrchr(link, '/');

		snprintf(dq->driver, sizeof(dq->driver), "%.31s",
			 base ? base + 1 : link);
	}
}

/* A file to read with O_DIRECT: path itself when it is a regular file of
 * a block or more, else a nameless one in its directory, written.  The
 * descriptor and the bytes it holds, or -1 with the reason. */
static int open_target(struct dev_quirk *dq, const char *path, char *buf,
		       uint64_t *size)
{
	struct stat st;
	char dir[4096];
	int fd;

	/* read only, and never waiting on a FIFO: what is there now is
	 * looked at after it is open */
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size >= IO_BLOCK) {
		dq->read_existing = true;
		*size = (uint64_t)st.st_size;
		return fd;
	}
	if (fd >= 0)
		close(fd);
	path_dir(path, dir, sizeof(dir));
	fd = open(dir, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(dq->why, sizeof(dq->why), "no O_DIRECT file can be "
			 "made in %.60s: %s", dir, strerror(errno));
		return -1;
	}
	memset(buf, 0x5a, IO_BLOCK);
	for (uint64_t off = 0; off < TMP_BYTES; off += IO_BLOCK)
		if (pwrite(fd, buf, IO_BLOCK, (off_t)off) != IO_BLOCK) {
			snprintf(dq->why, sizeof(dq->why), "writing the probe's "
				 "file in %.60s: %s", dir, strerror(errno));
			close(fd);
			return -1;
		}
	if (fdatasync(fd))
		snprintf(dq->why, sizeof(dq->why), "fdatasync: %s",
			 strerror(errno));
	*size = TMP_BYTES;
	return fd;
}

static void time_reads(struct dev_quirk *dq, int fd, char *buf,
		       uint64_t size)
{
	double us[PROBE_READS];
	uint64_t blocks = size / IO_BLOCK, x = 88172645463325252ull;
	uint64_t start = mono_ns();
	unsigned n = 0;

	while (n < PROBE_READS && mono_ns() - start < PROBE_NS) {
		uint64_t t0;

		x ^= x << 13;			/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		t0 = mono_ns();
		if (pread(fd, buf, IO_BLOCK, (off_t)(x % blocks * IO_BLOCK)) !=
		    IO_BLOCK) {
			snprintf(dq->why, sizeof(dq->why), "O_DIRECT read: %s",
				 strerror(errno));
			return;
		}
		us[n++] = (double)(mono_ns() - t0) / 1e3;
	}
	dq->reads = n;
	dq->median_us = stat_summarise(us, n).median;
	dq->probed = true;
	dq->why[0] = '\0';
}

void quirks_probe_device(struct machine_quirks *q, const char *name,
			 const char *path, const char *root)
{
	struct dev_quirk *dq;
	uint64_t size = 0;
	char *buf;
	int fd;

	for (unsigned i = 0; i < q->ndev; i++)
		if (!strcmp(q->dev[i].name, name))
			return;
	if (q->ndev == QUIRKS_MAX_DEVS)
		return;
	dq = &q->dev[q->ndev++];
	memset(dq, 0, sizeof(*dq));
	snprintf(dq->name, sizeof(dq->name), "%s", name);
	read_kind(dq, root ? root : "");
	buf = aligned_alloc(IO_BLOCK, IO_BLOCK);
	if (!buf) {
		snprintf(dq->why, sizeof(dq->why), "out of memory");
		return;
	}
	fd = open_target(dq, path, buf, &size);
	if (fd >= 0) {
		time_reads(dq, fd, buf, size);
		close(fd);
	}
	free(buf);
	if (dq->probed)
		dq->fast = quirks_judge_device(dq->name, dq->rotational,
					       dq->median_us);
}
