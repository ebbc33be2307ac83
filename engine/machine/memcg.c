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

static int locate_v2(struct memcg *m, const char *at, const char *mnt,
		     const char *root, char *err, size_t len)
{
	char path[PATH_MAX], ctl[PATH_MAX + 64], on[512] = "";
	char base[PATH_MAX];

	if (own_path(at, 2, path, sizeof(path)) ||
	    join(m->home, sizeof(m->home), mnt, root, path))
		FAIL("cannot tell this process's cgroup v2 from "
		     "/proc/self/cgroup");
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

int memcg_locate_at(struct memcg *m, const char *at, char *err, size_t len)
{
	char mnt[PATH_MAX], root[PATH_MAX], path[PATH_MAX];

	memset(m, 0, sizeof(*m));
	if (find_mount(at, 1, mnt, root, sizeof(mnt))) {
		if (find_mount(at, 2, mnt, root, sizeof(mnt)))
			FAIL("no cgroup file system with the memory controller "
			     "is mounted (/proc/self/mountinfo)");
		return locate_v2(m, at, mnt, root, err, len);
	}
	if (own_path(at, 1, path, sizeof(path)) ||
	    join(m->home, sizeof(m->home), mnt, root, path))
		FAIL("cannot tell this process's memory cgroup (v1) from "
		     "/proc/self/cgroup");
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
