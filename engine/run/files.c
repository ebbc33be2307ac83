/*
 * files.c - the files memjob creates for a run (see files.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/files.h"
#include "ioengines/filegen.h"
#include "ioengines/filemark.h"
#include "util/value.h"

/* The file is not memjob's (any more): why, said and kept for the jobs
 * of the next run that use it. */
__attribute__((format(printf, 3, 4)))
static void lose(struct created_files *cf, unsigned i, const char *fmt, ...)
{
	struct created_file *id = &cf->f[i];
	va_list ap;
	char *why;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	fprintf(stderr, "memjob: job '%s': %s\n", cf->plan->creates[i].by->name,
		why ? why : "out of memory");
	free(id->lost);
	id->lost = why ? why : strdup("lost (out of memory)");
}

static void close_held(struct created_file *id)
{
	if (id->fd >= 0)
		close(id->fd);
	id->fd = -1;
}

/* A leftover of a run that is gone, planned to be replaced: removed if it
 * is still the file the check judged (said).  Anything else there is left
 * alone, and the create that follows fails on it. */
static void replace_leftover(const struct file_to_create *c)
{
	struct filemark_seen seen;

	filemark_judge(c->path, &seen);
	if (seen.verdict != MARK_LEFTOVER || seen.st.st_dev != c->left.st_dev ||
	    seen.st.st_ino != c->left.st_ino)
		return;
	fprintf(stderr, "memjob: job '%s': '%s' was left by %s, which is "
		"gone (killed?); replacing it\n", c->by->name, c->path,
		c->left_by);
	if (!unlink(c->path))
		filemark_clear(-1, &seen.st);
}

/*
 * MEMJOB_HOOK_CREATE (for tests): a program run with the path just before
 * memjob creates a file there, so that a test can be the neighbour who
 * plants a file or a link at the worst moment, every time.
 */
static void create_hook(const char *path)
{
	const char *hook = getenv("MEMJOB_HOOK_CREATE");
	pid_t pid;
	int status;

	if (!hook || !*hook)
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execl(hook, hook, path, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

int files_create(struct created_files *cf, unsigned i)
{
	const struct file_to_create *c = &cf->plan->creates[i];
	struct created_file *id = &cf->f[i];
	char err[512], sz[32], pat[64], there[PATH_MAX + 64];
	int ret, fd = -1;

	free(id->lost);
	id->lost = NULL;
	id->gone = true;		/* until it is made */
	if (c->replace)
		replace_leftover(c);
	if (cf->progress) {
		value_format_size(c->size, sz, sizeof(sz));
		pattern_format(&c->pattern, pat, sizeof(pat));
		fprintf(cf->progress, "memjob: creating '%s' (%s, "
			"pattern %s)\n", c->path, sz, pat);
	}
	create_hook(c->path);
	ret = c->sparse ? filegen_create_sparse(c->path, c->size, &fd, err,
						sizeof(err))
			: filegen_create_held(c->path, c->size, &c->pattern,
					      c->seed, &fd, err, sizeof(err));
	if (ret > 0)	/* made, with a note */
		fprintf(stderr, "memjob: job '%s': %s\n", c->by->name, err);
	if (ret < 0) {
		filemark_describe(c->path, there, sizeof(there));
		if (strcmp(there, "nothing"))
			lose(cf, i, "%s; %s is there, which memjob did not "
			     "make and does not write", err, there);
		else
			lose(cf, i, "%s", err);
		return -1;
	}
	if (fstat(fd, &id->st)) {
		lose(cf, i, "cannot look at '%s' just made: %s", c->path,
		     strerror(errno));
		close(fd);
		return -1;
	}
	id->fd = fd;
	id->gone = false;
	if (filemark_set(fd, c->path, err, sizeof(err)) && !cf->said_unmarked) {
		fprintf(stderr, "memjob: note: %s\n", err);
		cf->said_unmarked = true;
	}
	return 0;
}

int files_create_all(struct created_files *cf, atomic_int *stop)
{
	const struct plan *p = cf->plan;

	cf->f = calloc(p->ncreates ? p->ncreates : 1, sizeof(*cf->f));
	if (!cf->f)
		return -1;
	for (unsigned i = 0; i < p->ncreates; i++)
		cf->f[i].fd = -1;
	for (unsigned i = 0; i < p->ncreates; i++) {
		if (atomic_load(stop))
			return -1;
		cf->n++;		/* its entry is cleaned up either way */
		if (files_create(cf, i))
			return -1;
	}
	return 0;
}

int files_remove(struct created_files *cf, unsigned i)
{
	const char *path = cf->plan->creates[i].path;
	struct created_file *id = &cf->f[i];
	char there[PATH_MAX + 64];
	struct stat st;

	if (id->gone)
		return 0;
	if (lstat(path, &st)) {		/* removed by someone else */
		close_held(id);
		id->gone = true;
		return 0;
	}
	/* Another process put a file of its own there: not ours. */
	if (st.st_dev != id->st.st_dev || st.st_ino != id->st.st_ino) {
		filemark_describe(path, there, sizeof(there));
		lose(cf, i, "'%s' was replaced while the jobs ran (%s is there "
		     "now); the new file is left as it is", path, there);
		close_held(id);
		id->gone = true;
		return -1;
	}
	if (unlink(path) && errno != ENOENT) {
		fprintf(stderr, "memjob: cannot remove '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	filemark_clear(-1, &id->st);	/* its record, if it has one */
	close_held(id);
	id->gone = true;
	return 0;
}

void files_cleanup(struct created_files *cf)
{
	for (unsigned i = 0; i < cf->n; i++) {
		struct created_file *id = &cf->f[i];

		if (!cf->plan->creates[i].by->keep_files) {
			files_remove(cf, i);
		} else if (!id->gone && id->fd >= 0) {
			filemark_clear(id->fd, &id->st);  /* the user's now */
			close_held(id);
		}
		close_held(id);
		free(id->lost);
	}
	free(cf->f);
	cf->f = NULL;
	cf->n = 0;
}

int files_index(const struct created_files *cf, const char *path)
{
	for (unsigned i = 0; i < cf->n; i++)
		if (!strcmp(cf->plan->creates[i].path, path))
			return (int)i;
	return -1;
}

const struct created_file *files_made(const struct created_files *cf,
				      const char *path)
{
	int i = path ? files_index(cf, path) : -1;

	return i < 0 ? NULL : &cf->f[i];
}
