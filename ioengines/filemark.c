/*
 * filemark.c - the mark on the files memjob creates (see filemark.h).
 *
 * The one idea: a mark is only as good as who could have written it.  A
 * user attribute can be set by the file's owner (and root), so the mark
 * counts only on a file owned by the user memjob runs as; a record lives
 * in a directory only that user may write.  Whether the run that wrote
 * it is gone is judged by its pid's start time in this boot, so a pid
 * used again by another process is not taken for the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "ioengines/filemark.h"

#define MARK_MAX	256

struct mark {
	char host[HOST_NAME_MAX + 1];
	char boot[40];
	long pid;
	unsigned long long start;	/* clock ticks after boot */
	long long made;			/* time(2) when it was made */
};

/* Field 22 of /proc/PID/stat: when the process started; 0 if unknown. */
static unsigned long long start_of(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* after the command's ")", which may hold spaces */
	p = p ? strrchr(buf, ')') : NULL;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%*u %*u %*d %*d %*d %*d %*d %*d %llu", &start) != 1)
		return 0;
	return start;
}

static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	snprintf(buf, len, "unknown");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

const char *filemark_self(void)
{
	static char text[MARK_MAX];
	char host[HOST_NAME_MAX + 1] = "", boot[40];

	if (text[0])
		return text;
	if (gethostname(host, sizeof(host)) || !host[0])
		snprintf(host, sizeof(host), "unknown");
	host[strcspn(host, " \t\n")] = '\0';
	boot_id(boot, sizeof(boot));
	snprintf(text, sizeof(text), "memjob host=%s boot=%s pid=%ld "
		 "start=%llu made=%lld", host, boot, (long)getpid(),
		 start_of((long)getpid()), (long long)time(NULL));
	return text;
}

static int parse_mark(const char *text, struct mark *m)
{
	memset(m, 0, sizeof(*m));
	return sscanf(text, "memjob host=%64s boot=%39s pid=%ld start=%llu "
		      "made=%lld", m->host, m->boot, &m->pid, &m->start,
		      &m->made) == 5 ? 0 : -1;
}

const char *filemark_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("MEMJOB_STATE_DIR");
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (xdg && *xdg == '/')
		snprintf(dir, sizeof(dir), "%s/memjob/files", xdg);
	else if (home && *home == '/')
		snprintf(dir, sizeof(dir), "%s/.local/state/memjob/files",
			 home);
	else
		dir[0] = '\0';
	return dir;
}

/* mkdir -p of dir, the last part 0700. */
static void make_dir(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	mkdir(p, 0700);
}

/*
 * The record directory, opened, when it is fit to be believed: a real
 * directory (not through a symbolic link at its last part) of this
 * user's that no one else may write.  -1 (errno set) otherwise.
 */
static int open_dir(bool create)
{
	const char *dir = filemark_dir();
	struct stat st;
	int fd;

	if (!dir[0]) {
		errno = ENOENT;
		return -1;
	}
	if (create)
		make_dir(dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

static void record_name(const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "%llx-%llx", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino);
}

static int record_set(const struct stat *st, const char *path)
{
	char name[64], text[MARK_MAX + PATH_MAX + 2];
	int dfd = open_dir(true), fd, n, ret = -1;

	if (dfd < 0)
		return -1;
	record_name(st, name, sizeof(name));
	unlinkat(dfd, name, 0);		/* a stale one, of a file gone */
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd >= 0) {
		n = snprintf(text, sizeof(text), "%s\n%s\n", filemark_self(),
			     path);
		ret = n > 0 && write(fd, text, (size_t)n) == n ? 0 : -1;
		if (close(fd) || ret)
			ret = (unlinkat(dfd, name, 0), -1);
	}
	close(dfd);
	return ret;
}

