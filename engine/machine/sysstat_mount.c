/*
 * sysstat_mount.c - the block device and file system behind a job's file
 * (see sysstat.h): st_dev names the device, ROOT/sys/dev/block/MAJ:MIN
 * its counters, and ROOT/proc/self/mountinfo the file system and mount
 * point.
 *
 * The one idea: a file system without a block device of its own (tmpfs,
 * overlay, NFS) is an answer, not an error of the run: the job simply has
 * no device counters, and the message says why.  btrfs gives its files an
 * anonymous st_dev; its device is found through the mount source.
 */
#include "machine/sysstat.h"
#include "machine/sysstat_int.h"
#include "util/path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* mountinfo escapes blanks, newlines and backslashes as \ooo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Whether mount point mnt holds path: a prefix up to a '/'. */
static size_t under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	if (strncmp(path, mnt, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

struct mountinfo_line {
	unsigned major, minor;
	char *mnt, *fstype, *source;
};

/* Split one line of mountinfo (proc(5)) in place; -1 if malformed. */
static int split_mountinfo(char *line, struct mountinfo_line *ml)
{
	char *save = NULL, *tok;
	unsigned i = 0;

	line[strcspn(line, "\n")] = '\0';
	memset(ml, 0, sizeof(*ml));
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		if (i == 2 && sscanf(tok, "%u:%u", &ml->major, &ml->minor) != 2)
			return -1;
		if (i == 4)
			ml->mnt = tok;
		if (i > 5 && !strcmp(tok, "-"))
			break;
	}
	if (!tok || !ml->mnt)
		return -1;
	ml->fstype = strtok_r(NULL, " ", &save);
	ml->source = strtok_r(NULL, " ", &save);
	if (!ml->fstype || !ml->source)
		return -1;
	unescape(ml->mnt);
	unescape(ml->source);
	return 0;
}

/*
 * The mount holding path: the longest mount point above it among the
 * mounts of its device, or among all when none of them is above it (a
 * bind mount seen from elsewhere).  Later lines win ties: they are
 * mounted on top.
 */
static void find_mount(const struct sysstat *s, unsigned major,
		       unsigned minor, const char *path,
		       struct sysstat_mount *m)
{
	char file[PATH_MAX], *line = NULL;
	size_t cap = 0, best_same = 0, best_any = 0;
	struct sysstat_mount any = { .devidx = -1 };
	FILE *f;

	if (sysfile_path(file, sizeof(file), s->root, "/proc/self/mountinfo"))
		return;
	f = fopen(file, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		struct mountinfo_line ml;
		struct sysstat_mount *to = m;
		size_t n;

		if (split_mountinfo(line, &ml))
			continue;
		n = under(path, ml.mnt);
		if (!n)
			continue;
		if (ml.major == major && ml.minor == minor) {
			if (n < best_same)
				continue;
			best_same = n;
		} else {
			if (n < best_any)
				continue;
			best_any = n;
			to = &any;
		}
		snprintf(to->fstype, sizeof(to->fstype), "%s", ml.fstype);
		snprintf(to->source, sizeof(to->source), "%s", ml.source);
		snprintf(to->mnt, sizeof(to->mnt), "%s", ml.mnt);
	}
	free(line);
	fclose(f);
	if (!best_same && best_any)
		*m = any;
}

static bool have_devstat(const struct sysstat *s, unsigned major,
			 unsigned minor)
{
	char path[PATH_MAX];

	return !sysfile_path(path, sizeof(path), s->root,
			      "/sys/dev/block/%u:%u/stat", major, minor) &&
	       !access(path, R_OK);
}

/*
 * btrfs and the like give files an anonymous st_dev (major 0): the device
 * is then the mount source's, through ROOT/sys/class/block/NAME/dev.
 */
static int devno_of_source(const struct sysstat *s, const char *source,
			   unsigned *major, unsigned *minor)
{
	char real[PATH_MAX], path[PATH_MAX], buf[64];
	const char *name;

	if (strncmp(source, "/dev/", 5))
		return -1;
	/* /dev/mapper/x and /dev/disk/by-uuid/y are symlinks to dm-0, sda2 */
	if (!s->root[0] && realpath(source, real))
		source = real;
	name = strrchr(source, '/') + 1;
	if (sysfile_path(path, sizeof(path), s->root,
			  "/sys/class/block/%s/dev", name) ||
	    sysfile_text(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", major, minor) != 2)
		return -1;
	return 0;
}

/* The kernel's name of a device, and of its whole disk. */
static void name_device(const struct sysstat *s, struct sysstat_devinfo *di)
{
	char dir[PATH_MAX], path[PATH_MAX], link[PATH_MAX];
	char buf[SYSSTAT_LINE_LEN];
	const char *p;
	ssize_t n;

	snprintf(di->name, sizeof(di->name), "%u:%u", di->major, di->minor);
	if (sysfile_path(dir, sizeof(dir), s->root, "/sys/dev/block/%u:%u",
			  di->major, di->minor))
		goto out;
	n = readlink(dir, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (!sysfile_path(path, sizeof(path), "", "%s/uevent", dir) &&
	    !sysfile_text(path, buf, sizeof(buf)) &&
	    (p = strstr(buf, "DEVNAME=")) && (p == buf || p[-1] == '\n'))
		snprintf(di->name, sizeof(di->name), "%.*s",
			 (int)strcspn(p + 8, "\n"), p + 8);
	else if (link[0])
		snprintf(di->name, sizeof(di->name), "%.*s",
			 (int)sizeof(di->name) - 1,
			 strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	/* A partition sits in its disk's directory: .../block/sda/sda1 */
	if (!sysfile_path(path, sizeof(path), "", "%s/partition", dir) &&
	    !access(path, F_OK) && (p = strrchr(link, '/'))) {
		const char *q = p;

		while (q > link && q[-1] != '/')
			q--;
		if (p > q) {
			snprintf(di->disk, sizeof(di->disk), "%.*s",
				 (int)(p - q), q);
			return;
		}
	}
out:
	snprintf(di->disk, sizeof(di->disk), "%s", di->name);
}

/* The index of device major:minor, registering it if new; -1 if full. */
static int follow(struct sysstat *s, unsigned major, unsigned minor)
{
	struct sysstat_devinfo *di;

	for (unsigned i = 0; i < s->ndev; i++)
		if (s->dev[i].major == major && s->dev[i].minor == minor)
			return (int)i;
	if (s->ndev == SYSSTAT_MAX_DEVS)
		return -1;
	di = &s->dev[s->ndev];
	memset(di, 0, sizeof(*di));
	di->major = major;
	di->minor = minor;
	name_device(s, di);
	return (int)s->ndev++;
}

int sysstat_device_of_devno(struct sysstat *s, unsigned major,
			    unsigned minor, const char *path,
			    struct sysstat_mount *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->devidx = -1;
	find_mount(s, major, minor, path, m);
	if (!major || !have_devstat(s, major, minor)) {
		if (devno_of_source(s, m->source, &major, &minor) ||
		    !have_devstat(s, major, minor)) {
			sysstat_set_err(err, errlen,
					"no block device behind %s (%s)", path,
					m->fstype[0] ? m->fstype :
						       "unknown file system");
			return -1;
		}
	}
	m->devidx = follow(s, major, minor);
	if (m->devidx < 0)
		sysstat_set_err(err, errlen, "%s: more than %d block devices "
				"to follow", path, SYSSTAT_MAX_DEVS);
	return m->devidx;
}

int sysstat_device_of(struct sysstat *s, const char *path,
		      struct sysstat_mount *m, char *err, size_t errlen)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base = NULL, *at = path, *slash;
	struct stat st;

	memset(m, 0, sizeof(*m));
	m->devidx = -1;
	if (stat(path, &st)) {
		if (errno != ENOENT)
			goto fail;
		/* A file yet to be created: its directory's device. */
		slash = strrchr(path, '/');
		base = slash ? slash + 1 : path;
		path_dir(path, dir, sizeof(dir));
		at = dir;
		if (stat(at, &st))
			goto fail;
	}
	if (!realpath(at, real))
		goto fail;
	if (base && *base) {
		size_t n = strlen(real);

		if (n + 1 + strlen(base) >= sizeof(real)) {
			errno = ENAMETOOLONG;
			goto fail;
		}
		snprintf(real + n, sizeof(real) - n, "%s%s",
			 strcmp(real, "/") ? "/" : "", base);
	}
	return sysstat_device_of_devno(s, major(st.st_dev), minor(st.st_dev),
				       real, m, err, errlen);
fail:
	sysstat_set_err(err, errlen, "cannot find the device of %s: %s",
			path, strerror(errno));
	return -1;
}
