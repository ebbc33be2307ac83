/*
 * memcg.c - the run's memory cgroup (see memcg.h).
 *
 * Where the memory controller lives decides the version: a cgroup v1
 * hierarchy that has it (mounted with "memory") takes it away from v2,
 * so that one is used when it exists; otherwise the v2 tree, where the
 * controller must be enabled for the new cgroup by its parent's
 * cgroup.subtree_control.  v2 also forbids processes in a cgroup that
 * hands controllers to its children (outside the root), so the cgroup a
 * process sits in cannot usually get a memory child: the run's cgroup
 * then goes beside it, below the parent that enables memory for both.
 * On v1 it is a child of the process's own memory cgroup.
 */
#include "machine/memcg.h"

#include "util/sysfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FAIL(...) do { snprintf(err, len, __VA_ARGS__); return -1; } while (0)

/* Does the comma or blank separated list hold word? */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *s = list; (s = strstr(s, word)); s += n)
		if ((s == list || strchr(seps, s[-1])) &&
		    (!s[n] || strchr(seps, s[n])))
			return true;
	return false;
}

/* at/file ("" at: file itself), opened for reading. */
static FILE *open_at(const char *at, const char *file)
{
	char p[PATH_MAX + 64];

	return sysfile_path(p, sizeof(p), at, "%s", file) ? NULL :
	       fopen(p, "r");
}

/* The mount point (below at) and root of the v1 hierarchy with the
 * memory controller (version 1) or of the v2 tree (version 2); -1:
 * none. */
static int find_mount(const char *at, int version, char *mnt, char *root,
		      size_t len)
{
	FILE *f = open_at(at, "/proc/self/mountinfo");
	char line[4096];
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char r[1024], m[1024], type[64], opts[1024];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2)
			continue;
		if (version == 1 ? strcmp(type, "cgroup") ||
				   !has_word(opts, "memory", ",")
				 : strcmp(type, "cgroup2") != 0)
			continue;
		snprintf(mnt, len, "%s%s", at, m);
		snprintf(root, len, "%s", r);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* The process's cgroup path in the hierarchy of version (from
 * /proc/self/cgroup: "N:memory,...:/path" for v1, "0::/path" for v2). */
static int own_path(const char *at, int version, char *path, size_t len)
{
	FILE *f = open_at(at, "/proc/self/cgroup");
	char line[4096];
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		line[strcspn(line, ":")] = '\0';
		if (version == 1 ? !has_word(c1 + 1, "memory", ",")
				 : strcmp(line, "0") || c1[1] != '\0')
			continue;
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		snprintf(path, len, "%s", c2 + 1);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* mnt joined with the cgroup path, seen from the mount's root (a mount
 * of a subtree, as in a container, shows only what is below its root). */
static int join(char *out, size_t len, const char *mnt, const char *root,
		const char *path)
{
	size_t r = strlen(root);

	if (strcmp(root, "/") && !strncmp(path, root, r) &&
	    (path[r] == '/' || !path[r]))
		path += r;
	else if (strcmp(root, "/"))
		return -1;	/* the process is outside the mounted part */
	return snprintf(out, len, "%s%s", mnt, strcmp(path, "/") ? path : "")
	       >= (int)len ? -1 : 0;
}

static bool exists(const char *dir, const char *file)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return !access(p, F_OK);
}

/* Can a cgroup be made in base and the process moved there? */
static int writable(const char *base, char *err, size_t len)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/cgroup.procs", base);
	if (access(base, W_OK) || access(p, W_OK))
		FAIL("cannot make a cgroup in %s: %s", base, strerror(errno));
	return 0;
}

/* m->home is the process's cgroup in the v2 tree at mnt. */
static int locate_v2(struct memcg *m, const char *mnt, char *err, size_t len)
{
	char ctl[PATH_MAX + 64], on[512] = "";
	char base[PATH_MAX];

	snprintf(base, sizeof(base), "%s", m->home);
	snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", base);
	if (sysfile_text(ctl, on, sizeof(on)) || !has_word(on, "memory", " ")) {
		/* memory.max in the own cgroup: its parent enables memory */
		char *slash = strrchr(base, '/');

		if (!exists(m->home, "memory.max") || !slash ||
		    strlen(base) <= strlen(mnt))
			FAIL("the memory controller is not enabled for %s "
			     "(\"memory\" is not in %s); a v2 tree hands it "
			     "down only where the parent's "
			     "cgroup.subtree_control lists it", m->home, ctl);
		*slash = '\0';
	}
	if (writable(base, err, len))
		return -1;
	m->version = 2;
	if (snprintf(m->dir, sizeof(m->dir), "%s/memjob-%ld", base,
		     (long)getpid()) >= (int)sizeof(m->dir))
		FAIL("the cgroup path below %s is too long", base);
	return 0;
}

int memcg_locate(struct memcg *m, char *err, size_t len)
{
	return memcg_locate_at(m, "", err, len);
}

int memcg_where_at(const char *at, char *home, char *top, size_t len,
		   char *err, size_t errlen)
{
	char root[PATH_MAX], path[PATH_MAX];
	int v = 1;

	if (find_mount(at, 1, top, root, len)) {
		v = 2;
		if (find_mount(at, 2, top, root, len)) {
			snprintf(err, errlen, "no cgroup file system with the "
				 "memory controller is mounted "
				 "(/proc/self/mountinfo)");
			return -1;
		}
	}
	if (own_path(at, v, path, sizeof(path)) ||
	    join(home, len, top, root, path)) {
		snprintf(err, errlen, "cannot tell this process's %s from "
			 "/proc/self/cgroup", v == 1 ? "memory cgroup (v1)" :
			 "cgroup v2");
		return -1;
	}
	return v;
}