/* The record of st, if it was made for path: its mark into buf. */
static int record_get(const struct stat *st, const char *path, char *buf,
		      size_t len)
{
	char name[64], text[MARK_MAX + PATH_MAX + 2], *nl;
	int dfd = open_dir(false), fd;
	ssize_t n;

	if (dfd < 0)
		return -1;
	record_name(st, name, sizeof(name));
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	nl = strchr(text, '\n');
	if (!nl)
		return -1;
	*nl++ = '\0';
	/* a record of an inode that now holds another file */
	if (strncmp(nl, path, strlen(path)) || nl[strlen(path)] != '\n' ||
	    strlen(text) >= len)
		return -1;
	memcpy(buf, text, strlen(text) + 1);
	return 0;
}

int filemark_set(int fd, const char *path, char *err, size_t len)
{
	const char *mark = filemark_self();
	struct stat st;
	int xerr;

	if (!fsetxattr(fd, FILEMARK_XATTR, mark, strlen(mark), 0))
		return 0;
	xerr = errno;
	if (!fstat(fd, &st) && !record_set(&st, path))
		return 0;
	snprintf(err, len, "cannot mark '%s' as memjob's (attribute "
		 FILEMARK_XATTR ": %s; record in '%s': %s): a leftover of "
		 "a killed run would not be recognised", path,
		 strerror(xerr), filemark_dir()[0] ? filemark_dir() :
		 "(no HOME)", strerror(errno));
	return -1;
}

void filemark_clear(int fd, const struct stat *st)
{
	char name[64];
	int dfd;

	if (fd >= 0)
		fremovexattr(fd, FILEMARK_XATTR);
	dfd = open_dir(false);
	if (dfd < 0)
		return;
	record_name(st, name, sizeof(name));
	unlinkat(dfd, name, 0);
	close(dfd);
}

static void judge_mark(const struct mark *m, struct filemark_seen *seen)
{
	char host[HOST_NAME_MAX + 1] = "", boot[40], when[32] = "?";
	time_t t = (time_t)m->made;
	struct tm tm;
	bool alive;

	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	boot_id(boot, sizeof(boot));
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(seen->who, sizeof(seen->who), "memjob run pid %ld on %s, "
		 "made %s", m->pid, m->host, when);
	if (strcmp(m->host, host)) {
		seen->verdict = MARK_ELSEWHERE;
		return;
	}
	/* the same boot, and that pid still the process that made it */
	alive = !strcmp(m->boot, boot) && m->start &&
		start_of(m->pid) == m->start;
	if (alive && m->pid == (long)getpid())
		alive = false;		/* this run: it did not make it yet */
	seen->verdict = alive ? MARK_LIVE : MARK_LEFTOVER;
}

void filemark_judge(const char *path, struct filemark_seen *seen)
{
	char text[MARK_MAX];
	struct stat st;
	struct mark m;
	ssize_t n;
	int fd;

	memset(seen, 0, sizeof(*seen));
	seen->verdict = MARK_NONE;
	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		  O_CLOEXEC);
	if (fd < 0)
		return;
	/* what was opened is what was looked at, and could be ours */
	if (fstat(fd, &seen->st) || seen->st.st_dev != st.st_dev ||
	    seen->st.st_ino != st.st_ino || !S_ISREG(seen->st.st_mode) ||
	    seen->st.st_uid != geteuid() || seen->st.st_nlink != 1) {
		close(fd);
		return;
	}
	n = fgetxattr(fd, FILEMARK_XATTR, text, sizeof(text) - 1);
	close(fd);
	if (n > 0)
		text[n] = '\0';
	else if (record_get(&seen->st, path, text, sizeof(text)))
		return;
	if (parse_mark(text, &m))
		return;
	judge_mark(&m, seen);
}

void filemark_describe(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st)) {
		snprintf(buf, len, "%s", errno == ENOENT ? "nothing" :
			 strerror(errno));
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(buf, len, "a symbolic link to '%s'", target);
		return;
	}
	snprintf(buf, len, "%s of uid %u (inode %llu, %llu link%s)",
		 S_ISREG(st.st_mode) ? "a regular file" :
		 S_ISDIR(st.st_mode) ? "a directory" :
		 S_ISFIFO(st.st_mode) ? "a FIFO" : "a special file",
		 (unsigned)st.st_uid, (unsigned long long)st.st_ino,
		 (unsigned long long)st.st_nlink, st.st_nlink == 1 ? "" : "s");
}
