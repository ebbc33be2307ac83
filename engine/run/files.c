/*
 * files.c - the files memjob creates for a run (see files.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/files.h"
#include "ioengines/filegen.h"
#include "util/value.h"

int files_create(struct created_files *cf, unsigned i)
{
	const struct file_to_create *c = &cf->plan->creates[i];
	struct created_file *id = &cf->f[i];
	char err[512], sz[32], pat[64];
	int ret;

	if (cf->progress) {
		value_format_size(c->size, sz, sizeof(sz));
		pattern_format(&c->pattern, pat, sizeof(pat));
		fprintf(cf->progress, "memjob: creating '%s' (%s, "
			"pattern %s)\n", c->path, sz, pat);
	}
	ret = c->sparse ? filegen_create_sparse(c->path, c->size, err,
						sizeof(err))
			: filegen_create(c->path, c->size, &c->pattern,
					 c->seed, err, sizeof(err));
	if (ret)	/* > 0: made, with a note */
		fprintf(stderr, "memjob: job '%s': %s\n", c->by->name, err);
	if (ret < 0)
		return -1;
	id->known = !stat(c->path, &id->st);
	id->gone = false;
	return 0;
}

int files_create_all(struct created_files *cf, atomic_int *stop)
{
	const struct plan *p = cf->plan;

	cf->f = calloc(p->ncreates ? p->ncreates : 1, sizeof(*cf->f));
	if (!cf->f)
		return -1;
	for (unsigned i = 0; i < p->ncreates; i++) {
		if (atomic_load(stop) || files_create(cf, i))
			return -1;
		cf->n++;
	}
	return 0;
}

int files_remove(struct created_files *cf, unsigned i)
{
	const char *path = cf->plan->creates[i].path;
	struct created_file *id = &cf->f[i];
	struct stat st;

	if (id->gone)
		return 0;
	/* Another process put a file of its own there: not ours. */
	if (id->known && !lstat(path, &st) &&
	    (st.st_dev != id->st.st_dev || st.st_ino != id->st.st_ino)) {
		fprintf(stderr, "memjob: '%s' was replaced while the jobs ran; "
			"the new file is left as it is\n", path);
		id->gone = true;	/* not ours any more */
		return -1;
	}
	if (unlink(path) && errno != ENOENT) {
		fprintf(stderr, "memjob: cannot remove '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	id->gone = true;
	return 0;
}

void files_cleanup(struct created_files *cf)
{
	for (unsigned i = 0; i < cf->n; i++)
		if (!cf->plan->creates[i].by->keep_files)
			files_remove(cf, i);
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