/* A line "key N" of dir's memory.stat; 0 when it has none. */
static uint64_t stat_of(const char *dir, const char *key)
{
	char p[PATH_MAX + 64], line[256];
	unsigned long long v = 0;
	size_t n = strlen(key);
	FILE *f;

	snprintf(p, sizeof(p), "%s/memory.stat", dir);
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ' &&
		    sscanf(line + n, " %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* One limit file of dir: the room it leaves, kept in r when the least
 * so far.  "max", or v1's page-counter maximum, is no limit. */
static void one_limit(const char *dir, const char *file, int version,
		      struct memcg_room *r)
{
	char p[PATH_MAX + 64], used_file[PATH_MAX + 64], text[64];
	uint64_t limit, used, cache;
	char *end;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (sysfile_text(p, text, sizeof(text)) || !strcmp(text, "max"))
		return;
	errno = 0;
	limit = strtoull(text, &end, 10);
	if (errno || *end || end == text || limit >= (1ull << 62))
		return;
	snprintf(used_file, sizeof(used_file), "%s/%s", dir,
		 version == 2 ? "memory.current" : "memory.usage_in_bytes");
	if (sysfile_u64(used_file, &used))
		used = 0;
	cache = version == 2 ? stat_of(dir, "active_file") +
			       stat_of(dir, "inactive_file")
			     : stat_of(dir, "total_active_file") +
			       stat_of(dir, "total_inactive_file");
	used = used > cache ? used - cache : 0;
	if (limit - (used < limit ? used : limit) >= r->room)
		return;
	r->room = limit - (used < limit ? used : limit);
	r->limit = limit;
	r->used = used;
	snprintf(r->file, sizeof(r->file), "%s", p);
}

void memcg_room_of(const char *dir, const char *top, int version,
		   struct memcg_room *r)
{
	char d[PATH_MAX];
	size_t t = strlen(top);

	memset(r, 0, sizeof(*r));
	r->room = UINT64_MAX;
	snprintf(d, sizeof(d), "%s", dir);
	for (;;) {
		char *slash;

		if (version == 2) {
			one_limit(d, "memory.max", 2, r);
			one_limit(d, "memory.high", 2, r);
		} else {
			one_limit(d, "memory.limit_in_bytes", 1, r);
		}
		slash = strrchr(d, '/');
		if (strlen(d) <= t || !slash || (size_t)(slash - d) < t)
			break;
		*slash = '\0';
	}
}

int memcg_locate_at(struct memcg *m, const char *at, char *err, size_t len)
{
	char mnt[PATH_MAX];
	int v;

	memset(m, 0, sizeof(*m));
	v = memcg_where_at(at, m->home, mnt, sizeof(mnt), err, len);
	if (v < 0)
		return -1;
	if (v == 2)
		return locate_v2(m, mnt, err, len);
	if (!exists(m->home, "memory.limit_in_bytes"))
		FAIL("%s has no memory.limit_in_bytes", m->home);
	if (writable(m->home, err, len))
		return -1;
	m->version = 1;
	if (snprintf(m->dir, sizeof(m->dir), "%s/memjob-%ld", m->home,
		     (long)getpid()) >= (int)sizeof(m->dir))
		FAIL("the cgroup path below %s is too long", m->home);
	return 0;
}

static int put(const char *dir, const char *file, const char *value,
	       char *err, size_t len)
{
	char p[PATH_MAX + 64];
	int fd, saved;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		FAIL("cannot open %s: %s", p, strerror(errno));
	n = write(fd, value, strlen(value));
	saved = errno;
	close(fd);
	if (n != (ssize_t)strlen(value))
		FAIL("writing %s to %s: %s", value, p,
		     n < 0 ? strerror(saved) : "short write");
	return 0;
}

int memcg_open(struct memcg *m, char *err, size_t len)
{
	char pid[32];

	/* One of the same name is left by an earlier memjob with this
	 * PID that was killed (SIGKILL runs no cleanup): rmdir removes it
	 * only if no process is left in it, which is then the case. */
	if (mkdir(m->dir, 0755) && (errno != EEXIST || rmdir(m->dir) ||
				    mkdir(m->dir, 0755)))
		FAIL("cannot make the cgroup %s: %s", m->dir, strerror(errno));
	m->made = true;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	if (put(m->dir, "cgroup.procs", pid, err, len)) {
		rmdir(m->dir);
		m->made = false;
		return -1;
	}
	m->moved = true;
	return 0;
}

int memcg_set_limit(struct memcg *m, uint64_t bytes, char *err, size_t len)
{
	char v[32];

	if (bytes == m->limit)
		return 0;
	if (bytes)
		snprintf(v, sizeof(v), "%llu", (unsigned long long)bytes);
	else
		snprintf(v, sizeof(v), "%s", m->version == 2 ? "max" : "-1");
	if (put(m->dir, m->version == 2 ? "memory.max" :
		"memory.limit_in_bytes", v, err, len))
		return -1;
	m->limit = bytes;
	return 0;
}

int memcg_close(struct memcg *m, char *err, size_t len)
{
	char pid[32], why[512] = "";
	int ret = 0;

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	if (m->moved && put(m->home, "cgroup.procs", pid, why, sizeof(why))) {
		snprintf(err, len, "cannot leave the cgroup %s: %s", m->dir,
			 why);
		ret = -1;
	}
	m->moved = false;
	if (!m->made)
		return ret;
	/* the last thread may take a moment to be gone from it */
	for (int i = 0; i < 50 && rmdir(m->dir) && errno == EBUSY; i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	if (!access(m->dir, F_OK)) {
		if (!ret)
			snprintf(err, len, "cannot remove the cgroup %s: %s",
				 m->dir, strerror(errno));
		ret = -1;
	} else {
		m->made = false;
	}
	return ret;
}
